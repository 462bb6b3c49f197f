#!/usr/bin/env python3
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

Usage: gluon_check.py F2LAY_BINARY [--cases N] [--seed S]
Gluon defines these families (f2lay follows Triton), so every disagreement
counts as an f2lay bug.
Exit status: 0 when everything agrees, 1 on any disagreement (printed with its
request), 77 (ctest's skip) when Triton is not installed. Triton aborts the
whole process on parameters it rejects, so only valid ones are drawn.
"""
import argparse
import json
import pathlib
import random
import sys

from oracle_client import ERROR, Report, compare, forked_outcomes, shape_judge

try:
    from triton._C.libtriton import gluon_ir, ir
    import triton.experimental.gluon.language as ttgl
except ImportError as e:  # pragma: no cover
    print(f"gluon_check: Triton is not installed ({e}); run scripts/setup", file=sys.stderr)
    sys.exit(77)


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
        if req["op"] == "make_cga_layout" or gluon_layout(req) is not None:
            yield req


FAMILIES = {"blocked": random_blocked, "slice": random_slice, "nvidia_mma": random_nvidia_mma,
            "dot_operand": random_dot_operand, "dot_operand_cga": random_dot_operand_cga,
            "dot_operand_mfma": lambda rng: random_amd_dot_operand(rng, "amd_mfma"),
            "dot_operand_wmma": lambda rng: random_amd_dot_operand(rng, "amd_wmma"),
            "amd_mfma": random_amd_mfma, "amd_wmma": random_amd_wmma,
            "amd_mfma_scale": random_mfma_scale, "amd_wmma_scale": random_wmma_scale,
            "distributed_linear": random_distributed_linear, "make_cga_layout": random_make_cga_layout}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("f2lay", help="the f2lay binary, or \"in-process\": the f2lay Python module")
    parser.add_argument("--cases", type=int, default=300, help="cases per family (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    gluon = Gluon()
    asked = [(family, draw(rng)) for family, draw in FAMILIES.items() for _ in range(args.cases)]
    asked += [("vectors", request) for request in vector_requests()]
    # Asked in forked children: Gluon aborts on the broken requests drawn.
    outcomes = forked_outcomes(gluon.answer, [request for _, request in asked])
    pairs = [(family, request, answer if status == "ok" else ERROR)
             for (family, request), (status, answer) in zip(asked, outcomes)]

    def ask(request):
        status, answer = forked_outcomes(gluon.answer, [request])[0]
        return answer if status == "ok" else None
    report = Report("gluon_check", f"Triton {__import__('triton').__version__}",
                    list(FAMILIES) + ["vectors"])
    return compare(report, args.f2lay, pairs, shape_judge(args.f2lay, ask))


if __name__ == "__main__":
    sys.exit(main())
