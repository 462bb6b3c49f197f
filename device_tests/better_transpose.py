#!/usr/bin/env python3
"""The better version of finding S2 (adapters/FINDINGS.md): the one-warp int8 32x32
transpose through the memory layout f2lay's optimum chooses, beside Triton's own.

Both kernels are Gluon (Triton 3.9.0), one warp a 32x32 tile, many tiles a launch. Each
loads its tile transposed in the layout tl.trans gives it (blocked [16,1]x[2,16], order
[0,1]: 16-byte loads down the columns) and stores it in [1,16]x[16,2], order [1,0]
(16-byte stores along the rows). "triton" moves the tile with ttgl.convert_layout, so
Triton chooses the scratch layout (its generic swizzling: 32 + 128 wavefronts); "optimum"
stores it to and loads it from shared memory laid out by f2lay's optimal_swizzle (a
SharedLinearLayout: 8 + 32).

usage: better_transpose.py build F2LAY OUT      here: the optimum's layout from F2LAY, the
                                                two cubins, their TTGIR and OUT/manifest.json
       better_transpose.py run DIR [TIMES]      on the GPU (CuPy): each kernel once, its
                                                output checked (then ncu may count it), and
                                                then timed: TIMES launches of each, the
                                                kernels interleaved, the median in us
Exit status: 1 when an output is wrong, 2 on bad arguments.
"""
import json
import os
import sys

from better_run import ask, compile_for_h100, main, run_kernels

N = 32
TILES = 8192  # tiles a launch: 8 MiB in, 8 MiB out
A = {"size_per_thread": [16, 1], "threads_per_warp": [2, 16], "warps_per_cta": [1, 1],
     "order": [0, 1]}
B = {"size_per_thread": [1, 16], "threads_per_warp": [16, 2], "warps_per_cta": [1, 1],
     "order": [1, 0]}


def build(f2lay, out):
    from triton.experimental import gluon
    from triton.experimental.gluon import language as ttgl
    from triton.experimental.gluon._runtime import GluonASTSource

    a = ask(f2lay, dict(op="blocked", shape=[N, N], **A))
    b = ask(f2lay, dict(op="blocked", shape=[N, N], **B))
    optimum = ask(f2lay, {"op": "optimal_swizzle", "self": a, "other": b, "element_bytes": 1})
    offsets = optimum["shared"]["in_dims"][0]["bases"]

    @gluon.jit
    def transpose_kernel(src, dst, N: ttgl.constexpr, LA: ttgl.constexpr, LB: ttgl.constexpr,
                         S: ttgl.constexpr, OPTIMUM: ttgl.constexpr):
        tile = ttgl.program_id(0) * N * N
        i = ttgl.arange(0, N, layout=ttgl.SliceLayout(1, LA))
        j = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, LA))
        x = ttgl.load(src + tile + j[None, :] * N + i[:, None])  # x[i, j] = src[j, i]
        if OPTIMUM:
            smem = ttgl.allocate_shared_memory(ttgl.int8, [N, N], S)
            smem.store(x)
            y = smem.load(LB)
        else:
            y = ttgl.convert_layout(x, LB)
        bi = ttgl.arange(0, N, layout=ttgl.SliceLayout(1, LB))
        bj = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, LB))
        ttgl.store(dst + tile + bi[:, None] * N + bj[None, :], y)

    def blocked(p):
        return ttgl.BlockedLayout(p["size_per_thread"], p["threads_per_warp"], p["warps_per_cta"],
                                  p["order"])

    os.makedirs(out, exist_ok=True)
    manifest = []
    for kind in ("triton", "optimum"):
        src = GluonASTSource(
            fn=transpose_kernel,
            signature={"src": "*i8", "dst": "*i8", "N": "constexpr", "LA": "constexpr",
                       "LB": "constexpr", "S": "constexpr", "OPTIMUM": "constexpr"},
            constexprs={"N": N, "LA": blocked(A), "LB": blocked(B),
                        "S": ttgl.SharedLinearLayout(offsets), "OPTIMUM": kind == "optimum"},
            attrs={(0,): [["tt.divisibility", 16]], (1,): [["tt.divisibility", 16]]})
        manifest.append(compile_for_h100(out, kind, src, 1))
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump({"tiles": TILES, "n": N, "optimum_offsets": offsets, "kernels": manifest}, f,
                  indent=1)
    print(f"better_transpose: {len(manifest)} kernels in {out}")
    return 0


def run(folder, times):
    import cupy
    import numpy
    manifest = json.load(open(os.path.join(folder, "manifest.json")))
    tiles, n = manifest["tiles"], manifest["n"]
    host = numpy.random.default_rng(1).integers(-128, 127, (tiles, n, n), dtype=numpy.int8)
    src = cupy.asarray(host)
    want = numpy.ascontiguousarray(host.transpose(0, 2, 1))
    return run_kernels(folder, times, (tiles, 1, 1), (32, 1, 1), lambda dst: (src, dst),
                       lambda: cupy.zeros_like(src),
                       lambda dst: bool((cupy.asnumpy(dst) == want).all()))


if __name__ == "__main__":
    sys.exit(main(sys.argv, __doc__, build, run))
