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


def whole_range():
    """triton_check for the whole-range tests and their layouts: a 33-bit
    identity (out dims of 30 and 3 bits, in dims of 17 and 16), its inverse,
    the inverse with one basis wrong, and the invert request; None without
    Triton."""
    import json
    try:
        import triton_check as t
    except SystemExit:
        print("judging_test: Triton is not installed; the whole-range mode is not tested")
        return None
    ident = t.layout([("i0", [[1 << k, 0] for k in range(17)]),
                      ("i1", [[1 << k, 0] for k in range(17, 30)] + [[0, 1], [0, 2], [0, 4]])],
                     [("o0", 1 << 30), ("o1", 8)])
    inverse = t.layout([("o0", [[1 << k, 0] for k in range(17)] + [[0, 1 << k] for k in range(13)]),
                        ("o1", [[0, 1 << 13], [0, 1 << 14], [0, 1 << 15]])], [("i0", 1 << 17), ("i1", 1 << 16)])
    swapped = json.loads(json.dumps(inverse))
    swapped["in_dims"][1]["bases"][2] = [0, 1 << 14]
    return t, ident, inverse, swapped, {"op": "invert", "layout": ident}


def test_whole_range_laws():
    """Laws checked on bases, past 32 bits, on made-up answers."""
    if not (w := whole_range()):
        return
    t, ident, inverse, swapped, inv = w
    lay = t.layout
    law = lambda request, answer: str(t.basis_law(request, answer))
    expect("whole: the inverse keeps the law", t.basis_law(inv, inverse), None)
    expect("whole: a wrong basis breaks it", law(inv, swapped)[:7], "law: at")
    i0, i1 = inverse["out_dims"]
    wrapped = {**inverse, "out_dims": [{**i0, "size": -(1 << 31)}, i1]}  # an int32 size that overflowed
    expect("whole: a bad size is a wrong shape", law(inv, wrapped)[:5], "shape")
    zeros32 = {"op": "is_invertible", "layout": lay([("i0", [[0]] * 32)], [("o0", 1)])}
    expect("whole: 32 zero bases are not invertible", law(zeros32, True)[:3], "law")
    expect("whole: ... nor injective", t.basis_law({**zeros32, "op": "is_injective"}, False), None)
    bit32 = lay([("i0", [[0]] * 32 + [[1]])], [("o0", 2)])
    apply = lambda x: {"op": "apply", "layout": bit32, "input": {"i0": x}}
    expect("whole: apply reads bit 0, not bit 32", law(apply(1), {"o0": 1})[:3], "law")
    expect("whole: apply at bit 32", t.basis_law(apply(1 << 32), {"o0": 1}), None)
    view = {"op": "matrix_view", "layout": bit32}
    expect("whole: matrix_view", t.basis_law(view, [[0] * 32 + [1]]), None)
    expect("whole: matrix_view, a column off", law(view, [[1] + [0] * 32])[:3], "law")
    expect("whole: invert solves 66 columns", t.solved_columns(inv), 66)
    expect("whole: a 33-bit answer is within range", t.beyond_range(inv), False)
    big = lay([("i0", [[1 << k, 0] for k in range(30)] + [[0, 1], [0, 2], [0, 4]])],
              [("o0", 1 << 30), ("o1", 8)])
    expect("whole: an answer's out dim of 2^33 is not", t.beyond_range({"op": "invert", "layout": big}), True)
    # invert_and_compose sets aside a dim both layouts map alike, apart from the rest.
    a = lay([("r", [[1]]), ("x", [[2]])], [("o", 4)])
    expect("whole: set aside", t.set_aside(a, lay([("r", [[1]]), ("y", [[2]])], [("o", 4)])), ["r"])
    expect("whole: not when it overlaps", t.set_aside(a, lay([("r", [[1]]), ("y", [[3]])], [("o", 4)])), [])


ABORT = ("abort", "python: LinearLayout.cpp:1113: Assertion `maybeRet && \"outer layout does not cover "
                  "this layout's image\"' failed.")


