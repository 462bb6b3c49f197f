#!/usr/bin/env python3
"""Checks f2lay's memory layouts against Triton 3.6's Gluon.

gluon_ir.to_linear_layout aborts on shared layouts in Triton 3.6 (it wraps
every result in a distributed LinearEncodingAttr), so this reads Triton's
toLinearLayout another way: a Gluon kernel allocates shared memory with the
layout and reshapes the descriptor to one dim (row-major, decoded here); Triton infers the new
descriptor's layout as a SharedLinearLayout through toLinearLayout (exact).
Compilation stops right after (a static_assert), no GPU needed.

Usage: gluon_shared_check.py F2LAY_BINARY [--cases N] [--seed S]
         random valid requests per family and the shared-layout cases of
         vectors/catalog.json, Gluon against `f2lay oracle`; Gluon defines
         these layouts, so any disagreement is an f2lay bug: exit 0 when all
         agree, 1 otherwise, 77 without Triton.
       gluon_shared_check.py --answer < requests.jsonl
         Gluon's layout for each request (to write golden cases).
Triton aborts the process on parameters it rejects: only valid ones are drawn.
No cga_layout is drawn: Triton 3.6 aborts inferring the reshaped descriptor's
layout when the shared layout has one ("Invalid basis ... for in-dim
'offset'"), so this route cannot read those.
"""
import argparse, json, math, pathlib, random, sys

from oracle_client import Report, compare, shape_judge
try:
    import triton
    from triton.experimental import gluon
    import triton.experimental.gluon.language as ttgl
    from triton.experimental.gluon.language import _semantic
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
except ImportError as e:  # pragma: no cover
    print(f"gluon_shared_check: Triton is not installed ({e})", file=sys.stderr)
    sys.exit(77)

import os
TRACE = bool(os.environ.get("GLUON_SHARED_TRACE"))  # name each request (to find an abort)
seen = []
_orig = _semantic.GluonSemantic.memdesc_reshape
def _spy(self, mem_desc, shape):
    r = _orig(self, mem_desc, shape)
    seen.append(r.layout)
    return r
_semantic.GluonSemantic.memdesc_reshape = _spy

@gluon.jit
def k(L: ttgl.constexpr, S: ttgl.constexpr, F: ttgl.constexpr):
    smem = ttgl.allocate_shared_memory(ttgl.float16, S, L)
    smem.reshape(F)
    ttgl.static_assert(False)

def gluon_layout(req):
    op = req["op"]
    cga = req.get("cga_layout", [])
    if op == "swizzled_shared":
        lay = ttgl.SwizzledSharedLayout(req["vec"], req["per_phase"], req["max_phase"], req["order"], cga_layout=cga)
    elif op == "unswizzled_shared":
        lay = ttgl.SwizzledSharedLayout(1, 1, 1, req["order"], cga_layout=cga)
    elif op == "nvmma_shared":
        lay = ttgl.NVMMASharedLayout(req["swizzle_byte_width"], req["element_bitwidth"], len(req["shape"]),
                                     req.get("transposed", False), req.get("fp4_padded", False), cga_layout=cga)
    else:
        raise ValueError(op)
    return lay

def unflatten(flat, shape):
    """Row-major: the last dim is the fastest, as Triton's reshape."""
    coords = []
    for size in reversed(shape):
        coords.append(flat % size)
        flat //= size
    return list(reversed(coords))

def to_json(ll, shape):
    # A basis of the reshaped [1, N] (or [N]) descriptor: its last entry is
    # the row-major flat index.
    return {"in_dims": [{"name": "offset", "bases": [unflatten(b[-1], shape) for b in ll.offset_bases]},
                        {"name": "block", "bases": [unflatten(b[-1], shape) for b in ll.block_bases]}],
            "out_dims": [{"name": f"dim{i}", "size": s} for i, s in enumerate(shape)]}

