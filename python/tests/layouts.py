"""Random layouts for the tests, as (bases, out_dim_names, out_dim_sizes):
the arguments of from_bases, which both Triton's binding and f2lay take.
Values stay in Triton's int32 range (out dims up to 2^30)."""
import random

IN_NAMES = ["register", "lane", "warp", "block", "offset", "x.0", "_k"]
OUT_NAMES = ["dim0", "dim1", "dim2", "y"]


def split(rng, total, parts):
    """total bits over parts dims, some of them 0."""
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0] + cuts, cuts + [total])]


def columns_to_bases(columns, in_bits, out_bits):
    """Flat columns (the first out dim in the low bits) as bases per in dim."""
    bases, k = [], 0
    for bits in in_bits:
        dim = []
        for _ in range(bits):
            c, shift, basis = columns[k], 0, []
            for ob in out_bits:
                basis.append(c >> shift & ((1 << ob) - 1))
                shift += ob
            dim.append(basis)
            k += 1
        bases.append(dim)
    return bases


def invertible_columns(rng, n):
    """The columns of a random invertible n x n matrix over F2."""
    cols = [1 << i for i in range(n)]
    rng.shuffle(cols)
    for _ in range(2 * n):
        if n >= 2:
            i, j = rng.sample(range(n), 2)
            cols[i] ^= cols[j]
    return cols


def layout(rng, in_bits, out_bits, kind="any", in_names=None, out_names=None):
    """A layout with the given bits per in dim and out dim. kind: "any"
    (random columns, some zero or repeated), "invertible" (needs equal
    totals), "surjective" (full rank: invertible columns for the output bits,
    the rest random), or "injective"."""
    in_names = in_names or rng.sample(IN_NAMES, len(in_bits))
    out_names = out_names or rng.sample(OUT_NAMES, len(out_bits))
    n_in, n_out = sum(in_bits), sum(out_bits)
    rand = lambda: rng.getrandbits(n_out) if n_out else 0
    if kind == "invertible":
        assert n_in == n_out
        cols = invertible_columns(rng, n_in)
    elif kind == "surjective":
        assert n_in >= n_out
        cols = invertible_columns(rng, n_out) + [rand() for _ in range(n_in - n_out)]
        rng.shuffle(cols)
    elif kind == "injective":
        assert n_in <= n_out
        cols = invertible_columns(rng, n_out)[:n_in]
    else:
        cols = [rng.choice([0, rand(), rand(), rand()]) for _ in range(n_in)]
        if n_in >= 2 and rng.random() < 0.3:
            cols[rng.randrange(n_in)] = cols[rng.randrange(n_in)]  # a repeated basis
    bases = columns_to_bases(cols, in_bits, out_bits)
    return list(zip(in_names, bases)), out_names, [1 << b for b in out_bits]

