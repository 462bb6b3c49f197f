"""Row softmax of a [n_rows, n_cols] matrix, ROWS rows a program, the row tail masked.

max and sum are axis-1 reductions; fp16 or fp32 storage with fp32 arithmetic.
"""

import numpy as np
import triton
import triton.language as tl

from _common import GFX942, SM80, SM90, as_float, cdiv, config, empty, uniform


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_rows, n_cols, ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offsets = rows[:, None] * n_cols + cols[None, :]
    x = tl.load(x_ptr + offsets, mask=mask, other=float("-inf")).to(tl.float32)
    z = x - tl.max(x, axis=1)[:, None]
    e = tl.exp(z)
    y = e / tl.sum(e, axis=1)[:, None]
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


KERNEL = softmax_kernel


def _cfg(name, target, dtype, rows, n_rows, n_cols, block_n, warps):
    sig = {"x_ptr": f"*{dtype}", "y_ptr": f"*{dtype}", "n_rows": "i32", "n_cols": "i32",
           "ROWS": "constexpr", "BLOCK_N": "constexpr"}
    tol = {"atol": 1e-3, "rtol": 1e-2} if dtype == "fp16" else {"atol": 1e-6, "rtol": 1e-5}
    return config(name, target, sig, {"ROWS": rows, "BLOCK_N": block_n}, num_warps=warps,
                  num_stages=1, outputs=["y_ptr"], problem={"n_rows": n_rows, "n_cols": n_cols},
                  tolerance=tol)


CONFIGS = [
    _cfg("sm90-fp16-w4-4x1024-n781", SM90, "fp16", 4, 32, 781, 1024, 4),
    _cfg("sm90-fp32-w8-1x8192", SM90, "fp32", 1, 4, 8192, 8192, 8),
    _cfg("sm80-fp32-w1-16x64-n50", SM80, "fp32", 16, 40, 50, 64, 1),
    _cfg("gfx942-fp16-w4-8x512", GFX942, "fp16", 8, 32, 512, 512, 4),
]


def make_inputs(cfg, rng):
    m, n = cfg["problem"]["n_rows"], cfg["problem"]["n_cols"]
    dtype = cfg["signature"]["x_ptr"][1:]
    x = uniform(rng, (m, n), np.float16 if dtype == "fp16" else np.float32, -4.0, 4.0)
    return [x, empty((m, n), dtype), m, n]


def grid(cfg):
    return (cdiv(cfg["problem"]["n_rows"], cfg["constexprs"]["ROWS"]), 1, 1)


def reference(cfg, inputs):
    x = as_float(inputs[0], cfg["signature"]["x_ptr"])
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return {"y_ptr": e / e.sum(axis=1, keepdims=True)}
