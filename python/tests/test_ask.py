"""f2lay.ask answers every request of the golden vectors (vectors/*.json) as
the `f2lay oracle` command does over its pipe (F2LAY_BIN names the binary;
ctest sets it), with both implementations, and as the vectors expect."""
import glob
import json
import os
import subprocess

import pytest

import f2lay

# The repository, for its data (F2LAY_REPO where the tests run from a copy: wheel_check.py).
ROOT = os.environ.get("F2LAY_REPO", os.path.join(os.path.dirname(__file__), "..", ".."))
FILES = sorted(f for f in glob.glob(os.path.join(ROOT, "vectors", "*.json"))
               if not f.endswith("schema.json"))


def ask_quietly(request, impl):
    try:
        return f2lay.ask(request, impl)
    except f2lay.Error as e:
        return e.response


def includes(got, want):
    """Whether `got` holds every key of `want` with its value (objects recursively)."""
    if not isinstance(want, dict):
        return got == want
    return isinstance(got, dict) and all(k in got and includes(got[k], v) for k, v in want.items())


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_ask_answers_as_the_oracle(path):
    binary = os.environ.get("F2LAY_BIN")
    assert binary, "F2LAY_BIN must name the f2lay binary (ctest sets it)"
    cases = json.load(open(path))["cases"]
    assert len(cases) > 50
    lines = "".join(json.dumps(c["request"]) + "\n" for c in cases)
    for impl in ["opt", "ref"]:
        served = subprocess.run([binary, "oracle", "--impl", impl], input=lines,
                                capture_output=True, text=True)
        piped = [json.loads(line) for line in served.stdout.splitlines()]
        assert len(piped) == len(cases), served.stderr
        for case, theirs in zip(cases, piped):
            mine = ask_quietly(case["request"], impl)
            assert mine == theirs, case["name"]
            assert mine["ok"] == case["expect"]["ok"], case["name"]
            if mine["ok"] and "result" in case["expect"]:
                assert mine["result"] == case["expect"]["result"], case["name"]
            elif mine["ok"]:
                assert includes(mine["result"], case["expect"]["result_includes"]), case["name"]


def test_ask_takes_layout_objects_and_ids():
    a = f2lay.LinearLayout.from_bases([("lane", [[1], [2]])], ["dim0"])
    response = f2lay.ask({"op": "compose", "self": a, "other": f2lay.ref.LinearLayout.identity_1d(4, "dim0", "x"), "id": "q"})
    assert response == {"id": "q", "ok": True, "result": {
        "in_dims": [{"name": "lane", "bases": [[1], [2]]}], "out_dims": [{"name": "x", "size": 4}]}}
