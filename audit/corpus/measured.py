#!/usr/bin/env python3
"""The corpus's kernels as an H100 ran them, against what `f2lay audit` predicts.

usage: measured.py record MEASURED.json MANIFEST.json --gpu TEXT --date DAY [--triton 3.6]
           writes measured-h100.json here (measured-h100-triton3.6.json for the kernels
           Triton 3.6.0 compiled, whose TTGIR is in ttgir-3.6/) from
           device_tests/audit_kernels.py's run
           (its report's measured.json and its build's manifest.json): per kernel the
           grid, ncu's counts and the integer arguments of the launch
       measured.py sources SOURCES.json [--manifest MANIFEST.json] [--triton 3.6]
           adds to each kernel of measured-h100.json (or the 3.6 file) the wavefronts
           ncu counted per SASS instruction (device_tests/audit_kernels.py sources),
           summed by class: loads, stores, cp.async, wgmma operands; these repeat
           exactly from run to run where the raw counters do not, so compare uses them.
           With the build's manifest (its cubins' TTGIR line tables), also the ld/st.shared
           and ldmatrix/stmatrix wavefronts per TTGIR line, which compare checks op by op
       measured.py compare F2LAY [--check] [--triton 3.6]
           audits each measured kernel with its launch's arguments and prints, per kernel,
           the shared-memory wavefronts predicted for Triton's code (one CTA times the
           programs), ncu's count (loads + stores), the optimum (each convert_layout at
           its optimal swizzle, the rest as Triton has it) and the gain; a kernel with an
           op f2lay does not model yet shows what is missing instead

--check exits 1 when a kernel f2lay models completely is predicted other than measured,
as a whole or on one TTGIR op where the line tables allow,
and measured-h100.json does not list it ("explained", with the reason, or "open", the
differences not understood yet), or when a listed kernel is now predicted exactly (the
list is kept current), so ctest holds the predictions to the hardware. Exit 2 on bad
arguments or files.
"""
import argparse
import json
import math
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
# Per Triton release: the measurements and the TTGIR it compiled.
DATA = {"3.9": HERE / "measured-h100.json", "3.6": HERE / "measured-h100-triton3.6.json"}
TTGIR = {"3.9": HERE / "ttgir", "3.6": HERE / "ttgir-3.6"}


def integer_arguments(name):
    """The integer scalars a launch of the entry passes (make_inputs, seed 0)."""
    import numpy as np
    sys.path.insert(0, str(HERE))
    import compile as corpus  # noqa: E402  (audit/corpus/compile.py)
    for entry, module, cfg in corpus.corpus_entries():
        if entry != name:
            continue
        sig = cfg["signature"]
        runtime = [n for n in sig if sig[n] != "constexpr"]
        inputs = module.make_inputs(cfg, np.random.default_rng(0))
        return {n: int(v) for n, v in zip(runtime, inputs)
                if sig[n].startswith(("i", "u")) and np.ndim(v) == 0}
    raise SystemExit(f"measured.py: no corpus entry {name}")


def record(args):
    measured = json.load(open(args.measured))
    manifest = json.load(open(args.manifest))
    grids = {e["name"]: e["grid"] for e in manifest["entries"]}
    kernels = []
    for m in measured:
        if not m.get("measured") or not m.get("ok"):
            continue
        kernels.append({"name": m["name"], "grid": grids[m["name"]],
                        "arguments": integer_arguments(m["name"]),
                        "load_wavefronts": m["shared_load_wavefronts"],
                        "store_wavefronts": m["shared_store_wavefronts"],
                        "ld_shared": m["ld_shared_instructions"],
                        "st_shared": m["st_shared_instructions"],
                        "ldmatrix": m["ldmatrix_instructions"],
                        "stmatrix": m["stmatrix_instructions"],
                        "cp_async": m["cp_async_instructions"]})
    path = DATA[args.triton]
    old = json.load(open(path)) if path.exists() else {}
    data = {"gpu": args.gpu, "date": args.date, "triton": args.triton + ".0",
            "how": "device_tests/audit_run.sh: each kernel once under ncu, counts summed over "
                   "the grid's CTAs",
            "explained": old.get("explained", {}), "open": old.get("open", {}), "kernels": kernels}
    path.write_text(json.dumps(data, indent=1) + "\n")
    print(f"measured.py: {len(kernels)} kernels recorded in {path.relative_to(ROOT)}")
    return 0


