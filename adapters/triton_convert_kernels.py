#!/usr/bin/env python3
"""Triton 3.9.0's own convert_layout kernels, against f2lay's swizzle optimum.

For random pairs of blocked layouts (Gluon's BlockedLayout: 2-D tiles of at most 2^10
elements, 1 to 4 warps) and element types int8, fp16 and fp32, this compiles on the CPU, with
Triton 3.9.0 for sm_90, a Gluon kernel that loads a tile in layout A, converts it to B
(`ttgl.convert_layout`: Triton chooses the shared-memory layout and the vector widths) and
stores it. It writes each kernel's cubin and a manifest: the pair, what f2lay's optimum
predicts (`optimal_swizzle`: wavefronts and instructions, each side's width) and what §5.4's
construction costs (`construction: paper`, by f2lay's bank model). device_tests/triton_kernels.py
runs the cubins on the GPU under ncu, checks every element, and reports where Triton's kernel
takes more shared-memory wavefronts than the optimum: findings in Triton (adapters/FINDINGS.md).

usage: triton_convert_kernels.py F2LAY_BINARY OUT_DIR [--pairs N] [--seed S]
         exit 0 when it wrote kernels, 1 when none compiled, 77 without Triton
Under pytest (conftest.py), test_compiles writes a few (--cases, default 4) to
a temporary folder: that they compile and their manifest holds them.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import warnings

DTYPES = {"i8": 1, "fp16": 2, "fp32": 4}


def random_blocked(rng, shape, warp_bits):
    """Each dim's share of 32 threads, 2^warp_bits warps and up to 16 elements a thread."""
    p = {"size_per_thread": [1, 1], "threads_per_warp": [1, 1], "warps_per_cta": [1, 1],
         "order": rng.choice([[0, 1], [1, 0]])}
    for _ in range(5):
        p["threads_per_warp"][rng.randrange(2)] *= 2
    for _ in range(warp_bits):
        p["warps_per_cta"][rng.randrange(2)] *= 2
    for _ in range(rng.randrange(5)):
        p["size_per_thread"][rng.randrange(2)] *= 2
    return p


def ask(binary, requests):
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    out = subprocess.run([binary, "oracle"], input=lines, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def compile_kernel(a, b, shape, dtype, warps):
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.experimental import gluon
    from triton.experimental.gluon import language as ttgl
    from triton.experimental.gluon._runtime import GluonASTSource

    @gluon.jit
    def convert_kernel(src, dst, M: ttgl.constexpr, N: ttgl.constexpr, A: ttgl.constexpr,
                       B: ttgl.constexpr):
        om = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, A))
        on = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, A))
        x = ttgl.load(src + om[:, None] * N + on[None, :])
        y = ttgl.convert_layout(x, B)
        bm = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, B))
        bn = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, B))
        ttgl.store(dst + bm[:, None] * N + bn[None, :], y)

    def blocked(p):
        return ttgl.BlockedLayout(p["size_per_thread"], p["threads_per_warp"], p["warps_per_cta"],
                                  p["order"])

    src = GluonASTSource(fn=convert_kernel,
                         signature={"src": f"*{dtype}", "dst": f"*{dtype}", "M": "constexpr",
                                    "N": "constexpr", "A": "constexpr", "B": "constexpr"},
                         constexprs={"M": shape[0], "N": shape[1], "A": blocked(a),
                                     "B": blocked(b)})
    return triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": warps})


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("out")
    parser.add_argument("--pairs", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv[1:])
    try:
        import triton.experimental.gluon  # noqa: F401
    except ImportError:
        print("triton_convert_kernels: no Triton with Gluon here: skipped")
        return 77
    manifest = write_kernels(args.binary, args.out, args.pairs, args.seed)
    print(f"{len(manifest)} kernels in {args.out}")
    return 0 if manifest or args.pairs == 0 else 1


def write_kernels(binary, out, pairs, seed):
    """Compiles up to `pairs` kernels into the folder out (cubins and
    manifest.json); returns the manifest."""
    warnings.simplefilter("ignore")
    os.makedirs(out, exist_ok=True)
    rng = random.Random(seed)
    manifest = []
    for i in range(pairs):
        warp_bits = rng.randrange(3)
        bits = 5 + warp_bits + rng.randrange(6 - warp_bits)
        rows = 1 << rng.randrange(bits + 1)
        shape = [rows, (1 << bits) // rows]
        a, b = random_blocked(rng, shape, warp_bits), random_blocked(rng, shape, warp_bits)
        dtype = rng.choice(list(DTYPES))
        w = DTYPES[dtype]
        la, lb = ask(binary, [dict(op="blocked", shape=shape, **a),
                                   dict(op="blocked", shape=shape, **b)])
        if not (la["ok"] and lb["ok"]):
            continue
        req = {"op": "optimal_swizzle", "self": la["result"], "other": lb["result"],
               "element_bytes": w}
        optimum, paper = ask(binary, [req, dict(req, construction="paper")])
        if not (optimum["ok"] and paper["ok"]):
            continue
        name = f"pair{i}"
        try:
            k = compile_kernel(a, b, shape, dtype, 1 << warp_bits)
        except Exception as e:  # Triton refused or aborted this layout: not ours to judge here
            print(f"{name}: Triton did not compile it: {str(e).splitlines()[0]}", file=sys.stderr)
            continue
        with open(os.path.join(out, name + ".cubin"), "wb") as f:
            f.write(k.asm["cubin"])
        o, p = optimum["result"], paper["result"]
        manifest.append({
            "name": name, "shape": shape, "dtype": dtype, "element_bytes": w,
            "warps": 1 << warp_bits, "a": a, "b": b, "kernel": k.metadata.name,
            "shared_bytes": k.metadata.shared,
            "optimum": {"wavefronts": o["wavefronts"], "instructions": o["instructions"],
                        "store": o["store"], "load": o["load"]},
            "paper": {"wavefronts": p["store"]["wavefronts"] + p["load"]["wavefronts"]}})
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return manifest


def test_compiles(f2lay, options, tmp_path):
    import pytest
    pytest.importorskip("triton.experimental.gluon", reason="no Triton with Gluon here")
    manifest = write_kernels(f2lay, tmp_path, options["cases"] or 4, options["seed"] or 1)
    assert manifest, "no kernel compiled"
    for kernel in manifest:
        assert (tmp_path / (kernel["name"] + ".cubin")).stat().st_size > 0
    assert [k["name"] for k in json.loads((tmp_path / "manifest.json").read_text())] == \
        [k["name"] for k in manifest]


if __name__ == "__main__":
    sys.exit(main(sys.argv))
