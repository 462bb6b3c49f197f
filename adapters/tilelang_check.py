"""Checks TileLang 0.1.15's shared-memory swizzles and gemm fragments against f2lay.

TileLang (PyPI `tilelang`) builds its layouts in C++ (src/layout/gemm_layouts.cc,
shipped in the wheel) and in Python (tilelang/cuda/intrinsics), and evaluates
them on a CPU: Layout.map_forward_index([i, j]) is the physical coordinates of
element (i, j), flattened here row-major over Layout.get_output_shape();
Fragment.map_forward_thread / map_forward_index are the thread and local
register holding it. The checks:

test_shared_layouts  every swizzle TileLang makes (make_{full,half,quarter}_
    bank_swizzled_layout, make_swizzled_layout, make_wgmma_swizzled_layout,
    make_tcgen05mma_swizzled_layout, and the Python make_mma_swizzle_layout) at
    random legal shapes (rank 2 and 3, columns not always a power of two) and
    element widths (8, 16, 32, 64 bits), element by element against f2lay's
    equivalent: nvmma_shared (128/64/32-byte swizzles) and cute_swizzle
    Sw<b,log2(16 B/element),3> over boxes, cutlass_tensorop (128 B),
    cute_swizzle Sw<2,0,4> / Sw<2,2,2> (TileLang's fp64 layouts), padded_shared
    (its padded fallback) and unswizzled_shared (its linear fallback).
test_layout_laws  what a layout claims: every element lands inside the output
    shape, at its own place (injective), a permutation where the output shape
    holds exactly the buffer; Layout.inverse() undoes the forward map; the
    Volta layouts (make_volta_swizzled_layout) are included here.
test_bank_conflicts  the accesses a swizzle exists for, costed by an
    independent brute force of device_tests/HARDWARE.md's rule (a phase costs
    the most distinct 4-byte words any bank holds): ldmatrix phases (8 rows of
    16 bytes) and 16-byte row-wise stores (phases of 8 lanes); a swizzle that
    is not conflict-free there is a finding; f2lay's bank_conflicts on the same
    layout (shared_linear with TileLang's own bases) must count the same.
test_gemm_fragments  make_gemm_fragment_8x8[_transposed] against f2lay's
    ldmatrix tile, and TensorCoreIntrinEmitter's mma.sync fragments (C store,
    A and B load layouts; fp16/bf16, fp8/int8, tf32) against f2lay's
    nvidia_mma (version 2, instr_shape [16, 8]) and dot_operand for one warp's
    tile, placed in the emitter's warp order by f2lay's product; and
    Fragment.inverse() round trips.

Judging: each element is also computed by a definition written here from the
primary sources, independent of both: TMA's address swizzle (bits 4.. of the
byte address XOR bits 7.., CUtensorMapSwizzle), CuTe's Swizzle<B,M,S>, the
padded and row-major formulas, and PTX's mma.sync fragment tables (lane =
4 * groupID + threadID_in_group) with the warp each emitter's own
extract_thread_binding gives (the decomposition its ldmatrix, mma and
stmatrix code uses). Which layout a family makes at a shape follows the rules
written in gemm_layouts.cc (tilelang_choice). f2lay differing from the
definition is an f2lay bug (the test fails); TileLang differing from it is a
finding (printed with a minimal reproducer, adapters/FINDINGS.md), as is a
broken law. What no claim covers (stores on a swizzle narrower than the row,
layouts with holes) is printed as a note.

TileLang imports torch (over 500 MB) only for what these checks never call;
tilelang_torch.py stands in for it where it is not installed.

A pytest module (conftest.py), about 30 s on 2 cores:

    .venv/bin/python -m pytest adapters/tilelang_check.py --f2lay build/release/tools/f2lay

--cases N: random cases of each test (defaults: 150 shared layouts, 75 for
the laws, 75 for the banks, 30 emitters, 3 fragments each); --seed S
(default 1). It skips where TileLang is not installed.
"""
import itertools
import json
import math
import random

import pytest

import tilelang_torch
from oracle_client import Report, ask_oracle

with tilelang_torch.stand_in_if_missing() as TORCH_STOOD_IN:
    tilelang = pytest.importorskip(
        "tilelang", reason="TileLang is not installed (requirements-nodeps.txt)")
    tl_layout = pytest.importorskip("tilelang.layout")
    tl_mma = pytest.importorskip("tilelang.cuda.intrinsics.macro.mma_macro_generator")
    tl_mma_layout = pytest.importorskip("tilelang.cuda.intrinsics.layout.mma_layout")
from tilelang import tvm  # noqa: E402  (TileLang's bundled TVM)

PEER = f"TileLang {tilelang.__version__}" + (" (torch stood in)" if TORCH_STOOD_IN else "")
# Element widths drawn, by TileLang's dtype names.
DTYPES = {"float16": 16, "bfloat16": 16, "float8_e4m3fn": 8, "int8": 8, "float32": 32,
          "float64": 64}
DEFAULT_CASES, DEFAULT_SEED = 150, 1


def shared_buffer(shape, dtype):
    return tvm.tirx.decl_buffer(tuple(shape), dtype, scope="shared")


def fragment_buffer(shape, dtype):
    return tvm.tirx.decl_buffer(tuple(shape), dtype, scope="local.fragment")


def cases_and_rng(options, default):
    cases = options["cases"] if options["cases"] is not None else default
    seed = options["seed"] if options["seed"] is not None else DEFAULT_SEED
    return cases, random.Random(seed)


# ------------------------------------------------------------ TileLang's side
def tilelang_offsets(layout, shape):
    """TileLang's physical offset of every element of `shape` (row-major order):
    its output coordinates flattened row-major over the output shape; and the
    first element (with its coordinates) whose coordinate falls outside its
    output extent, or None (then the flattening would mean nothing)."""
    extents = [int(n) for n in layout.get_output_shape()]
    offsets, outside = [], None
    for index in itertools.product(*map(range, shape)):
        coords = [int(v) for v in layout.map_forward_index(list(index))]
        if outside is None and any(not 0 <= v < n for v, n in zip(coords, extents)):
            outside = (index, coords, extents)
        flat = 0
        for v, n in zip(coords, extents):
            flat = flat * n + v
        offsets.append(flat)
    return offsets, math.prod(extents), outside


