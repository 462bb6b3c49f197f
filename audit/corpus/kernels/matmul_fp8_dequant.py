"""C = A @ B with A, B stored as e4m3 bytes, decoded to fp16 in the kernel: fp8 on Ampere.

sm_80 has no fp8 tensor-core path and Triton refuses the fp8e4nv type below sm_89, so the
weights arrive as uint8 and are widened by bit manipulation: an e4m3 byte S.EEEE.MMM moved
to fp16's bit positions (S.EEEEE.MMMMMMMMMM) is its value times 2^(7-15), so shifting the
exponent/mantissa bits left by 7 and multiplying by 2^8 is exact (subnormals included).
"""

import triton
import triton.language as tl

from _common import SM80, cdiv, config, decode, dot_expect, empty, random_codes


@triton.jit
def e4m3_to_fp16(x):
    bits = x.to(tl.uint16)
    fp16_bits = ((bits & 0x80) << 8) | ((bits & 0x7F) << 7)
    return fp16_bits.to(tl.float16, bitcast=True) * 256.0


@triton.jit
def matmul_fp8_dequant_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = e4m3_to_fp16(tl.load(a_ptr + rows[:, None] * K + (k0 + ks)[None, :]))
        b = e4m3_to_fp16(tl.load(b_ptr + (k0 + ks)[:, None] * N + cols[None, :]))
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc)


KERNEL = matmul_fp8_dequant_kernel
SIG = {"a_ptr": "*u8", "b_ptr": "*u8", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
       "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr"}


def _cfg(name, target, bm, bn, bk, warps, stages):
    return config(name, target, SIG, {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk},
                  num_warps=warps, num_stages=stages, outputs=["c_ptr"],
                  problem={"M": 256, "N": 256, "K": 128},
                  tolerance={"atol": 1e-3, "rtol": 1e-4}, expect=dot_expect(target))


CONFIGS = [
    _cfg("sm80-w4-128x128x32-s3", SM80, 128, 128, 32, 4, 3),
    _cfg("sm80-w8-128x128x64-s2", SM80, 128, 128, 64, 8, 2),
    _cfg("sm80-w2-64x32x64-s4", SM80, 64, 32, 64, 2, 4),
]


def make_inputs(cfg, rng):
    m, n, k = (cfg["problem"][x] for x in "MNK")
    a = random_codes(rng, (m, k), "e4m3", max_abs=2.0)
    b = random_codes(rng, (k, n), "e4m3", max_abs=2.0)
    return [a, b, empty((m, n), "fp32"), m, n, k]


def grid(cfg):
    c, p = cfg["constexprs"], cfg["problem"]
    return (cdiv(p["M"], c["BLOCK_M"]), cdiv(p["N"], c["BLOCK_N"]), 1)


def reference(cfg, inputs):
    return {"c_ptr": decode(inputs[0], "e4m3") @ decode(inputs[1], "e4m3")}
