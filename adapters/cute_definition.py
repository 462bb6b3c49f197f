"""CuTe's definition, evaluated on its own (include/cute/swizzle.hpp and
layout.hpp), the truth that cute_check.py and tensor_layouts_check.py judge
disagreements by. A case is c = (b, m, s, shape, stride): Swizzle<B,M,S> o
shape:stride, shape and stride one item per top-level mode, each an int or a
tuple of them, nested (CuTe's hierarchical layouts)."""
import math


def valid(b, m, s):
    """CuTe's static_assert: BBits >= 0, MBase >= 0, |SShift| >= BBits (so
    YYY and ZZZ do not overlap)."""
    return b >= 0 and m >= 0 and abs(s) >= b


def swizzle(b, m, s, o):
    """Swizzle<B,M,S>(o) = o xor ((o & YYY) >> S), YYY = (2^B - 1) << (M +
    max(S, 0)); a negative S shifts left."""
    y = o & (((1 << b) - 1) << (m + max(s, 0)))
    return o ^ (y >> s if s >= 0 else y << -s)


def size(t):
    """CuTe's size: the product of an IntTuple's leaves."""
    return math.prod(size(i) for i in t) if isinstance(t, tuple) else t


def sizes(shape):
    """The top-level modes' sizes."""
    return tuple(size(n) for n in shape)


def coord(shape, x):
    """The top-level coordinate of the 1-D index x: colexicographic, mode 0
    fastest; a nested mode's coordinate is its own 1-D index."""
    out = []
    for n in sizes(shape):
        out.append(x % n)
        x //= n
    return tuple(out)


def index(shape, stride, x):
    """CuTe's crd2idx of the 1-D coordinate x: a tuple splits it
    colexicographically over its modes (the last takes the rest), a leaf
    multiplies by its stride."""
    if not isinstance(shape, tuple):
        return x * stride
    total = 0
    for i, (n, d) in enumerate(zip(shape, stride)):
        total += index(n, d, x if i == len(shape) - 1 else x % size(n))
        x //= size(n)
    return total


def at(c, x):
    """The offset at the 1-D index x: the swizzle of the index."""
    b, m, s, shape, stride = c
    return swizzle(b, m, s, index(tuple(shape), tuple(stride), x))


def values(c):
    """The offsets at every 1-D index; ValueError where CuTe refuses c."""
    if not valid(*c[:3]):
        raise ValueError("CuTe's static_assert: BBits >= 0, MBase >= 0, abs(SShift) >= BBits")
    return [at(c, x) for x in range(size(tuple(c[3])))]


def nonlinear_pair(v):
    """None when the values v (at every 1-D index) are linear over F2, else
    the smallest witness (x, y), by y then x, with v(x xor y) != v(x) xor v(y)."""
    if v[0] != 0:
        return 0, 0
    # Linear iff each value is its lowest bit's xor the rest's (induction).
    if all(v[x] == v[x & -x] ^ v[x & (x - 1)] for x in range(1, len(v))):
        return None
    return next((x, y) for y in range(1, len(v)) for x in range(1, y) if v[x ^ y] != v[x] ^ v[y])


def tuple_text(t):
    """CuTe's C++ printer: (a,(b,c))."""
    return f"({','.join(map(tuple_text, t))})" if isinstance(t, tuple) else str(t)


def text(c):
    b, m, s, shape, stride = c
    return f"Sw<{b},{m},{s}> o {tuple_text(tuple(shape))}:{tuple_text(tuple(stride))}"
