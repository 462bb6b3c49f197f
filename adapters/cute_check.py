"""Checks f2lay's CuTe constructors against pycute (nvidia-cutlass's Python CuTe).

pycute evaluates Swizzle(B,M,S) o shape:stride at every point of its domain;
f2lay's `cute_swizzle` (both directions) must give the same value at every
point, or refuse exactly the layouts that are not linear over F2 (f(x xor y) !=
f(x) xor f(y) on the bits of the 1-D coordinate, its witness a real one), that
have negative offsets or, offset -> coordinate, that do not fill 0..size-1 one
to one. Each `linear_to_cute` answer, evaluated by pycute, must give f2lay's
layout again, and null only where no CuTe layout does. A disagreement is judged
by CuTe's definition, evaluated here on its own (`cute_definition`): an f2lay
bug, or a finding in pycute where f2lay agrees with the definition. Each is
shrunk to a minimal witness.

A pytest module (conftest.py): --cases random cases (default 3000), --seed
(default 1); it fails on an f2lay bug and skips where pycute is not installed.
"""
import ast
import importlib.metadata
import json
import itertools
import math
import random
import re
import subprocess
import tempfile

from cute_definition import coord, nonlinear_pair, size, sizes, text, tuple_text, \
    values as cute_definition
from oracle_client import IN_PROCESS, Report, ask_oracle, same

import pytest

pycute = pytest.importorskip("pycute", reason="pycute is not installed (scripts/setup installs it)")

KINDS = ["to_offset", "to_coordinate", "not_linear", "round_trip", "apply", "text_write",
         "text_read"]
DIRECTIONS = ("coordinate_to_offset", "offset_to_coordinate")


# ------------------------------------------------------------ the evaluators
def pycute_values(c):
    b, m, s, shape, stride = c
    swizzle, layout = pycute.Swizzle(b, m, s), pycute.Layout(shape, stride)
    if b == 0 and s == 0:
        # pycute's Swizzle(0,M,0) recurses without end (its shiftr and shiftl
        # hand s == 0 to each other): check_swizzle_functor reports it once,
        # and the bare layout keeps plain layouts checked by pycute here.
        return [layout(x) for x in range(size(shape))]
    composed = pycute.ComposedLayout(swizzle, 0, layout)
    return [composed(x) for x in range(size(shape))]  # pycute's own 1-D indexing


def evaluate(evaluator, c):
    """The values at every 1-D index, or the exception that refused c."""
    try:
        return evaluator(c)
    except Exception as e:  # pycute refuses by assert
        return e


def apply(layout, inputs):
    """f2lay's layout at a point: the XOR of the bases of the set input bits."""
    out = [0] * len(layout["out_dims"])
    for d in layout["in_dims"]:
        for j, basis in enumerate(d["bases"]):
            if inputs[d["name"]] >> j & 1:
                out = [a ^ e for a, e in zip(out, basis)]
    return out


# ---------------------------------------------------------------- the verdicts
def mismatch(v, c, inverse, resp):
    """Why f2lay's response to cute_swizzle(c) is not what the values v (one
    evaluator's, or the exception it raised) say, or None when it is."""
    shape, ok = c[3], resp["ok"]
    if isinstance(v, Exception):
        return f"it raises {type(v).__name__} {str(v)[:80]}; f2lay answers a layout" if ok else None
    pair = nonlinear_pair(v)
    if pair:
        x, y = pair
        why = (f"not linear: x = {coord(shape, x)}, y = {coord(shape, y)} give "
               f"L(x xor y) = {v[x ^ y]} but L(x) xor L(y) = {v[x] ^ v[y]}")
        if ok:
            return why + "; f2lay answers a layout"
        w = re.search(r"x = \(([-\d,]*)\), y = \(([-\d,]*)\)", resp["error"])
        if w:  # f2lay's own witness must be one
            px, py = ([int(t) for t in g.split(",")] for g in w.groups())
            fx, fy = (sum(ci * math.prod(sizes(shape)[:i]) for i, ci in enumerate(p))
                      for p in (px, py))
            inside = all(len(p) == len(shape) and
                         all(0 <= ci < n for ci, n in zip(p, sizes(shape))) for p in (px, py))
            if not inside or v[fx ^ fy] == v[fx] ^ v[fy]:
                return f"{why}; but f2lay's witness {w.group(0)} is none: {resp['error']}"
        return None
    if min(v) < 0:
        return f"offset {min(v)} is negative; f2lay answers a layout" if ok else None
    if inverse and sorted(v) != list(range(len(v))):
        return "the offsets are not 0..size-1 one to one; f2lay answers a layout" if ok else None
    if not ok:
        return f"linear; f2lay refuses: {resp['error']}"
    got, bits = resp["result"], [n.bit_length() - 1 for n in sizes(shape)]
    names = [f"dim{i}" for i in range(len(shape))]
    want = ([("offset", sum(bits))], list(zip(names, sizes(shape)))) if inverse else \
        (list(zip(names, bits)), [("offset", 1 << max(v).bit_length())])
    dims = ([(d["name"], len(d["bases"])) for d in got["in_dims"]],
            [(d["name"], d["size"]) for d in got["out_dims"]])
    if dims != want:
        return f"dims {want}; f2lay's {dims}"
    if inverse:  # every offset, smallest first
        at = {o: x for x, o in enumerate(v)}
        return next((f"offset {o} -> {coord(shape, at[o])}; f2lay {w}" for o in range(len(v))
                     if (w := tuple(apply(got, {"offset": o}))) != coord(shape, at[o])), None)
    return next((f"{coord(shape, x)} -> {v[x]}; f2lay {w}" for x in range(len(v))
                 if (w := apply(got, dict(zip(names, coord(shape, x))))[0]) != v[x]), None)


