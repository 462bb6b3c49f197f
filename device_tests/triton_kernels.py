#!/usr/bin/env python3
"""Runs Triton 3.9.0's convert_layout kernels on the GPU (the kernels and the manifest
come from adapters/triton_convert_kernels.py, built on a CPU).

usage: triton_kernels.py run DIR          launch every kernel once (cupy), check every element
                                          of its output, write DIR/launched.json (launch order)
       triton_kernels.py report DIR NCU   join the launches with ncu's measurement of that run
                                          (`ncu --csv --page raw -k regex:convert_kernel`) and
                                          print, per element type, how Triton's shared-memory
                                          wavefronts compare with f2lay's optimum; every pair
                                          where Triton's take more is listed (a finding)

Exit status: run, 1 when an output is wrong; report, 0 (findings do not fail); 2 on bad input.
"""
import json
import os
import sys

from compare_banks import WAVEFRONTS, number, read_ncu


def run(folder):
    import cupy
    import numpy
    manifest = json.load(open(os.path.join(folder, "manifest.json")))
    launched, wrong = [], 0
    for case in manifest:
        w = case["element_bytes"]
        elements = case["shape"][0] * case["shape"][1]
        kind = {1: numpy.uint8, 2: numpy.uint16, 4: numpy.uint32}[w]
        src = cupy.asarray(numpy.random.default_rng(1).integers(0, 2 ** (8 * w) - 1, elements,
                                                                 dtype=numpy.uint64).astype(kind))
        dst = cupy.zeros(elements, dtype=kind)
        f = cupy.RawModule(path=os.path.join(folder, case["name"] + ".cubin")).get_function(
            case["kernel"])
        f((1, 1, 1), (32 * case["warps"], 1, 1), (src, dst, numpy.uint64(0), numpy.uint64(0)),
          shared_mem=case["shared_bytes"])
        cupy.cuda.Device().synchronize()
        ok = bool((dst == src).all())
        wrong += not ok
        launched.append({"name": case["name"], "ok": ok})
    json.dump(launched, open(os.path.join(folder, "launched.json"), "w"))
    print(f"{len(launched)} kernels run, {wrong} with a wrong output")
    return 1 if wrong else 0


def report(folder, ncu_path):
    manifest = {c["name"]: c for c in json.load(open(os.path.join(folder, "manifest.json")))}
    launched = json.load(open(os.path.join(folder, "launched.json")))
    measured = read_ncu(ncu_path)
    if len(measured) != len(launched):
        print(f"triton_kernels: {len(launched)} launches, {len(measured)} measured", file=sys.stderr)
        return 2
    rows = {}
    findings = []
    for launch, m in zip(launched, measured):
        c = manifest[launch["name"]]
        triton = number(m[WAVEFRONTS["store"]]) + number(m[WAVEFRONTS["load"]])
        opt = c["optimum"]["wavefronts"]
        r = rows.setdefault(c["dtype"], {"pairs": 0, "more": 0, "equal": 0, "fewer": 0,
                                          "triton": 0, "optimum": 0, "paper": 0, "ratio": 1.0})
        r["pairs"] += 1
        r["triton"] += triton
        r["optimum"] += opt
        r["paper"] += c["paper"]["wavefronts"]
        if triton > opt:
            r["more"] += 1
            r["ratio"] = max(r["ratio"], triton / opt)
            findings.append((triton / opt, c, triton, m))
        elif triton == opt:
            r["equal"] += 1
        else:
            r["fewer"] += 1
    print("| element | pairs | Triton more than the optimum | equal | fewer | largest ratio "
          "| wavefronts in all: Triton / optimum / §5.4 construction |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for dtype, r in rows.items():
        print(f"| {dtype} | {r['pairs']} | {r['more']} | {r['equal']} | {r['fewer']} "
              f"| {r['ratio']:.2f}x | {r['triton']} / {r['optimum']} / {r['paper']} |")
    print()
    for ratio, c, triton, m in sorted(findings, key=lambda f: -f[0]):
        st, ld = number(m[WAVEFRONTS["store"]]), number(m[WAVEFRONTS["load"]])
        o = c["optimum"]
        print(f"- {c['name']}: {c['dtype']} {c['shape']}, {c['warps']} warps, A = blocked "
              f"{c['a']}, B = blocked {c['b']}: Triton {st} + {ld} = {triton} wavefronts; the "
              f"optimum {o['store']['wavefronts']} + {o['load']['wavefronts']} = "
              f"{o['wavefronts']} ({o['store']['vector_bytes']}/{o['load']['vector_bytes']} "
              f"bytes), {ratio:.2f}x")
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "run":
        return run(argv[2])
    if len(argv) == 4 and argv[1] == "report":
        return report(argv[2], argv[3])
    print(__doc__.strip().splitlines()[3], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
