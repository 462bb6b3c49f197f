"""Split a fused QKV projection into heads: qkv[S, 3, H, D] -> out[3, H, S, D].

A program takes BLOCK_S tokens of one of Q, K, V: it loads them as a [BLOCK_S, H*D] matrix,
reshapes to [BLOCK_S, H, D] and permutes to [H, BLOCK_S, D] (reshape + transpose, the
`x.view(s, h, d).transpose(0, 1)` of every attention layer) before storing.
"""

import numpy as np
import triton
import triton.language as tl

from _common import EXPECT_MOVE, GFX942, SM80, SM90, config, empty, random_values


@triton.jit
def head_split_kernel(qkv_ptr, out_ptr, S: tl.constexpr, H: tl.constexpr, D: tl.constexpr,
                      BLOCK_S: tl.constexpr):
    tokens = tl.program_id(0) * BLOCK_S + tl.arange(0, BLOCK_S)
    which = tl.program_id(1)  # 0, 1, 2: Q, K, V
    features = tl.arange(0, H * D)
    x = tl.load(qkv_ptr + tokens[:, None] * (3 * H * D) + which * (H * D) + features[None, :])
    x = tl.permute(tl.reshape(x, (BLOCK_S, H, D)), (1, 0, 2))
    h = tl.arange(0, H)
    d = tl.arange(0, D)
    out = out_ptr + which * (H * S * D)
    tl.store(out + h[:, None, None] * (S * D) + tokens[None, :, None] * D + d[None, None, :], x)


KERNEL = head_split_kernel


def _cfg(name, target, dtype, s, h, d, block_s, warps):
    sig = {"qkv_ptr": f"*{dtype}", "out_ptr": f"*{dtype}", "S": "constexpr", "H": "constexpr",
           "D": "constexpr", "BLOCK_S": "constexpr"}
    return config(name, target, sig, {"S": s, "H": h, "D": d, "BLOCK_S": block_s},
                  num_warps=warps, num_stages=1, outputs=["out_ptr"], expect=EXPECT_MOVE)


CONFIGS = [
    _cfg("sm90-fp16-w4-s32-h4-d64", SM90, "fp16", 64, 4, 64, 32, 4),
    _cfg("sm90-bf16-w8-s64-h8-d32", SM90, "bf16", 128, 8, 32, 64, 8),
    _cfg("sm80-fp32-w2-s16-h2-d64", SM80, "fp32", 32, 2, 64, 16, 2),
    _cfg("gfx942-i8-w1-s16-h4-d16", GFX942, "i8", 32, 4, 16, 16, 1),
]


def make_inputs(cfg, rng):
    c = cfg["constexprs"]
    dtype = cfg["signature"]["qkv_ptr"]
    qkv = random_values(rng, (c["S"], 3, c["H"], c["D"]), dtype)
    return [qkv, empty((3, c["H"], c["S"], c["D"]), dtype)]


def grid(cfg):
    c = cfg["constexprs"]
    return (c["S"] // c["BLOCK_S"], 3, 1)


def reference(cfg, inputs):
    return {"out_ptr": np.transpose(inputs[0], (1, 2, 0, 3)).copy()}
