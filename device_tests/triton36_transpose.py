#!/usr/bin/env python3
"""The one-warp 32x32 int8 tl.trans under the Triton installed on the GPU
machine (3.6.0 there), launched by Triton's own JIT twice: on 16-byte aligned
tensors (Triton specialises the pointers with tt.divisibility = 16) and on
tensors one byte off (no such hint). Each launch's output is checked; its
TTGIR is written to OUT (for `f2lay audit --triton 3.6`). Run under ncu
(`-k regex:trans_kernel`) to measure each launch's shared-memory wavefronts.

usage: triton36_transpose.py OUT
"""
import os
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def trans_kernel(x, y, N: tl.constexpr):
    offs = tl.arange(0, N)
    t = tl.load(x + offs[:, None] * N + offs[None, :])
    tl.store(y + offs[:, None] * N + offs[None, :], tl.trans(t))


def tensors(offset):
    """A 32x32 int8 input and output starting `offset` bytes into their buffers."""
    x = torch.empty(32 * 32 + offset, dtype=torch.int8, device="cuda")[offset:].view(32, 32)
    x.copy_(torch.randint(-128, 127, (32, 32), dtype=torch.int8))
    y = torch.empty(32 * 32 + offset, dtype=torch.int8, device="cuda")[offset:].view(32, 32)
    return x, y


def main():
    out = sys.argv[1]
    wrong = 0
    for name, offset in (("aligned", 0), ("unaligned", 1)):
        x, y = tensors(offset)
        compiled = trans_kernel[(1,)](x, y, N=32, num_warps=1)
        torch.cuda.synchronize()
        ok = bool(torch.equal(y, x.t()))
        wrong += not ok
        with open(os.path.join(out, f"transpose_int8-triton{triton.__version__}-{name}.ttgir"), "w") as f:
            f.write(compiled.asm["ttgir"])
        print(f"triton {triton.__version__} {name}: output {'right' if ok else 'WRONG'}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
