"""C = A @ B with int8 operands and an int32 accumulator (the quantized-inference GEMM).

Exact arithmetic, so the reference must match bit for bit.
"""

import numpy as np
import triton
import triton.language as tl

from _common import SM80, SM90, cdiv, config, dot_expect, empty


@triton.jit
def matmul_int8_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rows[:, None] * K + (k0 + ks)[None, :])
        b = tl.load(b_ptr + (k0 + ks)[:, None] * N + cols[None, :])
        acc = tl.dot(a, b, acc, out_dtype=tl.int32)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc)


KERNEL = matmul_int8_kernel
SIG = {"a_ptr": "*i8", "b_ptr": "*i8", "c_ptr": "*i32", "M": "i32", "N": "i32", "K": "i32",
       "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr"}


def _cfg(name, target, bm, bn, bk, warps, stages):
    return config(name, target, SIG, {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk},
                  num_warps=warps, num_stages=stages, outputs=["c_ptr"],
                  problem={"M": 256, "N": 256, "K": 128}, expect=dot_expect(target))


CONFIGS = [
    _cfg("sm80-w4-128x128x64-s3", SM80, 128, 128, 64, 4, 3),
    _cfg("sm80-w8-256x128x32-s2", SM80, 256, 128, 32, 8, 2),
    _cfg("sm90-w4-128x128x64-s3", SM90, 128, 128, 64, 4, 3),
    _cfg("sm90-w8-128x256x128-s2", SM90, 128, 256, 128, 8, 2),
]


def make_inputs(cfg, rng):
    m, n, k = (cfg["problem"][x] for x in "MNK")
    a = rng.integers(-128, 128, size=(m, k), dtype=np.int8)
    b = rng.integers(-128, 128, size=(k, n), dtype=np.int8)
    return [a, b, empty((m, n), "i32"), m, n, k]


def grid(cfg):
    c, p = cfg["constexprs"], cfg["problem"]
    return (cdiv(p["M"], c["BLOCK_M"]), cdiv(p["N"], c["BLOCK_N"]), 1)


def reference(cfg, inputs):
    return {"c_ptr": inputs[0].astype(np.int32) @ inputs[1].astype(np.int32)}
