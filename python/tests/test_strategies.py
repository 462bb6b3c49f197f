"""f2lay.strategies: each strategy draws what its definition says (checked here by other
means than the strategy's own construction), f2lay's laws hold on what they draw, and a bug
planted in a law's implementation is found and shrunk to a small example."""
import json

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, find, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import f2lay  # noqa: E402
from f2lay import strategies as fs  # noqa: E402

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def value_of(layout):
    return json.loads(layout.to_text("json"))


def every_input(layout):
    """Every input of a layout, as apply's dicts."""
    dims = [(name, len(bases)) for name, bases in layout.bases]
    total = sum(bits for _, bits in dims)
    for x in range(1 << total):
        point, shift = {}, 0
        for name, bits in dims:
            point[name] = (x >> shift) & ((1 << bits) - 1)
            shift += bits
        yield point


@SETTINGS
@given(fs.distributed_values())
def test_distributed_layouts_hold_each_tensor_bit_once(value):
    # Def 4.10: the nonzero bases are the tensor's unit vectors, each once; 32 lanes.
    sizes = [d["size"] for d in value["out_dims"]]
    nonzero = [tuple(b) for d in value["in_dims"] for b in d["bases"] if any(b)]
    units = {tuple((1 << k) if i == d else 0 for i in range(len(sizes)))
             for d, size in enumerate(sizes) for k in range(size.bit_length() - 1)}
    assert sorted(nonzero) == sorted(units)
    assert len(value["in_dims"][1]["bases"]) == 5
    assert fs.to_layout(value).is_surjective()


@SETTINGS
@given(fs.memory_layouts())
def test_memory_layouts_are_invertible(layout):
    assert layout.is_invertible()


@SETTINGS
@given(fs.catalog_requests())
def test_catalog_requests_are_legal(request):
    layout = f2lay.ask(request)["result"]
    if "shape" in request:  # shared_linear's shape is its bases' extent
        assert [d["size"] for d in layout["out_dims"]] == request["shape"]


@SETTINGS
@given(fs.conversion_pairs())
def test_conversion_pairs_share_tensor_and_warps(pair):
    a, b = pair
    assert a.out_dims == b.out_dims
    assert dict(a.bases)["warp"].__len__() == dict(b.bases)["warp"].__len__()
    f2lay.ask({"op": "classify_conversion", "self": a, "other": b})


@SETTINGS
@given(fs.shape_op_sequences())
def test_shape_op_sequences_apply_in_turn(sequence):
    value, ops = sequence
    for op in ops:
        value = f2lay.ask(dict(op, layout=value))["result"]


# --- f2lay's laws on what the strategies draw ----------------------------------------------


@SETTINGS
@given(fs.linear_layouts())
def test_apply_is_linear(layout):
    # Def 4.1: L(x ^ y) = L(x) ^ L(y), by brute force over every pair of basis inputs.
    inputs = list(every_input(layout))
    zero = layout.apply(inputs[0])
    assert all(v == 0 for v in zero.values())
    for x in inputs[:16]:
        for y in inputs[:16]:
            xy = {k: x[k] ^ y[k] for k in x}
            lx, ly = layout.apply(x), layout.apply(y)
            assert layout.apply(xy) == {k: lx[k] ^ ly[k] for k in lx}


@SETTINGS
@given(fs.memory_layouts())
def test_a_memory_layout_composed_with_its_inverse_is_the_identity(layout):
    back = layout.compose(layout.invert())
    for x in every_input(layout):
        assert back.apply(x) == x


@SETTINGS
@given(fs.linear_layouts(), fs.linear_layouts())
def test_both_implementations_multiply_alike(a, b):
    ra = fs.to_layout(value_of(a), ref_impl=True)
    rb = fs.to_layout(value_of(b), ref_impl=True)
    try:
        product = a * b
    except f2lay.Error:
        with pytest.raises(f2lay.Error):
            ra * rb
        return
    assert value_of(product) == value_of(ra * rb)


def test_from_type_draws_layouts_through_the_entry_point():
    # pip installs f2lay with a "hypothesis" entry point, which Hypothesis runs on import.
    from importlib.metadata import entry_points
    hooks = [e.value for e in entry_points(group="hypothesis") if e.name == "f2lay"]
    assert hooks == ["f2lay._hypothesis:setup"]
    layout = find(st.from_type(f2lay.LinearLayout), lambda x: x.is_injective() and
                  sum(len(b) for _, b in x.bases) >= 2)
    assert isinstance(layout, f2lay.LinearLayout)
    assert isinstance(find(st.from_type(f2lay.ref.LinearLayout), lambda x: True),
                      f2lay.ref.LinearLayout)


def test_a_planted_bug_is_found_and_shrunk():
    # A wrong injectivity test: "no zero basis" misses two equal bases. Hypothesis finds a
    # layout where it errs and shrinks it to the smallest: two equal unit bases.
    def planted_is_injective(layout):
        return all(any(b) for _, bases in layout.bases for b in bases)

    found = find(fs.linear_layouts(), lambda x: planted_is_injective(x) != x.is_injective(),
                 settings=settings(max_examples=2000, database=None))
    bases = [b for _, bs in found.bases for b in bs]
    assert len(bases) == 2 and bases[0] == bases[1] and sum(map(sum, bases)) == 2, found


def test_fuzz_one_input_drives_a_strategy_test_from_bytes():
    seen = []

    @given(fs.distributed_values())
    def record(value):
        seen.append(value)

    record.hypothesis.fuzz_one_input(bytes(range(64)))  # type: ignore[attr-defined]
    assert len(seen) == 1 and seen[0]["in_dims"][1]["name"] == "lane"


def test_an_unknown_family_is_refused():
    with pytest.raises(ValueError, match="no family 'blocked2'"):
        fs.catalog_requests("blocked2")
