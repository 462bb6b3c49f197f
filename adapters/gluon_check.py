"""Checks f2lay's layout catalog against Gluon's to_linear_layout (Triton).

Gluon, Triton's Python layout language, converts its layout classes to linear
layouts in Triton's own C++ (no GPU needed). This script draws random valid
parameters for each catalog family, asks Gluon and `f2lay oracle` for the
layout, and compares the two; then the same for every case of these families
in vectors/catalog.json (golden and drawn) that Gluon 3.9.0 can build. The
random parameters are drawn for Gluon 3.9.0's constructors (amd_wmma's
warp_bases and reg_bases); a vector that uses amd_wmma's Gluon 3.6 keys
(warps_per_cta, tiles_per_warp) is asked of Gluon 3.9.0 through the bases of
the same layout.

Gluon defines these families (f2lay follows Triton), so every disagreement
counts as an f2lay bug, printed with its request. Triton aborts the whole
process on parameters it rejects, so only valid ones are drawn.

A pytest module (conftest.py), one test per family (and one for the vectors;
-k picks): --cases per family (default 300), --seed (default 1); it skips
where Triton is not installed.
"""
import json
import pathlib
import random

import pytest

from oracle_client import ERROR, Report, compare, forked_outcomes, shape_judge

pytest.importorskip("triton", reason="Triton is not installed (scripts/setup installs it)")
from triton._C.libtriton import gluon_ir, ir  # noqa: E402
import triton.experimental.gluon.language as ttgl  # noqa: E402


VECTORS_DIR = pathlib.Path(__file__).resolve().parent.parent / "vectors"


class Gluon:
    def __init__(self):
        self.ctx = ir.context()
        ir.load_dialects(self.ctx)
        self.builder = gluon_ir.GluonOpBuilder(self.ctx)

    def answer(self, request):
        """Gluon's answer to a request, as f2lay's JSON layout."""
        if request["op"] == "make_cga_layout":
            bases = gluon_ir.make_cga_layout(request["ctas_per_cga"], request["cta_split_num"],
                                             request["cta_order"])
            sizes = [1 << max([b[d] for b in bases] + [0]).bit_length()
                     for d in range(len(request["cta_order"]))]
            return {"in_dims": [{"name": "block", "bases": bases}],
                    "out_dims": [{"name": f"dim{i}", "size": s} for i, s in enumerate(sizes)]}
        if request["op"] in TMEM_FAMILIES:
            answer = gluon_tmem_answer(self, request)
            if answer is ERROR:
                raise ValueError("Gluon refuses it")
            return answer
        return self.layout(gluon_layout(request), request["shape"])

    def layout(self, gluon_layout, shape):
        """Gluon's linear layout as f2lay's JSON layout."""
        ll = self.builder.to_linear_layout(gluon_layout._to_ir(self.builder), list(shape))
        names = [n for n in ("reg_bases", "lane_bases", "warp_bases", "block_bases", "offset_bases")
                 if hasattr(ll, n)]
        dims = {"reg_bases": "register", "lane_bases": "lane", "warp_bases": "warp",
                "block_bases": "block", "offset_bases": "offset"}
        in_dims = [{"name": dims[n], "bases": [list(b) for b in getattr(ll, n)]} for n in names]
        return {"in_dims": in_dims,
                "out_dims": [{"name": f"dim{i}", "size": s} for i, s in enumerate(shape)]}


def split_pow2(rng, total_log2, rank):
    """rank powers of two whose product is 2**total_log2."""
    parts = [0] * rank
    for _ in range(total_log2):
        parts[rng.randrange(rank)] += 1
    return [1 << p for p in parts]


def random_blocked(rng):
    rank = rng.randint(1, 3)
    spt = [1 << rng.randint(0, 2) for _ in range(rank)]
    tpw = split_pow2(rng, 5, rank)
    wpc = split_pow2(rng, rng.randint(0, 3), rank)
    order = list(range(rank))
    rng.shuffle(order)
    shape = [1 << rng.randint(0, 7 if rank < 3 else 4) for _ in range(rank)]
    request = {"op": "blocked", "size_per_thread": spt, "threads_per_warp": tpw,
               "warps_per_cta": wpc, "order": order, "shape": shape}
    cga = random_cga(rng, rank) if rng.random() < 0.5 else []
    if cga:
        request["cga_layout"] = cga
    return request


