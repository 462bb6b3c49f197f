"""Per-row lookup inside a register tile: out[i, j] = src[i, index[i, j]] (tl.gather).

The gather reads across lanes and warps of the source tile, so it needs the source's
layout (or a conversion of it) to serve arbitrary indices along the axis.
"""

import numpy as np
import triton
import triton.language as tl

from _common import SM80, SM90, as_float, config, empty, uniform


@triton.jit
def gather_kernel(src_ptr, index_ptr, out_ptr, R: tl.constexpr, C: tl.constexpr, J: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    j = tl.arange(0, J)
    src = tl.load(src_ptr + r[:, None] * C + c[None, :])
    index = tl.load(index_ptr + r[:, None] * J + j[None, :])
    tl.store(out_ptr + r[:, None] * J + j[None, :], tl.gather(src, index, axis=1))


KERNEL = gather_kernel


def _cfg(name, target, dtype, r, c, j, warps):
    sig = {"src_ptr": f"*{dtype}", "index_ptr": "*i32", "out_ptr": f"*{dtype}",
           "R": "constexpr", "C": "constexpr", "J": "constexpr"}
    return config(name, target, sig, {"R": r, "C": c, "J": j}, num_warps=warps, num_stages=1,
                  outputs=["out_ptr"], tolerance={"atol": 0.0, "rtol": 0.0})


CONFIGS = [
    _cfg("sm90-fp32-w4-32x128-j64", SM90, "fp32", 32, 128, 64, 4),
    _cfg("sm90-fp16-w1-16x32-j32", SM90, "fp16", 16, 32, 32, 1),
    _cfg("sm80-fp32-w8-64x256-j16", SM80, "fp32", 64, 256, 16, 8),
]


def make_inputs(cfg, rng):
    r, c, j = (cfg["constexprs"][k] for k in "RCJ")
    dtype = cfg["signature"]["src_ptr"][1:]
    src = uniform(rng, (r, c), np.float16 if dtype == "fp16" else np.float32)
    index = rng.integers(0, c, size=(r, j), dtype=np.int32)
    return [src, index, empty((r, j), dtype)]


def grid(cfg):
    return (1, 1, 1)


def reference(cfg, inputs):
    src = as_float(inputs[0], cfg["signature"]["src_ptr"])
    return {"out_ptr": np.take_along_axis(src, inputs[1].astype(np.int64), axis=1)}
