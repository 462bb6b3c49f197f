"""Checks f2lay's conventions against Triton's own LinearLayout.

Triton's wheel carries Python bindings of its C++ LinearLayout
(triton._C.libtriton.linear_layout). This script asks both Triton and
`f2lay oracle` the same questions and compares the answers:

  * random layouts: matrix_view, is_injective/is_surjective/is_invertible,
    apply, compose, product, pseudoinvert, invert, invert_and_compose, equal;
  * every case of the algebra vectors (vectors/algebra.json: the golden
    cases of oracle/cases and the requests `f2lay vectors` draws) whose op the
    binding has, so the answers stated there are checked against Triton too;
    those flagged triton_aborts are given to Triton in a child process, which
    must end, and f2lay must refuse them;
  * the whole range (--whole-range SECONDS): requests drawn over everything
    the binding accepts (up to 64 input and 64 output bits, out dims up to
    2^30, in dims of any size), asked of Triton in forked children, each
    answer checked by its op's law on every input basis; reported apart,
    with Triton's failures counted by class, each with its smallest witness.

A disagreement is judged by the op's law, checked by brute force here: an
answer of Triton's that breaks it is a finding (reported, adapters/
FINDINGS.md); anything else is an f2lay bug, since f2lay follows Triton's
conventions exactly. Legacy layouts go through Gluon: gluon_check.py and
gluon_shared_check.py.

A pytest module (conftest.py) of two tests: test_conventions (the vectors
and --cases random rounds, default 300) and test_whole_range (draws over the
binding's whole range for --seconds, default 30); --seed (default 1). Each
fails on an f2lay bug (printed with its request and witness) and prints
Triton's as findings; they skip where Triton is not installed. Triton aborts
the whole process on a layout it rejects, so only valid requests are given to
it.
"""
import itertools
import json
import pathlib
import random
import re
import subprocess
import sys
import time

import pytest

from oracle_client import ERROR, Report, ask_oracle, compare, forked_outcomes, same

pytest.importorskip("triton", reason="Triton is not installed (scripts/setup installs it)")
from triton._C.libtriton.linear_layout import LinearLayout as TLL  # noqa: E402

# The installed release, as a request's "triton" key names one (the oracle
# follows 3.9 by default).
INSTALLED = ".".join(__import__("triton").__version__.split(".")[:2])
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
    """Triton 3.9's invertAndCompose sets aside the in dims of set_aside and
    asserts when the rest of self's image is not inside the rest of other's
    (its lstsq finds no solution)."""
    out_order = [(d["name"], d["size"]) for d in other["out_dims"]]
    aside = set_aside(self_, other)
    a = flat_columns(other, [d["name"] for d in other["in_dims"] if d["name"] not in aside], out_order)
    b = flat_columns(self_, [d["name"] for d in self_["in_dims"] if d["name"] not in aside], out_order)
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
    """The algebra vectors (vectors/algebra.json: oracle/cases' golden cases and
    requests drawn by `f2lay vectors`) that the binding can answer. Yields
    (kind, request, Triton's answer) and, where Triton differs from the
    vector's stated answer, (None, text, None)."""
    data = json.loads((VECTORS_DIR / "algebra.json").read_text())
    for case in data["cases"]:
        if case["request"].get("triton", "3.9") != INSTALLED:
            # A case of another release's rules ("triton": "3.6"): the
            # installed Triton cannot answer it; counted, not asked.
            yield "other release", case["request"], None
            continue
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


