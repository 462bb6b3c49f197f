"""C = A @ B in fp16 with an fp32 accumulator: the plain K-loop tiled matmul.

Edges are masked so M, N, K need not be multiples of the tile (the configs use one that is
not). Compiled for Ampere (mma v2), Hopper (wgmma) and Blackwell (tcgen05).
"""

import numpy as np
import triton
import triton.language as tl

from _common import SM80, SM90, SM100, cdiv, config, dot_expect, empty, uniform


@triton.jit
def matmul_fp16_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, tl.cdiv(K, BLOCK_K)):
        kk = k0 * BLOCK_K + ks
        a = tl.load(a_ptr + rows[:, None] * stride_am + kk[None, :],
                    mask=(rows[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * stride_bk + cols[None, :],
                    mask=(kk[:, None] < K) & (cols[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rows[:, None] * stride_cm + cols[None, :], acc.to(tl.float16),
             mask=(rows[:, None] < M) & (cols[None, :] < N))


KERNEL = matmul_fp16_kernel
SIG = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
       "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32",
       "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr"}
TOL = {"atol": 2e-2, "rtol": 1e-2}


def _cfg(name, target, bm, bn, bk, warps, stages, problem=(256, 256, 128)):
    m, n, k = problem
    return config(name, target, SIG, {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk},
                  num_warps=warps, num_stages=stages, outputs=["c_ptr"],
                  problem={"M": m, "N": n, "K": k}, tolerance=TOL, expect=dot_expect(target))


CONFIGS = [
    _cfg("sm80-w4-128x128x32-s3", SM80, 128, 128, 32, 4, 3),
    _cfg("sm80-w8-64x128x64-s2-ragged", SM80, 64, 128, 64, 8, 2, problem=(200, 176, 120)),
    _cfg("sm90-w4-128x128x64-s3", SM90, 128, 128, 64, 4, 3),
    _cfg("sm90-w8-128x256x64-s3", SM90, 128, 256, 64, 8, 3),
    _cfg("sm100-w4-128x128x64-s3", SM100, 128, 128, 64, 4, 3),
]


def make_inputs(cfg, rng):
    m, n, k = (cfg["problem"][x] for x in "MNK")
    a = uniform(rng, (m, k), np.float16)
    b = uniform(rng, (k, n), np.float16)
    c = empty((m, n), "fp16")
    return [a, b, c, m, n, k, k, n, n]


def grid(cfg):
    c = cfg["constexprs"]
    return (cdiv(cfg["problem"]["M"], c["BLOCK_M"]), cdiv(cfg["problem"]["N"], c["BLOCK_N"]), 1)


def reference(cfg, inputs):
    a, b = inputs[0], inputs[1]
    return {"c_ptr": a.astype(np.float64) @ b.astype(np.float64)}
