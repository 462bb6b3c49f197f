"""validate.py must refuse broken vector files: each mutation below of a
real file must give at least one problem naming it, and the file itself none.
Skipped without jsonschema (scripts/setup installs it into .venv)."""
import json
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
# validate.py exits (77, ctest's skip) when imported without jsonschema: the
# skip is pytest's instead.
jsonschema = pytest.importorskip("jsonschema", reason="no jsonschema (scripts/setup installs it)")
sys.path.insert(0, str(HERE))

import validate  # noqa: E402 (after the path it is found on)

REAL = HERE / "algebra.json"


def layout_case(d):
    """The first case that succeeds on a request with a layout."""
    return next(c for c in d["cases"] if c["expect"]["ok"] and "layout" in c["request"])


def negative_basis(d):
    layout = layout_case(d)["request"]["layout"]
    layout["in_dims"][0].update(bases=[[-1] * len(layout["out_dims"])])


# (what, change of the file's data in place)
MUTATIONS = [
    ("wrong format", lambda d: d.update(format="f2lay")),
    ("version 2", lambda d: d.update(version=2)),
    ("a family that is not the file's", lambda d: d.update(family="catalog")),
    ("unknown flag", lambda d: d["cases"][0]["flags"].append("bogus")),
    ("golden and drawn", lambda d: d["cases"][0]["flags"].extend(["golden", "drawn"])),
    ("no provenance", lambda d: d["cases"][0].pop("provenance")),
    ("unknown provenance", lambda d: d["cases"][0]["provenance"].update(kind="folklore")),
    ("bad Triton version", lambda d: d["cases"][0]["provenance"].update(triton="3.6")),
    ("ok with an error",
     lambda d: d["cases"][0]["expect"].update(ok=True, error_contains="x")),
    ("no op", lambda d: d["cases"][0]["request"].pop("op")),
    ("a duplicate name", lambda d: d["cases"][1].update(name=d["cases"][0]["name"])),
    ("a layout without out dims", lambda d: layout_case(d)["request"]["layout"].pop("out_dims")),
    ("a negative basis", negative_basis),
]


@pytest.fixture(scope="module")
def validator():
    return jsonschema.Draft202012Validator(json.loads((HERE / "schema.json").read_text()))


@pytest.fixture
def target(tmp_path):
    """Where the file is written: validate.py checks the family against the
    file's name."""
    return tmp_path / REAL.name


def test_the_real_file_is_accepted(validator, target):
    target.write_text(REAL.read_text())
    assert validate.problems(target, validator) == []


@pytest.mark.parametrize("change", [change for _, change in MUTATIONS],
                         ids=[what for what, _ in MUTATIONS])
def test_a_mutation_is_caught(validator, target, change):
    data = json.loads(REAL.read_text())
    change(data)
    target.write_text(json.dumps(data))
    assert validate.problems(target, validator), "not caught"