def audit(f2lay, kernel, triton, program=None):
    """f2lay audit's report of one CTA of the launch (any CTA without a program id)."""
    command = [f2lay, "audit", "--json", "--triton", triton,
               str(TTGIR[triton] / f"{kernel['name']}.ttgir"),
               "--grid", ",".join(map(str, kernel["grid"]))]
    for name, value in kernel["arguments"].items():
        command += ["--arg", f"{name}={value}"]
    if program is not None:
        command += ["--program", ",".join(map(str, program))]
    return json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def line_of(sass_lines, offset):
    """The TTGIR line of the SASS instruction at a byte offset ([[offset, line], ...]
    ascending, each line holding up to the next offset), or None."""
    line = None
    for start, at in sass_lines:
        if start > offset:
            break
        line = at
    return line


def add_sources(args):
    path = DATA[args.triton]
    data = json.load(open(path))
    by_name = {m["name"]: m for m in json.load(open(args.sources))}
    lines = {}
    if args.manifest:  # a build of the same code whose cubins carry TTGIR line tables
        lines = {e["name"]: e["sass_lines"] for e in json.load(open(args.manifest))["entries"]
                 if e.get("sass_lines")}
    missing = [k["name"] for k in data["kernels"] if k["name"] not in by_name]
    if missing:
        raise SystemExit(f"measured.py: {args.sources} lacks {', '.join(missing)}")
    for kernel in data["kernels"]:
        m = by_name[kernel["name"]]
        kernel["by_instruction"] = {c: m[c] for c in
                                    ("load", "store", "cp_async", "mma_operands", "other")}
        kernel.pop("by_line", None)
        if kernel["name"] in lines:  # ld/st.shared and ldmatrix/stmatrix, per TTGIR line
            by_line = {}
            for i in m["instructions"]:
                opcode = [w for w in i["sass"].split() if not w.startswith("@")][0]
                if not opcode.startswith(("LDS", "STS")):  # LDS, LDSM, STS, STSM
                    continue
                line = str(line_of(lines[kernel["name"]], i["offset"]))
                by_line[line] = by_line.get(line, 0) + i["wavefronts"]
            kernel["by_line"] = by_line
    path.write_text(json.dumps(data, indent=1) + "\n")
    print(f"measured.py: per-instruction counts of {len(data['kernels'])} kernels added to "
          f"{path.relative_to(ROOT)}")
    return 0


def measured_wavefronts(kernel):
    """The kernel's ld/st.shared and ldmatrix/stmatrix wavefronts: counted per SASS
    instruction where recorded (exact), else the raw counters'."""
    if "by_instruction" in kernel:
        return kernel["by_instruction"]["load"] + kernel["by_instruction"]["store"]
    return kernel["load_wavefronts"] + kernel["store_wavefronts"]


def predict(f2lay, kernel, triton):
    """(predicted, optimum, per TTGIR line) wavefronts of the whole grid, or (None, what is
    missing, None).
    Where loop counts depend on the program id (a causal attention's blocks), each CTA
    is audited with its own and the CTAs are summed."""
    reports = [audit(f2lay, kernel, triton)]
    if reports[0]["cta"]["wavefronts"] is None and any(
            "unknown number of times" in why for why in reports[0]["cta"]["missing"]):
        gx, gy, gz = kernel["grid"]
        reports = [audit(f2lay, kernel, triton, (x, y, z))
                   for z in range(gz) for y in range(gy) for x in range(gx)]
    else:
        reports *= math.prod(kernel["grid"])
    predicted = optimum = 0
    by_line = {}
    for report in reports:
        cta = report["cta"]
        if cta["wavefronts"] is None:
            return None, cta["missing"], None
        predicted += cta["wavefronts"]
        optimum += cta["wavefronts"]
        for op in report["ops"]:
            wavefronts = op.get("triton", {}).get("wavefronts")
            if wavefronts is not None:
                line = str(op["ttgir_line"])
                by_line[line] = by_line.get(line, 0) + wavefronts * op["executions"]
            if "optimum" in op and wavefronts is not None:
                optimum -= (wavefronts - op["optimum"]["wavefronts"]) * op["executions"]
    return predicted, optimum, by_line


