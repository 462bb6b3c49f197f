#!/usr/bin/env python3
"""Checks f2lay's conventions against Triton's own LinearLayout.

Triton's wheel carries Python bindings of its C++ LinearLayout
(triton._C.libtriton.linear_layout). This script asks both Triton and
`f2lay oracle` the same questions and compares the answers:

  * random layouts: matrix_view, is_injective/is_surjective/is_invertible,
    apply, compose, product, pseudoinvert, invert, invert_and_compose, equal;
  * every case of the algebra vectors (vectors/algebra.json: the golden
    cases of tools/cases and the requests `f2lay vectors` draws) whose op the
    binding has, so the answers stated there are checked against Triton too;
    those flagged triton_aborts are given to Triton in a child process, which
    must end, and f2lay must refuse them.

A disagreement is judged by the op's law, checked by brute force here: an
answer of Triton's that breaks it is a finding (reported, adapters/
FINDINGS.md); anything else is an f2lay bug, since f2lay follows Triton's
conventions exactly. Legacy layouts go through Gluon: gluon_check.py and
gluon_shared_check.py.

Usage: triton_check.py F2LAY_BINARY [--cases N] [--seed S]
Exit status: 0 when f2lay has no bug (Triton's are printed as findings), 1 on
an f2lay bug (printed with its request and witness), 2 on usage errors, 77
(skip) when Triton is not installed. Triton aborts the whole process on a
layout it rejects, so only valid requests are given to it.
"""
import argparse
import json
import pathlib
import random
import subprocess
import sys

from oracle_client import ERROR, Report, compare, same

try:
    from triton._C.libtriton.linear_layout import LinearLayout as TLL
except ImportError as e:  # pragma: no cover - reported, not failed on
    print(f"triton_check: Triton is not installed ({e}); run scripts/setup", file=sys.stderr)
    sys.exit(77)  # ctest's skip code

VECTORS_DIR = pathlib.Path(__file__).resolve().parent.parent / "vectors"


# ---------------------------------------------------------------- conversions
def to_triton(layout):
    bases = [(d["name"], d["bases"]) for d in layout["in_dims"]]
    names = [d["name"] for d in layout["out_dims"]]
    sizes = [d["size"] for d in layout["out_dims"]]
    return TLL.from_bases(bases, names, sizes, False)


def from_triton(ll):
    return {
        "in_dims": [{"name": n, "bases": [list(b) for b in bs]} for n, bs in ll.bases],
        "out_dims": [{"name": n, "size": s} for n, s in ll.out_dims],
    }


def layout(bases, outs):
    return {"in_dims": [{"name": n, "bases": b} for n, b in bases],
            "out_dims": [{"name": n, "size": s} for n, s in outs]}


def total_bits(sizes):
    return sum(s.bit_length() - 1 for s in sizes)


# ------------------------------------------------------------ random layouts
def random_layout(rng, ins, outs, max_bits=4, zero_prob=0.25):
    out_dims = [(n, 1 << rng.randint(0, max_bits)) for n in outs]
    in_dims = []
    for n in ins:
        bases = [[0 if rng.random() < zero_prob else rng.randrange(s) for _, s in out_dims]
                 for _ in range(rng.randint(0, max_bits))]
        in_dims.append((n, bases))
    return layout(in_dims, out_dims)


def surjective(rng, ins, outs, max_bits=4):
    while True:
        l = random_layout(rng, ins, outs, max_bits)
        if to_triton(l).is_surjective():
            return l


def with_outs(l, out_dims):
    """l with its out dims replaced (same names, possibly reordered/resized)."""
    index = {d["name"]: k for k, d in enumerate(l["out_dims"])}
    return {"in_dims": [{"name": d["name"],
                         "bases": [[b[index[n]] for n, _ in out_dims] for b in d["bases"]]}
                        for d in l["in_dims"]],
            "out_dims": [{"name": n, "size": s} for n, s in out_dims]}




def f2_rank(columns):
    """Rank over F2 of integer bit-vector columns (an independent check)."""
    basis = []
    for v in columns:
        for b in basis:
            v = min(v, v ^ b)
        if v:
            basis.append(v)
    return len(basis)


