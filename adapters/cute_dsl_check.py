"""Checks CuTe DSL 4.8.1 (nvidia-cutlass-dsl, `cutlass.cute`) against f2lay and
against pycute (nvidia-cutlass 4.2's Python CuTe), on layouts that are linear
over F2: power-of-two shapes and strides, flat or nested, with swizzles
Swizzle<B,M,S>.

- swizzle: Sw<B,M,S> o shape:stride, evaluated by the DSL at every point,
  against f2lay's `cute_swizzle` (coordinate -> offset), which must give the
  same value everywhere or refuse exactly what CuTe does not define (|S| < B)
  and the layouts that are not linear over F2.
- the layout algebra: composition, complement, right_inverse, left_inverse,
  coalesce, logical_divide (by a layout, a by-mode tiler or an int) and
  logical_product, computed by the DSL and by pycute for the same inputs.
  Two answers agree when they have the same top-level modes and the same
  value at every 1-D index (both evaluated by CuTe's definition of a layout,
  cute_definition.py); where they also print alike, the text agrees too
  (a difference of text alone is a note, not a finding).
- against f2lay, where f2lay has the operation on linear layouts: the DSL's
  composition A o B against f2lay's `compose` of `cute_swizzle`'s layouts of
  B and A, brought back to CuTe by `linear_to_cute` (swizzled A included,
  which pycute cannot compose); the DSL's right_inverse (and left_inverse of
  a bijection) against f2lay's `pseudoinvert` where the layout is surjective
  onto 0..2^n-1.

Every disagreement is judged by CuTe's written definition of the operation,
checked by brute force here (R(c) == A(B(c)); complement ordered, disjoint
and covering; L(R(i)) == i with R the largest such layout; ...): the side
that breaks it is wrong. An f2lay bug fails the test; a finding in the DSL
or pycute is printed with a minimal reproducer (each shrunk greedily) and
not failed on.

    .venv/bin/python -m pytest adapters/cute_dsl_check.py \\
        --f2lay build/release/tools/f2lay [--cases N] [--seed S]

--cases: random cases per operation (default 1000: about 12 s on 2 cores,
the DSL's traces a few milliseconds a question); --seed (default 1).
"""
import importlib.metadata
import json
import os
import random
import re

import pytest

