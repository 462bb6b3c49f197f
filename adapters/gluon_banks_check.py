"""Checks Triton 3.9's bank-conflict model (Gluon's ttgl.bank_conflicts) against f2lay's.

What Triton's number counts (lib/Tools/GenericSwizzling.cpp: bankConflictsMemDesc,
called by Gluon's get_shared_bank_conflicts with numBanks 32 and no lane tile;
then bankConflictsLdSt, getLaneTile, bankConflicts). Zero register bases are
dropped; the vector is v elements, the largest v <= 16 bytes whose offsets 1,
2, .., v/2 are register bases while every other basis keeps those offset bits
clear (largestVectorisation). Offsets are cut into vector | bank (128 bytes of
vectors) | segment. One phase is the first 5 - log2(max(1, v*bytes/4)) lane
bases: 32, 16 or 8 consecutive lanes, fixed. The answer is
2^dim(span(segment offsets) & span(the phase's lanes)) - 1: the wavefronts of
one phase beyond the first, the same for every phase, instruction and warp.
From f2lay's totals over a CTA that is conflicts / ideal_wavefronts, asked at
v*bytes as a store (its phases are Triton's), and as a load where v*bytes is 8
or 16 (a load serves a lane with lane l^1 or l^2 of its quad when they read
one address, so the rest fill fewer phases: device_tests/HARDWARE.md#quad-merge).

Each pair is also costed here by the wavefront rule of device_tests/HARDWARE.md,
by brute force (every lane's byte address, phases, distinct words per bank),
sharing no code with f2lay: f2lay's totals must be the rule's (else an f2lay bug).
Where Triton's number is not the rule's conflicts / ideal, or Triton aborts
(it is asked in child processes), it is a finding, classed as in FINDINGS.md.

A pytest module (conftest.py): --cases pairs (default 200), --seed (default
1), --jobs Triton children at once (default up to 4); it fails where f2lay
breaks the rule and skips where Triton is not installed. $TRITON_PYTHON, where
set, names the Python whose Triton is asked (another install's, e.g. 3.6).
"""
import concurrent.futures, json, os, random, subprocess, sys
from fractions import Fraction

import pytest

from oracle_client import Report, ask_oracle

# --- the tensor: a flat index, dim0 in the low bits (f2lay's convention) ---


def apply(bases, x):
    """XOR of the bases of the set bits of x."""
    out = 0
    for j, b in enumerate(bases):
        if x >> j & 1:
            out ^= b
    return out


def to_coords(flat, shape):
    coords = []
    for size in shape:
        coords.append(flat % size)
        flat //= size
    return coords


def from_coords(coords, shape):
    flat, scale = 0, 1
    for c, size in zip(coords, shape):
        flat += c * scale
        scale *= size
    return flat


# --- the wavefront rule of device_tests/HARDWARE.md, by brute force ---