def flat_columns(l, dims, out_order):
    sizes = {d["name"]: d["size"] for d in l["out_dims"]}
    index = {d["name"]: k for k, d in enumerate(l["out_dims"])}
    cols = []
    for d in l["in_dims"]:
        if d["name"] not in dims:
            continue
        for b in d["bases"]:
            v, shift = 0, 0
            for name, size in out_order:
                v |= b[index[name]] << shift
                shift += size.bit_length() - 1
            cols.append(v)
    return cols


def triton_would_assert(self_, other):
    """Triton 3.6's invertAndCompose sets aside in dims both layouts map alike
    and asserts when only one side has dims left, or when the rest of self's
    image is not inside the rest of other's."""
    out_order = [(d["name"], d["size"]) for d in other["out_dims"]]
    outs = [n for n, _ in out_order]
    def sub(l, dim):
        k = {d["name"]: i for i, d in enumerate(l["out_dims"])}
        for d in l["in_dims"]:
            if d["name"] == dim:
                return ([[b[k[o]] for o in outs] for b in d["bases"]],
                        [l["out_dims"][k[o]]["size"] for o in outs])
    alike = [d["name"] for d in other["in_dims"]
             if any(e["name"] == d["name"] for e in self_["in_dims"])
             and sub(other, d["name"]) == sub(self_, d["name"])]
    other_rest = [d["name"] for d in other["in_dims"] if d["name"] not in alike]
    self_rest = [d["name"] for d in self_["in_dims"] if d["name"] not in alike]
    if bool(other_rest) != bool(self_rest):
        return True
    a = flat_columns(other, other_rest, out_order)
    b = flat_columns(self_, self_rest, out_order)
    return f2_rank(a) != f2_rank(a + b)


def random_requests(rng, n):
    """Yields (request, expected result computed by Triton)."""
    for _ in range(n):
        a = random_layout(rng, ["register", "lane", "warp"], ["dim0", "dim1"])
        ta = to_triton(a)
        yield {"op": "matrix_view", "layout": a}, ta.get_matrix_view()
        yield {"op": "is_injective", "layout": a}, ta.is_injective()
        yield {"op": "is_surjective", "layout": a}, ta.is_surjective()
        yield {"op": "is_invertible", "layout": a}, ta.is_invertible()
        x = {d["name"]: rng.randrange(1 << len(d["bases"])) for d in a["in_dims"]}
        yield {"op": "apply", "layout": a, "input": x}, dict(ta.apply(x))

        # compose: b reads a's out dims (in another order), each no smaller.
        b_ins = [(d["name"], 1 << rng.randint(d["size"].bit_length() - 1, 4))
                 for d in reversed(a["out_dims"])]
        b = random_layout(rng, [], ["o0", "o1", "o2"])
        b["in_dims"] = [{"name": n, "bases": [[0 if rng.random() < 0.25 else rng.randrange(d["size"])
                                                for d in b["out_dims"]]
                                               for _ in range(s.bit_length() - 1)]}
                        for n, s in b_ins]
        yield {"op": "compose", "self": a, "other": b}, from_triton(ta.compose(to_triton(b)))

        # product: shared dims in the same relative order.
        inner = random_layout(rng, ["register", "lane"], ["dim0", "dim1"], 2)
        outer = random_layout(rng, ["lane", "warp"], ["dim1", "dim2"], 2)
        yield ({"op": "product", "self": inner, "other": outer},
               from_triton(to_triton(inner) * to_triton(outer)))

        s = surjective(rng, ["register", "lane"], ["dim0", "dim1"])
        ts = to_triton(s)
        yield {"op": "pseudoinvert", "layout": s}, from_triton(ts.pseudoinvert())
        if ts.is_invertible():
            yield {"op": "invert", "layout": s}, from_triton(ts.invert())
        # invert_and_compose: self's out dims no larger than other's. Half the
        # time they are equal and self's register dim copies other's, which
        # exercises Triton's broadcasting heuristic (dims mapped alike).
        alike = rng.random() < 0.5
        src = random_layout(rng, ["register", "lane", "warp"], [], 3)
        outs = [(d["name"], d["size"] if alike else 1 << rng.randint(0, d["size"].bit_length() - 1))
                for d in s["out_dims"]]
        rng.shuffle(outs)
        src = layout([(d["name"], [[rng.randrange(sz) for _, sz in outs] for _ in d["bases"]])
                      for d in src["in_dims"]], outs)
        if alike:
            src["in_dims"][0]["bases"] = with_outs(s, outs)["in_dims"][0]["bases"]
        req = {"op": "invert_and_compose", "self": src, "other": s}
        if triton_would_assert(src, s):
            yield req, ERROR
        else:
            yield req, from_triton(to_triton(src).invert_and_compose(ts))
        other = random_layout(rng, ["register", "lane", "warp"], ["dim0", "dim1"])
        yield {"op": "equal", "self": a, "other": other}, ta == to_triton(other)
        yield {"op": "equal", "self": a, "other": a}, True


