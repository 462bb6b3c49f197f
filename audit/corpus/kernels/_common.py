"""What the corpus's kernel files share: targets, the config record, and numpy codecs.

Not a kernel file (compile.py skips names starting with "_"). Nothing here is @triton.jit,
so no TTGIR location ever points into this file.

A kernel file defines its @triton.jit function(s), `KERNEL` (the function compiled unless a
config names another in "function"), and a list `CONFIGS` built with `config()`, plus:

  make_inputs(cfg, rng) -> list   the runtime arguments in signature order, constexprs left
                                  out (they are compiled in); pointers are numpy arrays
                                  (outputs preallocated), scalars numpy scalars
  grid(cfg) -> tuple              the launch grid (a few programs at most)
  reference(cfg, inputs) -> dict  output argument name -> expected numpy array. With a
                                  cfg["tolerance"], expected values (float64): compare
                                  as_float(output, its type) within atol/rtol. Without one,
                                  the expected storage itself: compare exactly, bit patterns
                                  included (integers, and kernels that only move data)

numpy has no bf16 or fp8 types, so bf16 tensors are uint16 bit patterns and fp8 / e8m0 /
packed e2m1 tensors are uint8 bit patterns; `decode` turns any of them into float64.
"""

import numpy as np

# Targets, as the fields of triton.backends.compiler.GPUTarget.
SM80 = {"backend": "cuda", "arch": 80, "warp_size": 32}    # Ampere: mma.sync (nvidia_mma v2)
SM89 = {"backend": "cuda", "arch": 89, "warp_size": 32}    # Ada: mma.sync with native fp8
SM90 = {"backend": "cuda", "arch": 90, "warp_size": 32}    # Hopper: wgmma (nvidia_mma v3)
SM100 = {"backend": "cuda", "arch": 100, "warp_size": 32}  # Blackwell: tcgen05, tensor memory
GFX942 = {"backend": "hip", "arch": "gfx942", "warp_size": 64}  # MI300: mfma, 64-lane waves
GFX950 = {"backend": "hip", "arch": "gfx950", "warp_size": 64}  # MI350: mfma, CDNA4
GFX1100 = {"backend": "hip", "arch": "gfx1100", "warp_size": 32}  # RDNA3: wmma v1
GFX1200 = {"backend": "hip", "arch": "gfx1200", "warp_size": 32}  # RDNA4: wmma v2

# What the TTGIR of a tl.dot must contain on each path. compile.py checks a config's
# "expect" on every run: each item is a substring, or a tuple of alternatives (any one).
EXPECT_HOPPER_MMA = ("ttng.warp_group_dot", "#ttg.nvmma_shared")
EXPECT_AMPERE_MMA = ("#ttg.nvidia_mma<{versionMajor = 2", "#ttg.dot_op")
EXPECT_BLACKWELL_MMA = ("ttng.tc_gen5_mma", "ttng.tmem_alloc", "#ttng.tensor_memory_encoding")
EXPECT_AMD_MFMA = ("#ttg.amd_mfma", "#ttg.dot_op")
EXPECT_AMD_WMMA = ("#ttg.amd_wmma", "#ttg.dot_op")
# A layout change that goes through registers or shared memory.
EXPECT_MOVE = (("ttg.convert_layout", "ttg.local_alloc", "ttg.local_load"),)

DOT_EXPECT = {80: EXPECT_AMPERE_MMA, 89: EXPECT_AMPERE_MMA, 90: EXPECT_HOPPER_MMA,
              100: EXPECT_BLACKWELL_MMA, "gfx942": EXPECT_AMD_MFMA, "gfx950": EXPECT_AMD_MFMA,
              "gfx1100": EXPECT_AMD_WMMA, "gfx1200": EXPECT_AMD_WMMA}


def dot_expect(target):
    """The expectations for a tl.dot kernel compiled for `target`."""
    return DOT_EXPECT[target["arch"]]


