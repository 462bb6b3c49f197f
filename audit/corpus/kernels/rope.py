"""Rotary position embedding, interleaved pairs (GPT-J style), in place of a copy.

x is [S, H, D]; each pair (x[..., 2i], x[..., 2i+1]) is rotated by the angle of (token, i):
the kernel views the tile as [BLOCK_S, H, D/2, 2], tl.split's the pairs apart, rotates, and
tl.join's them back before the reshape to [BLOCK_S, H, D] (split/join: the last axis of size
2 lives in registers, and the layouts on both sides of it must agree).
"""

import numpy as np
import triton
import triton.language as tl

from _common import GFX942, SM80, SM90, as_float, config, empty, uniform


@triton.jit
def rope_kernel(x_ptr, cos_ptr, sin_ptr, y_ptr, H: tl.constexpr, D: tl.constexpr,
                BLOCK_S: tl.constexpr):
    tokens = tl.program_id(0) * BLOCK_S + tl.arange(0, BLOCK_S)
    h = tl.arange(0, H)
    d = tl.arange(0, D)
    half = tl.arange(0, D // 2)
    offsets = tokens[:, None, None] * (H * D) + h[None, :, None] * D + d[None, None, :]
    x = tl.load(x_ptr + offsets).to(tl.float32)
    x_even, x_odd = tl.split(tl.reshape(x, (BLOCK_S, H, D // 2, 2)))
    angle_offsets = tokens[:, None] * (D // 2) + half[None, :]
    cos = tl.load(cos_ptr + angle_offsets)[:, None, :]
    sin = tl.load(sin_ptr + angle_offsets)[:, None, :]
    y = tl.join(x_even * cos - x_odd * sin, x_even * sin + x_odd * cos)
    y = tl.reshape(y, (BLOCK_S, H, D))
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty))


KERNEL = rope_kernel


def _cfg(name, target, dtype, s, h, d, block_s, warps):
    sig = {"x_ptr": f"*{dtype}", "cos_ptr": "*fp32", "sin_ptr": "*fp32", "y_ptr": f"*{dtype}",
           "H": "constexpr", "D": "constexpr", "BLOCK_S": "constexpr"}
    return config(name, target, sig, {"H": h, "D": d, "BLOCK_S": block_s}, num_warps=warps,
                  num_stages=1, outputs=["y_ptr"], problem={"S": s},
                  tolerance={"atol": 1e-2, "rtol": 1e-2}, expect=(("tt.join",), ("tt.split",)))


CONFIGS = [
    _cfg("sm90-fp16-w4-s16-h8-d64", SM90, "fp16", 32, 8, 64, 16, 4),
    _cfg("sm90-bf16-w8-s32-h4-d128", SM90, "bf16", 64, 4, 128, 32, 8),
    _cfg("sm80-fp16-w2-s8-h4-d32", SM80, "fp16", 16, 4, 32, 8, 2),
    _cfg("gfx942-bf16-w4-s16-h2-d128", GFX942, "bf16", 32, 2, 128, 16, 4),
]


def make_inputs(cfg, rng):
    c, s = cfg["constexprs"], cfg["problem"]["S"]
    dtype = cfg["signature"]["x_ptr"][1:]
    x = uniform(rng, (s, c["H"], c["D"]), "bf16" if dtype == "bf16" else np.float16)
    theta = np.arange(s)[:, None] * 10000.0 ** (-np.arange(c["D"] // 2)[None, :] / (c["D"] // 2))
    return [x, np.cos(theta).astype(np.float32), np.sin(theta).astype(np.float32),
            empty(x.shape, dtype)]


def grid(cfg):
    return (cfg["problem"]["S"] // cfg["constexprs"]["BLOCK_S"], 1, 1)


def reference(cfg, inputs):
    x = as_float(inputs[0], cfg["signature"]["x_ptr"])
    cos, sin = (t.astype(np.float64)[:, None, :] for t in inputs[1:3])
    even, odd = x[..., 0::2], x[..., 1::2]
    y = np.empty_like(x)
    y[..., 0::2] = even * cos - odd * sin
    y[..., 1::2] = even * sin + odd * cos
    return {"y_ptr": y}
