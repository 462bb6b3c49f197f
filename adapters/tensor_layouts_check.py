"""Checks tensor-layouts' F2 matrices of CuTe layouts against f2lay.

to_F2_matrix of Layout(shape, stride), ComposedLayout(Swizzle, Layout) and
compose(Swizzle, Layout) is compared with f2lay's cute_swizzle (direction
coordinate_to_offset) then matrix_view; from_F2_matrix(M, shape) with f2lay's
linear_to_cute. Both sides are judged by the CuTe definition evaluated here at
every point: f2lay wrong is an f2lay bug (exit 1), tensor-layouts wrong a
finding (printed, not failed on). Disagreements are grouped by how they
disagree; each group prints one case shrunk to a minimal witness.

Matrix conventions: to_F2_matrix's M[i][j] is offset bit i (row 0 = LSB) of
coordinate bit j, columns colexicographic (mode 0's bits first, each LSB
first). f2lay's matrix_view is oriented alike (a row per bit of "offset", a
column per input bit, dim0 = CuTe mode 0 lowest), so both are read as column
integers. Only the row count differs: tensor-layouts has bit_length(cosize-1)
rows (a ComposedLayout's trailing zero rows trimmed), never fewer than 1;
f2lay has log2 of the offset size, the least power of two above every image
(0 rows when every image is 0). So tensor-layouts' rows = max(1, f2lay's).

A pytest module (conftest.py): --cases random layouts (default 1000), --seed
(default 1); it skips where tensor_layouts is not installed.
"""
import functools
import importlib.metadata
import math
import operator
import random
import re

import pytest

from cute_definition import at, coord, nonlinear_pair, sizes, text, valid
from oracle_client import Report, ask_oracle, same

pytest.importorskip("tensor_layouts", reason="tensor_layouts is not installed (scripts/setup installs it)")
from tensor_layouts import ComposedLayout, Layout, Swizzle, compose  # noqa: E402
from tensor_layouts.analysis import from_F2_matrix, to_F2_matrix  # noqa: E402

KINDS = ["plain", "swizzled", "refusal", "from_F2"]
FORMS = ["composed", "compose"]  # swizzled forms; "kwarg" joins where Layout(swizzle=) works
SHRUNK = 4  # cases shrunk per group: each shrinking step costs oracle runs

def named(sw, shape, stride):
    return text((*sw, tuple(shape), tuple(stride)))

def xor_of(cols, x):
    """A matrix's map: the XOR of the columns of x's set bits."""
    return functools.reduce(operator.xor, (c for j, c in enumerate(cols) if x >> j & 1), 0)

def reach(cols):
    return functools.reduce(operator.or_, cols, 0)

def truth(sw, shape, stride):
    """('linear', cols, rows), ('nonlinear', witness) or ('invalid', why)."""
    for k, n in enumerate(shape):
        if n < 1 or n & (n - 1):
            return ("invalid", f"shape[{k}] = {n} is not a power of two")
    vals = [at((*sw, shape, stride), i) for i in range(math.prod(shape))]
    neg = next((i for i, v in enumerate(vals) if v < 0), None)
    if neg is not None:
        return ("invalid", f"L{coord(shape, neg)} = {vals[neg]} is a negative offset")
    pair = nonlinear_pair(vals)
    if pair is not None:
        x, y = pair
        return ("nonlinear", f"x = {coord(shape, x)}, y = {coord(shape, y)}: L(x xor y) = "
                             f"{vals[x ^ y]} but L(x) xor L(y) = {vals[x]} xor {vals[y]}")
    cols = [vals[1 << j] for j in range(len(vals).bit_length() - 1)]
    return ("linear", cols, reach(cols).bit_length())

def difference(shape, got, rows, want, want_rows, side):
    """The least input bit where two matrices differ, else their row counts."""
    for j in range(max(len(got), len(want))):
        if got[j:j + 1] != want[j:j + 1]:
            return f"input bit {j} = coordinate {coord(shape, 1 << j)}: {side} {got[j:j + 1]}, truth {want[j:j + 1]}"
    return f"{side} {rows} rows, truth {want_rows}"

# ---------------------------------------------------------- to_F2_matrix
def columns(matrix, ncols):
    return [sum(row[j] << i for i, row in enumerate(matrix)) for j in range(ncols)]

