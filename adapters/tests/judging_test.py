#!/usr/bin/env python3
"""How the adapters judge, on made-up answers: Report's exit status and
summary, compare() with a judge over a stand-in oracle, and triton_check's
laws. Every adapter fails on an f2lay bug and only reports the other
project's. Exit 0 when all hold, 1 otherwise."""
import contextlib
import io
import pathlib
import stat
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from oracle_client import ERROR, Report, compare, first_difference, shrink_shape  # noqa: E402

failures = []


def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


def finish(report):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = report.finish()
    return status, out.getvalue()


def test_report():
    r = Report("t", "Peer 1.0", ["a", "b"])
    r.agree("a")
    r.agree("a")
    status, text = finish(r)
    expect("no disagreement: status", status, 0)
    expect("summary", text.splitlines()[0], "t: Peer 1.0: agree: a 2, b 0; f2lay bugs: 0; findings: 0")
    r.finding("b", "Peer is wrong at x = 3")
    status, text = finish(r)
    expect("a finding only: status", status, 0)
    expect("a finding is printed", "FINDING b: Peer is wrong at x = 3" in text, True)
    r.f2lay_bug("a", "f2lay is wrong at x = 1")
    status, text = finish(r)
    expect("an f2lay bug: status", status, 1)
    expect("a bug is printed", "F2LAY BUG a: f2lay is wrong at x = 1" in text, True)
    for k in range(12):
        r.finding("b", f"more {k}")
    _, text = finish(r)
    expect("long lists are cut", "FINDING ... and 3 more" in text, True)


def fake_oracle(folder):
    """An executable answering {"ok": true, "result": request["answer"]}, or
    a refusal where the request has none."""
    path = pathlib.Path(folder) / "fake_f2lay"
    path.write_text(f"""#!{sys.executable}
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print(json.dumps({{"ok": True, "result": r["answer"]}} if "answer" in r else
                     {{"ok": False, "error": "refused"}}))
""")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_compare():
    with tempfile.TemporaryDirectory() as tmp:
        f2lay = fake_oracle(tmp)
        pairs = [("k", {"op": "x", "answer": 1}, 1),            # agree
                 ("k", {"op": "x", "answer": True}, 1),         # true is not 1
                 ("k", {"op": "x"}, ERROR),                      # both refuse
                 ("k", {"op": "x", "answer": 2}, ERROR),         # f2lay answers a refusal
                 ("k", {"op": "peer", "answer": 5}, 6)]          # judged the peer's
        judge = lambda req, want, got: ("peer", "w") if req["op"] == "peer" else None
        report = Report("t", "Peer", ["k"])
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = compare(report, f2lay, pairs, judge)
        expect("compare: status", status, 1)
        expect("compare: agreements", report.agreed["k"], 2)
        expect("compare: f2lay bugs", len(report.bugs), 2)
        expect("compare: findings", len(report.findings), 1)
        report = Report("t", "Peer", ["k"])
        with contextlib.redirect_stdout(io.StringIO()):
            status = compare(report, f2lay, [pairs[4]], judge)
        expect("compare: a finding alone passes", status, 0)


def test_first_difference():
    def lay(reg, lane, size=4):
        return {"in_dims": [{"name": "register", "bases": reg}, {"name": "lane", "bases": lane}],
                "out_dims": [{"name": "dim0", "size": size}]}
    a = lay([[1]], [[2], [0]])
    expect("same", first_difference(a, lay([[1]], [[2], [0]])), None)
    expect("a basis", first_difference(a, lay([[1]], [[2], [3]])), "lane bit 1: peer [0], f2lay [3]")
    expect("a missing bit", first_difference(a, lay([[1]], [[2]])), "lane bit 1: peer [0], f2lay none")
    expect("out dims", first_difference(a, lay([[1]], [[2], [0]], 8)).startswith("out dims:"), True)
    expect("a key", first_difference({"x": 1, "y": 2}, {"x": 1, "y": 3}), "y: peer 2, f2lay 3")
    expect("an item", first_difference([1, 2, 3], [1, 2, 4]), "item 2: peer 3, f2lay 4")
    expect("true is not 1", first_difference(True, 1), "peer true, f2lay 1")


def test_shrink_shape():
    request = {"op": "blocked", "shape": [64, 8]}
    expect("halved while it differs", shrink_shape(request, lambda r: r["shape"][0] >= 16)["shape"], [16, 1])
    expect("kept when nothing smaller differs", shrink_shape(request, lambda r: False), request)


def test_triton_laws():
    try:
        import triton_check as t
    except SystemExit:
        print("judging_test: Triton is not installed; its laws are not tested")
        return
    a = {"in_dims": [{"name": "register", "bases": [[1], [2]]}], "out_dims": [{"name": "dim0", "size": 4}]}
    b = {"in_dims": [{"name": "dim0", "bases": [[2], [1]]}], "out_dims": [{"name": "o", "size": 4}]}
    good = {"in_dims": [{"name": "register", "bases": [[2], [1]]}], "out_dims": [{"name": "o", "size": 4}]}
    bad = {"in_dims": [{"name": "register", "bases": [[2], [3]]}], "out_dims": [{"name": "o", "size": 4}]}
    req = {"op": "compose", "self": a, "other": b}
    expect("Triton breaks compose", t.judge(req, bad, {"ok": True, "result": good})[0], "peer")
    expect("f2lay breaks compose", t.judge(req, good, {"ok": True, "result": bad})[0], "f2lay")
    expect("both keep it: f2lay's convention", t.judge(req, good, {"ok": True, "result": good})[0], "f2lay")
    expect("the witness is the first input", t.law_witness(req, bad), {"register": 2})
    inv = {"op": "invert", "layout": b}
    expect("invert: b is its own inverse", t.law_witness(inv, {"in_dims": [{"name": "o", "bases": [[2], [1]]}],
                                                             "out_dims": [{"name": "dim0", "size": 4}]}), None)
    expect("apply: a wrong value", t.law_witness({"op": "apply", "layout": a, "input": {"register": 3}},
                                                 {"dim0": 2}), {"register": 3})


if __name__ == "__main__":
    test_report()
    test_compare()
    test_first_difference()
    test_shrink_shape()
    test_triton_laws()
    for f in failures:
        print("FAIL", f)
    print(f"judging_test: {'ok' if not failures else f'{len(failures)} failures'}")
    sys.exit(1 if failures else 0)
