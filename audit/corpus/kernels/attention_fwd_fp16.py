"""Fused attention forward (flash-attention style) in fp16, optionally causal.

One program computes BLOCK_M query rows of one (batch, head): it streams K and V in blocks of
BLOCK_N keys, keeps the running row maximum and sum (online softmax, base 2) and rescales the
accumulator. Q, K, V, O are [B*H, SEQ, HEAD_DIM] contiguous. Two dots per step: Q K^T (K^T
by tl.trans of the K tile) and P V (P converted from the first dot's accumulator layout into
the second dot's operand layout: the conversion attention kernels are known for).
"""

import math

import numpy as np
import triton
import triton.language as tl

from _common import SM80, SM90, config, dot_expect, empty, uniform


@triton.jit
def attention_fwd_fp16_kernel(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale,
                              SEQ: tl.constexpr, HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr,
                              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    head = tl.program_id(1)
    base = head * SEQ * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    qk_scale = sm_scale * 1.4426950408889634  # log2(e): exp(x) = exp2(x * log2(e))
    hi = (start_m + 1) * BLOCK_M if CAUSAL else SEQ
    for start_n in range(0, hi, BLOCK_N):
        keys = start_n + offs_n
        k = tl.load(k_ptr + base + keys[:, None] * HEAD_DIM + offs_d[None, :])
        qk = tl.dot(q, tl.trans(k)) * qk_scale
        if CAUSAL:
            qk = tl.where(offs_m[:, None] >= keys[None, :], qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp2(qk - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + base + keys[:, None] * HEAD_DIM + offs_d[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    tl.store(o_ptr + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
             (acc / l_i[:, None]).to(tl.float16))


KERNEL = attention_fwd_fp16_kernel
SIG = {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16", "sm_scale": "fp32",
       "SEQ": "constexpr", "HEAD_DIM": "constexpr", "CAUSAL": "constexpr",
       "BLOCK_M": "constexpr", "BLOCK_N": "constexpr"}


def _cfg(name, target, seq, head_dim, causal, bm, bn, warps, stages, heads=2):
    return config(name, target, SIG, {"SEQ": seq, "HEAD_DIM": head_dim, "CAUSAL": causal,
                                      "BLOCK_M": bm, "BLOCK_N": bn},
                  num_warps=warps, num_stages=stages, outputs=["o_ptr"], problem={"HEADS": heads},
                  tolerance={"atol": 2e-3, "rtol": 1e-2}, expect=dot_expect(target))


CONFIGS = [
    _cfg("sm80-w4-d64-128x64-s2", SM80, 256, 64, False, 128, 64, 4, 2),
    _cfg("sm80-w4-d128-causal-64x64-s3", SM80, 256, 128, True, 64, 64, 4, 3),
    _cfg("sm90-w8-d128-128x128-s2", SM90, 256, 128, False, 128, 128, 8, 2),
    _cfg("sm90-w4-d64-causal-128x64-s3", SM90, 256, 64, True, 128, 64, 4, 3),
]


def make_inputs(cfg, rng):
    c = cfg["constexprs"]
    shape = (cfg["problem"]["HEADS"], c["SEQ"], c["HEAD_DIM"])
    # q and k in [-2, 2) so the scores spread and each output row leans on a few values of v
    # (a near-uniform softmax would average v away, and with it any misplaced element).
    q, k = (uniform(rng, shape, np.float16, -2.0, 2.0) for _ in range(2))
    v = uniform(rng, shape, np.float16)
    return [q, k, v, empty(shape, "fp16"), np.float32(1.0 / math.sqrt(c["HEAD_DIM"]))]


def grid(cfg):
    c = cfg["constexprs"]
    return (c["SEQ"] // c["BLOCK_M"], cfg["problem"]["HEADS"], 1)


def attention_reference(q, k, v, sm_scale, causal):
    """softmax(q k^T * sm_scale) v per head, in float64."""
    s = np.einsum("hmd,hnd->hmn", q, k) * sm_scale
    if causal:
        n = s.shape[-1]
        s = np.where(np.tril(np.ones((n, n), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    return np.einsum("hmn,hnd->hmd", p / p.sum(axis=-1, keepdims=True), v)


def reference(cfg, inputs):
    q, k, v = (t.astype(np.float64) for t in inputs[:3])
    return {"o_ptr": attention_reference(q, k, v, float(inputs[4]), cfg["constexprs"]["CAUSAL"])}