def tl_answer(case):
    """('matrix', cols, rows) or ('error', message) from tensor-layouts."""
    shape, stride, sw, form = case["shape"], case["stride"], Swizzle(*case["sw"]), case["form"]
    try:
        lay = Layout(shape[0], stride[0]) if len(shape) == 1 else Layout(tuple(shape), tuple(stride))
        lay = {"plain": lambda: lay, "composed": lambda: ComposedLayout(sw, lay), "compose": lambda: compose(sw, lay),
               "kwarg": lambda: Layout(lay.shape, lay.stride, swizzle=sw)}[form]()
        M = to_F2_matrix(lay)
        return ("matrix", columns(M, len(M[0])), len(M))
    except Exception as e:  # any refusal counts, whatever its type
        return ("error", f"{type(e).__name__}: {e}")

def f2lay_answers(f2lay, cases):
    """cute_swizzle, then matrix_view of what it built: two oracle runs for all cases."""
    first = ask_oracle(f2lay, [{"op": "cute_swizzle", "b": c["sw"][0], "m": c["sw"][1], "s": c["sw"][2],
                                "shape": c["shape"], "stride": c["stride"],
                                "direction": "coordinate_to_offset"} for c in cases])
    views = iter(ask_oracle(f2lay, [{"op": "matrix_view", "layout": r["result"]} for r in first if r["ok"]]))
    out = []
    for r in first:
        if not r["ok"]:
            out.append(("error", r["error"]))
            continue
        v, ncols = next(views), sum(len(d["bases"]) for d in r["result"]["in_dims"])
        out.append(("matrix", columns(v["result"], ncols), len(v["result"])) if v["ok"]
                   else ("error", "matrix_view: " + v["error"]))
    return out

def judge_layout(case, T, F, P):
    """{side: (what is wrong, witness)} for each side the truth T contradicts."""
    sw, shape, v = case["sw"], case["shape"], {}
    if T[0] == "linear" and valid(*sw):
        if F[0] == "error":
            v["f2lay"] = ("refuses a linear layout", F[1])
        elif not same(list(F[1:]), list(T[1:])):
            v["f2lay"] = ("wrong matrix", difference(shape, F[1], F[2], T[1], T[2], "f2lay"))
    elif F[0] == "matrix":
        v["f2lay"] = ("accepts a layout that CuTe refuses", "|S| < B" if T[0] == "linear" else T[1])
    elif T[0] == "nonlinear":  # the pair f2lay names must break linearity
        w = re.search(r"x = \(([-\d,]+)\), y = \(([-\d,]+)\)", F[1])
        if w:
            x, y = [tuple(map(int, g.split(","))) for g in w.groups()]
            at_coord = lambda c: at((*sw, shape, case["stride"]), sum(k * math.prod(shape[:i]) for i, k in enumerate(c)))
            if at_coord(tuple(a ^ b for a, b in zip(x, y))) == at_coord(x) ^ at_coord(y):
                v["f2lay"] = ("names a false witness", F[1])
    if T[0] == "linear":
        if P[0] == "error" and valid(*sw):  # outside CuTe, refusing is fine
            v["tl"] = ("raises for a linear layout", P[1][:160])
        elif P[0] == "matrix" and not same(list(P[1:]), [T[1], max(1, T[2])]):
            v["tl"] = ("wrong matrix", difference(shape, P[1], P[2], T[1], max(1, T[2]), "tensor-layouts"))
    elif P[0] == "matrix":
        v["tl"] = (f"returns a matrix for a {T[0]} layout", f"{T[1]}; its columns {P[1]}")
    return v

def layout_verdicts(f2lay, cases):
    """(kind, {side: (what, witness)}) per layout case."""
    out = []
    for c, F in zip(cases, f2lay_answers(f2lay, cases)):
        T = truth(c["sw"], c["shape"], c["stride"])
        kind = "refusal" if T[0] != "linear" or not valid(*c["sw"]) else "swizzled" if c["sw"][0] else "plain"
        out.append((kind, judge_layout(c, T, F, tl_answer(c))))
    return out

