"""Y = X @ dequant(W): fp16 activations times 4-bit weights with per-group fp16 scales.

W is stored as uint8 [K/2, N], two 4-bit codes a byte along K (row 2i in the low nibble,
row 2i+1 in the high one), value (code - 8) * scale[k // GROUP, n]. The kernel unpacks a tile
with tl.join + tl.permute + tl.reshape, the data movement every int4 kernel does before its
dot, and which the layout engine must carry through.
"""

import numpy as np
import triton
import triton.language as tl

from _common import SM80, SM90, config, dot_expect, empty, uniform


@triton.jit
def matmul_w4a16_kernel(x_ptr, w_ptr, scale_ptr, y_ptr, M, N, K,
                        GROUP: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                        BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    half_ks = tl.arange(0, BLOCK_K // 2)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        x = tl.load(x_ptr + rows[:, None] * K + (k0 + ks)[None, :])
        packed = tl.load(w_ptr + (k0 // 2 + half_ks)[:, None] * N + cols[None, :])
        # [BK/2, BN] bytes -> [BK/2, BN, 2] nibbles -> [BK/2, 2, BN] -> [BK, BN], row 2i + j.
        codes = tl.join(packed & 0xF, packed >> 4)
        codes = tl.reshape(tl.permute(codes, (0, 2, 1)), (BLOCK_K, BLOCK_N))
        scale = tl.load(scale_ptr + ((k0 + ks) // GROUP)[:, None] * N + cols[None, :])
        w = (codes.to(tl.int16) - 8).to(tl.float16) * scale
        acc = tl.dot(x, w, acc)
    tl.store(y_ptr + rows[:, None] * N + cols[None, :], acc.to(tl.float16))


KERNEL = matmul_w4a16_kernel
SIG = {"x_ptr": "*fp16", "w_ptr": "*u8", "scale_ptr": "*fp16", "y_ptr": "*fp16",
       "M": "i32", "N": "i32", "K": "i32",
       "GROUP": "constexpr", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr"}


def _cfg(name, target, bm, bn, bk, warps, stages):
    return config(name, target, SIG, {"GROUP": 32, "BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk},
                  num_warps=warps, num_stages=stages, outputs=["y_ptr"],
                  problem={"M": 64, "N": 256, "K": 256},
                  tolerance={"atol": 5e-2, "rtol": 1e-2}, expect=dot_expect(target))


CONFIGS = [
    _cfg("sm80-w4-32x128x64-s3", SM80, 32, 128, 64, 4, 3),
    _cfg("sm90-w4-64x128x64-s3", SM90, 64, 128, 64, 4, 3),
    _cfg("sm90-w8-64x256x128-s2", SM90, 64, 256, 128, 8, 2),
]


def make_inputs(cfg, rng):
    m, n, k = (cfg["problem"][x] for x in "MNK")
    x = uniform(rng, (m, k), np.float16)
    codes = rng.integers(0, 16, size=(k, n), dtype=np.uint8)
    packed = (codes[0::2] | (codes[1::2] << 4)).astype(np.uint8)
    scale = uniform(rng, (k // cfg["constexprs"]["GROUP"], n), np.float16, 0.01, 0.05)
    return [x, packed, scale, empty((m, n), "fp16"), m, n, k]


def grid(cfg):
    c, p = cfg["constexprs"], cfg["problem"]
    return (p["M"] // c["BLOCK_M"], p["N"] // c["BLOCK_N"], 1)


def reference(cfg, inputs):
    x, packed, scale = inputs[0], inputs[1], inputs[2]
    codes = np.empty((packed.shape[0] * 2, packed.shape[1]), dtype=np.int64)
    codes[0::2], codes[1::2] = packed & 0xF, packed >> 4
    group = cfg["constexprs"]["GROUP"]
    w = (codes - 8) * np.repeat(scale.astype(np.float64), group, axis=0)
    return {"y_ptr": x.astype(np.float64) @ w}