# -------------------------------------------------------------- golden cases
def one(req, key):
    return to_triton(req[key])


# Triton's answer to each request whose op the binding has.
TRITON_ANSWERS = {
    "identity_1d": lambda r: from_triton(TLL.identity_1d(r["size"], r["in_dim"], r["out_dim"])),
    "zeros_1d": lambda r: from_triton(TLL.zeros_1d(r["size"], r["in_dim"], r["out_dim"],
                                                   r.get("out_dim_size", 1))),
    "apply": lambda r: dict(one(r, "layout").apply(r["input"])),
    "compose": lambda r: from_triton(one(r, "self").compose(one(r, "other"))),
    "product": lambda r: from_triton(one(r, "self") * one(r, "other")),
    "invert_and_compose": lambda r: from_triton(one(r, "self").invert_and_compose(one(r, "other"))),
    "invert": lambda r: from_triton(one(r, "layout").invert()),
    "pseudoinvert": lambda r: from_triton(one(r, "layout").pseudoinvert()),
    "is_injective": lambda r: one(r, "layout").is_injective(),
    "is_surjective": lambda r: one(r, "layout").is_surjective(),
    "is_invertible": lambda r: one(r, "layout").is_invertible(),
    "matrix_view": lambda r: one(r, "layout").get_matrix_view(),
    "equal": lambda r: one(r, "self") == one(r, "other"),
}


def triton_answer(req):
    """Triton's answer to a request, or None where the binding has no such op.
    A request Triton refuses aborts the process: ask only valid ones here."""
    answer = TRITON_ANSWERS.get(req["op"])
    return None if answer is None else answer(req)


def triton_in_child(request):
    """Triton's answer to a request, asked in a child process, or None where
    Triton ends that process (its assertions abort)."""
    code = ("import json, sys; import triton_check; "
            "print(json.dumps(triton_check.triton_answer(json.loads(sys.argv[1]))))")
    proc = subprocess.run([sys.executable, "-c", code, json.dumps(request)], capture_output=True,
                          text=True, cwd=pathlib.Path(__file__).resolve().parent)
    return json.loads(proc.stdout) if proc.returncode == 0 else None


def vector_requests():
    """The algebra vectors (vectors/algebra.json: tools/cases' golden cases and
    requests drawn by `f2lay vectors`) that the binding can answer. Yields
    (kind, request, Triton's answer) and, where Triton differs from the
    vector's stated answer, (None, text, None)."""
    data = json.loads((VECTORS_DIR / "algebra.json").read_text())
    for case in data["cases"]:
        if not case["expect"]["ok"]:
            # Triton aborts the process on a request it refuses: where the
            # vector says it does, a child process is asked.
            if "triton_aborts" in case["flags"] and case["request"]["op"] in TRITON_ANSWERS:
                outcome = triton_in_child(case["request"])
                if outcome is not None:
                    yield None, f"algebra.json: {case['name']}: the vector says Triton aborts, " \
                                f"Triton answers {json.dumps(outcome)}", None
                yield "aborts", case["request"], ERROR
            continue
        expected = triton_answer(case["request"])
        if expected is None:
            continue
        kind = "golden" if "golden" in case["flags"] else "vectors"
        if not same(expected, case["expect"]["result"]):
            yield None, f"algebra.json: {case['name']}: the vector says " \
                        f"{json.dumps(case['expect']['result'])}, Triton says {json.dumps(expected)}", None
        yield kind, case["request"], expected


