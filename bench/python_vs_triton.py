#!/usr/bin/env python3
"""f2lay.LinearLayout against Triton's binding, op by op, in one run.

The same layouts go through both modules at 16, 24 and 32 bits (in dims
register, lane, warp, block; out dims dim0, dim1; invertible, so that every
op applies). For each op and size, batches of calls alternate between the
two modules (A B A B ...), and the median time per call of each is reported
with the ratio Triton / f2lay. The floor, nanobind's own cost per call, is a
call of an f2lay function that does nothing with a layout argument.

  .venv/bin/python bench/python_vs_triton.py [--rounds 15] [--calls 2000] [--markdown]
"""
import argparse
import random
import statistics
import sys
import time
import os

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python", "tests"))
import layouts  # noqa: E402  (the tests' random layouts)

import f2lay  # noqa: E402
from f2lay import _f2lay  # noqa: E402
from triton._C.libtriton.linear_layout import LinearLayout as TritonLayout  # noqa: E402

IN = ["register", "lane", "warp", "block"]


def ops_for(L, bits, rng_seed):
    """name -> a call taking no arguments, on layouts of `bits` bits."""
    rng = random.Random(rng_seed)
    out_bits = [bits // 2, bits - bits // 2]
    a_args = layouts.layout(rng, layouts.split(rng, bits, 4), out_bits, "invertible",
                            in_names=IN, out_names=["dim0", "dim1"])
    b_args = layouts.layout(rng, out_bits, [bits // 2, bits - bits // 2], "invertible",
                            in_names=["dim0", "dim1"], out_names=["x", "y"])
    c_args = layouts.layout(rng, [3, 2], [2, 3], "invertible", in_names=["p", "q"],
                            out_names=["u", "v"])
    a, b, c = (L.from_bases(*args) for args in (a_args, b_args, c_args))
    a2 = L.from_bases(*layouts.layout(rng, layouts.split(rng, bits, 4), out_bits, "invertible",
                                      in_names=IN, out_names=["dim0", "dim1"]))
    x = {n: rng.randrange(1 << len(v)) for n, v in a_args[0]}
    return {
        "invert_and_compose": lambda: a.invert_and_compose(a2),
        "pseudoinvert": lambda: a.pseudoinvert(),
        "invert": lambda: a.invert(),
        "compose": lambda: a.compose(b),
        "*": lambda: a * c,
        "from_bases": lambda: L.from_bases(*a_args),
        "apply": lambda: a.apply(x),
        "get_matrix_view": lambda: a.get_matrix_view(),
        "is_injective": lambda: a.is_injective(),
        "is_surjective": lambda: a.is_surjective(),
        "is_invertible": lambda: a.is_invertible(),
        "==": lambda: a == a2,
        "bases": lambda: a.bases,
        "out_dims": lambda: a.out_dims,
        "get_in_dim_names": lambda: a.get_in_dim_names(),
        "num_in_dims": lambda: a.num_in_dims,
    }


def per_call(fn, calls):
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    empty = f2lay.LinearLayout()
    floor = statistics.median(per_call(lambda: _f2lay.call_floor(empty), args.calls)
                              for _ in range(args.rounds))
    rows = []
    for bits in [16, 24, 32]:
        mine, theirs = ops_for(f2lay.LinearLayout, bits, bits), ops_for(TritonLayout, bits, bits)
        for name in mine:
            # The same answers first (a benchmark of wrong answers is no use).
            m, t = mine[name](), theirs[name]()
            if hasattr(m, "bases"):
                assert (m.bases, m.out_dims) == (t.bases, t.out_dims), name
            else:
                assert m == t, name
            times = {"f2lay": [], "triton": []}
            for _ in range(args.rounds):  # A B A B
                times["triton"].append(per_call(theirs[name], args.calls))
                times["f2lay"].append(per_call(mine[name], args.calls))
            med = {k: statistics.median(v) for k, v in times.items()}
            rows.append((bits, name, med["triton"], med["f2lay"], med["triton"] / med["f2lay"]))
    if args.markdown:
        print(f"nanobind's floor (an f2lay call doing nothing with a layout): {floor:.3f} µs\n")
        print("| bits | op | Triton 3.9.0 (µs) | f2lay (µs) | Triton / f2lay |")
        print("|---:|---|---:|---:|---:|")
        for bits, name, t, m, r in rows:
            print(f"| {bits} | `{name}` | {t:.3f} | {m:.3f} | {r:.1f}x |")
    else:
        print(f"floor {floor:.3f} us")
        for bits, name, t, m, r in rows:
            print(f"{bits:3d} {name:20s} triton {t:9.3f} us  f2lay {m:8.3f} us  {r:7.1f}x")


if __name__ == "__main__":
    main()
