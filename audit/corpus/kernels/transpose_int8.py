"""Y = X^T for int8 matrices, one tile a program, with tl.trans.

The first config is the known case: a 32x32 int8 tile transposed by a single warp (sm_90),
where the conversion from the loaded layout to the transposed one is a pure in-warp
permutation of bytes. The others use larger tiles, more warps, and a 64-lane AMD wave.
"""

import numpy as np
import triton
import triton.language as tl

from _common import EXPECT_MOVE, GFX942, SM80, SM90, config, empty


@triton.jit
def transpose_int8_kernel(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tile = tl.load(x_ptr + rows[:, None] * N + cols[None, :])
    tl.store(y_ptr + cols[:, None] * M + rows[None, :], tl.trans(tile))


KERNEL = transpose_int8_kernel
SIG = {"x_ptr": "*i8", "y_ptr": "*i8", "M": "constexpr", "N": "constexpr",
       "BLOCK_M": "constexpr", "BLOCK_N": "constexpr"}


def _cfg(name, target, m, n, bm, bn, warps):
    return config(name, target, SIG, {"M": m, "N": n, "BLOCK_M": bm, "BLOCK_N": bn},
                  num_warps=warps, num_stages=1, outputs=["y_ptr"], expect=EXPECT_MOVE)


CONFIGS = [
    _cfg("sm90-w1-32x32", SM90, 32, 32, 32, 32, 1),
    _cfg("sm80-w1-32x32", SM80, 32, 32, 32, 32, 1),
    _cfg("sm90-w4-64x128", SM90, 128, 256, 64, 128, 4),
    _cfg("sm90-w8-128x128", SM90, 256, 256, 128, 128, 8),
    _cfg("gfx942-w4-64x64", GFX942, 128, 128, 64, 64, 4),
]


def make_inputs(cfg, rng):
    m, n = cfg["constexprs"]["M"], cfg["constexprs"]["N"]
    x = rng.integers(-128, 128, size=(m, n), dtype=np.int8)
    return [x, empty((n, m), "i8")]


def grid(cfg):
    c = cfg["constexprs"]
    return (c["M"] // c["BLOCK_M"], c["N"] // c["BLOCK_N"], 1)


def reference(cfg, inputs):
    return {"y_ptr": inputs[0].T.copy()}