def fragment_owners(fragment, shape):
    """TileLang's owners of every element (row-major order): a list of
    (thread, local), one per replica (Fragment.replicate_size threads hold
    each element; the replica is the forward var _rep, listed first)."""
    names = [v.name for v in fragment.get_forward_vars()]
    replicas = int(fragment.replicate_size) if names and names[0] == "_rep" else 0
    owners = []
    for index in itertools.product(*map(range, shape)):
        held = []
        for rep in range(max(replicas, 1)):
            args = ([rep] if replicas else []) + list(index)
            thread = int(fragment.map_forward_thread(args)[0])
            local = [int(v) for v in fragment.map_forward_index(args)]
            held.append((thread, local[0] if len(local) == 1 else tuple(local)))
        owners.append(held)
    return owners


# ------------------------------------------------------------- f2lay's side
def xor_table(layout, in_name):
    """Every input value of f2lay's layout's in dim `in_name` (0..2^bits-1)
    mapped to its output (a tuple, one value per out dim): the XOR of the
    bases of its set bits, the README's apply."""
    dims = len(layout["out_dims"])
    table = [(0,) * dims]
    for d in layout["in_dims"]:
        if d["name"] == in_name:
            for basis in d["bases"]:
                table += [tuple(a ^ b for a, b in zip(t, basis)) for t in table]
    return table


