"""Hypothesis strategies for the layouts f2lay's C++ generators make
(properties/generators.h), for property tests in other projects' Python suites.

Every strategy draws through Hypothesis, so a failing example shrinks toward fewer dims,
fewer bits, zero bases and the identity order:

    linear_layouts()        any linear layout (Def 4.1): 1-4 in dims (register, lane, warp,
                            block), 1-3 out dims (dim0..), random bases
    distributed_layouts()   Def 4.10: each tensor bit held by one register, lane, warp or block
                            bit, every other basis zero (broadcasts); 32 lanes
    memory_layouts(shape)   Def 4.14: offset -> tensor, invertible, each offset bit one or two
                            tensor bits (a swizzle)
    catalog_requests()      requests of the catalog families with legal random parameters
                            (CATALOG: blocked, slice, nvidia_mma, dot_operand,
                            swizzled_shared, nvmma_shared, distributed_linear,
                            linear_encoding, shared_linear, cute_swizzle, amd_mfma), as
                            f2lay.ask takes them; catalog_layouts() their answers
    conversion_pairs()      two distributed layouts of one tensor, the same warps: a
                            convert_layout from the first to the second
    shape_op_sequences()    a distributed layout and shape operations legal on it, in order

Layouts come as f2lay.LinearLayout (Triton's API; ref=True gives f2lay.ref.LinearLayout);
each strategy named *_values draws the plain JSON value instead. Installing f2lay registers
linear_layouts() for st.from_type(f2lay.LinearLayout) (Hypothesis' entry point).
"""
from typing import Any, Callable, Dict, List, Literal, Optional, Sequence, Tuple, Union, overload

from hypothesis import strategies as st
from hypothesis.strategies import DrawFn, SearchStrategy

from . import LinearLayout, ask, ref

Value = Dict[str, Any]  # a layout's plain JSON value
Layout = Union[LinearLayout, ref.LinearLayout]

HARDWARE = ("register", "lane", "warp", "block")
LANE_BITS = 5  # 32-lane warps


def out_dim_names(rank: int) -> List[str]:
    return [f"dim{d}" for d in range(rank)]


@overload
def to_layout(value: Value, ref_impl: Literal[False] = False) -> LinearLayout: ...
@overload
def to_layout(value: Value, ref_impl: Literal[True]) -> ref.LinearLayout: ...
@overload
def to_layout(value: Value, ref_impl: bool) -> Layout: ...


def to_layout(value: Value, ref_impl: bool = False) -> Layout:
    """A plain layout value ({"in_dims": [...], "out_dims": [...]}) as a LinearLayout."""
    cls: Any = ref.LinearLayout if ref_impl else LinearLayout
    return cls.from_bases([(d["name"], d["bases"]) for d in value["in_dims"]],
                          [d["name"] for d in value["out_dims"]],
                          [d["size"] for d in value["out_dims"]], require_surjective=False)


@st.composite
def shapes(draw: DrawFn, min_rank: int = 1, max_rank: int = 3, max_bits: int = 9) -> List[int]:
    """A tensor shape of powers of two, at most 2^max_bits elements."""
    rank = draw(st.integers(min_rank, max_rank))
    bits: List[int] = []
    for _ in range(rank):
        bits.append(draw(st.integers(0, max(0, max_bits - sum(bits)))))
    return [1 << b for b in bits]


@st.composite
def layout_values(draw: DrawFn, in_dims: Optional[Sequence[Tuple[str, int]]] = None,
                  out_dims: Optional[Sequence[Tuple[str, int]]] = None, max_bits: int = 3) -> Value:
    """A linear layout's plain value. in_dims: [(name, bits)] or None (1-4 of register, lane,
    warp, block, 0 to max_bits bits each); out_dims: [(name, size)] or None (dim0.. of 1 to
    2^max_bits each)."""
    if in_dims is None:
        count = draw(st.integers(1, len(HARDWARE)))
        in_dims = [(name, draw(st.integers(0, max_bits))) for name in HARDWARE[:count]]
    if out_dims is None:
        rank = draw(st.integers(1, 3))
        out_dims = [(name, 1 << draw(st.integers(0, max_bits))) for name in out_dim_names(rank)]
    dims = []
    for name, bits in in_dims:
        bases = [[draw(st.integers(0, size - 1)) for _, size in out_dims] for _ in range(bits)]
        dims.append({"name": name, "bases": bases})
    return {"in_dims": dims, "out_dims": [{"name": n, "size": s} for n, s in out_dims]}


