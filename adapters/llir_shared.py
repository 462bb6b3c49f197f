"""A per-thread interpreter of Triton's NVIDIA LLVM IR, for its shared-memory traffic.

run(llir, threads) evaluates the kernel of `compiled.asm["llir"]` (one CTA, ctaid 0,
tid.x 0..threads-1) for every thread at once, SIMT style: each value is an array over the
threads, control flow must be uniform (a branch whose condition differs between threads
raises). It returns a Run: every shared-memory access, barrier and warp shuffle in program
order, each with its source line (the instruction's !dbg), per-thread byte addresses and,
for the data moved, which byte of the first kernel argument it came from.

Data is tracked symbolically, bit by bit: a global load from argument 0 (the kernel's only
data source) yields bits named after the source byte; moves (bitcast, insert/extract,
shuffles, zext/trunc, shifts and masks by known amounts, or of disjoint parts, select on a
known condition, prmt, shared memory, ldmatrix/stmatrix, shfl.sync) carry the names along.
Addresses and everything else are computed concretely. Poison follows LLVM: a broken
nuw/nsw/exact/disjoint/nneg promise or an oversized shift yields poison (for every thread, the
conservative choice), which raises only where it would matter (an address, a branch, a
select condition). Whatever cannot be evaluated exactly (an unknown instruction, intrinsic or
inline-asm statement, arithmetic on data, a data-dependent address, a misaligned access,
division by zero, a divergent branch) raises Unsupported: never a guess.

Handled: add sub mul udiv urem sdiv srem and or xor shl lshr ashr icmp select zext sext trunc
bitcast ptrtoint inttoptr addrspacecast getelementptr (also as a constant expression)
insertelement extractelement shufflevector insertvalue extractvalue freeze phi br ret, load and
store (shared: address space 3 through @global_smem; global: argument 0 read, argument 1
written), calls to llvm.nvvm.read.ptx.sreg.{tid,ntid,ctaid,nctaid,laneid,cluster*}, barriers
(barrier.cta.sync*, barrier0, bar.warp.sync), shfl.sync.{idx,bfly,up,down}(.p), prmt,
{ld,st}matrix.sync.aligned.m8n8.x{1,2,4}[.trans].b16, llvm.{umin,umax,smin,smax,bitreverse,
bswap,ctpop,ctlz,cttz,abs,fshl,fshr} (scalar or vector), llvm.vector.reduce.{or,and,xor,add,
umin,umax}, llvm.assume, and inline asm made of mov (a constant), ld.global / st.global
(.v2/.v4, cache modifiers, predicated), ld.shared / st.shared and ldmatrix / stmatrix
statements. Not handled (raise): floating-point arithmetic and conversions, atomics, switch,
calls to functions, other special registers, cp.async / TMA / mbarrier / wgmma / tcgen05.

self_test() runs the interpreter on small hand-written kernels (a loop with phis, and one
kernel for each kind of refusal).
"""
import re

import numpy as np


class Unsupported(Exception):
    """Something in the kernel this interpreter cannot evaluate exactly."""


# ------------------------------------------------------------------ values
# A value is one of:
#   np.ndarray (uint64, one entry per thread): a known integer, float bits or i1;
#   Sym: bits (int64 array [threads, width]): 0 and 1 are known bits, -1 unknown
#        (poison), k >= 2 is bit (k-2)%8 of byte (k-2)//8 of argument 0;
#   Ptr: an address space, a base ('smem', 'arg0', 'arg1', ...) and byte offsets (int64);
#   Vec: a list of element values; Agg: a tuple (struct); POISON.
POISON = type("Poison", (), {"__repr__": lambda self: "poison"})()


class Sym:
    __slots__ = ("bits",)

    def __init__(self, bits):
        self.bits = bits


class Ptr:
    __slots__ = ("space", "base", "off")

    def __init__(self, space, base, off):
        self.space, self.base, self.off = space, base, off


class Vec:
    __slots__ = ("elems",)

    def __init__(self, elems):
        self.elems = list(elems)


class Agg:
    __slots__ = ("fields",)

    def __init__(self, fields):
        self.fields = tuple(fields)


# ------------------------------------------------------------------ types
class Ty:
    """kind: int (bits), float (bits), ptr (space), vec (n, elem), array (n, elem),
    struct (fields), void, label, meta."""
    __slots__ = ("kind", "bits", "space", "n", "elem", "fields")

    def __init__(self, kind, bits=0, space=0, n=0, elem=None, fields=()):
        self.kind, self.bits, self.space, self.n, self.elem, self.fields = kind, bits, space, n, elem, fields

    def size(self):
        """Bytes in memory (the data layout of Triton's NVPTX modules)."""
        if self.kind in ("int", "float"):
            return max(1, self.bits // 8)
        if self.kind == "ptr":
            return 4 if self.space in (3, 4, 5, 6, 7) else 8
        if self.kind in ("vec", "array"):
            return self.n * self.elem.size()
        if self.kind == "struct":
            off = 0
            for f in self.fields:
                a = f.size() if f.kind != "array" else f.elem.size()
                off = (off + a - 1) // a * a + f.size()
            return off
        raise Unsupported(f"size of type {self}")

    def width(self):
        """Bits of a first-class scalar or vector value."""
        if self.kind in ("int", "float"):
            return self.bits
        if self.kind == "vec":
            return self.n * self.elem.width()
        if self.kind == "ptr":
            return 8 * self.size()
        raise Unsupported(f"bit width of type {self}")

    def __repr__(self):
        if self.kind == "int":
            return f"i{self.bits}"
        if self.kind == "float":
            return {16: "half", 32: "float", 64: "double"}.get(self.bits, f"f{self.bits}")
        if self.kind == "ptr":
            return f"ptr addrspace({self.space})"
        if self.kind == "vec":
            return f"<{self.n} x {self.elem}>"
        if self.kind == "array":
            return f"[{self.n} x {self.elem}]"
        if self.kind == "struct":
            return "{ " + ", ".join(map(repr, self.fields)) + " }"
        return self.kind


FLOATS = {"half": 16, "bfloat": 16, "float": 32, "double": 64}

# ------------------------------------------------------------------ tokens
TOKEN = re.compile(r'\s*(?:(;.*)|("(?:[^"\\]|\\.)*")|([%@!#]"[^"]*"|[%@!#]?[-+\w.$]+|\.\.\.|[(){}\[\]<>,=*:|]))')


def tokenize(line):
    out, pos = [], 0
    while pos < len(line):
        m = TOKEN.match(line, pos)
        if not m:
            if line[pos:].strip() == "":
                break
            raise Unsupported(f"cannot tokenize: {line[pos:pos + 40]!r}")
        pos = m.end()
        if m.group(1) is not None:  # a comment
            break
        out.append(m.group(2) if m.group(2) is not None else m.group(3))
    return out


class Cursor:
    def __init__(self, toks):
        self.t, self.i = toks, 0

    def peek(self, k=0):
        return self.t[self.i + k] if self.i + k < len(self.t) else None

    def next(self):
        if self.i >= len(self.t):
            raise Unsupported("unexpected end of instruction")
        self.i += 1
        return self.t[self.i - 1]

    def expect(self, tok):
        got = self.next()
        if got != tok:
            raise Unsupported(f"expected {tok!r}, got {got!r}")

    def accept(self, *toks):
        if self.peek() in toks:
            return self.next()
        return None


def parse_type(c):
    tok = c.next()
    if tok == "<":
        n = int(c.next())
        c.expect("x")
        elem = parse_type(c)
        c.expect(">")
        ty = Ty("vec", n=n, elem=elem)
    elif tok == "[":
        n = int(c.next())
        c.expect("x")
        elem = parse_type(c)
        c.expect("]")
        ty = Ty("array", n=n, elem=elem)
    elif tok == "{":
        fields = []
        if c.peek() != "}":
            fields.append(parse_type(c))
            while c.accept(","):
                fields.append(parse_type(c))
        c.expect("}")
        ty = Ty("struct", fields=tuple(fields))
    elif re.fullmatch(r"i\d+", tok):
        ty = Ty("int", bits=int(tok[1:]))
    elif tok in FLOATS:
        ty = Ty("float", bits=FLOATS[tok])
    elif tok == "ptr":
        space = 0
        if c.peek() == "addrspace":
            c.next()
            c.expect("(")
            space = int(c.next())
            c.expect(")")
        ty = Ty("ptr", space=space)
    elif tok in ("void", "label", "metadata"):
        ty = Ty({"void": "void", "label": "label", "metadata": "meta"}[tok])
    else:
        raise Unsupported(f"unknown type {tok!r}")
    if c.peek() == "*":
        raise Unsupported("typed pointers")
    return ty


IDENT = re.compile(r"[%@]")
PARAM_ATTRS = {"noundef", "nonnull", "readnone", "readonly", "writeonly", "nofree", "noalias", "nocapture",
               "immarg", "returned", "signext", "zeroext", "inreg", "nneg"}


def skip_param_attrs(c):
    while True:
        p = c.peek()
        if p in PARAM_ATTRS:
            c.next()
        elif p in ("align", "dereferenceable", "dereferenceable_or_null"):
            c.next()
            if c.peek() == "(":
                c.next(), c.next(), c.expect(")")
            else:
                c.next()
        elif p in ("captures", "range", "nofpclass", "initializes"):
            c.next()
            depth = 0
            while True:
                t = c.next()
                depth += t == "("
                depth -= t == ")"
                if depth == 0:
                    break
        else:
            return


# An operand, before evaluation: ("local", name), ("global", name), ("const", value spec).
def parse_value(c, ty):
    """The operand of type ty at the cursor, as a constant or a name."""
    tok = c.next()
    if tok.startswith("%"):
        return ("local", tok)
    if tok.startswith("@"):
        return ("global", tok)
    if tok in ("poison", "undef"):
        return ("poison",)
    if tok == "zeroinitializer" or tok == "null":
        return ("zero",)
    if tok in ("true", "false"):
        return ("int", int(tok == "true"))
    if tok == "<":  # a vector constant
        elems = []
        while True:
            ety = parse_type(c)
            elems.append(parse_value(c, ety))
            if not c.accept(","):
                break
        c.expect(">")
        return ("vec", elems)
    if tok == "splat":
        c.expect("(")
        ety = parse_type(c)
        v = parse_value(c, ety)
        c.expect(")")
        return ("splat", v)
    if tok in ("getelementptr", "ptrtoint", "inttoptr", "addrspacecast", "bitcast"):
        return parse_constexpr(c, tok)
    if ty is not None and ty.kind == "float":
        return ("int", float_bits(tok, ty.bits))
    try:
        return ("int", int(tok, 0))
    except ValueError:
        raise Unsupported(f"operand {tok!r}") from None


def parse_constexpr(c, op):
    if op == "getelementptr":
        flags = []
        while c.peek() in ("inbounds", "nuw", "nusw"):
            flags.append(c.next())
        c.expect("(")
        src_ty = parse_type(c)
        c.expect(",")
        pty = parse_type(c)
        base = parse_value(c, pty)
        idx = []
        while c.accept(","):
            ity = parse_type(c)
            idx.append((ity, parse_value(c, ity)))
        c.expect(")")
        return ("gep", src_ty, pty, base, idx)
    c.expect("(")
    fty = parse_type(c)
    v = parse_value(c, fty)
    c.expect("to")
    tty = parse_type(c)
    c.expect(")")
    return ("cast", op, fty, v, tty)


def float_bits(tok, bits):
    if tok.startswith("0xH") or tok.startswith("0xR"):
        return int(tok[3:], 16)
    if tok.startswith("0x"):  # LLVM prints float and double constants as doubles
        d = np.array([int(tok, 16)], dtype=np.uint64).view(np.float64)
    else:
        d = np.array([float(tok)], dtype=np.float64)
    if bits == 64:
        return int(d.view(np.uint64)[0])
    if bits == 32:
        return int(d.astype(np.float32).view(np.uint32)[0])
    if bits == 16:
        return int(d.astype(np.float16).view(np.uint16)[0])
    raise Unsupported(f"float constant of {bits} bits")


# ------------------------------------------------------------------ parsing a module
class Inst:
    __slots__ = ("res", "op", "args", "line", "text", "idx")

    def __init__(self, res, op, args, line, text, idx):
        self.res, self.op, self.args, self.line, self.text, self.idx = res, op, args, line, text, idx


BINOPS = {"add", "sub", "mul", "udiv", "urem", "sdiv", "srem", "and", "or", "xor", "shl", "lshr", "ashr"}
CASTS = {"zext", "sext", "trunc", "bitcast", "ptrtoint", "inttoptr", "addrspacecast"}
FLOAT_OPS = {"fadd", "fsub", "fmul", "fdiv", "frem", "fneg", "fcmp", "fptrunc", "fpext", "fptoui", "fptosi",
             "uitofp", "sitofp", "atomicrmw", "cmpxchg", "fence", "alloca", "switch", "indirectbr", "invoke",
             "unreachable", "va_arg", "landingpad"}
FAST_MATH = {"fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc"}


def parse_module(text):
    """(instructions, block label -> first index, arg names, dbg line of each !N)."""
    dbg = {}
    for m in re.finditer(r"^(!\d+) = (?:distinct )?!DILocation\(line: (\d+)", text, re.M):
        dbg[m.group(1)] = int(m.group(2))
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith("define ")), None)
    if start is None:
        raise Unsupported("no function definition")
    if sum(1 for l in lines if l.startswith("define ")) != 1:
        raise Unsupported("more than one function defined")
    header = lines[start]
    params = header[header.index("(") + 1:header.rindex(")")]
    args = re.findall(r"(%[\w.]+)(?=\s*(?:,|$))", params)
    insts, labels = [], {}
    entry = None
    for raw in lines[start + 1:]:
        if raw.startswith("}"):
            break
        s = raw.strip()
        if not s or s.startswith(";"):
            continue
        m = re.match(r'^("?[\w.$-]+"?):', s)
        if m and not s.startswith("%"):
            labels["%" + m.group(1).strip('"')] = len(insts)
            continue
        if entry is None:
            entry = len(insts)
        insts.append(parse_inst(s, dbg, len(insts)))
    # The entry block's implicit name: the first number after the arguments.
    numbered = [int(a[1:]) for a in args if a[1:].isdigit()]
    labels.setdefault(f"%{max(numbered) + 1 if numbered else 0}", 0)
    return insts, labels, args


