"""C = A @ B in OCP microscaling formats on Blackwell: tl.dot_scaled -> tcgen05 (mma.kind::mxf8f6f4).

A is [M, K] and B is [K, N] in e4m3 (one byte an element) or e2m1 (two a byte, packed along
K, the first element in the low nibble); each block of 32 consecutive K elements shares an
e8m0 scale: A's scales are [M, K/32], B's [N, K/32] (not transposed). The scales travel
through tensor memory (#ttng.tensor_memory_scales_encoding), the accumulator too.
"""

import numpy as np
import triton
import triton.language as tl

from _common import SM100, config, decode, dot_expect, empty, random_codes, unpack_e2m1

SCALE_BLOCK = 32


@triton.jit
def mx_matmul_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, c_ptr,
                     M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                     A_FORMAT: tl.constexpr, B_FORMAT: tl.constexpr,
                     A_PACK: tl.constexpr, B_PACK: tl.constexpr,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    a_ks = tl.arange(0, BLOCK_K // A_PACK)   # bytes of A along K
    b_ks = tl.arange(0, BLOCK_K // B_PACK)   # bytes of B along K
    scale_ks = tl.arange(0, BLOCK_K // 32)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rows[:, None] * (K // A_PACK) + (k0 // A_PACK + a_ks)[None, :])
        b = tl.load(b_ptr + (k0 // B_PACK + b_ks)[:, None] * N + cols[None, :])
        a_scale = tl.load(a_scale_ptr + rows[:, None] * (K // 32) + (k0 // 32 + scale_ks)[None, :])
        b_scale = tl.load(b_scale_ptr + cols[:, None] * (K // 32) + (k0 // 32 + scale_ks)[None, :])
        acc = tl.dot_scaled(a, a_scale, A_FORMAT, b, b_scale, B_FORMAT, acc)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc)


KERNEL = mx_matmul_kernel
SIG = {"a_ptr": "*u8", "a_scale_ptr": "*u8", "b_ptr": "*u8", "b_scale_ptr": "*u8", "c_ptr": "*fp32",
       "M": "constexpr", "N": "constexpr", "K": "constexpr", "A_FORMAT": "constexpr",
       "B_FORMAT": "constexpr", "A_PACK": "constexpr", "B_PACK": "constexpr",
       "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr"}
# Results reach 1e3 to 1e4 (scales up to 2^3 on each side); a layout error is of that size, so
# about 1e-3 of it separates wrong data from the tensor core's rounding.
TOL = {"atol": 1.0, "rtol": 1e-3}
EXPECT = dot_expect(SM100) + ("ttng.tc_gen5_mma_scaled", "#ttng.tensor_memory_scales_encoding")


def _cfg(name, a_format, b_format, bm, bn, bk, warps, stages):
    pack = {"e4m3": 1, "e2m1": 2}
    constexprs = {"M": 256, "N": 256, "K": 256, "A_FORMAT": a_format, "B_FORMAT": b_format,
                  "A_PACK": pack[a_format], "B_PACK": pack[b_format],
                  "BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk}
    return config(name, SM100, SIG, constexprs, num_warps=warps, num_stages=stages,
                  outputs=["c_ptr"], tolerance=TOL, expect=EXPECT)


CONFIGS = [
    _cfg("mxfp8-w4-128x128x128-s3", "e4m3", "e4m3", 128, 128, 128, 4, 3),
    _cfg("mxfp8-w8-128x256x128-s2", "e4m3", "e4m3", 128, 256, 128, 8, 2),
    _cfg("mxfp4xmxfp8-w4-128x128x128-s2", "e2m1", "e4m3", 128, 128, 128, 4, 2),
    _cfg("mxfp4-w4-128x128x256-s2", "e2m1", "e2m1", 128, 128, 256, 4, 2),
]


def _random_operand(rng, fmt, shape, pack_axis):
    """Codes of a random operand of logical `shape`, packed two a byte along pack_axis for e2m1."""
    if fmt == "e4m3":
        return random_codes(rng, shape, "e4m3", max_abs=4.0)
    codes = rng.integers(0, 16, size=shape, dtype=np.uint8)
    lo, hi = np.split(codes.reshape(*shape[:pack_axis], -1, 2, *shape[pack_axis + 1:]), 2,
                      axis=pack_axis + 1)
    return (lo | (hi << 4)).squeeze(pack_axis + 1).astype(np.uint8)


def make_inputs(cfg, rng):
    c = cfg["constexprs"]
    m, n, k = c["M"], c["N"], c["K"]
    a = _random_operand(rng, c["A_FORMAT"], (m, k), pack_axis=1)
    b = _random_operand(rng, c["B_FORMAT"], (k, n), pack_axis=0)
    # e8m0 scales around 1 (2^-3 .. 2^3) so that products stay well inside fp32.
    a_scale = rng.integers(124, 131, size=(m, k // SCALE_BLOCK), dtype=np.uint8)
    b_scale = rng.integers(124, 131, size=(n, k // SCALE_BLOCK), dtype=np.uint8)
    return [a, a_scale, b, b_scale, empty((m, n), "fp32")]


def grid(cfg):
    c = cfg["constexprs"]
    return (c["M"] // c["BLOCK_M"], c["N"] // c["BLOCK_N"], 1)


def _values(codes, fmt, k_axis):
    if fmt == "e2m1":
        codes = unpack_e2m1(codes, axis=k_axis)
    return decode(codes, fmt)


def reference(cfg, inputs):
    c = cfg["constexprs"]
    a_codes, a_scale, b_codes, b_scale = inputs[:4]
    a = _values(a_codes, c["A_FORMAT"], 1) * np.repeat(decode(a_scale, "e8m0"), SCALE_BLOCK, axis=1)
    b = _values(b_codes, c["B_FORMAT"], 0) * np.repeat(decode(b_scale, "e8m0"), SCALE_BLOCK, axis=1).T
    return {"c_ptr": a @ b}
