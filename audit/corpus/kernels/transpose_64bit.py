"""Y = X^T for 64-bit elements (fp64 or int64): one element already fills 8 bytes, so the
layouts' vector widths and shared-memory banks behave unlike the narrow types'.
"""

import triton
import triton.language as tl

from _common import EXPECT_MOVE, SM80, SM90, config, empty, random_values


@triton.jit
def transpose_64bit_kernel(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    tile = tl.load(x_ptr + rows[:, None] * N + cols[None, :])
    tl.store(y_ptr + cols[:, None] * M + rows[None, :], tl.trans(tile))


KERNEL = transpose_64bit_kernel


def _cfg(name, target, dtype, m, n, bm, bn, warps):
    sig = {"x_ptr": f"*{dtype}", "y_ptr": f"*{dtype}", "M": "constexpr", "N": "constexpr",
           "BLOCK_M": "constexpr", "BLOCK_N": "constexpr"}
    return config(name, target, sig, {"M": m, "N": n, "BLOCK_M": bm, "BLOCK_N": bn},
                  num_warps=warps, num_stages=1, outputs=["y_ptr"], expect=EXPECT_MOVE)


CONFIGS = [
    _cfg("sm90-fp64-w1-32x32", SM90, "fp64", 32, 32, 32, 32, 1),
    _cfg("sm90-i64-w4-64x64", SM90, "i64", 128, 64, 64, 64, 4),
    _cfg("sm90-fp64-w8-128x64", SM90, "fp64", 128, 128, 128, 64, 8),
    _cfg("sm80-i64-w2-16x64", SM80, "i64", 32, 128, 16, 64, 2),
]


def make_inputs(cfg, rng):
    m, n = cfg["constexprs"]["M"], cfg["constexprs"]["N"]
    dtype = cfg["signature"]["x_ptr"]
    return [random_values(rng, (m, n), dtype), empty((n, m), dtype)]


def grid(cfg):
    c = cfg["constexprs"]
    return (c["M"] // c["BLOCK_M"], c["N"] // c["BLOCK_N"], 1)


def reference(cfg, inputs):
    return {"y_ptr": inputs[0].T.copy()}
