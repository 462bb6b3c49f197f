"""Index of the maximum along each axis of an fp32 tile (tl.argmax), and the maximum itself.

tl.argmax reduces (value, index) pairs: a two-operand tt.reduce. The inputs are distinct
random floats, so there are no ties and the expected indices are unique.
"""

import numpy as np
import triton
import triton.language as tl

from _common import GFX942, SM80, SM90, config, empty, uniform


@triton.jit
def argmax_kernel(x_ptr, row_arg_ptr, col_arg_ptr, row_max_ptr, R: tl.constexpr, C: tl.constexpr):
    tile = tl.program_id(0)
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + tile * R * C + r[:, None] * C + c[None, :])
    tl.store(row_arg_ptr + tile * R + r, tl.argmax(x, axis=1).to(tl.int32))
    tl.store(col_arg_ptr + tile * C + c, tl.argmax(x, axis=0).to(tl.int32))
    tl.store(row_max_ptr + tile * R + r, tl.max(x, axis=1))


KERNEL = argmax_kernel
SIG = {"x_ptr": "*fp32", "row_arg_ptr": "*i32", "col_arg_ptr": "*i32", "row_max_ptr": "*fp32",
       "R": "constexpr", "C": "constexpr"}


def _cfg(name, target, r, c, warps):
    return config(name, target, SIG, {"R": r, "C": c}, num_warps=warps, num_stages=1,
                  outputs=["row_arg_ptr", "col_arg_ptr", "row_max_ptr"], problem={"TILES": 2},
                  tolerance={"atol": 0.0, "rtol": 0.0})


CONFIGS = [
    _cfg("sm90-w4-64x256", SM90, 64, 256, 4),
    _cfg("sm80-w1-32x32", SM80, 32, 32, 1),
    _cfg("gfx942-w8-128x128", GFX942, 128, 128, 8),
]


def make_inputs(cfg, rng):
    t, r, c = cfg["problem"]["TILES"], cfg["constexprs"]["R"], cfg["constexprs"]["C"]
    x = uniform(rng, (t, r, c), np.float32, -10.0, 10.0)
    return [x, empty((t, r), "i32"), empty((t, c), "i32"), empty((t, r), "fp32")]


def grid(cfg):
    return (cfg["problem"]["TILES"], 1, 1)


def reference(cfg, inputs):
    x = inputs[0]
    return {"row_arg_ptr": x.argmax(axis=2).astype(np.int32),
            "col_arg_ptr": x.argmax(axis=1).astype(np.int32),
            "row_max_ptr": x.max(axis=2).astype(np.float64)}