# ------------------------------------------------------------------ judging
# Where Triton and f2lay differ, the op's law decides, checked here by brute
# force on plain bases (no code shared with either side): the answer that
# breaks the law is wrong. If both keep it, f2lay is wrong, for it promises
# Triton's exact conventions (dim order, sizes, which of many answers).
def flat_inputs(layout):
    """Every input of a layout as {dim: value}, in flattened order (the first
    dim least significant); at most 2^14 of them."""
    dims = [(d["name"], len(d["bases"])) for d in layout["in_dims"]]
    total = sum(bits for _, bits in dims)
    for x in range(1 << min(total, 14)):
        point, shift = {}, 0
        for name, bits in dims:
            point[name] = (x >> shift) & ((1 << bits) - 1)
            shift += bits
        yield point


def evaluate(layout, point):
    """The layout at an input {dim: value}: the XOR of the bases of its set
    bits, as {out dim: value}."""
    value = [0] * len(layout["out_dims"])
    for d in layout["in_dims"]:
        for bit, basis in enumerate(d["bases"]):
            if point.get(d["name"], 0) >> bit & 1:
                value = [v ^ b for v, b in zip(value, basis)]
    return {o["name"]: v for o, v in zip(layout["out_dims"], value)}


def as_input(values, layout):
    """An output {dim: value} fed to a layout whose in dims it names."""
    return {d["name"]: values.get(d["name"], 0) for d in layout["in_dims"]}


def law_witness(request, result):
    """The first input where `result` breaks the law of the request's op, or
    None where it keeps it (or the op has no law checked here)."""
    op = request["op"]
    if op == "compose":
        a, b = request["self"], request["other"]
        for x in flat_inputs(a):
            if evaluate(result, x) != evaluate(b, as_input(evaluate(a, x), b)):
                return x
    elif op == "invert":
        for x in flat_inputs(request["layout"]):
            y = evaluate(request["layout"], x)
            if evaluate(result, as_input(y, result)) != x:
                return x
    elif op == "pseudoinvert":
        layout = request["layout"]
        for y in flat_inputs(result):
            if evaluate(layout, as_input(evaluate(result, y), layout)) != y:
                return y
    elif op == "invert_and_compose":
        a, b = request["self"], request["other"]
        for x in flat_inputs(a):
            if evaluate(b, as_input(evaluate(result, x), b)) != evaluate(a, x):
                return x
    elif op == "apply":
        truth = evaluate(request["layout"], request["input"])
        if result != truth:
            return request["input"]
    return None


def judge(request, triton, response):
    """('peer', witness) where Triton breaks the op's law and f2lay keeps it,
    else ('f2lay', why)."""
    if not response.get("ok") or triton is ERROR:
        return "f2lay", "f2lay refuses what Triton answers" if triton is not ERROR else \
            "f2lay answers what Triton asserts on"
    mine, theirs = law_witness(request, response["result"]), law_witness(request, triton)
    if mine is not None:
        return "f2lay", f"f2lay's answer breaks {request['op']}'s law at input {json.dumps(mine)}"
    if theirs is not None:
        return "peer", f"Triton's answer breaks {request['op']}'s law at input {json.dumps(theirs)}"
    return "f2lay", "both keep the law; f2lay's convention differs from Triton's"


# ---------------------------------------------------------------------- main
def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("f2lay")
    parser.add_argument("--cases", type=int, default=300, help="random rounds (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    report = Report("triton_check", f"Triton {__import__('triton').__version__}",
                    ["golden", "vectors", "aborts", "random"])
    rng = random.Random(args.seed)
    pairs = []
    for kind, req, expected in vector_requests():
        if kind is None:
            report.f2lay_bug("vectors", req)  # a stated answer Triton does not give
        else:
            pairs.append((kind, req, expected))
    pairs += [("random", r, e) for r, e in random_requests(rng, args.cases)]
    return compare(report, args.f2lay, pairs, judge)


if __name__ == "__main__":
    sys.exit(main())
