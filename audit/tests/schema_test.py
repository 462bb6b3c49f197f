#!/usr/bin/env python3
"""Every corpus kernel's `f2lay audit --json` report validates against
vectors/audit.schema.json (with the launch arguments measured-h100.json
records, so loop counts are read too), and a report with a key removed, a
wrong kind or an unknown key does not.

usage: schema_test.py F2LAY      (in .venv: jsonschema; exit 77 without it)
"""
import copy
import glob
import json
import pathlib
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    print("schema_test: no jsonschema (scripts/setup installs it into .venv)")
    sys.exit(77)

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main():
    f2lay = sys.argv[1]
    schema = json.load(open(ROOT / "vectors" / "audit.schema.json"))
    validator = jsonschema.Draft202012Validator(schema)
    measured = json.load(open(ROOT / "audit" / "corpus" / "measured-h100.json"))
    arguments = {k["name"]: k["arguments"] for k in measured["kernels"]}
    paths = sorted(glob.glob(str(ROOT / "audit" / "corpus" / "ttgir" / "*.ttgir")))
    bad = 0
    report = None
    for path in paths:
        command = [f2lay, "audit", "--json", path]
        for name, value in arguments.get(pathlib.Path(path).stem, {}).items():
            command += ["--arg", f"{name}={value}"]
        report = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
        for error in validator.iter_errors(report):
            bad += 1
            print(f"schema_test: {path}: {error.json_path}: {error.message[:300]}")
    # The schema can fail: planted mistakes must be caught.
    planted = []
    r = copy.deepcopy(report)
    del r["cta"]
    planted.append(("no cta", r))
    r = copy.deepcopy(report)
    r["ops"][0]["kind"] = "teleport"
    planted.append(("an unknown kind", r))
    r = copy.deepcopy(report)
    r["ops"][0]["surprise"] = 1
    planted.append(("an unknown key", r))
    for what, r in planted:
        if validator.is_valid(r):
            bad += 1
            print(f"schema_test: a report with {what} validates")
    print(f"schema_test: {len(paths)} reports, {len(planted)} planted mistakes: "
          f"{'all as expected' if not bad else f'{bad} problems'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
