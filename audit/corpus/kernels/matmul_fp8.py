"""C = (A @ B) * scale with A, B in fp8 e4m3 (fp8e4nv) and an fp32 result.

Hopper (wgmma) and Ada (mma.sync with native e4m3) take fp8 operands directly. Ampere has no
e4m3 type at all (Triton rejects fp8e4nv below sm_89); matmul_fp8_dequant.py is its kernel.
"""

import numpy as np
import triton
import triton.language as tl

from _common import SM89, SM90, cdiv, config, decode, dot_expect, empty, random_codes


@triton.jit
def matmul_fp8_kernel(a_ptr, b_ptr, c_ptr, scale, M, N, K,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rows[:, None] * K + (k0 + ks)[None, :])
        b = tl.load(b_ptr + (k0 + ks)[:, None] * N + cols[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc * scale)


KERNEL = matmul_fp8_kernel
SIG = {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*fp32", "scale": "fp32",
       "M": "i32", "N": "i32", "K": "i32",
       "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr"}


# Hopper's fp8 wgmma accumulates with fewer bits than fp32 (Triton's default does not
# promote partial sums), so allow about 1e-3 of the result's size (sums reach ~10) and 5e-2 near zero.
TOL = {"atol": 5e-2, "rtol": 1e-3}


def _cfg(name, target, bm, bn, bk, warps, stages):
    return config(name, target, SIG, {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk},
                  num_warps=warps, num_stages=stages, outputs=["c_ptr"],
                  problem={"M": 256, "N": 256, "K": 128},
                  tolerance=TOL, expect=dot_expect(target))


CONFIGS = [
    _cfg("sm89-w4-128x64x64-s3", SM89, 128, 64, 64, 4, 3),
    _cfg("sm90-w4-128x128x64-s3", SM90, 128, 128, 64, 4, 3),
    _cfg("sm90-w8-128x256x128-s2", SM90, 128, 256, 128, 8, 2),
    _cfg("sm90-w4-64x64x128-s4", SM90, 64, 64, 128, 4, 4),
]


def make_inputs(cfg, rng):
    m, n, k = (cfg["problem"][x] for x in "MNK")
    a = random_codes(rng, (m, k), "e4m3", max_abs=2.0)
    b = random_codes(rng, (k, n), "e4m3", max_abs=2.0)
    return [a, b, empty((m, n), "fp32"), np.float32(0.5), m, n, k]


def grid(cfg):
    c, p = cfg["constexprs"], cfg["problem"]
    return (cdiv(p["M"], c["BLOCK_M"]), cdiv(p["N"], c["BLOCK_N"]), 1)


def reference(cfg, inputs):
    a, b = decode(inputs[0], "e4m3"), decode(inputs[1], "e4m3")
    return {"c_ptr": (a @ b) * float(inputs[3])}
