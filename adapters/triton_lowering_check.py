#!/usr/bin/env python3
"""Checks f2lay's model of Triton 3.9.0's shared-memory lowering against the code Triton generates.

For random cases this writes Gluon kernels, compiles them on the CPU with Triton (sm_80 or
sm_90, one CTA, 1 to 8 warps) and reads what the compiled code does by interpreting its LLVM
IR per thread (llir_shared.py): every shared-memory access with each lane's byte address and
width, the barriers, the warp shuffles, and which source byte each byte moved holds. A kernel
loads a [M, N] tensor (2^6 to 2^12 elements of i8, fp16, fp32 or i64) in layout A, moves it
and stores it in layout B:

  convert       y = ttgl.convert_layout(x, B)
  local_alloc   smem = ttgl.allocate_shared_memory(dtype, shape, S, x); y = smem.load(B)
  local_store   smem = ttgl.allocate_shared_memory(dtype, shape, S); smem.store(x); y = smem.load(B)

A and B are BlockedLayouts, DistributedLinearLayouts with random bases (broadcast lanes,
warps and registers, XOR-mixed bases), mma v2 (and v3 on sm_90) accumulators and mma v2/v3
dot operands; S is an NVMMASharedLayout or a SwizzledSharedLayout. The interpretation is
checked three ways: the output must hold every input element (else exit 1), the memory
layout a local op's code uses must be Triton's own linear layout of S, and 15 kernels whose
code /work/triton_rules_notes.md states (§2.8, §3.2, §5) must read as stated.

Per data-moving op (found by its source line, the LLVM IR's !dbg) it measures:
  path          a convert's: shared_memory, warp_shuffle (shfl.sync), registers (neither,
                A != B as Triton's linear layouts) or no_op (A == B); local ops: shared_memory
  store, load   instruction (st.shared, stmatrix, stmatrix.trans / ld.shared, ldmatrix,
                ldmatrix.trans), vector_bytes (bytes a lane moves per instruction; 4 per matrix
                for ldmatrix/stmatrix .x1/.x2/.x4), instructions (warp instructions per CTA,
                every warp counted), wavefronts (per CTA: each warp instruction's lane addresses
                costed by the H100 rule of device_tests/HARDWARE.md, gluon_banks_check.py's
                instruction_cost and phase_cost; a matrix instruction as one phase per matrix,
                its 8 row addresses)
  rounds        a convert's store, barrier, load rounds (and scratch_elements: the elements
                one round's scratch holds)
  shared        the element -> shared address map, as a layout: in dim "offset" (elements
                from element 0's address) and, for a convert, "reps" (its rounds); out dims
                dim0, dim1 (a local_load's from what it reads)
The instruction kinds, widths and counts are also read from the PTX. Where the NVPTX backend
merged the LLVM IR's accesses into wider ones, the PTX's are taken, with wavefronts from the IR
accesses regrouped into the PTX's (checked: each group fills one aligned block in every
thread), or none where they do not regroup; --ir-level judges by the IR's instead.

Then `f2lay audit --json` reads the kernel's TTGIR, and each op's "triton" key must agree on
every measured field. A disagreement is an f2lay bug (f2lay models what Triton does), printed
with its case (as Gluon layouts and as JSON for --case) and, for the first few, a smaller case
that disagrees the same way. Ops f2lay does not model ({"modelled": false} or no "triton" key)
are listed, not compared. Triton's refusals and aborts (asked in forked children) are listed.

Usage: triton_lowering_check.py F2LAY [--cases N] [--seed S] [--jobs J] [--measure-only]
           [--case JSON|@FILE] [--keep DIR] [--json FILE] [--shrink N] [--ir-level] [--merges-known]
  --measure-only   print what was measured per kernel, ask f2lay nothing (F2LAY may be "-")
Exit status: 0 when f2lay agrees everywhere, 1 on an f2lay bug or when the interpretation
fails its own checks, 2 on usage errors, 77 (skip) without Triton or when f2lay models no op.
Under pytest (conftest.py; what ctest runs), test_lowering takes --cases (default 40), --seed
and --jobs, with --merges-known.
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import random
import re
import subprocess
import sys
import tempfile
import time
import warnings

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from gluon_banks_check import instruction_cost, phase_cost  # noqa: E402  (HARDWARE.md's rule)
from oracle_client import Report, first_difference, forked_outcomes, same  # noqa: E402

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # silences a 3.9 warning
try:  # numpy comes with Triton's venv (scripts/setup)
    import numpy as np
    import llir_shared
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.experimental import gluon
    from triton.experimental.gluon import language as ttgl
    from triton.experimental.gluon._runtime import GluonASTSource
except ImportError as e:  # pragma: no cover
    triton = None
    TRITON_MISSING = str(e)

DTYPES = {"i8": 1, "fp16": 2, "fp32": 4, "i64": 8}
STORE_KINDS = ("st.shared", "stmatrix", "stmatrix.trans")
LOAD_KINDS = ("ld.shared", "ldmatrix", "ldmatrix.trans")

# ------------------------------------------------------------------ the kernels
# Each data-moving op sits on a line of its own, marked: the LLVM IR's !dbg lines find it.
if triton is not None:
    @gluon.jit
    def convert_kernel(src, dst, M: ttgl.constexpr, N: ttgl.constexpr, A: ttgl.constexpr, B: ttgl.constexpr):
        om = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, A))
        on = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, A))
        x = ttgl.load(src + om[:, None] * N + on[None, :])
        y = ttgl.convert_layout(x, B)  # op: ttg.convert_layout
        bm = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, B))
        bn = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, B))
        ttgl.store(dst + bm[:, None] * N + bn[None, :], y)

    @gluon.jit
    def local_alloc_kernel(src, dst, M: ttgl.constexpr, N: ttgl.constexpr, A: ttgl.constexpr,
                           S: ttgl.constexpr, B: ttgl.constexpr):
        om = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, A))
        on = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, A))
        x = ttgl.load(src + om[:, None] * N + on[None, :])
        smem = ttgl.allocate_shared_memory(src.dtype.element_ty, [M, N], S, x)  # op: ttg.local_alloc
        y = smem.load(B)  # op: ttg.local_load
        bm = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, B))
        bn = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, B))
        ttgl.store(dst + bm[:, None] * N + bn[None, :], y)

    @gluon.jit
    def local_store_kernel(src, dst, M: ttgl.constexpr, N: ttgl.constexpr, A: ttgl.constexpr,
                           S: ttgl.constexpr, B: ttgl.constexpr):
        om = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, A))
        on = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, A))
        x = ttgl.load(src + om[:, None] * N + on[None, :])
        smem = ttgl.allocate_shared_memory(src.dtype.element_ty, [M, N], S)
        smem.store(x)  # op: ttg.local_store
        y = smem.load(B)  # op: ttg.local_load
        bm = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, B))
        bn = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, B))
        ttgl.store(dst + bm[:, None] * N + bn[None, :], y)


def op_lines(kernel_name):
    """[(op, source line)] of a kernel, from the '# op:' markers of this file."""
    lines = pathlib.Path(__file__).read_text().splitlines()
    start = next(i for i, l in enumerate(lines) if l.strip().startswith(f"def {kernel_name}("))
    out = []
    for i in range(start + 1, len(lines)):
        if lines[i].strip().startswith("def ") or lines[i].startswith("def "):
            break
        m = re.search(r"# op: (\S+)", lines[i])
        if m:
            out.append((m.group(1), i + 1))
    return out


KERNELS = {"convert": "convert_kernel", "local_alloc": "local_alloc_kernel", "local_store": "local_store_kernel"}

# ------------------------------------------------------------------ drawing cases
# A layout spec is plain JSON: {"blocked": {...}}, {"linear": {...}}, {"mma": {...}},
# {"dot": {...}}; a shared one {"nvmma": {...}} or {"swizzled": {...}}.


def bit_coord(j, shape):
    """Flat tensor bit j (dim0 in the low bits, as f2lay flattens) as [dim0, dim1]."""
    r0 = shape[0].bit_length() - 1
    return [1 << j, 0] if j < r0 else [0, 1 << (j - r0)]


def xor(a, b):
    return [x ^ y for x, y in zip(a, b)]


def draw_blocked(rng, warps):
    p = {"size_per_thread": [1, 1], "threads_per_warp": [1, 1], "warps_per_cta": [1, 1],
         "order": rng.choice([[0, 1], [1, 0]])}
    for _ in range(5):
        p["threads_per_warp"][rng.randrange(2)] *= 2
    for _ in range(warps.bit_length() - 1):
        p["warps_per_cta"][rng.randrange(2)] *= 2
    for _ in range(rng.randrange(5)):
        p["size_per_thread"][rng.randrange(2)] *= 2
    return {"blocked": p}


def draw_linear(rng, shape, warps, eb):
    """Register, lane and warp bases over the tensor's bits in random order; broadcast (zero)
    lanes, warps and registers; sometimes the bits of a 16-byte row lead the registers (wide
    vectors) or the lanes (matrix rows); sometimes a warp basis is XOR-mixed, rarely a
    register or lane basis."""
    n = sum(s.bit_length() - 1 for s in shape)
    contiguous = rng.choice([0, 1])  # which dim the leading bits run along
    r_c = shape[contiguous].bit_length() - 1
    lead_bits = [j if contiguous == 0 else j + shape[0].bit_length() - 1 for j in range(r_c)]
    bits = list(range(n))
    rng.shuffle(bits)
    style = rng.random()
    if style < 0.35:  # the low bits of one dim lead the registers
        k = min(len(lead_bits), rng.randint(1, (16 // eb).bit_length() - 1 or 1))
        lead = lead_bits[:k]
        bits = lead + [b for b in bits if b not in lead]
    wb = warps.bit_length() - 1
    while True:
        zero_lanes = rng.choice([0, 0, 0, 0, 1, 2])
        zero_warps = rng.randint(0, wb) if rng.random() < 0.25 else 0
        live_lanes, live_warps = 5 - zero_lanes, wb - zero_warps
        if live_lanes + live_warps <= n:
            break
        zero_lanes = 5 - max(0, min(5, n - wb))  # a tensor too small for every lane
        live_lanes = 5 - zero_lanes
        zero_warps = max(0, wb - (n - live_lanes))
        live_warps = wb - zero_warps
        break
    n_reg = n - live_lanes - live_warps
    if style < 0.35:
        reg_bits, rest = bits[:n_reg], bits[n_reg:]
        rng.shuffle(rest)
        lane_bits, warp_bits = rest[:live_lanes], rest[live_lanes:]
    else:
        reg_bits = bits[:n_reg]
        lane_bits, warp_bits = bits[n_reg:n_reg + live_lanes], bits[n_reg + live_lanes:]
        rng.shuffle(reg_bits)
    reg = [bit_coord(j, shape) for j in reg_bits]
    lane = [bit_coord(j, shape) for j in lane_bits] + [[0, 0]] * zero_lanes
    warp = [bit_coord(j, shape) for j in warp_bits] + [[0, 0]] * zero_warps
    rng.shuffle(lane)
    rng.shuffle(warp)
    reg += [[0, 0]] * rng.choice([0, 0, 0, 1])
    live = [b for b in reg + lane + warp if b != [0, 0]]
    if warp and rng.random() < 0.25 and len(live) > 1:
        k = rng.randrange(len(warp))
        if warp[k] != [0, 0]:
            warp[k] = xor(warp[k], rng.choice([b for b in live if b != warp[k]]))
    if rng.random() < 0.04 and len(live) > 1:
        group = rng.choice([reg, lane])
        ks = [k for k, b in enumerate(group) if b != [0, 0]]
        if ks:
            k = rng.choice(ks)
            group[k] = xor(group[k], rng.choice([b for b in live if b != group[k]]))
    return {"linear": {"reg_bases": reg, "lane_bases": lane, "warp_bases": warp}}


def mma_warps(rng, warps, version):
    if version == 3:
        return [warps, 1] if warps == 4 or rng.random() < 0.5 else [4, warps // 4]
    w0 = 1 << rng.randint(0, warps.bit_length() - 1)
    return [w0, warps // w0]


def draw_mma(rng, warps, eb, cc, version=None):
    if version is None:
        version = 3 if cc >= 90 and warps >= 4 and eb <= 4 and rng.random() < 0.5 else 2
    wpc = mma_warps(rng, warps, version)
    if version == 2:
        return {"mma": {"version": [2, 0], "warps_per_cta": wpc, "instr_shape": [16, 8]}}
    k = {1: 32, 2: 16, 4: 8}[eb]
    return {"mma": {"version": [3, 0], "warps_per_cta": wpc, "instr_shape": [16, rng.choice([8, 16, 32, 64]), k]}}


def draw_dot(rng, warps, eb, cc):
    """A dot operand of mma v2 (A or B), or of mma v3 (A, in registers) on sm_90."""
    if cc >= 90 and warps >= 4 and eb <= 2 and rng.random() < 0.3:
        parent = draw_mma(rng, warps, eb, cc, version=3)
        return {"dot": {"operand_index": 0, "parent": parent, "k_width": 4 // eb}}
    parent = draw_mma(rng, warps, eb, cc, version=2)
    return {"dot": {"operand_index": rng.randrange(2), "parent": parent, "k_width": max(1, 4 // eb)}}


def min_shape(spec, eb):
    """The smallest [M, N] a layout is drawn for (mma tiles); [1, 1] for the others."""
    if "mma" in spec:
        m = spec["mma"]
        w = m["warps_per_cta"]
        return [16 * w[0], m["instr_shape"][1] * w[1]]
    if "dot" in spec:
        d = spec["dot"]
        m = d["parent"]["mma"]
        w = m["warps_per_cta"]
        k = 32 // eb  # one mma instruction's K
        if d["operand_index"] == 0:
            return [16 * w[0], k]
        return [k, m["instr_shape"][1] * w[1]]
    return [1, 1]


def draw_shared(rng, eb, shape):
    """NVMMA (its contiguous dim, 1 or 0 when transposed, holding the swizzle) or swizzled."""
    if rng.random() < 0.5:
        transposed = rng.random() < 0.3
        contiguous = shape[0 if transposed else 1] * eb
        widths = [w for w in (0, 32, 64, 128) if w <= contiguous]
        return {"nvmma": {"swizzle_byte_width": rng.choice(widths), "transposed": transposed}}
    return {"swizzled": {"vec": 1 << rng.randint(0, 3), "per_phase": 1 << rng.randint(0, 2),
                         "max_phase": 1 << rng.randint(0, 3), "order": rng.choice([[0, 1], [1, 0]])}}


def derive_linear(rng, spec):
    """A layout near a linear one, for the intra-warp paths of a convert: its registers
    permuted (registers), its lanes permuted (a shuffle), k register and lane bases swapped
    (shuffles for k < 2, else shared memory; a zero lane basis also broadcasts), or a register
    and a warp basis swapped (shared memory)."""
    p = {k: [list(b) for b in v] for k, v in spec["linear"].items()}
    reg, lane, warp = p["reg_bases"], p["lane_bases"], p["warp_bases"]
    how = rng.choice(["registers", "lanes", "swap", "swap", "warp"])
    if how == "registers":
        rng.shuffle(reg)
    elif how == "lanes":
        rng.shuffle(lane)
    elif how == "swap":
        for _ in range(rng.randint(1, 3)):
            if reg:
                i, j = rng.randrange(len(reg)), rng.randrange(len(lane))
                reg[i], lane[j] = lane[j], reg[i]
    elif warp and reg:
        i, j = rng.randrange(len(reg)), rng.randrange(len(warp))
        reg[i], warp[j] = warp[j], reg[i]
    reg = [b for b in reg if b != [0, 0]] + [b for b in reg if b == [0, 0]]
    return {"linear": {"reg_bases": reg, "lane_bases": lane, "warp_bases": warp}}


def draw_case(rng):
    kind = rng.choice(["convert", "convert", "convert", "local_alloc", "local_store"])
    cc = rng.choice([80, 90])
    dtype = rng.choice(list(DTYPES))
    eb = DTYPES[dtype]
    warps = 1 << rng.randint(0, 3)
    for _ in range(100):
        fam_a = rng.choices(["blocked", "linear", "mma"], [4, 5, 2 if eb <= 4 else 0])[0]
        fam_b = rng.choices(["blocked", "linear", "mma", "dot"],
                            [4, 5, 1 if eb <= 4 else 0, 2 if eb <= 4 and kind != "convert" else
                             (1 if eb <= 4 else 0)])[0]
        mins = [1, 1]
        specs = {}
        for name, fam in (("A", fam_a), ("B", fam_b)):
            if fam == "mma":
                specs[name] = draw_mma(rng, warps, eb, cc)
            elif fam == "dot":
                specs[name] = draw_dot(rng, warps, eb, cc)
            else:
                specs[name] = None
            if specs[name]:
                mins = [max(a, b) for a, b in zip(mins, min_shape(specs[name], eb))]
        lo = max(6, sum(m.bit_length() - 1 for m in mins))
        if lo > 12:
            continue
        n = rng.randint(lo, 12)
        r_lo, r_hi = mins[0].bit_length() - 1, n - (mins[1].bit_length() - 1)
        r_lo = max(r_lo, 1)
        r_hi = min(r_hi, n - 1)
        if r_lo > r_hi:
            continue
        r0 = rng.randint(r_lo, r_hi)
        shape = [1 << r0, 1 << (n - r0)]
        for name, fam in (("A", fam_a), ("B", fam_b)):
            if specs[name] is None:
                specs[name] = draw_blocked(rng, warps) if fam == "blocked" else draw_linear(rng, shape, warps, eb)
        if kind == "convert" and "linear" in specs["A"] and rng.random() < 0.3:
            specs["B"] = derive_linear(rng, specs["A"])
        case = {"kind": kind, "cc": cc, "dtype": dtype, "warps": warps, "shape": shape,
                "A": specs["A"], "B": specs["B"]}
        if kind != "convert":
            case["S"] = draw_shared(rng, eb, shape)
        return case
    raise RuntimeError("no case drawn")


# ------------------------------------------------------------------ Gluon objects
def gluon_layout(spec, shape):
    if "blocked" in spec:
        p = spec["blocked"]
        return ttgl.BlockedLayout(p["size_per_thread"], p["threads_per_warp"], p["warps_per_cta"], p["order"])
    if "linear" in spec:
        p = spec["linear"]
        return ttgl.DistributedLinearLayout(p["reg_bases"], p["lane_bases"], p["warp_bases"], [], shape)
    if "mma" in spec:
        p = spec["mma"]
        return ttgl.NVMMADistributedLayout(version=p["version"], warps_per_cta=p["warps_per_cta"],
                                           instr_shape=p["instr_shape"])
    if "dot" in spec:
        p = spec["dot"]
        return ttgl.DotOperandLayout(p["operand_index"], gluon_layout(p["parent"], shape), p["k_width"])
    raise ValueError(spec)


def gluon_shared(spec, eb):
    if "nvmma" in spec:
        p = spec["nvmma"]
        return ttgl.NVMMASharedLayout(p["swizzle_byte_width"], 8 * eb, 2, p["transposed"])
    p = spec["swizzled"]
    return ttgl.SwizzledSharedLayout(p["vec"], p["per_phase"], p["max_phase"], p["order"])


def spec_text(spec):
    """A spec as the Gluon expression that builds it."""
    if spec is None:
        return "-"
    (fam, p), = spec.items()
    if fam == "blocked":
        return (f"BlockedLayout({p['size_per_thread']}, {p['threads_per_warp']}, {p['warps_per_cta']}, "
                f"{p['order']})")
    if fam == "linear":
        return (f"DistributedLinearLayout(reg_bases={p['reg_bases']}, lane_bases={p['lane_bases']}, "
                f"warp_bases={p['warp_bases']}, block_bases=[], shape=SHAPE)")
    if fam == "mma":
        return (f"NVMMADistributedLayout(version={p['version']}, warps_per_cta={p['warps_per_cta']}, "
                f"instr_shape={p['instr_shape']})")
    if fam == "dot":
        return f"DotOperandLayout({p['operand_index']}, {spec_text(p['parent'])}, k_width={p['k_width']})"
    if fam == "nvmma":
        return f"NVMMASharedLayout({p['swizzle_byte_width']}, ELEMENT_BITS, 2, transposed={p['transposed']})"
    return f"SwizzledSharedLayout({p['vec']}, {p['per_phase']}, {p['max_phase']}, {p['order']})"


def reproducer(case):
    eb = DTYPES[case["dtype"]]
    text = (f"{case['kind']}: {case['dtype']} {case['shape']}, {case['warps']} warps, sm_{case['cc']}\n"
            f"      A = {spec_text(case['A'])}\n")
    if "S" in case:
        text += f"      S = {spec_text(case['S']).replace('ELEMENT_BITS', str(8 * eb))}\n"
    text += f"      B = {spec_text(case['B'])}\n      --case '{json.dumps(case)}'"
    return text.replace("SHAPE", str(case["shape"]))


# ------------------------------------------------------------------ known cases
# Kernels whose code /work/triton_rules_notes.md states (§2.8's transposes, §3.2's stmatrix,
# §5's mma.sync operand table: sm_80, 64x64, 4 warps): the interpreter must read exactly that.
def _blocked(spt, tpw, wpc, order):
    return {"blocked": {"size_per_thread": spt, "threads_per_warp": tpw, "warps_per_cta": wpc, "order": order}}


def _dot(op, k_width, warps=(4, 1)):
    return {"dot": {"operand_index": op, "parent": {"mma": {"version": [2, 0], "warps_per_cta": list(warps),
                                                            "instr_shape": [16, 8]}}, "k_width": k_width}}


def _operand(dtype, op, k_contiguous):
    """A §5 row: an mma.sync operand loaded from swizzled shared memory."""
    eb = DTYPES[dtype]
    vec = 16 // eb
    order = [1, 0] if (op == 0) == k_contiguous else [0, 1]
    return {"kind": "local_alloc", "cc": 80, "dtype": dtype, "warps": 4, "shape": [64, 64],
            "A": _blocked([1, vec], [4, 8], [4, 1], [1, 0]),
            "S": {"swizzled": {"vec": vec, "per_phase": 1, "max_phase": 8, "order": order}},
            "B": _dot(op, max(1, 4 // eb))}


KNOWN = [
    ("§2.8 (i): int8 32x32 transpose, 32 st.shared.b8 + 8 ld.shared.b32 = 40 wavefronts",
     {"kind": "convert", "cc": 90, "dtype": "i8", "warps": 1, "shape": [32, 32],
      "A": _blocked([1, 1], [32, 1], [1, 1], [0, 1]), "B": _blocked([1, 1], [1, 32], [1, 1], [1, 0])},
     "ttg.convert_layout", {"path": "shared_memory", "rounds": 1,
                            "store": {"instruction": "st.shared", "vector_bytes": 1, "instructions": 32, "wavefronts": 32},
                            "load": {"instruction": "ld.shared", "vector_bytes": 4, "instructions": 8, "wavefronts": 8}}),
    ("§2.8 (ii): int8 32x32 transpose, 32 st.shared.b8 + 32 ld.shared.b8 at 4 = 160 wavefronts",
     {"kind": "convert", "cc": 90, "dtype": "i8", "warps": 1, "shape": [32, 32],
      "A": _blocked([16, 1], [2, 16], [1, 1], [0, 1]), "B": _blocked([1, 16], [16, 2], [1, 1], [1, 0])},
     "ttg.convert_layout", {"path": "shared_memory", "rounds": 1,
                            "store": {"instruction": "st.shared", "vector_bytes": 1, "instructions": 32, "wavefronts": 32},
                            "load": {"instruction": "ld.shared", "vector_bytes": 1, "instructions": 32, "wavefronts": 128}}),
    ("§3.2: sm_90 mma v3 fp16 accumulator to NVMMA 128B, stmatrix.x4 x4 a thread",
     {"kind": "local_alloc", "cc": 90, "dtype": "fp16", "warps": 4, "shape": [64, 64],
      "A": {"mma": {"version": [3, 0], "warps_per_cta": [4, 1], "instr_shape": [16, 64, 16]}},
      "S": {"nvmma": {"swizzle_byte_width": 128, "transposed": False}}, "B": _blocked([1, 8], [4, 8], [4, 1], [1, 0])},
     "ttg.local_alloc", {"store": {"instruction": "stmatrix", "vector_bytes": 16, "instructions": 16}}),
    ("§3.2: the same to a transposed NVMMA, stmatrix.x4.trans",
     {"kind": "local_alloc", "cc": 90, "dtype": "fp16", "warps": 4, "shape": [64, 64],
      "A": {"mma": {"version": [3, 0], "warps_per_cta": [4, 1], "instr_shape": [16, 64, 16]}},
      "S": {"nvmma": {"swizzle_byte_width": 128, "transposed": True}}, "B": _blocked([1, 8], [4, 8], [4, 1], [1, 0])},
     "ttg.local_alloc", {"store": {"instruction": "stmatrix.trans", "vector_bytes": 16}}),
    ("§5: fp16 A, K-contiguous: ldmatrix.x4 x4", _operand("fp16", 0, True), "ttg.local_load",
     {"load": {"instruction": "ldmatrix", "vector_bytes": 16, "instructions": 16}}),
    ("§5: fp16 A, M-contiguous: ldmatrix.x4.trans x4", _operand("fp16", 0, False), "ttg.local_load",
     {"load": {"instruction": "ldmatrix.trans", "vector_bytes": 16, "instructions": 16}}),
    ("§5: fp16 B, N-contiguous: ldmatrix.x4.trans x16", _operand("fp16", 1, False), "ttg.local_load",
     {"load": {"instruction": "ldmatrix.trans", "vector_bytes": 16, "instructions": 64}}),
    ("§5: fp16 B, K-contiguous: ldmatrix.x4 x16", _operand("fp16", 1, True), "ttg.local_load",
     {"load": {"instruction": "ldmatrix", "vector_bytes": 16, "instructions": 64}}),
    ("§5: i8 A, K-contiguous: ldmatrix.x4 x2", _operand("i8", 0, True), "ttg.local_load",
     {"load": {"instruction": "ldmatrix", "vector_bytes": 16, "instructions": 8}}),
    ("§5: i8 A, M-contiguous: ld.shared.b8 x32", _operand("i8", 0, False), "ttg.local_load",
     {"load": {"instruction": "ld.shared", "vector_bytes": 1, "instructions": 128}}),
    ("§5: i8 B, N-contiguous: ld.shared.b8 x128", _operand("i8", 1, False), "ttg.local_load",
     {"load": {"instruction": "ld.shared", "vector_bytes": 1, "instructions": 512}}),
    ("§5: fp32 A, K-contiguous: ldmatrix.x4 x8", _operand("fp32", 0, True), "ttg.local_load",
     {"load": {"instruction": "ldmatrix", "vector_bytes": 16, "instructions": 32}}),
    ("§5: fp32 B, K-contiguous: ldmatrix.x4 x32", _operand("fp32", 1, True), "ttg.local_load",
     {"load": {"instruction": "ldmatrix", "vector_bytes": 16, "instructions": 128}}),
    ("§5: fp32 A, M-contiguous: ld.shared.b32 x32", _operand("fp32", 0, False), "ttg.local_load",
     {"load": {"instruction": "ld.shared", "vector_bytes": 4, "instructions": 128}}),
    ("§5: fp32 B, N-contiguous: ld.shared.b32 x128", _operand("fp32", 1, False), "ttg.local_load",
     {"load": {"instruction": "ld.shared", "vector_bytes": 4, "instructions": 512}}),
]


def known_mismatches(result, op, want):
    """The fields of one known case's op that are not as stated."""
    if result["status"] != "ok":
        return [f"{result['status']}: {result.get('error', '')}"]
    got = next((o for o in result["ops"] if o["op"] == op), None)
    if got is None:
        return [f"no {op} measured"]
    bad = []
    for key, value in want.items():
        if isinstance(value, dict):
            for field, v in value.items():
                g = (got.get(key) or {}).get(field)
                if g != v:
                    bad.append(f"{key}.{field} {g}, stated {v}")
        elif got.get(key) != value:
            bad.append(f"{key} {got.get(key)}, stated {value}")
    return bad


