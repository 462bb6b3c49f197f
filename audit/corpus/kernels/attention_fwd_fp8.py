"""Fused attention forward with fp8 (e4m3) Q, K and V on Hopper, V given transposed.

As in Triton's fp8 attention for sm_90, V is stored [B*H, HEAD_DIM, SEQ] (V^T) so that the
second dot's B operand, V, is K-major in memory: the kernel loads a [HEAD_DIM, BLOCK_N] tile
of V^T and hands tl.trans of it to tl.dot. P is cast to e4m3 before that dot (the kernel's
only rounding beyond fp32); the reference repeats that rounding block by block.
"""

import math

import numpy as np
import triton
import triton.language as tl

from _common import SM90, config, decode, dot_expect, empty, encode_nearest


@triton.jit
def attention_fwd_fp8_kernel(q_ptr, k_ptr, vt_ptr, o_ptr, sm_scale,
                             SEQ: tl.constexpr, HEAD_DIM: tl.constexpr,
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
    qk_scale = sm_scale * 1.4426950408889634
    for start_n in range(0, SEQ, BLOCK_N):
        keys = start_n + offs_n
        k = tl.load(k_ptr + base + keys[:, None] * HEAD_DIM + offs_d[None, :])
        qk = tl.dot(q, tl.trans(k)) * qk_scale
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp2(qk - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        vt = tl.load(vt_ptr + base + offs_d[:, None] * SEQ + keys[None, :])   # [HEAD_DIM, BLOCK_N]
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float8e4nv), tl.trans(vt))
        m_i = m_new
    tl.store(o_ptr + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
             (acc / l_i[:, None]).to(tl.float16))


KERNEL = attention_fwd_fp8_kernel
SIG = {"q_ptr": "*fp8e4nv", "k_ptr": "*fp8e4nv", "vt_ptr": "*fp8e4nv", "o_ptr": "*fp16",
       "sm_scale": "fp32", "SEQ": "constexpr", "HEAD_DIM": "constexpr",
       "BLOCK_M": "constexpr", "BLOCK_N": "constexpr"}
EXPECT = dot_expect(SM90) + (("ttg.memdesc_trans", "ttg.convert_layout"),)


def _cfg(name, head_dim, bm, bn, warps, stages):
    return config(name, SM90, SIG, {"SEQ": 256, "HEAD_DIM": head_dim, "BLOCK_M": bm, "BLOCK_N": bn},
                  num_warps=warps, num_stages=stages, outputs=["o_ptr"], problem={"HEADS": 2},
                  tolerance={"atol": 5e-3, "rtol": 2e-2}, expect=EXPECT)


CONFIGS = [
    _cfg("sm90-w4-d64-128x64-s3", 64, 128, 64, 4, 3),
    _cfg("sm90-w8-d128-128x128-s2", 128, 128, 128, 8, 2),
    _cfg("sm90-w4-d128-64x128-s2", 128, 64, 128, 4, 2),
]


def make_inputs(cfg, rng):
    c = cfg["constexprs"]
    heads, seq, d = cfg["problem"]["HEADS"], c["SEQ"], c["HEAD_DIM"]
    # Uniform values rounded to e4m3 (uniform codes would be mostly tiny values), with the
    # scores spread as in attention_fwd_fp16.py.
    q = encode_nearest(rng.uniform(-2.0, 2.0, (heads, seq, d)), "e4m3")
    k = encode_nearest(rng.uniform(-2.0, 2.0, (heads, seq, d)), "e4m3")
    vt = encode_nearest(rng.uniform(-1.0, 1.0, (heads, d, seq)), "e4m3")
    return [q, k, vt, empty((heads, seq, d), "fp16"), np.float32(1.0 / math.sqrt(d))]


def grid(cfg):
    c = cfg["constexprs"]
    return (c["SEQ"] // c["BLOCK_M"], cfg["problem"]["HEADS"], 1)


def blocked_attention_fp8(q, k, v, sm_scale, block_n):
    """The kernel's online softmax, block of keys by block, P rounded to e4m3 before P V as
    the kernel does: without this rounding the reference would differ from any correct run
    by as much as a layout error would."""
    heads, seq, d = q.shape
    log2e = 1.4426950408889634
    out = np.empty_like(q)
    for h in range(heads):
        m = np.full(seq, -np.inf)
        l = np.zeros(seq)
        acc = np.zeros((seq, d))
        for start in range(0, seq, block_n):
            s = q[h] @ k[h, start:start + block_n].T * (sm_scale * log2e)
            m_new = np.maximum(m, s.max(axis=1))
            p = np.exp2(s - m_new[:, None])
            alpha = np.exp2(m - m_new)
            l = l * alpha + p.sum(axis=1)
            p8 = decode(encode_nearest(p, "e4m3"), "e4m3")
            acc = acc * alpha[:, None] + p8 @ v[h, start:start + block_n]
            m = m_new
        out[h] = acc / l[:, None]
    return out


def reference(cfg, inputs):
    q, k, vt = (decode(t, "e4m3") for t in inputs[:3])
    o = blocked_attention_fp8(q, k, vt.transpose(0, 2, 1), float(inputs[4]),
                              cfg["constexprs"]["BLOCK_N"])
    return {"o_ptr": o}