# ------------------------------------------- from_F2_matrix / linear_to_cute
def rows(c):
    """A matrix case's rows: tensor-layouts' count (at least 1) plus c["pad"] zero rows on top."""
    return max(1, reach(c["cols"]).bit_length()) + c["pad"]

def realizes(ans, c):
    """None when the CuTe layout ans = (sw, shape, stride) is the matrix's map, else where not."""
    sw, shape, stride = ans
    if list(sizes(tuple(shape))) != c["shape"]:  # a mode may be nested (linear_to_cute)
        return f"shape {shape}, not {c['shape']}"
    for x in range(math.prod(c["shape"])):
        if at((*sw, shape, stride), x) != xor_of(c["cols"], x):
            return f"at {coord(shape, x)} it gives {at((*sw, shape, stride), x)}, the matrix {xor_of(c['cols'], x)}"
    return None

def tup(j):
    """JSON arrays, nested, as tuples (CuTe's IntTuples)."""
    return tuple(map(tup, j)) if isinstance(j, list) else j

def tl_from_F2(c):
    """from_F2_matrix's (sw, shape, stride), or None and its error."""
    M = [[x >> i & 1 for x in c["cols"]] for i in range(rows(c))]
    try:
        got = from_F2_matrix(M, c["shape"][0] if len(c["shape"]) == 1 else tuple(c["shape"]))
    except Exception as e:
        return None, f"{type(e).__name__}: {str(e)[:100]}"
    sw = (0, 0, 0)
    if isinstance(got, ComposedLayout) and isinstance(got.outer, Swizzle) and got.offset == 0:
        sw, got = (got.outer.bits, got.outer.base, got.outer.shift), got.inner
    sh, st = got.shape, got.stride
    return ((sw, [sh], [st]) if isinstance(sh, int) else (sw, list(sh), list(st))), None

def judge_matrix(f2lay, cases):
    """('from_F2', {side: (what, witness)}) per matrix case."""
    reqs = []
    for c in cases:
        bits = [n.bit_length() - 1 for n in c["shape"]]
        reqs.append({"op": "linear_to_cute", "layout": {
            "in_dims": [{"name": f"dim{k}", "bases": [[x] for x in c["cols"][sum(bits[:k]):sum(bits[:k + 1])]]}
                        for k in range(len(bits))],
            "out_dims": [{"name": "offset", "size": 1 << rows(c)}]}})
    out = []
    for c, r in zip(cases, ask_oracle(f2lay, reqs)):
        P, p_miss = tl_from_F2(c)
        p_miss = p_miss or realizes(P, c)
        F = r.get("result") and (tuple(r["result"][k] for k in "bms"), tup(r["result"]["shape"]),
                                 tup(r["result"]["stride"]))
        f_miss = F and realizes(F, c)
        # CuTe layouts (|S| >= B) known to realize the matrix: its origin, or an answer.
        known = [k for k, ok in ((c["origin"] and named(*c["origin"]), c["origin"]), (F and named(*F), F and not f_miss),
                                 (P and named(*P), P and not p_miss and valid(*P[0]))) if ok]
        # linear_to_cute prefers a flat layout to a nested one (reference/catalog/cute.h):
        # its b is the smallest among the flat ones.
        plain = [k for k in known if k.startswith("Sw<0,") and "((" not in k and ",(" not in k]
        v = {}
        if not r["ok"]:
            v["f2lay"] = ("linear_to_cute errors", r["error"])
        elif not F and known:
            v["f2lay"] = ("linear_to_cute is null though a CuTe layout realizes the matrix", known[0])
        elif F and f_miss:
            v["f2lay"] = ("linear_to_cute's layout misses the matrix", f"{named(*F)}: {f_miss}")
        elif F and F[0][0] and plain:
            v["f2lay"] = ("linear_to_cute's b is not the smallest", f"{named(*F)}, but {plain[0]} needs no swizzle")
        if P and p_miss:
            v["tl"] = ("from_F2_matrix's layout misses the matrix", f"{named(*P)}: {p_miss}")
        elif not P and known and not c["pad"]:  # padded, no L has to_F2_matrix(L) == M
            v["tl"] = ("from_F2_matrix refuses a matrix that a CuTe layout realizes", f"{known[0]}; {p_miss}")
        out.append(("from_F2", v))
    return out

