"""Y = alpha * X^T + beta in fp32, ragged: M and N are runtime sizes and the edges masked.

A transpose fused with an elementwise epilogue, as in a transposed-output GEMM epilogue;
the masks are transposed along with the data.
"""

import numpy as np
import triton
import triton.language as tl

from _common import EXPECT_MOVE, GFX942, SM80, SM90, cdiv, config, empty, uniform


@triton.jit
def transpose_fp32_kernel(x_ptr, y_ptr, M, N, alpha, beta,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tile = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=0.0)
    y = tl.trans(tile * alpha + beta)
    tl.store(y_ptr + cols[:, None] * M + rows[None, :], y, mask=tl.trans(mask))


KERNEL = transpose_fp32_kernel
SIG = {"x_ptr": "*fp32", "y_ptr": "*fp32", "M": "i32", "N": "i32", "alpha": "fp32", "beta": "fp32",
       "BLOCK_M": "constexpr", "BLOCK_N": "constexpr"}


def _cfg(name, target, m, n, bm, bn, warps):
    return config(name, target, SIG, {"BLOCK_M": bm, "BLOCK_N": bn}, num_warps=warps,
                  num_stages=1, outputs=["y_ptr"], problem={"M": m, "N": n},
                  tolerance={"atol": 1e-6, "rtol": 1e-6}, expect=EXPECT_MOVE)


CONFIGS = [
    _cfg("sm90-w1-32x32", SM90, 50, 40, 32, 32, 1),
    _cfg("sm90-w2-64x32", SM90, 100, 70, 64, 32, 2),
    _cfg("sm90-w8-128x128", SM90, 200, 130, 128, 128, 8),
    _cfg("sm80-w4-32x128", SM80, 70, 200, 32, 128, 4),
    _cfg("gfx942-w4-64x64", GFX942, 100, 100, 64, 64, 4),
]


def make_inputs(cfg, rng):
    m, n = cfg["problem"]["M"], cfg["problem"]["N"]
    x = uniform(rng, (m, n), np.float32)
    return [x, empty((n, m), "fp32"), m, n, np.float32(1.5), np.float32(-0.25)]


def grid(cfg):
    c, p = cfg["constexprs"], cfg["problem"]
    return (cdiv(p["M"], c["BLOCK_M"]), cdiv(p["N"], c["BLOCK_N"]), 1)


def reference(cfg, inputs):
    x, alpha, beta = inputs[0].astype(np.float64), float(inputs[4]), float(inputs[5])
    return {"y_ptr": (x * alpha + beta).T.copy()}