# ------------------------------------------------------------ whole range
# The random rounds above stay within a few bits per dim. This part draws
# requests over everything Triton's binding accepts, measured on 3.9.0 (and
# 3.6.0): from_bases aborts past 64 input or 64 output bits in all; an out
# dim's size is an int32 power of two, so at most 2^30 (2^31 is a TypeError);
# an in dim may have any number of bases within the 64, though from 31 on its
# size 2^k no longer fits the int32 that Triton keeps it in.
#
# A request is valid when its operands are accepted, the op's precondition
# holds (drawn so that it does) and its answer is a layout from_bases accepts.
# Triton aborting on a valid request is a finding. A request whose answer is
# not ("beyond range", e.g. a product whose out dim reaches 2^31) may be
# refused; an answer that breaks the op's law is a finding anywhere.
#
# Every op is linear, so its law is checked on input bases: 64 evaluations
# rather than 2^64. Triton is asked in forked children of this process
# (Triton is already imported, so a child costs a fork, not a start-up); an
# assertion in Triton ends only the child. f2lay is asked what its limits
# admit; its answer must keep the law and, where Triton's does, equal it
# (invert_and_compose and pseudoinvert may pick any lawful answer).
TOTAL_BITS, OUT_DIM_BITS, IN_DIM_BITS = 64, 30, 30
F2LAY_DIM_BITS, F2LAY_DIMS = 63, 16  # f2lay's own limits (README)


def log2_size(size):
    """log2 of a power-of-two size, else None."""
    return size.bit_length() - 1 if isinstance(size, int) and size > 0 and size & (size - 1) == 0 else None


def in_bits(l):
    return [(d["name"], len(d["bases"])) for d in l["in_dims"]]


def out_bits(l):
    return [(d["name"], log2_size(d["size"])) for d in l["out_dims"]]


def units(dims):
    """Each basis of dims [(name, bits)] as a point: 2^bit in one dim, 0 in
    the others."""
    return [{**dict.fromkeys([n for n, _ in dims], 0), name: 1 << bit}
            for name, bits in dims for bit in range(bits)]


def image(l, point):
    """l at an input {in dim: value}: the XOR of the bases of its set bits
    (bits past a dim's bases, and dims not named, count as 0). evaluate()'s
    meaning, visiting set bits only: the laws below evaluate 64-bit layouts
    at thousands of points."""
    value = [0] * len(l["out_dims"])
    for d in l["in_dims"]:
        x = point.get(d["name"], 0) & ((1 << len(d["bases"])) - 1)
        while x:
            value = [v ^ b for v, b in zip(value, d["bases"][(x & -x).bit_length() - 1])]
            x &= x - 1
    return {o["name"]: v for o, v in zip(l["out_dims"], value)}


def flat(values, dims):
    """An output {dim: value} as one integer, the first dim least significant."""
    total, shift = 0, 0
    for name, bits in dims:
        total |= values[name] << shift
        shift += bits
    return total


def unflat(value, dims):
    point = {}
    for name, bits in dims:
        point[name], value = value & ((1 << bits) - 1), value >> bits
    return point


def build(ins, outs, columns):
    """The layout with in dims ins [(name, bits)], out dims outs [(name,
    bits)] and columns[k] the flat image of the k-th input bit."""
    points = iter([unflat(c, outs) for c in columns])
    return layout([(n, [[p[o] for o, _ in outs] for p in itertools.islice(points, b)])
                   for n, b in ins], [(o, 1 << b) for o, b in outs])


# ------------------------------------------------------------------ drawing
def draw_total(rng, most):
    """A number of bits up to `most`, often at a boundary of Triton's."""
    return min(most, rng.choice([rng.randint(0, most), rng.randint(0, 8), 1, 30, 31, 32, 33, 63, 64]))


def draw_split(rng, total, n, cap):
    """n dim sizes in bits, summing to total (or as near as caps allow),
    each at most cap; a dim at the cap comes often."""
    sizes = [0] * n
    for _ in range(total):
        free = [k for k in range(n) if sizes[k] < cap]
        if not free:
            break
        k = free[0] if rng.random() < 0.3 else rng.choice(free)
        sizes[k] += 1
    return sizes


