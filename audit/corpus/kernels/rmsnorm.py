"""RMSNorm over rows longer than one block, in bf16: y = x / sqrt(mean(x^2) + eps) * w.

One program a row, two passes over it in BLOCK_N chunks (the first accumulates the sum of
squares in a vector, reduced once at the end; the second scales and stores), the shape a norm
kernel takes when the hidden size does not fit in registers.
"""

import numpy as np
import triton
import triton.language as tl

from _common import SM80, SM90, config, decode, empty, uniform


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, n_cols, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * n_cols
    y_row = y_ptr + row * n_cols
    squares = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        squares += x * x
    rrms = tl.rsqrt(tl.sum(squares, axis=0) / n_cols + eps)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        tl.store(y_row + cols, (x * rrms * w).to(tl.bfloat16), mask=cols < n_cols)


KERNEL = rmsnorm_kernel
SIG = {"x_ptr": "*bf16", "w_ptr": "*bf16", "y_ptr": "*bf16", "n_cols": "i32", "eps": "fp32",
       "BLOCK_N": "constexpr"}


def _cfg(name, target, n_rows, n_cols, block_n, warps):
    return config(name, target, SIG, {"BLOCK_N": block_n}, num_warps=warps, num_stages=1,
                  outputs=["y_ptr"], problem={"n_rows": n_rows, "n_cols": n_cols},
                  tolerance={"atol": 2e-2, "rtol": 1e-2})


CONFIGS = [
    _cfg("sm90-w4-512-n4096", SM90, 4, 4096, 512, 4),
    _cfg("sm90-w8-2048-n5120", SM90, 4, 5120, 2048, 8),
    _cfg("sm80-w2-256-n1000", SM80, 4, 1000, 256, 2),
]


def make_inputs(cfg, rng):
    m, n = cfg["problem"]["n_rows"], cfg["problem"]["n_cols"]
    x = uniform(rng, (m, n), "bf16", -2.0, 2.0)
    w = uniform(rng, (n,), "bf16", 0.5, 1.5)
    return [x, w, empty((m, n), "bf16"), n, np.float32(1e-6)]


def grid(cfg):
    return (cfg["problem"]["n_rows"], 1, 1)


def reference(cfg, inputs):
    x, w = decode(inputs[0], "bf16"), decode(inputs[1], "bf16")
    rrms = 1.0 / np.sqrt((x * x).mean(axis=1) + float(inputs[4]))
    return {"y_ptr": x * rrms[:, None] * w[None, :]}