def f2lay_memory_offsets(layout):
    """f2lay's memory layout (offset -> dim0, dim1) read back as element ->
    address (padded layouts: offset plus the padding of every interval
    passed, as the README's padded_shared says)."""
    where = {}
    pairs = layout.get("padding", [])
    for offset, element in enumerate(xor_table(layout, "offset")):
        where.setdefault(element, offset + sum((offset // i) * p for i, p in pairs))
    return where


def apply_distributed(layout, register, lane, warp):
    out = [0] * len(layout["out_dims"])
    for d in layout["in_dims"]:
        value = {"register": register, "lane": lane, "warp": warp}.get(d["name"], 0)
        for k, basis in enumerate(d["bases"]):
            if value >> k & 1:
                out = [a ^ b for a, b in zip(out, basis)]
    return tuple(out)


def in_bits(layout, name):
    return next((len(d["bases"]) for d in layout["in_dims"] if d["name"] == name), 0)


# ------------------------------------------------ the independent definitions
def tma_swizzle(i, j, rows, bits, width):
    """TMA's swizzle (CUtensorMapSwizzle 32B/64B/128B) of element (i, j) in a
    rows x C tile stored as boxes `width` bytes wide (box j // W at
    rows * W elements, rows of W elements): bits 4.. of the byte address (the
    16-byte chunk) XOR bits 7.. (the 128-byte line), width/16 - 1 of them."""
    per_box = width * 8 // bits
    a = ((j // per_box) * rows * per_box + i * per_box + j % per_box) * bits // 8
    a ^= ((a >> 7) & (width // 16 - 1)) << 4
    return a * 8 // bits


def cute_swizzle(offset, b, m, s):
    """CuTe's Swizzle<B,M,S>: bits [m, m+b) XOR bits [m+s, m+s+b)."""
    return offset ^ (((offset >> (m + s)) & ((1 << b) - 1)) << m)


def definition_2d(kind, i, j, rows, cols, bits):
    """The element's offset in a rows x cols tile, by the formula each of
    TileLang's layouts names (gemm_layouts.cc's comments and CUDA's TMA)."""
    if kind[0] == "swizzle":
        return tma_swizzle(i, j, rows, bits, kind[1])
    if kind[0] == "f64":  # 4-row x 16-element atoms stacked along the rows
        atom = (j // 16) * rows * 16 + i * 16 + j % 16
        return cute_swizzle(atom, 2, 0, 4) if kind[1] == "kinner" else cute_swizzle(atom, 2, 2, 2)
    if kind[0] == "padded":  # each row padded by kind[1] elements
        return i * (cols + kind[1]) + j
    return i * cols + j  # linear (row-major)


def definition_offsets(kind, shape, bits):
    """Every element's offset: leading dims stack whole 2-D tiles (TileLang's
    Layout::Expand), each as large as the tile's last offset + 1."""
    rows, cols = shape[-2:]
    tile = [definition_2d(kind, i, j, rows, cols, bits) for i in range(rows) for j in range(cols)]
    extent = max(tile) + 1
    return [lead * extent + o for lead in range(math.prod(shape[:-2])) for o in tile]


def tilelang_choice(family, bits, rows, cols, k_major=True, allow_pad=True, continuity=None):
    """The layout kind TileLang 0.1.15 documents for a family at a tile
    (gemm_layouts.cc: MakeGemmABLayout, MakeGemmABLayoutHopper/Sm100,
    Make*BankSwizzleLayout2D; mma_layout.py: make_mma_swizzle_layout), or None
    where it refuses: ("swizzle", bytes), ("f64", kinner|kouter),
    ("padded", elements), ("linear",)."""
    vec = 128 // bits
    rows_ok = rows == 4 or rows % 8 == 0
    fits = [w for w, n in ((128, 8), (64, 4), (32, 2)) if cols % (vec * n) == 0]
    if family in ("full_bank", "half_bank", "quarter_bank"):
        width = {"full_bank": 128, "half_bank": 64, "quarter_bank": 32}[family]
        return ("swizzle", width) if rows_ok and width in fits else None
    if family == "mma_swizzle":
        row_bytes = cols * bits // 8
        if row_bytes % 64:
            return ("linear",)
        return ("swizzle", min(128, row_bytes))
    continuity = cols if continuity is None else continuity
    if family == "swizzled" and allow_pad:
        if bits == 64:
            if continuity % 16 == 0:
                return ("f64", "kinner" if k_major else "kouter")
            return ("padded", 2 if 64 * cols % 256 == 0 else 0)
        if bits == 8 and not k_major or not fits:
            return ("padded", vec if bits * cols % 256 == 0 else 0)
        return ("swizzle", fits[0]) if rows_ok else None
    # make_swizzled_layout(allow_pad=False), wgmma, tcgen05: the Hopper rules.
    if bits == 64:
        if family == "tcgen05":
            return None
        if continuity % 16 == 0:
            return ("f64", "kinner" if k_major else "kouter")
        return ("linear",) if rows % 8 else ("swizzle", 32)
    if rows % 8 == 0 and fits:
        return ("swizzle", fits[0])
    return ("linear",) if cols % vec == 0 else None


def make_tilelang(family, shape, dtype, k_major=True, allow_pad=True):
    """TileLang's layout of a family, as a user calls it."""
    buf = shared_buffer(shape, dtype)
    if family == "full_bank":
        return tl_layout.make_full_bank_swizzled_layout(buf)
    if family == "half_bank":
        return tl_layout.make_half_bank_swizzled_layout(buf)
    if family == "quarter_bank":
        return tl_layout.make_quarter_bank_swizzled_layout(buf)
    if family == "swizzled":
        return tl_layout.make_swizzled_layout(buf, k_major=k_major, allow_pad=allow_pad)
    if family == "wgmma":
        return tl_layout.make_wgmma_swizzled_layout(buf, k_major=k_major)
    if family == "tcgen05":
        return tl_layout.make_tcgen05mma_swizzled_layout(buf, k_major=k_major)
    if family == "mma_swizzle":
        return tl_mma_layout.make_mma_swizzle_layout(buf)
    if family == "volta":
        return tl_layout.make_volta_swizzled_layout(buf, is_a=k_major, k_inner=allow_pad)
    raise ValueError(family)


def reproducer(case):
    """A few lines of Python that make a case's layout in TileLang."""
    family, shape, dtype, k_major, allow_pad = case
    calls = {
        "full_bank": "tilelang.layout.make_full_bank_swizzled_layout(buf)",
        "half_bank": "tilelang.layout.make_half_bank_swizzled_layout(buf)",
        "quarter_bank": "tilelang.layout.make_quarter_bank_swizzled_layout(buf)",
        "swizzled": ("tilelang.layout.make_swizzled_layout(buf, "
                     f"k_major={k_major}, allow_pad={allow_pad})"),
        "wgmma": f"tilelang.layout.make_wgmma_swizzled_layout(buf, k_major={k_major})",
        "tcgen05": f"tilelang.layout.make_tcgen05mma_swizzled_layout(buf, k_major={k_major})",
        "mma_swizzle": "tilelang.cuda.intrinsics.layout.mma_layout.make_mma_swizzle_layout(buf)",
        "volta": f"tilelang.layout.make_volta_swizzled_layout(buf, is_a={k_major}, k_inner={allow_pad})",
    }
    return (f"buf = tilelang.tvm.tirx.decl_buffer({tuple(shape)}, '{dtype}', scope='shared'); "
            f"L = {calls[family]}")


def f2lay_requests(kind, rows, cols, bits):
    """f2lay's requests for the same 2-D tile, at the power of two of columns
    at or above `cols` (TileLang's boxes do not depend on the column count):
    (name, request)."""
    cols2 = 1 << (cols - 1).bit_length()
    if kind[0] == "swizzle":
        width, per_box = kind[1], kind[1] * 8 // bits
        reqs = [("cute_swizzle", {"op": "cute_swizzle", "b": (width // 16).bit_length() - 1,
                                  "m": (128 // bits).bit_length() - 1, "s": 3,
                                  "shape": [rows, [per_box, cols2 // per_box]],
                                  "stride": [per_box, [1, rows * per_box]]})]
        if rows >= 8:  # Gluon's NVMMA layout needs the 8 rows of a swizzle pattern
            reqs.append(("nvmma_shared", {"op": "nvmma_shared", "swizzle_byte_width": width,
                                          "element_bitwidth": bits, "shape": [rows, cols2]}))
        if width == 128 and rows >= 8 and cols2 == per_box:
            # CUTLASS's crosswise layout with 128-byte rows (one box: CUTLASS
            # puts a wider row's next 128 bytes beside it, not a box later)
            reqs.append(("cutlass_tensorop", {"op": "cutlass_tensorop", "element_bits": bits,
                                              "crosswise": per_box, "extent": [cols2, rows],
                                              "row_major": True}))
        return reqs
    if kind[0] == "f64":
        b, m, s = (2, 0, 4) if kind[1] == "kinner" else (2, 2, 2)
        return [("cute_swizzle", {"op": "cute_swizzle", "b": b, "m": m, "s": s,
                                  "shape": [[4, rows // 4], [16, cols2 // 16]],
                                  "stride": [[16, 64], [1, 16 * rows]]})]
    if cols != cols2 or rows & (rows - 1):
        return []  # f2lay's layouts are powers of two
    unit = [[0, 1 << k] for k in range(cols.bit_length() - 1)] + \
        [[1 << k, 0] for k in range(rows.bit_length() - 1)]
    if kind[0] == "padded" and kind[1]:
        return [("padded_shared", {"op": "padded_shared", "interval_padding_pairs": [[cols, kind[1]]],
                                   "offset_bases": unit, "shape": [rows, cols]})]
    return [("unswizzled_shared", {"op": "unswizzled_shared", "order": [1, 0], "shape": [rows, cols]})]


# ------------------------------------------------------------- drawing cases
def draw_shared_case(rng, families):
    """A legal (family, shape, dtype, k_major, allow_pad) with its kind."""
    while True:
        family = rng.choice(families)
        dtype = rng.choice(list(DTYPES))
        bits = DTYPES[dtype]
        vec = 128 // bits
        rows = rng.choice([4, 8, 16, 32, 64, 128])
        cols = vec * rng.choice([2, 4, 8, 8, 16, 16, 24, 32, 40, 64])
        if bits == 64 and rng.random() < 0.5:  # TileLang's fp64 atoms: 16 columns
            cols = 16 * rng.choice([1, 2, 3, 4, 8])
        if rng.random() < 0.1:  # no whole 16-byte vector per row: the fallbacks
            cols = rng.choice([12, 24, 48, 20])
        lead = rng.choice([[], [], [], [2], [3]])
        k_major, allow_pad = rng.random() < 0.6, rng.random() < 0.6
        kind = tilelang_choice(family, bits, rows, cols, k_major, allow_pad)
        if kind is None or math.prod(lead + [rows, cols]) > 1 << 14:
            continue
        if rows == 4 and (kind[0] != "swizzle" or cols * bits // 8 != kind[1] or lead):
            continue  # 4-row tiles (TMA gather4) only as one box: see FINDINGS.md's note
        if kind[0] == "f64" and rows % 4:
            continue
        return (family, lead + [rows, cols], dtype, k_major, allow_pad), kind


def shared_table(case):
    """TileLang's offsets of a case, or the exception it raised."""
    family, shape, dtype, k_major, allow_pad = case
    try:
        return tilelang_offsets(make_tilelang(family, shape, dtype, k_major, allow_pad), shape)
    except Exception as e:  # TileLang refuses by ICHECK (tvm.error.InternalError)
        return e


def shrink_shared(case, kind, bad):
    """The smallest case (rows, columns, leading dims halved or dropped,
    greedily) where bad(case, kind, offsets) still holds."""
    best, changed = case, True
    while changed:
        changed = False
        family, shape, dtype, k_major, allow_pad = best
        options = []
        if len(shape) > 2:
            options.append(shape[-2:])
        for k in (-2, -1):
            if shape[k] % 2 == 0:
                smaller = list(shape)
                smaller[k] //= 2
                options.append(smaller)
        for smaller in options:
            candidate = (family, smaller, dtype, k_major, allow_pad)
            smaller_kind = tilelang_choice(family, DTYPES[dtype], *smaller[-2:], k_major, allow_pad)
            if smaller_kind != kind:
                continue
            table = shared_table(candidate)
            if not isinstance(table, Exception) and bad(candidate, kind, table):
                best, changed = candidate, True
                break
    return best


# ------------------------------------------------------------------- (a)
def test_shared_layouts(f2lay, options):
    """TileLang's swizzles element by element against f2lay's equivalents."""
    families = ["full_bank", "half_bank", "quarter_bank", "swizzled", "wgmma", "tcgen05",
                "mma_swizzle"]
    count, rng = cases_and_rng(options, DEFAULT_CASES)
    report = Report("tilelang_check shared", PEER, families)
    cases = [draw_shared_case(rng, families) for _ in range(count)]
    tables = [shared_table(case) for case, _ in cases]
    requests, where = [], []
    for n, ((case, kind), table) in enumerate(zip(cases, tables)):
        rows, cols = case[1][-2:]
        for name, request in f2lay_requests(kind, rows, cols, DTYPES[case[2]]):
            requests.append(request)
            where.append((n, name))
    answers = {}
    for (n, name), request, response in zip(where, requests, ask_oracle(f2lay, requests)):
        answers.setdefault(n, []).append((name, request, response))
    refused, elements = 0, 0
    findings = {}
    for n, ((case, kind), table) in enumerate(zip(cases, tables)):
        family, shape, dtype = case[:3]
        bits, (rows, cols) = DTYPES[dtype], shape[-2:]
        if isinstance(table, Exception):  # legal by TileLang's rules, refused anyway
            refused += 1
            report.finding(family, f"{reproducer(case)} raises {type(table).__name__}: "
                           f"{str(table).splitlines()[-1][:160]} "
                           "(the rules of gemm_layouts.cc allow it)")
            continue
        offsets = table[0]
        want = definition_offsets(kind, shape, bits)
        tile = [definition_2d(kind, i, j, rows, cols, bits) for i in range(rows) for j in range(cols)]
        extent = max(tile) + 1
        good = True
        for name, request, response in answers.get(n, []):
            if not response.get("ok"):
                report.f2lay_bug(family, f"{name} refuses {json.dumps(request)}: "
                                 f"{response.get('error')}")
                good = False
                continue
            mine = f2lay_memory_offsets(response["result"])
            for flat, index in enumerate(itertools.product(*map(range, shape))):
                lead = flat // (rows * cols)
                got = lead * extent + mine[index[-2:]]
                if got != want[flat]:
                    report.f2lay_bug(family, f"{name} at {index[-2:]} gives offset {mine[index[-2:]]}, "
                                     f"the definition {want[flat] - lead * extent} "
                                     f"({kind}, {bits}-bit {rows}x{cols}; TileLang {offsets[flat]}): "
                                     f"{json.dumps(request)}")
                    good = False
                    break
        bad = next((k for k, (a, b) in enumerate(zip(offsets, want)) if a != b), None)
        if bad is not None:
            good = False
            findings.setdefault((family, kind), []).append(case)
        elements += len(offsets)
        if good:
            report.agree(family)

    def differs(case, kind, table):
        return table[0] != definition_offsets(kind, case[1], DTYPES[case[2]])

    for (family, kind), hits in findings.items():
        small = shrink_shared(min(hits, key=lambda c: math.prod(c[1])), kind, differs)
        offsets = shared_table(small)[0]
        want = definition_offsets(kind, small[1], DTYPES[small[2]])
        k = next(k for k, (a, b) in enumerate(zip(offsets, want)) if a != b)
        index = list(itertools.product(*map(range, small[1])))[k]
        report.finding(family, f"{len(hits)} cases differ from {kind}'s definition; minimal: "
                       f"{reproducer(small)}; element {index}: TileLang offset {offsets[k]}, "
                       f"the definition {want[k]}")
    print(f"tilelang_check shared: {len(cases)} cases, {elements} elements, "
          f"{len(requests)} f2lay layouts; {refused} refused by TileLang")
    report.check()


# ------------------------------------------------------------------- (b)
def volta_case(rng):
    """A legal make_volta_swizzled_layout case (fp16; crosswise when k_inner
    and both dims are multiples of 32, else congruous or padded)."""
    rows = rng.choice([4, 8, 32, 64, 128])
    cols = rng.choice([32, 64, 128])
    return ("volta", [rows, cols], "float16", rng.random() < 0.5, rng.random() < 0.5)


def test_layout_laws(f2lay, options):
    """Inside the output shape, injective, a permutation where the output
    shape holds exactly the buffer, and Layout.inverse() round trips."""
    count, rng = cases_and_rng(options, DEFAULT_CASES // 2)
    kinds = ["inside", "injective", "bijective", "inverse"]
    report = Report("tilelang_check laws", PEER, kinds)
    families = ["full_bank", "half_bank", "quarter_bank", "swizzled", "wgmma", "tcgen05",
                "mma_swizzle"]
    cases = [draw_shared_case(rng, families)[0] for _ in range(count)]
    cases += [volta_case(rng) for _ in range(max(4, count // 5))]
    refusals, broken, holes = {}, {}, {}
    for case in cases:
        family, shape = case[0], case[1]
        try:
            layout = make_tilelang(family, shape, case[2], case[3], case[4])
        except Exception:
            continue
        offsets, size, outside = tilelang_offsets(layout, shape)
        if outside is None:
            report.agree("inside")
        else:
            broken.setdefault(("inside", family), []).append((case, outside))
        if len(set(offsets)) == len(offsets):
            report.agree("injective")
        else:
            broken.setdefault(("injective", family), []).append((case, None))
        bijective = sorted(offsets) == list(range(len(offsets)))
        kind = None if family == "volta" else \
            tilelang_choice(family, DTYPES[case[2]], *shape[-2:], case[3], case[4])
        if size > len(offsets) and kind and kind[0] != "padded":
            holes.setdefault(family, []).append((case, size))
        if size == len(offsets):  # the output shape holds the buffer exactly: a permutation
            if bijective:
                report.agree("bijective")
            else:
                broken.setdefault(("bijective", family), []).append((case, None))
        if not bijective:
            continue  # padded: no inverse to ask for
        try:
            inverse = layout.inverse()
        except Exception as e:  # TileLang's inverse takes affine maps only (DetectIterMap)
            refusals.setdefault(family, []).append((case, str(e)))
            continue
        extents = [int(n) for n in layout.get_output_shape()]
        ok = True
        for index in itertools.product(*map(range, shape)):
            coords = [int(v) for v in layout.map_forward_index(list(index))]
            back = tuple(int(v) for v in inverse.map_forward_index(coords))[:len(shape)]
            if back != index:
                broken.setdefault(("inverse", family), []).append((case, (index, coords, back)))
                ok = False
                break
        if ok:
            report.agree("inverse")
    for (law, family), hits in broken.items():
        case, detail = min(hits, key=lambda h: math.prod(h[0][1]))
        report.finding(law, f"{family}: {len(hits)} cases; smallest: {reproducer(case)}"
                       + (f"; {detail}" if detail else ""))
    if refusals:  # one finding: the same cause in every family
        counts = ", ".join(f"{family} {len(hits)}" for family, hits in refusals.items())
        case, why = min((h for hits in refusals.values() for h in hits),
                        key=lambda h: math.prod(h[0][1]))
        report.finding("inverse", f"Layout.inverse() refuses every XOR-swizzled layout, though "
                       f"each is a bijection ({counts}): its inverse takes affine IterMaps only; "
                       f"smallest: {reproducer(case)}; L.inverse() raises InternalError: "
                       f"{why[why.find('has errors'):][:160]}")
    for family, hits in holes.items():  # injective into more room than the buffer: a note
        case, size = min(hits, key=lambda h: math.prod(h[0][1]))
        print(f"tilelang_check laws: note: {family}: {len(hits)} layouts leave holes (output "
              f"shape larger than the buffer), e.g. {case[1]} {case[2]}: {size} places for "
              f"{math.prod(case[1])} elements")
    print(f"tilelang_check laws: {len(cases)} cases")
    report.check()


# ------------------------------------------------------------------- (b) banks
def phase_cost(accesses):
    """HARDWARE.md#banks: the most distinct 4-byte words any one bank holds,
    over the (byte address, bytes) accesses of one phase."""
    words = {}
    for address, width in accesses:
        for word in range(address // 4, (address + width + 3) // 4):
            words.setdefault(word % 32, set()).add(word)
    return max(len(w) for w in words.values())


def ldmatrix_wavefronts(offsets, rows, cols, bits):
    """ldmatrix's cost (HARDWARE.md#matrix-phases) of reading a rows x cols
    tile whose rows are split in 16-byte pieces: one phase per 8 aligned rows
    and one 16-byte column, each row at TileLang's address; (wavefronts,
    phases) or None where a 16-byte piece is not contiguous and aligned in
    memory (no ldmatrix then)."""
    vec, size = 128 // bits, bits // 8
    total = phases = 0
    for top in range(0, rows, 8):
        for col in range(0, cols, vec):
            rows8 = []
            for i in range(top, top + 8):
                first = offsets[i * cols + col]
                if first % vec or any(offsets[i * cols + col + e] != first + e for e in range(vec)):
                    return None
                rows8.append((first * size, 16))
            total += phase_cost(rows8)
            phases += 1
    return total, phases


def store_wavefronts(offsets, cols, element_of, instructions, bits):
    """16-byte st.shared (HARDWARE.md#store-phases: four phases of 8
    consecutive lanes): instruction k's lane l stores the 16 bytes starting at
    element_of(k, l); (wavefronts, phases)."""
    total = phases = 0
    for k in range(instructions):
        for quarter in range(4):
            accesses = []
            for lane in range(8 * quarter, 8 * quarter + 8):
                i, j = element_of(k, lane)
                accesses.append((offsets[i * cols + j] * bits // 8, 16))
            total += phase_cost(accesses)
            phases += 1
    return total, phases


def linear_bases(offsets, rows, cols):
    """The element at each offset 2^k, where TileLang's map is a bijection
    linear over F2 (every offset's element the XOR of those), else None."""
    if sorted(offsets) != list(range(rows * cols)) or rows & (rows - 1) or cols & (cols - 1):
        return None
    at = {o: (e // cols, e % cols) for e, o in enumerate(offsets)}
    bases = [at[1 << k] for k in range((rows * cols).bit_length() - 1)]
    for o, (i, j) in at.items():
        x = (0, 0)
        for k, b in enumerate(bases):
            if o >> k & 1:
                x = (x[0] ^ b[0], x[1] ^ b[1])
        if x != (i, j):
            return None
    return [list(b) for b in bases]


def test_bank_conflicts(f2lay, options):
    """The swizzles' ldmatrix reads and 16-byte row stores, by brute force
    of the H100 rule; f2lay's bank_conflicts must count the same."""
    count, rng = cases_and_rng(options, DEFAULT_CASES // 2)
    kinds = ["ldmatrix", "store", "f2lay_ldmatrix", "f2lay_store"]
    report = Report("tilelang_check banks", PEER, kinds)
    families = ["full_bank", "half_bank", "quarter_bank", "swizzled", "wgmma", "mma_swizzle"]
    requests, expect = [], []
    conflicted, unclaimed = {}, {}
    checked = 0
    while checked < count:
        case, kind = draw_shared_case(rng, families)
        family, shape, dtype = case[:3]
        bits, (rows, cols) = DTYPES[dtype], shape[-2:]
        # One 2-D tile of 16 rows or more, kinds that claim conflict-free 16-byte rows.
        if len(shape) > 2 or rows < 16 or kind[0] not in ("swizzle", "padded") or \
                cols * bits % 128 or bits == 64:
            continue
        table = shared_table(case)
        if isinstance(table, Exception):
            continue
        checked += 1
        offsets = table[0]
        loads = ldmatrix_wavefronts(offsets, rows, cols, bits)
        if loads is not None:
            if loads[0] == loads[1]:
                report.agree("ldmatrix")
            else:
                conflicted.setdefault(("ldmatrix", family, kind), []).append((case, loads))
        chunks = cols * bits // 128  # 16-byte pieces per row, stored row after row
        per_instr = rows * chunks // 32
        if per_instr:
            def element_of(k, lane):
                n = 32 * k + lane
                return n // chunks, (n % chunks) * (128 // bits)
            stores = store_wavefronts(offsets, cols, element_of, per_instr, bits)
            # Row-wise stores are conflict-free by design only where a row
            # lies in one swizzle box or is whole 128-byte boxes; a narrower
            # swizzle on wider rows (or a part-filled last box) puts boxes
            # rows * width bytes apart, in the same banks (TMA fills them box
            # by box).
            row_bytes = cols * bits // 8
            claims = kind[0] == "swizzle" and (
                row_bytes <= kind[1] or kind[1] == 128 and row_bytes % 128 == 0)
            if stores[0] == stores[1]:
                report.agree("store")
            elif claims:
                conflicted.setdefault(("store", family, kind), []).append((case, stores))
            else:
                unclaimed.setdefault((family, kind), []).append((case, stores))
        # f2lay's count on TileLang's own layout (16-bit, powers of two).
        bases = linear_bases(offsets, rows, cols) if bits == 16 else None
        if bases is not None and loads is not None and cols <= 256:
            shared = {"op": "shared_linear", "offset_bases": bases}
            mma = {"op": "nvidia_mma", "version": [2, 0], "warps_per_cta": [1, 1],
                   "instr_shape": [16, 8]}
            dot = {"op": "dot_operand", "operand_index": 0, "parent": mma, "k_width": 2,
                   "shape": [rows, cols]}
            # 16-byte vectors (8 halves a lane), the lanes walking the rows.
            blocked = {"op": "blocked", "size_per_thread": [1, 8],
                       "threads_per_warp": [32 // (cols // 8), cols // 8],
                       "warps_per_cta": [1, 1], "order": [1, 0], "shape": [rows, cols]}
            requests += [shared, dot]
            expect.append(("ldmatrix", case, loads, None))
            if rows * cols >= 256:  # a whole warp of vectors
                requests.append(blocked)
                expect.append(("store", case, None, None))
    # First the layouts, then bank_conflicts on them.
    answers = ask_oracle(f2lay, requests)
    second, follow = [], []
    k = 0
    for what, case, loads, _ in expect:
        if what == "ldmatrix":
            shared, dot = answers[k], answers[k + 1]
            k += 2
            last_shared = shared["result"] if shared["ok"] else None
            if not (shared["ok"] and dot["ok"]):
                report.f2lay_bug("f2lay_ldmatrix", f"refused {shared} / {dot}")
                continue
            second.append({"op": "bank_conflicts", "layout": dot["result"],
                           "shared": shared["result"], "element_bytes": 2, "access": "ldmatrix"})
            follow.append(("f2lay_ldmatrix", case, loads))
        else:
            blocked = answers[k]
            k += 1
            if not blocked["ok"]:
                report.f2lay_bug("f2lay_store", f"blocked refused: {blocked}")
                continue
            if last_shared is None:
                continue
            layout = blocked["result"]
            rows, cols = case[1][-2:]
            offsets = shared_table(case)[0]
            regs = 1 << in_bits(layout, "register")

            def element_of(instr, lane, layout=layout):
                return apply_distributed(layout, instr * 8, lane, 0)
            mine = store_wavefronts(offsets, cols, element_of, regs // 8, 16)
            second.append({"op": "bank_conflicts", "layout": layout, "shared": last_shared,
                           "element_bytes": 2, "access": "store", "vector_bytes": 16})
            follow.append(("f2lay_store", case, mine))
    for (kind, case, mine), response in zip(follow, ask_oracle(f2lay, second)):
        if response.get("ok") and response["result"]["wavefronts"] == mine[0]:
            report.agree(kind)
        else:
            report.f2lay_bug(kind, f"{reproducer(case)}: the H100 rule by brute force gives "
                             f"{mine[0]} wavefronts in {mine[1]} phases; "
                             f"f2lay {json.dumps(response)[:300]}")
    for (access, family, kind), hits in conflicted.items():
        case, (wavefronts, phases) = min(hits, key=lambda h: math.prod(h[0][1]))
        report.finding(access, f"{family} {kind} not conflict-free for {access} in {len(hits)} "
                       f"cases; smallest: {reproducer(case)}: {wavefronts} wavefronts for "
                       f"{phases} phases")
    for (family, kind), hits in unclaimed.items():
        case, (wavefronts, phases) = min(hits, key=lambda h: math.prod(h[0][1]))
        print(f"tilelang_check banks: note: row-wise 16-byte stores conflict on {family} {kind}, "
              f"which does not claim them (rows wider than its box, a part-filled box, or "
              f"padding; {len(hits)} cases, e.g. {case[1]} {case[2]}: {wavefronts} "
              f"wavefronts for {phases} phases): by design, not a finding")
    print(f"tilelang_check banks: {checked} layouts, {len(second)} f2lay bank_conflicts requests")
    report.check()


# ------------------------------------------------------------------- (c)
MMA = {"op": "nvidia_mma", "version": [2, 0], "warps_per_cta": [1, 1], "instr_shape": [16, 8]}
# a_dtype -> (accumulator, K per instruction); tf32's float32 operands.
OPERANDS = {"float16": ("float32", 16), "bfloat16": ("float32", 16), "int8": ("int32", 32),
            "float8_e4m3fn": ("float32", 32), "float32": ("float32", 8)}


def ptx_owner(operand, i, j, bits):
    """PTX's mma.sync fragment tables (m16n8k16 f16, m16n8k32 8-bit, m16n8k8
    tf32; "Matrix Fragments for mma.m16n8kK"): the lane and register within
    one instruction that hold element (i, j) of its tile: A (m16 x k), B (k x
    n8, given as (k, n)), C (m16 x n8). kw = 32 / bits values per register."""
    kw = 32 // bits
    if operand == "C":
        row, col = i % 16, j % 8
        return 4 * (row % 8) + (col // 2), col % 2 + 2 * (row // 8)
    if operand == "A":
        row, col = i % 16, j % (8 * kw)
        lane = 4 * (row % 8) + (col % (4 * kw)) // kw
        return lane, col % kw + kw * (row // 8) + 2 * kw * (col // (4 * kw))
    k, n = i % (8 * kw), j % 8
    return 4 * n + (k % (4 * kw)) // kw, k % kw + kw * (k // (4 * kw))


def draw_emitter(rng):
    while True:
        a_dtype = rng.choice(list(OPERANDS))
        accum, k_dim = OPERANDS[a_dtype]
        params = dict(a_dtype=a_dtype, b_dtype=a_dtype, accum_dtype=accum,
                      a_transposed=rng.random() < 0.3, b_transposed=rng.random() < 0.6,
                      block_row_warps=rng.choice([1, 2, 4]), block_col_warps=rng.choice([1, 2]),
                      warp_row_tiles=rng.choice([16, 32, 64]), warp_col_tiles=rng.choice([8, 16, 32]),
                      chunk=k_dim * rng.choice([1, 2]), is_m_first=rng.random() < 0.25)
        if params["block_row_warps"] * params["block_col_warps"] * params["warp_row_tiles"] * \
                params["warp_col_tiles"] <= 1 << 13:
            return params


def warp_bases(first, first_count, second, second_count, dims=2):
    """f2lay in dim `warp` with log2(first_count) bits along `first` (a dim
    index, or None: copies), then log2(second_count) along `second`."""
    bases = []
    for dim, n in ((first, first_count), (second, second_count)):
        for k in range(n.bit_length() - 1):
            bases.append([(1 << k) if d == dim else 0 for d in range(dims)])
    return bases


def emitter_reproducer(params):
    return ("from tilelang.cuda.intrinsics.macro.mma_macro_generator import TensorCoreIntrinEmitter; "
            f"em = TensorCoreIntrinEmitter(**{params})")


def test_gemm_fragments(f2lay, options):
    """TileLang's gemm fragments against f2lay's ldmatrix, nvidia_mma and
    dot_operand, judged by PTX's fragment tables."""
    count, rng = cases_and_rng(options, DEFAULT_CASES // 5)
    kinds = ["ldmatrix_8x8", "mma_C", "mma_A", "mma_B", "inverse"]
    report = Report("tilelang_check fragments", PEER, kinds)
    # make_gemm_fragment_8x8 (and transposed): one b16 8x8 ldmatrix matrix.
    eight = ask_oracle(f2lay, [{"op": "ldmatrix", "count": 1},
                               {"op": "ldmatrix", "count": 1, "trans": True}])
    for trans, response in zip((False, True), eight):
        fragment = (tl_layout.make_gemm_fragment_8x8_transposed() if trans
                    else tl_layout.make_gemm_fragment_8x8())
        owners = fragment_owners(fragment, (8, 8))
        bad = []
        for (i, j), held in zip(itertools.product(range(8), range(8)), owners):
            (thread, half), = held
            # HARDWARE.md#matrix-ownership: row t/4, column 2(t%4)+h (.trans: swapped)
            want = ((2 * (thread % 4) + half, thread // 4) if trans
                    else (thread // 4, 2 * (thread % 4) + half))
            mine = apply_distributed(response["result"], half, thread, 0)[:2]
            if (i, j) != want:
                bad.append(("peer", (i, j), thread, half, want))
            if mine != want:
                bad.append(("f2lay", (i, j), thread, half, mine))
        name = "make_gemm_fragment_8x8" + ("_transposed" if trans else "")
        if not bad:
            report.agree("ldmatrix_8x8")
        for who, element, thread, half, got in bad[:1]:
            text = (f"tilelang.layout.{name}(): thread {thread}, local {half} holds {element}; "
                    f"{'PTX' if who == 'peer' else 'f2lay ldmatrix'} says {got}")
            (report.finding if who == "peer" else report.f2lay_bug)("ldmatrix_8x8", text)

    findings = {}
    cases = [draw_emitter(rng) for _ in range(count)]
    plans, requests = [], []
    for params in cases:
        em = tl_mma.TensorCoreIntrinEmitter(**params)
        rw, cw = params["block_row_warps"], params["block_col_warps"]
        wm, wn, chunk = params["warp_row_tiles"], params["warp_col_tiles"], params["chunk"]
        bits = DTYPES[params["a_dtype"]]
        kw = 32 // bits
        # The warp that extract_thread_binding gives each (warp_m, warp_n):
        # the emitter's own thread decomposition, which its ldmatrix and mma
        # code use.
        if params["is_m_first"]:
            warp_of = lambda m, n, rw=rw, cw=cw: m * cw + n
        else:
            warp_of = lambda m, n, rw=rw, cw=cw: n * rw + m
        for operand in ("C", "A", "B"):
            if operand == "C":
                shape = (rw * wm, cw * wn)
                buf = fragment_buffer(shape, params["accum_dtype"])
                make = lambda em=em, buf=buf: em.make_mma_store_layout(buf)
                tile = dict(MMA, shape=[wm, wn])
                # One warp's tile, then the warps in extract_thread_binding's order.
                first, second = (1, 0) if params["is_m_first"] else (0, 1)
                counts = (cw, rw) if params["is_m_first"] else (rw, cw)
                bases = warp_bases(first, counts[0], second, counts[1])
                warps = {"in_dims": [{"name": "warp", "bases": bases}],
                         "out_dims": [{"name": "dim0", "size": rw}, {"name": "dim1", "size": cw}]}
                regs = 4
                swap = False
            elif operand == "A":
                swap = params["a_transposed"]
                shape = (chunk, rw * wm) if swap else (rw * wm, chunk)
                buf = fragment_buffer(shape, params["a_dtype"])
                make = lambda em=em, buf=buf: em.make_mma_load_layout(buf, "A")
                tile = {"op": "dot_operand", "operand_index": 0, "parent": MMA, "k_width": kw,
                        "shape": [wm, chunk]}
                # Warps along M, the others copies, in extract_thread_binding's order.
                order = (None, cw, 0, rw) if params["is_m_first"] else (0, rw, None, cw)
                warps = {"in_dims": [{"name": "warp", "bases": warp_bases(*order)}],
                         "out_dims": [{"name": "dim0", "size": rw}, {"name": "dim1", "size": 1}]}
                regs = 4 * kw
            else:
                swap = params["b_transposed"]  # TileLang's B is (n, k) when transposed
                shape = (cw * wn, chunk) if swap else (chunk, cw * wn)
                buf = fragment_buffer(shape, params["b_dtype"])
                make = lambda em=em, buf=buf: em.make_mma_load_layout(buf, "B")
                tile = {"op": "dot_operand", "operand_index": 1, "parent": MMA, "k_width": kw,
                        "shape": [chunk, wn]}
                order = (1, cw, None, rw) if params["is_m_first"] else (None, rw, 1, cw)
                warps = {"in_dims": [{"name": "warp", "bases": warp_bases(*order)}],
                         "out_dims": [{"name": "dim0", "size": 1}, {"name": "dim1", "size": cw}]}
                regs = 2 * kw
            plans.append((params, operand, shape, make, swap, regs, warp_of))
            requests.append(tile)
            requests.append(warps)
    tiles = ask_oracle(f2lay, requests[0::2])
    products = ask_oracle(f2lay, [{"op": "product", "self": t["result"], "other": w}
                                  for t, w in zip(tiles, requests[1::2]) if t.get("ok")])
    products = iter(products)
    for (params, operand, shape, make, swap, regs, warp_of), tile in zip(plans, tiles):
        kind = f"mma_{operand}"
        if not tile.get("ok"):
            report.f2lay_bug(kind, f"refused {json.dumps(tile)[:300]}")
            continue
        product = next(products)
        if not product.get("ok"):
            report.f2lay_bug(kind, f"product refused {json.dumps(product)[:300]}")
            continue
        try:
            fragment = make()
        except Exception as e:
            report.finding(kind, f"{emitter_reproducer(params)}: the {operand} layout raises {e}")
            continue
        owners = fragment_owners(fragment, shape)
        # f2lay: every element's owners (lane, warp, register within one instruction).
        layout = product["result"]
        f2 = {}
        for w in range(1 << in_bits(layout, "warp")):
            for lane in range(32):
                for r in range(1 << in_bits(layout, "register")):
                    e = apply_distributed(layout, r, lane, w)
                    f2.setdefault(e, set()).add((lane, w, r % regs))
        bits = DTYPES[params["a_dtype"]] if operand != "C" else 32
        rw, cw = params["block_row_warps"], params["block_col_warps"]
        wm, wn = params["warp_row_tiles"], params["warp_col_tiles"]
        peer_bad = f2_bad = None
        seen = {}
        for index, held in zip(itertools.product(*map(range, shape)), owners):
            # In f2lay's / PTX's orientation: A (m, k), B (k, n), C (m, n).
            e = index[::-1] if swap else index
            if operand == "C":
                lane, reg = ptx_owner("C", e[0], e[1], 32)
                warps_of_e = {warp_of(e[0] // wm, e[1] // wn)}
            elif operand == "A":
                lane, reg = ptx_owner("A", e[0], e[1], bits)
                warps_of_e = {warp_of(e[0] // wm, n) for n in range(cw)}
            else:
                lane, reg = ptx_owner("B", e[0], e[1], bits)
                warps_of_e = {warp_of(m, e[1] // wn) for m in range(rw)}
            want = {(lane, w, reg) for w in warps_of_e}
            peer = {(t % 32, t // 32, l % regs) for t, l in held}
            for t, l in held:  # no two elements in one thread's register
                if seen.setdefault((t, l), index) != index and peer_bad is None:
                    peer_bad = (f"elements {seen[(t, l)]} and {index} both in thread {t}, "
                                f"local {l} (thread extent {int(fragment.get_thread_size())})")
            if peer != want and peer_bad is None:
                peer_bad = (f"element {index}: TileLang (lane, warp, register % {regs}) "
                            f"{sorted(peer)}, PTX and the emitter's warps {sorted(want)}")
            if f2.get(e, set()) != want and f2_bad is None:
                f2_bad = f"element {e}: f2lay {sorted(f2.get(e, set()))}, PTX {sorted(want)}"
        if f2_bad:
            report.f2lay_bug(kind, f"{emitter_reproducer(params)}: {f2_bad}")
        if peer_bad:
            key = (kind, params["is_m_first"], peer_bad.split(":")[0].split(" ")[0])
            findings.setdefault(key, []).append((params, peer_bad))
        if not f2_bad and not peer_bad:
            report.agree(kind)
        # Fragment.inverse(): (local, thread) -> (i, j[, rep]) undoes the forward map.
        if peer_bad is None:
            try:
                inverse = fragment.inverse()
            except Exception as e:
                report.finding("inverse", f"{emitter_reproducer(params)}: the {operand} "
                               f"fragment's inverse() raises {str(e).splitlines()[-1][:120]}")
                continue
            wrong = None
            for index, held in zip(itertools.product(*map(range, shape)), owners):
                for rep, (t, l) in enumerate(held):
                    back = tuple(int(v) for v in inverse.map_forward_index([l, t]))
                    if back[:len(shape)] != index or (len(held) > 1 and back[len(shape)] != rep):
                        wrong = (index, rep, t, l, back)
                        break
                if wrong:
                    break
            if wrong:
                report.finding("inverse", f"{emitter_reproducer(params)}: {operand}: {wrong}")
            else:
                report.agree("inverse")
    for (kind, m_first, _), hits in findings.items():
        params, why = min(hits, key=lambda h: h[0]["block_row_warps"] * h[0]["block_col_warps"]
                          * h[0]["warp_row_tiles"] * h[0]["warp_col_tiles"])
        call = ("em.make_mma_store_layout(tilelang.tvm.tirx.decl_buffer(shape, 'float32', "
                "scope='local.fragment'))" if kind == "mma_C"
                else f"em.make_mma_load_layout(buf, '{kind[-1]}')")
        report.finding(kind, f"{len(hits)} emitters (is_m_first={m_first}); smallest: "
                       f"{emitter_reproducer(params)}; {call}: {why}")
    print(f"tilelang_check fragments: {len(cases)} emitters, {len(plans)} fragments")
    report.check()
