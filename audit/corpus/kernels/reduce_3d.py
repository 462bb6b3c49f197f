"""Reductions of a rank-3 tile [A, B, C]: sum over the middle axis, max over the last.

The results are rank-2 tensors in slice layouts of a rank-3 blocked layout (dims 1 and 2),
a case rank-2 kernels never show. The sum is then reduced once more (over A) to a vector.
"""

import numpy as np
import triton
import triton.language as tl

from _common import SM80, SM90, config, empty, uniform


@triton.jit
def reduce_3d_kernel(x_ptr, sum_b_ptr, max_c_ptr, sum_ab_ptr,
                     A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    a = tl.arange(0, A)
    b = tl.arange(0, B)
    c = tl.arange(0, C)
    offsets = a[:, None, None] * (B * C) + b[None, :, None] * C + c[None, None, :]
    x = tl.load(x_ptr + offsets)
    sum_b = tl.sum(x, axis=1)                       # [A, C]
    max_c = tl.max(x, axis=2)                       # [A, B]
    tl.store(sum_b_ptr + a[:, None] * C + c[None, :], sum_b)
    tl.store(max_c_ptr + a[:, None] * B + b[None, :], max_c)
    tl.store(sum_ab_ptr + c, tl.sum(sum_b, axis=0))  # [C]


KERNEL = reduce_3d_kernel
SIG = {"x_ptr": "*fp32", "sum_b_ptr": "*fp32", "max_c_ptr": "*fp32", "sum_ab_ptr": "*fp32",
       "A": "constexpr", "B": "constexpr", "C": "constexpr"}


def _cfg(name, target, a, b, c, warps):
    return config(name, target, SIG, {"A": a, "B": b, "C": c}, num_warps=warps, num_stages=1,
                  outputs=["sum_b_ptr", "max_c_ptr", "sum_ab_ptr"],
                  tolerance={"atol": 1e-4, "rtol": 1e-5})


CONFIGS = [
    _cfg("sm90-w4-8x16x32", SM90, 8, 16, 32, 4),
    _cfg("sm90-w8-4x64x64", SM90, 4, 64, 64, 8),
    _cfg("sm80-w2-16x8x16", SM80, 16, 8, 16, 2),
]


def make_inputs(cfg, rng):
    a, b, c = (cfg["constexprs"][k] for k in "ABC")
    x = uniform(rng, (a, b, c), np.float32)
    return [x, empty((a, c), "fp32"), empty((a, b), "fp32"), empty((c,), "fp32")]


def grid(cfg):
    return (1, 1, 1)


def reference(cfg, inputs):
    x = inputs[0].astype(np.float64)
    return {"sum_b_ptr": x.sum(axis=1), "max_c_ptr": x.max(axis=2), "sum_ab_ptr": x.sum(axis=(0, 1))}
