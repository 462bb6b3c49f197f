"""How the adapters judge, on made-up answers (pytest; conftest.py puts the
adapters on the path): Report's verdict and summary, compare() with a judge
over a stand-in oracle, and triton_check's laws. Every adapter fails on an
f2lay bug and only reports the other project's."""
import contextlib
import io
import pathlib
import stat
import sys
import tempfile

import pytest

from oracle_client import ERROR, Report, compare, first_difference, shrink_shape

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
    assert status == 0, "no disagreement: status"
    assert text.splitlines()[0] == "t: Peer 1.0: agree: a 2, b 0; f2lay bugs: 0; findings: 0", "summary"
    r.finding("b", "Peer is wrong at x = 3")
    status, text = finish(r)
    assert status == 0, "a finding only: status"
    assert "FINDING b: Peer is wrong at x = 3" in text, "a finding is printed"
    r.f2lay_bug("a", "f2lay is wrong at x = 1")
    status, text = finish(r)
    assert status == 1, "an f2lay bug: status"
    assert "F2LAY BUG a: f2lay is wrong at x = 1" in text, "a bug is printed"
    for k in range(12):
        r.finding("b", f"more {k}")
    _, text = finish(r)
    assert "FINDING ... and 3 more" in text, "long lists are cut"

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
            compare(report, f2lay, pairs, judge)
        with pytest.raises(AssertionError), contextlib.redirect_stdout(out):
            report.check()
        assert report.agreed["k"] == 2, "compare: agreements"
        assert len(report.bugs) == 2, "compare: f2lay bugs"
        assert len(report.findings) == 1, "compare: findings"
        report = Report("t", "Peer", ["k"])
        with contextlib.redirect_stdout(io.StringIO()):
            compare(report, f2lay, [pairs[4]], judge)
            report.check()  # a finding alone passes

def test_first_difference():
    def lay(reg, lane, size=4):
        return {"in_dims": [{"name": "register", "bases": reg}, {"name": "lane", "bases": lane}],
                "out_dims": [{"name": "dim0", "size": size}]}
    a = lay([[1]], [[2], [0]])
    assert first_difference(a, lay([[1]], [[2], [0]])) is None, "same"
    assert first_difference(a, lay([[1]], [[2], [3]])) == "lane bit 1: peer [0], f2lay [3]", "a basis"
    assert first_difference(a, lay([[1]], [[2]])) == "lane bit 1: peer [0], f2lay none", "a missing bit"
    assert first_difference(a, lay([[1]], [[2], [0]], 8)).startswith("out dims:"), "out dims"
    assert first_difference({"x": 1, "y": 2}, {"x": 1, "y": 3}) == "y: peer 2, f2lay 3", "a key"
    assert first_difference([1, 2, 3], [1, 2, 4]) == "item 2: peer 3, f2lay 4", "an item"
    assert first_difference(True, 1) == "peer true, f2lay 1", "true is not 1"

def test_shrink_shape():
    request = {"op": "blocked", "shape": [64, 8]}
    assert shrink_shape(request, lambda r: r["shape"][0] >= 16)["shape"] == [16, 1], "halved while it differs"
    assert shrink_shape(request, lambda r: False) == request, "kept when nothing smaller differs"

def test_triton_laws():
    pytest.importorskip("triton")
    import triton_check as t
    a = {"in_dims": [{"name": "register", "bases": [[1], [2]]}], "out_dims": [{"name": "dim0", "size": 4}]}
    b = {"in_dims": [{"name": "dim0", "bases": [[2], [1]]}], "out_dims": [{"name": "o", "size": 4}]}
    good = {"in_dims": [{"name": "register", "bases": [[2], [1]]}], "out_dims": [{"name": "o", "size": 4}]}
    bad = {"in_dims": [{"name": "register", "bases": [[2], [3]]}], "out_dims": [{"name": "o", "size": 4}]}
    req = {"op": "compose", "self": a, "other": b}
    assert t.judge(req, bad, {"ok": True, "result": good})[0] == "peer", "Triton breaks compose"
    assert t.judge(req, good, {"ok": True, "result": bad})[0] == "f2lay", "f2lay breaks compose"
    assert t.judge(req, good, {"ok": True, "result": good})[0] == "f2lay", "both keep it: f2lay's convention"
    assert t.law_witness(req, bad) == {"register": 2}, "the witness is the first input"
    inv = {"op": "invert", "layout": b}
    assert (t.law_witness(inv, {"in_dims": [{"name": "o", "bases": [[2], [1]]}],
                                                             "out_dims": [{"name": "dim0", "size": 4}]}) is None), "invert: b is its own inverse"
    assert (t.law_witness({"op": "apply", "layout": a, "input": {"register": 3}},
                                                 {"dim0": 2}) == {"register": 3}), "apply: a wrong value"