def test_whole_range_verdicts():
    """Who is wrong, on made-up answers of Triton and f2lay."""
    if not (w := whole_range()):
        return
    t, ident, inverse, swapped, inv = w
    lay = t.layout
    ok = lambda result: {"ok": True, "result": result}
    finding, verdict = t.judge_whole(inv, ABORT, ok(inverse))
    expect("whole: the abort's class", finding, "invert: abort: maybeRet && \"outer layout does not cover "
                                                 "this layout's image\" (over 64 columns to solve)")
    expect("whole: only f2lay keeps the law", verdict, "f2lay only")
    expect("whole: both answer alike", t.judge_whole(inv, ("ok", inverse), ok(inverse)), (None, "agree"))
    expect("whole: f2lay breaks the law", t.judge_whole(inv, ("ok", inverse), ok(swapped))[1][:3], "bug")
    expect("whole: Triton breaks it", t.judge_whole(inv, ("ok", swapped), ok(inverse)),
           ("invert: wrong answer (law) (over 64 columns to solve)", "f2lay only"))
    expect("whole: f2lay refuses what Triton answers",
           t.judge_whole(inv, ("ok", inverse), {"ok": False})[1][:3], "bug")
    expect("whole: both refuse", t.judge_whole(inv, ABORT, {"ok": False}), (finding, "both refuse"))
    expect("whole: not asked", t.judge_whole(inv, ("ok", inverse), None), (None, "not asked"))
    half = lay([("a", [])], [("x", 1 << 20)])
    wide = {"op": "product", "self": half, "other": half}  # an out dim of 2^40
    expect("whole: a refusal beyond range is no finding", t.judge_whole(wide, ("abort", "x"), None)[0], None)
    # invert_and_compose may pick any lawful answer; compose has one.
    c = {"op": "invert_and_compose", "self": lay([("x", [[1]])], [("o", 2)]),
         "other": lay([("y", [[1], [1]])], [("o", 2)])}
    first, second = lay([("x", [[1]])], [("y", 4)]), lay([("x", [[2]])], [("y", 4)])
    expect("whole: by law", t.judge_whole(c, ("ok", first), ok(second)), (None, "by law"))
    comp = {"op": "compose", "self": lay([("x", [[1]])], [("y", 2)]), "other": lay([("y", [[1]])], [("o", 2)])}
    expect("whole: compose has one answer", t.judge_whole(comp, ("ok", lay([("x", [[1]])], [("o", 2)])),
                                                          ok(lay([("x", [[1]])], [("o", 4)])))[1][:3], "bug")


def test_whole_range_report():
    """The summary, classes with their smallest witness, the exit status, and
    Triton asked in forked children."""
    if not (w := whole_range()):
        return
    t, ident, inverse, swapped, inv = w
    i0, i1 = (d["bases"] for d in ident["in_dims"])
    larger = {"op": "invert",
              "layout": t.layout([("i0", i0), ("i1", i1 + [[0, 8]])], [("o0", 1 << 30), ("o1", 16)])}
    report = t.WholeRangeReport()
    report.add(larger, ABORT, None)
    report.add(inv, ABORT, {"ok": True, "result": inverse})
    report.add(inv, ("ok", inverse), {"ok": True, "result": inverse})
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = report.finish("T", 0)
    expect("whole: findings alone pass", status, 0)
    expect("whole: the summary", out.getvalue().split(": ", 2)[2][:34], "T, 0 s: 3 valid requests (+0 whose")
    expect("whole: a class and its count", "over 64 columns to solve): 2 cases" in out.getvalue(), True)
    expect("whole: its smallest witness", [e[1] for e in report.classes.values()], [inv])
    report.add(inv, ("ok", inverse), {"ok": True, "result": swapped})
    with contextlib.redirect_stdout(io.StringIO()):
        expect("whole: an f2lay bug fails", report.finish("T", 0), 1)
    # The abort ends one child; the next goes on from the request after it.
    singular = t.layout([("x", [[0]])], [("o", 2)])
    outcomes = t.triton_outcomes([{"op": "is_injective", "layout": singular},
                                  {"op": "invert", "layout": singular},
                                  {"op": "invert", "layout": t.layout([("x", [[1]])], [("o", 2)])}])
    expect("whole: outcomes", [o[0] for o in outcomes], ["ok", "abort", "ok"])
    expect("whole: the abort's message", "isInvertible()" in outcomes[1][1], True)

if __name__ == "__main__":
    test_report()
    test_compare()
    test_first_difference()
    test_shrink_shape()
    test_triton_laws()
    test_whole_range_laws()
    test_whole_range_verdicts()
    test_whole_range_report()
    for f in failures:
        print("FAIL", f)
    print(f"judging_test: {'ok' if not failures else f'{len(failures)} failures'}")
    sys.exit(1 if failures else 0)
