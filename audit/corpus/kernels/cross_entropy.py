"""Cross-entropy loss per row: logsumexp(logits) - logits[target], with its fp32 gradient.

The target's logit is picked with a compare-and-sum over the row (no gather), and the
gradient softmax - onehot is written back over the whole row: the fused loss people train
language models with, at toy vocabulary sizes.
"""

import numpy as np
import triton
import triton.language as tl

from _common import SM80, SM90, config, empty, uniform


@triton.jit
def cross_entropy_kernel(logits_ptr, target_ptr, loss_ptr, grad_ptr, vocab,
                         BLOCK_V: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_V)
    mask = cols < vocab
    logits = tl.load(logits_ptr + row * vocab + cols, mask=mask, other=float("-inf"))
    target = tl.load(target_ptr + row)
    row_max = tl.max(logits, axis=0)
    e = tl.exp(logits - row_max)
    denom = tl.sum(e, axis=0)
    picked = tl.sum(tl.where(cols == target, logits, 0.0), axis=0)
    tl.store(loss_ptr + row, tl.log(denom) + row_max - picked)
    grad = e / denom - tl.where(cols == target, 1.0, 0.0)
    tl.store(grad_ptr + row * vocab + cols, grad, mask=mask)


KERNEL = cross_entropy_kernel
SIG = {"logits_ptr": "*fp32", "target_ptr": "*i64", "loss_ptr": "*fp32", "grad_ptr": "*fp32",
       "vocab": "i32", "BLOCK_V": "constexpr"}


def _cfg(name, target, rows, vocab, block_v, warps):
    return config(name, target, SIG, {"BLOCK_V": block_v}, num_warps=warps, num_stages=1,
                  outputs=["loss_ptr", "grad_ptr"], problem={"n_rows": rows, "vocab": vocab},
                  tolerance={"atol": 1e-5, "rtol": 1e-4})


CONFIGS = [
    _cfg("sm90-w8-8192-v5000", SM90, 4, 5000, 8192, 8),
    _cfg("sm80-w4-1024", SM80, 4, 1024, 1024, 4),
]


def make_inputs(cfg, rng):
    m, v = cfg["problem"]["n_rows"], cfg["problem"]["vocab"]
    logits = uniform(rng, (m, v), np.float32, -5.0, 5.0)
    target = rng.integers(0, v, size=(m,), dtype=np.int64)
    return [logits, target, empty((m,), "fp32"), empty((m, v), "fp32"), v]


def grid(cfg):
    return (cfg["problem"]["n_rows"], 1, 1)


def reference(cfg, inputs):
    logits, target = inputs[0].astype(np.float64), inputs[1]
    row_max = logits.max(axis=1, keepdims=True)
    e = np.exp(logits - row_max)
    denom = e.sum(axis=1, keepdims=True)
    rows = np.arange(len(target))
    loss = np.log(denom[:, 0]) + row_max[:, 0] - logits[rows, target]
    grad = e / denom
    grad[rows, target] -= 1.0
    return {"loss_ptr": loss, "grad_ptr": grad}