def whole_range():
    """triton_check for the whole-range tests and their layouts: a 33-bit
    identity (out dims of 30 and 3 bits, in dims of 17 and 16), its inverse,
    the inverse with one basis wrong, and the invert request (a skip
    without Triton)."""
    import json
    pytest.importorskip("triton")
    import triton_check as t
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
    t, ident, inverse, swapped, inv = whole_range()
    lay = t.layout
    law = lambda request, answer: str(t.basis_law(request, answer))
    assert t.basis_law(inv, inverse) is None, "whole: the inverse keeps the law"
    assert law(inv, swapped)[:7] == "law: at", "whole: a wrong basis breaks it"
    i0, i1 = inverse["out_dims"]
    wrapped = {**inverse, "out_dims": [{**i0, "size": -(1 << 31)}, i1]}  # an int32 size that overflowed
    assert law(inv, wrapped)[:5] == "shape", "whole: a bad size is a wrong shape"
    zeros32 = {"op": "is_invertible", "layout": lay([("i0", [[0]] * 32)], [("o0", 1)])}
    assert law(zeros32, True)[:3] == "law", "whole: 32 zero bases are not invertible"
    assert t.basis_law({**zeros32, "op": "is_injective"}, False) is None, "whole: ... nor injective"
    bit32 = lay([("i0", [[0]] * 32 + [[1]])], [("o0", 2)])
    apply = lambda x: {"op": "apply", "layout": bit32, "input": {"i0": x}}
    assert law(apply(1), {"o0": 1})[:3] == "law", "whole: apply reads bit 0, not bit 32"
    assert t.basis_law(apply(1 << 32), {"o0": 1}) is None, "whole: apply at bit 32"
    view = {"op": "matrix_view", "layout": bit32}
    assert t.basis_law(view, [[0] * 32 + [1]]) is None, "whole: matrix_view"
    assert law(view, [[1] + [0] * 32])[:3] == "law", "whole: matrix_view, a column off"
    assert t.solved_columns(inv) == 66, "whole: invert solves 66 columns"
    assert not t.beyond_range(inv), "whole: a 33-bit answer is within range"
    big = lay([("i0", [[1 << k, 0] for k in range(30)] + [[0, 1], [0, 2], [0, 4]])],
              [("o0", 1 << 30), ("o1", 8)])
    assert t.beyond_range({"op": "invert", "layout": big}), "whole: an answer's out dim of 2^33 is not"
    # invert_and_compose sets aside a dim both layouts map alike, apart from the rest.
    a = lay([("r", [[1]]), ("x", [[2]])], [("o", 4)])
    assert t.set_aside(a, lay([("r", [[1]]), ("y", [[2]])], [("o", 4)])) == ["r"], "whole: set aside"
    assert t.set_aside(a, lay([("r", [[1]]), ("y", [[3]])], [("o", 4)])) == [], "whole: not when it overlaps"

ABORT = ("abort", "python: LinearLayout.cpp:1113: Assertion `maybeRet && \"outer layout does not cover "
                  "this layout's image\"' failed.")

