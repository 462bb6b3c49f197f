"""Row sums and column sums of each [R, C] tile of a batch of tiles.

The same register tile is reduced along axis 1 and along axis 0: the two results sit in the
two slice layouts of the tile's layout (dim 1 and dim 0), and the column sums are then
stored with a layout that differs from the one the reduction produced.
"""

import numpy as np
import triton
import triton.language as tl

from _common import GFX942, SM80, SM90, config, empty, uniform


@triton.jit
def reduce_sum_kernel(x_ptr, row_sum_ptr, col_sum_ptr, R: tl.constexpr, C: tl.constexpr):
    tile = tl.program_id(0)
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + tile * R * C + r[:, None] * C + c[None, :])
    tl.store(row_sum_ptr + tile * R + r, tl.sum(x, axis=1))
    tl.store(col_sum_ptr + tile * C + c, tl.sum(x, axis=0))


KERNEL = reduce_sum_kernel


def _cfg(name, target, dtype, r, c, warps):
    sig = {"x_ptr": f"*{dtype}", "row_sum_ptr": f"*{dtype}", "col_sum_ptr": f"*{dtype}",
           "R": "constexpr", "C": "constexpr"}
    tol = {"atol": 1e-4, "rtol": 1e-5} if dtype == "fp32" else None
    return config(name, target, sig, {"R": r, "C": c}, num_warps=warps, num_stages=1,
                  outputs=["row_sum_ptr", "col_sum_ptr"], problem={"TILES": 3}, tolerance=tol)


CONFIGS = [
    _cfg("sm90-fp32-w4-64x128", SM90, "fp32", 64, 128, 4),
    _cfg("sm90-i32-w8-128x256", SM90, "i32", 128, 256, 8),
    _cfg("sm80-fp32-w1-32x32", SM80, "fp32", 32, 32, 1),
    _cfg("gfx942-i32-w4-256x64", GFX942, "i32", 256, 64, 4),
]


def make_inputs(cfg, rng):
    t, r, c = cfg["problem"]["TILES"], cfg["constexprs"]["R"], cfg["constexprs"]["C"]
    dtype = cfg["signature"]["x_ptr"][1:]
    if dtype == "fp32":
        x = uniform(rng, (t, r, c), np.float32)
    else:
        x = rng.integers(-1000, 1000, size=(t, r, c), dtype=np.int32)
    return [x, empty((t, r), dtype), empty((t, c), dtype)]


def grid(cfg):
    return (cfg["problem"]["TILES"], 1, 1)


def reference(cfg, inputs):
    x = inputs[0]
    wide = x.astype(np.float64) if x.dtype.kind == "f" else x
    return {"row_sum_ptr": wide.sum(axis=2).astype(wide.dtype),
            "col_sum_ptr": wide.sum(axis=1).astype(wide.dtype)}
