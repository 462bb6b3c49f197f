#!/usr/bin/env python3
"""Run every corpus entry in Triton's CPU interpreter and compare with its reference.

    .venv/bin/python audit/corpus/interpret.py [--only NAME...]

No GPU needed: TRITON_INTERPRET=1 executes the kernel's Python on numpy, one program of the
grid at a time. This checks each kernel file's make_inputs / grid / reference against the
kernel itself, so that a later run on a GPU fails only where the compiled code does (the
interpreter ignores layouts, num_warps and targets: it is a check of the data, not of the
TTGIR). Exit status: 0 all agree, 1 a mismatch or an error, 2 bad arguments.
"""

import os
import sys
import time

os.environ["TRITON_INTERPRET"] = "1"  # before triton is imported and kernels are decorated

import numpy as np  # noqa: E402

import compile as corpus  # noqa: E402  (audit/corpus/compile.py: the loader and selection)


class HostTensor:
    """Just enough of torch.Tensor for Triton's interpreter to work on a numpy array in
    place: a data pointer and a Triton element type (bf16 and fp8 arrays hold bits)."""

    def __init__(self, array, dtype):
        self.array, self.dtype = array, dtype

    def data_ptr(self):
        return self.array.ctypes.data

    # The interpreter copies "device" tensors to "host" storage and back; here they are the
    # same memory, so storage is the tensor itself and the copies do nothing.
    def untyped_storage(self):
        return self

    def cpu(self):
        return self

    def new_empty(self, *args, **kwargs):
        return HostTensor(None, self.dtype)

    def set_(self, storage, offset, size, stride):
        self.array = storage.array
        return self

    def storage_offset(self):
        return 0

    def size(self):
        return self.array.shape

    def stride(self):
        return self.array.strides

    def copy_(self, other):
        pass


def patch_bf16_dot():
    """Triton 3.9.0's interpreter multiplies bf16 operands of tl.dot as their uint16 bits;
    widen them to fp32 first (exact: every bf16 value is an fp32 value)."""
    import triton.language as tl
    from triton.runtime import interpreter

    builder = interpreter.InterpreterBuilder
    original = builder.create_dot

    def widen(handle):
        if handle.dtype.scalar != tl.bfloat16:
            return handle
        bits = handle.data.astype(np.uint32) << 16
        return interpreter.TensorHandle(bits.view(np.float32), tl.float32)

    def create_dot(self, a, b, d, input_precision, max_num_imprecise_acc):
        return original(self, widen(a), widen(b), d, input_precision, max_num_imprecise_acc)

    builder.create_dot = create_dot


def patch_fp8_rounding():
    """Triton 3.9.0's interpreter rounds fp32 -> e4m3 without carrying a mantissa overflow
    into the exponent (0.49 becomes 0.25, not 0.5); round as the GPU does instead."""
    import triton.language as tl
    from triton.runtime import interpreter
    from _common import encode_nearest

    original = interpreter._convert_float

    def convert(data, input_dtype, output_dtype, rounding_mode):
        if output_dtype == tl.float8e4nv and data.dtype.kind == "f":
            return encode_nearest(data, "e4m3")
        return original(data, input_dtype, output_dtype, rounding_mode)

    interpreter._convert_float = convert


def run_entry(module, cfg):
    """Problems found running one config in the interpreter (empty: it agrees)."""
    import triton.language as tl
    from _common import compare_outputs

    sig = cfg["signature"]
    runtime = [n for n in sig if sig[n] != "constexpr"]
    inputs = module.make_inputs(cfg, np.random.default_rng(0))
    expected = module.reference(cfg, inputs)  # before the run: outputs are written in place
    args = {}
    for name, value in zip(runtime, inputs):
        if sig[name].startswith("*"):
            args[name] = HostTensor(value, tl.str_to_ty(sig[name][1:], None))
        else:
            args[name] = value.item() if hasattr(value, "item") else value
    corpus.kernel_function(module, cfg)[module.grid(cfg)](**args, **cfg["constexprs"])
    return compare_outputs(cfg, dict(zip(runtime, inputs)), expected)


def main(argv=None):
    import argparse
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", nargs="+", metavar="NAME", help="kernels (file stems) or entries")
    args = p.parse_args(argv)
    os.chdir(corpus.REPO)

    def error(message):
        print(f"interpret.py: error: {message}", file=sys.stderr)
        sys.exit(2)

    entries = corpus.select(corpus.corpus_entries(), args.only, error)
    patch_bf16_dot()
    patch_fp8_rounding()
    failed = 0
    started = time.monotonic()
    with np.errstate(all="ignore"):  # exp(-inf - -inf) in masked lanes, as on the GPU
        for name, module, cfg in entries:
            try:
                problems = run_entry(module, cfg)
            except Exception as e:  # noqa: BLE001 - report it and go on with the others
                problems = [f"{type(e).__name__}: {str(e).strip().splitlines()[-1][:300]}"]
            failed += bool(problems)
            print(f"{'ok  ' if not problems else 'FAIL'} {name}" +
                  "".join(f"\n     {p}" for p in problems))
    print(f"{len(entries) - failed} agree, {failed} failed, in {time.monotonic() - started:.1f}s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