def parse_inst(s, dbg, idx):
    line = None
    m = re.search(r",? !dbg (!\d+)", s)
    if m:
        line = dbg.get(m.group(1))
        s_clean = s[:m.start()] + s[m.end():]
    else:
        s_clean = s
    # other attached metadata (!range, !noalias, ...) goes too
    s_clean = re.sub(r",\s*![\w.]+\s+!\d+", "", s_clean)
    c = Cursor(tokenize(s_clean))
    res = None
    if c.peek() and c.peek().startswith("%") and c.peek(1) == "=":
        res = c.next()
        c.next()
    op = c.next()
    while op in ("tail", "musttail", "notail"):
        op = c.next()
    return Inst(res, op, parse_operands(op, c, s), line, s, idx)


def parse_operands(op, c, s):
    if op in BINOPS:
        flags = set()
        while c.peek() in ("nuw", "nsw", "exact", "disjoint"):
            flags.add(c.next())
        ty = parse_type(c)
        a = parse_value(c, ty)
        c.expect(",")
        b = parse_value(c, ty)
        return (flags, ty, a, b)
    if op == "icmp":
        c.accept("samesign")
        pred = c.next()
        ty = parse_type(c)
        a = parse_value(c, ty)
        c.expect(",")
        return (pred, ty, a, parse_value(c, ty))
    if op == "select":
        while c.peek() in FAST_MATH:
            c.next()
        cty = parse_type(c)
        cv = parse_value(c, cty)
        c.expect(",")
        ty = parse_type(c)
        a = parse_value(c, ty)
        c.expect(",")
        parse_type(c)
        return (cty, cv, ty, a, parse_value(c, ty))
    if op in CASTS:
        flags = set()
        while c.peek() in ("nneg", "nuw", "nsw"):
            flags.add(c.next())
        fty = parse_type(c)
        v = parse_value(c, fty)
        c.expect("to")
        return (fty, v, parse_type(c), flags)
    if op == "freeze":
        ty = parse_type(c)
        return (ty, parse_value(c, ty))
    if op == "getelementptr":
        flags = []
        while c.peek() in ("inbounds", "nuw", "nusw"):
            flags.append(c.next())
        if c.peek() == "inrange":
            raise Unsupported("getelementptr inrange")
        src_ty = parse_type(c)
        c.expect(",")
        pty = parse_type(c)
        base = parse_value(c, pty)
        idx = []
        while c.accept(","):
            ity = parse_type(c)
            idx.append((ity, parse_value(c, ity)))
        return (src_ty, pty, base, idx)
    if op == "load":
        c.accept("volatile")
        ty = parse_type(c)
        c.expect(",")
        pty = parse_type(c)
        p = parse_value(c, pty)
        align = 1
        if c.accept(","):
            c.expect("align")
            align = int(c.next())
        return (ty, pty, p, align)
    if op == "store":
        c.accept("volatile")
        ty = parse_type(c)
        v = parse_value(c, ty)
        c.expect(",")
        pty = parse_type(c)
        p = parse_value(c, pty)
        align = 1
        if c.accept(","):
            c.expect("align")
            align = int(c.next())
        return (ty, v, pty, p, align)
    if op == "insertelement":
        vty = parse_type(c)
        v = parse_value(c, vty)
        c.expect(",")
        ety = parse_type(c)
        e = parse_value(c, ety)
        c.expect(",")
        ity = parse_type(c)
        return (vty, v, ety, e, ity, parse_value(c, ity))
    if op == "extractelement":
        vty = parse_type(c)
        v = parse_value(c, vty)
        c.expect(",")
        ity = parse_type(c)
        return (vty, v, ity, parse_value(c, ity))
    if op == "shufflevector":
        vty = parse_type(c)
        a = parse_value(c, vty)
        c.expect(",")
        parse_type(c)
        b = parse_value(c, vty)
        c.expect(",")
        mty = parse_type(c)
        return (vty, a, b, mty, parse_value(c, mty))
    if op == "extractvalue":
        aty = parse_type(c)
        v = parse_value(c, aty)
        idx = []
        while c.accept(","):
            idx.append(int(c.next()))
        return (aty, v, idx)
    if op == "insertvalue":
        aty = parse_type(c)
        v = parse_value(c, aty)
        c.expect(",")
        ety = parse_type(c)
        e = parse_value(c, ety)
        idx = []
        while c.accept(","):
            idx.append(int(c.next()))
        return (aty, v, ety, e, idx)
    if op == "phi":
        while c.peek() in FAST_MATH:
            c.next()
        ty = parse_type(c)
        inc = []
        while True:
            c.expect("[")
            v = parse_value(c, ty)
            c.expect(",")
            lab = c.next()
            c.expect("]")
            inc.append((v, lab))
            if not c.accept(","):
                break
        return (ty, inc)
    if op == "br":
        if c.peek() == "label":
            c.next()
            return ("jump", c.next())
        cty = parse_type(c)
        cv = parse_value(c, cty)
        c.expect(",")
        c.expect("label")
        t = c.next()
        c.expect(",")
        c.expect("label")
        return ("cond", cv, t, c.next())
    if op == "ret":
        if c.accept("void") is None:
            raise Unsupported("a kernel returning a value")
        return ()
    if op == "call":
        while c.peek() in FAST_MATH or c.peek() in ("fastcc", "ccc", "ptx_kernel"):
            c.next()
        skip_param_attrs(c)
        rty = parse_type(c)
        if c.peek() == "asm":
            c.next()
            while c.peek() in ("sideeffect", "alignstack", "inteldialect", "convergent"):
                c.next()
            code = unescape(c.next()[1:-1])
            c.expect(",")
            cons = unescape(c.next()[1:-1])
            callee = ("asm", code, cons)
        else:
            callee = c.next()
        c.expect("(")
        args = []
        if c.peek() != ")":
            while True:
                aty = parse_type(c)
                skip_param_attrs(c)
                args.append((aty, parse_value(c, aty)))
                if not c.accept(","):
                    break
        c.expect(")")
        return (rty, callee, args)
    if op in FLOAT_OPS:
        return None  # raised when executed (never on a path that is not run)
    raise Unsupported(f"unknown instruction {op!r}: {s}")


