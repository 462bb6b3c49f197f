#!/usr/bin/env python3
"""Checks f2lay's memory layouts against Triton 3.9.0's Gluon.

Triton 3.9's gluon_ir.to_linear_layout reads a shared layout as Triton's
toLinearLayout (a SharedLinearLayout: offset and block bases in tensor
coordinates), CGAs included, without a GPU. (Triton 3.6 aborted there, so
this check used to read a reshaped descriptor out of a compilation instead.)
Padded layouts (padded_shared, padded_shared_identity) are the exception: 3.9
aborts there, so their linear component and pairs are read from the
attribute printed in a memory descriptor's type (padded_answer).

Random valid requests per family, drawn for Gluon 3.9.0's constructors, and
the shared-layout cases of vectors/catalog.json, Gluon against `f2lay oracle`;
Gluon defines these layouts, so a disagreement is an f2lay bug, except where
f2lay refuses a layout it takes for a Triton bug and Gluon's answer holds
elements at several offsets or, transposed, does not start along dim0 (a
finding). Triton aborts the process on parameters it rejects: only valid ones
are drawn.

A pytest module (conftest.py), one test per family (and one for the vectors;
-k picks): --cases per family (default 100), --seed (default 1); it skips
where Triton is not installed. Run as a script, it is a tool instead:

    gluon_shared_check.py --answer < requests.jsonl

prints Gluon's layout for each request (to write golden cases).
"""
import json, math, pathlib, random, re, sys

import pytest

from oracle_client import ERROR, Report, ask_oracle, compare, forked_outcomes, shape_judge, shrink_shape

triton = pytest.importorskip("triton", reason="Triton is not installed (scripts/setup installs it)")
from triton._C.libtriton import gluon_ir, ir  # noqa: E402
import triton.experimental.gluon.language as ttgl  # noqa: E402

CONTEXT = ir.context()
ir.load_dialects(CONTEXT)
BUILDER = gluon_ir.GluonOpBuilder(CONTEXT)


def gluon_layout(req):
    """The Gluon layout of a request, or None where it asks for Triton 3.6's rules."""
    if req.get("triton") == "3.6":
        return None
    op, cga = req["op"], req.get("cga_layout", [])
    if op == "padded_shared":
        return ttgl.PaddedSharedLayout(req["interval_padding_pairs"], req["offset_bases"], cga, req["shape"])
    if op == "padded_shared_identity":
        return ttgl.PaddedSharedLayout.with_identity_for(req["interval_padding_pairs"], req["shape"],
                                                         req["order"], cga)
    if op == "swizzled_shared":
        return ttgl.SwizzledSharedLayout(req["vec"], req["per_phase"], req["max_phase"], req["order"],
                                         cga_layout=cga)
    if op == "unswizzled_shared":
        return ttgl.SwizzledSharedLayout(1, 1, 1, req["order"], cga_layout=cga)
    if op == "nvmma_shared":
        return ttgl.NVMMASharedLayout(req["swizzle_byte_width"], req["element_bitwidth"], len(req["shape"]),
                                      req.get("transposed", False), req.get("fp4_padded", False),
                                      cga_layout=cga)
    if op == "shared_linear":
        return ttgl.SharedLinearLayout(req["offset_bases"], req.get("block_bases", []),
                                       req.get("alignment", 16))
    raise ValueError(op)


PADDED_ATTR = re.compile(r"#ttg\.padded_shared<\[([^\]]*)\] \{(.*)\}>")