def tup(j):
    """JSON arrays, nested, as tuples."""
    return tuple(map(tup, j)) if isinstance(j, list) else j


def round_trip_mismatch(evaluator, c, v, answer):
    """linear_to_cute's answer for f2lay's layout of c (whose values v agreed
    with pycute's): a CuTe layout with v at every point, or null only when
    there is none (but c is one)."""
    if answer is None:
        images = [v[1 << k] for k in range(len(v).bit_length() - 1)]
        return (f"null for the layout whose coordinate bits give the offsets {images}, but "
                f"{text(c)} is one" if evaluate(evaluator, c) == v else None)
    a = (answer["b"], answer["m"], answer["s"], tup(answer["shape"]), tup(answer["stride"]))
    if sizes(a[3]) != sizes(c[3]):
        return f"{text(a)}: modes of sizes other than the layout's {sizes(c[3])}"
    w = evaluate(evaluator, a)
    if isinstance(w, Exception):
        return f"{text(a)} raises {type(w).__name__} {str(w)[:80]}"
    return next((f"{text(a)} gives {coord(c[3], x)} -> {w[x]}, the layout {v[x]}"
                 for x in range(len(v)) if w[x] != v[x]), None)


def judge(where, peer_says, definition_says):
    """A finding where f2lay agrees with CuTe's definition, else an f2lay bug."""
    if definition_says is None:
        return "finding", f"{where}: pycute: {peer_says}; f2lay agrees with CuTe's definition"
    if definition_says == peer_says:
        return "bug", f"{where}: pycute and CuTe's definition: {peer_says}"
    return "bug", f"{where}: pycute: {peer_says}; CuTe's definition: {definition_says}"


def run(f2lay, cases):
    """Per case, its outcomes (kind, None or (verdict, text)), in two oracle
    runs: cute_swizzle both ways, then linear_to_cute and apply on each layout
    that agreed."""
    peer = [evaluate(pycute_values, c) for c in cases]
    first = ask_oracle(f2lay, [{"op": "cute_swizzle", "b": b, "m": m, "s": s, "shape": list(shape),
                                "stride": list(stride), "direction": d}
                               for b, m, s, shape, stride in cases for d in DIRECTIONS])
    outcomes, second, follow = [[] for _ in cases], [], []
    for i, (c, v) in enumerate(zip(cases, peer)):
        linear = isinstance(v, Exception) or nonlinear_pair(v) is None
        for inverse, d in enumerate(DIRECTIONS):
            resp = first[2 * i + inverse]
            kind = ("to_coordinate" if inverse else "to_offset") if linear else "not_linear"
            bad = mismatch(v, c, inverse, resp)
            if bad is not None:
                definition = mismatch(evaluate(cute_definition, c), c, inverse, resp)
                outcomes[i].append((kind, judge(d, bad, definition)))
                continue
            outcomes[i].append((kind, None))
            if resp["ok"]:  # apply where every input bit is set
                last, names = len(v) - 1, [f"dim{k}" for k in range(len(c[3]))]
                inp, want = ({"offset": last}, dict(zip(names, coord(c[3], v.index(last))))) \
                    if inverse else (dict(zip(names, coord(c[3], last))), {"offset": v[last]})
                second += [{"op": "linear_to_cute", "layout": resp["result"]},
                           {"op": "apply", "layout": resp["result"], "input": inp}]
                follow.append((i, d, want))
    answers = ask_oracle(f2lay, second) if second else []
    for (i, d, want), rt, ap in zip(follow, answers[0::2], answers[1::2]):
        c, v = cases[i], peer[i]
        bad = [f"linear_to_cute refuses: {rt['error']}"] * 2 if not rt["ok"] else \
            [round_trip_mismatch(e, c, v, rt["result"]) for e in (pycute_values, cute_definition)]
        outcomes[i].append(("round_trip", bad[0] and judge(d, *bad)))
        good = ap["ok"] and same(ap["result"], want)
        outcomes[i].append(("apply", None if good else
                            ("bug", f"{d}: apply where every bit is set: pycute {want}; f2lay {ap}")))
    return outcomes


