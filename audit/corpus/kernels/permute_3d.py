"""Out = permute(X, (P0, P1, P2)) for a rank-3 tile, with tl.permute, of any element type.

X is [D0, D1, D2] row-major; the result, [D_P0, D_P1, D_P2], is stored row-major too.
"""

import numpy as np
import triton
import triton.language as tl

from _common import EXPECT_MOVE, GFX942, SM80, SM90, config, empty, random_values


@triton.jit
def permute_3d_kernel(x_ptr, y_ptr, D0: tl.constexpr, D1: tl.constexpr, D2: tl.constexpr,
                      P0: tl.constexpr, P1: tl.constexpr, P2: tl.constexpr,
                      O0: tl.constexpr, O1: tl.constexpr, O2: tl.constexpr):
    # O0, O1, O2 are D_P0, D_P1, D_P2: the output extents, given so the store is plain.
    i0 = tl.arange(0, D0)
    i1 = tl.arange(0, D1)
    i2 = tl.arange(0, D2)
    x = tl.load(x_ptr + i0[:, None, None] * (D1 * D2) + i1[None, :, None] * D2 + i2[None, None, :])
    y = tl.permute(x, (P0, P1, P2))
    j0 = tl.arange(0, O0)
    j1 = tl.arange(0, O1)
    j2 = tl.arange(0, O2)
    tl.store(y_ptr + j0[:, None, None] * (O1 * O2) + j1[None, :, None] * O2 + j2[None, None, :], y)


KERNEL = permute_3d_kernel


def _cfg(name, target, dtype, dims, perm, warps):
    sig = {"x_ptr": f"*{dtype}", "y_ptr": f"*{dtype}"}
    sig.update({k: "constexpr" for k in ("D0", "D1", "D2", "P0", "P1", "P2", "O0", "O1", "O2")})
    constexprs = {f"D{i}": d for i, d in enumerate(dims)}
    constexprs.update({f"P{i}": p for i, p in enumerate(perm)})
    constexprs.update({f"O{i}": dims[p] for i, p in enumerate(perm)})
    return config(name, target, sig, constexprs, num_warps=warps, num_stages=1,
                  outputs=["y_ptr"], expect=EXPECT_MOVE)


CONFIGS = [
    _cfg("sm90-i8-w1-8x16x32-p201", SM90, "i8", (8, 16, 32), (2, 0, 1), 1),
    _cfg("sm90-fp16-w4-4x32x64-p120", SM90, "fp16", (4, 32, 64), (1, 2, 0), 4),
    _cfg("sm90-fp32-w4-16x16x16-p021", SM90, "fp32", (16, 16, 16), (0, 2, 1), 4),
    _cfg("sm80-fp64-w2-8x8x32-p210", SM80, "fp64", (8, 8, 32), (2, 1, 0), 2),
    _cfg("gfx942-bf16-w4-2x64x64-p102", GFX942, "bf16", (2, 64, 64), (1, 0, 2), 4),
]


def make_inputs(cfg, rng):
    c = cfg["constexprs"]
    dims = (c["D0"], c["D1"], c["D2"])
    dtype = cfg["signature"]["x_ptr"]
    return [random_values(rng, dims, dtype), empty((c["O0"], c["O1"], c["O2"]), dtype)]


def grid(cfg):
    return (1, 1, 1)


def reference(cfg, inputs):
    # A permutation moves bits: the expected output is the input's storage, permuted.
    c = cfg["constexprs"]
    return {"y_ptr": np.transpose(inputs[0], (c["P0"], c["P1"], c["P2"])).copy()}
