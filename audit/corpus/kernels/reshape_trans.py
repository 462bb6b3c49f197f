"""Reinterpret a row-major [R, C] tile as [R*C/K, K] (tl.reshape) and transpose that.

Out = X.reshape(R*C/K, K).T: the reshape regroups the tile's elements under a different 2-D
shape before tl.trans, so the transposed layout comes out of a reshaped one, not a loaded one.
"""

import triton
import triton.language as tl

from _common import EXPECT_MOVE, SM80, SM90, config, empty, random_values


@triton.jit
def reshape_trans_kernel(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr, K: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    y = tl.trans(tl.reshape(x, (R * C // K, K)))          # [K, R*C/K]
    i = tl.arange(0, K)
    j = tl.arange(0, R * C // K)
    tl.store(y_ptr + i[:, None] * (R * C // K) + j[None, :], y)


KERNEL = reshape_trans_kernel


def _cfg(name, target, dtype, r, c, k, warps):
    sig = {"x_ptr": f"*{dtype}", "y_ptr": f"*{dtype}", "R": "constexpr", "C": "constexpr",
           "K": "constexpr"}
    return config(name, target, sig, {"R": r, "C": c, "K": k}, num_warps=warps, num_stages=1,
                  outputs=["y_ptr"], expect=EXPECT_MOVE)


CONFIGS = [
    _cfg("sm90-i8-w1-32x32-k64", SM90, "i8", 32, 32, 64, 1),
    _cfg("sm90-fp16-w4-64x64-k16", SM90, "fp16", 64, 64, 16, 4),
    _cfg("sm90-i64-w4-32x64-k128", SM90, "i64", 32, 64, 128, 4),
    _cfg("sm80-fp32-w8-128x32-k8", SM80, "fp32", 128, 32, 8, 8),
]


def make_inputs(cfg, rng):
    c = cfg["constexprs"]
    dtype = cfg["signature"]["x_ptr"]
    return [random_values(rng, (c["R"], c["C"]), dtype),
            empty((c["K"], c["R"] * c["C"] // c["K"]), dtype)]


def grid(cfg):
    return (1, 1, 1)


def reference(cfg, inputs):
    k = cfg["constexprs"]["K"]
    return {"y_ptr": inputs[0].reshape(-1, k).T.copy()}