# No JIT cache: it would leave an .mlir file in $TMPDIR/$USER/cutlass_python_cache
# per trace, and every trace here is new.
os.environ.setdefault("CUTE_DSL_NO_CACHE", "1")
pytest.importorskip("cutlass.cute", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
pycute = pytest.importorskip("pycute", reason="pycute (nvidia-cutlass) is not installed")

import cute_dsl_jit  # noqa: E402  (after the skips: it imports cutlass.cute)
from cute_definition import index, nonlinear_pair, size, swizzle, valid, tuple_text  # noqa: E402
from oracle_client import Report, ask_oracle  # noqa: E402

OPS = ["composition", "complement", "right_inverse", "left_inverse", "coalesce",
       "logical_divide", "logical_product"]
KINDS = ["swizzle", "swizzle_text"] + OPS + ["compose_f2lay", "inverse_f2lay"]


# ------------------------------------------------------------ layouts as data
# A layout is ("L", shape, stride); a swizzled one ("S", b, m, s, shape,
# stride), Swizzle<b,m,s> o 0 o shape:stride. Shapes and strides are ints or
# nested tuples of them. An operation's question is (op, arg, ...), an
# argument a layout, a tuple of layouts (a by-mode tiler) or an int.

def modes(shape):
    """The sizes of the top-level modes (an int shape is one mode)."""
    return tuple(size(n) for n in shape) if isinstance(shape, tuple) else (shape,)


def depth(t):
    return 1 + max(map(depth, t), default=0) if isinstance(t, tuple) else 0


def at(spec, x):
    """CuTe's definition of a layout at the 1-D index x (an index past the
    size runs on in the last mode, as CuTe's crd2idx does)."""
    if spec[0] == "L":
        return index(spec[1], spec[2], x)
    b, m, s, shape, stride = spec[1:]
    return swizzle(b, m, s, index(shape, stride, x))


def values(spec):
    return [at(spec, x) for x in range(size(spec[-2]))]


def text(arg):
    """CuTe's C++ text of an argument: Sw<b,m,s> o shape:stride, shape:stride,
    <tiler, ...> or an int."""
    if isinstance(arg, int):
        return str(arg)
    if arg[0] == "L":
        return f"{tuple_text(arg[1])}:{tuple_text(arg[2])}"
    if arg[0] == "S":
        return f"Sw<{arg[1]},{arg[2]},{arg[3]}> o {tuple_text(arg[4])}:{tuple_text(arg[5])}"
    return "<" + ", ".join(map(text, arg)) + ">"


def question_text(q):
    return f"{q[0]}({', '.join(map(text, q[1:]))})"


# ------------------------------------------------------------ the two peers
def dsl_questions(cases):
    """The DSL's questions: a composition also says how many points of a
    composed (swizzled) result the DSL evaluates itself."""
    out = []
    for q in cases:
        if q[0] == "swizzle":
            out.append(("values", q[1], size(q[1][-2])))
        elif q[0] == "composition":
            out.append(q + (size(q[2][1]),))
        else:
            out.append(q)
    return out


def dsl_result(q, answer):
    """A DSL answer as ("ok", spec, text, its own values of a composed
    result or None), ("error", why) or ("crash", why); a swizzle question's
    as ("ok", (values, print))."""
    if answer[0] in ("error", "crash") or q[0] == "swizzle":
        return answer
    r = answer[1]
    if r[0] == "L":
        return "ok", ("L", r[1], r[2]), r[3], None
    sw = re.search(r"S<(-?\d+),(-?\d+),(-?\d+)>", r[1])
    if not sw or r[2] != 0:
        return "error", f"a composed result this check does not read: {r[5]}"
    return "ok", ("S", *map(int, sw.groups()), r[3], r[4]), r[5], r[6]


def pycute_arg(arg):
    if isinstance(arg, int):
        return arg
    if arg[0] == "L":
        return pycute.Layout(arg[1], arg[2])
    return tuple(pycute_arg(a) for a in arg)


def pycute_answer(q):
    """pycute's answer, as dsl_result's; None where pycute has no such
    question (a swizzled operand: pycute composes plain layouts only)."""
    if any(not isinstance(a, int) and a[0] == "S" for a in q[1:]):
        return None
    try:
        r = getattr(pycute, q[0])(*map(pycute_arg, q[1:]))
    except Exception as e:  # pycute refuses by assert
        return "error", f"{type(e).__name__}: {str(e)[:200]}"
    # pycute prints Python tuples, (4, 2):(2, 1) and (4,):(1,); its text in
    # CuTe's notation is that of its shape and stride
    return "ok", ("L", r.shape, r.stride), f"{tuple_text(r.shape)}:{tuple_text(r.stride)}", None


def same_function(a, b):
    """Both results have the same top-level modes and values."""
    return modes(a[-2]) == modes(b[-2]) and values(a) == values(b)


# ------------------------------------------------------------ CuTe's definitions
# Each returns None where the result meets the operation's written definition
# (include/cute/layout.hpp's post-conditions, media/docs/cpp/cute/
# 02_layout_algebra.md), else why not. Brute force over every point.

def image(spec):
    return set(values(spec))


def power_of_two(spec):
    shape = spec[-2]
    leaves = lambda t: [x for i in t for x in leaves(i)] if isinstance(t, tuple) else [t]
    return all(n & (n - 1) == 0 for n in leaves(shape))


def largest_right_inverse(L):
    """The largest 2^k such that a layout R of size 2^k has L(R(i)) == i for
    every i < 2^k. R's modes have power-of-two sizes, so R(i) is the sum of
    R(2^j) over the set bits j of i: a depth-first search over the preimages
    of 1, 2, 4, ... ."""
    pre, vals = {}, values(L)
    for x, v in enumerate(vals):
        pre.setdefault(v, []).append(x)
    best = 0

    def search(chosen):
        nonlocal best
        best = max(best, len(chosen))
        k = len(chosen)
        for x in pre.get(1 << k, []):
            sums = [0]
            for c in chosen + [x]:
                sums += [s + c for s in sums]
            # R's values are coordinates of L: inside its domain
            if all(s < len(vals) and vals[s] == i for i, s in enumerate(sums)):
                search(chosen + [x])
                if best == len(pre):  # cannot do better
                    return
    search([])
    return 1 << best


def composition_breaks(q, r):
    """R(x) == A(B(x)) for every x < size(B) with B(x) in A's domain: past
    it, A's values depend on how its last mode runs on, which coalesce
    (the first step of CuTe's composition) may change ((1):(1) is 1:0)."""
    A, B = q[1], q[2]
    if isinstance(B[1], tuple) and len(B[1]) > 1 and modes(r[-2]) != modes(B[1]):
        return f"top-level modes {modes(r[-2])}, not B's {modes(B[1])} (compatible(B, R))"
    if size(r[-2]) != size(B[1]):
        return f"size {size(r[-2])}, not size(B) = {size(B[1])}"
    n = size(A[-2])
    return next((f"R({x}) = {at(r, x)}, but A(B({x})) = A({at(B, x)}) = {at(A, at(B, x))}"
                 for x in range(size(B[1])) if 0 <= at(B, x) < n and at(r, x) != at(A, at(B, x))),
                None)


def complement_breaks(q, r):
    A, M = q[1], q[2]
    v, img = values(r), image(A)
    if not v:
        return f"size 0: {text(r)}"
    if any(v[i - 1] >= v[i] for i in range(1, len(v))):
        return f"not ordered: {v[:16]}"
    hit = next((i for i in range(1, len(v)) if v[i] in img), None)
    if hit is not None:
        return f"R({hit}) = {v[hit]} is also a value of A (not disjoint)"
    if max(img) + v[-1] + 1 < M:
        return f"cosize(make_layout(A, R)) = {max(img) + v[-1] + 1} < {M}"
    return None


def right_inverse_breaks(q, r):
    L = q[1]
    bad = next((i for i in range(size(r[-2])) if at(L, at(r, i)) != i), None)
    if bad is not None:
        return f"L(R({bad})) = L({at(r, bad)}) = {at(L, at(r, bad))}, not {bad}"
    # the largest one (CuTe's is "canonical"; its C++ follows every stride
    # from 1 up), searched where L's modes have power-of-two sizes
    if power_of_two(L) and size(r[-2]) < (n := largest_right_inverse(L)):
        return f"size {size(r[-2])}, but a right inverse of size {n} exists"
    return None


def left_inverse_breaks(q, r):
    """R(L(i)) == i for every i: L is injective (defined() leaves out the
    rest)."""
    v = values(q[1])
    return next((f"R(L({i})) = R({v[i]}) = {at(r, v[i])}, not {i}"
                 for i in range(len(v)) if at(r, v[i]) != i), None)


def coalesce_breaks(q, r):
    L = q[1]
    if size(r[-2]) != size(L[1]):
        return f"size {size(r[-2])}, not {size(L[1])}"
    if depth(r[1]) > 1:
        return f"depth {depth(r[1])} > 1"
    bad = next((x for x in range(size(L[1])) if at(r, x) != at(L, x)), None)
    if bad is not None:
        return f"R({bad}) = {at(r, bad)}, L({bad}) = {at(L, bad)}"
    flat = list(zip(*[(n, d) for n, d in zip(r[1], r[2])])) if isinstance(r[1], tuple) else []
    if flat and len(flat[0]) > 1:
        ns, ds = flat
        if 1 in ns:
            return "a mode of size 1 is left"
        k = next((i for i in range(1, len(ns)) if ds[i] == ns[i - 1] * ds[i - 1]), None)
        if k is not None:
            return f"modes {k - 1} and {k} could be one (d{k} == s{k - 1} * d{k - 1})"
    return None


def as_layout(tiler):
    return ("L", tiler, 1) if isinstance(tiler, int) else tiler


def mode(spec, k):
    """Top-level mode k of a layout (an int shape is its own mode 0)."""
    shape, stride = spec[1], spec[2]
    return ("L", shape[k], stride[k]) if isinstance(shape, tuple) else ("L", shape, stride)


def divide_breaks(A, B, r):
    """logical_divide(A, B) := A o (B, B*) with B* = complement(B, size(A)):
    mode 0 is A o B; mode 1 walks an ordered B*, disjoint from B, with
    cosize(make_layout(B, B*)) >= size(A)."""
    if not isinstance(r[1], tuple) or len(r[1]) != 2:
        return f"not two modes: {text(r)}"
    nb, n = size(B[1]), size(r[1])
    if size(r[1][0]) != nb:
        return f"mode 0 has size {size(r[1][0])}, not size(B) = {nb}"
    bad = next((i for i in range(nb) if at(r, i) != at(A, at(B, i))), None)
    if bad is not None:
        return f"R({bad}) = {at(r, bad)}, but A(B({bad})) = {at(A, at(B, bad))}"
    rest, img_b, c_prev = [0], image(B), 0
    bound = 2 * (size(A[1]) + max(img_b)) + 2
    a_at = [at(A, x) for x in range(bound + max(img_b) + 1)]
    where = {}  # A's value -> the offsets c with A(c) = it (B(0) is 0)
    for x, v in enumerate(a_at[:bound]):
        where.setdefault(v, []).append(x)
    b_at = [at(B, i) for i in range(nb)]
    for j in range(1, n // nb):
        want = [at(r, i + nb * j) for i in range(nb)]
        c = next((c for c in where.get(want[0], []) if c > c_prev and
                  all(a_at[b + c] == w for b, w in zip(b_at, want))), None)
        if c is None:
            return f"R's tile {j} is A(B(i) + c) for no c > {c_prev} (B* not ordered)"
        if c in img_b:
            return f"B*({j}) = {c} is also a value of B (not disjoint)"
        rest.append(c)
        c_prev = c
    if max(img_b) + rest[-1] + 1 < size(A[1]):
        return f"cosize(make_layout(B, B*)) = {max(img_b) + rest[-1] + 1} < size(A) = {size(A[1])}"
    return None


def logical_divide_breaks(q, r):
    A, B = q[1], q[2]
    if isinstance(B, int) or B[0] == "L":
        return divide_breaks(A, as_layout(B), r)
    # a by-mode tiler: mode k of R divides mode k of A by B[k]; the rest are A's
    rank = len(A[1]) if isinstance(A[1], tuple) else 1
    if not isinstance(r[1], tuple) or len(r[1]) != rank:
        return f"rank {len(r[1]) if isinstance(r[1], tuple) else 1}, not rank(A) = {rank}"
    for k in range(rank):
        rk, ak = mode(r, k), mode(A, k)
        why = divide_breaks(ak, as_layout(B[k]), rk) if k < len(B) else \
            (None if values(rk) == values(ak) else f"mode {k} is not A's")
        if why:
            return f"mode {k}: {why}"
    return None


def logical_product_breaks(q, r):
    """logical_product(A, B) := (A, A* o B), A* = complement(A,
    size(A) * cosize(B)): R(i + size(A) j) = A(i) + A*(B(j)) with A* ordered
    and disjoint from A."""
    A, B = q[1], as_layout(q[2])
    if not isinstance(r[1], tuple) or len(r[1]) != 2:
        return f"not two modes: {text(r)}"
    na, nb = size(A[1]), size(B[1])
    if modes(r[1]) != (na, nb):
        return f"modes {modes(r[1])}, not (size(A), size(B)) = {(na, nb)}"
    img_a, d = image(A), [at(r, na * j) for j in range(nb)]
    for j in range(nb):
        bad = next((i for i in range(na) if at(r, i + na * j) != at(A, i) + d[j]), None)
        if bad is not None:
            return f"R({bad} + {na}*{j}) = {at(r, bad + na * j)}, not A({bad}) + R({na}*{j})"
        if d[j] and d[j] in img_a:
            return f"A*(B({j})) = {d[j]} is also a value of A (not disjoint)"
    for j in range(nb):
        for k in range(nb):
            bj, bk = at(B, j), at(B, k)
            if (bj < bk) != (d[j] < d[k]) or (bj == bk) != (d[j] == d[k]):
                return (f"A* is not ordered: B({j}) = {bj}, B({k}) = {bk} but A* gives "
                        f"{d[j]}, {d[k]}")
    return None


BREAKS = {"composition": composition_breaks, "complement": complement_breaks,
          "right_inverse": right_inverse_breaks, "left_inverse": left_inverse_breaks,
          "coalesce": coalesce_breaks, "logical_divide": logical_divide_breaks,
          "logical_product": logical_product_breaks}


def defined(q):
    """Why CuTe does not define the question (its preconditions), or None."""
    for a in q[1:]:
        if not isinstance(a, int) and a[0] == "S" and not valid(*a[1:4]):
            return f"Swizzle<{a[1]},{a[2]},{a[3]}>: CuTe's static_assert |S| >= B"
    if q[0] == "left_inverse" and len(set(values(q[1]))) != size(q[1][-2]):
        # No layout R has R(L(i)) == i then, whatever either side answers.
        return "left_inverse of a layout that is not injective (CuTe's @pre)"
    return None


# ------------------------------------------------------------ f2lay
def cute_swizzle_request(spec):
    b, m, s, shape, stride = spec[1:] if spec[0] == "S" else (0, 0, 0, *spec[1:])
    as_list = lambda t: [as_list(i) for i in t] if isinstance(t, tuple) else t
    wrap = lambda t: as_list(t) if isinstance(t, tuple) else [t]
    return {"op": "cute_swizzle", "b": b, "m": m, "s": s, "shape": wrap(shape),
            "stride": wrap(stride), "direction": "coordinate_to_offset"}


def flat(layout, in_name="dim0", out_name=None):
    """f2lay's layout with its in dims flattened into one (the first in the
    low bits: CuTe's 1-D index, the sizes being powers of two)."""
    bases = [b for d in layout["in_dims"] for b in d["bases"]]
    out = layout["out_dims"][0]
    return {"in_dims": [{"name": in_name, "bases": bases}],
            "out_dims": [{"name": out_name or out["name"], "size": out["size"]}]}


def flat_values(layout):
    """A one-out-dim layout at every input, in order: XOR of the bases."""
    vals = [0]
    for d in layout["in_dims"]:
        for (b,) in d["bases"]:
            vals += [v ^ b for v in vals]
    return vals


# ------------------------------------------------------------ one batch
def outcomes(f2lay, cases):
    """Per case, its outcomes: (kind, None) where the sides agree, else
    (kind, (verdict, tag, why)); verdict "bug" (f2lay's) or "finding", tag
    what kind of disagreement it is (shrinking keeps it), or verdict "note"
    (another inverse that f2lay and the DSL both meet). Also the notes of
    the peer check: ("text" or "choice", op, question, DSL's, pycute's).
    The DSL answers every case in one trace (forked), f2lay in three oracle
    runs: cute_swizzle; compose and pseudoinvert; linear_to_cute."""
    dsl = [dsl_result(q, a) for q, a in zip(cases, cute_dsl_jit.ask(dsl_questions(cases)))]
    outs, notes = [[] for _ in cases], []
    # f2lay's first round: every layout's cute_swizzle, coordinate -> offset
    first_of, first = {}, []
    for i, q in enumerate(cases):
        wanted = [q[1]] if q[0] in ("swizzle", "right_inverse", "left_inverse") else \
            [q[1], q[2]] if q[0] == "composition" else []
        for spec in wanted:
            first_of[(i, spec)] = len(first)
            first.append(cute_swizzle_request(spec))
    swz = ask_oracle(f2lay, first) if first else []
    second, follow = [], []
    for i, q in enumerate(cases):
        d = dsl[i]
        if d[0] == "crash":  # never right, whatever the question
            kind = q[0] if q[0] in KINDS else "swizzle"
            outs[i].append((kind, ("finding", "CuTe DSL crashes", f"CuTe DSL: {d[1]}")))
            continue
        if q[0] == "swizzle":
            outs[i].append(("swizzle", swizzle_verdict(q[1], d, swz[first_of[(i, q[1])]])))
            if d[0] == "ok" and valid(*q[1][1:4]):
                outs[i].append(("swizzle_text", swizzle_text_verdict(q[1], d[1][1])))
            continue
        outs[i] += peer_verdicts(q, d, pycute_answer(q), notes)
        if d[0] != "ok" or defined(q):
            continue
        if q[0] == "composition":
            la, lb = (swz[first_of[(i, s)]] for s in (q[1], q[2]))
            # f2lay composes where both are linear and B's offsets are A's
            # 1-D indices (B's image inside A's domain)
            if la["ok"] and lb["ok"] and max(values(q[2])) < size(q[1][-2]):
                # B's out dim "offset" is A's flattened in dim
                lb_out = lb["result"]["out_dims"][0]
                self = {**lb["result"], "out_dims": [{**lb_out, "name": "dim0"}]}
                second.append({"op": "compose", "self": self, "other": flat(la["result"])})
                follow.append((i, "compose"))
        elif q[0] in ("right_inverse", "left_inverse"):  # f2lay's pseudoinverse of a surjection
            ll = swz[first_of[(i, q[1])]]
            v = values(q[1])
            if ll["ok"] and sorted(set(v)) == list(range(ll["result"]["out_dims"][0]["size"])):
                if q[0] == "left_inverse" and len(set(v)) != len(v):
                    continue  # a left inverse only of a bijection
                second.append({"op": "pseudoinvert", "layout": flat(ll["result"])})
                follow.append((i, "pseudoinvert"))
    answers = ask_oracle(f2lay, second) if second else []
    third, after = [], []
    for (i, what), resp in zip(follow, answers):
        q, d = cases[i], dsl[i]
        if what == "pseudoinvert":
            outs[i].append(("inverse_f2lay", inverse_verdict(q, d, resp)))
        elif not resp["ok"]:
            outs[i].append(("compose_f2lay", ("bug", "compose refuses",
                                              f"f2lay compose refuses: {resp['error']}")))
        else:
            third.append({"op": "linear_to_cute", "layout": resp["result"]})
            after.append((i, resp["result"]))
    for (i, composed), resp in zip(after, ask_oracle(f2lay, third) if third else []):
        outs[i].append(("compose_f2lay", compose_verdict(cases[i], dsl[i], composed, resp)))
    return outs, notes


def swizzle_verdict(spec, d, resp):
    """The DSL's values of Sw o L against f2lay's cute_swizzle (both against
    CuTe's definition where they differ)."""
    b, m, s = spec[1:4]
    printed = d[1][1] if d[0] == "ok" else None
    if d[0] == "ok":
        d = ("ok", d[1][0])  # the values (the print is checked on its own)
    if not valid(b, m, s):  # CuTe static_asserts: f2lay must refuse, the DSL should
        if resp["ok"]:
            return ("bug", "invalid swizzle answered",
                    f"f2lay answers {text(spec)}, which CuTe refuses")
        if d[0] == "ok":
            return ("finding", "CuTe DSL accepts |S| < B",
                    f"CuTe DSL accepts Swizzle<{b},{m},{s}> (CuTe static_asserts |S| >= B): it "
                    f"prints {printed!r} and gives {d[1][:16]}, CuTe's formula {values(spec)[:16]}")
        return None
    want = values(spec)  # CuTe's definition
    # f2lay against the definition first: its bug fails the test whatever
    # the DSL says
    pair = nonlinear_pair(want)
    if pair or min(want) < 0:
        if resp["ok"]:
            return ("bug", "non-linear answered",
                    f"f2lay answers a layout, but L is not linear: {pair}")
    elif not resp["ok"]:
        return "bug", "linear refused", f"linear; f2lay refuses: {resp['error']}"
    elif (x := next((x for x, (f, w) in enumerate(zip(flat_values(resp["result"]), want))
                     if f != w), None)) is not None:
        return "bug", "values", f"L({x}): CuTe's definition {want[x]}, f2lay " \
            f"{flat_values(resp['result'])[x]}, CuTe DSL {d[1][x] if d[0] == 'ok' else d[1]}"
    # f2lay meets the definition: the DSL against both
    if d[0] != "ok":
        return "finding", "CuTe DSL refuses", f"CuTe DSL refuses {text(spec)}: {d[1]}"
    x = next((x for x in range(len(want)) if d[1][x] != want[x]), None)
    return None if x is None else \
        ("finding", "CuTe DSL values", f"CuTe DSL gives L({x}) = {d[1][x]}; CuTe's definition "
         f"and f2lay {want[x]}")


def swizzle_text_verdict(spec, printed):
    """The DSL's print of make_composed_layout(make_swizzle(b, m, s), 0, L):
    CuTe's C++ text, with the DSL's S for Sw."""
    b, m, s, shape, stride = spec[1:]
    if b == 0:  # the identity, which make_swizzle writes S<0,4,3> on purpose
        m, s = 4, 3
    want = f"S<{b},{m},{s}> o 0 o {tuple_text(shape)}:{tuple_text(stride)}"
    return None if printed == want else \
        ("finding", "CuTe DSL prints", f"CuTe DSL prints {printed!r}, not {want!r}")


def cause(q):
    """What sets a question apart, for the tag of a finding (so that
    shrinking keeps to one cause)."""
    if q[0] in ("logical_divide", "logical_product") and isinstance(q[2], int):
        return " (an int tiler)"
    if q[0] in ("complement", "logical_product") and overlapping(q[1]):
        return " (A not injective off its stride-0 modes)"
    if q[0] in ("right_inverse", "left_inverse", "coalesce"):
        if overlapping(q[1]):
            return " (L's modes overlap)"
        if size_of_zero_modes(q[1]) > 1:
            return " (L has a stride-0 mode)"
    if q[0] == "composition" and max(values(q[2]), default=0) >= size(q[1][-2]):
        return " (B past A's domain)"
    return ""


def overlapping(spec):
    """Whether the layout, its stride-0 modes left out, is not injective
    (CuTe's complement static_asserts it is)."""
    v = values(spec)
    return len(set(v)) * size_of_zero_modes(spec) != len(v)


def size_of_zero_modes(spec):
    leaves = lambda t, d: [(a, b) for x, y in zip(t, d) for a, b in leaves(x, y)] \
        if isinstance(t, tuple) else [(t, d)]
    n = 1
    for shape, stride in leaves(spec[-2], spec[-1]):
        n *= shape if stride == 0 else 1
    return n


def peer_verdicts(q, d, p, notes):
    """The DSL against pycute (and both against CuTe's definition)."""
    op = q[0]
    if defined(q):  # outside CuTe's preconditions: nothing to compare
        return []
    if p is None:  # pycute has no such question: the DSL against the definition
        if d[0] != "ok":
            return [(op, ("finding", "CuTe DSL refuses", f"CuTe DSL refuses: {d[1]}"))]
        why = BREAKS[op](q, d[1])
        return [(op, why and ("finding", "CuTe DSL breaks", f"CuTe DSL: {text(d[1])}: {why}"))]
    if d[0] == "ok" and p[0] == "ok" and same_function(d[1], p[1]):
        # the same answer: both may still break the definition alike
        if why := BREAKS[op](q, d[1]):
            return [(op, ("finding", "CuTe DSL and pycute break" + cause(q),
                          f"both: {text(d[1])} ({why})"))]
        if d[2] != p[2]:
            notes.append(("text", op, question_text(q), d[2], p[2]))
        return [(op, None)]
    if d[0] == "error" and p[0] == "error":
        return [(op, None)]
    breaks = {name: (r[1], BREAKS[op](q, r[1])) if r[0] == "ok" else (None, f"refuses: {r[1]}")
              for name, r in (("CuTe DSL", d), ("pycute", p))}
    says = "; ".join(f"{name}: {text(r) if r else ''} ({why or 'meets the definition'})"
                     for name, (r, why) in breaks.items())
    wrong = [name for name, (r, why) in breaks.items() if why]
    if not wrong:  # both meet the definition, which leaves a choice
        notes.append(("choice", op + cause(q), question_text(q), text(d[1]), text(p[1])))
        return [(op, None)]
    # a refusal is wrong only where the other side's answer meets the definition
    refuse = all(breaks[w][0] is None for w in wrong)
    tag = " and ".join(wrong) + ((" refuse" if refuse else " break") if len(wrong) > 1 else
                                 (" refuses" if refuse else " breaks"))
    return [(op, ("finding", tag + cause(q), says))]


def inverse_verdict(q, d, resp):
    """The DSL's right (or left) inverse against f2lay's pseudoinverse of a
    surjective L, offset -> 1-D index."""
    if not resp["ok"]:
        return ("bug", "pseudoinvert refuses",
                f"f2lay pseudoinvert refuses a surjection: {resp['error']}")
    L, mine = q[1], flat_values(resp["result"])
    bad = next((o for o in range(len(mine)) if at(L, mine[o]) != o), None)
    if bad is not None:
        return "bug", "not an inverse", f"f2lay: L(P({bad})) = L({mine[bad]}) = {at(L, mine[bad])}"
    r = d[1]
    # a right inverse is compared on its own domain, a left inverse (of a
    # bijection) on L's offsets
    n = size(r[-2]) if q[0] == "right_inverse" else len(mine)
    theirs = [at(r, o) for o in range(n)]
    if theirs == mine:
        return None
    if why := BREAKS[q[0]](q, r):
        return "finding", "CuTe DSL breaks", f"CuTe DSL: {text(r)}: {why}; f2lay's P meets it"
    # both are inverses of L: another choice of the free bits, not a bug
    return "note", "another inverse", f"CuTe DSL {text(r)}: {theirs[:16]}; f2lay {mine[:16]}"


def compose_verdict(q, d, composed, resp):
    """linear_to_cute(compose(B, A)) against the DSL's A o B at every point."""
    want = [at(q[1], at(q[2], x)) for x in range(size(q[2][1]))]  # CuTe's definition
    mine = flat_values(composed)
    if mine != want:
        x = next(x for x in range(len(want)) if mine[x] != want[x])
        return "bug", "compose", f"f2lay compose at {x}: {mine[x]}; A(B({x})) = {want[x]}"
    if not resp["ok"] or resp["result"] is None:
        return "bug", "linear_to_cute", f"linear_to_cute gives no CuTe layout: {json.dumps(resp)}"
    a = resp["result"]
    tup = lambda j: tuple(map(tup, j)) if isinstance(j, list) else j
    back = ("S", a["b"], a["m"], a["s"], tup(a["shape"]), tup(a["stride"]))
    if modes(back[4]) != modes(q[2][1]) or values(back) != want:
        return "bug", "linear_to_cute", f"linear_to_cute gives {text(back)}, not A o B's values"
    dv = d[3] if d[3] is not None else values(d[1])
    if dv != want:
        x = next(x for x in range(len(want)) if dv[x] != want[x])
        return ("finding", "CuTe DSL breaks",
                f"CuTe DSL {text(d[1])} at {x}: {dv[x]}; A(B({x})) = {want[x]}, as f2lay")
    return None


# ------------------------------------------------------------ random cases
def random_layout(rng, bits, span=None, zero=0.1, nest=0.3, one=0.08, rank=None):
    """A layout whose leaves have power-of-two sizes (2^bits points at most)
    and distinct power-of-two strides on disjoint bits below 2^span (span
    None: a few gaps), so it is injective and linear over F2, except for a
    zero stride (a broadcast) here and there. A third of the modes nested."""
    rank = rank or rng.randint(1, 3)
    leaves, budget = [], bits
    for _ in range(rank):
        k = 1 if rng.random() > nest else rng.randint(2, 3)
        mode = []
        for _ in range(k):
            e = 0 if rng.random() < one else rng.randint(1, max(1, min(3, budget)))
            e = min(e, budget)
            budget -= e
            mode.append(e)
        leaves.append(mode)
    used = sum(map(sum, leaves))
    free = (span - used) if span is not None else rng.choice([0, 0, 1, 2])
    order = [(i, j) for i, mode in enumerate(leaves) for j in range(len(mode))]
    rng.shuffle(order)
    strides, pos = {}, 0
    for i, j in order:
        gap = rng.randint(0, max(0, free)) if rng.random() < 0.4 else 0
        free -= gap
        pos += gap
        strides[(i, j)] = 0 if rng.random() < zero else 1 << pos
        pos += leaves[i][j]

    # one mode of one leaf: half the time an int shape (8:1), else (8):(1)
    as_int = len(leaves) == 1 and len(leaves[0]) == 1 and rng.random() < 0.5

    def build(value):
        out = []
        for i, mode in enumerate(leaves):
            items = tuple(value(i, j) for j in range(len(mode)))
            out.append(items[0] if len(items) == 1 else items)
        return out[0] if as_int else tuple(out)

    return "L", build(lambda i, j: 1 << leaves[i][j]), build(lambda i, j: strides[(i, j)])


def random_swizzle(rng):
    b = rng.randint(1, 3)
    s = rng.randint(b, b + 3) * rng.choice([1, 1, 1, -1])
    return b, rng.randint(0, 3), s


def log2(n):
    return n.bit_length() - 1


def random_cases(rng, n):
    cases = []
    for _ in range(n):
        # swizzle: mostly linear and valid; some with |S| < B or an odd stride
        L = random_layout(rng, rng.randint(1, 7), zero=0.05)
        b, m, s = random_swizzle(rng)
        if rng.random() < 0.05:
            s = rng.choice([1, -1]) * rng.randint(0, b - 1)
        if rng.random() < 0.1:
            L = ("L", *odd_stride(rng, L[1], L[2]))
        cases.append(("swizzle", ("S", b, m, s, L[1], L[2])))
        # composition: B inside A's domain (f2lay composes those), a fifth beyond
        A = random_layout(rng, rng.randint(1, 6))
        inside = rng.random() < 0.8
        B = random_layout(rng, rng.randint(0, log2(size(A[1]))) if inside else rng.randint(1, 4),
                          span=log2(size(A[1])) if inside else None, zero=0.05)
        cases.append(("composition", A, B))
        if rng.random() < 0.4:  # a swizzled A (the DSL and f2lay only)
            b, m, s = random_swizzle(rng)
            cases.append(("composition", ("S", b, m, s, A[1], A[2]), B))
        A = overlap(rng, random_layout(rng, rng.randint(1, 6), zero=0.05))
        cos = max(values(A)) + 1
        M = rng.choice([cos, 1 << (cos - 1).bit_length(), 2 * (1 << (cos - 1).bit_length()),
                        rng.randint(1, 2 * cos)])
        cases.append(("complement", A, M))
        # inverses: compact layouts (onto 0..2^n-1) half the time, for f2lay
        for op in ("right_inverse", "left_inverse", "coalesce"):
            bits = rng.randint(1, 6)
            cases.append((op, random_layout(rng, bits, span=bits if rng.random() < 0.5 else None)))
        # logical_divide by a layout inside A's domain, a by-mode tiler, an int
        A = random_layout(rng, rng.randint(1, 6), zero=0.0)
        kind = rng.random()
        if kind < 0.6:
            n = size(A[1])
            tiler = random_layout(rng, rng.randint(0, log2(n)), span=log2(n), zero=0.0)
        elif kind < 0.85 and isinstance(A[1], tuple):
            tiler = tuple(random_layout(rng, rng.randint(0, log2(k)), span=log2(k), zero=0.0,
                                        rank=1)
                          for k in modes(A[1])[:rng.randint(1, len(A[1]))])
        else:
            tiler = 1 << rng.randint(0, log2(size(A[1])))
        cases.append(("logical_divide", A, tiler))
        A = overlap(rng, random_layout(rng, rng.randint(1, 4), zero=0.0))
        B = random_layout(rng, rng.randint(1, 3), zero=0.05) if rng.random() < 0.85 else \
            1 << rng.randint(0, 3)
        cases.append(("logical_product", A, B))
    return cases


def overlap(rng, spec, p=0.05):
    """Now and then a second mode on the bits of the first (2,2):(1,1):
    outside complement's precondition (injective), which CuTe's C++
    static_asserts."""
    if rng.random() >= p:
        return spec
    shape, stride = spec[1:]
    first = (shape if not isinstance(shape, tuple) else shape[0],
             stride if not isinstance(stride, tuple) else stride[0])
    if isinstance(first[0], tuple) or first[1] == 0 or first[0] == 1:
        return spec
    shape = (shape,) if not isinstance(shape, tuple) else shape
    stride = (stride,) if not isinstance(stride, tuple) else stride
    return "L", shape + (first[0],), stride + (first[1],)


def odd_stride(rng, shape, stride):
    """One leaf's stride made odd (3, 5, ...): carries, so mostly not linear."""
    flat_shape = [shape] if not isinstance(shape, tuple) else list(shape)
    k = rng.randrange(len(flat_shape))
    odd = rng.randrange(3, 12, 2)
    if not isinstance(stride, tuple):
        return shape, odd
    items = list(stride)
    items[k] = odd if not isinstance(items[k], tuple) else (odd,) + items[k][1:]
    return shape, tuple(items)


# ------------------------------------------------------------ shrinking
def smaller_layouts(spec):
    """Layouts one step smaller: a top-level mode dropped, a nested mode
    replaced by its first leaf, a leaf halved, a stride halved or zeroed;
    swizzles with smaller b, m, |s|."""
    if isinstance(spec, int):
        return [spec // 2] if spec > 1 else []
    if spec[0] not in ("L", "S"):  # a tiler: each item shrunk, or the last dropped
        out = [spec[:-1]] if len(spec) > 1 else []
        for k, item in enumerate(spec):
            out += [spec[:k] + (x,) + spec[k + 1:] for x in smaller_layouts(item)]
        return out
    head, shape, stride = spec[:-2], spec[-2], spec[-1]
    out = []
    if spec[0] == "S":
        b, m, s = spec[1:4]
        out += [("S", *t, shape, stride)
                for t in ((b - 1, m, s), (b, m - 1, s), (b, m, s - 1 if s > 0 else s + 1))
                if t[0] >= 0 and t[1] >= 0]
        out.append(("L", shape, stride))
    if isinstance(shape, tuple):
        if len(shape) > 1:
            out += [head + (shape[:k] + shape[k + 1:], stride[:k] + stride[k + 1:])
                    for k in range(len(shape))]
        else:
            out.append(head + (shape[0], stride[0]))
        for k, (n, d) in enumerate(zip(shape, stride)):
            for n2, d2 in smaller_leaves(n, d):
                out.append(head + (shape[:k] + (n2,) + shape[k + 1:],
                                   stride[:k] + (d2,) + stride[k + 1:]))
    else:
        out += [head + t for t in smaller_leaves(shape, stride)]
    return out


def smaller_leaves(n, d):
    if isinstance(n, tuple):
        out = [(n[0], d[0])] + ([(n[:-1], d[:-1])] if len(n) > 2 else [])
        for k in range(len(n)):
            for n2, d2 in smaller_leaves(n[k], d[k]):
                out.append((n[:k] + (n2,) + n[k + 1:], d[:k] + (d2,) + d[k + 1:]))
        return out
    out = [(n // 2, d)] if n > 1 else []
    out += [(n, e) for e in {d // 2, 0, 1} if e != d and e >= 0]
    return out


def weight(case):
    """Shrinking order: fewer numbers, fewer zeros (a stride 0 only where it
    is the cause), smaller numbers."""
    nums = [int(t) for t in re.findall(r"\d+", repr(case[1:]))]
    return len(nums), nums.count(0), sum(nums)


def shrink(f2lay, case, kind, verdict, tag, why):
    while True:
        cands = sorted({(case[0],) + args for args in smaller_args(case[1:])}, key=weight)
        # (a swizzle question keeps its swizzle)
        cands = [c for c in cands if weight(c) < weight(case) and
                 (c[0] != "swizzle" or c[1][0] == "S")]
        if not cands:
            return case, why
        outs, _ = outcomes(f2lay, cands)
        hit = next(((c, out[2]) for c, o in zip(cands, outs) for k, out in o
                    if k == kind and out and out[:2] == (verdict, tag)), None)
        if hit is None:
            return case, why
        case, why = hit


def smaller_args(args):
    for k, arg in enumerate(args):
        for small in smaller_layouts(arg):
            yield args[:k] + (small,) + args[k + 1:]


# ------------------------------------------------------------ reproducers
def dsl_expr(arg):
    if isinstance(arg, int):
        return str(arg)
    if arg[0] == "L":
        return f"cute.make_layout({arg[1]!r}, stride={arg[2]!r})"
    if arg[0] == "S":
        return (f"cute.make_composed_layout(cute.make_swizzle({arg[1]}, {arg[2]}, {arg[3]}), 0, "
                f"cute.make_layout({arg[4]!r}, stride={arg[5]!r}))")
    return "(" + ", ".join(map(dsl_expr, arg)) + ",)"


def reproducer(case, kind, tag):
    """A few lines of Python that show the finding (CuTe DSL's in a file of
    its own: @cute.jit reads its source)."""
    if kind == "swizzle_text":
        line = f"    print({dsl_expr(case[1])})"
    elif case[0] == "swizzle":
        n = size(case[1][-2])
        expr = f"[L(i) for i in range({n})] where L = {dsl_expr(case[1])}"
        line = f"    L = {dsl_expr(case[1])}\n    print([L(i) for i in range({n})])"
    else:
        expr = f"cute.{case[0]}({', '.join(map(dsl_expr, case[1:]))})"
        line = f"    print({expr})"
    dsl = f"import cutlass.cute as cute\n@cute.jit\ndef f():\n{line}\nf()"
    py = None
    if "pycute" in tag and case[0] != "swizzle":
        pa = lambda a: str(a) if isinstance(a, int) else f"pycute.Layout({a[1]!r}, {a[2]!r})" \
            if a[0] == "L" else "(" + ", ".join(map(pa, a)) + ",)"
        py = f"import pycute; print(pycute.{case[0]}({', '.join(map(pa, case[1:]))}))"
    return dsl + (f"\n--- pycute:\n{py}" if py else "")


# ------------------------------------------------------------ the test
def test_cute_dsl(f2lay, options):
    cases_per_op = options["cases"] or 1000
    rng = random.Random(1 if options["seed"] is None else options["seed"])
    dsl_version = importlib.metadata.version("nvidia-cutlass-dsl")
    pycute_version = importlib.metadata.version("nvidia-cutlass")
    report = Report("cute_dsl_check", f"CuTe DSL {dsl_version} (pycute {pycute_version})", KINDS)
    cases = fixed_cases() + random_cases(rng, cases_per_op)
    outs, notes = outcomes(f2lay, cases)
    groups = {}  # (kind, verdict, tag) -> [(case, why)]
    for case, case_outs in zip(cases, outs):
        for kind, out in case_outs:
            if out is None:
                report.agree(kind)
            elif out[0] == "note":
                notes.append(("choice", kind, question_text(case), *out[2].split("; f2lay ")))
            else:
                groups.setdefault((kind, *out[:2]), []).append((case, out[2]))
    for (kind, verdict, tag), hits in sorted(groups.items()):
        case, why = min(hits, key=lambda h: weight(h[0]))
        small, small_why = shrink(f2lay, case, kind, verdict, tag, why)
        line = (f"{tag}: {len(hits)} cases, e.g. {question_text(case)}; minimal "
                f"{question_text(small)}: {small_why}\n  reproducer:\n" +
                "\n".join("    " + l for l in reproducer(small, kind, tag).splitlines()))
        (report.f2lay_bug if verdict == "bug" else report.finding)(kind, line)
    print_notes(notes)
    report.check()


def fixed_cases():
    """The examples of CuTe's documentation (02_layout_algebra.md), whose
    answers the docs print, then a few edges: size-1 and stride-0 modes."""
    L = lambda shape, stride: ("L", shape, stride)
    return [
        ("composition", L((6, 2), (8, 2)), L((4, 3), (3, 1))),
        ("composition", L(20, 2), L((5, 4), (4, 1))),
        ("composition", L((10, 2), (16, 4)), L((5, 4), (1, 5))),
        ("complement", L(4, 1), 24), ("complement", L(6, 4), 24),
        ("complement", L((4, 6), (1, 4)), 24), ("complement", L(4, 2), 24),
        ("complement", L((2, 4), (1, 6)), 24), ("complement", L((2, 2), (1, 6)), 24),
        ("logical_divide", L((4, 2, 3), (2, 1, 8)), L(4, 2)),
        ("logical_product", L((2, 2), (4, 1)), L(6, 1)),
        ("logical_product", L((2, 2), (4, 1)), L((4, 2), (2, 1))),
        ("coalesce", L((2, (1, 6)), (1, (6, 2)))),
        ("right_inverse", L((2, 4, 6), (4, 1, 8))), ("left_inverse", L((2, 4, 6), (4, 1, 8))),
        ("right_inverse", L((2, 4), (0, 1))), ("left_inverse", L((2, 4), (0, 1))),
        ("right_inverse", L(1, 0)), ("coalesce", L((1, 1), (0, 0))),
        # outside complement's precondition (CuTe's C++ static_asserts)
        ("complement", L((2, 2), (1, 1)), 16), ("logical_product", L((2, 2), (1, 1)), L(2, 1)),
    ]


def print_notes(notes):
    """What is not a finding, counted per operation with its first example:
    answers with the same function printed differently ("text"), and
    different answers that both meet CuTe's definition, which leaves a
    choice ("choice": a left inverse off L's image, an inverse's free bits)."""
    per_op = {}
    for what, op, q, a, b in notes:
        per_op.setdefault((what, op), []).append((q, a, b))
    for (what, op), items in sorted(per_op.items()):
        q, a, b = items[0]
        other = "f2lay" if op.endswith("_f2lay") else "pycute"
        say = "the same function printed differently" if what == "text" else \
            "other answers, both meeting CuTe's definition"
        print(f"NOTE {op}: {len(items)} {say} (e.g. {q}: CuTe DSL {a}, {other} {b})")
