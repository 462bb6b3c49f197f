"""Y = X @ W^T with W stored [N, K] (nn.Linear's weight layout), fp16 in and out.

The kernel loads W's tile as it lies in memory, [BLOCK_N, BLOCK_K], and feeds tl.trans of it
to tl.dot: on Hopper the transpose becomes a transposed shared-memory view (memdesc_trans)
of a K-major operand; on Ampere a shared-memory round trip into the dot-operand layout.
"""

import numpy as np
import triton
import triton.language as tl

from _common import SM80, SM90, config, dot_expect, empty, uniform


@triton.jit
def linear_nt_fp16_kernel(x_ptr, w_ptr, y_ptr, M, N, K,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    outs = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        x = tl.load(x_ptr + rows[:, None] * K + (k0 + ks)[None, :])
        w = tl.load(w_ptr + outs[:, None] * K + (k0 + ks)[None, :])
        acc = tl.dot(x, tl.trans(w), acc)
    tl.store(y_ptr + rows[:, None] * N + outs[None, :], acc.to(tl.float16))


KERNEL = linear_nt_fp16_kernel
SIG = {"x_ptr": "*fp16", "w_ptr": "*fp16", "y_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
       "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr"}


def _cfg(name, target, bm, bn, bk, warps, stages):
    return config(name, target, SIG, {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk},
                  num_warps=warps, num_stages=stages, outputs=["y_ptr"],
                  problem={"M": 128, "N": 256, "K": 128},
                  tolerance={"atol": 2e-2, "rtol": 1e-2}, expect=dot_expect(target))


CONFIGS = [
    _cfg("sm80-w4-64x64x64-s3", SM80, 64, 64, 64, 4, 3),
    _cfg("sm90-w4-128x128x64-s3", SM90, 128, 128, 64, 4, 3),
    _cfg("sm90-w8-128x256x64-s2", SM90, 128, 256, 64, 8, 2),
]


def make_inputs(cfg, rng):
    m, n, k = (cfg["problem"][x] for x in "MNK")
    x = uniform(rng, (m, k), np.float16)
    w = uniform(rng, (n, k), np.float16)
    return [x, w, empty((m, n), "fp16"), m, n, k]


def grid(cfg):
    c, p = cfg["constexprs"], cfg["problem"]
    return (p["M"] // c["BLOCK_M"], p["N"] // c["BLOCK_N"], 1)


def reference(cfg, inputs):
    x, w = inputs[0].astype(np.float64), inputs[1].astype(np.float64)
    return {"y_ptr": x @ w.T}