def linear_layouts(in_dims: Optional[Sequence[Tuple[str, int]]] = None,
                   out_dims: Optional[Sequence[Tuple[str, int]]] = None, max_bits: int = 3,
                   ref_impl: bool = False) -> SearchStrategy[Layout]:
    """layout_values as LinearLayouts."""
    return layout_values(in_dims, out_dims, max_bits).map(lambda v: to_layout(v, ref_impl))


def unit_bases(shape: Sequence[int]) -> List[List[int]]:
    """One basis per tensor bit: the unit vectors of each dim in turn."""
    out = []
    for d, size in enumerate(shape):
        for b in range(size.bit_length() - 1):
            basis = [0] * len(shape)
            basis[d] = 1 << b
            out.append(basis)
    return out


@st.composite
def distributed_values(draw: DrawFn, shape: Optional[Sequence[int]] = None,
                       max_warp_bits: int = 3) -> Value:
    """Def 4.10 on `shape` (drawn when None): the tensor bits, in a random order, fill the
    lanes' 5 bits, then warps (up to max_warp_bits), then registers, with zero bases where
    a dim has fewer bits than its hardware."""
    shape = draw(shapes()) if shape is None else list(shape)
    zero = [0] * len(shape)
    bits = draw(st.permutations(unit_bases(shape)))
    # How many tensor bits go to lanes (the rest of the 5 lanes hold copies) and warps.
    lanes = draw(st.integers(0, min(LANE_BITS, len(bits))))
    warps = draw(st.integers(0, min(max_warp_bits, len(bits) - lanes)))
    lane_bases = bits[:lanes] + [zero] * (LANE_BITS - lanes)
    warp_bases = bits[lanes:lanes + warps] + [zero] * draw(st.integers(0, max_warp_bits - warps))
    register_bases = bits[lanes + warps:]
    # Copies go anywhere among a dim's bits: shuffle the zeros in.
    lane_bases = draw(st.permutations(lane_bases))
    warp_bases = draw(st.permutations(warp_bases))
    return {"in_dims": [{"name": "register", "bases": register_bases},
                        {"name": "lane", "bases": lane_bases},
                        {"name": "warp", "bases": warp_bases},
                        {"name": "block", "bases": []}],
            "out_dims": [{"name": n, "size": s} for n, s in zip(out_dim_names(len(shape)), shape)]}


def distributed_layouts(shape: Optional[Sequence[int]] = None,
                        ref_impl: bool = False) -> SearchStrategy[Layout]:
    return distributed_values(shape).map(lambda v: to_layout(v, ref_impl))


def _xor(a: List[int], b: List[int]) -> List[int]:
    return [x ^ y for x, y in zip(a, b)]


@st.composite
def memory_values(draw: DrawFn, shape: Optional[Sequence[int]] = None) -> Value:
    """Def 4.14 on `shape`: offset -> tensor, invertible; offset bit j is a tensor bit,
    XORed with an earlier offset bit's tensor bit or not (a swizzle)."""
    shape = draw(shapes()) if shape is None else list(shape)
    bits = draw(st.permutations(unit_bases(shape)))
    offsets = []
    for j, b in enumerate(bits):
        partner = draw(st.integers(-1, j - 1))  # -1: a plain bit
        offsets.append(b if partner < 0 else _xor(b, bits[partner]))
    return {"in_dims": [{"name": "offset", "bases": offsets}],
            "out_dims": [{"name": n, "size": s} for n, s in zip(out_dim_names(len(shape)), shape)]}


def memory_layouts(shape: Optional[Sequence[int]] = None,
                   ref_impl: bool = False) -> SearchStrategy[Layout]:
    return memory_values(shape).map(lambda v: to_layout(v, ref_impl))


def _powers(draw: DrawFn, total_bits: int, rank: int) -> List[int]:
    """`rank` powers of two whose product is 2^total_bits."""
    out = [1] * rank
    for _ in range(total_bits):
        out[draw(st.integers(0, rank - 1))] *= 2
    return out


@st.composite
def blocked_requests(draw: DrawFn, shape: Optional[Sequence[int]] = None,
                     warps: Optional[int] = None) -> Value:
    shape = draw(shapes(min_rank=1, max_rank=3, max_bits=10)) if shape is None else list(shape)
    rank = len(shape)
    warp_bits = draw(st.integers(0, 3)) if warps is None else warps.bit_length() - 1
    return {"op": "blocked",
            "size_per_thread": [1 << draw(st.integers(0, 3)) for _ in range(rank)],
            "threads_per_warp": _powers(draw, LANE_BITS, rank),
            "warps_per_cta": _powers(draw, warp_bits, rank),
            "order": draw(st.permutations(list(range(rank)))),
            "shape": shape}


