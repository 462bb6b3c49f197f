#!/usr/bin/env python3
"""Requests per second of `f2lay oracle` on compose requests at 32 bits.

    python3 bench/oracle_throughput.py BINARY [BINARY_B] [-n 20000] [--runs 5]

Writes N compose requests (random layouts from a fixed seed) to a file first,
so that generating them is not timed, then feeds the file to `BINARY oracle`
through a pipe, as a client would, and reads every response line back through
a pipe. Each request is

    self:  register, lane, warp, block (8 input bits each) -> dim0, dim1 (16 bits each)
    other: dim0, dim1 (16 input bits each)                  -> dim0, dim1 (16 bits each)

with random bases, so that every request is answered with a 32-bit layout.

Prints, per binary, the median over the runs of requests/s (wall clock) and
of the µs per request, wall clock and the child's CPU time (user + system).
With two binaries the runs alternate A B A B ..., so that a change in the
machine's load falls on both; their outputs must be byte for byte equal (a
speed-up must not change an answer), and the script fails if they differ.
Python 3 standard library only.
"""

import argparse
import hashlib
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time

IN_DIMS = ["register", "lane", "warp", "block"]
OUT_DIMS = ["dim0", "dim1"]
OUT_BITS = 16  # per out dim: 32 output bits in all


def random_layout(rng, in_dims, in_bits):
    """A layout of in_bits input bits per in dim into dim0, dim1 of OUT_BITS each."""
    return {
        "in_dims": [
            {"name": name,
             "bases": [[rng.getrandbits(OUT_BITS) for _ in OUT_DIMS] for _ in range(in_bits)]}
            for name in in_dims
        ],
        "out_dims": [{"name": name, "size": 1 << OUT_BITS} for name in OUT_DIMS],
    }


def write_requests(path, count, seed):
    rng = random.Random(seed)
    with open(path, "w") as f:
        for i in range(count):
            request = {
                "op": "compose",
                "self": random_layout(rng, IN_DIMS, 8),
                "other": random_layout(rng, OUT_DIMS, OUT_BITS),
                "id": i,
            }
            f.write(json.dumps(request, separators=(",", ":")) + "\n")


def run_once(binary, requests, count):
    """Feeds the request bytes through a pipe; returns (wall s, CPU s, output digest)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen([binary, "oracle"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def feed():
        proc.stdin.write(requests)
        proc.stdin.close()

    writer = threading.Thread(target=feed)
    writer.start()
    digest = hashlib.sha256()
    lines = 0
    while True:
        chunk = proc.stdout.read1(1 << 16)
        if not chunk:
            break
        digest.update(chunk)
        lines += chunk.count(b"\n")
    writer.join()
    status = proc.wait()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if status != 0:
        sys.exit(f"{binary} oracle exited with {status} (a request failed?)")
    if lines != count:
        sys.exit(f"{binary} oracle answered {lines} lines for {count} requests")
    return wall, cpu, digest.hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binaries", nargs="+", metavar="BINARY", help="f2lay binaries (1 or 2)")
    parser.add_argument("-n", "--requests", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5, help="runs per binary (median taken)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if len(args.binaries) > 2:
        parser.error("give one or two binaries")

    with tempfile.TemporaryDirectory(prefix="f2lay_oracle_bench.") as tmp:
        path = os.path.join(tmp, "requests.jsonl")
        write_requests(path, args.requests, args.seed)
        with open(path, "rb") as f:
            requests = f.read()
    print(f"{args.requests} compose requests at 32 bits, {len(requests) / args.requests:.0f} "
          f"bytes each, seed {args.seed}; {args.runs} runs per binary"
          + (", interleaved A B A B" if len(args.binaries) == 2 else ""))

    results = {b: [] for b in args.binaries}
    for _ in range(args.runs):
        for binary in args.binaries:
            results[binary].append(run_once(binary, requests, args.requests))

    digests = set()
    for label, binary in zip("AB", args.binaries):
        runs = results[binary]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        digests.update(r[2] for r in runs)
        print(f"{label} {binary}: {args.requests / wall:,.0f} requests/s, "
              f"{wall / args.requests * 1e6:.1f} µs/request wall, "
              f"{cpu / args.requests * 1e6:.1f} µs/request CPU "
              f"(median of {len(runs)}; wall runs {', '.join(f'{r[0]:.2f}' for r in runs)} s)")
    if len(digests) != 1:
        sys.exit("the outputs differ between runs or binaries")
    print("outputs identical across runs" + (" and binaries" if len(args.binaries) == 2 else ""))


if __name__ == "__main__":
    main()