def credit_to_ops(measured, modelled):
    """Measured wavefronts per TTGIR line, those on a line without a modelled op credited
    to the closest modelled op above it: LLVM gives a shared load sunk to its user (a
    convert's ld.shared beside the tt.store of the next line) the user's line."""
    ops = sorted(int(line) for line in modelled)
    out = {}
    for line, wavefronts in measured.items():
        above = [op for op in ops if op <= int(line)]
        key = str(above[-1]) if above else line
        out[key] = out.get(key, 0) + wavefronts
    return out


def compare(args):
    data = json.load(open(DATA[args.triton]))
    explained = data.get("explained", {})
    still_open = data.get("open", {})
    rows, missing, wrong = [], [], []
    per_op = {"kernels": 0, "ops": 0, "differ": []}
    for kernel in data["kernels"]:
        measured = measured_wavefronts(kernel)
        predicted, optimum, by_line = predict(args.f2lay, kernel, args.triton)
        if predicted is None:
            missing.append((kernel["name"], measured, optimum))
            continue
        if "by_line" in kernel:  # each op against the SASS its TTGIR line became
            per_op["kernels"] += 1
            measured_by_op = credit_to_ops(kernel["by_line"], by_line)
            for line in sorted(set(by_line) | set(measured_by_op), key=int):
                per_op["ops"] += 1
                p, m = by_line.get(line, 0), measured_by_op.get(line, 0)
                if p != m:
                    per_op["differ"].append((kernel["name"], line, p, m))
                    if kernel["name"] not in explained and kernel["name"] not in still_open:
                        wrong.append(f"{kernel['name']} (TTGIR line {line})")
        gain = predicted / optimum if optimum else 1.0
        rows.append((kernel["name"], predicted, measured, optimum, gain))
        listed = kernel["name"] in explained or kernel["name"] in still_open
        if (predicted != measured) != listed:
            wrong.append(kernel["name"])  # an unlisted difference, or a stale listing
    print(f"| kernel | predicted | measured ({data['gpu']}, ncu) | optimum | gain |")
    print("|---|---:|---:|---:|---:|")
    for name, p, m, o, g in sorted(rows, key=lambda r: -r[4]):
        mark = "" if p == m else (" (explained)" if name in explained else
                                  " (open)" if name in still_open else " **differs**")
        print(f"| {name} | {p} | {m}{mark} | {o} | {g:.2f}x |")
    print(f"\n{len(rows)} kernels modelled completely: {sum(r[1] == r[2] for r in rows)} predicted "
          f"exactly, {len(rows) - sum(r[1] == r[2] for r in rows)} differ ({len(explained)} "
          f"explained, {len(still_open)} open, listed below); {len(missing)} not yet (first "
          f"reason each):")
    for name, measured, why in missing:
        print(f"- {name} (measured {measured}): {why[0]}")
    if per_op["kernels"]:
        print(f"\nPer TTGIR op (the SASS each line became, from the cubins' line tables): "
              f"{per_op['kernels']} kernels, {per_op['ops']} op lines, "
              f"{per_op['ops'] - len(per_op['differ'])} as predicted; differing:")
        for name, line, p, m in per_op["differ"]:
            print(f"- {name}, TTGIR line {line}: predicted {p}, measured {m}")
    for name, reason in explained.items():
        print(f"- explained, {name}: {reason}")
    for name, reason in still_open.items():
        print(f"- open, {name}: {reason}")
    for name in wrong:
        print(f"measured.py: {name}: predicted other than measured and not listed, or listed "
              f"in measured-h100.json but now predicted exactly", file=sys.stderr)
    return 1 if args.check and wrong else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record")
    r.add_argument("measured")
    r.add_argument("manifest")
    r.add_argument("--gpu", required=True)
    r.add_argument("--date", required=True)
    r.add_argument("--triton", choices=sorted(DATA), default="3.9")
    so = sub.add_parser("sources")
    so.add_argument("sources")
    so.add_argument("--manifest", help="audit_kernels.py build's manifest.json with the cubins' "
                    "TTGIR line tables (sass_lines): adds the wavefronts per TTGIR line")
    so.add_argument("--triton", choices=sorted(DATA), default="3.9")
    c = sub.add_parser("compare")
    c.add_argument("f2lay")
    c.add_argument("--check", action="store_true")
    c.add_argument("--triton", choices=sorted(DATA), default="3.9")
    args = p.parse_args()
    if args.command == "sources":
        return add_sources(args)
    return record(args) if args.command == "record" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
