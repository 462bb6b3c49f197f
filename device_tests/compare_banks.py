#!/usr/bin/env python3
"""Joins f2lay's bank-conflict predictions with ncu's measurements (bank conflicts on hardware).

usage: compare_banks.py [--unsettled FILE] [--rerun] PREDICTIONS.csv NCU.csv

PREDICTIONS.csv is what f2lay_device_banks writes, one row per probe launch in
launch order; NCU.csv is `ncu --csv --page raw` over the same run, filtered to
the probe kernels (device_tests/run). Row n of one is launch n of the other.
Prints a Markdown report: the 16x32 fp32 one-warp transpose (its cases are named "seed
transpose") against the values of device_tests/HARDWARE.md#seed-transpose (stores 16,
16, 16; reads 256, 32, 16), the golden bank_conflicts cases of oracle/cases against the
values they state, agreement of the predicted wavefronts and instruction counts with ncu
by group, and every disagreement. Instruction counts: op_shared_ld/st for ld/st.shared,
LDSM and STSM for ldmatrix/stmatrix. Disagreements of the kind of finding F1
(device_tests/README.md: a launch of several warps reading more in some repeats, exactly
the prediction in others) are listed apart.

A case of several warps whose instruction counts are exact but which reads
more than the prediction in every repeat is "unsettled": F1 or a model error.
--unsettled FILE writes their probe numbers (the predictions' `probe`
column), one a line, for device_tests/run to launch them again, with the warps
together and with the warps taking turns (f2lay_device_banks's PROBES), and
to judge that run with --rerun: a case is F1 when, with the warps taking
turns, every launch reads exactly the prediction (so each warp's accesses
cost what the rule says), and together never less; else it disagrees.

Exit status: 0 when everything agrees or is F1; 3 when the only failures are
unsettled cases; 1 when any other launch disagrees, a golden
case reads other than its stated value, or the transpose's values are not read; 2 on
unreadable input.
"""
import argparse
import csv
import sys