def padded_answer(layout, shape):
    """A padded layout's linear component and padding as Triton holds them.
    Gluon 3.9's to_linear_layout aborts on padded layouts ("use
    paddedLinearLayout instead", which Python cannot reach), so they are read
    from the attribute Triton prints in a memory descriptor's type: the pairs
    "interval:+padding", then either "offset = [...], block = [...]" or, for
    an identity without CTAs, "order = [...], shape = [...]" (Triton's
    PaddedSharedEncodingAttr::print)."""
    ty = BUILDER.get_shared_mem_desc_ty(BUILDER.get_half_ty(), shape, layout._to_ir(BUILDER), shape)
    m = PADDED_ATTR.search(str(ty))
    pairs = [[int(x) for x in pair.split(":+")] for pair in m.group(1).split(", ")]
    body = m.group(2)
    if body.startswith("order"):
        order = json.loads(re.search(r"order = (\[[^\]]*\])", body).group(1))
        offset = []
        for d in order:
            offset += [[1 << k if i == d else 0 for i in range(len(shape))]
                       for k in range(shape[d].bit_length() - 1)]
        block = []
    else:
        offset = json.loads(re.search(r"offset = (\[.*?\]\])", body + "]").group(1)) \
            if "offset = []" not in body else []
        block = json.loads(re.search(r"block = (\[.*\])$", body).group(1))
    return {"in_dims": [{"name": "offset", "bases": offset}, {"name": "block", "bases": block}],
            "out_dims": [{"name": f"dim{i}", "size": s} for i, s in enumerate(shape)], "padding": pairs}


AMD_OP = "compute_amd_efficient_padded_shared_layout"


def gluon_amd_answer(req):
    """Gluon's ttgl.amd.cdna4.compute_efficient_padded_shared_layout for the
    request's dot operand (an MFMA v4 parent) as f2lay's JSON, or None where
    Gluon returns None. The wrapper wants a dtype; the element width is what
    it reads of it (unsigned integers of that width: uint8 for 4-bit data,
    as its docstring says)."""
    operand = req["dot_operand_layout"]
    parent = operand["parent"]
    mfma = ttgl.amd.AMDMFMALayout(version=parent["version"], instr_shape=parent["instr_shape"],
                                  transposed=parent["transposed"],
                                  warps_per_cta=parent["warps_per_cta"],
                                  tiles_per_warp=parent.get("tiles_per_warp"),
                                  element_bitwidth=parent.get("element_bitwidth"))
    dot = ttgl.DotOperandLayout(operand["operand_index"], mfma, operand["k_width"])
    dtype = {4: ttgl.uint8, 8: ttgl.uint8, 16: ttgl.uint16}[req["element_bitwidth"]]
    choose = ttgl.amd.cdna4.compute_efficient_padded_shared_layout
    layout = choose.fn(dot, req["shape"], dtype, req.get("is_k_contig", True))
    return None if layout is None else padded_answer(layout, list(req["shape"]))


def random_amd(rng):
    """A dot operand of an MFMA v4 parent of random warps, tiles and
    accumulator width (the rule reads none of these), and a shared tile."""
    parent = {"op": "amd_mfma", "version": 4,
              "instr_shape": rng.choice([[16, 16, 32], [32, 32, 16], [16, 16, 16], [32, 32, 8]]),
              "transposed": rng.random() < 0.7,
              "warps_per_cta": rng.choice([[4, 1], [2, 2], [1, 4], [8, 1], [1, 1]])}
    if rng.random() < 0.3:
        parent["tiles_per_warp"] = [1 << rng.randint(0, 1), 1 << rng.randint(0, 1)]
    if rng.random() < 0.3:
        parent["element_bitwidth"] = rng.choice([32, 64])
    operand = {"operand_index": rng.randint(0, 1), "k_width": rng.choice([2, 4, 8, 8, 16, 16, 32]),
               "parent": parent}
    return {"op": AMD_OP, "dot_operand_layout": operand,
            "shape": [1 << rng.randint(3, 9), 1 << rng.randint(3, 9)],
            "element_bitwidth": rng.choice([4, 8, 16]), "is_k_contig": rng.random() < 0.6}


def amd_pairs(rng, f2lay, count):
    """count requests f2lay answers (a layout or null) with Gluon's answers.
    Where f2lay refuses (Triton would divide by zero, assert or abort) Gluon
    is not asked, as it would take the process down; those are counted."""
    drafts = [random_amd(rng) for _ in range(count * 2)]
    answered = [(r, a) for r, a in zip(drafts, ask_oracle(f2lay, drafts)) if a.get("ok")]
    refused = len(drafts) - len(answered)
    pairs = [(AMD_OP, r, gluon_amd_answer(r)) for r, _ in answered[:count]]
    return pairs, refused