def compile_case(case):
    shape, eb = case["shape"], DTYPES[case["dtype"]]
    fn = globals()[KERNELS[case["kind"]]]
    sig = {"src": f"*{case['dtype']}", "dst": f"*{case['dtype']}", "M": "constexpr", "N": "constexpr",
           "A": "constexpr", "B": "constexpr"}
    consts = {"M": shape[0], "N": shape[1], "A": gluon_layout(case["A"], shape), "B": gluon_layout(case["B"], shape)}
    if case["kind"] != "convert":
        sig["S"] = "constexpr"
        consts["S"] = gluon_shared(case["S"], eb)
    src = GluonASTSource(fn=fn, signature=sig, constexprs=consts)
    return triton.compile(src, target=GPUTarget("cuda", case["cc"], 32), options={"num_warps": case["warps"]})


def triton_ll(spec, shape):
    """Triton's own linear layout of a distributed layout spec: {register, lane, warp} bases."""
    from triton._C.libtriton import gluon_ir, ir
    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    layout = gluon_layout(spec, shape)
    if isinstance(layout, ttgl.DistributedLinearLayout):
        ll = layout
    else:
        ll = builder.to_linear_layout(layout._to_ir(builder), list(shape))
    return {"register": [list(b) for b in ll.reg_bases], "lane": [list(b) for b in ll.lane_bases],
            "warp": [list(b) for b in ll.warp_bases]}