WAVEFRONTS = {"load": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
              "store": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"}
# ld/st.shared count under op_shared_ld/st, ldmatrix/stmatrix apart (LDSM, STSM).
INSTRUCTIONS = {("load", "vector"): "smsp__sass_inst_executed_op_shared_ld.sum",
                ("store", "vector"): "smsp__sass_inst_executed_op_shared_st.sum",
                ("load", "matrix"): "sm__sass_inst_executed_op_ldsm.sum",
                ("store", "matrix"): "sm__sass_inst_executed_op_shared_stsm.sum"}
# The 16x32 fp32 one-warp transpose's wavefronts by (map, access), as
# device_tests/HARDWARE.md#seed-transpose states them.
SEED = {("32m + n", "store"): 16, ("32m + n", "load"): 256,
        ("32m + (n xor m)", "store"): 16, ("32m + (n xor m)", "load"): 32,
        ("32m + (n xor 2m)", "store"): 16, ("32m + (n xor 2m)", "load"): 16}


def number(text):
    return int(float(text.replace(",", "")))


def read_ncu(path):
    with open(path, newline="") as f:
        lines = [line for line in f if line.startswith('"')]
    rows = list(csv.reader(lines))
    if len(rows) < 2:
        raise ValueError(f"{path}: no ncu rows (was the probe run under ncu --csv --page raw?)")
    header, data = rows[0], rows[1:]
    # The raw page's second row gives units; it has no ID.
    data = [r for r in data if r and r[header.index("ID")].strip().isdigit()]
    return [dict(zip(header, r)) for r in data]


def group(name):
    if name.startswith("golden: "):
        return "golden cases (oracle/cases)"
    if name.startswith("seed transpose"):
        return "seed transpose"
    if name.startswith("random padded"):
        return "random padded layouts (padded_shared, padded byte addresses)"
    if name.startswith("random pair"):
        return "random pairs, " + ("optimum" if "optimum" in name else "random memory layout")
    return "catalog pairs, " + name.split("; ")[-2]  # the memory layout


def is_timing_excess(p, waves, instrs):
    """Finding F1 (device_tests/README.md): a launch of more than one warp at
    times reads a wavefront or two more than the rule gives, in some repeats
    and not in others. Such a case still reads exactly the prediction in at
    least one repeat, never less, and its instruction count is exact; a model
    error would read more in every repeat, or less."""
    want = int(p["wavefronts"])
    return (int(p["warps"]) > 1 and all(i == int(p["instructions"]) for i in instrs)
            and min(waves) == want)


def is_unsettled(p, waves, instrs):
    """Several warps, exact instructions, more than the prediction in every
    repeat: is_timing_excess but for a launch that shows the prediction."""
    return (int(p["warps"]) > 1 and all(i == int(p["instructions"]) for i in instrs)
            and min(waves) > int(p["wavefronts"]))


def judge_rerun(predicted, measured):
    """--rerun: the chosen probes, each launched with the warps together and
    with the warps taking turns. Prints a table; returns the exit status."""
    cases = {}
    for p, m in zip(predicted, measured):
        access = p["access"]
        kind = "vector" if p["instruction"] == "vector" else "matrix"
        entry = cases.setdefault((p["case"], access), (p, {"0": [], "1": []}, []))
        entry[1][p.get("turns", "0")].append(number(m[WAVEFRONTS[access]]))
        entry[2].append(number(m[INSTRUCTIONS[(access, kind)]]))
    print("| case | access | bytes | warps | predicted wavefronts | ncu, warps together "
          "| ncu, warps taking turns | instructions exact | verdict |")
    print("|---|---|---:|---:|---:|---:|---:|---|---|")
    failed = 0
    for (name, access), (p, waves, instrs) in cases.items():
        want = int(p["wavefronts"])
        together, turns = waves["0"], waves["1"]
        exact = all(i == int(p["instructions"]) for i in instrs)
        if exact and turns and all(w == want for w in together + turns):
            verdict = "agrees"
        elif exact and turns and all(w == want for w in turns) and min(together) >= want:
            verdict = "F1 (exact when the warps take turns)"
        else:
            verdict = "DISAGREES"
            failed += 1
        print(f"| {name} | {access} | {p['vector_bytes']} | {p['warps']} | {want} "
              f"| {', '.join(map(str, together))} | {', '.join(map(str, turns))} "
              f"| {'yes' if exact else 'no'} | {verdict} |")
    print(f"\n{len(cases) - failed} of {len(cases)} cases agree or are F1.")
    return 1 if failed else 0


def print_rows(rows):
    print("| case | access | bytes | warps | predicted wavefronts | ncu (each repeat) "
          "| predicted instructions | ncu |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for p, waves, instrs in rows[:50]:
        print(f"| {p['case']} | {p['access']} | {p['vector_bytes']} | {p['warps']} | {p['wavefronts']} "
              f"| {', '.join(map(str, waves))} | {p['instructions']} | {', '.join(map(str, instrs))} |")


class Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"{__doc__.strip().splitlines()[2]}\ncompare_banks: {message}", file=sys.stderr)
        sys.exit(2)


def main(argv):
    parser = Parser(add_help=False)
    parser.add_argument("--unsettled")
    parser.add_argument("--rerun", action="store_true")
    parser.add_argument("predictions")
    parser.add_argument("ncu")
    args = parser.parse_args(argv[1:])
    try:
        with open(args.predictions, newline="") as f:
            predicted = list(csv.DictReader(f))
        measured = read_ncu(args.ncu)
    except (OSError, ValueError, KeyError) as e:
        print(f"compare_banks: {e}", file=sys.stderr)
        return 2
    missing = [c for c in list(WAVEFRONTS.values()) + list(INSTRUCTIONS.values())
               if measured and c not in measured[0]]
    if missing:
        print(f"compare_banks: ncu measured no {', '.join(missing)}", file=sys.stderr)
        return 2
    if len(predicted) != len(measured):
        print(f"compare_banks: {len(predicted)} predictions but {len(measured)} measured launches",
              file=sys.stderr)
        return 2

    if args.rerun:
        return judge_rerun(predicted, measured)
    # One entry per case and access, with ncu's counts from every repeat.
    cases = {}
    for p, m in zip(predicted, measured):
        access = p["access"]
        entry = cases.setdefault((p["case"], access), (p, [], []))
        entry[1].append(number(m[WAVEFRONTS[access]]))
        kind = "vector" if p["instruction"] == "vector" else "matrix"
        entry[2].append(number(m[INSTRUCTIONS[(access, kind)]]))

    groups, disagreements, timing, unsettled = {}, [], [], []
    seed_rows, golden_rows, varying, bad = [], [], 0, False
    for (name, access), (p, waves, instrs) in cases.items():
        want_waves, want_instr = int(p["wavefronts"]), int(p["instructions"])
        waves_ok = all(w == want_waves for w in waves)
        instr_ok = all(i == want_instr for i in instrs)
        varying += len(set(waves)) > 1
        g = groups.setdefault((group(name), access), [0, 0, 0, 0])
        g[0] += 1
        g[1] += waves_ok
        g[2] += min(waves) == want_waves
        g[3] += instr_ok
        if not (waves_ok and instr_ok):
            if is_timing_excess(p, waves, instrs):
                timing.append((p, waves, instrs))
            elif is_unsettled(p, waves, instrs):
                unsettled.append((p, waves, instrs))
            else:
                disagreements.append((p, waves, instrs))
        if p["golden"]:
            golden_rows.append((name[len("golden: "):], access, int(p["golden"]), want_waves, waves))
            bad |= any(w != int(p["golden"]) for w in waves)
        if name.startswith("seed transpose"):
            key = (name.split("offset = ")[1].split(";")[0], access)
            seed_rows.append((key, waves, SEED[key]))
            bad |= any(w != SEED[key] for w in waves)

    print("### The seed transpose (device_tests/HARDWARE.md's values)\n")
    print("| map | access | ncu wavefronts (each repeat) | device_tests/HARDWARE.md |")
    print("|---|---|---:|---:|")
    for (m, access), waves, want in seed_rows:
        print(f"| offset = {m} | {access} | {', '.join(map(str, waves))} | {want} |")
    print("\n### The golden cases of oracle/cases (values stated in the file)\n")
    print("| case | access | the file | f2lay | ncu (each repeat) |")
    print("|---|---|---:|---:|---:|")
    for name, access, stated, want, waves in golden_rows:
        print(f"| {name} | {access} | {stated} | {want} | {', '.join(map(str, waves))} |")
    print("\n### Predicted against ncu, by group\n")
    repeats = len(predicted) // max(1, len(cases))
    print(f"Each case launched {repeats} times; a case agrees when every repeat does. "
          f"Cases whose wavefronts varied between repeats: {varying}.\n")
    print("| cases | access | cases | wavefronts agree in every repeat | in the fewest of its repeats "
          "| instructions agree |")
    print("|---|---|---:|---:|---:|---:|")
    total = [0, 0, 0, 0]
    for (name, access), counts in sorted(groups.items()):
        print(f"| {name} | {access} | " + " | ".join(map(str, counts)) + " |")
        total = [t + c for t, c in zip(total, counts)]
    print("| all | | " + " | ".join(map(str, total)) + " |")
    random = [c for (name, _), c in groups.items() if name.startswith("random")]
    print(f"\nRandom cases: {sum(c[1] for c in random)} of {sum(c[0] for c in random)} agree on "
          f"wavefronts in every repeat, {sum(c[2] for c in random)} in the fewest of their repeats.")
    padded = [c for (name, _), c in groups.items() if name.startswith("random padded")]
    if padded:
        print(f"Padded cases (padded_shared): {sum(c[1] for c in padded)} of {sum(c[0] for c in padded)} "
              f"agree on wavefronts in every repeat, {sum(c[3] for c in padded)} on instructions.")
    if timing:
        print(f"\n### Finding F1: launches of several warps reading more wavefronts in some repeats, "
              f"exactly the prediction in others ({len(timing)} cases)\n")
        print_rows(timing)
    if unsettled:
        print(f"\n### Unsettled: several warps reading more than the prediction in every repeat "
              f"({len(unsettled)} cases; F1 or not, more launches tell)\n")
        print_rows(unsettled)
    if args.unsettled:
        try:
            with open(args.unsettled, "w") as f:
                f.writelines(f"{p['probe']}\n" for p, _, _ in unsettled)
        except (OSError, KeyError) as e:
            print(f"compare_banks: cannot list the unsettled probes: {e}", file=sys.stderr)
            return 2
    if disagreements:
        print("\n### Disagreements\n")
        print_rows(disagreements)
    if disagreements or bad or not seed_rows or not golden_rows:
        return 1
    return 3 if unsettled else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