def gluon_answer(req):
    """Gluon's layout as f2lay's JSON, or None where Gluon gives none (one
    element per CTA: it refuses empty offset_bases) or is not asked."""
    layout = gluon_layout(req)
    if layout is None:
        return None
    if req["op"].startswith("padded_shared"):
        return padded_answer(layout, list(req["shape"]))
    shape = req["shape"] if "shape" in req else layout.shape  # shared_linear: Gluon's own
    try:
        ll = BUILDER.to_linear_layout(layout._to_ir(BUILDER), list(shape))
    except AssertionError:
        return None
    return {"in_dims": [{"name": "offset", "bases": [list(b) for b in ll.offset_bases]},
                        {"name": "block", "bases": [list(b) for b in ll.block_bases]}],
            "out_dims": [{"name": f"dim{i}", "size": s} for i, s in enumerate(shape)]}


def holds_elements_twice(layout):
    """Whether some element sits at two offsets: the offset bases, each read as
    one integer (dim0 lowest), are linearly dependent over F2."""
    sizes = [d["size"] for d in layout["out_dims"]]
    pivots = {}
    for basis in layout["in_dims"][0]["bases"]:
        v = sum(x << sum(s.bit_length() - 1 for s in sizes[:k]) for k, x in enumerate(basis))
        while v and (v.bit_length() - 1) in pivots:
            v ^= pivots[v.bit_length() - 1]
        if not v:
            return True
        pivots[v.bit_length() - 1] = v
    return False


def misplaces_dim0(request, layout):
    """Whether a transposed NVMMA layout's first offset bit misses dim0, the
    contiguous dim that `transposed` names (as in every other case Gluon 3.9
    builds)."""
    bases = layout["in_dims"][0]["bases"]
    return (request.get("transposed", False) and request["shape"][0] > 1 and
            (not bases or bases[0] != [1] + [0] * (len(request["shape"]) - 1)))


def judge(f2lay):
    """f2lay refuses, as a Triton bug, the layouts of Gluon that hold an
    element at several offsets or do not put a transposed layout's dim0
    first: those disagreements are findings, witnessed at the smallest shape
    where Gluon still does it. Any other is f2lay's."""
    by_shape = shape_judge(f2lay, gluon_answer)

    def bad_peer(request):
        answer = gluon_answer(request)
        return answer is not None and (holds_elements_twice(answer) or misplaces_dim0(request, answer))

    def verdict(request, expected, response):
        if not response.get("ok") and "Triton bug" in response.get("error", "") and bad_peer(request):
            small = shrink_shape(request, bad_peer)
            answer = gluon_answer(small)
            why = ("an element at several offsets" if holds_elements_twice(answer)
                   else "offset 1 is not along dim0")
            return "peer", (f"{gluon_layout(small)} at {small['shape']} gives offsets "
                            f"{answer['in_dims'][0]['bases']}: {why}")
        return by_shape(request, expected, response)
    return verdict