def config(name, target, signature, constexprs, *, num_warps, num_stages, outputs,
           problem=None, tolerance=None, expect=(), function=None, options=None):
    """One compilation of a kernel, and what running it needs.

    problem: sizes that make_inputs/grid/reference read and that are not constexprs
    (runtime lengths, batch counts). tolerance: {"atol", "rtol"} for float outputs;
    None means the outputs must match exactly. options: extra compiler options.
    """
    return {
        "name": name,
        "function": function,
        "target": dict(target),
        "signature": dict(signature),
        "constexprs": dict(constexprs),
        "options": {"num_warps": num_warps, "num_stages": num_stages, **(options or {})},
        "outputs": list(outputs),
        "problem": dict(problem or {}),
        "tolerance": tolerance,
        "expect": list(expect),
    }


def cdiv(a, b):
    return -(-a // b)


def prm(cfg, key):
    """A problem size, from the constexprs or else from cfg["problem"]."""
    if key in cfg["constexprs"]:
        return cfg["constexprs"][key]
    return cfg["problem"][key]


# ---- numpy storage of Triton element types --------------------------------------------

NUMPY_DTYPE = {
    "i1": np.bool_, "i8": np.int8, "u8": np.uint8, "i16": np.int16, "u16": np.uint16,
    "i32": np.int32, "u32": np.uint32, "i64": np.int64, "u64": np.uint64,
    "fp16": np.float16, "fp32": np.float32, "fp64": np.float64,
    "bf16": np.uint16,                                  # bit patterns
    "fp8e4nv": np.uint8, "fp8e5": np.uint8, "fp8e4b15": np.uint8,  # bit patterns
}


def numpy_dtype(triton_type):
    """The numpy dtype that stores one element of a Triton type ("*fp16" or "fp16")."""
    return np.dtype(NUMPY_DTYPE[triton_type.lstrip("*")])


def empty(shape, triton_type):
    """An output buffer, filled with a pattern a kernel that forgot to write would leave."""
    dt = numpy_dtype(triton_type)
    if dt.kind == "f":
        return np.full(shape, np.nan, dtype=dt)
    return np.full(shape, 0x5A if dt.itemsize == 1 else 0x5A5A, dtype=dt)


# ---- bf16 -----------------------------------------------------------------------------

def bf16_from_float(x):
    """Round float32 values to bf16 (nearest, ties to even); the uint16 bit patterns."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def bf16_to_float(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


# ---- 8-bit and 4-bit floats (OCP formats) ---------------------------------------------

def _minifloat_table(exp_bits, man_bits, bias, nan_codes, inf_codes=()):
    """float64 value of every code of a 1-sign/exp/mantissa minifloat."""
    n = 1 + exp_bits + man_bits
    table = np.zeros(1 << n)
    for code in range(1 << n):
        sign = -1.0 if code >> (n - 1) else 1.0
        e = (code >> man_bits) & ((1 << exp_bits) - 1)
        m = code & ((1 << man_bits) - 1)
        if e == 0:
            v = m / (1 << man_bits) * 2.0 ** (1 - bias)
        else:
            v = (1 + m / (1 << man_bits)) * 2.0 ** (e - bias)
        table[code] = sign * v
    for code in nan_codes:
        table[code] = np.nan
    for code in inf_codes:
        table[code] = np.copysign(np.inf, table[code])
    return table


# e4m3 (fp8e4nv): no infinities, S.1111.111 is NaN.
E4M3 = _minifloat_table(4, 3, 7, nan_codes=(0x7F, 0xFF))
# e5m2 (fp8e5): IEEE-like.
E5M2 = _minifloat_table(5, 2, 15, nan_codes=(0x7D, 0x7E, 0x7F, 0xFD, 0xFE, 0xFF),
                        inf_codes=(0x7C, 0xFC))
# e2m1 (fp4): 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives.
E2M1 = _minifloat_table(2, 1, 1, nan_codes=())

_TABLES = {"e4m3": E4M3, "e5m2": E5M2, "e2m1": E2M1}


def decode(bits, fmt):
    """float64 values of stored bit patterns: fmt is e4m3, e5m2, e2m1 (one code a byte,
    already unpacked), e8m0 (a power of two), bf16, or any numpy-native type (passed on)."""
    bits = np.asarray(bits)
    if fmt == "e8m0":
        out = np.exp2(bits.astype(np.float64) - 127)
        return np.where(bits == 0xFF, np.nan, out)
    if fmt == "bf16":
        return bf16_to_float(bits).astype(np.float64)
    if fmt in _TABLES:
        return _TABLES[fmt][bits.astype(np.int64)]
    return bits.astype(np.float64)


def random_codes(rng, shape, fmt, max_abs):
    """Random bit patterns of a minifloat, drawn uniformly among its finite codes with
    magnitude at most max_abs (so that sums in the kernels stay well inside range)."""
    table = _TABLES[fmt]
    codes = np.nonzero(np.isfinite(table) & (np.abs(table) <= max_abs))[0]
    return rng.choice(codes, size=shape).astype(np.uint8)


def encode_nearest(values, fmt):
    """Round values to a minifloat as the GPU's cvt.rn.satfinite does: to the nearest
    representable value, ties to the even code, magnitudes past the largest finite value
    saturated to it. Returns the codes (uint8)."""
    table = _TABLES[fmt]
    sign_bit = len(table) // 2
    magnitudes = table[:sign_bit]                        # codes 0.. are ascending magnitudes
    finite = int(np.count_nonzero(np.isfinite(magnitudes)))
    magnitudes = magnitudes[:finite]
    v = np.asarray(values, dtype=np.float64)
    mag = np.minimum(np.abs(v), magnitudes[-1])
    hi = np.clip(np.searchsorted(magnitudes, mag), 1, finite - 1)
    lo = hi - 1
    d_lo, d_hi = mag - magnitudes[lo], magnitudes[hi] - mag
    code = np.where((d_hi < d_lo) | ((d_hi == d_lo) & (hi % 2 == 0)), hi, lo)
    return (code | np.where(np.signbit(v), sign_bit, 0)).astype(np.uint8)


def unpack_e2m1(packed, axis):
    """Unpack two e2m1 codes a byte along `axis` (the first element in the low nibble)."""
    lo = packed & 0x0F
    hi = packed >> 4
    stacked = np.stack([lo, hi], axis=axis + 1)
    shape = list(packed.shape)
    shape[axis] *= 2
    return stacked.reshape(shape)


def uniform(rng, shape, dtype, lo=-1.0, hi=1.0):
    """Uniform floats stored as a numpy dtype or as bf16 bits ("bf16")."""
    x = rng.uniform(lo, hi, size=shape).astype(np.float32)
    if dtype == "bf16":
        return bf16_from_float(x)
    return x.astype(dtype)


def random_values(rng, shape, triton_type):
    """Random contents for a tensor of any Triton element type: uniform in [-1, 1) for
    floats (bf16 as bits), spread over most of the range for integers."""
    t = triton_type.lstrip("*")
    dt = numpy_dtype(t)
    if t == "bf16" or dt.kind == "f":
        return uniform(rng, shape, "bf16" if t == "bf16" else dt)
    info = np.iinfo(dt)
    return rng.integers(info.min // 2, info.max // 2, size=shape, dtype=dt, endpoint=True)


def as_float(x, triton_type):
    """Values of a stored tensor of a Triton type, as float64."""
    t = triton_type.lstrip("*")
    fmt = {"bf16": "bf16", "fp8e4nv": "e4m3", "fp8e5": "e5m2"}.get(t, t)
    return decode(x, fmt)


def compare_outputs(cfg, outputs, expected):
    """Problems found comparing a run's outputs (name -> array, as the kernel left them) with
    reference(cfg, inputs); an empty list when they agree. The one rule every runner uses."""
    problems = []
    for name in cfg["outputs"]:
        got, want = outputs[name], expected[name]
        if cfg["tolerance"] is None:
            if not np.array_equal(got, want):
                bad = np.count_nonzero(got != want)
                problems.append(f"{name}: {bad} of {got.size} elements differ")
            continue
        values = as_float(got, cfg["signature"][name])
        tol = cfg["tolerance"]
        close = np.isclose(values, want, atol=tol["atol"], rtol=tol["rtol"])
        if not close.all():
            worst = np.nanmax(np.abs(values - want)) if not np.isnan(values).all() else np.nan
            problems.append(f"{name}: {np.count_nonzero(~close)} of {got.size} elements outside "
                            f"atol {tol['atol']} rtol {tol['rtol']} (largest error {worst:.3g})")
    return problems
