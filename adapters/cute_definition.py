"""CuTe's definition, evaluated on its own (include/cute/swizzle.hpp and
layout.hpp), the truth that cute_check.py and tensor_layouts_check.py judge
disagreements by. A case is c = (b, m, s, shape, stride): Swizzle<B,M,S> o
shape:stride, shape and stride one int per mode."""
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


def coord(shape, x):
    """The coordinate of the 1-D index x: colexicographic, mode 0 fastest."""
    out = []
    for n in shape:
        out.append(x % n)
        x //= n
    return tuple(out)


def at(c, x):
    """The offset at the 1-D index x: the swizzle of sum coord_i * stride_i."""
    b, m, s, shape, stride = c
    return swizzle(b, m, s, sum(ci * d for ci, d in zip(coord(shape, x), stride)))


def values(c):
    """The offsets at every 1-D index; ValueError where CuTe refuses c."""
    if not valid(*c[:3]):
        raise ValueError("CuTe's static_assert: BBits >= 0, MBase >= 0, abs(SShift) >= BBits")
    return [at(c, x) for x in range(math.prod(c[3]))]


def nonlinear_pair(v):
    """None when the values v (at every 1-D index) are linear over F2, else
    the smallest witness (x, y), by y then x, with v(x xor y) != v(x) xor v(y)."""
    if v[0] != 0:
        return 0, 0
    # Linear iff each value is its lowest bit's xor the rest's (induction).
    if all(v[x] == v[x & -x] ^ v[x & (x - 1)] for x in range(1, len(v))):
        return None
    return next((x, y) for y in range(1, len(v)) for x in range(1, y) if v[x ^ y] != v[x] ^ v[y])


def text(c):
    b, m, s, shape, stride = c
    return f"Sw<{b},{m},{s}> o ({','.join(map(str, shape))}):({','.join(map(str, stride))})"
