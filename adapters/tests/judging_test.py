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

def test_gluon_banks():
    """gluon_banks_check: its wavefront rule against device_tests/HARDWARE.md's
    strided accesses, the 16x32 transpose (#seed-transpose) and Gluon's
    calibration value 7; its verdicts on made-up answers; and a Triton child
    that aborts mid-way."""
    import gluon_banks_check as g
    cost = lambda addresses, nbytes, store=False: g.instruction_cost(addresses, nbytes, store)
    for stride, want in ((1, 1), (2, 2), (4, 4), (8, 8), (16, 16), (32, 32), (33, 1)):
        expect(f"banks: LDS.32 word stride {stride}", cost([4 * stride * l for l in range(32)], 4)[0], want)
    expect("banks: LDS.32 one address", cost([64] * 32, 4), (1, 1))
    for nbytes, strides, wants in ((8, (8, 16, 32, 256), (2, 4, 8, 32)), (16, (16, 32, 64, 128), (4, 8, 16, 32))):
        for stride, want in zip(strides, wants):
            expect(f"banks: LDS.{8 * nbytes} byte stride {stride}", cost([stride * l for l in range(32)], nbytes)[0], want)
            expect(f"banks: STS.{8 * nbytes} byte stride {stride}", cost([stride * l for l in range(32)], nbytes, True)[0], want)
    pairs = [8 * (l // 2) for l in range(32)]  # lanes 2k, 2k+1 read one address
    expect("banks: LDS.64 quad merge fills one phase", cost(pairs, 8), (1, 1))
    expect("banks: STS.64 keeps its two phases", cost(pairs, 8, True), (2, 2))
    expect("banks: LDS.64 lanes 16 apart are not merged", cost([8 * (l % 16) for l in range(32)], 8), (2, 2))
    expect("banks: LDS.128 quad merge, half-warps apart", cost([16 * (l // 2) for l in range(32)], 16), (2, 2))
    expect("banks: STS.128 keeps its four phases", cost([16 * (l // 2) for l in range(32)], 16, True), (4, 4))

    def pair(shape, nbytes, reg, lane, warp, offset):
        flat = lambda bases: [g.from_coords(b, shape) for b in bases]
        return {"family": "t", "shape": shape, "bytes": nbytes, "reg": flat(reg), "lane": flat(lane),
                "warp": flat(warp), "offset": flat(offset)}
    n_bits, m_bits = [[1 << k, 0] for k in range(5)], [[0, 1 << k] for k in range(4)]
    store = pair([32, 16], 4, m_bits, n_bits, [], n_bits + m_bits)
    read = pair([32, 16], 4, n_bits[1:], m_bits + n_bits[:1], [], n_bits + m_bits)
    expect("banks: seed transpose store", g.rule_totals(store, 1, store=True), (16, 16, 16))
    expect("banks: seed transpose read", g.rule_totals(read, 1, store=False), (16, 256, 16))
    swizzled = dict(read, offset=[g.from_coords(b, [32, 16]) for b in n_bits + [[2, 1], [4, 2], [8, 4], [16, 8]]])
    expect("banks: seed read, n xor 2m", g.rule_totals(swizzled, 1, store=False), (16, 16, 16))
    # NVMMA v3 [16,64,16], 4 warps, fp16 64x64, unswizzled row major: Gluon says 7.
    cols, rows = [[0, 1 << k] for k in range(6)], [[1 << k, 0] for k in range(6)]
    mma = pair([64, 64], 2, [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]],
               [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], [[16, 0], [32, 0]], cols + rows)
    expect("banks: NVMMA's vector", g.vector_elements(mma), 2)
    expect("banks: Gluon's calibration value", g.per_phase(g.rule_totals(mma, 2, store=True)), 7)

    rule = (4, 8, 4)  # 1 extra wavefront per phase
    ok = lambda i, w, p: {"ok": True, "result": {"instructions": i, "wavefronts": w, "ideal_wavefronts": p,
                                                 "conflicts": w - p}}
    expect("banks: both keep the rule", g.judge_pair({"conflicts": 1}, ok(4, 8, 4), rule), (None, None))
    expect("banks: f2lay's totals", g.judge_pair({"conflicts": 1}, ok(4, 9, 4), rule)[0] is not None, True)
    expect("banks: f2lay refuses", g.judge_pair({"conflicts": 1}, {"ok": False, "error": "x"}, rule)[0], "refused: x")
    expect("banks: Triton's number", g.judge_pair({"conflicts": 0}, ok(4, 8, 4), rule),
           (None, "0, the rule's 1 extra wavefronts per phase"))
    expect("banks: a fraction is no integer", g.judge_pair({"conflicts": 1}, ok(2, 5, 3), (2, 5, 3))[1] is not None, True)
    expect("banks: an abort", g.judge_pair({"abort": "x"}, ok(4, 8, 4), rule)[1], "the process aborts (x)")
    mixed = dict(mma, reg=mma["reg"][:-1] + [mma["reg"][-1] | 1])
    expect("banks: class G1", g.finding_class(mixed, 2, {"abort": "x"}, "store")[:2], "G1")
    expect("banks: class G2", g.finding_class(mma, 2, {"abort": "in reshapeIns"}, "store")[:2], "G2")
    expect("banks: class G3", g.finding_class(mma, 1, {"conflicts": 0}, "store")[:2], "G3")
    expect("banks: class G4", g.finding_class(mma, 4, {"conflicts": 0}, "load")[:2], "G4")

    # A child that answers, then aborts on a question of shape [3]: the
    # abort is that question's answer and the rest are still asked.
    with tempfile.TemporaryDirectory() as tmp:
        child = pathlib.Path(tmp) / "fake_python"
        child.write_text(f"""#!{sys.executable}
import json, os, sys
print("ready 0.0", flush=True)
for line in sys.stdin:
    if json.loads(line)["shape"] == [3]:
        os.abort()
    print(json.dumps({{"conflicts": 5}}), flush=True)
""")
        child.chmod(child.stat().st_mode | stat.S_IEXEC)
        asked = [dict(mma, shape=s) for s in ([64, 64], [3], [64, 64])]
        asked = [dict(p, reg=[], lane=[], warp=[], offset=[]) for p in asked]
        version, answers = g.ask_triton(str(child), asked, 1)
        expect("banks: the child's version", version, "0.0")
        expect("banks: answers around an abort", [sorted(a) for a in answers], [["conflicts"], ["abort"], ["conflicts"]])


def test_gluon_adapters():
    """gluon_check's Gluon 3.9 bases for amd_wmma's Gluon 3.6 keys, and
    gluon_shared_check's verdict where f2lay refuses a layout of Gluon as a
    Triton bug: made-up layouts, and Gluon 3.9.0's own at [4, 2, 2]."""
    try:
        import gluon_check as gc
        import gluon_shared_check as gs
    except SystemExit:
        print("judging_test: Triton is not installed; the Gluon adapters' judging is not tested")
        return
    expect("wmma: tiles [2, 2], the N repeat before M's tiles",
           gc.gluon36_wmma_bases([2, 2], [2, 2], [128, 128]), ([[0, 2], [2, 0]], [[0, 1], [0, 4], [1, 0]]))
    expect("wmma: rank 3, the batch's tiles ignored", gc.gluon36_wmma_bases([2, 2, 2], [2, 1, 2], [4, 64, 64]),
           ([[0, 0, 2], [0, 1, 0], [1, 0, 0]], [[0, 0, 1]]))
    expect("wmma: no repeat past the shape", gc.gluon36_wmma_bases([1, 2], None, [16, 16]), ([[0, 1]], []))

    def lay(offsets, shape):
        return {"in_dims": [{"name": "offset", "bases": offsets}, {"name": "block", "bases": []}],
                "out_dims": [{"name": f"dim{i}", "size": s} for i, s in enumerate(shape)]}
    expect("shared: a zero offset holds an element twice", gs.holds_elements_twice(lay([[0, 0, 0], [1, 0, 0]], [2, 1, 1])), True)
    expect("shared: dependent offsets do too", gs.holds_elements_twice(lay([[1, 0], [0, 1], [1, 1]], [2, 2])), True)
    expect("shared: a bijection does not", gs.holds_elements_twice(lay([[0, 1], [1, 0], [2, 1]], [4, 2])), False)
    req = {"op": "nvmma_shared", "swizzle_byte_width": 0, "element_bitwidth": 16, "transposed": True, "shape": [2, 2, 2]}
    along = lay([[0, 1, 0], [1, 0, 0], [0, 0, 1]], [2, 2, 2])
    expect("shared: transposed, starting along dim1", gs.misplaces_dim0(req, along), True)
    expect("shared: transposed, starting along dim0", gs.misplaces_dim0(req, lay([[1, 0, 0], [0, 0, 1], [0, 1, 0]], [2, 2, 2])), False)
    expect("shared: not transposed", gs.misplaces_dim0(dict(req, transposed=False), along), False)
    refused = {"ok": False, "error": "nvmma_shared: ... taken for a Triton bug and not reproduced"}
    req = dict(req, shape=[4, 2, 2])
    expect("shared: Gluon's layout there is a finding", gs.judge(None)(req, gs.gluon_answer(req), refused)[0], "peer")


if __name__ == "__main__":
    test_report()
    test_compare()
    test_first_difference()
    test_shrink_shape()
    test_triton_laws()
    test_whole_range_laws()
    test_whole_range_verdicts()
    test_whole_range_report()
    test_gluon_banks()
    test_gluon_adapters()
    for f in failures:
        print("FAIL", f)
    print(f"judging_test: {'ok' if not failures else f'{len(failures)} failures'}")
    sys.exit(1 if failures else 0)
