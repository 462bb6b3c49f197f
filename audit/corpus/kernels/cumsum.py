"""Inclusive prefix sums along each row of a tile (tl.cumsum, a tt.scan), int32 or fp32.

Scans need the scanned axis's elements in a fixed order across registers, lanes and warps,
which constrains the layout more than a reduction does.
"""

import numpy as np
import triton
import triton.language as tl

from _common import SM80, SM90, config, empty, uniform


@triton.jit
def cumsum_kernel(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr, AXIS: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    offsets = r[:, None] * C + c[None, :]
    x = tl.load(x_ptr + offsets)
    tl.store(y_ptr + offsets, tl.cumsum(x, axis=AXIS))


KERNEL = cumsum_kernel


def _cfg(name, target, dtype, r, c, axis, warps):
    sig = {"x_ptr": f"*{dtype}", "y_ptr": f"*{dtype}", "R": "constexpr", "C": "constexpr",
           "AXIS": "constexpr"}
    tol = {"atol": 1e-4, "rtol": 1e-5} if dtype == "fp32" else None
    return config(name, target, sig, {"R": r, "C": c, "AXIS": axis}, num_warps=warps,
                  num_stages=1, outputs=["y_ptr"], tolerance=tol)


CONFIGS = [
    _cfg("sm90-i32-axis1-w4-16x256", SM90, "i32", 16, 256, 1, 4),
    _cfg("sm90-fp32-axis0-w8-512x16", SM90, "fp32", 512, 16, 0, 8),
    _cfg("sm80-i32-axis1-w1-8x32", SM80, "i32", 8, 32, 1, 1),
]


def make_inputs(cfg, rng):
    r, c = cfg["constexprs"]["R"], cfg["constexprs"]["C"]
    dtype = cfg["signature"]["x_ptr"][1:]
    if dtype == "fp32":
        x = uniform(rng, (r, c), np.float32)
    else:
        x = rng.integers(-100, 100, size=(r, c), dtype=np.int32)
    return [x, empty((r, c), dtype)]


def grid(cfg):
    return (1, 1, 1)


def reference(cfg, inputs):
    x = inputs[0]
    wide = x.astype(np.float64) if x.dtype.kind == "f" else x
    return {"y_ptr": np.cumsum(wide, axis=cfg["constexprs"]["AXIS"]).astype(wide.dtype)}