def unescape(s):
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), s)


# ------------------------------------------------------------------ helpers on values
def mask_of(w):
    return np.uint64((1 << w) - 1) if w < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)


def to_bits(v, w, T):
    """A scalar value as bits [T, w]."""
    if isinstance(v, Sym):
        if v.bits.shape[1] != w:
            raise Unsupported("bit width mismatch")
        return v.bits
    if v is POISON:
        return np.full((T, w), -1, dtype=np.int64)
    if isinstance(v, np.ndarray):
        sh = np.arange(w, dtype=np.uint64)
        return ((v[:, None] >> sh[None, :]) & np.uint64(1)).astype(np.int64)
    raise Unsupported(f"bits of a {type(v).__name__}")


def from_bits(bits):
    """Known bits become an integer, anything else stays symbolic."""
    if bits.shape[1] <= 64 and ((bits == 0) | (bits == 1)).all():
        sh = np.arange(bits.shape[1], dtype=np.uint64)
        return (bits.astype(np.uint64) << sh[None, :]).sum(axis=1, dtype=np.uint64)
    return Sym(bits)


def signed(a, w):
    a = a.astype(np.uint64) & mask_of(w)
    if w == 64:
        return a.view(np.int64)
    s = a.astype(np.int64)
    return np.where(s >= (1 << (w - 1)), s - (1 << w), s)


def concrete(v, what):
    if isinstance(v, np.ndarray):
        return v
    if isinstance(v, Sym):
        raise Unsupported(f"{what} depends on loaded data")
    if v is POISON:
        raise Unsupported(f"{what} is poison")
    raise Unsupported(f"{what} is a {type(v).__name__}")


def elems_bits(v, ty, T):
    """A vector or scalar as one bit array [T, width], element 0 lowest."""
    if ty.kind == "vec":
        if v is POISON:
            return np.full((T, ty.width()), -1, dtype=np.int64)
        if not isinstance(v, Vec) or len(v.elems) != ty.n:
            raise Unsupported("malformed vector value")
        return np.concatenate([to_bits(e, ty.elem.width(), T) if ty.elem.kind != "ptr" else
                               ptr_bits(e, ty.elem, T) for e in v.elems], axis=1)
    if ty.kind == "ptr":
        return ptr_bits(v, ty, T)
    return to_bits(v, ty.width(), T)


def ptr_bits(v, ty, T):
    if isinstance(v, Ptr) and v.base == "smem" and ty.space == 3:
        return to_bits(v.off.astype(np.uint64), 32, T)
    raise Unsupported("bits of a pointer other than a shared one")


def bits_to(bits, ty, T):
    if ty.kind == "vec":
        w = ty.elem.width()
        return Vec([bits_to(bits[:, i * w:(i + 1) * w], ty.elem, T) for i in range(ty.n)])
    if ty.kind == "ptr":
        if ty.space != 3:
            raise Unsupported("a bitcast to a non-shared pointer")
        return Ptr(3, "smem", concrete(from_bits(bits), "a pointer").astype(np.int64))
    if (bits == -1).all():
        return POISON
    return from_bits(bits)


# ------------------------------------------------------------------ the result
class Event:
    """One warp-synchronous thing a kernel does, in program order.

    kind: 'st.shared', 'ld.shared', 'stmatrix', 'stmatrix.trans', 'ldmatrix', 'ldmatrix.trans',
          'barrier' (bar.sync), 'warp_barrier' (bar.warp.sync), 'shfl', 'ld.global', 'st.global'.
    line: the source line of its !dbg (None without one); inst: the static instruction index.
    addr: int64 [T] byte addresses (for matrices, the row address each lane gives);
    nbytes: bytes per lane (for matrices, 4 * x); x: matrices (matrix instructions only);
    active: bool [T] (predicated inline asm), None when every thread takes part;
    moved: for shared accesses, [(thread array, shared byte array, source byte array)]
           naming for every byte moved which byte of argument 0 it holds (-1: not one byte
           of it, e.g. a constant or poison)."""
    __slots__ = ("kind", "line", "inst", "addr", "nbytes", "x", "active", "moved", "detail")

    def __init__(self, kind, line, inst, addr=None, nbytes=0, x=0, active=None, moved=None, detail=None):
        self.kind, self.line, self.inst, self.addr, self.nbytes = kind, line, inst, addr, nbytes
        self.x, self.active, self.moved, self.detail = x, active, moved, detail


class Run:
    """events: the Events in program order; written: argument 1's bytes as bit ids, 8 a byte
    (-3: never written); steps: instructions executed."""

    def __init__(self, events, written, steps):
        self.events, self.written, self.steps = events, written, steps

    def copy_errors(self, nbytes):
        """Bytes 0..nbytes-1 of argument 1 that do not hold the same byte of argument 0
        (the kernels here copy a tensor): a list of (byte, what it holds)."""
        got = np.full(nbytes * 8, -3, dtype=np.int64)
        n = min(nbytes * 8, self.written.size)
        got[:n] = self.written[:n]
        got = got.reshape(nbytes, 8)
        want = 2 + np.arange(nbytes * 8).reshape(nbytes, 8)
        bad = np.nonzero((got != want).any(axis=1))[0]
        return [(int(b), "never written" if (got[b] == -3).all() else describe_bits(got[b])) for b in bad]