def per_cta(shape, cga):
    split = [1] * len(shape)
    for b in cga:
        for d, v in enumerate(b):
            split[d] = max(split[d], 2 * v)
    return [max(1, s // min(s, c)) for s, c in zip(shape, split)]


def random_cga(rng, shape):
    """Block bases within the shape: each CTA bit moves one dim to its next
    power of two, or nothing (CTAs holding copies)."""
    bases, next_bit = [], [0] * len(shape)
    for _ in range(rng.choice([0, 0, 1, 2])):
        basis = [0] * len(shape)
        dims = [d for d in range(len(shape)) if 2 << next_bit[d] <= shape[d]]
        if dims and rng.random() < 0.8:
            d = rng.choice(dims)
            basis[d] = 1 << next_bit[d]
            next_bit[d] += 1
        bases.append(basis)
    return bases


def random_swizzled(rng, unswizzled=False):
    rank = rng.randint(1, 3)
    order = list(range(rank))
    rng.shuffle(order)
    req = {"op": "unswizzled_shared" if unswizzled else "swizzled_shared"}
    if not unswizzled:
        req.update(vec=1 << rng.randint(0, 4), per_phase=1 << rng.randint(0, 3),
                   max_phase=1 << rng.randint(0, 4))
    req["order"] = order
    req["shape"] = [1 << rng.randint(0, 7 if rank < 3 else 4) for _ in range(rank)]
    cga = random_cga(rng, req["shape"])
    if cga:
        req["cga_layout"] = cga
    return req


def random_unswizzled(rng):
    return random_swizzled(rng, unswizzled=True)


def random_nvmma(rng):
    while True:
        rank = rng.randint(2, 3)
        bits = rng.choice([8, 16, 32, 64])
        width = rng.choice([0, 32, 64, 128])
        transposed = rng.random() < 0.3
        # Gluon 3.9 asserts that fp4 padding comes with the 128-byte swizzle.
        fp4 = bits == 8 and width == 128 and rng.random() < 0.5
        shape = [1 << rng.randint(0, 9 if rank == 2 else 5) for _ in range(rank)]
        cga = random_cga(rng, shape) if rng.random() < 0.3 else []
        cta = [min(s, 256) for s in per_cta(shape, cga)]
        contig = 0 if transposed else rank - 1
        contig_size = cta[contig] * (2 if fp4 else 1)
        # Triton collapses the box to [prod(dims 0..r-2), dim r-1], swapped
        # when transposed; the rows must hold the 8-row swizzle pattern.
        rows = cta[rank - 1] if transposed else math.prod(cta[:-1])
        if width and (contig_size < 8 * width // bits or rows < 8):
            continue
        if math.prod(shape) > 1 << 18:
            continue
        req = {"op": "nvmma_shared", "swizzle_byte_width": width, "element_bitwidth": bits,
               "transposed": transposed, "shape": shape}
        if fp4:
            req["fp4_padded"] = True
        if cga:
            req["cga_layout"] = cga
        return req


def random_shared_linear(rng):
    """Gluon's SharedLinearLayout: the unit bases of a random shape mixed by
    random XORs of one basis into another (a swizzle, still a bijection),
    with zero bases now and then, the last few bases on blocks; a third of
    the draws then broken (a basis repeated or dropped, or an alignment that
    is not a power of two), which Gluon must refuse as f2lay does."""
    rank = rng.randint(1, 3)
    shape = [1 << rng.randint(0, 4) for _ in range(rank)]
    bases = [[(1 << k) if e == d else 0 for e in range(rank)]
             for d in range(rank) for k in range(shape[d].bit_length() - 1)] or [[0] * rank]
    for _ in range(rng.randint(0, 2 * len(bases))):
        i, j = rng.sample(range(len(bases)), 2) if len(bases) > 1 else (0, 0)
        if i != j:
            bases[i] = [x ^ y for x, y in zip(bases[i], bases[j])]
    rng.shuffle(bases)
    bases += [[0] * rank for _ in range(rng.choice([0, 0, 1]))]
    alignment = 1 << rng.randint(0, 10)
    if rng.random() < 1 / 3:
        how = rng.choice(["repeat", "drop", "alignment"])
        if how == "repeat":
            bases.insert(rng.randrange(len(bases) + 1), list(rng.choice(bases)))
        elif how == "drop" and len(bases) > 1:
            bases.pop(rng.randrange(len(bases)))
        else:
            alignment = 3 << rng.randint(0, 4)
    blocks = rng.randint(0, min(2, len(bases) - 1))
    req = {"op": "shared_linear", "offset_bases": bases[:len(bases) - blocks]}
    if blocks or rng.random() < 0.5:
        req["block_bases"] = bases[len(bases) - blocks:]
    if alignment != 16 or rng.random() < 0.5:
        req["alignment"] = alignment
    return req


def random_padding(rng):
    """1 to 3 [interval, padding] pairs, intervals distinct (powers of two)."""
    intervals = rng.sample([1 << k for k in range(11)], rng.randint(1, 3))
    return [[i, 1 << rng.randint(0, 5)] for i in intervals]


def random_padded(rng):
    """Per dim, offset bits 1, 2, 4, ... and CTA bits (some CTA bases zero),
    the offset bases shuffled; the shape is what they span (Gluon sizes the
    layout by its bases: reference/catalog/padded_shared.h)."""
    rank = rng.randint(1, 3)
    offset, cga, shape = [], [], []
    for d in range(rank):
        obits, bbits = rng.randint(0, 12 // rank), rng.choice([0, 0, 1, 2])
        unit = lambda v: [v if i == d else 0 for i in range(rank)]
        offset += [unit(1 << k) for k in range(obits)]
        cga += [unit(1 << k) for k in range(bbits)]
        shape.append(1 << (obits + bbits))
    cga += [[0] * rank for _ in range(rng.choice([0, 0, 0, 1]))]
    rng.shuffle(offset)
    rng.shuffle(cga)
    req = {"op": "padded_shared", "interval_padding_pairs": random_padding(rng), "offset_bases": offset,
           "shape": shape}
    if cga:
        req["cga_layout"] = cga
    return req


def random_padded_identity(rng):
    """Gluon's with_identity_for: a shape, an order and a CGA within it."""
    req = random_unswizzled(rng)
    req["op"] = "padded_shared_identity"
    req["interval_padding_pairs"] = random_padding(rng)
    return req


FAMILIES = {"unswizzled_shared": random_unswizzled, "swizzled_shared": random_swizzled,
            "nvmma_shared": random_nvmma, "padded_shared": random_padded,
            "padded_shared_identity": random_padded_identity}
# Families drawn broken too: Gluon aborts on those, so it is asked in forked
# children, and its refusal is the answer f2lay must give.
REFUSING_FAMILIES = {"shared_linear": random_shared_linear}


@pytest.mark.parametrize("family", [*FAMILIES, *REFUSING_FAMILIES, AMD_OP, "vectors"])
def test_family(f2lay, options, family):
    cases = options["cases"] or 100
    # Each family's own stream of draws: picking families keeps them.
    rng = random.Random(f"{options['seed'] or 1} {family}")
    pairs = []
    if family in FAMILIES:
        while len(pairs) < cases:
            req = FAMILIES[family](rng)
            expected = gluon_answer(req)
            if expected is not None:
                pairs.append((family, req, expected))
    elif family in REFUSING_FAMILIES:
        drawn = [REFUSING_FAMILIES[family](rng) for _ in range(cases)]
        for req, (status, answer) in zip(drawn, forked_outcomes(gluon_answer, drawn)):
            pairs.append((family, req, answer if status == "ok" and answer is not None else ERROR))
    elif family == AMD_OP:
        pairs, refused = amd_pairs(rng, f2lay, cases)
        print(f"gluon_shared_check: {AMD_OP}: {sum(1 for p in pairs if p[2] is None)} of {len(pairs)} "
              f"None in Gluon; {refused} drafts f2lay refuses as Triton's aborts (not asked)")
    else:  # the shared-layout vectors (vectors/catalog.json) Gluon gives a layout for
        catalog = json.loads((pathlib.Path(__file__).resolve().parent.parent / "vectors" /
                              "catalog.json").read_text())
        for case in catalog["cases"]:
            req = case["request"]
            if (req["op"] in FAMILIES or req["op"] in REFUSING_FAMILIES) and case["expect"]["ok"]:
                expected = gluon_answer(req)
                if expected is not None:
                    pairs.append(("vectors", req, expected))
    report = Report("gluon_shared_check", f"Triton {triton.__version__}", [family])
    compare(report, f2lay, pairs, judge(f2lay))
    report.check()


def answer_lines():
    """--answer: Gluon's layout for each request on stdin, a JSON line each."""
    for line in sys.stdin:
        if line.strip():
            req = json.loads(line)
            if req["op"] == AMD_OP:  # None is one of its answers
                print(json.dumps({"request": req, "result": gluon_amd_answer(req)}), flush=True)
                continue
            result = gluon_answer(req)
            if result is None:
                raise SystemExit(f"gluon_shared_check: Gluon gave no layout for {line}")
            print(json.dumps({"request": req, "result": result}), flush=True)


if __name__ == "__main__":
    if sys.argv[1:] != ["--answer"]:
        sys.exit("usage: gluon_shared_check.py --answer < requests.jsonl (the check itself: pytest)")
    answer_lines()