def test_whole_range_verdicts():
    """Who is wrong, on made-up answers of Triton and f2lay."""
    t, ident, inverse, swapped, inv = whole_range()
    lay = t.layout
    ok = lambda result: {"ok": True, "result": result}
    finding, verdict = t.judge_whole(inv, ABORT, ok(inverse))
    assert (finding == "invert: abort: maybeRet && \"outer layout does not cover "
                                                 "this layout's image\" (over 64 columns to solve)"), "whole: the abort's class"
    assert verdict == "f2lay only", "whole: only f2lay keeps the law"
    assert t.judge_whole(inv, ("ok", inverse), ok(inverse)) == (None, "agree"), "whole: both answer alike"
    assert t.judge_whole(inv, ("ok", inverse), ok(swapped))[1][:3] == "bug", "whole: f2lay breaks the law"
    assert t.judge_whole(inv, ("ok", swapped), ok(inverse)) == ("invert: wrong answer (law) (over 64 columns to solve)", "f2lay only"), \
        "whole: Triton breaks it"
    assert t.judge_whole(inv, ("ok", inverse), {"ok": False})[1][:3] == "bug", \
        "whole: f2lay refuses what Triton answers"
    assert t.judge_whole(inv, ABORT, {"ok": False}) == (finding, "both refuse"), "whole: both refuse"
    assert t.judge_whole(inv, ("ok", inverse), None) == (None, "not asked"), "whole: not asked"
    half = lay([("a", [])], [("x", 1 << 20)])
    wide = {"op": "product", "self": half, "other": half}  # an out dim of 2^40
    assert t.judge_whole(wide, ("abort", "x"), None)[0] is None, "whole: a refusal beyond range is no finding"
    # invert_and_compose may pick any lawful answer; compose has one.
    c = {"op": "invert_and_compose", "self": lay([("x", [[1]])], [("o", 2)]),
         "other": lay([("y", [[1], [1]])], [("o", 2)])}
    first, second = lay([("x", [[1]])], [("y", 4)]), lay([("x", [[2]])], [("y", 4)])
    assert t.judge_whole(c, ("ok", first), ok(second)) == (None, "by law"), "whole: by law"
    comp = {"op": "compose", "self": lay([("x", [[1]])], [("y", 2)]), "other": lay([("y", [[1]])], [("o", 2)])}
    assert (t.judge_whole(comp, ("ok", lay([("x", [[1]])], [("o", 2)])),
                                                          ok(lay([("x", [[1]])], [("o", 4)])))[1][:3] == "bug"), "whole: compose has one answer"

def test_whole_range_report():
    """The summary, classes with their smallest witness, the exit status, and
    Triton asked in forked children."""
    t, ident, inverse, swapped, inv = whole_range()
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
    assert status == 0, "whole: findings alone pass"
    assert out.getvalue().split(": ", 2)[2][:34] == "T, 0 s: 3 valid requests (+0 whose", "whole: the summary"
    assert "over 64 columns to solve): 2 cases" in out.getvalue(), "whole: a class and its count"
    assert [e[1] for e in report.classes.values()] == [inv], "whole: its smallest witness"
    report.add(inv, ("ok", inverse), {"ok": True, "result": swapped})
    with contextlib.redirect_stdout(io.StringIO()):
        assert report.finish("T", 0) == 1, "whole: an f2lay bug fails"
    # The abort ends one child; the next goes on from the request after it.
    singular = t.layout([("x", [[0]])], [("o", 2)])
    outcomes = t.triton_outcomes([{"op": "is_injective", "layout": singular},
                                  {"op": "invert", "layout": singular},
                                  {"op": "invert", "layout": t.layout([("x", [[1]])], [("o", 2)])}])
    assert [o[0] for o in outcomes] == ["ok", "abort", "ok"], "whole: outcomes"
    assert "isInvertible()" in outcomes[1][1], "whole: the abort's message"