def describe_bits(bits):
    bits = np.asarray(bits)
    if ((bits - 2) // 8 == (bits[0] - 2) // 8).all() and bits[0] >= 2:
        return f"byte {(bits[0] - 2) // 8} of the source, bits {list((bits - 2) % 8)}"
    return f"bits {list(bits)}"


def byte_sources(bits):
    """[T, 8k] bits -> [T, k] source byte of argument 0 per byte, -1 where a byte is not
    exactly one source byte."""
    T, w = bits.shape
    if w % 8:
        raise Unsupported(f"a {w}-bit value in memory")
    b = bits.reshape(T, w // 8, 8)
    first = b[:, :, 0]
    src = (first - 2) // 8
    ok = (first >= 2) & ((first - 2) % 8 == 0) & (b == first[:, :, None] + np.arange(8)).all(axis=2)
    return np.where(ok, src, -1)


# ------------------------------------------------------------------ the interpreter
class Machine:
    def __init__(self, insts, labels, args, threads, max_steps):
        self.insts, self.labels, self.args, self.T = insts, labels, args, threads
        self.max_steps = max_steps
        self.tid = np.arange(threads, dtype=np.uint64)
        self.env = {}
        for k, a in enumerate(args):
            self.env[a] = Ptr(1, f"arg{k}", np.zeros(threads, dtype=np.int64))
        self.smem = np.full(0, -1, dtype=np.int64)  # bit ids, 8 a byte
        self.events, self.gout = [], np.full(0, -3, dtype=np.int64)
        self.inst = None

    # ---- operands
    def val(self, spec, ty):
        kind = spec[0]
        if kind == "local":
            try:
                return self.env[spec[1]]
            except KeyError:
                raise Unsupported(f"{spec[1]} used before it is defined") from None
        if kind == "int":
            if ty.kind == "vec":
                raise Unsupported("a scalar constant of vector type")
            if ty.kind == "ptr":
                raise Unsupported("an integer constant pointer")
            return np.full(self.T, spec[1] & ((1 << ty.width()) - 1), dtype=np.uint64)
        if kind == "poison":
            if ty.kind == "vec":
                return Vec([POISON] * ty.n)
            return POISON
        if kind == "zero":
            if ty.kind == "vec":
                return Vec([self.val(("zero",), ty.elem) for _ in range(ty.n)])
            if ty.kind == "ptr":
                return Ptr(ty.space, "null", np.zeros(self.T, dtype=np.int64))
            if ty.kind == "struct":
                return Agg(self.val(("zero",), f) for f in ty.fields)
            return np.zeros(self.T, dtype=np.uint64)
        if kind == "vec":
            if ty.kind != "vec" or len(spec[1]) != ty.n:
                raise Unsupported("malformed vector constant")
            return Vec([self.val(e, ty.elem) for e in spec[1]])
        if kind == "splat":
            return Vec([self.val(spec[1], ty.elem) for _ in range(ty.n)])
        if kind == "global":
            if spec[1] == "@global_smem":
                return Ptr(3, "smem", np.zeros(self.T, dtype=np.int64))
            raise Unsupported(f"global {spec[1]}")
        if kind == "gep":
            _, src_ty, pty, base, idx = spec
            return self.gep(src_ty, self.val(base, pty), idx, set())
        if kind == "cast":
            _, op, fty, v, tty = spec
            return self.cast(op, fty, self.val(v, fty), tty, set())
        raise Unsupported(f"operand {spec}")

    # ---- instructions
    def run(self):
        pc, prev_block, cur_block, steps = 0, None, None, 0
        starts = {i: name for name, i in self.labels.items()}
        cur_block = starts.get(0)
        while True:
            if pc >= len(self.insts):
                raise Unsupported("fell off the end of the function")
            if pc in starts:
                cur_block = starts[pc]
            inst = self.insts[pc]
            self.inst = inst
            steps += 1
            if steps > self.max_steps:
                raise Unsupported(f"more than {self.max_steps} instructions executed")
            if inst.op == "phi":
                # all phis of the block at once, from the block we came from
                k = pc
                new = {}
                while k < len(self.insts) and self.insts[k].op == "phi":
                    ph = self.insts[k]
                    ty, inc = ph.args
                    src = [v for v, lab in inc if lab == prev_block]
                    if not src:
                        raise Unsupported(f"phi without an entry for {prev_block}")
                    new[ph.res] = self.val(src[0], ty)
                    k += 1
                self.env.update(new)
                pc = k
                continue
            if inst.op == "br":
                if inst.args[0] == "jump":
                    target = inst.args[1]
                else:
                    cond = concrete(self.val(inst.args[1], Ty("int", bits=1)), "a branch condition")
                    if not (cond == cond[0]).all():
                        raise Unsupported("a branch that differs between threads")
                    target = inst.args[2] if cond[0] else inst.args[3]
                if target not in self.labels:
                    raise Unsupported(f"branch to unknown label {target}")
                prev_block, pc = cur_block, self.labels[target]
                continue
            if inst.op == "ret":
                return Run(self.events, self.gout, steps)
            try:
                out = self.execute(inst)
            except Unsupported as e:
                raise Unsupported(f"{e}\n  in: {inst.text}") from None
            if inst.res is not None:
                self.env[inst.res] = out
            pc += 1

    def execute(self, inst):
        op, a = inst.op, inst.args
        if a is None:
            raise Unsupported(f"instruction {op}")
        if op in BINOPS:
            return self.binop(op, *a)
        if op == "icmp":
            pred, ty, x, y = a
            return self.lanewise(ty, lambda p, q: self.icmp(pred, ty.elem if ty.kind == "vec" else ty, p, q),
                                 self.val(x, ty), self.val(y, ty))
        if op == "select":
            cty, cv, ty, x, y = a
            c = self.val(cv, cty)
            xv, yv = self.val(x, ty), self.val(y, ty)
            if cty.kind == "vec":
                return Vec(self.select1(ci, xi, yi) for ci, xi, yi in zip(c.elems, xv.elems, yv.elems))
            if ty.kind == "vec":
                return Vec(self.select1(c, xi, yi) for xi, yi in zip(xv.elems, yv.elems))
            return self.select1(c, xv, yv)
        if op in CASTS:
            fty, v, tty, flags = a
            return self.cast(op, fty, self.val(v, fty), tty, flags)
        if op == "freeze":
            v = self.val(a[1], a[0])
            if v is POISON:
                raise Unsupported("freeze of poison")
            return v
        if op == "getelementptr":
            src_ty, pty, base, idx = a
            return self.gep(src_ty, self.val(base, pty), idx, set())
        if op == "load":
            return self.load(*a)
        if op == "store":
            self.store(*a)
            return None
        if op == "insertelement":
            vty, v, ety, e, ity, i = a
            vec = self.val(v, vty)
            k = self.uniform(self.val(i, ity), "an insertelement index")
            if not 0 <= k < vty.n:
                raise Unsupported("insertelement out of range")
            elems = list(vec.elems)
            elems[k] = self.val(e, ety)
            return Vec(elems)
        if op == "extractelement":
            vty, v, ity, i = a
            vec = self.val(v, vty)
            k = self.uniform(self.val(i, ity), "an extractelement index")
            if not 0 <= k < vty.n:
                raise Unsupported("extractelement out of range")
            return vec.elems[k]
        if op == "shufflevector":
            vty, x, y, mty, m = a
            xs, ys = self.val(x, vty).elems, self.val(y, vty).elems
            mask = self.val(m, Ty("vec", n=mty.n, elem=Ty("int", bits=32)))
            out = []
            for e in mask.elems:
                if e is POISON:
                    out.append(POISON)
                    continue
                k = self.uniform(e, "a shuffle mask")
                out.append(xs[k] if k < vty.n else ys[k - vty.n])
            return Vec(out)
        if op == "extractvalue":
            aty, v, idx = a
            x = self.val(v, aty)
            for k in idx:
                if not isinstance(x, Agg):
                    raise Unsupported("extractvalue of a non-aggregate")
                x = x.fields[k]
            return x
        if op == "insertvalue":
            aty, v, ety, e, idx = a
            if len(idx) != 1:
                raise Unsupported("nested insertvalue")
            x = self.val(v, aty)
            if x is POISON:
                x = Agg([POISON] * len(aty.fields))
            f = list(x.fields)
            f[idx[0]] = self.val(e, ety)
            return Agg(f)
        if op == "call":
            return self.call(*a)
        raise Unsupported(f"instruction {op}")

    def uniform(self, v, what):
        v = concrete(v, what)
        if not (v == v[0]).all():
            raise Unsupported(f"{what} differs between threads")
        return int(v[0])

    def lanewise(self, ty, f, x, y):
        if ty.kind == "vec":
            return Vec(f(p, q) for p, q in zip(x.elems, y.elems))
        return f(x, y)

    def select1(self, c, x, y):
        c = concrete(c, "a select condition").astype(bool)
        if c.all():
            return x
        if not c.any():
            return y
        if isinstance(x, Ptr) or isinstance(y, Ptr):
            if not (isinstance(x, Ptr) and isinstance(y, Ptr) and x.base == y.base and x.space == y.space):
                raise Unsupported("select between unrelated pointers")
            return Ptr(x.space, x.base, np.where(c, x.off, y.off))
        if isinstance(x, np.ndarray) and isinstance(y, np.ndarray):
            return np.where(c, x, y)
        if x is POISON or y is POISON:
            raise Unsupported("select of poison in some threads")
        w = (x.bits if isinstance(x, Sym) else y.bits).shape[1]
        return from_bits(np.where(c[:, None], to_bits(x, w, self.T), to_bits(y, w, self.T)))

    def icmp(self, pred, ty, x, y):
        if x is POISON or y is POISON:
            return POISON
        if isinstance(x, Ptr) or isinstance(y, Ptr):
            if not (isinstance(x, Ptr) and isinstance(y, Ptr) and x.base == y.base):
                raise Unsupported("icmp of unrelated pointers")
            x, y, w = x.off.astype(np.uint64), y.off.astype(np.uint64), 64
        else:
            x, y, w = concrete(x, "an icmp operand"), concrete(y, "an icmp operand"), ty.bits
        if pred in ("slt", "sle", "sgt", "sge"):
            x, y = signed(x, w), signed(y, w)
        r = {"eq": x == y, "ne": x != y, "ult": x < y, "ule": x <= y, "ugt": x > y, "uge": x >= y,
             "slt": x < y, "sle": x <= y, "sgt": x > y, "sge": x >= y}.get(pred)
        if r is None:
            raise Unsupported(f"icmp {pred}")
        return r.astype(np.uint64)

    # ---- integer arithmetic
    def binop(self, op, flags, ty, x, y):
        xv, yv = self.val(x, ty), self.val(y, ty)
        if ty.kind == "vec":
            return Vec(self.binop1(op, flags, ty.elem, p, q) for p, q in zip(xv.elems, yv.elems))
        return self.binop1(op, flags, ty, xv, yv)

    def binop1(self, op, flags, ty, x, y):
        if ty.kind != "int":
            raise Unsupported(f"{op} on {ty}")
        w = ty.bits
        if isinstance(x, np.ndarray) and isinstance(y, np.ndarray):
            return self.int_op(op, flags, w, x, y)
        if x is POISON or y is POISON:
            return POISON  # LLVM: poison in, poison out (raised where it would matter)
        return self.sym_op(op, flags, w, x, y)

    def int_op(self, op, flags, w, x, y):
        m = mask_of(w)
        big = lambda v: [int(t) for t in v]  # exact, for the overflow checks
        if op == "add":
            r = (x + y) & m
            if "nuw" in flags and (r < x).any():
                return POISON  # add nuw overflows
            if "nsw" in flags and (signed(x, w) + signed(y, w) != signed(r, w)).any() and w < 64:
                return POISON  # add nsw overflows
            return r
        if op == "sub":
            r = (x - y) & m
            if "nuw" in flags and (y > x).any():
                return POISON  # sub nuw overflows
            if "nsw" in flags and w < 64 and (signed(x, w) - signed(y, w) != signed(r, w)).any():
                return POISON  # sub nsw overflows
            return r
        if op == "mul":
            r = (x * y) & m
            if flags & {"nuw", "nsw"}:
                for p, q in zip(big(x), big(y)):
                    if "nuw" in flags and p * q >= 1 << w:
                        return POISON  # mul nuw overflows
                    sp = p - (1 << w) if p >> (w - 1) else p
                    sq = q - (1 << w) if q >> (w - 1) else q
                    if "nsw" in flags and not -(1 << (w - 1)) <= sp * sq < 1 << (w - 1):
                        return POISON  # mul nsw overflows
            return r
        if op in ("udiv", "urem"):
            if (y == 0).any():
                raise Unsupported("division by zero")
            r = x // y if op == "udiv" else x % y
            if "exact" in flags and (x % y).any():
                return POISON  # udiv exact is not exact
            return r
        if op in ("sdiv", "srem"):
            if (y == 0).any():
                raise Unsupported("division by zero")
            sx, sy = signed(x, w), signed(y, w)
            q = np.trunc(sx / sy).astype(np.int64) if w < 53 else None
            if q is None:
                raise Unsupported("wide sdiv")
            r = q if op == "sdiv" else sx - q * sy
            return r.astype(np.uint64) & m
        if op == "and":
            return x & y
        if op == "or":
            if "disjoint" in flags and (x & y).any():
                return POISON  # or disjoint with common bits
            return x | y
        if op == "xor":
            return x ^ y
        if op in ("shl", "lshr", "ashr"):
            if (y >= np.uint64(w)).any():
                return POISON  # {op} by {w} bits or more
            if op == "shl":
                r = (x << y) & m
                if "nuw" in flags and ((r >> y) != x).any():
                    return POISON  # shl nuw shifts out ones
                if "nsw" in flags and (signed(r, w) >> y.astype(np.int64) != signed(x, w)).any():
                    return POISON  # shl nsw changes the sign
                return r
            if "exact" in flags and (x & ((np.uint64(1) << y) - np.uint64(1))).any():
                return POISON  # {op} exact shifts out ones
            if op == "lshr":
                return x >> y
            return (signed(x, w) >> y.astype(np.int64)).astype(np.uint64) & m
        raise Unsupported(op)

    def sym_op(self, op, flags, w, x, y):
        T = self.T
        if op in ("shl", "lshr", "ashr"):
            s = concrete(y, "a shift amount").astype(np.int64)
            if (s >= w).any():
                return POISON  # {op} by {w} bits or more
            b = to_bits(x, w, T)
            pos = np.arange(w)[None, :]
            if op == "shl":
                src = pos - s[:, None]
                out = np.where(src >= 0, np.take_along_axis(b, np.clip(src, 0, w - 1), 1), 0)
                lost = pos >= (w - s[:, None])
                if "nuw" in flags and (np.where(lost, b, 0) != 0).any():
                    return POISON  # shl nuw may shift out ones
                if "nsw" in flags:  # the bits shifted out and the new sign bit must be one value
                    top = pos >= (w - 1 - s[:, None])
                    ref = b[:, w - 1:w]
                    if (np.where(top, b != ref, False)).any() or (np.where(top, b, 0) < 0).any():
                        return POISON  # shl nsw may change the sign
                return from_bits(out)
            src = pos + s[:, None]
            fill = 0 if op == "lshr" else b[:, w - 1:w]
            out = np.where(src < w, np.take_along_axis(b, np.clip(src, 0, w - 1), 1), fill)
            if "exact" in flags and (np.where(pos < s[:, None], b, 0) != 0).any():
                return POISON  # {op} exact may shift out ones
            return from_bits(out)
        a, b = to_bits(x, w, T), to_bits(y, w, T)
        if (a == -1).any() or (b == -1).any():
            raise Unsupported(f"{op} of poison bits")
        if op == "and":
            out = np.where((a == 0) | (b == 0), 0, np.where(a == 1, b, np.where(b == 1, a, np.where(a == b, a, -2))))
        elif op in ("or", "add"):
            if op == "add" and ((a != 0) & (b != 0)).any():
                raise Unsupported("add of loaded data with possible carries")
            if "disjoint" in flags and ((a != 0) & (b != 0)).any():
                return POISON  # or disjoint of loaded data with possibly common bits
            out = np.where((a == 1) | (b == 1), 1, np.where(a == 0, b, np.where(b == 0, a, np.where(a == b, a, -2))))
        elif op == "xor":
            out = np.where(a == 0, b, np.where(b == 0, a, np.where((a == b), 0, -2)))
            both = (a <= 1) & (b <= 1)
            out = np.where(both, a ^ b, out)
        else:
            raise Unsupported(f"{op} on loaded data")
        if (out == -2).any():
            raise Unsupported(f"{op} combines loaded bits")
        return from_bits(out)

    # ---- casts
    def cast(self, op, fty, v, tty, flags):
        T = self.T
        if fty.kind == "vec" and op != "bitcast":
            if tty.kind != "vec" or tty.n != fty.n:
                raise Unsupported(f"{op} between vector shapes")
            return Vec(self.cast(op, fty.elem, e, tty.elem, flags) for e in v.elems)
        if op == "bitcast":
            if fty.kind == "ptr" or tty.kind == "ptr":
                if fty.kind == tty.kind == "ptr" and fty.space == tty.space:
                    return v
                raise Unsupported("a bitcast of a pointer")
            if fty.width() != tty.width():
                raise Unsupported("a bitcast between widths")
            if fty.kind != "vec" and tty.kind != "vec":
                return v
            return bits_to(elems_bits(v, fty, T), tty, T)
        if op == "addrspacecast":
            if not isinstance(v, Ptr):
                raise Unsupported("an addrspacecast of a non-pointer")
            if v.base == "smem" and tty.space in (0, 3):
                return Ptr(tty.space, "smem", v.off)
            raise Unsupported(f"addrspacecast to {tty}")
        if op == "ptrtoint":
            if isinstance(v, Ptr) and v.base == "smem" and v.space == 3:
                return v.off.astype(np.uint64) & mask_of(tty.bits)
            raise Unsupported("ptrtoint of a non-shared pointer")
        if op == "inttoptr":
            if tty.space == 3:
                return Ptr(3, "smem", concrete(v, "an inttoptr operand").astype(np.int64))
            raise Unsupported("inttoptr to a non-shared pointer")
        if fty.kind != "int" or tty.kind != "int":
            raise Unsupported(f"{op} from {fty} to {tty}")
        fw, tw = fty.bits, tty.bits
        if isinstance(v, np.ndarray):
            if op == "zext":
                if "nneg" in flags and (v >> np.uint64(fw - 1)).any():
                    return POISON  # zext nneg of a negative value
                return v
            if op == "trunc":
                r = v & mask_of(tw)
                if "nuw" in flags and (r != v).any():
                    return POISON  # trunc nuw drops ones
                if "nsw" in flags and (signed(r, tw) != signed(v, fw)).any():
                    return POISON  # trunc nsw changes the value
                return r
            if op == "sext":
                return signed(v, fw).astype(np.uint64) & mask_of(tw)
        if v is POISON:
            return POISON
        b = to_bits(v, fw, T)
        if "nneg" in flags and (b[:, fw - 1] != 0).any():
            return POISON  # zext nneg of loaded data that may be negative
        if "nuw" in flags and (b[:, tw:] != 0).any():
            return POISON  # trunc nuw of loaded data that may drop ones
        if "nsw" in flags and (b[:, tw - 1:] != b[:, tw - 1:tw]).any():
            return POISON  # trunc nsw of loaded data that may change the value
        if op == "zext":
            return from_bits(np.concatenate([b, np.zeros((T, tw - fw), dtype=np.int64)], axis=1))
        if op == "sext":
            return from_bits(np.concatenate([b] + [b[:, fw - 1:fw]] * (tw - fw), axis=1))
        if op == "trunc":
            return from_bits(b[:, :tw])
        raise Unsupported(op)

    # ---- addresses
    def gep(self, src_ty, base, idx, flags):
        if not isinstance(base, Ptr):
            raise Unsupported("getelementptr on a non-pointer")
        off = base.off.copy()
        ty = src_ty
        for k, (ity, iv) in enumerate(idx):
            if ity.kind == "vec":
                raise Unsupported("a vector getelementptr")
            i = signed(concrete(self.val(iv, ity), "a getelementptr index"), ity.bits)
            if k == 0:
                off = off + i * ty.size()
            elif ty.kind in ("array", "vec"):
                ty = ty.elem
                off = off + i * ty.size()
            elif ty.kind == "struct":
                j = self.uniform(self.val(iv, ity), "a struct index")
                for f in ty.fields[:j]:
                    off = off + f.size()
                ty = ty.fields[j]
            else:
                raise Unsupported(f"getelementptr into {ty}")
        return Ptr(base.space, base.base, off)

    # ---- memory
    def ensure_smem(self, top):
        if top * 8 > self.smem.size:
            grown = np.full(max(top * 8, self.smem.size * 2), -1, dtype=np.int64)
            grown[:self.smem.size] = self.smem
            self.smem = grown

    def shared_addr(self, p, nbytes, align, what):
        if not (isinstance(p, Ptr) and p.base == "smem"):
            raise Unsupported(f"{what} through a pointer not into @global_smem")
        addr = p.off
        if (addr < 0).any():
            raise Unsupported(f"{what} below @global_smem")
        if (addr % max(1, align)).any():  # the IR's promise (the backend splits what it must)
            raise Unsupported(f"a misaligned {what}")
        return addr

    def smem_write(self, threads, addr, bits):
        """threads [n], addr [n] byte addresses, bits [n, 8k]."""
        nb = bits.shape[1] // 8
        self.ensure_smem(int(addr.max()) + nb)
        idx = (addr[:, None] * 8 + np.arange(nb * 8)[None, :])
        # Several threads writing one byte must write the same bits (else the order decides).
        flat, vals = idx.ravel(), bits.ravel()
        order = np.argsort(flat, kind="stable")
        f, v = flat[order], vals[order]
        same = f[1:] == f[:-1]
        if (v[1:][same] != v[:-1][same]).any():
            raise Unsupported("threads write different data to one shared byte in one instruction")
        self.smem[flat] = vals
        return byte_sources(bits)

    def smem_read(self, addr, nbytes):
        self.ensure_smem(int(addr.max()) + nbytes)
        idx = addr[:, None] * 8 + np.arange(nbytes * 8)[None, :]
        return self.smem[idx]

    def record(self, kind, addr, nbytes, moved, active=None, x=0, detail=None):
        self.events.append(Event(kind, self.inst.line, self.inst.idx, addr, nbytes, x, active, moved, detail))

    def load(self, ty, pty, pv, align):
        p = self.val(pv, pty)
        T = self.T
        nbytes = ty.size() if ty.kind != "vec" else ty.width() // 8
        if isinstance(p, Ptr) and p.base == "smem":
            addr = self.shared_addr(p, nbytes, align, "shared load")
            bits = self.smem_read(addr, nbytes)
            self.record("ld.shared", addr.copy(), nbytes,
                        [(np.arange(T), addr[:, None] + np.arange(nbytes), byte_sources(bits))])
            return bits_to(bits, ty, T)
        if isinstance(p, Ptr) and p.base == "arg0":
            bits = self.global_bits(p.off, nbytes)
            self.record("ld.global", p.off.copy(), nbytes, None)
            return bits_to(bits, ty, T)
        raise Unsupported("a load from neither shared memory nor argument 0")

    def global_bits(self, off, nbytes):
        if (off % nbytes if nbytes in (1, 2, 4, 8, 16) else off % 1).any():
            raise Unsupported("a misaligned global load")
        if (off < 0).any():
            raise Unsupported("a global load before argument 0")
        return 2 + (off[:, None] * 8 + np.arange(nbytes * 8)[None, :])

    def store(self, ty, vv, pty, pv, align):
        p = self.val(pv, pty)
        v = self.val(vv, ty)
        T = self.T
        bits = elems_bits(v, ty, T)
        nbytes = bits.shape[1] // 8
        if isinstance(p, Ptr) and p.base == "smem":
            addr = self.shared_addr(p, nbytes, align, "shared store")
            src = self.smem_write(np.arange(T), addr, bits)
            self.record("st.shared", addr.copy(), nbytes, [(np.arange(T), addr[:, None] + np.arange(nbytes), src)])
            return
        if isinstance(p, Ptr) and p.base == "arg1":
            self.global_write(p.off, bits, np.ones(T, dtype=bool))
            self.record("st.global", p.off.copy(), nbytes, None)
            return
        raise Unsupported("a store to neither shared memory nor argument 1")

    def global_write(self, off, bits, active):
        """Argument 1's bytes, as bit ids (-3: never written); a later write wins."""
        nb = bits.shape[1] // 8
        t = np.nonzero(active)[0]
        if t.size == 0:
            return
        if (off[t] < 0).any():
            raise Unsupported("a global store before argument 1")
        top = int(off[t].max()) + nb
        if top * 8 > self.gout.size:
            grown = np.full(max(top * 8, self.gout.size * 2), -3, dtype=np.int64)
            grown[:self.gout.size] = self.gout
            self.gout = grown
        self.gout[(off[t, None] * 8 + np.arange(nb * 8)[None, :]).ravel()] = bits[t].ravel()

    # ---- calls
    def call(self, rty, callee, args):
        T = self.T
        if isinstance(callee, tuple):
            return self.inline_asm(rty, callee[1], callee[2], args)
        name = callee
        vals = [self.val(v, t) for t, v in args]
        m = re.fullmatch(r"@llvm\.nvvm\.read\.ptx\.sreg\.(\w+)\.?([xyz]?)", name)
        if m:
            reg, axis = m.groups()
            if reg == "tid":
                return self.tid.copy() if axis == "x" else np.zeros(T, dtype=np.uint64)
            if reg == "ntid":
                return np.full(T, T if axis == "x" else 1, dtype=np.uint64)
            if reg in ("ctaid", "clusterid", "cluster_ctaid", "cluster_ctarank"):
                return np.zeros(T, dtype=np.uint64)
            if reg in ("nctaid", "nclusterid", "cluster_nctaid", "cluster_nctarank"):
                return np.ones(T, dtype=np.uint64)
            if reg == "laneid":
                return self.tid % np.uint64(32)
            raise Unsupported(f"special register {reg}")
        if name in ("@llvm.nvvm.barrier0", "@llvm.nvvm.barrier.cta.sync.aligned.all", "@llvm.nvvm.barrier.sync",
                    "@llvm.nvvm.barrier.cta.sync.all", "@llvm.nvvm.barrier.cta.sync.aligned"):
            if name.endswith("aligned") or name.endswith(".sync"):
                if len(vals) > 1:
                    raise Unsupported("a barrier with a thread count")
            self.record("barrier", None, 0, None)
            return None
        if name == "@llvm.nvvm.bar.warp.sync":
            mask = self.uniform(vals[0], "a warp barrier mask")
            if mask & 0xFFFFFFFF != 0xFFFFFFFF:
                raise Unsupported("bar.warp.sync with a partial mask")
            self.record("warp_barrier", None, 0, None)
            return None
        if name == "@llvm.assume":
            if not concrete(vals[0], "an assumption").all():
                raise Unsupported("an assumption that does not hold")
            return None
        m = re.fullmatch(r"@llvm\.(umin|umax|smin|smax|bitreverse|bswap|ctpop|ctlz|cttz|abs|fshl|fshr)"
                         r"\.(v(\d+))?i(\d+)", name)
        if m:
            f, w = m.group(1), int(m.group(4))
            if m.group(2):  # lane by lane
                return Vec(self.int_intrinsic(f, w, [v.elems[k] if isinstance(v, Vec) else v for v in vals])
                           for k in range(int(m.group(3))))
            return self.int_intrinsic(f, w, vals)
        m = re.fullmatch(r"@llvm\.vector\.reduce\.(or|and|xor|add|umin|umax)\.v(\d+)i(\d+)", name)
        if m:
            f, w = m.group(1), int(m.group(3))
            elems = [concrete(e, f"a {f} reduction") for e in vals[0].elems]
            acc = elems[0]
            for e in elems[1:]:
                if f in ("umin", "umax"):
                    acc = np.where((e < acc) == (f == "umin"), e, acc)
                else:
                    acc = self.int_op(f, set(), w, acc, e)
            return acc
        if name == "@llvm.nvvm.prmt":
            return self.prmt(vals)
        m = re.fullmatch(r"@llvm\.nvvm\.shfl\.sync\.(idx|bfly|up|down)\.(i32|f32)(p?)", name)
        if m:
            return self.shuffle(m.group(1), vals, bool(m.group(3)))
        m = re.fullmatch(r"@llvm\.nvvm\.(ld|st)matrix\.sync\.aligned\.m8n8\.x([124])(\.trans)?\.b16\.p3", name)
        if m:
            ld, x, trans = m.group(1) == "ld", int(m.group(2)), bool(m.group(3))
            if ld:
                return Agg(self.ldmatrix(vals[0], x, trans)) if x > 1 else self.ldmatrix(vals[0], x, trans)[0]
            self.stmatrix(vals[0], vals[1:], x, trans)
            return None
        raise Unsupported(f"call to {name}")

    def int_intrinsic(self, f, w, vals):
        """A known-integer LLVM intrinsic of width w (poison in, poison out)."""
        if any(v is POISON for v in vals):
            return POISON
        xs = [concrete(v, f"an operand of llvm.{f}") for v in vals]
        x = xs[0]
        if f in ("umin", "umax", "smin", "smax"):
            y = xs[1]
            if f[0] == "s":
                sx, sy = signed(x, w), signed(y, w)
                pick = sx < sy if f == "smin" else sx > sy
            else:
                pick = x < y if f == "umin" else x > y
            return np.where(pick, x, y)
        bits = to_bits(x, w, self.T)
        if f == "bitreverse":
            return from_bits(bits[:, ::-1].copy())
        if f == "bswap":
            if w % 16:
                raise Unsupported(f"bswap of i{w}")
            return from_bits(bits.reshape(self.T, w // 8, 8)[:, ::-1, :].reshape(self.T, w).copy())
        if f == "ctpop":
            return bits.sum(axis=1).astype(np.uint64)
        if f in ("ctlz", "cttz"):
            if len(xs) > 1 and xs[1].any() and not x.all():
                raise Unsupported(f"{f} of zero with is_zero_poison")
            order = bits[:, ::-1] if f == "ctlz" else bits
            first = np.where(order.any(axis=1), order.argmax(axis=1), w)
            return first.astype(np.uint64)
        if f == "abs":
            s = signed(x, w)
            if len(xs) > 1 and xs[1].any() and (s == -(1 << (w - 1))).any():
                raise Unsupported("abs of INT_MIN with is_int_min_poison")
            return np.abs(s).astype(np.uint64) & mask_of(w)
        if f in ("fshl", "fshr"):
            y, sh = xs[1], xs[2] % np.uint64(w)
            hi, lo = to_bits(x, w, self.T), to_bits(y, w, self.T)
            both = np.concatenate([lo, hi], axis=1)  # the concatenation x:y, y in the low bits
            start = (w - sh).astype(np.int64) if f == "fshl" else sh.astype(np.int64)
            idx = start[:, None] + np.arange(w)[None, :]
            return from_bits(np.take_along_axis(both, idx, 1))
        raise Unsupported(f"llvm.{f}")

    def prmt(self, vals):
        """PTX prmt.b32 (default mode): byte i of the result is byte c[4i+2:4i] of b:a (a in
        bytes 0-3), or that byte's sign bit in all 8 bits where c[4i+3] is set."""
        T = self.T
        if any(v is POISON for v in vals):
            return POISON
        src = np.concatenate([to_bits(vals[0], 32, T), to_bits(vals[1], 32, T)], axis=1).reshape(T, 8, 8)
        c = concrete(vals[2], "a prmt selector")
        out = []
        for i in range(4):
            sel = ((c >> np.uint64(4 * i)) & np.uint64(15)).astype(np.int64)
            byte = src[np.arange(T), sel & 7]  # [T, 8]
            sign = np.repeat(byte[:, 7:8], 8, axis=1)
            out.append(np.where((sel & 8)[:, None] != 0, sign, byte))
        return from_bits(np.concatenate(out, axis=1))

    def shuffle(self, mode, vals, with_pred):
        T = self.T
        membermask = self.uniform(vals[0], "a shuffle member mask")
        if membermask & 0xFFFFFFFF != 0xFFFFFFFF:
            raise Unsupported("shfl.sync with a partial member mask")
        v = vals[1]
        b = concrete(vals[2], "a shuffle lane").astype(np.int64) & 31
        c = concrete(vals[3], "a shuffle clamp").astype(np.int64)
        lane = (self.tid % np.uint64(32)).astype(np.int64)
        cval, seg = c & 31, (c >> 8) & 31
        max_lane = (lane & seg) | (cval & ~seg)
        min_lane = lane & seg
        if mode == "up":
            j = lane - b
            ok = j >= max_lane
        elif mode == "down":
            j = lane + b
            ok = j <= max_lane
        elif mode == "bfly":
            j = lane ^ b
            ok = j <= max_lane
        else:
            j = min_lane | (b & ~seg)
            ok = j <= max_lane
        j = np.where(ok, j, lane)
        src = (self.tid.astype(np.int64) // 32) * 32 + j
        if isinstance(v, np.ndarray):
            out = v[src]
        elif isinstance(v, Sym):
            out = Sym(v.bits[src])
        else:
            raise Unsupported("a shuffle of a non-integer")
        self.record("shfl", None, 0, None, detail=mode)
        return Agg([out, ok.astype(np.uint64)]) if with_pred else out

    def matrix_rows(self, p, x):
        """The 8x rows' 16-byte addresses: row r of matrix i from lane 8i + r of each warp."""
        if not (isinstance(p, Ptr) and p.base == "smem"):
            raise Unsupported("ldmatrix/stmatrix through a pointer not into @global_smem")
        addr = p.off
        if (addr % 16).any():
            raise Unsupported("a matrix row address not 16-byte aligned")
        return addr

    def matrix_layout(self, x, trans):
        """For every (thread, register, half): the source lane of the row address and the byte
        offset within that row. Thread t, register i, half h of m8n8.b16 (HARDWARE.md#matrix-ownership):
        not transposed: matrix i, row t/4, column 2(t%4)+h; transposed: row 2(t%4)+h, column t/4."""
        T = self.T
        t = np.arange(T)
        lane, warp = t % 32, t // 32
        rows, cols = [], []
        for i in range(x):
            for h in range(2):
                if trans:
                    r, col = 2 * (lane % 4) + h, lane // 4
                else:
                    r, col = lane // 4, 2 * (lane % 4) + h
                rows.append(warp * 32 + 8 * i + r)
                cols.append(2 * col)
        return np.stack(rows, 1), np.stack(cols, 1)  # [T, 2x]: the thread giving the row, byte in row

    def ldmatrix(self, p, x, trans):
        T = self.T
        addr = self.matrix_rows(p, x)
        src_thread, byte_in_row = self.matrix_layout(x, trans)
        where = addr[src_thread] + byte_in_row  # [T, 2x] byte address of each half
        self.ensure_smem(int(where.max()) + 2)
        bits = self.smem[where[:, :, None] * 8 + np.arange(16)[None, None, :]]  # [T, 2x, 16]
        kind = "ldmatrix.trans" if trans else "ldmatrix"
        moved_addr = (where[:, :, None] + np.arange(2)).reshape(T, -1)
        self.record(kind, addr.copy(), 4 * x, [(np.arange(T), moved_addr, byte_sources(bits.reshape(T, -1)))], x=x)
        return [from_bits(bits[:, 2 * i:2 * i + 2, :].reshape(T, 32)) for i in range(x)]

    def stmatrix(self, p, regs, x, trans):
        T = self.T
        if len(regs) != x:
            raise Unsupported("stmatrix with a wrong register count")
        addr = self.matrix_rows(p, x)
        src_thread, byte_in_row = self.matrix_layout(x, trans)
        where = addr[src_thread] + byte_in_row  # [T, 2x]
        bits = np.stack([to_bits(r, 32, T) for r in regs], 1).reshape(T, 2 * x, 16)
        moved_addr = (where[:, :, None] + np.arange(2)).reshape(T, -1)
        flat_bits = bits.reshape(T * 2 * x, 16)
        src = self.smem_write(np.repeat(np.arange(T), 2 * x), where.reshape(-1), flat_bits)
        kind = "stmatrix.trans" if trans else "stmatrix"
        self.record(kind, addr.copy(), 4 * x, [(np.arange(T), moved_addr, src.reshape(T, -1))], x=x)

    # ---- inline PTX
    def inline_asm(self, rty, code, cons, args):
        T = self.T
        cons_list = [c for c in cons.split(",") if c and not c.startswith("~")]
        outs = [c for c in cons_list if c.startswith("=")]
        ins = [c for c in cons_list if not c.startswith("=")]
        if len(ins) != len(args):
            raise Unsupported("inline asm operand count")
        if any("*" in c or c.startswith("=&") for c in cons_list):
            raise Unsupported("inline asm with memory or early-clobber operands")
        if len(outs) == 0:
            out_tys = []
        elif len(outs) == 1:
            out_tys = [rty]
        else:
            if rty.kind != "struct" or len(rty.fields) != len(outs):
                raise Unsupported("inline asm results")
            out_tys = list(rty.fields)
        ops = [None] * len(outs) + [self.val(v, t) for t, v in args]
        tys = out_tys + [t for t, _ in args]
        for stmt in [s.strip() for s in code.split(";")]:
            if stmt:
                self.ptx_statement(stmt, ops, tys, len(outs))
        res = ops[:len(outs)]
        if any(r is None for r in res):
            raise Unsupported("inline asm leaves an output unset")
        if len(res) == 0:
            return None
        return res[0] if len(res) == 1 else Agg(res)

    def ptx_statement(self, stmt, ops, tys, nout):
        T = self.T
        active = np.ones(T, dtype=bool)
        m = re.match(r"@(!?)\$(\d+)\s+(.*)$", stmt, re.S)
        if m:
            pv = concrete(ops[int(m.group(2))], "an asm predicate").astype(bool)
            active = ~pv if m.group(1) else pv
            stmt = m.group(3)
        parts = stmt.split(None, 1)
        opcode, rest = parts[0], parts[1] if len(parts) > 1 else ""
        operand = lambda s: int(re.fullmatch(r"\s*\$(\d+)\s*", s).group(1))

        def regs(s):
            s = s.strip()
            if s.startswith("{"):
                s = s.strip("{} ")
            return [operand(r) for r in s.split(",")]

        def address(s):
            m = re.fullmatch(r"\s*\[\s*\$(\d+)\s*(?:\+\s*(-?\d+)\s*)?\]\s*", s)
            if not m:
                raise Unsupported(f"asm address {s!r}")
            return int(m.group(1)), int(m.group(2) or 0)

        m = re.fullmatch(r"mov\.[ubs](16|32|64)", opcode)
        if m:
            dst, val = [x.strip() for x in rest.split(",")]
            k = operand(dst)
            if k >= nout or not active.all():
                raise Unsupported(f"asm {stmt!r}")
            w = tys[k].width()
            if w != int(m.group(1)) and not (w == 8 and m.group(1) == "16"):
                raise Unsupported(f"asm {stmt!r}: register width")
            ops[k] = np.full(T, int(val, 0) & ((1 << w) - 1), dtype=np.uint64)
            return
        m = re.fullmatch(r"(ld|st)((?:\.\w+)*)", opcode)
        if m:
            mods = m.group(2).split(".")[1:]
            space = next((s for s in ("global", "shared") if s in mods), None)
            if space is None or "shared::cluster" in opcode:
                raise Unsupported(f"asm {opcode}")
            vecn = next((int(s[1:]) for s in mods if re.fullmatch(r"v[248]", s)), 1)
            width = next((int(s[1:]) for s in mods if re.fullmatch(r"[bus](8|16|32|64|128)", s)), None)
            known = {"global", "shared", "b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64", "s8", "s16", "s32",
                     "s64", "v2", "v4", "v8", "ca", "cg", "cs", "lu", "cv", "nc", "wb", "wt", "L1::evict_last",
                     "L1::evict_first", "L1::no_allocate", "L2::64B", "L2::128B", "L2::256B", "cta", "relaxed", "weak"}
            if width is None or any(md not in known and not md.startswith("L1::") and not md.startswith("L2::") for md in mods):
                raise Unsupported(f"asm {opcode}")
            if m.group(1) == "ld":
                dst, src = rest.split("}", 1) if "{" in rest else rest.split(",", 1)
                dregs = regs(dst + ("}" if "{" in rest else ""))
                k, off = address(src.lstrip(" ,"))
                if len(dregs) != vecn or any(d >= nout for d in dregs):
                    raise Unsupported(f"asm {stmt!r}")
                for d in dregs:
                    if tys[d].width() != width:
                        raise Unsupported(f"asm {stmt!r}: register width")
                p = ops[k]
                nbytes = width // 8 * vecn
                if space == "global":
                    if not (isinstance(p, Ptr) and p.base == "arg0"):
                        raise Unsupported("an asm global load not from argument 0")
                    bits = self.global_bits(p.off + off, nbytes)
                    self.record("ld.global", p.off + off, nbytes, None, active=active)
                else:
                    addr = self.shared_addr(Ptr(3, p.base, p.off + off) if isinstance(p, Ptr) else None,
                                            nbytes, nbytes, "asm shared load")
                    if not active.all():
                        raise Unsupported("a predicated shared load")
                    bits = self.smem_read(addr, nbytes)
                    self.record("ld.shared", addr.copy(), nbytes,
                                [(np.arange(T), addr[:, None] + np.arange(nbytes), byte_sources(bits))])
                for j, d in enumerate(dregs):
                    new = bits[:, j * width:(j + 1) * width]
                    old = ops[d]
                    if not active.all():
                        if old is None:
                            raise Unsupported("a predicated asm load into an unset register")
                        new = np.where(active[:, None], new, to_bits(old, width, T))
                    ops[d] = from_bits(new)
                return
            addr_s, src = rest.split("]", 1)
            k, off = address(addr_s + "]")
            sregs = regs(src.lstrip(" ,"))
            if len(sregs) != vecn:
                raise Unsupported(f"asm {stmt!r}")
            bits = np.concatenate([to_bits(ops[s], width, T) if tys[s].width() == width else
                                   self.reg_width_error(stmt) for s in sregs], axis=1)
            p = ops[k]
            nbytes = width // 8 * vecn
            if space == "global":
                if not (isinstance(p, Ptr) and p.base == "arg1"):
                    raise Unsupported("an asm global store not to argument 1")
                if ((p.off + off) % nbytes).any():
                    raise Unsupported("a misaligned global store")
                self.global_write(p.off + off, bits, active)
                self.record("st.global", p.off + off, nbytes, None, active=active)
            else:
                if not active.all():
                    raise Unsupported("a predicated shared store")
                addr = self.shared_addr(Ptr(3, p.base, p.off + off) if isinstance(p, Ptr) else None,
                                        nbytes, nbytes, "asm shared store")
                src = self.smem_write(np.arange(T), addr, bits)
                self.record("st.shared", addr.copy(), nbytes, [(np.arange(T), addr[:, None] + np.arange(nbytes), src)])
            return
        m = re.fullmatch(r"(ld|st)matrix\.sync\.aligned\.m8n8\.x([124])(\.trans)?\.shared(::cta)?\.b16", opcode)
        if m:
            if not active.all():
                raise Unsupported("a predicated matrix instruction")
            x, trans = int(m.group(2)), bool(m.group(3))
            if m.group(1) == "ld":
                dst, src = rest.split("}", 1)
                dregs = regs(dst + "}")
                k, off = address(src.lstrip(" ,"))
                p = ops[k]
                got = self.ldmatrix(Ptr(3, p.base, p.off + off), x, trans)
                for d, v in zip(dregs, got):
                    ops[d] = v
            else:
                addr_s, src = rest.split("]", 1)
                k, off = address(addr_s + "]")
                p = ops[k]
                self.stmatrix(Ptr(3, p.base, p.off + off), [ops[s] for s in regs(src.lstrip(" ,"))], x, trans)
            return
        raise Unsupported(f"asm statement {stmt!r}")

    def reg_width_error(self, stmt):
        raise Unsupported(f"asm {stmt!r}: register width")


def run(llir, threads, max_steps=2_000_000):
    """Interprets the kernel for threads threads; returns a Run (raises Unsupported)."""
    insts, labels, args = parse_module(llir)
    return Machine(insts, labels, args, threads, max_steps).run()


# ------------------------------------------------------------------ self-test
SELF_TEST_HEADER = """@global_smem = external addrspace(3) global [0 x i8], align 16
define ptx_kernel void @k(ptr addrspace(1) %0, ptr addrspace(1) %1) {
  %3 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
"""
SELF_TESTS = [
    # (name, body, None if it must run, else a fragment of the Unsupported message)
    ("a loop with phis storing each thread's word", """
  %s = shl i32 %3, 2
  br label %4
4:
  %i = phi i32 [ 0, %2 ], [ %n, %4 ]
  %o = mul i32 %i, 128
  %a = add i32 %o, %s
  %p = getelementptr inbounds i8, ptr addrspace(3) @global_smem, i32 %a
  store i32 %i, ptr addrspace(3) %p, align 4
  %n = add nuw nsw i32 %i, 1
  %c = icmp ult i32 %n, 3
  br i1 %c, label %4, label %5
5:
  ret void
""", None),
    ("float arithmetic", """
  %f = fadd float 1.0, 2.0
  ret void
""", "fadd"),
    ("an address that depends on loaded data", """
  %v = load i32, ptr addrspace(1) %0, align 4
  %p = getelementptr i8, ptr addrspace(3) @global_smem, i32 %v
  store i32 0, ptr addrspace(3) %p, align 4
  ret void
""", "depends on loaded data"),
    ("a branch that differs between threads", """
  %c = icmp ult i32 %3, 16
  br i1 %c, label %4, label %5
4:
  ret void
5:
  ret void
""", "differs between threads"),
    ("an unknown intrinsic", """
  %x = tail call i32 @llvm.nvvm.read.ptx.sreg.clock()
  ret void
""", "special register clock"),
    ("a shift out of range, used as an address", """
  %x = shl i32 %3, 40
  %p = getelementptr i8, ptr addrspace(3) @global_smem, i32 %x
  store i32 0, ptr addrspace(3) %p, align 4
  ret void
""", "poison"),
    ("a misaligned shared store", """
  %p = getelementptr i8, ptr addrspace(3) @global_smem, i32 %3
  store i32 0, ptr addrspace(3) %p, align 4
  ret void
""", "misaligned"),
    ("an unknown inline-asm statement", """
  %x = tail call i32 asm sideeffect "popc.b32 $0, $1;", "=r,r"(i32 %3)
  ret void
""", "asm statement"),
]


def self_test():
    """The interpreter's own checks on small hand-written kernels: a list of failures."""
    failures = []
    for name, body, want in SELF_TESTS:
        text = SELF_TEST_HEADER + body.lstrip("\n") + "}\n"
        try:
            r = run(text, 64)
        except Unsupported as e:
            if want is None or want not in str(e):
                failures.append(f"{name}: raised {str(e).splitlines()[0]!r}")
            continue
        if want is not None:
            failures.append(f"{name}: ran, but should raise ({want})")
            continue
        # the loop: thread t stores i at 128 i + 4 t, for i = 0, 1, 2
        st = [e for e in r.events if e.kind == "st.shared"]
        ok = len(st) == 3 and all((e.addr == 128 * i + 4 * np.arange(64)).all() for i, e in enumerate(st))
        if not ok:
            failures.append(f"{name}: stores {[list(e.addr[:4]) for e in st]}")
    return failures