def triton_shared_ll(spec, eb, shape):
    """Triton's own linear layout of a shared layout spec: its offset bases ([dim0, dim1])."""
    from triton._C.libtriton import gluon_ir, ir
    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    ll = builder.to_linear_layout(gluon_shared(spec, eb)._to_ir(builder), list(shape))
    return [list(b) for b in ll.offset_bases]


# ------------------------------------------------------------------ measuring
def ptx_accesses(ptx):
    """[(kind, bytes a lane)] of the PTX's shared-memory instructions, in order; None when
    the PTX branches (the counts would be dynamic). Each kernel here has one op that stores
    to shared memory and one that loads, so the kinds tell the sides apart (the PTX's .loc
    lines do not: the backend moves accesses to the lines of their users)."""
    out = []
    for raw in ptx.splitlines():
        s = raw.strip()
        if re.match(r"(@\S+\s+)?bra(\.uni)?\s", s):
            return None
        m = re.match(r"(?:@\S+\s+)?(st|ld)\.shared(?:::cta)?((?:\.\w+)*)\s", s)
        if m:
            mods = m.group(2).split(".")
            vec = next((int(x[1:]) for x in mods if re.fullmatch(r"v[248]", x)), 1)
            bits = next(int(re.sub(r"\D", "", x)) for x in mods if re.fullmatch(r"[bfus]\d+", x))
            out.append((f"{m.group(1)}.shared", vec * bits // 8))
            continue
        m = re.match(r"(?:@\S+\s+)?(st|ld)matrix\.sync\.aligned\.m8n8\.x(\d)(\.trans)?", s)
        if m:
            out.append((f"{m.group(1)}matrix" + (".trans" if m.group(3) else ""), 4 * int(m.group(2))))
    return out


class Merged:
    """A PTX access that LLVM IR holds as several narrower ones (same fields as an Event)."""

    def __init__(self, kind, addr, nbytes):
        self.kind, self.addr, self.nbytes, self.x = kind, addr, nbytes, 0


def merge_accesses(evs, width):
    """The IR accesses evs regrouped into accesses of width bytes, as the NVPTX backend merges
    them: accesses belong together when every thread's falls in one width-aligned block, the
    same block for all of them, and together they cover it once. None where they do not."""
    if len({e.kind for e in evs}) != 1 or evs[0].kind not in ("st.shared", "ld.shared"):
        return None
    narrow = evs[0].nbytes
    if any(e.nbytes != narrow for e in evs) or width % narrow:
        return None
    k = width // narrow
    groups = {}
    for e in evs:
        block = e.addr - e.addr % width
        groups.setdefault(block.tobytes(), (block, []))[1].append(e)
    out = []
    for block, members in groups.values():
        if len(members) != k:
            return None
        offs = np.sort(np.stack([m.addr - block for m in members]), axis=0)
        if not (offs == (np.arange(k) * narrow)[:, None]).all():
            return None
        out.append(Merged(evs[0].kind, block, width))
    return out


def warp_cost(event, w):
    """Wavefronts of one warp's instruction under HARDWARE.md's rule."""
    lanes = event.addr[32 * w:32 * w + 32]
    if event.kind in STORE_KINDS[1:] + LOAD_KINDS[1:]:
        return sum(phase_cost([int(a) for a in lanes[8 * i:8 * i + 8]], 16) for i in range(event.x))
    return instruction_cost([int(a) for a in lanes], event.nbytes, event.kind == "st.shared")[0]


def side(events, warps, ptx_list, kinds):
    """The measured store or load side of one op (None without such accesses)."""
    evs = [e for e in events if e.kind in kinds]
    ptx = None if ptx_list is None else [p for p in ptx_list if p[0] in kinds]
    if not evs and not ptx:
        return None
    out = {}
    ir_kinds = sorted({e.kind for e in evs})
    ir_widths = sorted({e.nbytes for e in evs})
    out["instruction"] = ir_kinds[0] if len(ir_kinds) == 1 else "+".join(ir_kinds)
    out["vector_bytes"] = ir_widths[0] if len(ir_widths) == 1 else ir_widths
    out["instructions"] = len(evs) * warps
    out["wavefronts"] = sum(warp_cost(e, w) for e in evs for w in range(warps))
    if ptx is not None:
        p_kinds = sorted({k for k, _ in ptx})
        p_widths = sorted({b for _, b in ptx})
        p = {"instruction": p_kinds[0] if len(p_kinds) == 1 else "+".join(p_kinds),
             "vector_bytes": p_widths[0] if len(p_widths) == 1 else p_widths,
             "instructions": len(ptx) * warps}
        if any(out[k] != p[k] for k in p):
            # LLVM IR's accesses are not the PTX's: take the PTX's, and its cost where the
            # IR's accesses regroup into the PTX's exactly
            merged = merge_accesses(evs, p_widths[0]) if len(p_widths) == 1 else None
            ok = merged is not None and len(merged) * warps == p["instructions"]
            out = dict(p, wavefronts=sum(warp_cost(e, w) for e in merged for w in range(warps)) if ok else None,
                       llvm_ir=out)
    return out


def shared_map(events, case, rounds_of, kinds=STORE_KINDS):
    """The element -> shared address map of one op's stores (or, for a local_load, of what
    its loads read), as a layout JSON, or a string saying why it is not one."""
    shape, eb = case["shape"], DTYPES[case["dtype"]]
    numel = shape[0] * shape[1]
    rs, els, addrs = [], [], []
    for e in events:
        if e.kind not in kinds:
            continue
        for threads, addr, src in e.moved:
            ok = src >= 0
            if (~ok).any():
                return f"a {e.kind} moves bytes that are not one source byte"
            rs.append(np.full(src.size, rounds_of[id(e)]))
            els.append((src // eb).ravel())
            addrs.append((addr - src % eb).ravel())
    if not rs:
        return "no stores"
    r, el, a = np.concatenate(rs), np.concatenate(els), np.concatenate(addrs)
    nrounds = int(r.max()) + 1
    where = np.full((nrounds, numel), -1, dtype=np.int64)
    key = r * numel + el
    order = np.argsort(key, kind="stable")
    k, v = key[order], a[order]
    if (v[1:][k[1:] == k[:-1]] != v[:-1][k[1:] == k[:-1]]).any():
        return "an element is stored at two addresses in one round"
    where.ravel()[k] = v
    seen = (where >= 0).sum(axis=0)
    if (seen != 1).any():
        return "an element is stored in no round or in several"
    round_of = (where >= 0).argmax(axis=0)
    addr_of = where.max(axis=0)
    base = addr_of[0]
    if round_of[0] != 0:
        return "element 0 is not stored in the first round"
    rel = addr_of - base
    if (rel % eb).any() or (rel < 0).any():
        return "addresses below element 0's, or not element-aligned"
    off = rel // eb
    slots = numel // nrounds
    if nrounds & (nrounds - 1) or slots * nrounds != numel:
        return f"{nrounds} rounds"
    if (off >= slots).any():
        return "a round spans more addresses than its elements"
    inverse = np.full((nrounds, slots), -1, dtype=np.int64)
    inverse[round_of, off] = np.arange(numel)
    if (inverse < 0).any():
        return "a round leaves holes, or two elements share an address"
    obases = [int(inverse[0, 1 << j]) for j in range(slots.bit_length() - 1)]
    rbases = [int(inverse[1 << j, 0]) for j in range(nrounds.bit_length() - 1)]
    # linear: every (round, offset) holds the XOR of its bits' elements
    pred_o = np.zeros(slots, dtype=np.int64)
    for j, b in enumerate(obases):
        pred_o[np.arange(slots) >> j & 1 == 1] ^= b
    pred_r = np.zeros(nrounds, dtype=np.int64)
    for j, b in enumerate(rbases):
        pred_r[np.arange(nrounds) >> j & 1 == 1] ^= b
    if not (inverse == pred_r[:, None] ^ pred_o[None, :]).all():
        return "not linear"
    coord = lambda e: [e // shape[1], e % shape[1]]
    layout = {"in_dims": [{"name": "offset", "bases": [coord(b) for b in obases]}],
              "out_dims": [{"name": "dim0", "size": shape[0]}, {"name": "dim1", "size": shape[1]}]}
    layout["in_dims"].append({"name": "reps", "bases": [coord(b) for b in rbases]})
    return layout


def measure_op(op, line, run, case, ptx, lls):
    warps = case["warps"]
    events = [e for e in run.events if e.line == line]
    ptx_list = ptx
    out = {"op": op, "line": line}
    shared = [e for e in events if e.kind in STORE_KINDS + LOAD_KINDS]
    if op == "ttg.convert_layout":
        if shared:
            out["path"] = "shared_memory"
        elif any(e.kind == "shfl" for e in events):
            out["path"] = "warp_shuffle"
            out["shuffles"] = sum(e.kind == "shfl" for e in events) * warps
        else:
            out["path"] = "no_op" if lls["A"] == lls["B"] else "registers"
        if ptx_list and not shared:
            out["ptx_disagrees"] = "the PTX holds shared-memory instructions the LLVM IR does not"
            out["path"] = "shared_memory"
    else:
        out["path"] = "shared_memory"
    if not shared:
        return out
    # rounds: a store run after loads starts a round
    rounds_of, r, phase = {}, -1, "load"
    for e in events:
        if e.kind in STORE_KINDS:
            if phase == "load":
                r, phase = r + 1, "store"
        elif e.kind in LOAD_KINDS:
            phase = "load"
        rounds_of[id(e)] = max(r, 0)
    if op == "ttg.convert_layout":
        out["rounds"] = r + 1
        out["barriers"] = sum(e.kind in ("barrier", "warp_barrier") for e in events)
        out["barrier"] = sorted({e.kind for e in events if e.kind in ("barrier", "warp_barrier")})
    sides = {"ttg.convert_layout": ("store", "load"), "ttg.local_load": ("load",)}.get(op, ("store",))
    for name, kinds in (("store", STORE_KINDS), ("load", LOAD_KINDS)):
        if name not in sides:
            if any(e.kind in kinds for e in events):
                out[f"unexpected_{name}"] = True
            continue
        s = side(events, warps, ptx_list, kinds)
        if s is not None:
            out[name] = s
    if "store" in out or "load" in out:
        m = shared_map(events, case, rounds_of, STORE_KINDS if "store" in out else LOAD_KINDS)
        if isinstance(m, str):
            out["shared_unmeasured"] = m
        else:
            if op != "ttg.convert_layout":
                m["in_dims"] = m["in_dims"][:1]
            else:
                out["scratch_elements"] = 1 << len(m["in_dims"][0]["bases"])
            out["shared"] = m
    return out


def measure(case, keep=None, index=0):
    """Compiles and interprets one case: {"case", "status", "ops", "ttgir", ...}."""
    out = {"case": case}
    t0 = time.time()
    warnings.simplefilter("ignore")
    try:  # where Triton's C++ will print (stderr is a file in forked_outcomes' children)
        err_at = os.lseek(2, 0, os.SEEK_CUR)
    except OSError:
        err_at = None
    try:
        k = compile_case(case)
    except Exception as e:
        out["status"] = "triton_refused"
        out["error"] = (str(e).strip().splitlines() or [type(e).__name__])[-1][:300]
        if err_at is not None:
            text = os.pread(2, 1 << 16, err_at).decode(errors="replace")
            lines = [l for l in text.splitlines() if ("error" in l or "Pipeline failed" in l)
                     and "Failures have been detected" not in l]
            if lines:
                out["error"] += f" ({lines[0][:300]})"
        return out
    out["compile_s"] = time.time() - t0
    out["ttgir"] = k.asm["ttgir"]
    out["shared_bytes"] = k.metadata.shared
    if keep:
        for ext, key in (("ttgir", "ttgir"), ("ll", "llir"), ("ptx", "ptx")):
            pathlib.Path(keep, f"case{index}.{ext}").write_text(k.asm[key])
        pathlib.Path(keep, f"case{index}.json").write_text(json.dumps(case))
    t1 = time.time()
    try:
        run = llir_shared.run(k.asm["llir"], 32 * case["warps"])
    except llir_shared.Unsupported as e:
        out["status"] = "unsupported"
        out["error"] = str(e)[:500]
        return out
    out["interpret_s"] = time.time() - t1
    shape, eb = case["shape"], DTYPES[case["dtype"]]
    bad = run.copy_errors(shape[0] * shape[1] * eb)
    if bad:
        out["status"] = "copy_error"
        out["error"] = f"{len(bad)} bytes of the output wrong, first: byte {bad[0][0]}: {bad[0][1]}"
        return out
    lls = {"A": triton_ll(case["A"], shape), "B": triton_ll(case["B"], shape)}
    ptx = ptx_accesses(k.asm["ptx"])
    out["ops"] = [measure_op(op, line, run, case, ptx, lls) for op, line in op_lines(KERNELS[case["kind"]])]
    out["status"] = "ok"
    if "S" in case:  # the memory layout read from the code must be Triton's own linear layout of S
        want = triton_shared_ll(case["S"], eb, shape)
        for o in out["ops"]:
            got = o.get("shared", {"in_dims": [{"bases": None}]})["in_dims"][0]["bases"]
            if got != want:
                out["status"] = "layout_error"
                out["error"] = (f"{o['op']} reads as offset bases {got}, but Triton's linear layout of S "
                                f"has {want}")
    return out


def measure_safely(args):
    case, keep, index = args
    try:
        result = measure(case, keep, index)
    except Exception:  # a bug here, reported per case
        import traceback
        result = {"case": case, "status": "checker_error", "error": traceback.format_exc()[-800:]}
    return json.loads(json.dumps(result, default=int))


def measure_all(work, jobs):
    """measure_safely over work: jobs worker processes, each measuring its share in forked
    children (Triton aborts the process on some layouts: oracle_client.forked_outcomes).
    The workers are fresh processes: forking from a threaded one could deadlock."""
    chunks = [c for c in (list(range(len(work)))[k::jobs] for k in range(jobs)) if c]

    def run(chunk):
        proc = subprocess.run([sys.executable, __file__, "--worker"], capture_output=True, text=True,
                              input=json.dumps([work[i] for i in chunk]))
        try:
            return chunk, json.loads(proc.stdout.splitlines()[-1])
        except (IndexError, json.JSONDecodeError):
            why = f"the worker failed (exit {proc.returncode}): {proc.stderr.strip()[-300:]}"
            return chunk, [["error", why]] * len(chunk)

    results = [None] * len(work)
    with concurrent.futures.ThreadPoolExecutor(len(chunks) or 1) as pool:
        for chunk, outcomes in pool.map(run, chunks):
            for i, (kind, value) in zip(chunk, outcomes):
                if kind == "ok":
                    results[i] = value
                else:
                    status = {"abort": "triton_aborted", "hang": "hang"}.get(kind, "checker_error")
                    results[i] = {"case": work[i][0], "status": status, "error": str(value)[:300]}
    return results


def worker():
    """--worker: measures the work items (JSON on stdin); their outcomes as one JSON line."""
    work = [tuple(w) for w in json.load(sys.stdin)]
    print(json.dumps([list(o) for o in forked_outcomes(measure_safely, work, hang_s=120)]))
    return 0


# ------------------------------------------------------------------ comparing with f2lay
def audit(f2lay, ttgir):
    with tempfile.NamedTemporaryFile("w", suffix=".ttgir", delete=False) as f:
        f.write(ttgir)
    try:
        proc = subprocess.run([f2lay, "audit", "--json", f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if proc.returncode:
        raise RuntimeError(f"f2lay audit: exit {proc.returncode}: {proc.stderr.strip()[:300]}")
    return json.loads(proc.stdout)


def comparable_layout(layout):
    """The in dims with bases, without 'block' and empty 'reps'."""
    return {"in_dims": [d for d in layout["in_dims"] if d["name"] != "block" and
                        not (d["name"] == "reps" and not d["bases"])],
            "out_dims": layout["out_dims"]}


def compare_fields(measured, theirs, ir_level=False):
    """Every measured field against f2lay's "triton" key: (groups compared, {group: [what
    differs]}, notes). ir_level: judge a side by its LLVM IR accesses where the PTX merged them."""
    diffs, notes = {}, []

    def check(group, name, got, want):
        if not same(got, want):
            diffs.setdefault(group, []).append(f"{name}: Triton {json.dumps(want)}, f2lay {json.dumps(got)}")

    groups = ["path"]
    check("path", "path", theirs.get("path"), measured["path"])
    fields = ("instruction", "vector_bytes", "instructions", "wavefronts")
    if theirs.get("path") != measured["path"] and measured["path"] == "shared_memory":
        # f2lay has no code to compare: say what Triton's is
        code = [f"{measured[n]['instructions']} x {measured[n]['instruction']} {measured[n]['vector_bytes']} B "
                f"({measured[n]['wavefronts']} wavefronts)" for n in ("store", "load") if n in measured]
        rounds = f", {measured['rounds']} rounds" if "rounds" in measured else ""
        notes.append(f"Triton's code: {' then '.join(code)}{rounds}")
        return groups, diffs, notes
    if "rounds" in measured and measured["path"] == "shared_memory":
        groups.append("rounds")
        check("rounds", "rounds", theirs.get("rounds"), measured["rounds"])
        if "scratch_elements" in measured and "scratch_elements" in theirs:
            check("rounds", "scratch_elements", theirs["scratch_elements"], measured["scratch_elements"])
    for name in ("store", "load"):
        if name not in measured:
            if theirs.get(name) and measured["path"] == "shared_memory":
                groups.append(name)
                check(name, name, theirs.get(name), None)
            continue
        groups.append(name)
        mine = dict(theirs.get(name) or {})
        if "early_exit" in mine:  # ptxas's, after the LLVM IR read here: undone to compare
            for field, skipped in mine.pop("early_exit").items():
                mine[field] += skipped
            notes.append(f"f2lay's {name} has ptxas's early exit undone (the LLVM IR has all warps' loads)")
        want = measured[name]
        if "llvm_ir" in want:
            ir = want["llvm_ir"]
            if ir_level:
                want = ir
            elif not mine:
                pass
            elif all(same(mine.get(f), ir.get(f)) for f in fields):
                notes.append(f"f2lay's {name} is the LLVM IR's ({ir['instructions']} x {ir['vector_bytes']} B); "
                             f"the NVPTX backend merged those accesses into the PTX's")
            else:
                notes.append(f"the LLVM IR's {name}: {json.dumps(ir)}")
        for field in fields:
            if want.get(field) is not None:
                check(name, f"{name}.{field}", mine.get(field), want[field])
    if "shared" in measured and "shared" in theirs:
        groups.append("shared")
        got, want = comparable_layout(theirs["shared"]), comparable_layout(measured["shared"])
        if not same(got, want):
            diffs["shared"] = [f"shared: {first_difference(want, got)}\n      Triton {json.dumps(want)}"
                               f"\n      f2lay  {json.dumps(got)}"]
    return groups, diffs, notes


def f2lay_triton(ops, measured):
    """f2lay's "triton" key for a measured op, or a string saying why there is none to compare."""
    theirs = [o for o in ops if o["op"] == measured["op"] and o.get("source", {}).get("line") == measured["line"]]
    if len(theirs) != 1:
        return f"f2lay audit lists {len(theirs)} {measured['op']} ops at line {measured['line']}"
    t = theirs[0].get("triton")
    if t is None:
        return None
    if t.get("modelled") is False:
        return t.get("reason", "modelled: false")
    return t


def disagreement(f2lay, case, ir_level):
    """{op: sorted differing groups} of one case (empty where all agree), or None where the
    case does not run or is not compared (for shrinking a witness)."""
    (kind, r), = forked_outcomes(measure_safely, [(case, None, -1)], hang_s=120)
    if kind != "ok" or r["status"] != "ok":
        return None
    ops = audit(f2lay, r["ttgir"])["ops"]
    out = {}
    for m in r["ops"]:
        t = f2lay_triton(ops, m)
        if not isinstance(t, dict):
            return None
        _, diffs, _ = compare_fields(m, t, ir_level)
        if diffs:
            out[m["op"]] = sorted(diffs)
    return out


def halved_spec(spec, dim, shape):
    """spec on shape with dim halved: a linear layout's bases lose that dim's top bit (a
    register basis that becomes zero goes); the other families fit any shape."""
    if "linear" not in spec:
        return spec
    top = shape[dim] // 2
    p = spec["linear"]
    cut = lambda b: [c & (top - 1) if k == dim else c for k, c in enumerate(b)]
    reg = [cut(b) for b in p["reg_bases"] if b == [0, 0] or cut(b) != [0, 0]]
    return {"linear": {"reg_bases": reg, "lane_bases": [cut(b) for b in p["lane_bases"]],
                       "warp_bases": [cut(b) for b in p["warp_bases"]]}}


def fewer_warps(spec):
    """spec on half the warps, or None where the family cannot (mma v3, dot operands of it)."""
    (fam, p), = spec.items()
    if fam == "blocked":
        w = list(p["warps_per_cta"])
        k = 0 if w[0] > 1 else 1
        w[k] //= 2
        return {"blocked": dict(p, warps_per_cta=w)}
    if fam == "linear":
        warp = list(p["warp_bases"])
        k = next((i for i, b in enumerate(warp) if b == [0, 0]), len(warp) - 1)
        gone = warp.pop(k)
        reg = p["reg_bases"] + ([gone] if gone != [0, 0] else [])
        return {"linear": dict(p, warp_bases=warp, reg_bases=reg)}
    if fam == "mma":
        if p["version"][0] == 3:
            return None
        w = list(p["warps_per_cta"])
        k = 0 if w[0] > 1 else 1
        w[k] //= 2
        return {"mma": dict(p, warps_per_cta=w)}
    if fam == "dot":
        parent = fewer_warps(p["parent"])
        return None if parent is None else {"dot": dict(p, parent=parent)}
    return None


def smaller_cases(case):
    """Each one step smaller than case: a dim halved, or half the warps."""
    eb = DTYPES[case["dtype"]]
    for dim in (0, 1):
        shape = list(case["shape"])
        if shape[dim] < 2 or shape[0] * shape[1] <= 16:
            continue
        new = dict(case, shape=[s // 2 if k == dim else s for k, s in enumerate(shape)],
                   A=halved_spec(case["A"], dim, shape), B=halved_spec(case["B"], dim, shape))
        mins = [max(a, b) for a, b in zip(min_shape(new["A"], eb), min_shape(new["B"], eb))]
        if all(s >= m for s, m in zip(new["shape"], mins)):
            yield new
    if case["warps"] > 1:
        a, b = fewer_warps(case["A"]), fewer_warps(case["B"])
        if a is not None and b is not None:
            yield dict(case, warps=case["warps"] // 2, A=a, B=b)


def shrink(f2lay, case, target, ir_level, deadline):
    """The smallest case (greedy, until the deadline) whose disagreement is still target."""
    changed = True
    while changed and time.time() < deadline:
        changed = False
        for smaller in smaller_cases(case):
            if time.time() >= deadline:
                break
            if disagreement(f2lay, smaller, ir_level) == target:
                case, changed = smaller, True
                break
    return case


# ------------------------------------------------------------------ main
def summary(result):
    case = result["case"]
    head = (f"{case['kind']:<11} sm_{case['cc']} {case['dtype']:<4} {case['shape']} w{case['warps']}: "
            f"A {next(iter(case['A']))}, B {next(iter(case['B']))}"
            + (f", S {next(iter(case['S']))}" if "S" in case else ""))
    if result["status"] != "ok":
        return f"{head}: {result['status']}: {result.get('error', '')}"
    parts = []
    for op in result["ops"]:
        text = f"{op['op']} {op['path']}"
        if "rounds" in op:
            text += f" x{op['rounds']}"
        for name in ("store", "load"):
            if name in op:
                s = op[name]
                wf = "?" if s["wavefronts"] is None else s["wavefronts"]
                text += f" {name} {s['instructions']} {s['instruction']}.{s['vector_bytes']}B {wf}wf"
                if "llvm_ir" in s:
                    text += f" (IR: {s['llvm_ir']['instructions']} x {s['llvm_ir']['vector_bytes']}B)"
        if "shuffles" in op:
            text += f" {op['shuffles']} shfl"
        if "shared_unmeasured" in op:
            text += f" [map: {op['shared_unmeasured']}]"
        for key in ("unexpected_store", "unexpected_load", "ptx_disagrees"):
            if key in op:
                text += f" [{key}]"
        parts.append(text)
    return f"{head}\n    " + "\n    ".join(parts)


def parser():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("f2lay", help='the f2lay binary ("-" with --measure-only)')
    p.add_argument("--cases", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    p.add_argument("--measure-only", action="store_true", help="print the measurements, ask f2lay nothing")
    p.add_argument("--case", action="append", default=[],
                   help="a case as JSON, or @FILE of JSON lines (repeatable): run only these")
    p.add_argument("--keep", help="write each case's TTGIR, LLVM IR, PTX and JSON here")
    p.add_argument("--json", help="write every measurement here (JSON lines)")
    p.add_argument("--shrink", type=int, default=5, metavar="N",
                   help="shrink the witnesses of the first N disagreeing cases (default 5)")
    p.add_argument("--shrink-seconds", type=float, default=20, metavar="S",
                   help="spend at most S seconds shrinking (default 20)")
    p.add_argument("--ir-level", action="store_true",
                   help="where the PTX merged LLVM IR accesses, judge by the IR's (Triton's own lowering)")
    p.add_argument("--merges-known", action="store_true",
                   help="list a disagreement that is only the NVPTX backend's merging of accesses f2lay "
                        "matches in the LLVM IR, without failing (a known limit: f2lay models Triton's "
                        "widths, not LLVM's; what ctest runs)")
    return p


def run(p, args):
    """The check as the arguments args (of parser p) ask; its exit status."""
    if triton is None:
        print(f"triton_lowering_check: Triton is not installed ({TRITON_MISSING}); run scripts/setup", file=sys.stderr)
        return 77
    if not args.measure_only and not os.access(args.f2lay, os.X_OK):
        p.error(f"{args.f2lay}: not an executable (or pass --measure-only)")
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    try:  # --case JSON, or --case @FILE of JSON lines (--json's output too)
        cases = []
        for c in args.case:
            lines = pathlib.Path(c[1:]).read_text().splitlines() if c.startswith("@") else [c]
            for line in filter(str.strip, lines):
                v = json.loads(line)
                cases.append(v["case"] if "case" in v and "kind" not in v else v)
    except (OSError, json.JSONDecodeError) as e:
        p.error(f"--case: {e}")
    if not cases:
        rng = random.Random(args.seed)
        cases = [draw_case(rng) for _ in range(args.cases)]
    failed = False
    for failure in llir_shared.self_test():
        print(f"INTERPRETER SELF-TEST FAILED: {failure}")
        failed = True
    known = [] if args.case else KNOWN
    t0 = time.time()
    work = [(c, args.keep, i) for i, c in enumerate(cases)]
    work += [(c, None, -1) for _, c, _, _ in known]
    results = measure_all(work, max(1, min(args.jobs, len(work))))
    results, known_results = results[:len(cases)], results[len(cases):]
    elapsed = time.time() - t0
    status = {}
    for r in results:
        status[r["status"]] = status.get(r["status"], 0) + 1
    print(f"triton_lowering_check: Triton {triton.__version__}: {len(cases)} cases in {elapsed:.1f} s: "
          + ", ".join(f"{k} {v}" for k, v in sorted(status.items())))
    for (name, case, op, want), r in zip(known, known_results):
        bad = known_mismatches(r, op, want)
        if bad:
            failed = True
            print(f"KNOWN CASE FAILED ({name}): {'; '.join(bad)}\n  {reproducer(case)}")
    if known:
        print(f"triton_lowering_check: {len(known)} kernels whose code the notes state: "
              f"{sum(not known_mismatches(r, k[2], k[3]) for k, r in zip(known, known_results))} read as stated")
    if args.json:
        with open(args.json, "w") as f:
            for r in results:
                f.write(json.dumps({k: v for k, v in r.items() if k != "ttgir"}) + "\n")
    for i, r in enumerate(results):
        if args.measure_only or r["status"] != "ok":
            print(f"case {i}: {summary(r)}")
        if r["status"] in ("copy_error", "checker_error", "layout_error"):
            print(f"  INTERPRETER ERROR (the measurement cannot be trusted)\n  {reproducer(r['case'])}")
            failed = True
        elif r["status"] == "unsupported":
            print(f"  {reproducer(r['case'])}")
    if args.measure_only:
        return 1 if failed else 0
    report = Report("triton_lowering_check", f"Triton {triton.__version__} (interpreted LLVM IR)",
                    ["path", "rounds", "store", "load", "shared"])
    unmodelled = {}  # f2lay's reason -> ops
    bugs = []  # (case index, case, {op: (diffs, notes, line, only an NVPTX merge)})
    merges = 0
    for i, r in enumerate(results):
        if r["status"] != "ok":
            continue
        ops = audit(args.f2lay, r["ttgir"])["ops"]
        found = {}
        for m in r["ops"]:
            t = f2lay_triton(ops, m)
            if not isinstance(t, dict):
                why = "no \"triton\" key" if t is None else t
                unmodelled.setdefault(why, []).append(f"case {i} {m['op']}")
                continue
            groups, diffs, notes = compare_fields(m, t, args.ir_level)
            for g in groups:
                if g not in diffs:
                    report.agree(g)
            if diffs:
                merge_only = not args.ir_level and not compare_fields(m, t, True)[1]
                merges += merge_only
                found[m["op"]] = (diffs, notes, m["line"], merge_only)
        if found:
            bugs.append((i, r["case"], found))
    deadline = time.time() + args.shrink_seconds
    for n, (i, case, found) in enumerate(bugs):
        witness = case
        if n < args.shrink and time.time() < deadline:
            target = {op: sorted(d) for op, (d, _, _, _) in found.items()}
            witness = shrink(args.f2lay, case, target, args.ir_level, deadline)
        for op, (diffs, notes, line, merge_only) in found.items():
            text = "; ".join(t for g in diffs for t in diffs[g] if "\n" not in t)
            extra = "".join(f"\n    {t}" for g in diffs for t in diffs[g] if "\n" in t)
            extra += "".join(f"\n    ({note})" for note in notes)
            smaller = "" if witness is case else f"\n    smaller, disagreeing the same way: {reproducer(witness)}"
            tag = " [NVPTX merge only]" if merge_only else ""
            line_text = (f"case {i}{tag}: {op} (line {line}): {text}{extra}"
                         f"\n    {reproducer(case)}{smaller}")
            if merge_only and args.merges_known:
                print(f"known (NVPTX merge): {line_text}")
            else:
                report.f2lay_bug(",".join(diffs), line_text)
    for why, ops in sorted(unmodelled.items()):
        print(f"triton_lowering_check: {len(ops)} ops f2lay does not model ({why}), not compared: "
              + ", ".join(ops[:6]) + (" ..." if len(ops) > 6 else ""))
    if merges:
        print(f"triton_lowering_check: {merges} of the disagreements are only the NVPTX backend's merging "
              f"of the LLVM IR's accesses, which f2lay matches (--ir-level judges by the IR)")
    if not any(report.agreed.values()) and not report.bugs:
        print("triton_lowering_check: nothing compared (f2lay emits no \"triton\" key): skipped")
        return 77
    code = report.finish()
    return 1 if failed else code


def test_lowering(f2lay, options):
    """What ctest runs: random kernels, the NVPTX backend's merges listed as
    known (see --merges-known)."""
    p = parser()
    args = p.parse_args([f2lay, "--cases", str(options["cases"] or 40), "--seed", str(options["seed"] or 1),
                         "--jobs", str(options["jobs"] or max(1, min(4, os.cpu_count() or 1))),
                         "--merges-known"])
    status = run(p, args)
    if status == 77:
        import pytest
        pytest.skip("Triton is not installed, or f2lay models no op")
    assert status == 0, "f2lay disagrees with Triton's code, or the interpreter failed its checks (printed above)"


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:  # measure_all's workers
        status = worker()
    else:
        p = parser()
        status = run(p, p.parse_args())
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)  # skips Triton's binding finalizers (nanobind's leak warnings)
