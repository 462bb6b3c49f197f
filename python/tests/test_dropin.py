"""The drop-in contract: f2lay.LinearLayout and f2lay.ref.LinearLayout answer
as Triton 3.9.0's binding (triton._C.libtriton.linear_layout.LinearLayout)
does, method by method, on random layouts within Triton's range. Triton
aborts the process on a broken precondition, so each case is built to meet
the preconditions of what it asks (an invertible layout for invert, ...)."""
import os
import random

import pytest
from triton._C.libtriton.linear_layout import LinearLayout as TritonLayout

import f2lay
import layouts

IMPLS: list[type[f2lay.LinearLayout] | type[f2lay.ref.LinearLayout]] = [
    f2lay.LinearLayout, f2lay.ref.LinearLayout]
# Random cases per test (F2LAY_DROPIN_CASES for longer runs).
CASES = int(os.environ.get("F2LAY_DROPIN_CASES", 150))


def same(mine, theirs, what):
    """Two layouts are the same when everything the binding shows is."""
    for name in ["bases", "out_dims", "num_in_dims", "num_out_dims"]:
        assert getattr(mine, name) == getattr(theirs, name), f"{what}: {name}"
    # Triton prints input 2^31 as -2147483648 (test_finding_text_of_bit_31).
    text = str(theirs).replace("=-2147483648 ->", "=2147483648 ->")
    assert str(mine) == text and repr(mine) == text, what
    assert mine.get_in_dim_names() == theirs.get_in_dim_names(), what
    assert mine.get_out_dim_names() == theirs.get_out_dim_names(), what


def both(L, args):
    return L.from_bases(*args), TritonLayout.from_bases(*args)


def random_args(rng, kind="any", max_bits=None):
    """Mostly small layouts, a third up to 28 bits a side."""
    max_bits = max_bits or rng.choice([6, 12, 28])
    n_in, n_out = rng.randint(1, 4), rng.randint(1, 3)
    if kind == "invertible":
        n = rng.randint(0, max_bits)
        return layouts.layout(rng, layouts.split(rng, n, n_in), layouts.split(rng, n, n_out), kind)
    out_total = rng.randint(0, max_bits)
    # In dims under 31 bits, as Triton's int32 sizes need (FINDINGS.md, R3).
    in_total = {"surjective": rng.randint(out_total, min(max_bits + 4, 30)),
                "injective": rng.randint(0, out_total)}.get(kind, rng.randint(0, max_bits))
    return layouts.layout(rng, layouts.split(rng, in_total, n_in),
                          layouts.split(rng, out_total, n_out), kind)


@pytest.mark.parametrize("L", IMPLS)
def test_from_bases_and_inspection(L):
    rng = random.Random(1)
    kinds: dict[bool, int] = {}
    for case in range(CASES):
        kind = rng.choice(["any", "surjective", "injective", "invertible"])
        args = random_args(rng, kind)
        bases, names, sizes = args
        t = TritonLayout.from_bases(bases, names, sizes, False)
        m = L.from_bases(bases, names, sizes, False)
        same(m, t, f"case {case}: {args}")
        for method in ["is_injective", "is_surjective", "is_invertible", "get_matrix_view"]:
            assert getattr(m, method)() == getattr(t, method)(), (method, args)
        kinds[t.is_surjective()] = kinds.get(t.is_surjective(), 0) + 1
        if t.is_surjective():
            # Surjective layouts: the defaults (sizes inferred, surjectivity
            # required) and sizes given with surjectivity required.
            same(L.from_bases(bases, names), TritonLayout.from_bases(bases, names), str(args))
            same(L.from_bases(bases, names, sizes), t, str(args))
        for _ in range(4):
            # Inputs below 2^31: Triton's apply takes int32 (FINDINGS.md, R3).
            x = {name: rng.randrange(1 << min(len(b), 31)) for name, b in reversed(bases)}
            assert m.apply(x) == t.apply(x), (args, x)
        assert m == L.from_bases(bases, names, sizes, False) and not m != m
    assert min(kinds.values()) > CASES // 5, kinds  # both kinds often enough


