"""C = A @ B in fp16 through TMA: device-side tensor descriptors (tl.make_tensor_descriptor).

Tiles are copied by the Tensor Memory Accelerator straight into shared memory in the
NVMMA swizzled layout the tensor cores read, with no register layout on the way in; the
persistent loop walks the output tiles with a stride of the grid size. A launch needs
Triton's global scratch allocator (triton.set_allocator): the descriptors live there.
"""

import numpy as np
import triton
import triton.language as tl

from _common import SM90, SM100, config, dot_expect, empty, uniform


@triton.jit
def matmul_tma_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1],
                                       block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    tiles_n = tl.cdiv(N, BLOCK_N)
    num_tiles = tl.cdiv(M, BLOCK_M) * tiles_n
    for tile in range(tl.program_id(0), num_tiles, tl.num_programs(0)):
        off_m = (tile // tiles_n) * BLOCK_M
        off_n = (tile % tiles_n) * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, K, BLOCK_K):
            acc = tl.dot(a_desc.load([off_m, k]), b_desc.load([k, off_n]), acc)
        c_desc.store([off_m, off_n], acc.to(tl.float16))


KERNEL = matmul_tma_kernel
SIG = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
       "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr"}


def _cfg(name, target, bm, bn, bk, warps, stages, programs):
    expect = dot_expect(target) + ("ttng.async_tma_copy_global_to_local",)
    return config(name, target, SIG, {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk},
                  num_warps=warps, num_stages=stages, outputs=["c_ptr"],
                  problem={"M": 256, "N": 256, "K": 128, "PROGRAMS": programs},
                  tolerance={"atol": 2e-2, "rtol": 1e-2}, expect=expect)


CONFIGS = [
    _cfg("sm90-w4-128x128x64-s3", SM90, 128, 128, 64, 4, 3, 2),
    _cfg("sm90-w8-128x256x64-s3", SM90, 128, 256, 64, 8, 3, 2),
    _cfg("sm100-w4-128x128x64-s4", SM100, 128, 128, 64, 4, 4, 3),
]


def make_inputs(cfg, rng):
    m, n, k = (cfg["problem"][x] for x in "MNK")
    a = uniform(rng, (m, k), np.float16)
    b = uniform(rng, (k, n), np.float16)
    return [a, b, empty((m, n), "fp16"), m, n, k]


def grid(cfg):
    return (cfg["problem"]["PROGRAMS"], 1, 1)


def reference(cfg, inputs):
    return {"c_ptr": inputs[0].astype(np.float64) @ inputs[1].astype(np.float64)}