def gluon_answer(req):
    if TRACE:
        print("gluon_shared_check: asking Gluon", json.dumps(req), file=sys.stderr, flush=True)
    # A 1-D descriptor reshaped to [N] keeps its own layout: use [1, N] then.
    for flat in ([math.prod(req["shape"])], [1, math.prod(req["shape"])]):
        seen.clear()
        src = ASTSource(fn=k, signature={"L": "constexpr", "S": "constexpr", "F": "constexpr"},
                        constexprs={"L": gluon_layout(req), "S": list(req["shape"]), "F": flat})
        try:
            triton.compile(src, target=GPUTarget("cuda", 90, 32))
        except Exception:
            pass  # the static_assert stops compilation once the layout is read
        if len(seen) == 1 and hasattr(seen[0], "offset_bases"):
            break
    if len(seen) != 1 or not hasattr(seen[0], "offset_bases"):
        return None  # e.g. one element per CTA: Gluon refuses empty offset_bases
    return to_json(seen[0], req["shape"])


def per_cta(shape, cga):
    split = [1] * len(shape)
    for b in cga:
        for d, v in enumerate(b):
            split[d] = max(split[d], 2 * v)
    return [max(1, s // min(s, c)) for s, c in zip(shape, split)]


def random_swizzled(rng, unswizzled=False):
    rank = rng.randint(1, 3)
    order = list(range(rank))
    rng.shuffle(order)
    req = {"op": "unswizzled_shared" if unswizzled else "swizzled_shared"}
    if not unswizzled:
        req.update(vec=1 << rng.randint(0, 4), per_phase=1 << rng.randint(0, 3),
                   max_phase=1 << rng.randint(0, 4))
    req["order"] = order
    req["shape"] = [1 << rng.randint(0, 7 if rank < 3 else 4) for _ in range(rank)]
    return req


def random_unswizzled(rng):
    return random_swizzled(rng, unswizzled=True)


def random_nvmma(rng):
    while True:
        rank = rng.randint(2, 3)
        bits = rng.choice([8, 16, 32, 64])
        width = rng.choice([0, 32, 64, 128])
        transposed = rng.random() < 0.3
        fp4 = bits == 8 and rng.random() < 0.2
        shape = [1 << rng.randint(0, 9 if rank == 2 else 5) for _ in range(rank)]
        cga = []
        cta = [min(s, 256) for s in per_cta(shape, cga)]
        contig = 0 if transposed else rank - 1
        contig_size = cta[contig] * (2 if fp4 else 1)
        # Triton collapses the box to [prod(dims 0..r-2), dim r-1], swapped
        # when transposed; the rows must hold the 8-row swizzle pattern.
        rows = cta[rank - 1] if transposed else math.prod(cta[:-1])
        if width and (contig_size < 8 * width // bits or rows < 8):
            continue
        if math.prod(shape) > 1 << 18:
            continue
        req = {"op": "nvmma_shared", "swizzle_byte_width": width, "element_bitwidth": bits,
               "transposed": transposed, "shape": shape}
        if fp4:
            req["fp4_padded"] = True
        if cga:
            req["cga_layout"] = cga
        return req


FAMILIES = {"unswizzled_shared": random_unswizzled, "swizzled_shared": random_swizzled,
            "nvmma_shared": random_nvmma}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("f2lay", nargs="?")
    parser.add_argument("--answer", action="store_true")
    parser.add_argument("--cases", type=int, default=100, help="cases per family (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.answer:
        for line in sys.stdin:
            if line.strip():
                req = json.loads(line)
                result = gluon_answer(req)
                if result is None:
                    raise SystemExit(f"gluon_shared_check: Gluon gave no layout for {line}")
                print(json.dumps({"request": req, "result": result}), flush=True)
        return 0
    rng = random.Random(args.seed)
    pairs = []
    for family, draw in FAMILIES.items():
        while sum(1 for p in pairs if p[0] == family) < args.cases:
            req = draw(rng)
            expected = gluon_answer(req)
            if expected is not None:
                pairs.append((family, req, expected))
    # The shared-layout vectors (vectors/catalog.json) this route can read:
    # one CTA, and a layout Gluon gives (None: e.g. one element per CTA).
    catalog = json.loads((pathlib.Path(__file__).resolve().parent.parent / "vectors" /
                          "catalog.json").read_text())
    for case in catalog["cases"]:
        req = case["request"]
        if req["op"] in FAMILIES and case["expect"]["ok"] and not req.get("cga_layout"):
            expected = gluon_answer(req)
            if expected is not None:
                pairs.append(("vectors", req, expected))
    report = Report("gluon_shared_check", f"Triton {triton.__version__}", list(FAMILIES) + ["vectors"])
    return compare(report, args.f2lay, pairs, shape_judge(args.f2lay, gluon_answer))


if __name__ == "__main__":
    sys.exit(main())
