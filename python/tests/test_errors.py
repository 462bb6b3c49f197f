"""Bad input raises a Python exception naming what is wrong: f2lay.Error (a
ValueError) for a bad value, TypeError for a value of the wrong type. Where
Triton's binding aborts the whole process (its assertions), f2lay raises;
these cases run in process, so a crash would fail the whole file."""
import json

import pytest

import f2lay

IMPLS = [f2lay.LinearLayout, f2lay.ref.LinearLayout]
A_BASES = [("register", [[0, 1], [1, 0]]), ("lane", [[0, 2], [0, 4], [0, 8], [2, 0], [4, 0]]),
           ("warp", [[8, 0]])]


def raises(kind, match, call):
    with pytest.raises(kind, match=match):
        call()


@pytest.mark.parametrize("L", IMPLS)
def test_from_bases(L):
    raises(f2lay.Error, "not surjective", lambda: L.from_bases([("a", [[2]])], ["x"]))
    raises(f2lay.Error, "not surjective", lambda: L.from_bases([("a", [[2]])], ["x"], [4]))
    raises(f2lay.Error, "needs out_dim_sizes", lambda: L.from_bases([("a", [[1]])], ["x"], None, False))
    raises(f2lay.Error, "1 sizes for 2", lambda: L.from_bases([("a", [[1, 0]])], ["x", "y"], [2]))
    raises(f2lay.Error, r"bases\[0\]\[1\]\[0\]\[0\]: -1 is negative",
           lambda: L.from_bases([("a", [[-1]])], ["x"]))
    raises(f2lay.Error, "does not fit 64 bits", lambda: L.from_bases([("a", [[2**64]])], ["x"]))
    raises(f2lay.Error, "power of two", lambda: L.from_bases([("a", [[1]])], ["x"], [3], False))
    raises(f2lay.Error, "below", lambda: L.from_bases([("a", [[4]])], ["x"], [2], False))
    raises(f2lay.Error, "in dim 'a' appears twice", lambda: L.from_bases([("a", [[1]]), ("a", [[2]])], ["x"]))
    raises(f2lay.Error, "out dim 'x' appears twice", lambda: L.from_bases([("a", [[1, 1]])], ["x", "x"]))
    raises(f2lay.Error, "2 values but there are 1 out dims", lambda: L.from_bases([("a", [[1, 0]])], ["x"]))
    raises(f2lay.Error, "identifier", lambda: L.from_bases([("a b", [[1]])], ["x"]))
    raises(f2lay.Error, "65 bases", lambda: L.from_bases([("a", [[1 << (k % 63)] for k in range(65)])],
                                                              ["x"], [2**63], False))
    raises(TypeError, "expected an int, got float", lambda: L.from_bases([("a", [[1.0]])], ["x"]))
    raises(TypeError, "pair", lambda: L.from_bases({"a": [[1]]}, ["x"]))
    raises(TypeError, "pair", lambda: L.from_bases([("a", [[1]], 3)], ["x"]))
    raises(TypeError, "expected a str", lambda: L.from_bases([(1, [[1]])], ["x"]))
    raises(TypeError, "sequence of str", lambda: L.from_bases([("a", [[1]])], "x"))
    raises(TypeError, None, lambda: L.from_bases(None, ["x"]))


@pytest.mark.parametrize("L", IMPLS)
def test_methods(L):
    A = L.from_bases(A_BASES, ["dim0", "dim1"])
    raises(f2lay.Error, "missing", lambda: A.apply({"register": 1, "lane": 0}))
    raises(f2lay.Error, "not an in dim", lambda: A.apply({"register": 1, "lane": 0, "warp": 0, "x": 0}))
    raises(f2lay.Error, "value 4", lambda: A.apply({"register": 4, "lane": 0, "warp": 0}))
    raises(f2lay.Error, "negative", lambda: A.apply({"register": -1, "lane": 0, "warp": 0}))
    raises(TypeError, "dict", lambda: A.apply([("register", 1)]))
    other = L.identity_1d(4, "c", "d")
    raises(f2lay.Error, "compose", lambda: A.compose(other))
    raises(f2lay.Error, "invert", lambda: L.zeros_1d(4, "a", "b").invert())
    raises(f2lay.Error, None, lambda: L.from_bases([("a", [[2]])], ["x"], [4], False).pseudoinvert())
    raises(f2lay.Error, "triton", lambda: A.invert(triton="4.0"))
    raises(TypeError, None, lambda: A.compose(None))
    raises(TypeError, None, lambda: A * 3)
    raises(TypeError, None, lambda: A.compose(f2lay.ref.LinearLayout() if L is f2lay.LinearLayout
                                            else f2lay.LinearLayout()))
    raises(f2lay.Error, "power of two", lambda: L.identity_1d(3, "a", "b"))
    raises(f2lay.Error, "negative", lambda: L.identity_1d(-4, "a", "b"))
    raises(f2lay.Error, "powers of two", lambda: L.strided_1d(4, 3, "a", "b"))
    raises(f2lay.Error, "block", lambda: A.get_distributed_view(False))
    raises(f2lay.Error, "format", lambda: A.to_text("yaml"))
    raises(f2lay.Error, "from_text", lambda: L.from_text("{\"in_dims\": []}"))
    raises(f2lay.Error, "at most 2\\^30", lambda: L.zeros_1d(2, "a", "b", 1 << 31).to_triton())
    raises(f2lay.Error, "31 bits", lambda: L.zeros_1d(1 << 31, "a", "b").to_triton())
    assert (A == 3) is False and (A != 3) is True


def test_ask_errors():
    raises(TypeError, "dict", lambda: f2lay.ask("compose"))  # type: ignore[arg-type]
    raises(f2lay.Error, "unknown op", lambda: f2lay.ask({"op": "nope"}))
    raises(f2lay.Error, "missing key \"other\"", lambda: f2lay.ask({"op": "compose", "self": {}}))
    raises(f2lay.Error, "impl", lambda: f2lay.ask({"op": "is_injective"}, impl="fast"))
    raises(TypeError, "JSON values", lambda: f2lay.ask({"op": "is_injective", "layout": object()}))
    try:
        f2lay.ask({"op": "invert", "layout": f2lay.LinearLayout.zeros_1d(2, "a", "b"), "id": 4})
    except f2lay.Error as e:
        assert e.response["id"] == 4 and e.response["ok"] is False
        assert isinstance(e, ValueError)
    else:
        raise AssertionError("invert of a non-invertible layout answered")
    json.dumps(f2lay.ask({"op": "is_injective", "layout": f2lay.LinearLayout()}))


@pytest.mark.parametrize("L", IMPLS)
def test_from_bases_reentered(L):
    """from_bases reads into a value reused per thread; Python code it runs
    while reading (a sequence's __iter__, an int's __index__) may call it
    again, which must not overwrite what the outer call has read."""
    class Bases:
        def __iter__(self):
            L.from_bases([("q", [[1], [2], [4]])], ["z"])
            return iter([[1, 0], [0, 1]])

    class One:
        def __index__(self):
            L.from_bases([("q", [[1], [2], [4], [8]])], ["z"])
            return 1

    assert L.from_bases([("a", Bases())], ["x", "y"]).bases == [("a", [[1, 0], [0, 1]])]
    assert L.from_bases([("a", [[One(), 0], [0, One()]])], ["x", "y"]).bases == \
        [("a", [[1, 0], [0, 1]])]
    raises(f2lay.Error, "negative", lambda: L.from_bases([("a", [[-1]])], ["x"]))
    assert L.from_bases([("b", [[1]])], ["x"]).bases == [("b", [[1]])]  # after an error