@pytest.mark.parametrize("L", IMPLS)
def test_one_dimensional_constructors(L):
    for log in range(0, 12):
        size = 1 << log
        same(L.identity_1d(size, "lane", "dim0"), TritonLayout.identity_1d(size, "lane", "dim0"), size)
        for out in [1, 2, 16]:
            same(L.zeros_1d(size, inDim="r", outDim="d", outDimSize=out),
                 TritonLayout.zeros_1d(size, inDim="r", outDim="d", outDimSize=out), (size, out))
        for stride in [1, 2, 8]:
            same(L.strided_1d(size, stride, "offset", "dim1"),
                 TritonLayout.strided_1d(size, stride, "offset", "dim1"), (size, stride))
    for size in [0]:  # size 0: the empty layout
        same(L.identity_1d(0, "a", "b"), TritonLayout.identity_1d(0, "a", "b"), 0)
        same(L.zeros_1d(0, "a", "b", 4), TritonLayout.zeros_1d(0, "a", "b", 4), 0)
        same(L.strided_1d(0, 2, "a", "b"), TritonLayout.strided_1d(0, 2, "a", "b"), 0)
    same(L(), TritonLayout(), "empty")
    assert L().get_matrix_view() == [] and L().apply({}) == {}


def renamed_outer(rng, self_args, kind):
    """A layout whose in dims are self's out dims (in a random order, the same
    sizes) and whose out dims are new: self.compose(it) is legal."""
    _, names, sizes = self_args
    order = list(range(len(names)))
    rng.shuffle(order)
    in_names = [names[k] for k in order]
    in_bits = [sizes[k].bit_length() - 1 for k in order]
    n_out = rng.randint(1, 3)
    total = sum(in_bits) if kind == "invertible" else rng.randint(0, 12)
    return layouts.layout(rng, in_bits, layouts.split(rng, total, n_out), kind,
                          in_names=in_names, out_names=rng.sample(["p", "q", "r"], n_out))


@pytest.mark.parametrize("L", IMPLS)
def test_compose_and_product(L):
    rng = random.Random(2)
    for case in range(CASES):
        a = random_args(rng)
        b = renamed_outer(rng, a, rng.choice(["any", "invertible"]))
        (ma, ta), (mb, tb) = both(L, a[:3] + (False,)), both(L, b[:3] + (False,))
        same(ma.compose(mb), ta.compose(tb), f"compose {a} {b}")
        # The product with disjoint dims, and with a shared in dim.
        c = random_args(rng)
        c = ([(n + "_c", v) for n, v in c[0]], [n + "_c" for n in c[1]], c[2])
        mc, tc = both(L, c + (False,))
        same(ma * mc, ta * tc, f"product {a} {c}")
        # A product with itself doubles each dim: within Triton's int32 sizes
        # (FINDINGS.md, R3 and R4) while every dim has at most 15 bits.
        if all(len(b) <= 15 for _, b in a[0]) and all(s <= 1 << 15 for s in a[2]):
            same(ma * ma, ta * ta, f"product {a} twice")
        m_in_place, t_in_place = L.from_bases(*a, False), TritonLayout.from_bases(*a, False)
        alias = m_in_place
        m_in_place *= mc
        t_in_place *= tc
        assert alias is m_in_place
        same(m_in_place, t_in_place, f"*= {a} {c}")
        assert (ma == mc) == (ta == tc) and (ma != mc) == (ta != tc)


