#!/usr/bin/env python3
"""Checks f2lay's conventions against Triton's own LinearLayout.

Triton's wheel carries Python bindings of its C++ LinearLayout
(triton._C.libtriton.linear_layout). This script asks both Triton and
`f2lay oracle` the same questions and compares the answers:

  * random layouts: matrix_view, is_injective/is_surjective/is_invertible,
    apply, compose, product, pseudoinvert, invert, invert_and_compose, equal;
  * every golden case of tools/cases/*.jsonl whose op the binding has, so the
    expected values written there are checked against Triton too.

Usage: triton_check.py F2LAY_BINARY [--cases N] [--seed S]
Exit status: 0 when everything agrees, 1 on any disagreement (printed with its
request), 2 on usage errors, 77 (skip) when Triton is not installed. Triton aborts the whole process on a layout it
rejects, so only valid requests are given to it.
"""
import argparse
import json
import pathlib
import random
import sys

from oracle_client import ERROR, compare

try:
    from triton._C.libtriton.linear_layout import LinearLayout as TLL
except ImportError as e:  # pragma: no cover - reported, not failed on
    print(f"triton_check: Triton is not installed ({e}); run scripts/setup", file=sys.stderr)
    sys.exit(77)  # ctest's skip code

CASES_DIR = pathlib.Path(__file__).resolve().parent.parent / "tools" / "cases"


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
def triton_answer(req):
    """Triton's answer to a golden request, or None where the binding has no
    such op or the request is meant to fail (Triton would abort)."""
    op = req["op"]
    one = lambda k: to_triton(req[k])
    if op == "identity_1d":
        return from_triton(TLL.identity_1d(req["size"], req["in_dim"], req["out_dim"]))
    if op == "zeros_1d":
        return from_triton(TLL.zeros_1d(req["size"], req["in_dim"], req["out_dim"],
                                        req.get("out_dim_size", 1)))
    if op == "apply":
        return dict(one("layout").apply(req["input"]))
    if op == "compose":
        return from_triton(one("self").compose(one("other")))
    if op == "product":
        return from_triton(one("self") * one("other"))
    if op == "invert_and_compose":
        return from_triton(one("self").invert_and_compose(one("other")))
    if op in ("invert", "pseudoinvert"):
        return from_triton(getattr(one("layout"), op)())
    if op in ("is_injective", "is_surjective", "is_invertible"):
        return getattr(one("layout"), op)()
    if op == "matrix_view":
        return one("layout").get_matrix_view()
    if op == "equal":
        return one("self") == one("other")
    return None


def golden_requests():
    for path in sorted(CASES_DIR.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            if not case["expect"]["ok"]:
                continue
            expected = triton_answer(case["request"])
            if expected is None:
                continue
            if expected != case["expect"]["result"]:
                yield None, f"{path.name}: {case['name']}: the file says " \
                            f"{json.dumps(case['expect']['result'])}, Triton says {json.dumps(expected)}"
            yield case["request"], expected


# ---------------------------------------------------------------------- main
def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("f2lay")
    parser.add_argument("--cases", type=int, default=300, help="random rounds (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    pairs, problems = [], []
    for req, expected in golden_requests():
        if req is None:
            problems.append(expected)
        else:
            pairs.append(("golden", req, expected))
    pairs += [("random", r, e) for r, e in random_requests(rng, args.cases)]

    return compare("triton_check", f"Triton {__import__('triton').__version__}", args.f2lay,
                   pairs, ["golden", "random"], problems)


if __name__ == "__main__":
    sys.exit(main())
