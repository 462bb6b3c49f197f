#!/usr/bin/env python3
"""Validates the golden vectors against schema.json (JSON Schema 2020-12)
and the rules a schema cannot state: the family names the file, and case
names are unique within a file.

Usage: validate.py [DIR]   (default: this folder)
Exit status: 0 valid, 1 a file is invalid (each problem printed), 2 on usage
errors, 77 (ctest's skip) when the jsonschema package is not installed."""
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError as e:
    print(f"validate: jsonschema is not installed ({e}); run scripts/setup", file=sys.stderr)
    sys.exit(77)


def problems(path, validator):
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        return [f"{path.name}: not JSON: {e}"]
    found = [f"{path.name}: {'/'.join(map(str, e.absolute_path))}: {e.message}"
             for e in validator.iter_errors(data)]
    if found:
        return found[:20]
    if data["family"] != path.stem:
        found.append(f"{path.name}: family {data['family']!r} is not the file's name")
    names = [c["name"] for c in data["cases"]]
    found += [f"{path.name}: the case name {n!r} is used twice"
              for n in sorted({n for n in names if names.count(n) > 1})]
    return found


def main():
    if len(sys.argv) > 2 or (len(sys.argv) == 2 and sys.argv[1].startswith("-")):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    folder = pathlib.Path(sys.argv[1] if len(sys.argv) == 2 else pathlib.Path(__file__).parent)
    schema = json.loads((pathlib.Path(__file__).parent / "schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    files = sorted(p for p in folder.glob("*.json") if not p.name.endswith("schema.json"))
    if not files:
        print(f"validate: no vector files in {folder}", file=sys.stderr)
        return 2
    found, cases = [], 0
    for path in files:
        found += problems(path, validator)
        if not found:
            cases += len(json.loads(path.read_text())["cases"])
    for p in found:
        print("INVALID", p)
    print(f"validate: {len(files)} files, {cases} cases: {'valid' if not found else 'INVALID'}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
