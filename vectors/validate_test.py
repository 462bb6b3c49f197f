#!/usr/bin/env python3
"""validate.py must refuse broken vector files: each mutation below of a
real file must give at least one problem naming it, and the file itself none.
Exit 0 when all hold, 1 otherwise, 77 without jsonschema."""
import copy
import json
import pathlib
import sys
import tempfile

import validate

HERE = pathlib.Path(__file__).parent


def mutations(data):
    """(what, mutated file) pairs."""
    def edit(what, change):
        d = copy.deepcopy(data)
        change(d)
        return what, d
    ok = next(i for i, c in enumerate(data["cases"]) if c["expect"]["ok"] and "layout" in c["request"])
    yield edit("wrong format", lambda d: d.update(format="f2lay"))
    yield edit("version 2", lambda d: d.update(version=2))
    yield edit("a family that is not the file's", lambda d: d.update(family="catalog"))
    yield edit("unknown flag", lambda d: d["cases"][0]["flags"].append("bogus"))
    yield edit("golden and drawn", lambda d: d["cases"][0]["flags"].extend(["golden", "drawn"]))
    yield edit("no provenance", lambda d: d["cases"][0].pop("provenance"))
    yield edit("unknown provenance", lambda d: d["cases"][0]["provenance"].update(kind="folklore"))
    yield edit("bad Triton version", lambda d: d["cases"][0]["provenance"].update(triton="3.6"))
    yield edit("ok with an error", lambda d: d["cases"][0]["expect"].update(ok=True, error_contains="x"))
    yield edit("no op", lambda d: d["cases"][0]["request"].pop("op"))
    yield edit("a duplicate name", lambda d: d["cases"][1].update(name=d["cases"][0]["name"]))
    yield edit("a layout without out dims", lambda d: d["cases"][ok]["request"]["layout"].pop("out_dims"))
    yield edit("a negative basis", lambda d: d["cases"][ok]["request"]["layout"]["in_dims"][0]
               .update(bases=[[-1] * len(d["cases"][ok]["request"]["layout"]["out_dims"])]))


def main():
    validator = validate.jsonschema.Draft202012Validator(
        json.loads((HERE / "schema.json").read_text()))
    path = HERE / "algebra.json"
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        target = pathlib.Path(tmp) / path.name
        target.write_text(path.read_text())
        if validate.problems(target, validator):
            failures.append("the real file is refused")
        data = json.loads(path.read_text())
        for what, mutated in mutations(data):
            target.write_text(json.dumps(mutated))
            if not validate.problems(target, validator):
                failures.append(f"not caught: {what}")
    for f in failures:
        print("FAIL", f)
    print(f"validate_test: {'ok' if not failures else f'{len(failures)} failures'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