# ---------------------------------------------------------------- shrinking
def leaves(t, path=()):
    """(path, leaf) of an IntTuple, depth first."""
    if isinstance(t, tuple):
        for i, item in enumerate(t):
            yield from leaves(item, path + (i,))
    else:
        yield path, t


def replace(t, path, value):
    if not path:
        return value
    return t[:path[0]] + (replace(t[path[0]], path[1:], value),) + t[path[0] + 1:]


def key(c):
    """Shrinking order: fewer modes and leaves, smaller shapes and strides,
    then b, m, |s|."""
    b, m, s, shape, stride = c
    strides = [d for _, d in leaves(stride)]
    return (len(shape), len(list(leaves(shape))), sum(n for _, n in leaves(shape)),
            sum(map(abs, strides)), sum(d < 0 for d in strides), b, m, abs(s), s < 0)


def smaller(c):
    b, m, s, shape, stride = c
    out = [(b, m, s, shape[:i] + shape[i + 1:], stride[:i] + stride[i + 1:])
           for i in range(len(shape)) if len(shape) > 1]
    # A nested tuple replaced by one of its items (shape and stride alike).
    nodes = set()
    for p, _ in leaves(shape):
        for k in range(1, len(p)):
            nodes.add(p[:k])
    for p in nodes:
        node_shape, node_stride = shape, stride
        for i in p:
            node_shape, node_stride = node_shape[i], node_stride[i]
        for i in range(len(node_shape)):
            out.append((b, m, s, replace(shape, p, node_shape[i]),
                        replace(stride, p, node_stride[i])))
    out += [(b, m, s, replace(shape, p, n // 2), stride) for p, n in leaves(shape) if n > 1]
    out += [(b, m, s, shape, replace(stride, p, e))
            for p, d in leaves(stride) for e in {0, 1, abs(d), int(d / 2), d - 1}]
    out += [(b - 1, m, s, shape, stride), (b, m - 1, s, shape, stride),
            (b, m, s - (s > 0) + (s < 0), shape, stride), (b, m, -s, shape, stride)]
    return sorted({o for o in out if min(o[:2]) >= 0 and key(o) < key(c)}, key=key)


def shrink(f2lay, c, kind, verdict, why):
    """The smallest case (greedily, by key) that still gives `verdict` of `kind`."""
    while cands := smaller(c):
        hit = next(((cand, out[1]) for cand, outs in zip(cands, run(f2lay, cands))
                    for k, out in outs if k == kind and out and out[0] == verdict), None)
        if hit is None:
            break
        c, why = hit
    return c, why


def check_swizzle_functor(report):
    """pycute's Swizzle(B,M,S) against CuTe's definition on its whole domain
    (f2lay's counterpart, cute_swizzle of (2^k):(1), is in the sweep)."""
    failed = []
    for b, m, s in sorted(itertools.product(range(3), range(3), range(-3, 4)),
                          key=lambda t: (sum(map(abs, t)), t)):
        mine = evaluate(cute_definition, (b, m, s, (1 << (b + m + abs(s)),), (1,)))
        try:
            o, got = next(((o, g) for o, want in enumerate(mine)
                           if (g := pycute.Swizzle(b, m, s)(o)) != want), (None, None))
        except Exception as e:
            o, got = 0, f"raises {type(e).__name__}: {e}"
        if o is not None and not isinstance(mine, Exception):
            failed.append(f"pycute.Swizzle({b},{m},{s})({o}) {got}; CuTe's definition {mine[o]}")
    if failed:
        report.finding("swizzle", f"{failed[0]} ({len(failed)} of the swizzles with b, m <= 2, "
                       "|s| <= 3 fail)")


# ---------------------------------------------------------------- the text
def pycute_from_text(t):
    """pycute's objects for f2lay's pycute text: SW_b_m_s o offset o
    shape:stride, or shape:stride; shape and stride are Python tuples."""
    composed = re.fullmatch(r"SW_(-?\d+)_(-?\d+)_(-?\d+) o (-?\d+) o (.*)", t)
    shape_text, stride_text = (composed.group(5) if composed else t).split(":")
    layout = pycute.Layout(ast.literal_eval(shape_text), ast.literal_eval(stride_text))
    if not composed:
        return layout
    b, m, s, offset = map(int, composed.groups()[:4])
    return pycute.ComposedLayout(pycute.Swizzle(b, m, s), offset, layout)


def cpp_text(c):
    """CuTe's C++ print of Swizzle o _0 o layout (layout_composed.hpp)."""
    b, m, s, shape, stride = c
    return f"Sw<{b},{m},{s}> o _0 o {tuple_text(tuple(shape))}:{tuple_text(tuple(stride))}"


def convert(f2lay, text, *args):
    """`f2lay convert ARGS FILE` on text: (exit status, stdout, stderr)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write(text)
        f.flush()
        p = subprocess.run([f2lay, "convert", *args, f.name], capture_output=True, text=True)
    return p.returncode, p.stdout.strip(), p.stderr.strip()


def text_outcomes(f2lay, cases, peer, first, limit):
    """(kind, None or (verdict, text)) per checked text: f2lay's written
    pycute text read by pycute (text_write), pycute's str and CuTe's C++
    text read by f2lay (text_read)."""
    out = []
    for i, (c, v) in enumerate(zip(cases, peer)):
        if limit <= 0:
            break
        if isinstance(v, Exception):
            continue
        limit -= 1
        b, m, s, shape, stride = c
        for inverse in (0, 1):  # nothing to write where f2lay refused (not linear)
            resp = first[2 * i + inverse]
            if not resp["ok"]:
                continue
            rc, written, err = convert(f2lay, json.dumps(resp["result"]), "--to", "pycute")
            if rc != 0:
                out.append(("text_write", ("bug", f"{text(c)}: f2lay convert --to pycute: {err}")))
                continue
            try:
                obj = pycute_from_text(written)
                got = [obj(x) for x in range(len(v))]
                modes = obj.layoutA.shape if isinstance(obj, pycute.ComposedLayout) else obj.shape
                modes = modes if isinstance(modes, tuple) else (modes,)
                why = None if got == v and sizes(modes) == sizes(shape) else \
                    f"modes of sizes {sizes(modes)} and other values"
            except Exception as e:  # pycute refuses by assert
                why = f"{type(e).__name__} {e}"
            out.append(("text_write", why and (
                "bug", f"{text(c)}: f2lay wrote {written!r}, which pycute reads as {why}")))
        layout = pycute.Layout(shape, stride)
        pycute_str = str(layout if (b, s) == (0, 0) else
                         pycute.ComposedLayout(pycute.Swizzle(b, m, s), 0, layout))
        # offset -> coordinate where it is a bijection, else coordinate ->
        # offset (cute.h's cuteTextLayout), each checked against pycute above
        want = first[2 * i + 1] if first[2 * i + 1]["ok"] else first[2 * i]
        for t in (pycute_str, cpp_text(c)):
            rc, got, err = convert(f2lay, t, "--to", "json")
            if rc == 0 and want["ok"] and same(json.loads(got), want["result"]):
                out.append(("text_read", None))
            elif rc == 2 and not want["ok"]:
                out.append(("text_read", None))
            else:
                out.append(("text_read", ("bug", f"{t!r}: f2lay convert says "
                                          f"{got[:80] if rc == 0 else err}; cute_swizzle: "
                                          f"{json.dumps(want)[:120]}")))
    return out


# ---------------------------------------------------------------- the cases
def sweep():
    """Every small swizzle (|s| < b included: refused) on every small 1-mode
    layout, the b <= 1 swizzles on 2-mode layouts, and the b, m <= 1 ones on
    one nested mode of two leaves."""
    swizzles = list(itertools.product(range(3), range(3), range(-3, 4)))
    one = [((n,), (d,)) for n in (1, 2, 4, 8, 16) for d in (0, 1, 2, 3, 4, 5, 6, 9, -1)]
    two = [((n0, n1), (d0, d1)) for n0, n1 in itertools.product((2, 4), repeat=2)
           for d0, d1 in itertools.product((0, 1, 2, 3, 4, 8), repeat=2)]
    nested = [(((n0, n1),), ((d0, d1),)) for n0, n1 in itertools.product((2, 4), repeat=2)
              for d0, d1 in itertools.product((0, 1, 2, 3, 4, 8), repeat=2)]
    return [(b, m, s, *l) for b, m, s in swizzles for l in one] + \
        [(b, m, s, *l) for b, m, s in swizzles if b <= 1 for l in two] + \
        [(b, m, s, *l) for b, m, s in swizzles if b <= 1 and m <= 1 for l in nested]


def random_case(rng):
    """Mostly linear: compact strides over the leaves in a random order, with
    gaps; a third of the modes nested (two or three leaves, sometimes a
    tuple inside), a third of the cases with one zero, odd, negative or
    power-of-two stride instead."""
    rank = rng.randint(1, 3)
    modes, budget = [], 12
    for _ in range(rank):
        k = 1 if rng.random() < 0.65 else rng.randint(2, 3)
        logs = []
        for _ in range(k):
            logs.append(min(rng.randint(0, 3), budget))
            budget -= logs[-1]
        modes.append([1 << e for e in logs])
    leaf_ids = [(i, j) for i, mode in enumerate(modes) for j in range(len(mode))]
    strides, next_stride = {}, 1
    for leaf in rng.sample(leaf_ids, len(leaf_ids)):
        next_stride <<= rng.choice([0, 0, 0, 1, 2])
        strides[leaf], next_stride = next_stride, next_stride * modes[leaf[0]][leaf[1]]
    if rng.random() < 0.33:
        strides[rng.choice(leaf_ids)] = rng.choice(
            [0, rng.randrange(3, 40, 2), -rng.randint(1, 4), 1 << rng.randint(0, 8)])

    def build(values):
        out = []
        for i, mode in enumerate(modes):
            items = [values(i, j) for j in range(len(mode))]
            if len(items) == 1:
                out.append(items[0])
            elif len(items) == 3 and (i + len(modes)) % 2:  # ((a,b),c): deeper nesting
                out.append(((items[0], items[1]), items[2]))
            else:
                out.append(tuple(items))
        return tuple(out)

    shape, stride = build(lambda i, j: modes[i][j]), build(lambda i, j: strides[(i, j)])
    b = rng.randint(0, 3)
    s = rng.choice([1, -1]) * (rng.randint(b, b + 4) if rng.random() > 0.05 else rng.randint(0, b))
    return b, rng.randint(0, 4), s, shape, stride


# Random cases whose text is also checked through `f2lay convert` (none
# in-process: the command is not there).
TEXT_CASES = 300


def test_pycute(f2lay, options):
    version = importlib.metadata.version("nvidia-cutlass")
    print(f"cute_check: pycute from nvidia-cutlass {version}")
    report = Report("cute_check", f"pycute {version}", KINDS)
    rng = random.Random(options["seed"] or 1)
    swept = sweep()
    cases = swept + [random_case(rng) for _ in range(options["cases"] or 3000)]
    nested = sum(any(isinstance(n, tuple) for n in c[3]) for c in cases)
    print(f"cute_check: {len(cases)} cases, {nested} with nested modes")
    groups = {}  # (kind, verdict) -> [(case, text)]
    for c, outs in zip(cases, run(f2lay, cases)):
        for kind, out in outs:
            if out is None:
                report.agree(kind)
            else:
                groups.setdefault((kind, out[0]), []).append((c, out[1]))
    for (kind, verdict), hits in groups.items():
        # The three smallest cases each shrink to a witness; those giving
        # other layouts may have other causes.
        seen = set()
        for c, why in sorted(hits, key=lambda h: key(h[0]))[:3]:
            small, small_why = shrink(f2lay, c, kind, verdict, why)
            if (layout := (small[3], repr(evaluate(cute_definition, small)))) in seen:
                continue
            seen.add(layout)
            line = f"{len(hits)} cases, e.g. {text(c)}; minimal {text(small)}: {small_why}"
            (report.f2lay_bug if verdict == "bug" else report.finding)(kind, line)
    if f2lay != IN_PROCESS:
        random_cases = cases[len(swept):]
        peer = [evaluate(pycute_values, c) for c in random_cases]
        first = ask_oracle(f2lay, [
            {"op": "cute_swizzle", "b": b, "m": m, "s": s, "shape": list(shape),
             "stride": list(stride), "direction": d}
            for b, m, s, shape, stride in random_cases for d in DIRECTIONS])
        bad = []
        for kind, out in text_outcomes(f2lay, random_cases, peer, first, TEXT_CASES):
            if out is None:
                report.agree(kind)
            else:
                bad.append((kind, out[1]))
        for kind in {k for k, _ in bad}:
            hits = [why for k, why in bad if k == kind]
            report.f2lay_bug(kind, f"{len(hits)} texts, e.g. {hits[0]}")
    check_swizzle_functor(report)
    report.check()