def phase_cost(lane_addresses, nbytes):
    """Largest number of distinct 4-byte words in one bank."""
    words_in_bank = {}
    for a in lane_addresses:
        for w in range(a // 4, a // 4 + max(1, nbytes // 4)):
            words_in_bank.setdefault(w % 32, set()).add(w)
    return max(len(s) for s in words_in_bank.values())


def quad_dedupe(addresses):
    """A load's lane is served with lane l^1 or l^2 below it when they read the
    same address; never with l^3 (measured on the H100, finding W1:
    device_tests/HARDWARE.md#quad-merge)."""
    return [a for l, a in enumerate(addresses)
            if not any(k < l and addresses[k] == a for k in (l ^ 1, l ^ 2))]


def instruction_cost(addresses, nbytes, store):
    """(wavefronts, phases) of one warp instruction: 32 lanes' byte addresses."""
    if nbytes <= 4:
        phases = [addresses]
    elif store:  # fixed phases of 16 / 8 consecutive lanes
        size = 128 // nbytes
        phases = [addresses[i:i + size] for i in range(0, 32, size)]
    else:
        size = 128 // nbytes
        halves = [addresses] if nbytes == 8 else [addresses[:16], addresses[16:]]
        phases = []
        for half in halves:
            served = quad_dedupe(half)
            phases += [served[i:i + size] for i in range(0, len(served), size)]
    return sum(phase_cost(p, nbytes) for p in phases), len(phases)


def rule_totals(pair, vec, store):
    """(instructions, wavefronts, phases) over every warp instruction of one CTA."""
    n = len(pair["offset"])
    where = [0] * (1 << n)  # tensor element -> its offset
    for o in range(1 << n):
        where[apply(pair["offset"], o)] = o
    reg, eb = pair["reg"], pair["bytes"]
    # A vector's registers, and duplicates (zero bases), are not instructions.
    skip = [j for j, b in enumerate(reg) if b == 0 or where[b] < vec]
    instructions = wavefronts = phases = 0
    for w in range(1 << len(pair["warp"])):
        for r in range(1 << len(reg)):
            if any(r >> j & 1 for j in skip):
                continue
            base = apply(reg, r) ^ apply(pair["warp"], w)
            addresses = [where[base ^ apply(pair["lane"], l)] * eb for l in range(32)]
            wf, ph = instruction_cost(addresses, vec * eb, store)
            instructions, wavefronts, phases = instructions + 1, wavefronts + wf, phases + ph
    return instructions, wavefronts, phases


def vector_elements(pair):
    """Triton's largestVectorisation (and f2lay's widest vector): the largest
    v <= 16 bytes with register bases at offsets 1, 2, .., v/2 and every other
    basis at a multiple of v."""
    where = {apply(pair["offset"], o): o for o in range(1 << len(pair["offset"]))}
    reg = [where[b] for b in pair["reg"]]
    others = [where[b] for b in pair["lane"] + pair["warp"]]
    k = 0
    while pair["bytes"] << (k + 1) <= 16:
        vec = [1 << i for i in range(k + 1)]
        if not all(o in reg for o in vec):
            break
        rest = list(reg)
        for o in vec:
            rest.remove(o)
        if any(o % (2 << k) for o in rest + others):
            break
        k += 1
    return 1 << k


# --- random pairs ---

BYTES_DTYPE = {1: "int8", 2: "float16", 4: "float32", 8: "int64"}


def draw_shape(rng, n):
    rank = rng.randint(1, 3)
    cuts = sorted(rng.randint(0, n) for _ in range(rank - 1))
    return [1 << (b - a) for a, b in zip([0] + cuts, cuts + [n])]


def shared_request(rng, shape, eb):
    """An f2lay catalog request for a swizzled or NVMMA shared layout, or None
    for a random invertible one (drawn here)."""
    kind = rng.choice(["swizzled", "nvmma", "random"])
    order = list(range(len(shape)))
    rng.shuffle(order)
    if kind == "swizzled":
        return {"op": "swizzled_shared", "vec": 1 << rng.randint(0, 3), "per_phase": 1 << rng.randint(0, 2),
                "max_phase": 1 << rng.randint(0, 3), "order": order, "shape": shape}
    if kind == "nvmma" and len(shape) >= 2:
        return {"op": "nvmma_shared", "swizzle_byte_width": rng.choice([0, 32, 64, 128]),
                "element_bitwidth": 8 * eb, "transposed": rng.random() < 0.3, "shape": shape}
    return None


def random_invertible(rng, n):
    """Unit columns in random order, then a few column additions."""
    cols = [1 << j for j in range(n)]
    rng.shuffle(cols)
    for _ in range(rng.choice([0, 1, 2, 4])):
        i, j = rng.sample(range(n), 2)
        cols[i] ^= cols[j]
    return cols


def draw_distributed(rng, offset, eb):
    """register, lane, warp bases (flat tensor indices): the n tensor bits in
    random order, with broadcast (zero) bases. Sometimes the elements at
    offsets 1, 2, .. lead the registers (wide vectors); warps are sometimes
    mixed (Triton 3.9 takes those); rarely a register or lane basis is mixed
    too, on which Triton often aborts (FINDINGS.md, G1)."""
    n = len(offset)
    bits = [1 << j for j in range(n)]
    rng.shuffle(bits)
    lead = offset[:min(n - 5, rng.randint(1, (16 // eb).bit_length() - 1))] if rng.random() < 0.5 else []
    if any(b & (b - 1) for b in lead):  # a swizzled vector offset: not a tensor bit
        lead = []
    rest = [b for b in bits if b not in lead]
    while True:
        warps = rng.randint(0, 3)
        zero_lanes = rng.choice([0, 0, 0, 1, 2])
        zero_warps = rng.randint(0, warps) if rng.random() < 0.3 else 0
        live_lanes, live_warps = 5 - zero_lanes, warps - zero_warps
        if live_lanes + live_warps <= len(rest):
            break
    lane = rest[:live_lanes] + [0] * zero_lanes
    warp = rest[live_lanes:live_lanes + live_warps] + [0] * zero_warps
    reg = lead + rest[live_lanes + live_warps:] + [0] * rng.choice([0, 0, 0, 1, 2])
    # Adding one basis to another keeps them independent.
    mixed = [warp] * (rng.random() < 0.3) + [rng.choice([reg, lane])] * (rng.random() < 0.03)
    for bases in mixed:
        live = [k for k, b in enumerate(bases) if b and (bases is not reg or b not in lead)]
        other = [b for b in reg + lane + warp if b]
        if live and len(other) > 1:
            k = rng.choice(live)
            bases[k] ^= rng.choice([b for b in other if b != bases[k]])
    for bases in (lane, warp, reg):
        rng.shuffle(bases)
    return reg, lane, warp


def draw_pairs(rng, f2lay, count):
    """count pairs {shape, bytes, family, reg, lane, warp, offset}, bases as
    flat tensor indices."""
    drafts = []
    while len(drafts) < count:
        n, eb = rng.randint(6, 12), rng.choice([1, 2, 4, 8])
        shape = draw_shape(rng, n)
        drafts.append((n, eb, shape, shared_request(rng, shape, eb)))
    built = iter(ask_oracle(f2lay, [d[3] for d in drafts if d[3]]))
    pairs = []
    for n, eb, shape, req in drafts:
        offset, family = random_invertible(rng, n), "random"
        answer = next(built) if req else {}
        if answer.get("ok"):  # else a random one (f2lay refuses some parameters)
            dims = {d["name"]: d["bases"] for d in answer["result"]["in_dims"]}
            offset, family = [from_coords(b, shape) for b in dims["offset"]], req["op"]
        reg, lane, warp = draw_distributed(rng, offset, eb)
        pairs.append({"family": family, "shape": shape, "bytes": eb, "offset": offset,
                      "reg": reg, "lane": lane, "warp": warp})
    return pairs


# --- the two sides ---


def coords(pair, bases):
    return [to_coords(b, pair["shape"]) for b in bases]


def f2lay_request(pair, vec, access="store"):
    out = [{"name": f"dim{i}", "size": s} for i, s in enumerate(pair["shape"])]
    dist = {"in_dims": [{"name": d, "bases": coords(pair, pair[key])}
                        for d, key in (("register", "reg"), ("lane", "lane"), ("warp", "warp"))],
            "out_dims": out}
    shared = {"in_dims": [{"name": "offset", "bases": coords(pair, pair["offset"])}], "out_dims": out}
    return {"op": "bank_conflicts", "layout": dist, "shared": shared, "element_bytes": pair["bytes"],
            "access": access, "vector_bytes": vec * pair["bytes"]}


def triton_program(pair):
    """The pair as the lines of Python that ask Gluon (a witness)."""
    dt, shape = f"ttgl.{BYTES_DTYPE[pair['bytes']]}", pair["shape"]
    return (f"R = ttgl.distributed_type({dt}, {shape}, ttgl.DistributedLinearLayout(\n"
            f"        reg_bases={coords(pair, pair['reg'])}, lane_bases={coords(pair, pair['lane'])},\n"
            f"        warp_bases={coords(pair, pair['warp'])}, block_bases=[], shape={shape}))\n"
            f"    S = ttgl.shared_memory_descriptor_type({dt}, {shape}, ttgl.SharedLinearLayout(\n"
            f"        offset_bases={coords(pair, pair['offset'])}), {shape})\n"
            f"    ttgl.bank_conflicts(R, S)  # in a @gluon.jit kernel taking R, S as constexprs")


def triton_child():
    """Answers Triton questions, one JSON line each, after a 'ready VERSION'
    line. A Triton abort ends the process: the parent sees the answer missing."""
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # silences a 3.9 warning
    import triton
    from triton.experimental import gluon
    import triton.experimental.gluon.language as ttgl
    from triton.experimental.gluon.language import _semantic
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    seen = []  # bank_conflicts' answer, read as the kernel is traced
    original = _semantic.GluonSemantic.bank_conflicts

    def spy(self, distr_ty, shared_ty):
        seen.append(original(self, distr_ty, shared_ty))
        return seen[-1]
    _semantic.GluonSemantic.bank_conflicts = spy

    @gluon.jit
    def kernel(R: ttgl.constexpr, S: ttgl.constexpr):
        ttgl.bank_conflicts(R, S)
        ttgl.static_assert(False)  # stop: the answer is known at trace time

    print("ready", triton.__version__, flush=True)
    for line in sys.stdin:
        q = json.loads(line)
        dtype, shape = getattr(ttgl, BYTES_DTYPE[q["bytes"]]), q["shape"]
        reg = ttgl.DistributedLinearLayout(q["reg"], q["lane"], q["warp"], [], shape)
        types = {"R": ttgl.distributed_type(dtype, shape, reg),
                 "S": ttgl.shared_memory_descriptor_type(dtype, shape, ttgl.SharedLinearLayout(q["offset"]), shape)}
        seen.clear()
        error = None
        try:
            triton.compile(ASTSource(fn=kernel, signature={"R": "constexpr", "S": "constexpr"}, constexprs=types),
                           target=GPUTarget("cuda", 90, 32), options={"num_warps": 1 << len(q["warp"])})
        except Exception as e:
            error = (str(e).strip().splitlines() or [type(e).__name__])[-1]
        print(json.dumps({"conflicts": seen[0]} if seen else {"error": error}), flush=True)


def ask_triton(python, pairs, workers):
    """(Triton's version, its answer per pair: {"conflicts": n}, {"error":
    message} or {"abort": how the child ended}), from children run by python."""
    questions = [{"shape": p["shape"], "bytes": p["bytes"], "reg": coords(p, p["reg"]),
                  "lane": coords(p, p["lane"]), "warp": coords(p, p["warp"]),
                  "offset": coords(p, p["offset"])} for p in pairs]
    version = []

    def run(chunk):
        answers = {}
        while chunk:
            proc = subprocess.run([python, __file__, "--triton-child"], capture_output=True, text=True,
                                  input="".join(json.dumps(questions[i]) + "\n" for i in chunk))
            lines = proc.stdout.splitlines()
            if not lines or not lines[0].startswith("ready "):
                raise RuntimeError(f"the Triton child did not start: {proc.stderr[-500:]}")
            version.append(lines[0].split()[1])
            got = [json.loads(line) for line in lines[1:]]
            answers.update(zip(chunk, got))
            if len(got) < len(chunk):  # it died on the next question
                last = (proc.stderr.strip().splitlines() or [""])[-1]
                answers[chunk[len(got)]] = {"abort": f"exit status {proc.returncode}: {last[:200]}"}
            chunk = chunk[len(got) + 1:]
        return answers

    answers = {}
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        for part in pool.map(run, [list(range(len(pairs)))[k::workers] for k in range(workers)]):
            answers.update(part)
    return (version or ["?"])[0], [answers[i] for i in range(len(pairs))]


# --- the verdicts ---


def per_phase(totals):
    """Extra wavefronts per phase, (wavefronts - phases) / phases: what
    Triton's number counts. A fraction where phases cost differently."""
    _, wavefronts, phases = totals
    return Fraction(wavefronts - phases, phases)


def judge_pair(theirs, mine, rule):
    """(what f2lay got wrong, what Triton got wrong), each None where that
    side keeps the rule. rule: (instructions, wavefronts, phases)."""
    f2lay_wrong = triton_wrong = None
    if not mine.get("ok"):
        f2lay_wrong = f"refused: {mine.get('error')}"
    else:
        r = mine["result"]
        got = (r["instructions"], r["wavefronts"], r["ideal_wavefronts"])
        if got != rule or r["conflicts"] != r["wavefronts"] - r["ideal_wavefronts"]:
            f2lay_wrong = f"(instructions, wavefronts, ideal) {got}, the rule's {rule}"
    if "abort" in theirs:
        triton_wrong = f"the process aborts ({theirs['abort']})"
    elif "error" in theirs:
        triton_wrong = f"refused: {theirs['error']}"
    elif theirs["conflicts"] != per_phase(rule):
        triton_wrong = f"{theirs['conflicts']}, the rule's {per_phase(rule)} extra wavefronts per phase"
    return f2lay_wrong, triton_wrong


def finding_class(pair, vec, theirs, access):
    """The FINDINGS.md class of a Triton answer that breaks the rule."""
    if "abort" in theirs:
        if "reshapeIns" in theirs["abort"]:
            return "G2 (a vectorized tensor under 128 bytes: abort in reshapeIns)"
        if any(b & (b - 1) for b in pair["reg"] + pair["lane"] + pair["warp"]):
            return "G1 (a basis moves two tensor bits: abort)"
        return "abort"
    if "error" in theirs:
        return "refused"
    if vec * pair["bytes"] < 4:
        return "G3 (lanes a sub-word offset and a 128-byte row apart: conflict missed)"
    if access == "load":
        return "G4 (8/16-byte load whose quads repeat an address: fewer phases)"
    return "other"


def judge(report, classes, pair, vec, access, theirs, mine):
    rule = rule_totals(pair, vec, store=access == "store")
    f2lay_wrong, triton_wrong = judge_pair(theirs, mine, rule)
    where = f"{access} of {vec * pair['bytes']}-byte vectors of {pair['bytes']}-byte elements, {pair['family']}"
    if f2lay_wrong:
        report.f2lay_bug(access, f"{f2lay_wrong} ({where})\n  request {json.dumps(f2lay_request(pair, vec, access))}")
    if triton_wrong:
        label = finding_class(pair, vec, theirs, access)
        classes[label] = classes.get(label, 0) + 1
        report.finding(access, f"{label}: Triton {triton_wrong} ({where})\n    {triton_program(pair)}")
    if not f2lay_wrong and not triton_wrong:
        report.agree(access)


def test_bank_conflicts(f2lay, options):
    pytest.importorskip("triton", reason="Triton is not installed (scripts/setup installs it)")
    rng = random.Random(options["seed"] or 1)
    pairs = draw_pairs(rng, f2lay, options["cases"] or 200)
    vecs = [vector_elements(p) for p in pairs]
    jobs = options["jobs"] or max(1, min(4, os.cpu_count() or 1))
    version, peer = ask_triton(os.environ.get("TRITON_PYTHON", sys.executable), pairs, jobs)
    # Triton's phases are the stores' (fixed); 8/16-byte loads merge a quad's
    # repeated addresses (device_tests/HARDWARE.md#quad-merge), so they are
    # judged too, where Triton answered.
    asked = [(p, v, "store", t) for p, v, t in zip(pairs, vecs, peer)]
    asked += [(p, v, "load", t) for p, v, t in zip(pairs, vecs, peer)
              if v * p["bytes"] >= 8 and "conflicts" in t]
    responses = ask_oracle(f2lay, [f2lay_request(p, v, access) for p, v, access, _ in asked])
    report, classes = Report("gluon_banks_check", f"Triton {version}", ["store", "load"]), {}
    for (pair, vec, access, theirs), mine in zip(asked, responses):
        judge(report, classes, pair, vec, access, theirs, mine)
    for label, n in sorted(classes.items()):
        print(f"findings {label}: {n}")
    report.check()


if __name__ == "__main__":
    # ask_triton's children: this file run with --triton-child.
    if sys.argv[1:] != ["--triton-child"]:
        sys.exit("usage: gluon_banks_check.py --triton-child (the check itself: pytest)")
    sys.exit(triton_child())
