#!/usr/bin/env python3
"""Markdown tables of f2lay_bench results: opt against ref and M4RI.

Reads Google Benchmark JSON (f2lay_bench --benchmark_format=json, or the file
of --benchmark_out=FILE) from a file or stdin and prints, for each op and size:
the median time of opt, ref and M4RI (the fastest M4RI variant timed for that
op, named in brackets), and the speedups ref/opt and m4ri/opt (how many times
faster opt is; above 1 means opt wins). Then the throughput of the batched
rows (items/s) and every other variant (opt_portable, m4ri_naive, copy, ...).

Benchmark names are op/impl/bits. Medians are taken over repetitions: from
the "median" aggregates when the file has them, else from the single runs.
CPU time by default (the benchmarks are single-threaded, and CPU time leaves
out time the process spent descheduled); --real uses wall-clock time.

    python3 bench/ratios.py results.json
    build/release/bench/f2lay_bench --benchmark_format=json | python3 bench/ratios.py
"""
import argparse
import json
import statistics
import sys

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
MAIN_IMPLS = ("opt", "ref")


def load(stream, field):
    """{(op, impl, bits): {"ns": median time, "items": median items/s, "label": str}}"""
    data = json.load(stream)
    runs, medians = {}, {}
    for b in data.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        parts = name.split("/")
        if len(parts) != 3 or not parts[2].isdigit():
            continue
        key = (parts[0], parts[1], int(parts[2]))
        ns = b[field] * UNIT_NS[b.get("time_unit", "ns")]
        sample = {"ns": ns, "items": b.get("items_per_second"), "label": b.get("label", "")}
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[key] = sample
        else:
            runs.setdefault(key, []).append(sample)
    result = dict(medians)
    for key, samples in runs.items():
        if key in result:
            continue
        items = [s["items"] for s in samples if s["items"] is not None]
        result[key] = {
            "ns": statistics.median(s["ns"] for s in samples),
            "items": statistics.median(items) if items else None,
            "label": samples[0]["label"],
        }
    return data.get("context", {}), result


def fmt_time(ns):
    if ns is None:
        return "–"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def fmt_ratio(slow, fast):
    if slow is None or fast is None or fast == 0:
        return "–"
    r = slow / fast
    return f"{r:.0f}x" if r >= 100 else f"{r:.3g}x"


def fmt_rate(items):
    if items is None:
        return "–"
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if items >= scale:
            return f"{items / scale:.3g} {unit}/s"
    return f"{items:.3g} /s"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", help="Google Benchmark JSON (default: stdin)")
    parser.add_argument("--real", action="store_true", help="use real_time instead of cpu_time")
    args = parser.parse_args()
    field = "real_time" if args.real else "cpu_time"
    if args.file:
        with open(args.file, encoding="utf-8") as f:
            context, results = load(f, field)
    else:
        context, results = load(sys.stdin, field)
    if not results:
        sys.exit("ratios.py: no op/impl/bits benchmarks in the input")

    ops = []  # first-seen order of ops
    for op, _, _ in results:
        if op not in ops:
            ops.append(op)
    sizes = sorted({bits for _, _, bits in results})

    def get(op, impl, bits):
        return results.get((op, impl, bits))

    def best_m4ri(op, bits):
        found = [(v["ns"], impl) for (o, impl, b), v in results.items()
                 if o == op and b == bits and impl.startswith("m4ri")]
        return min(found) if found else (None, None)

    print(f"Median {field.replace('_', ' ')} per call"
          f" ({context.get('host_name', '?')}, {context.get('num_cpus', '?')} CPUs"
          f" at {context.get('mhz_per_cpu', '?')} MHz). Speedup = other time / opt time.\n")
    print("| op | bits | opt | ref | m4ri | ref/opt | m4ri/opt |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    shown = set()
    for op in ops:
        for bits in sizes:
            opt = get(op, "opt", bits)
            if opt is None:
                continue
            ref = get(op, "ref", bits)
            m4ri_ns, m4ri_impl = best_m4ri(op, bits)
            shown.update({(op, "opt", bits), (op, "ref", bits)})
            m4ri_cell = "–"
            if m4ri_ns is not None:
                shown.add((op, m4ri_impl, bits))
                m4ri_cell = fmt_time(m4ri_ns)
                if m4ri_impl != "m4ri":
                    m4ri_cell += f" ({m4ri_impl.removeprefix('m4ri_')})"
            ref_ns = ref["ns"] if ref else None
            print(f"| {op} | {bits} | {fmt_time(opt['ns'])} | {fmt_time(ref_ns)} | {m4ri_cell}"
                  f" | {fmt_ratio(ref_ns, opt['ns'])} | {fmt_ratio(m4ri_ns, opt['ns'])} |")

    rated = sorted((k for k, v in results.items() if v["items"] is not None),
                   key=lambda k: (ops.index(k[0]), k[1], k[2]))
    if rated:
        print("\nThroughput (inputs per second; label = BatchApply path):\n")
        print("| op | impl | bits | items/s | path |")
        print("|---|---|---:|---:|---|")
        for op, impl, bits in rated:
            v = results[(op, impl, bits)]
            print(f"| {op} | {impl} | {bits} | {fmt_rate(v['items'])} | {v['label'] or '–'} |")

    others = sorted((k for k in results if k not in shown),
                    key=lambda k: (ops.index(k[0]), k[1], k[2]))
    if others:
        print("\nOther variants (vs opt = this time / opt's time for the same op and size):\n")
        print("| op | impl | bits | time | vs opt | label |")
        print("|---|---|---:|---:|---:|---|")
        for op, impl, bits in others:
            v = results[(op, impl, bits)]
            opt = get(op, "opt", bits)
            print(f"| {op} | {impl} | {bits} | {fmt_time(v['ns'])}"
                  f" | {fmt_ratio(v['ns'], opt['ns'] if opt else None)} | {v['label'] or '–'} |")


if __name__ == "__main__":
    main()