def random_cga(rng, rank):
    """Block bases: each CTA bit moves one dim to its next power of two, or
    nothing (CTAs holding copies)."""
    bases, next_bit = [], [0] * rank
    for _ in range(rng.randint(0, 3)):
        basis = [0] * rank
        if rng.random() < 0.8:
            d = rng.randrange(rank)
            basis[d] = 1 << next_bit[d]
            next_bit[d] += 1
        bases.append(basis)
    return bases


def random_mma_params(rng, major=None, rank=None):
    """NVMMADistributedLayout parameters (one CTA): version 2 at rank 2 or 3,
    version 3 (wgmma, rank 2) with N from 8 to 256."""
    major = major or rng.choice([2, 3])
    if major == 2:
        rank = rank or rng.choice([2, 2, 3])
        instr = [16, 8] if rank == 2 else [1, 16, 8]
    else:
        rank = 2
        instr = [16, 1 << rng.randint(3, 8), rng.choice([8, 16, 32])]
    warps = split_pow2(rng, rng.randint(0, 4), rank)
    return {"version": [major, 0], "warps_per_cta": warps, "instr_shape": instr}


def random_shape(rng, rank):
    """Smaller and larger than the tiles; a batch dim stays small."""
    return ([1 << rng.randint(0, 3)] if rank == 3 else []) + [1 << rng.randint(0, 8) for _ in range(2)]


def random_nvidia_mma(rng):
    params = random_mma_params(rng)
    shape = random_shape(rng, len(params["warps_per_cta"]))
    cga = random_cga(rng, len(shape)) if rng.random() < 0.3 else []
    request = {"op": "nvidia_mma", **params, "shape": shape}
    if cga:
        request["cga_layout"] = cga
    return request


def random_dot_operand(rng):
    """Operand A or B of a version 2 parent, or A of a version 3 one (wgmma
    reads B from shared memory; Gluon refuses it)."""
    params = random_mma_params(rng)
    index = 0 if params["version"][0] == 3 else rng.randint(0, 1)
    k_width = 1 << rng.randint(0, 4)
    shape = random_shape(rng, len(params["warps_per_cta"]))
    return {"op": "dot_operand", "operand_index": index, "parent": params, "k_width": k_width,
            "shape": shape}


def random_dot_operand_cga(rng):
    """Operand A or B of a version 2 parent, or A of a version 3 one, whose
    parent has a CGA layout (the operand's CTA tiling is derived from it)."""
    request = random_dot_operand(rng)
    rank = len(request["shape"])
    cga = []
    while not cga:
        cga = random_cga(rng, rank)
    request["parent"]["cga_layout"] = cga
    return request


WMMA_K_WIDTHS = {1: [8, 16], 2: [4, 8, 16], 3: [1, 2, 4, 8, 16, 32, 64]}


def random_amd_dot_operand(rng, family):
    """Operand A or B of a random amd_mfma or amd_wmma accumulator (every
    instruction shape, tiles, bases and CGA the accumulator draws take), with
    a k_width Triton's verifier accepts: any power of two for MFMA, 8 or 16
    for WMMA version 1, 4, 8 or 16 for version 2."""
    if family == "amd_mfma":
        parent = random_amd_mfma(rng)
        k_width = 1 << rng.randint(0, 5)
    else:
        parent = random_amd_wmma(rng)
        k_width = rng.choice(WMMA_K_WIDTHS[parent["version"]])
    shape = parent.pop("shape")
    return {"op": "dot_operand", "operand_index": rng.randint(0, 1), "parent": parent,
            "k_width": k_width, "shape": shape}


