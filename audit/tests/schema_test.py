"""Every corpus kernel's `f2lay audit --json` report validates against
vectors/audit.schema.json (with the launch arguments measured-h100.json
records, so loop counts are read too), and a report with a key removed, a
wrong kind or an unknown key does not.

A pytest module (the root conftest.py): --f2lay names the command; it skips
where jsonschema is not installed (scripts/setup puts it into .venv).
"""
import copy
import json
import pathlib
import subprocess

import pytest

jsonschema = pytest.importorskip("jsonschema", reason="no jsonschema (scripts/setup installs it)")

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "audit" / "corpus"


@pytest.fixture(scope="module")
def validator():
    schema = json.loads((ROOT / "vectors" / "audit.schema.json").read_text())
    return jsonschema.Draft202012Validator(schema)


def report(f2lay, path):
    """`f2lay audit --json` of one corpus kernel, with its measured launch's arguments."""
    measured = json.loads((CORPUS / "measured-h100.json").read_text())
    arguments = {k["name"]: k["arguments"] for k in measured["kernels"]}
    command = [f2lay, "audit", "--json", str(path)]
    for name, value in arguments.get(path.stem, {}).items():
        command += ["--arg", f"{name}={value}"]
    return json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


KERNELS = sorted((CORPUS / "ttgir").glob("*.ttgir"))


@pytest.mark.parametrize("path", KERNELS, ids=[p.stem for p in KERNELS])
def test_corpus_report_validates(f2lay, validator, path):
    errors = [f"{e.json_path}: {e.message[:300]}" for e in validator.iter_errors(report(f2lay, path))]
    assert not errors, "\n".join(errors)


def planted(good):
    """A valid report with one mistake each: (what, report)."""
    no_cta = copy.deepcopy(good)
    del no_cta["cta"]
    unknown_kind = copy.deepcopy(good)
    unknown_kind["ops"][0]["kind"] = "teleport"
    unknown_key = copy.deepcopy(good)
    unknown_key["ops"][0]["surprise"] = 1
    return [("no cta", no_cta), ("an unknown kind", unknown_kind), ("an unknown key", unknown_key)]


def test_schema_catches_planted_mistakes(f2lay, validator):
    good = report(f2lay, KERNELS[-1])
    assert validator.is_valid(good)
    validates = [what for what, bad in planted(good) if validator.is_valid(bad)]
    assert not validates, f"reports with {validates} validate"
