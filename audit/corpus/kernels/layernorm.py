"""LayerNorm forward over the last axis: y = (x - mean) / sqrt(var + eps) * w + b.

A program normalizes ROWS rows at once as a [ROWS, BLOCK_N] tile (BLOCK_N >= N, the tail
masked), so mean and variance are axis-1 reductions whose results live in a slice layout
and are broadcast back. fp16 in and out, fp32 statistics, which are also written (the
backward pass needs them).
"""

import numpy as np
import triton
import triton.language as tl

from _common import GFX942, SM80, SM90, cdiv, config, empty, uniform


@triton.jit
def layernorm_fwd_kernel(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, n_rows, n_cols, eps,
                         ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offsets = rows[:, None] * n_cols + cols[None, :]
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=1) / n_cols
    centered = tl.where(mask, x - mean[:, None], 0.0)
    var = tl.sum(centered * centered, axis=1) / n_cols
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    y = centered * rstd[:, None] * w[None, :] + b[None, :]
    tl.store(y_ptr + offsets, y.to(tl.float16), mask=mask)
    tl.store(mean_ptr + rows, mean, mask=rows < n_rows)
    tl.store(rstd_ptr + rows, rstd, mask=rows < n_rows)


KERNEL = layernorm_fwd_kernel
SIG = {"x_ptr": "*fp16", "w_ptr": "*fp16", "b_ptr": "*fp16", "y_ptr": "*fp16",
       "mean_ptr": "*fp32", "rstd_ptr": "*fp32", "n_rows": "i32", "n_cols": "i32", "eps": "fp32",
       "ROWS": "constexpr", "BLOCK_N": "constexpr"}


def _cfg(name, target, rows, n_rows, n_cols, block_n, warps):
    return config(name, target, SIG, {"ROWS": rows, "BLOCK_N": block_n}, num_warps=warps,
                  num_stages=1, outputs=["y_ptr", "mean_ptr", "rstd_ptr"],
                  problem={"n_rows": n_rows, "n_cols": n_cols},
                  tolerance={"atol": 1e-2, "rtol": 1e-2})


CONFIGS = [
    _cfg("sm90-w4-1x1024-n1000", SM90, 1, 4, 1000, 1024, 4),
    _cfg("sm90-w8-4x4096", SM90, 4, 16, 4096, 4096, 8),
    _cfg("sm80-w4-8x256-n200", SM80, 8, 30, 200, 256, 4),
    _cfg("gfx942-w4-2x2048", GFX942, 2, 8, 2048, 2048, 4),
]


def make_inputs(cfg, rng):
    m, n = cfg["problem"]["n_rows"], cfg["problem"]["n_cols"]
    x = uniform(rng, (m, n), np.float16, -2.0, 3.0)
    w = uniform(rng, (n,), np.float16, 0.5, 1.5)
    b = uniform(rng, (n,), np.float16)
    return [x, w, b, empty((m, n), "fp16"), empty((m,), "fp32"), empty((m,), "fp32"),
            m, n, np.float32(1e-5)]


def grid(cfg):
    return (cdiv(cfg["problem"]["n_rows"], cfg["constexprs"]["ROWS"]), 1, 1)


def reference(cfg, inputs):
    x, w, b = (t.astype(np.float64) for t in inputs[:3])
    mean = x.mean(axis=1)
    var = ((x - mean[:, None]) ** 2).mean(axis=1)
    rstd = 1.0 / np.sqrt(var + float(inputs[8]))
    y = (x - mean[:, None]) * rstd[:, None] * w + b
    return {"y_ptr": y, "mean_ptr": mean, "rstd_ptr": rstd}