def draw_ins(rng, total, prefix="i"):
    """In dims for `total` bits: mostly up to 30 bits each, at times one of
    31 or more (accepted, though its size overflows Triton's int32)."""
    n = rng.choice([1, 1, 2, 2, 3, 4, 17]) if total else rng.choice([0, 1, 2])
    cap = TOTAL_BITS if rng.random() < 0.15 else IN_DIM_BITS
    n = max(n, -(-total // cap))  # enough dims for every bit
    return [(f"{prefix}{k}", b) for k, b in enumerate(draw_split(rng, total, n, cap))]


def draw_outs(rng, total, names=None):
    n = max(rng.choice([1, 2, 2, 3, 3, 4, 5]), -(-total // OUT_DIM_BITS))
    names = names or [f"o{k}" for k in range(n)]
    return list(zip(names, draw_split(rng, total, len(names), OUT_DIM_BITS)))


def random_column(rng, bits):
    r = rng.random()
    if r < 0.15 or not bits:
        return 0
    return 1 << rng.randrange(bits) if r < 0.4 else rng.getrandbits(bits)


def mixed(rng, columns):
    """columns with random columns added into others: same span."""
    columns = list(columns)
    for _ in range(2 * len(columns)):
        i, j = rng.randrange(len(columns)), rng.randrange(len(columns))
        if i != j:
            columns[i] ^= columns[j]
    return columns


def onto_columns(rng, n_in, n_out):
    """n_in >= n_out columns spanning all n_out bits (square: invertible)."""
    columns = mixed(rng, [1 << k for k in range(n_out)])
    columns += [rng.getrandbits(n_out) if n_out else 0 for _ in range(n_in - n_out)]
    rng.shuffle(columns)
    return mixed(rng, columns) if n_in > n_out and rng.random() < 0.5 else columns


def draw_layout(rng, n_in=None, outs=None):
    """A random, invertible, surjective or injective layout."""
    if outs is None:
        outs = draw_outs(rng, draw_total(rng, TOTAL_BITS))
    n_out = sum(b for _, b in outs)
    kind = rng.choice(["random", "random", "onto", "into"])
    if n_in is None:
        n_in = {"onto": rng.randint(n_out, TOTAL_BITS), "into": rng.randint(0, n_out)}.get(
            kind, draw_total(rng, TOTAL_BITS))
    if kind == "onto" and n_in >= n_out:
        columns = onto_columns(rng, n_in, n_out)
    elif kind == "into" and n_in <= n_out:
        columns = onto_columns(rng, n_out, n_out)[:n_in]
    else:
        columns = [random_column(rng, n_out) for _ in range(n_in)]
    return build(draw_ins(rng, n_in), outs, columns)


def draw_compose(rng):
    """self, then other reading self's out dims (in any order), each at least
    as large; other's in dims may pass 30 bits."""
    a = draw_layout(rng)
    room = TOTAL_BITS - sum(b for _, b in out_bits(a))
    extra = draw_split(rng, rng.choice([0, 0, min(1, room), rng.randint(0, room), room]),
                       len(a["out_dims"]), TOTAL_BITS)
    ins = [(n, b + e) for (n, b), e in zip(out_bits(a), extra)]
    rng.shuffle(ins)
    outs = draw_outs(rng, draw_total(rng, TOTAL_BITS), ["p0", "p1", "p2"][:rng.randint(1, 3)])
    n_out = sum(b for _, b in outs)
    b = build(ins, outs, [random_column(rng, n_out) for _ in range(sum(b for _, b in ins))])
    return {"op": "compose", "self": a, "other": b}


def draw_product(rng):
    """Shared dims in the same relative order; the product may pass the
    limits (then it is beyond Triton's range)."""
    def side():
        keep = lambda names: [n for n in names if rng.random() < 0.7]
        outs = draw_outs(rng, draw_total(rng, TOTAL_BITS), keep(["x", "y", "z"]) or ["x"])
        n_in = draw_total(rng, TOTAL_BITS)
        dims = keep(["a", "b", "c"]) or ["a"]
        sizes = draw_split(rng, n_in, len(dims), rng.choice([IN_DIM_BITS, TOTAL_BITS]))
        n_out = sum(b for _, b in outs)
        return build(list(zip(dims, sizes)), outs, [random_column(rng, n_out) for _ in range(sum(sizes))])
    return {"op": "product", "self": side(), "other": side()}


def independent(vectors):
    """Those of vectors that add to the span of the ones before them."""
    kept = []
    for v in vectors:
        if f2_rank(kept + [v]) > len(kept):
            kept.append(v)
    return kept


def draw_invert_and_compose(rng):
    """other's image covers self's; self's out dims (in any order) are no
    larger than other's. Some of self's in dims are copied into other (the
    dims Triton sets aside); other may or may not be surjective."""
    outs = draw_outs(rng, draw_total(rng, TOTAL_BITS))
    self_outs = [(n, b if rng.random() < 0.7 else rng.randint(0, b)) for n, b in outs]
    rng.shuffle(self_outs)
    self_ = draw_layout(rng, outs=self_outs)
    names = [n for n, _ in self_outs]
    in_other = lambda basis: [dict(zip(names, basis))[o] for o, _ in outs]  # the same values
    alike = [d for d in self_["in_dims"] if rng.random() < 0.3]
    rest = [flat(dict(zip(names, b)), outs) for d in self_["in_dims"] if d not in alike for b in d["bases"]]
    cover = independent(rest)  # other spans these: it covers self's image
    room = TOTAL_BITS - sum(len(d["bases"]) for d in alike) - len(cover)
    n_out = sum(b for _, b in outs)
    columns = mixed(rng, cover + [random_column(rng, n_out) for _ in range(rng.randint(0, room))])
    other = build(draw_ins(rng, len(columns), "j"), outs, columns)
    other["in_dims"] += [{"name": d["name"], "bases": [in_other(b) for b in d["bases"]]} for d in alike]
    rng.shuffle(other["in_dims"])
    return {"op": "invert_and_compose", "self": self_, "other": other}


def draw_input(rng, l):
    """An input of l: its high bits set more often than by chance, or below
    2^31 (the binding's int32)."""
    return {n: rng.choice([rng.getrandbits(b), rng.getrandbits(min(b, 31)), (1 << b) - 1,
                           (1 << b) >> 1]) for n, b in in_bits(l)}


def draw_whole_range(rng):
    """One request anywhere in the binding's range."""
    op = rng.choice(["matrix_view", "is_injective", "is_surjective", "is_invertible", "apply",
                     "compose", "compose", "product", "invert", "invert", "pseudoinvert",
                     "invert_and_compose", "invert_and_compose", "invert_and_compose",
                     "identity_1d", "zeros_1d"])
    if op in ("identity_1d", "zeros_1d"):
        size = 1 << rng.choice([0, 1, rng.randint(0, OUT_DIM_BITS), OUT_DIM_BITS])
        req = {"op": op, "size": size, "in_dim": "i", "out_dim": "o"}
        if op == "zeros_1d":
            req["out_dim_size"] = 1 << rng.choice([0, rng.randint(0, OUT_DIM_BITS), OUT_DIM_BITS])
        return req
    if op == "compose":
        return draw_compose(rng)
    if op == "product":
        return draw_product(rng)
    if op == "invert_and_compose":
        return draw_invert_and_compose(rng)
    if op in ("invert", "pseudoinvert"):
        outs = draw_outs(rng, draw_total(rng, TOTAL_BITS))
        n_out = sum(b for _, b in outs)
        n_in = n_out if op == "invert" else rng.randint(n_out, max(n_out, rng.choice([n_out, TOTAL_BITS])))
        return {"op": op, "layout": build(draw_ins(rng, n_in), outs, onto_columns(rng, n_in, n_out))}
    l = draw_layout(rng)
    req = {"op": op, "layout": l}
    if op == "apply":
        req["input"] = draw_input(rng, l)
    return req


# ------------------------------------------------------------ laws on bases
def result_shape(request):
    """The in dims [(name, bits)] and out dims [(name, bits)] the answer of a
    layout-valued request must have, in Triton's order; None for other ops."""
    op = request["op"]
    if op == "compose":
        return in_bits(request["self"]), out_bits(request["other"])
    if op in ("invert", "pseudoinvert"):
        return out_bits(request["layout"]), in_bits(request["layout"])
    if op == "invert_and_compose":
        return in_bits(request["self"]), in_bits(request["other"])
    if op == "product":
        def union(dims_of):
            bits = {}
            for l in (request["self"], request["other"]):
                for name, b in dims_of(l):
                    bits[name] = bits.get(name, 0) + b
            return list(bits.items())
        return union(in_bits), union(out_bits)
    if op in ("identity_1d", "zeros_1d"):
        return [(request["in_dim"], log2_size(request["size"]))], \
               [(request["out_dim"], log2_size(request.get("out_dim_size", request["size"])))]
    return None


def beyond_range(request):
    """Whether the answer cannot be a layout from_bases accepts."""
    shape = result_shape(request)
    if shape is None:
        return False
    ins, outs = shape
    return sum(b for _, b in ins) > TOTAL_BITS or sum(b for _, b in outs) > TOTAL_BITS or \
        any(b > OUT_DIM_BITS for _, b in outs)


def basis_law(request, answer):
    """Why `answer` breaks the op's law, or None. Each op is linear, so the
    law is checked on every input basis (and the answer's shape first)."""
    op = request["op"]
    shape = result_shape(request)
    if shape is not None:
        got = (in_bits(answer), out_bits(answer))
        if op in ("invert_and_compose", "product"):  # dim order is convention here
            got, shape = tuple(sorted(s) for s in got), tuple(sorted(s) for s in shape)
        if got != tuple(shape):
            return f"shape: in dims {got[0]}, out dims {got[1]}; want {shape[0]}, {shape[1]}"
    at = image
    if op == "compose":
        a, b = request["self"], request["other"]
        pairs = [(e, at(answer, e), at(b, as_input(at(a, e), b))) for e in units(in_bits(a))]
    elif op == "invert_and_compose":
        a, b = request["self"], request["other"]
        pairs = [(e, at(b, as_input(at(answer, e), b)), at(a, e)) for e in units(in_bits(a))]
    elif op in ("invert", "pseudoinvert"):
        # L(answer(u)) = u on every basis u of L's outputs. For invert, whose
        # answer is square (its shape was checked), that implies
        # answer(L(x)) = x too.
        l = request["layout"]
        pairs = [(u, at(l, as_input(at(answer, u), l)), u) for u in units(out_bits(l))]
    elif op == "product":
        inner, outer = request["self"], request["other"]
        offset = dict(in_bits(inner))
        shift = dict(out_bits(inner))
        pairs = [(e, at(answer, e), at(inner, e)) for e in units(in_bits(inner))]
        for e in units(in_bits(outer)):
            moved = {n: v << offset.get(n, 0) for n, v in e.items()}
            pairs.append((moved, at(answer, moved),
                          {o: v << shift.get(o, 0) for o, v in at(outer, e).items()}))
        pairs = [(e, {o: v for o, v in got.items() if v}, {o: v for o, v in want.items() if v})
                 for e, got, want in pairs]
    elif op in ("identity_1d", "zeros_1d"):
        ident = op == "identity_1d"
        pairs = [(e, at(answer, e), {request["out_dim"]: list(e.values())[0] if ident else 0})
                 for e in units(result_shape(request)[0])]
    elif op == "apply":
        pairs = [(request["input"], answer, image(request["layout"], request["input"]))]
    elif op == "matrix_view":
        l = request["layout"]
        outs = out_bits(l)
        want = [[flat(at(l, e), outs) >> r & 1 for e in units(in_bits(l))]
                for r in range(sum(b for _, b in outs))]
        pairs = [("the matrix", answer, want)]
    else:  # is_injective, is_surjective, is_invertible: by rank
        l = request["layout"]
        rank = f2_rank([flat(at(l, e), out_bits(l)) for e in units(in_bits(l))])
        n_in, n_out = sum(b for _, b in in_bits(l)), sum(b for _, b in out_bits(l))
        want = {"is_injective": rank == n_in, "is_surjective": rank == n_out,
                "is_invertible": rank == n_in == n_out}[op]
        pairs = [("the rank", answer, want)]
    for x, got, want in pairs:
        if not same(got, want):
            return f"law: at {json.dumps(x)}: {json.dumps(got)}, want {json.dumps(want)}"
    return None


# ------------------------------------------------------------ judging
def operands(request):
    return [request[k] for k in ("layout", "self", "other") if k in request]


def within_f2lay(request):
    """Whether f2lay's limits admit the operands and the answer: at most 64
    input and 64 output bits (the binding's too), no dim over 63 bits, at
    most 16 dims a side."""
    shapes = [(in_bits(l), out_bits(l)) for l in operands(request)] + \
        ([result_shape(request)] if result_shape(request) else [])
    return all(sum(b or 0 for _, b in side) <= TOTAL_BITS and len(side) <= F2LAY_DIMS and
               all((b or 0) <= F2LAY_DIM_BITS for _, b in side) for shape in shapes for side in shape)


def set_aside(self_, other):
    """The in dims Triton 3.9's invert_and_compose sets aside (measured, the
    rule the brief states): in both layouts with equal bases (out-dim sizes
    ignored), their out bits (the OR of their bases, per out dim) disjoint
    from the OR of the other in dims' bases, in each layout."""
    outs = [d["name"] for d in other["out_dims"]]
    def bases(l, dim):
        index = {d["name"]: k for k, d in enumerate(l["out_dims"])}
        return [[b[index[o]] for o in outs] for d in l["in_dims"] if d["name"] == dim for b in d["bases"]]
    def ors(l, dims):
        acc = [0] * len(outs)
        for b in (b for d in dims for b in bases(l, d)):
            acc = [x | y for x, y in zip(acc, b)]
        return acc
    def apart(l, dim):
        rest = [d["name"] for d in l["in_dims"] if d["name"] != dim]
        return not any(x & y for x, y in zip(ors(l, [dim]), ors(l, rest)))
    common = [d["name"] for d in self_["in_dims"] if d["name"] in {e["name"] for e in other["in_dims"]}]
    return [d for d in common if bases(self_, d) == bases(other, d) and apart(self_, d) and apart(other, d)]


def solved_columns(request):
    """How many columns Triton's least-squares solve gets: invert and
    pseudoinvert solve identity against the layout, invert_and_compose self
    against other, less the dims it sets aside; None for other ops."""
    op = request["op"]
    bits = lambda l, skip=(): sum(b for n, b in in_bits(l) if n not in skip)
    if op in ("invert", "pseudoinvert"):
        l = request["layout"]
        return bits(l) + sum(b for _, b in out_bits(l))
    if op == "invert_and_compose":
        aside = set_aside(request["self"], request["other"])
        return bits(request["self"], aside) + bits(request["other"], aside)
    return None


def finding_class(request, outcome):
    """A finding's class: the op, how Triton failed (its assertion or error
    with numbers and names taken out, or which law broke), whether an operand
    has an in dim of 31 or more bits (sizes past int32), whether the answer
    is beyond range and, for the ops that solve, whether the solve has more
    than 64 columns."""
    kind, detail = outcome
    if kind == "ok":
        what = f"wrong answer ({detail.split(':')[0]})"
    else:
        m = re.search(r"Assertion `(.*?)' failed", detail) or re.search(r"LLVM ERROR: ([^.]*)", detail)
        what = f"{kind}: " + re.sub(r"'[^']*'", "'X'", re.sub(r"-?\d+", "N", m.group(1) if m else detail))
    tags = []
    if any(b > IN_DIM_BITS for l in operands(request) for _, b in in_bits(l)):
        tags.append("an in dim of 31+ bits")
    if beyond_range(request):
        tags.append("its answer beyond range")
    columns = solved_columns(request)
    if columns is not None:
        tags.append(f"{'over' if columns > TOTAL_BITS else 'at most'} 64 columns to solve")
    return f"{request['op']}: {what}" + (f" ({'; '.join(tags)})" if tags else "")


def judge_whole(request, triton, mine):
    """One whole-range request. triton: ("ok", answer), ("abort", stderr),
    ("error", text) or ("hang", ""); mine: f2lay's response, or None where it
    was not asked. Returns (the Triton finding's class or None, f2lay's
    verdict: "agree", "by law" (both keep the law, answers differ, where the
    op may pick any), "f2lay only" (only f2lay answers by the law), "both
    refuse", "not asked" or "bug: why")."""
    law = basis_law(request, triton[1]) if triton[0] == "ok" else None
    lawful = triton[0] == "ok" and law is None
    finding = None
    if triton[0] == "ok" and law is not None:
        finding = finding_class(request, ("ok", law))
    elif triton[0] != "ok" and not beyond_range(request):
        finding = finding_class(request, triton)
    if mine is None:
        return finding, "not asked"
    if not mine.get("ok"):
        return finding, "bug: f2lay refuses a request Triton answers by its law" if lawful else "both refuse"
    why = basis_law(request, mine["result"])
    if why is not None:
        return finding, f"bug: f2lay's answer breaks {request['op']}'s law {why}"
    if not lawful:
        return finding, "f2lay only"
    if same(mine["result"], triton[1]):
        return finding, "agree"
    if request["op"] in ("invert_and_compose", "pseudoinvert"):
        return finding, "by law"
    return finding, "bug: both keep the law; f2lay's convention differs from Triton's"


# ------------------------------------------------------- Triton, forked
def triton_outcomes(requests, hang_s=20):
    """Triton's outcome for each request (oracle_client.forked_outcomes)."""
    return forked_outcomes(triton_answer, requests, hang_s)


# ------------------------------------------------------------ the report
def python_witness(request):
    """The request as lines of Python against Triton's binding."""
    lines = ["from triton._C.libtriton.linear_layout import LinearLayout as L"]
    for var, key in (("a", "layout"), ("a", "self"), ("b", "other")):
        if key in request:
            l = request[key]
            lines.append(f"{var} = L.from_bases({[(d['name'], d['bases']) for d in l['in_dims']]}, "
                         f"{[d['name'] for d in l['out_dims']]}, {[d['size'] for d in l['out_dims']]}, False)")
    op = request["op"]
    calls = {"compose": "a.compose(b)", "product": "a * b", "invert_and_compose": "a.invert_and_compose(b)",
             "invert": "a.invert()", "pseudoinvert": "a.pseudoinvert()", "matrix_view": "a.get_matrix_view()",
             "apply": f"a.apply({request.get('input')})",
             "identity_1d": f"L.identity_1d({request.get('size')}, 'i', 'o')",
             "zeros_1d": f"L.zeros_1d({request.get('size')}, 'i', 'o', {request.get('out_dim_size')})"}
    lines.append(calls.get(op, f"a.{op}()"))
    return "\n".join(lines)


def size_of(request):
    """How large a witness is: its bits and dims, then its text."""
    ls = operands(request)
    return (sum(b for l in ls for _, b in in_bits(l)) + sum(b or 0 for l in ls for _, b in out_bits(l)),
            sum(len(l["in_dims"]) + len(l["out_dims"]) for l in ls), len(json.dumps(request)))


class WholeRangeReport:
    """Counts of the whole-range mode and each finding class, with its
    smallest witness; its own summary, apart from the other checks'."""
    def __init__(self):
        self.valid = self.beyond = 0
        self.verdicts = {}
        self.classes = {}  # class -> [count, smallest request]
        self.bugs = []

    def add(self, request, triton, mine):
        if beyond_range(request):
            self.beyond += 1
        else:
            self.valid += 1
        finding, verdict = judge_whole(request, triton, mine)
        if finding is not None:
            entry = self.classes.setdefault(finding, [0, request])
            entry[0] += 1
            if size_of(request) < size_of(entry[1]):
                entry[1] = request
        if verdict.startswith("bug"):
            self.bugs.append(f"{verdict}\n  Triton {json.dumps(triton)[:500]}\n  f2lay "
                             f"{json.dumps(mine)[:500]}\n  request {json.dumps(request)}")
            verdict = "bug"
        self.verdicts[verdict] = self.verdicts.get(verdict, 0) + 1

    def finish(self, peer, seconds):
        """Prints the summary; 1 on any f2lay bug, else 0."""
        v = lambda k: self.verdicts.get(k, 0)
        print(f"triton_check: whole range: {peer}, {seconds:.0f} s: {self.valid} valid requests "
              f"(+{self.beyond} whose answer Triton cannot hold); f2lay agrees {v('agree')}, "
              f"by law only {v('by law')}, both refuse {v('both refuse')}, only f2lay keeps the law "
              f"{v('f2lay only')}, not asked (past f2lay's limits) {v('not asked')}; findings: "
              f"{sum(e[0] for e in self.classes.values())} in {len(self.classes)} classes; "
              f"f2lay bugs: {len(self.bugs)}")
        for name, (count, request) in sorted(self.classes.items(), key=lambda kv: -kv[1][0]):
            print(f"FINDING CLASS {name}: {count} cases; smallest witness:\n  "
                  + python_witness(request).replace("\n", "\n  "))
        for bug in self.bugs[:Report.SHOWN]:
            print("F2LAY BUG whole range:", bug)
        if len(self.bugs) > Report.SHOWN:
            print(f"F2LAY BUG ... and {len(self.bugs) - Report.SHOWN} more")
        return 1 if self.bugs else 0


def check_whole_range(f2lay, seconds, seed):
    """Draws batches of requests for `seconds`, each asked of Triton and of
    f2lay (what is within its limits) and judged; prints the summary."""
    rng, start = random.Random(seed), time.monotonic()
    report = WholeRangeReport()
    while time.monotonic() - start < seconds:
        batch = [draw_whole_range(rng) for _ in range(100)]
        responses = iter(ask_oracle(f2lay, [r for r in batch if within_f2lay(r)]))
        for request, triton in zip(batch, triton_outcomes(batch)):
            report.add(request, triton, next(responses) if within_f2lay(request) else None)
    return report.finish(f"Triton {__import__('triton').__version__}", time.monotonic() - start)


# ---------------------------------------------------------------------- main
def test_conventions(f2lay, options):
    report = Report("triton_check", f"Triton {__import__('triton').__version__}",
                    ["golden", "vectors", "aborts", "random"])
    rng = random.Random(options["seed"] or 1)
    pairs, other_release = [], 0
    for kind, req, expected in vector_requests():
        if kind == "other release":
            other_release += 1
        elif kind is None:
            report.f2lay_bug("vectors", req)  # a stated answer Triton does not give
        else:
            pairs.append((kind, req, expected))
    pairs += [("random", r, e) for r, e in random_requests(rng, options["cases"] or 300)]
    if other_release:
        print(f"triton_check: {other_release} vectors name another release than {INSTALLED} "
              "(\"triton\" key); not asked")
    compare(report, f2lay, pairs, judge)
    report.check()


def test_whole_range(f2lay, options):
    assert check_whole_range(f2lay, options["seconds"] or 30, options["seed"] or 1) == 0