def random_mfma_scale(rng):
    """get_mfma_scale_layout's arguments: an operand of a rank-2 amd_mfma
    parent with M 16 or 32 (Triton asserts it), the scale's shape, factor 32."""
    while True:
        request = random_amd_dot_operand(rng, "amd_mfma")
        if len(request["shape"]) == 2 and request["parent"]["instr_shape"][0] in (16, 32):
            break
    request.pop("op")
    request.pop("shape")
    return {"op": "amd_mfma_scale", "dot_operand_layout": request,
            "shape": [1 << rng.randint(0, 8), 1 << rng.randint(0, 4)], "scale_factor": 32}


def random_wmma_scale(rng):
    """get_wmma_scale_layout's arguments: an operand of a rank-2 amd_wmma
    parent, the scale's shape, factor 16 or 32."""
    while True:
        request = random_amd_dot_operand(rng, "amd_wmma")
        if len(request["shape"]) == 2:
            break
    request.pop("op")
    request.pop("shape")
    return {"op": "amd_wmma_scale", "dot_operand_layout": request,
            "shape": [1 << rng.randint(0, 8), 1 << rng.randint(0, 4)],
            "scale_factor": rng.choice([16, 32])}


def random_amd_grid(rng):
    """warps_per_cta, tiles_per_warp, optional cga_layout of an AMD accumulator,
    rank 2 or 3 (a leading batch dim)."""
    rank = rng.choice([2, 2, 3])
    warps = split_pow2(rng, rng.randint(0, 4), rank)
    tiles = [1 << rng.randint(0, 2) for _ in range(rank)]
    cga = random_cga(rng, rank) if rng.random() < 0.3 else []
    return rank, warps, tiles, cga


def random_amd_mfma(rng):
    """AMDMFMALayout: every (M, N), 32- and 64-bit results, tiles per warp,
    shapes below and above the tile (64x4 only transposed: Triton asserts)."""
    rank, warps, tiles, cga = random_amd_grid(rng)
    mn = rng.choice([[32, 32], [16, 16], [4, 64], [64, 4]])
    transposed = True if mn == [64, 4] else rng.random() < 0.5
    instr = mn + [rng.choice([4, 8, 16, 32])]
    bits = rng.choice([32, 64])
    shape = random_shape(rng, rank)
    request = {"op": "amd_mfma", "version": rng.randint(1, 4), "instr_shape": instr,
               "transposed": transposed, "warps_per_cta": warps, "element_bitwidth": bits,
               "tiles_per_warp": tiles, "shape": shape}
    if cga:
        request["cga_layout"] = cga
    return request


def random_tile_bases(rng, rank):
    """Gluon 3.9's warp_bases and reg_bases: per dim the moves 1, 2, 4, ...
    (in instruction tiles), each on a warp or a register bit, in any order,
    and now and then an all-0 basis (a broadcast)."""
    moves = [[0] * d + [1 << k] + [0] * (rank - d - 1)
             for d in range(rank) for k in range(rng.randint(0, 2 if d or rank == 2 else 1))]
    moves += [[0] * rank for _ in range(rng.choice([0, 0, 0, 1]))]
    rng.shuffle(moves)
    warp, reg = [], []
    for basis in moves:
        (warp if rng.random() < 0.5 else reg).append(basis)
    return warp, reg


def random_amd_wmma(rng):
    """Gluon 3.9's AMDWMMALayout: versions 1-3 with their instruction shapes
    (version 3's 32x16 too), random warp and register bases, any extents
    (Triton 3.9 no longer asserts on M or N below the tile)."""
    rank = rng.choice([2, 2, 3])
    version = rng.randint(1, 3)
    instr = {1: [[16, 16, 16]], 2: [[16, 16, 16], [16, 16, 32]],
             3: [[16, 16, 4], [16, 16, 32], [16, 16, 64], [16, 16, 128], [32, 16, 64],
                 [32, 16, 128]]}[version]
    warp, reg = random_tile_bases(rng, rank)
    request = {"op": "amd_wmma", "version": version, "transposed": rng.random() < 0.5,
               "warp_bases": warp, "instr_shape": rng.choice(instr),
               "shape": random_shape(rng, rank)}
    if reg or rng.random() < 0.5:
        request["reg_bases"] = reg
    if rank == 3 or rng.random() < 0.2:
        request["rank"] = rank
    cga = random_cga(rng, rank) if rng.random() < 0.3 else []
    if cga:
        request["cga_layout"] = cga
    return request


