"""Y = relu(X @ W + bias) in bf16: a linear layer with its epilogue fused.

The bias is a row vector broadcast over the tile, so the epilogue adds a slice layout of the
accumulator's. Problem sizes are constexprs here (a shape-specialized kernel, no masks).
"""

import numpy as np
import triton
import triton.language as tl

from _common import SM80, SM90, config, decode, dot_expect, empty, uniform


@triton.jit
def linear_relu_bf16_kernel(x_ptr, w_ptr, bias_ptr, y_ptr,
                            M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    # Grouped ordering of the programs over the tiles, as production matmuls do for L2 reuse.
    tiles_n = N // BLOCK_N
    pid_m = pid // tiles_n
    pid_n = pid % tiles_n
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    x_ptrs = x_ptr + rows[:, None] * K + ks[None, :]
    w_ptrs = w_ptr + ks[:, None] * N + cols[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        acc = tl.dot(tl.load(x_ptrs), tl.load(w_ptrs), acc)
        x_ptrs += BLOCK_K
        w_ptrs += BLOCK_K * N
    bias = tl.load(bias_ptr + cols).to(tl.float32)
    y = tl.maximum(acc + bias[None, :], 0.0)
    tl.store(y_ptr + rows[:, None] * N + cols[None, :], y.to(tl.bfloat16))


KERNEL = linear_relu_bf16_kernel
SIG = {"x_ptr": "*bf16", "w_ptr": "*bf16", "bias_ptr": "*bf16", "y_ptr": "*bf16",
       "M": "constexpr", "N": "constexpr", "K": "constexpr",
       "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr"}


def _cfg(name, target, bm, bn, bk, warps, stages):
    return config(name, target, SIG, {"M": 256, "N": 256, "K": 128,
                                      "BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk},
                  num_warps=warps, num_stages=stages, outputs=["y_ptr"],
                  tolerance={"atol": 5e-2, "rtol": 2e-2}, expect=dot_expect(target))


CONFIGS = [
    _cfg("sm80-w4-128x64x32-s3", SM80, 128, 64, 32, 4, 3),
    _cfg("sm80-w8-128x128x64-s2", SM80, 128, 128, 64, 8, 2),
    _cfg("sm90-w4-64x128x64-s3", SM90, 64, 128, 64, 4, 3),
    _cfg("sm90-w8-128x256x32-s4", SM90, 128, 256, 32, 8, 4),
]


def make_inputs(cfg, rng):
    c = cfg["constexprs"]
    x = uniform(rng, (c["M"], c["K"]), "bf16")
    w = uniform(rng, (c["K"], c["N"]), "bf16")
    bias = uniform(rng, (c["N"],), "bf16")
    return [x, w, bias, empty((c["M"], c["N"]), "bf16")]


def grid(cfg):
    c = cfg["constexprs"]
    return ((c["M"] // c["BLOCK_M"]) * (c["N"] // c["BLOCK_N"]), 1, 1)


def reference(cfg, inputs):
    x, w, bias = (decode(t, "bf16") for t in inputs[:3])
    return {"y_ptr": np.maximum(x @ w + bias[None, :], 0.0)}
