"""C = A @ B on AMD GPUs: CDNA3 (MI300, gfx942) and CDNA4 (gfx950) with 64-lane waves and
mfma; RDNA3 (gfx1100) and RDNA4 (gfx1200) with 32-lane waves and wmma.

fp16 in, fp32 accumulator, fp16 out; with the AMD options people tune (the mfma instruction's
non-K size, kpack, waves per EU).
"""

import numpy as np
import triton
import triton.language as tl

from _common import GFX942, GFX950, GFX1100, GFX1200, config, dot_expect, empty, uniform


@triton.jit
def matmul_amd_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rows[:, None] * stride_am + ks[None, :]
    b_ptrs = b_ptr + ks[:, None] * stride_bk + cols[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    tl.store(c_ptr + rows[:, None] * stride_cm + cols[None, :], acc.to(tl.float16))


KERNEL = matmul_amd_kernel
SIG = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
       "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32",
       "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr"}


def _cfg(name, target, bm, bn, bk, warps, stages, **amd_options):
    return config(name, target, SIG, {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk},
                  num_warps=warps, num_stages=stages, outputs=["c_ptr"],
                  problem={"M": 256, "N": 256, "K": 128}, options=amd_options,
                  tolerance={"atol": 2e-2, "rtol": 1e-2}, expect=dot_expect(target))


CONFIGS = [
    _cfg("gfx942-w4-128x128x32-s2", GFX942, 128, 128, 32, 4, 2),
    _cfg("gfx942-w8-256x128x64-s2-mfma16", GFX942, 256, 128, 64, 8, 2,
         matrix_instr_nonkdim=16, kpack=2),
    _cfg("gfx942-w4-64x64x64-s1", GFX942, 64, 64, 64, 4, 1, waves_per_eu=2),
    _cfg("gfx950-w4-128x128x64-s2", GFX950, 128, 128, 64, 4, 2),
    _cfg("gfx1100-w4-64x64x32-s2", GFX1100, 64, 64, 32, 4, 2),
    _cfg("gfx1200-w4-64x128x32-s2", GFX1200, 64, 128, 32, 4, 2),
]


def make_inputs(cfg, rng):
    m, n, k = (cfg["problem"][x] for x in "MNK")
    a = uniform(rng, (m, k), np.float16)
    b = uniform(rng, (k, n), np.float16)
    return [a, b, empty((m, n), "fp16"), m, n, k, k, n, n]


def grid(cfg):
    c, p = cfg["constexprs"], cfg["problem"]
    return (p["M"] // c["BLOCK_M"], p["N"] // c["BLOCK_N"], 1)


def reference(cfg, inputs):
    return {"c_ptr": inputs[0].astype(np.float64) @ inputs[1].astype(np.float64)}