def gluon36_wmma_bases(warps, tiles, shape):
    """The Gluon 3.9 bases of Gluon 3.6's AMDWMMALayout(warps_per_cta,
    tiles_per_warp) at `shape` (16x16 tiles). Triton 3.6 ordered the
    registers: tiles_per_warp along N, then the repeats over the whole N
    extent, then tiles_per_warp along M; warps along N, then M, then batch."""
    rank = len(warps)
    tiles = tiles or [1] * rank
    m, n = rank - 2, rank - 1

    def along(dim, value):
        return [value if d == dim else 0 for d in range(rank)]

    reg = [along(n, 1 << k) for k in range(tiles[n].bit_length() - 1)]
    warp = [along(n, tiles[n] << k) for k in range(warps[n].bit_length() - 1)]
    reached = tiles[n] * warps[n]
    while 16 * reached < shape[n]:
        reg.append(along(n, reached))
        reached *= 2
    reg += [along(m, 1 << k) for k in range(tiles[m].bit_length() - 1)]
    warp += [along(m, tiles[m] << k) for k in range(warps[m].bit_length() - 1)]
    warp += [along(0, 1 << k) for k in range(warps[0].bit_length() - 1)] if rank == 3 else []
    return warp, reg


def random_slice(rng):
    """A slice of a random blocked parent of rank 2 or 3."""
    while True:
        parent = random_blocked(rng)
        if len(parent["shape"]) >= 2:
            break
    shape = parent.pop("shape")
    dim = rng.randrange(len(shape))
    return {"op": "slice", "dim": dim, "parent": parent, "shape": shape[:dim] + shape[dim + 1:]}


def random_distributed_linear(rng):
    """Gluon's DistributedLinearLayout: every bit of a random shape on a
    register, lane, warp or block basis, with broadcasts (zero bases); a
    third of the draws then broken one way (a basis dropped, repeated,
    moved along a second dim, not a power of two, or past the shape), which
    Gluon must refuse as f2lay does."""
    rank = rng.randint(1, 3)
    shape = [1 << rng.randint(0, 4 if rank < 3 else 2) for _ in range(rank)]
    bases = [[(1 << k) if e == d else 0 for e in range(rank)]
             for d in range(rank) for k in range(shape[d].bit_length() - 1)]
    bases += [[0] * rank for _ in range(rng.choice([0, 0, 1, 2]))]
    rng.shuffle(bases)
    if bases and rng.random() < 1 / 3:
        i, d = rng.randrange(len(bases)), rng.randrange(rank)
        how = rng.choice(["drop", "repeat", "swizzle", "three", "past"])
        if how == "drop":
            bases.pop(i)
        elif how == "repeat":
            bases.append(list(bases[i]))
        elif how == "swizzle" and shape[d] > 1:
            bases[i][d] ^= shape[d] >> 1
        elif how == "three" and shape[d] > 2:
            bases[i][d] = 3
        else:
            bases[i][d] = shape[d]
    keys = ["reg_bases", "lane_bases", "warp_bases", "block_bases"]
    request = {"op": "distributed_linear", **{k: [] for k in keys}, "shape": shape}
    for basis in bases:
        request[rng.choice(keys)].append(basis)
    if not request["block_bases"] and rng.random() < 0.5:
        del request["block_bases"]
    return request


def random_make_cga_layout(rng):
    """Gluon's make_cga_layout (Triton's legacy CTA tiling): CTAs and distinct
    tiles per dim, an order; now and then more tiles than CTAs, which both
    must refuse."""
    rank = rng.randint(1, 3)
    ctas = [1 << rng.randint(0, 2) for _ in range(rank)]
    split = [c >> rng.randint(0, c.bit_length() - 1) for c in ctas]
    if rng.random() < 0.1:
        split[0] = ctas[0] * 2
    order = list(range(rank))
    rng.shuffle(order)
    return {"op": "make_cga_layout", "ctas_per_cga": ctas, "cta_split_num": split,
            "cta_order": order}