# ---------------------------------------------------- drawing and shrinking
def draw_layout(rng):
    rank = rng.randint(1, 3)
    shape = [1 << rng.randint(0, 4 if rank < 3 else 3) for _ in range(rank)]
    if rng.random() < 0.05:
        shape[rng.randrange(rank)] = rng.choice([3, 6, 12])
    if rng.random() < 0.4:  # compact column- or row-major strides, where swizzles bite
        stride, acc = [0] * rank, 1
        for k in list(range(rank))[::rng.choice([1, -1])]:
            stride[k], acc = acc, acc * shape[k]
    else:
        stride = [rng.choice([0, 1 << rng.randint(0, 8), 1 << rng.randint(0, 8), rng.randint(3, 40),
                              -rng.choice([1, 2]) if rng.random() < 0.2 else 1]) for _ in range(rank)]
    sw = (0, 0, 0)
    if rng.random() < 0.5:  # one in ten with |S| < B, which CuTe refuses
        b = rng.randint(1, 3)
        sw = (b, rng.randint(0, 4), rng.choice([1, -1]) * rng.randint(b if rng.random() < 0.9 else 0, b + 4))
    return {"shape": shape, "stride": stride, "sw": sw,
            "form": rng.choice(FORMS) if sw[0] else rng.choice(["plain", "composed"])}

