"""Row and column maxima of an fp16 or bf16 tile, masked to a ragged [rows, cols] region.

Masked-off elements load as -inf, the identity of max; the results go out at their own
precision (max is exact).
"""

import numpy as np
import triton
import triton.language as tl

from _common import SM80, SM90, as_float, config, empty, uniform


@triton.jit
def reduce_max_kernel(x_ptr, row_max_ptr, col_max_ptr, rows, cols,
                      R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    x = tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=mask, other=float("-inf"))
    tl.store(row_max_ptr + r, tl.max(x, axis=1), mask=r < rows)
    tl.store(col_max_ptr + c, tl.max(x, axis=0), mask=c < cols)


KERNEL = reduce_max_kernel


def _cfg(name, target, dtype, rows, cols, r, c, warps):
    sig = {"x_ptr": f"*{dtype}", "row_max_ptr": f"*{dtype}", "col_max_ptr": f"*{dtype}",
           "rows": "i32", "cols": "i32", "R": "constexpr", "C": "constexpr"}
    return config(name, target, sig, {"R": r, "C": c}, num_warps=warps, num_stages=1,
                  outputs=["row_max_ptr", "col_max_ptr"], problem={"rows": rows, "cols": cols},
                  tolerance={"atol": 0.0, "rtol": 0.0})


CONFIGS = [
    _cfg("sm90-fp16-w4-128x64", SM90, "fp16", 100, 60, 128, 64, 4),
    _cfg("sm90-bf16-w2-16x512", SM90, "bf16", 16, 500, 16, 512, 2),
    _cfg("sm80-fp16-w8-256x128", SM80, "fp16", 250, 128, 256, 128, 8),
]


def make_inputs(cfg, rng):
    rows, cols = cfg["problem"]["rows"], cfg["problem"]["cols"]
    dtype = cfg["signature"]["x_ptr"][1:]
    x = uniform(rng, (rows, cols), np.float16 if dtype == "fp16" else "bf16", -100.0, 100.0)
    return [x, empty((rows,), dtype), empty((cols,), dtype), rows, cols]


def grid(cfg):
    return (1, 1, 1)


def reference(cfg, inputs):
    x = as_float(inputs[0], cfg["signature"]["x_ptr"])
    return {"row_max_ptr": x.max(axis=1), "col_max_ptr": x.max(axis=0)}