def random_tmem_cga(rng, two_ctas):
    """cga_layout of a tensor memory layout: up to 2 CTA bits, each along
    dim0 or dim1 (two_ctas: the first is [1, 0])."""
    bases, next_bit = ([[1, 0]], [1, 0]) if two_ctas else ([], [0, 0])
    for _ in range(rng.randint(0, 1 if two_ctas else 2)):
        d = rng.randrange(2)
        bases.append([1 << next_bit[0], 0] if d == 0 else [0, 1 << next_bit[1]])
        next_bit[d] += 1
    return bases


def random_tensor_memory_params(rng, bits=32):
    """TensorMemoryLayout keys and a shape Triton accepts: blockM 64 or 128,
    at least the tile's rows per CTA (Triton asserts otherwise), col_stride
    packed (1) or unpacked (32 / bits) or in between; fp4_padded (8-bit, col_stride
    1) and two-CTA layouts now and then."""
    block_m = rng.choice([64, 128])
    two_ctas = rng.random() < 0.2
    cga = random_tmem_cga(rng, two_ctas) if two_ctas or rng.random() < 0.3 else []
    split = [1 << sum(1 for b in cga if b[d]) for d in range(2)]
    block_n = 1 << rng.randint(1 if two_ctas and block_m == 64 else 0, 8)
    col_stride = rng.choice([1, 32 // bits, 1 << rng.randint(0, (32 // bits).bit_length() - 1)])
    fp4_padded = bits == 8 and col_stride == 1 and rng.random() < 0.2
    rows = block_m if block_m == 128 or two_ctas else 64
    # two_ctas with blockM 64 moves a column bit to the rows: Triton 3.9.0
    # crashes (segmentation fault) when a CTA has a single column
    # (FINDINGS.md), so at least 2 columns per CTA there.
    min_cols = 1 if two_ctas and block_m == 64 else 0
    shape = [split[0] * rows << rng.randint(0, 2), split[1] << rng.randint(min_cols, 8)]
    layout = {"block": [block_m, block_n], "col_stride": col_stride}
    if cga or rng.random() < 0.1:
        layout["cga_layout"] = cga
    if two_ctas or rng.random() < 0.1:
        layout["two_ctas"] = two_ctas
    if fp4_padded or (bits == 8 and rng.random() < 0.1):
        layout["fp4_padded"] = fp4_padded
    return layout, shape


def random_tensor_memory(rng):
    layout, shape = random_tensor_memory_params(rng, rng.choice([8, 16, 32]))
    return {"op": "tensor_memory", **layout, "shape": shape}


def random_tensor_memory_scales(rng):
    cga = random_tmem_cga(rng, False) if rng.random() < 0.3 else []
    split = [1 << sum(1 for b in cga if b[d]) for d in range(2)]
    request = {"op": "tensor_memory_scales",
               "shape": [split[0] << rng.randint(0, 8), split[1] << rng.randint(0, 5)]}
    if cga:
        request["cga_layout"] = cga
    return request


TMEM_VARIANTS = ["32x32b", "16x64b", "16x128b", "16x256b", "32x32b_splitn"]


def random_tmem_reg_layout(rng):
    """compute_tmem_reg_layout on a random tensor memory layout: every
    instruction shape, 8/16/32-bit elements, 4 to 16 warps, an allocation
    as large as the tensor or larger (a leading buffer dim too). Gluon
    answers None (an f2lay error expected) for some of them."""
    bits = rng.choice([8, 16, 32, 32])
    layout, shape = random_tensor_memory_params(rng, bits)
    alloc = [n << (rng.randint(0, 1) if rng.random() < 0.2 else 0) for n in shape]
    if rng.random() < 0.1:
        alloc = [rng.choice([2, 4])] + alloc
    return {"op": "tmem_reg_layout", "element_bitwidth": bits, "shape": shape,
            "alloc_shape": alloc, **layout, "num_warps": rng.choice([4, 4, 8, 16]),
            "instr_variant": rng.choice(TMEM_VARIANTS)}


TMEM_DTYPES = {8: "int8", 16: "float16", 32: "float32"}


def tmem_layout(keys):
    from triton.experimental.gluon.language.nvidia.blackwell import TensorMemoryLayout
    return TensorMemoryLayout(tuple(keys["block"]), keys["col_stride"], keys.get("cga_layout", []),
                              keys.get("two_ctas", False), keys.get("fp4_padded", False))


def gluon_tmem_answer(gluon, req):
    """Gluon's answer to a tensor memory request as f2lay's JSON layout, or
    ERROR where Gluon refuses it (None, ValueError, RuntimeError: Gluon's
    own checks, not aborts). Gluon prints a tensor memory layout's rows and
    cols only; its block bases are Triton's tile * cga_layout: each CGA basis
    times the shape per CTA."""
    from triton.experimental.gluon.language.nvidia.blackwell import TensorMemoryScalesLayout
    from triton.experimental.gluon.language._semantic import _compute_tmem_reg_layout
    shape = req["shape"]
    out_dims = [{"name": f"dim{i}", "size": s} for i, s in enumerate(shape)]
    try:
        if req["op"] == "tmem_reg_layout":
            ll = _compute_tmem_reg_layout(getattr(ttgl, TMEM_DTYPES[req["element_bitwidth"]]),
                                          shape, req["alloc_shape"], tmem_layout(req),
                                          req["num_warps"], req["instr_variant"])
            dims = [("register", ll.reg_bases), ("lane", ll.lane_bases), ("warp", ll.warp_bases),
                    ("block", ll.block_bases)]
        else:
            if req["op"] == "tensor_memory":
                layout = tmem_layout(req)
            else:
                layout = TensorMemoryScalesLayout(req.get("cga_layout", []))
            ll = gluon.builder.to_linear_layout(layout._to_ir(gluon.builder), list(shape))
            cga = req.get("cga_layout", [])
            split = [1 << sum(1 for b in cga if b[d]) for d in range(2)]
            per_cta = [n // k for n, k in zip(shape, split)]
            dims = [("row", ll.rows), ("col", ll.cols),
                    ("block", [[b[0] * per_cta[0], b[1] * per_cta[1]] for b in cga])]
    except (ValueError, RuntimeError, AssertionError):
        return ERROR
    return {"in_dims": [{"name": n, "bases": [list(b) for b in bases]} for n, bases in dims],
            "out_dims": out_dims}


TMEM_FAMILIES = {"tensor_memory": random_tensor_memory,
                 "tensor_memory_scales": random_tensor_memory_scales,
                 "tmem_reg_layout": random_tmem_reg_layout}


LEGACY_CGA_KEYS = ("ctas_per_cga", "cta_split_num", "cta_order")


def gluon_layout(req):
    """The Gluon layout object of a catalog request (f2lay's keys are Gluon's
    in snake case), or None where the request uses keys Gluon 3.9.0 has no
    counterpart for (the legacy CTA tiling) or asks for Triton 3.6's rules."""
    if any(k in req for k in LEGACY_CGA_KEYS) or req.get("triton") == "3.6":
        return None  # no counterpart, or an older release's rules
    op, cga = req.get("op", "blocked"), req.get("cga_layout", [])
    if op == "blocked":
        return ttgl.BlockedLayout(req["size_per_thread"], req["threads_per_warp"],
                                  req["warps_per_cta"], req["order"], cga)
    if op == "slice":
        parent = gluon_layout(req["parent"])
        return None if parent is None else ttgl.SliceLayout(req["dim"], parent)
    if op == "nvidia_mma":
        return ttgl.NVMMADistributedLayout(version=req["version"], warps_per_cta=req["warps_per_cta"],
                                           instr_shape=req["instr_shape"], cga_layout=cga)
    if op == "dot_operand":
        parent = {"op": "nvidia_mma", **req["parent"], "shape": req["shape"]}
        return ttgl.DotOperandLayout(operand_index=req["operand_index"],
                                     parent=gluon_layout(parent), k_width=req["k_width"])
    if op == "distributed_linear":
        return ttgl.DistributedLinearLayout(req["reg_bases"], req["lane_bases"], req["warp_bases"],
                                            req.get("block_bases", []), req["shape"])
    if op == "amd_mfma":
        return ttgl.amd.AMDMFMALayout(version=req["version"], instr_shape=req["instr_shape"],
                                      transposed=req["transposed"], warps_per_cta=req["warps_per_cta"],
                                      element_bitwidth=req.get("element_bitwidth"),
                                      tiles_per_warp=req.get("tiles_per_warp"), cga_layout=cga)
    if op == "amd_wmma":
        if "warps_per_cta" in req:  # Gluon 3.6's keys: the same layout by 3.9's bases
            warp, reg = gluon36_wmma_bases(req["warps_per_cta"], req.get("tiles_per_warp"),
                                           req["shape"])
        else:
            warp, reg = req["warp_bases"], req.get("reg_bases")
        return ttgl.amd.AMDWMMALayout(version=req["version"], transposed=req["transposed"],
                                      warp_bases=warp, reg_bases=reg,
                                      instr_shape=req.get("instr_shape"), cga_layout=cga,
                                      rank=len(req["shape"]))
    if op in ("amd_mfma_scale", "amd_wmma_scale"):
        operand = gluon_layout({"op": "dot_operand", **req["dot_operand_layout"],
                                "shape": req["shape"]})
        choose = (ttgl.amd.cdna4.get_mfma_scale_layout if op == "amd_mfma_scale"
                  else ttgl.amd.cdna5.get_wmma_scale_layout)
        return choose.fn(operand, req["shape"], req.get("scale_factor", 32))
    raise ValueError(f"no Gluon layout for op {op}")


def vector_requests():
    """The catalog vectors (vectors/catalog.json: golden and drawn) of these
    families that Gluon can build."""
    data = json.loads((VECTORS_DIR / "catalog.json").read_text())
    for case in data["cases"]:
        req = case["request"]
        if req["op"] not in FAMILIES or not case["expect"]["ok"]:
            continue
        if req["op"] in ("make_cga_layout", *TMEM_FAMILIES) or gluon_layout(req) is not None:
            yield req


FAMILIES = {"blocked": random_blocked, "slice": random_slice, "nvidia_mma": random_nvidia_mma,
            "dot_operand": random_dot_operand, "dot_operand_cga": random_dot_operand_cga,
            "dot_operand_mfma": lambda rng: random_amd_dot_operand(rng, "amd_mfma"),
            "dot_operand_wmma": lambda rng: random_amd_dot_operand(rng, "amd_wmma"),
            "amd_mfma": random_amd_mfma, "amd_wmma": random_amd_wmma,
            "amd_mfma_scale": random_mfma_scale, "amd_wmma_scale": random_wmma_scale,
            "distributed_linear": random_distributed_linear, "make_cga_layout": random_make_cga_layout,
            **TMEM_FAMILIES}


@pytest.mark.parametrize("family", [*FAMILIES, "vectors"])
def test_family(f2lay, options, family):
    if family == "vectors":
        asked = [("vectors", request) for request in vector_requests()]
    else:
        # Each family's own stream of draws: picking families keeps them.
        rng = random.Random(f"{options['seed'] or 1} {family}")
        asked = [(family, FAMILIES[family](rng)) for _ in range(options["cases"] or 300)]
    gluon = Gluon()
    # Asked in forked children: Gluon aborts on the broken requests drawn.
    outcomes = forked_outcomes(gluon.answer, [request for _, request in asked])
    pairs = [(kind, request, answer if status == "ok" else ERROR)
             for (kind, request), (status, answer) in zip(asked, outcomes)]

    def ask(request):
        status, answer = forked_outcomes(gluon.answer, [request])[0]
        return answer if status == "ok" else None
    report = Report("gluon_check", f"Triton {__import__('triton').__version__}", [family])
    shrink = shape_judge(f2lay, ask)
    # A smaller shape could make Triton assert (fewer rows than the TMEM
    # tile): tensor memory disagreements are reported at their drawn shape.
    judge = lambda request, *rest: (None if request["op"] in TMEM_FAMILIES
                                    else shrink(request, *rest))
    compare(report, f2lay, pairs, judge)
    report.check()