def shrink_layout(c):
    sh, st, (b, m, s) = c["shape"], c["stride"], c["sw"]
    for k in range(len(sh)):
        if len(sh) > 1:
            yield dict(c, shape=sh[:k] + sh[k + 1:], stride=st[:k] + st[k + 1:])
        if sh[k] > 1:
            yield dict(c, shape=sh[:k] + [sh[k] // 2] + sh[k + 1:])
    for sw in ((b - 1, m, s), (b, m - 1, s), (b, m, s - (s > 0) + (s < 0))):
        if min(sw[:2]) >= 0 and sw != (b, m, s):
            yield dict(c, sw=sw)
    for k, d in enumerate(st):
        for e in sorted({int(d / 2), d - (d > 0) + (d < 0), d - 2 * ((d > 2) - (d < -2))} - {d}, key=abs):
            yield dict(c, stride=st[:k] + [e] + st[k + 1:])

def shrink_matrix(c):
    sh, cols, bits, o = c["shape"], c["cols"], [n.bit_length() - 1 for n in c["shape"]], c["origin"]
    for k in range(len(sh)):  # a layout it came from loses the mode, or its top bit, too
        if sh[k] == 1 and len(sh) > 1:
            yield dict(c, shape=sh[:k] + sh[k + 1:], origin=o and (o[0], o[1][:k] + o[1][k + 1:], o[2][:k] + o[2][k + 1:]))
        if sh[k] > 1:
            top, half = sum(bits[:k + 1]) - 1, sh[:k] + [sh[k] // 2] + sh[k + 1:]
            yield dict(c, shape=half, cols=cols[:top] + cols[top + 1:], origin=o and (o[0], half, o[2]))
    c = dict(c, origin=None)  # other changes lose it
    if c["pad"]:
        yield dict(c, pad=c["pad"] - 1)
    for i in range(reach(cols).bit_length()):  # drop row i
        yield dict(c, cols=[x & ((1 << i) - 1) | x >> (i + 1) << i for x in cols])
    for j, x in enumerate(cols):
        for i in range(x.bit_length()):
            if x >> i & 1:
                yield dict(c, cols=cols[:j] + [x ^ 1 << i] + cols[j + 1:])

def signature(kind_v):
    kind, v = kind_v
    return kind, sorted((side, what) for side, (what, _) in v.items())

def minimize(f2lay, cases, judge, candidates):
    """Greedy: each case moves to its first smaller candidate of the same kind with the same
    sides wrong in the same ways, until it has none; one oracle round per step for all."""
    done, live = [[c, v] for c, v in zip(cases, judge(f2lay, cases))], set(range(len(cases)))
    while live:
        tries = [(k, t) for k in sorted(live) for t in candidates(done[k][0])]
        moved = set()
        for (k, t), v in zip(tries, judge(f2lay, [t for _, t in tries]) if tries else []):
            if k not in moved and signature(v) == signature(done[k][1]):
                done[k], moved = [t, v], moved | {k}
        live = moved
    return done

def describe(c):
    if "cols" in c:
        M = [[x >> i & 1 for x in c["cols"]] for i in range(rows(c))]
        return f"from_F2_matrix({M}, {tuple(c['shape'])}) (columns {c['cols']})"
    sw, sh, st = c["sw"], tuple(c["shape"]), tuple(c["stride"])
    lay = f"Layout({sh[0]}, {st[0]})" if len(sh) == 1 else f"Layout({sh}, {st})"
    return {"plain": lay, "composed": f"ComposedLayout(Swizzle{sw}, {lay})", "compose": f"compose(Swizzle{sw}, {lay})",
            "kwarg": f"Layout({sh}, {st}, swizzle=Swizzle{sw})"}[c["form"]] + f" = CuTe {named(sw, sh, st)}"

def test_tensor_layouts(f2lay, options):
    n_cases = options["cases"] or 1000
    rng = random.Random(options["seed"] or 1)
    report = Report("tensor_layouts_check", f"tensor-layouts {importlib.metadata.version('tensor-layouts')}", KINDS)

    try:  # to_F2_matrix's docstring shows this form
        Layout((8, 8), (8, 1), swizzle=Swizzle(3, 0, 3))
        FORMS.append("kwarg")
    except TypeError as e:
        report.finding("swizzled", f"Layout((8,8), (8,1), swizzle=Swizzle(3,0,3)), to_F2_matrix's "
                                   f"docstring example, raises TypeError: {e}")
    # Every B, M, S up to 3, 3, +-6 (|S| < B too) on three layouts, then random draws.
    cases = [{"shape": sh, "stride": st, "sw": (b, m, s), "form": FORMS[(b + m + s) % len(FORMS)]}
             for sh, st in (([8, 8], [8, 1]), ([16, 4], [1, 16]), ([2, 4, 8], [32, 1, 4]))
             for b in range(4) for m in range(4) for s in range(-6, 7)]
    cases += [draw_layout(rng) for _ in range(n_cases)]
    verdicts = layout_verdicts(f2lay, cases)

    # from_F2_matrix on the matrices of the CuTe-valid linear layouts above (their
    # realization known) and on random small matrices, some with a zero row on top.
    mats = []
    for c in cases:
        T = truth(c["sw"], c["shape"], c["stride"])
        if T[0] == "linear" and valid(*c["sw"]) and len(T[1]) <= 8:
            mats.append({"shape": c["shape"], "cols": T[1], "pad": 0, "origin": (c["sw"], c["shape"], c["stride"])})
    for _ in range(n_cases // 2):
        shape = [1 << rng.randint(0, 3) for _ in range(rng.randint(1, 2))]
        n = sum(x.bit_length() - 1 for x in shape)
        d = rng.choice([3, 5, 6, 7, 9])  # a doubling, stride-like progression
        cols = [rng.randrange(1 << n) for _ in range(n)] if rng.random() < 0.5 else [d << j for j in range(n)]
        mats.append({"shape": shape, "cols": cols, "pad": int(rng.random() < 0.3), "origin": None})
    verdicts += judge_matrix(f2lay, mats)

    # Group the disagreements by kind and by who is wrong how; shrink the SHRUNK
    # smallest of each group and print the smallest result.
    groups = {}
    for c, (kind, v) in zip(cases + mats, verdicts):
        groups.setdefault(repr(signature((kind, v))), []).append(c) if v else report.agree(kind)
    for drawn in groups.values():
        judge, shrink = (judge_matrix, shrink_matrix) if "cols" in drawn[0] else (layout_verdicts, shrink_layout)
        first = sorted(drawn, key=lambda c: len(describe(c)))[:SHRUNK]
        c, (kind, v) = min(minimize(f2lay, first, judge, shrink), key=lambda cv: len(describe(cv[0])))
        for side, (what, witness) in v.items():
            msg = (f"{describe(c)}: {'f2lay' if side == 'f2lay' else 'tensor-layouts'} {what}\n"
                   f"  witness {witness}\n  {len(drawn)} drawn case(s) disagree so, e.g. {describe(drawn[0])}")
            report.f2lay_bug(kind, msg) if side == "f2lay" else report.finding(kind, msg)
    report.check()