def test_gluon_banks():
    """gluon_banks_check: its wavefront rule against device_tests/HARDWARE.md's
    strided accesses, the 16x32 transpose (#seed-transpose) and Gluon's
    calibration value 7; its verdicts on made-up answers; and a Triton child
    that aborts mid-way."""
    import gluon_banks_check as g
    cost = lambda addresses, nbytes, store=False: g.instruction_cost(addresses, nbytes, store)
    for stride, want in ((1, 1), (2, 2), (4, 4), (8, 8), (16, 16), (32, 32), (33, 1)):
        assert cost([4 * stride * l for l in range(32)], 4)[0] == want, f"banks: LDS.32 word stride {stride}"
    assert cost([64] * 32, 4) == (1, 1), "banks: LDS.32 one address"
    for nbytes, strides, wants in ((8, (8, 16, 32, 256), (2, 4, 8, 32)), (16, (16, 32, 64, 128), (4, 8, 16, 32))):
        for stride, want in zip(strides, wants):
            assert cost([stride * l for l in range(32)], nbytes)[0] == want, \
                f"banks: LDS.{8 * nbytes} byte stride {stride}"
            assert cost([stride * l for l in range(32)], nbytes, True)[0] == want, \
                f"banks: STS.{8 * nbytes} byte stride {stride}"
    pairs = [8 * (l // 2) for l in range(32)]  # lanes 2k, 2k+1 read one address
    assert cost(pairs, 8) == (1, 1), "banks: LDS.64 quad merge fills one phase"
    assert cost(pairs, 8, True) == (2, 2), "banks: STS.64 keeps its two phases"
    assert cost([8 * (l % 16) for l in range(32)], 8) == (2, 2), "banks: LDS.64 lanes 16 apart are not merged"
    assert cost([16 * (l // 2) for l in range(32)], 16) == (2, 2), \
        "banks: LDS.128 quad merge, half-warps apart"
    assert cost([16 * (l // 2) for l in range(32)], 16, True) == (4, 4), \
        "banks: STS.128 keeps its four phases"

    def pair(shape, nbytes, reg, lane, warp, offset):
        flat = lambda bases: [g.from_coords(b, shape) for b in bases]
        return {"family": "t", "shape": shape, "bytes": nbytes, "reg": flat(reg), "lane": flat(lane),
                "warp": flat(warp), "offset": flat(offset)}
    n_bits, m_bits = [[1 << k, 0] for k in range(5)], [[0, 1 << k] for k in range(4)]
    store = pair([32, 16], 4, m_bits, n_bits, [], n_bits + m_bits)
    read = pair([32, 16], 4, n_bits[1:], m_bits + n_bits[:1], [], n_bits + m_bits)
    assert g.rule_totals(store, 1, store=True) == (16, 16, 16), "banks: seed transpose store"
    assert g.rule_totals(read, 1, store=False) == (16, 256, 16), "banks: seed transpose read"
    swizzled = dict(read, offset=[g.from_coords(b, [32, 16]) for b in n_bits + [[2, 1], [4, 2], [8, 4], [16, 8]]])
    assert g.rule_totals(swizzled, 1, store=False) == (16, 16, 16), "banks: seed read, n xor 2m"
    # NVMMA v3 [16,64,16], 4 warps, fp16 64x64, unswizzled row major: Gluon says 7.
    cols, rows = [[0, 1 << k] for k in range(6)], [[1 << k, 0] for k in range(6)]
    mma = pair([64, 64], 2, [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]],
               [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], [[16, 0], [32, 0]], cols + rows)
    assert g.vector_elements(mma) == 2, "banks: NVMMA's vector"
    assert g.per_phase(g.rule_totals(mma, 2, store=True)) == 7, "banks: Gluon's calibration value"

    rule = (4, 8, 4)  # 1 extra wavefront per phase
    ok = lambda i, w, p: {"ok": True, "result": {"instructions": i, "wavefronts": w, "ideal_wavefronts": p,
                                                 "conflicts": w - p}}
    assert g.judge_pair({"conflicts": 1}, ok(4, 8, 4), rule) == (None, None), "banks: both keep the rule"
    assert g.judge_pair({"conflicts": 1}, ok(4, 9, 4), rule)[0] is not None, "banks: f2lay's totals"
    assert g.judge_pair({"conflicts": 1}, {"ok": False, "error": "x"}, rule)[0] == "refused: x", \
        "banks: f2lay refuses"
    assert g.judge_pair({"conflicts": 0}, ok(4, 8, 4), rule) == (None, "0, the rule's 1 extra wavefronts per phase"), \
        "banks: Triton's number"
    assert g.judge_pair({"conflicts": 1}, ok(2, 5, 3), (2, 5, 3))[1] is not None, \
        "banks: a fraction is no integer"
    assert g.judge_pair({"abort": "x"}, ok(4, 8, 4), rule)[1] == "the process aborts (x)", "banks: an abort"
    mixed = dict(mma, reg=mma["reg"][:-1] + [mma["reg"][-1] | 1])
    assert g.finding_class(mixed, 2, {"abort": "x"}, "store")[:2] == "G1", "banks: class G1"
    assert g.finding_class(mma, 2, {"abort": "in reshapeIns"}, "store")[:2] == "G2", "banks: class G2"
    assert g.finding_class(mma, 1, {"conflicts": 0}, "store")[:2] == "G3", "banks: class G3"
    assert g.finding_class(mma, 4, {"conflicts": 0}, "load")[:2] == "G4", "banks: class G4"

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
        assert version == "0.0", "banks: the child's version"
        assert [sorted(a) for a in answers] == [["conflicts"], ["abort"], ["conflicts"]], \
            "banks: answers around an abort"

def test_gluon_adapters():
    """gluon_check's Gluon 3.9 bases for amd_wmma's Gluon 3.6 keys, and
    gluon_shared_check's verdict where f2lay refuses a layout of Gluon as a
    Triton bug: made-up layouts, and Gluon 3.9.0's own at [4, 2, 2]."""
    pytest.importorskip("triton")
    import gluon_check as gc
    import gluon_shared_check as gs
    assert gc.gluon36_wmma_bases([2, 2], [2, 2], [128, 128]) == ([[0, 2], [2, 0]], [[0, 1], [0, 4], [1, 0]]), \
        "wmma: tiles [2, 2], the N repeat before M's tiles"
    assert gc.gluon36_wmma_bases([2, 2, 2], [2, 1, 2], [4, 64, 64]) == ([[0, 0, 2], [0, 1, 0], [1, 0, 0]], [[0, 0, 1]]), \
        "wmma: rank 3, the batch's tiles ignored"
    assert gc.gluon36_wmma_bases([1, 2], None, [16, 16]) == ([[0, 1]], []), "wmma: no repeat past the shape"

    def lay(offsets, shape):
        return {"in_dims": [{"name": "offset", "bases": offsets}, {"name": "block", "bases": []}],
                "out_dims": [{"name": f"dim{i}", "size": s} for i, s in enumerate(shape)]}
    assert gs.holds_elements_twice(lay([[0, 0, 0], [1, 0, 0]], [2, 1, 1])), \
        "shared: a zero offset holds an element twice"
    assert gs.holds_elements_twice(lay([[1, 0], [0, 1], [1, 1]], [2, 2])), "shared: dependent offsets do too"
    assert not gs.holds_elements_twice(lay([[0, 1], [1, 0], [2, 1]], [4, 2])), "shared: a bijection does not"
    req = {"op": "nvmma_shared", "swizzle_byte_width": 0, "element_bitwidth": 16, "transposed": True, "shape": [2, 2, 2]}
    along = lay([[0, 1, 0], [1, 0, 0], [0, 0, 1]], [2, 2, 2])
    assert gs.misplaces_dim0(req, along), "shared: transposed, starting along dim1"
    assert not gs.misplaces_dim0(req, lay([[1, 0, 0], [0, 0, 1], [0, 1, 0]], [2, 2, 2])), \
        "shared: transposed, starting along dim0"
    assert not gs.misplaces_dim0(dict(req, transposed=False), along), "shared: not transposed"
    refused = {"ok": False, "error": "nvmma_shared: ... taken for a Triton bug and not reproduced"}
    req = dict(req, shape=[4, 2, 2])
    assert gs.judge(None)(req, gs.gluon_answer(req), refused)[0] == "peer", \
        "shared: Gluon's layout there is a finding"