@st.composite
def slice_requests(draw: DrawFn) -> Value:
    parent = draw(blocked_requests(shape=draw(shapes(min_rank=2, max_rank=3, max_bits=10))))
    dim = draw(st.integers(0, len(parent["shape"]) - 1))
    shape = [s for d, s in enumerate(parent["shape"]) if d != dim]
    return {"op": "slice", "dim": dim, "shape": shape,
            "parent": {k: v for k, v in parent.items() if k not in ("op", "shape")}}


@st.composite
def mma_requests(draw: DrawFn) -> Value:
    version = draw(st.sampled_from([2, 3]))
    warp_bits = draw(st.integers(2 if version == 3 else 0, 3))
    warps = _powers(draw, warp_bits, 2)
    if version == 3:  # wgmma: warp groups of 4 along M
        warps = [max(warps[0], 4), warps[1] * warps[0] // max(warps[0], 4)]
    instr_n = draw(st.sampled_from([8, 16, 32])) if version == 3 else 8
    shape = [16 * warps[0] << draw(st.integers(0, 2)), instr_n * warps[1] << draw(st.integers(0, 2))]
    instr = [16, instr_n, 16] if version == 3 else [16, 8]
    return {"op": "nvidia_mma", "version": [version, 0], "warps_per_cta": warps,
            "instr_shape": instr, "shape": shape}


@st.composite
def dot_operand_requests(draw: DrawFn) -> Value:
    parent = draw(mma_requests())
    # wgmma (version 3) reads B from shared memory: only A is held in registers.
    index = 0 if parent["version"][0] == 3 else draw(st.integers(0, 1))
    k = 16 << draw(st.integers(0, 2))
    m, n = parent["shape"]
    return {"op": "dot_operand", "operand_index": index, "k_width": 1 << draw(st.integers(1, 3)),
            "parent": {k_: v for k_, v in parent.items() if k_ != "shape"},
            "shape": [m, k] if index == 0 else [k, n]}


@st.composite
def swizzled_shared_requests(draw: DrawFn) -> Value:
    shape = draw(shapes(min_rank=2, max_rank=2, max_bits=10))
    max_phase = 1 << draw(st.integers(0, 3))
    return {"op": "swizzled_shared", "vec": 1 << draw(st.integers(0, 3)),
            "per_phase": 1 << draw(st.integers(0, 2)), "max_phase": max_phase,
            "order": draw(st.permutations([0, 1])), "shape": shape}


@st.composite
def nvmma_shared_requests(draw: DrawFn) -> Value:
    bitwidth = draw(st.sampled_from([8, 16, 32]))
    swizzle = draw(st.sampled_from([0, 32, 64, 128]))
    inner = max(swizzle, 16) * 8 // bitwidth  # elements of one swizzle row at least
    shape = [8 << draw(st.integers(0, 3)), inner << draw(st.integers(0, 1))]
    transposed = draw(st.booleans())  # then dim0 is the contiguous one
    return {"op": "nvmma_shared", "swizzle_byte_width": swizzle, "element_bitwidth": bitwidth,
            "transposed": transposed, "shape": shape[::-1] if transposed else shape}


@st.composite
def distributed_linear_requests(draw: DrawFn, op: str = "distributed_linear") -> Value:
    """Gluon's DistributedLinearLayout (or, op="linear_encoding", Triton's #ttg.linear)
    with the bases of a Def 4.10 layout."""
    value = draw(distributed_values())
    bases = {d["name"]: d["bases"] for d in value["in_dims"]}
    return {"op": op, "reg_bases": bases["register"], "lane_bases": bases["lane"],
            "warp_bases": bases["warp"], "shape": [d["size"] for d in value["out_dims"]]}


@st.composite
def shared_linear_requests(draw: DrawFn) -> Value:
    """Gluon's SharedLinearLayout with the bases of a Def 4.14 layout."""
    shape = draw(shapes(min_rank=1, max_rank=3, max_bits=10).filter(lambda s: max(s) > 1))
    value = draw(memory_values(shape))
    return {"op": "shared_linear", "offset_bases": value["in_dims"][0]["bases"]}


@st.composite
def cute_swizzle_requests(draw: DrawFn) -> Value:
    """CuTe's Sw<b,m,s> o (rows, cols):(cols, 1), a row-major tile whose swizzle stays
    inside it: the m low bits kept, b bits XORed from s bits above them."""
    rows_bits, cols_bits = draw(st.integers(1, 5)), draw(st.integers(1, 7))
    m = draw(st.integers(0, cols_bits - 1))
    b = draw(st.integers(0, min(cols_bits - m, rows_bits)))
    s = draw(st.integers(max(b, cols_bits - m), cols_bits - m + rows_bits - b)) if b else 0
    return {"op": "cute_swizzle", "b": b, "m": m, "s": s,
            "shape": [1 << rows_bits, 1 << cols_bits], "stride": [1 << cols_bits, 1]}


@st.composite
def amd_mfma_requests(draw: DrawFn) -> Value:
    """Gluon's AMDMFMALayout (CDNA3 and CDNA4 accumulators)."""
    version = draw(st.sampled_from([3, 4]))
    instr = draw(st.sampled_from([[32, 32, 8], [16, 16, 16]] if version == 3 else
                                 [[32, 32, 16], [16, 16, 32]]))
    warps = _powers(draw, draw(st.integers(0, 3)), 2)
    shape = [instr[0] * warps[0] << draw(st.integers(0, 1)),
             instr[1] * warps[1] << draw(st.integers(0, 1))]
    return {"op": "amd_mfma", "version": version, "instr_shape": instr,
            "transposed": draw(st.booleans()), "warps_per_cta": warps, "shape": shape}


CATALOG: Dict[str, Callable[[], SearchStrategy[Value]]] = {"blocked": blocked_requests, "slice": slice_requests, "nvidia_mma": mma_requests,
           "dot_operand": dot_operand_requests, "swizzled_shared": swizzled_shared_requests,
           "nvmma_shared": nvmma_shared_requests,
           "distributed_linear": distributed_linear_requests,
           "linear_encoding": lambda: distributed_linear_requests("linear_encoding"),
           "shared_linear": shared_linear_requests, "cute_swizzle": cute_swizzle_requests,
           "amd_mfma": amd_mfma_requests}


def catalog_requests(family: Optional[str] = None) -> SearchStrategy[Value]:
    """Requests of one catalog family (a key of CATALOG) or of any."""
    if family is not None:
        if family not in CATALOG:
            raise ValueError(f"catalog_requests: no family {family!r} (known: {sorted(CATALOG)})")
        return CATALOG[family]()
    return st.one_of([make() for make in CATALOG.values()])


def catalog_layouts(family: Optional[str] = None,
                    ref_impl: bool = False) -> SearchStrategy[Layout]:
    """The layouts f2lay answers to catalog_requests(family)."""
    return catalog_requests(family).map(lambda r: to_layout(ask(r)["result"], ref_impl))


@st.composite
def conversion_pairs(draw: DrawFn, ref_impl: bool = False) -> Tuple[Layout, Layout]:
    """(A, B): two distributed layouts of one tensor with the same warps, as LinearLayouts."""
    shape = draw(shapes())
    a = draw(distributed_values(shape))
    b = draw(distributed_values(shape))
    warps = max(len(a["in_dims"][2]["bases"]), len(b["in_dims"][2]["bases"]))
    for v in (a, b):  # pad the warps with copies to the same count
        zero = [0] * len(shape)
        v["in_dims"][2]["bases"] += [zero] * (warps - len(v["in_dims"][2]["bases"]))
    return to_layout(a, ref_impl), to_layout(b, ref_impl)


@st.composite
def shape_op_sequences(draw: DrawFn, max_ops: int = 3) -> Tuple[Value, List[Value]]:
    """(value, ops): a distributed layout value and shape operations legal in turn, as the
    oracle's requests take them, each "forward" ({"op": "trans", "order": ...}, {"op":
    "reshape", "shape": ...}, {"op": "expand_dims", "axis": ...}): add "layout" and ask."""
    value = draw(distributed_values())
    shape = [d["size"] for d in value["out_dims"]]
    ops: List[Value] = []
    for _ in range(draw(st.integers(0, max_ops))):
        kind = draw(st.sampled_from(["trans", "reshape", "expand_dims"]))
        if kind == "trans":
            order = draw(st.permutations(list(range(len(shape)))))
            ops.append({"op": "trans", "direction": "forward", "order": order})
            shape = [shape[d] for d in order]
        elif kind == "reshape":
            total = 1
            for s in shape:
                total *= s
            rank = draw(st.integers(1, 3))
            new = _powers(draw, total.bit_length() - 1, rank)
            ops.append({"op": "reshape", "direction": "forward", "shape": new})
            shape = new
        elif len(shape) < 4:
            axis = draw(st.integers(0, len(shape)))
            ops.append({"op": "expand_dims", "direction": "forward", "axis": axis})
            shape = shape[:axis] + [1] + shape[axis:]
    return value, ops