@pytest.mark.parametrize("L", IMPLS)
def test_inverses(L):
    rng = random.Random(3)
    counts = {"invert": 0, "pseudoinvert": 0, "invert_and_compose": 0, "shared dim": 0}
    for case in range(CASES):
        inv = random_args(rng, "invertible")
        m, t = both(L, inv + (False,))
        same(m.invert(), t.invert(), f"invert {inv}")
        counts["invert"] += 1
        sur = random_args(rng, "surjective")
        m, t = both(L, sur + (False,))
        same(m.pseudoinvert(), t.pseudoinvert(), f"pseudoinvert {sur}")
        counts["pseudoinvert"] += 1
        # invert_and_compose: outer surjective onto self's out dims, so that it
        # covers self's image; half the time outer shares an in dim of self
        # with the same bases (Triton's broadcast heuristic sets it aside).
        # At most 64 columns in Triton's solve (FINDINGS.md, R1): 14 bits a side.
        self_args = random_args(rng, max_bits=14)
        bases, names, sizes = self_args
        out_bits = [s.bit_length() - 1 for s in sizes]
        shared = []
        if rng.random() < 0.5 and bases:
            shared = [bases[rng.randrange(len(bases))]]
        extra_in = sum(out_bits) + rng.randint(0, 3)
        outer = layouts.layout(rng, layouts.split(rng, extra_in, rng.randint(1, 2)), out_bits,
                               "surjective", out_names=names)
        outer_bases = shared + [(n + "_o", v) for n, v in outer[0]]
        outer_args = (outer_bases, names, sizes, False)
        (ms, ts), (mo, to) = both(L, self_args + (False,)), both(L, outer_args)
        same(ms.invert_and_compose(mo), ts.invert_and_compose(to), f"{self_args} {outer_args}")
        counts["invert_and_compose"] += 1
        counts["shared dim"] += bool(shared)
    assert counts["shared dim"] > CASES // 4, counts


@pytest.mark.parametrize("L", IMPLS)
def test_views(L):
    """get_distributed_view and get_shared_view print what Triton prints."""
    rng = random.Random(4)
    for case in range(60):
        out_bits = layouts.split(rng, rng.randint(0, 8), rng.randint(1, 2))
        reg, lane, warp, block = layouts.split(rng, sum(out_bits) + rng.randint(0, 2), 4)
        dist = layouts.layout(rng, [reg, lane, warp, block], out_bits, "surjective",
                              in_names=["register", "lane", "warp", "block"],
                              out_names=[f"dim{k}" for k in range(len(out_bits))])
        m, t = both(L, dist + (False,))
        for hw in [False, True]:
            assert m.get_distributed_view(hw) == t.get_distributed_view(hw), (dist, hw)
        offset, block = layouts.split(rng, sum(out_bits), 2)
        shared = layouts.layout(rng, [offset, block], out_bits, "invertible",
                                in_names=["offset", "block"],
                                out_names=[f"dim{k}" for k in range(len(out_bits))])
        m, t = both(L, shared + (False,))
        for hw in [False, True]:
            assert m.get_shared_view(hw) == t.get_shared_view(hw), (shared, hw)


@pytest.mark.parametrize("L", IMPLS)
def test_triton_round_trip(L):
    rng = random.Random(5)
    for case in range(50):
        args = random_args(rng)
        t = TritonLayout.from_bases(*args, False)
        m = L.from_triton(t)
        same(m, t, args)
        back = m.to_triton()
        assert isinstance(back, TritonLayout) and back == t


def test_signatures_match():
    """The same constructors, methods and properties as Triton's binding."""
    theirs = {n for n in dir(TritonLayout) if not n.startswith("__")}
    for L in IMPLS:
        missing = theirs - set(dir(L))
        assert not missing, missing
        for name in ["__mul__", "__imul__", "__eq__", "__ne__", "__repr__", "__str__"]:
            assert hasattr(L, name)


def test_finding_text_of_bit_31():
    """A finding in Triton (adapters/FINDINGS.md, R3): its text prints input
    2^31 of a 32-bit in dim as an int32, -2147483648. f2lay prints the value."""
    args = ([("a", [[0]] * 32)], ["x"], [1], False)
    assert str(TritonLayout.from_bases(*args)).splitlines()[-2] == "   a=-2147483648 -> (0)"
    for L in IMPLS:
        assert str(L.from_bases(*args)).splitlines()[-2] == "   a=2147483648 -> (0)"
