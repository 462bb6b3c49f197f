#!/usr/bin/env python3
"""The swizzle optimum measured by ncu: its certificate on the GPU.

usage: optimum_table.py PREDICTIONS.csv NCU.csv [PREDICTIONS.csv NCU.csv ...]

PREDICTIONS.csv is what `f2lay_device_banks --optimum N [WIDTH]` writes:
random pairs of each element width (or of WIDTH), each side stored or loaded on
the optimum (at its own width) and on the paper's construction (§5.4, at Vec's
width), each probe launched once with its warps taking turns (so that finding
F1, device_tests/README.md, adds nothing); NCU.csv is `ncu --csv --page raw`
over that run (row n of one is launch n of the other). Several runs may be
given, a pair of files each.

A side agrees when its launch reads exactly the predicted wavefronts (and,
where ncu was asked for them, instructions).
Prints per width: the sides that agree, and, measured, how often the optimum
costs fewer wavefronts than the paper's construction and by how much.
Exit status 1 when a side disagrees or the optimum measures more than the
construction; 2 on unreadable input.
"""
import csv
import statistics
import sys

from compare_banks import INSTRUCTIONS, WAVEFRONTS, number, read_ncu


def measure(predicted, measured):
    """(case, access) -> (prediction row, ncu wavefronts together, with turns, instructions)."""
    sides = {}
    for p, m in zip(predicted, measured):
        access = p["access"]
        kind = "vector" if p["instruction"] == "vector" else "matrix"
        entry = sides.setdefault((p["case"], access), {"p": p, "0": [], "1": [], "instr": []})
        entry[p["turns"]].append(number(m[WAVEFRONTS[access]]))
        if INSTRUCTIONS[(access, kind)] in m:
            entry["instr"].append(number(m[INSTRUCTIONS[(access, kind)]]))
    return sides


def main(argv):
    if len(argv) < 3 or len(argv) % 2 == 0:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    predicted, measured = [], []
    for pred_path, ncu_path in zip(argv[1::2], argv[2::2]):
        try:
            with open(pred_path, newline="") as f:
                p = list(csv.DictReader(f))
            m = read_ncu(ncu_path)
        except (OSError, ValueError, KeyError) as e:
            print(f"optimum_table: {e}", file=sys.stderr)
            return 2
        if len(p) != len(m):
            print(f"optimum_table: {pred_path}: {len(p)} predicted launches, {ncu_path}: "
                  f"{len(m)} measured", file=sys.stderr)
            return 2
        predicted += p
        measured += m
    sides = measure(predicted, measured)
    # pair name -> memory -> access -> measured wavefronts (turns)
    pairs, failures = {}, []
    for (case, access), e in sides.items():
        p = e["p"]
        want, instrs = int(p["wavefronts"]), int(p["instructions"])
        turns = e["1"][0] if e["1"] else None
        if turns != want or any(i != instrs for i in e["instr"]) or min(e["0"] or [want]) < want:
            failures.append(f"{case} {access}: predicted {want} wavefronts in {instrs} "
                            f"instructions; ncu {e['0']} together, {e['1']} taking turns, "
                            f"instructions {e['instr']}")
        pair, memory, _ = case.split("; ")
        pairs.setdefault(pair, {}).setdefault(memory, {})[access] = turns
    print("| element bytes | pairs | optimum sides = ncu | construction sides = ncu "
          "| optimum < construction (ncu) | share | largest ratio | median ratio where fewer "
          "| wavefronts, all pairs: optimum / construction |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    worse = []
    for w in ("1", "2", "4", "8", "16"):
        names = [n for n in pairs if n.startswith(f"w{w} pair ")]
        full = [n for n in names if all(len(pairs[n].get(m, {})) == 2
                                        for m in ("optimum", "paper construction"))]
        agree = {m: sum(1 for (c, a), e in sides.items() if c.startswith(f"w{w} pair ")
                        and c.split("; ")[1] == m and e["1"] and e["1"][0] == int(e["p"]["wavefronts"]))
                 for m in ("optimum", "paper construction")}
        total = {m: sum(1 for (c, a) in sides if c.startswith(f"w{w} pair ") and c.split("; ")[1] == m)
                 for m in ("optimum", "paper construction")}
        ratios, opt_sum, paper_sum = [], 0, 0
        for n in full:
            o = sum(pairs[n]["optimum"].values())
            c = sum(pairs[n]["paper construction"].values())
            opt_sum, paper_sum = opt_sum + o, paper_sum + c
            if o < c:
                ratios.append(c / o)
            if o > c:
                worse.append(f"{n}: optimum {o} wavefronts, construction {c}")
        share = len(ratios) / len(full) if full else 0
        print(f"| {w} | {len(full)} | {agree['optimum']} of {total['optimum']} "
              f"| {agree['paper construction']} of {total['paper construction']} | {len(ratios)} "
              f"| {share:.0%} | {max(ratios) if ratios else 1:.2f}x "
              f"| {statistics.median(ratios) if ratios else 1:.2f}x "
              f"| {opt_sum} / {paper_sum} ({opt_sum / paper_sum if paper_sum else 1:.2f}) |")
    print(f"\n{len(sides)} sides measured.")
    for line in failures[:30] + worse[:30]:
        print(f"- {line}")
    if failures or worse:
        print(f"\n{len(failures)} sides disagree; the optimum measures more than the construction "
              f"in {len(worse)} pairs.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
