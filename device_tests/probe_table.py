#!/usr/bin/env python3
"""A Markdown table of the bank probe's launches that ncu measured, case by case.

usage: probe_table.py PREDICTIONS.csv NCU.csv [NAME_PART]

For a run measured in part (`ncu --launch-count N`: the golden cases come first
in f2lay_device_banks' launch order, so N = 5 x their number measures just
them), where compare_banks.py wants every launch. Row n of NCU.csv is launch
n of PREDICTIONS.csv, as in compare_banks.py; launches ncu did not measure are
left out. Per case: ncu's instructions, wavefronts and bank conflicts in each
repeat (device_tests/HARDWARE.md#counters; conflicts = wavefronts - ideal, so the
measured ideal is their difference), f2lay's prediction and the value the
golden case states. NAME_PART keeps only the cases whose name holds it.
Judges nothing: RESULTS.md says what each row shows.
"""
import collections
import csv
import sys

from compare_banks import number, read_ncu


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(argv[1], newline="") as f:
        predictions = list(csv.DictReader(f))
    measured = read_ncu(argv[2])
    only = argv[3] if len(argv) > 3 else ""
    rows = collections.OrderedDict()
    for p, m in zip(predictions, measured):
        op = "ld" if p["access"] == "load" else "st"
        conflicts = m.get(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum")
        r = rows.setdefault(p["case"], {"p": p, "wavefronts": [], "conflicts": [], "instructions": set()})
        r["wavefronts"].append(number(m[f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"]))
        r["conflicts"].append(str(number(conflicts)) if conflicts else "-")
        r["instructions"].add(number(m[f"smsp__sass_inst_executed_op_shared_{op}.sum"]))
    print("| case | access | bytes | instructions (ncu) | wavefronts (ncu, each repeat) "
          "| bank conflicts (ncu) | f2lay | stated |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for name, r in rows.items():
        if only not in name:
            continue
        p = r["p"]
        print(f"| {name} | {p['access']} | {p['vector_bytes']} "
              f"| {', '.join(map(str, sorted(r['instructions'])))} | {', '.join(map(str, r['wavefronts']))} "
              f"| {', '.join(r['conflicts'])} | {p['wavefronts']} (ideal {p['ideal']}) | {p['golden']} |")
    print(f"{len(measured)} launches measured of {len(predictions)} predicted", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
