"""Exact IEEE-754 arithmetic on bit patterns, as the GPU computes it.

Every value is a bit pattern (an int). Operations decode to exact rationals
(`fractions.Fraction`), compute the exact result and round it once, in any of
the four IEEE rounding modes, to binary16, binary32 or binary64. Subnormals
are kept (no flush to zero), as PTX for sm_20+ does without `.ftz`.

NaN results are the GPU's canonical NaN (binary32 0x7fffffff); the corpus only
produces NaNs where every NVIDIA GPU since sm_20 agrees on the bits.
"""
from fractions import Fraction
import math
import struct


class Fmt:
    def __init__(self, name, ebits, mbits):
        self.name = name
        self.ebits = ebits
        self.mbits = mbits
        self.bias = (1 << (ebits - 1)) - 1
        self.emin = 1 - self.bias
        self.emax = self.bias
        self.width = 1 + ebits + mbits
        self.sign_bit = 1 << (self.width - 1)
        self.exp_mask = ((1 << ebits) - 1) << mbits
        self.man_mask = (1 << mbits) - 1
        self.inf = self.exp_mask
        self.max_finite = self.exp_mask - (1 << mbits) | self.man_mask
        # canonical NaN of NVIDIA GPUs: all exponent and mantissa bits set
        self.canonical_nan = self.exp_mask | self.man_mask


F16 = Fmt("f16", 5, 10)
F32 = Fmt("f32", 8, 23)
F64 = Fmt("f64", 11, 52)

RN, RZ, RU, RD = "rn", "rz", "ru", "rd"
MODES = (RN, RZ, RU, RD)


# ---- classification and decoding -------------------------------------------------

def is_nan(b, f=F32):
    return (b & f.exp_mask) == f.exp_mask and (b & f.man_mask) != 0


def is_inf(b, f=F32):
    return (b & ~f.sign_bit) == f.inf


def sign(b, f=F32):
    return 1 if b & f.sign_bit else 0


def is_zero(b, f=F32):
    return (b & ~f.sign_bit) == 0


def to_frac(b, f=F32):
    """Exact value of a finite bit pattern."""
    assert not (is_nan(b, f) or is_inf(b, f)), hex(b)
    e = (b & f.exp_mask) >> f.mbits
    m = b & f.man_mask
    if e == 0:
        v = Fraction(m) * Fraction(2) ** (f.emin - f.mbits)
    else:
        v = Fraction(m | (1 << f.mbits)) * Fraction(2) ** (e - f.bias - f.mbits)
    return -v if sign(b, f) else v


# ---- rounding -----------------------------------------------------------------------

def _floor_log2(q):
    """e with 2**e <= q < 2**(e+1), q > 0 rational."""
    n, d = q.numerator, q.denominator
    e = n.bit_length() - d.bit_length()
    if e >= 0:
        if n < (d << e):
            e -= 1
    else:
        if (n << -e) < d:
            e -= 1
    return e


def _round_int(n_floor, rem_state, negative, mode, odd):
    """Round a magnitude: n_floor is the truncated integer, rem_state is 0 (exact),
    1 (below half), 2 (exactly half), 3 (above half)."""
    if rem_state == 0:
        return n_floor
    if mode == RZ:
        return n_floor
    if mode == RU:
        return n_floor if negative else n_floor + 1
    if mode == RD:
        return n_floor + 1 if negative else n_floor
    # RN, ties to even
    if rem_state == 3 or (rem_state == 2 and odd):
        return n_floor + 1
    return n_floor


def round_frac(q, f=F32, mode=RN, zero_sign=0):
    """Round the exact rational q to format f; return the bit pattern.
    zero_sign gives the sign of an exact zero result."""
    q = Fraction(q)
    if q == 0:
        return f.sign_bit if zero_sign else 0
    neg = q < 0
    a = -q if neg else q
    e = _floor_log2(a)
    if e < f.emin:
        e = f.emin
    # quantum 2**(e - mbits)
    scaled = a / (Fraction(2) ** (e - f.mbits))
    n = scaled.numerator // scaled.denominator
    rem = scaled - n
    if rem == 0:
        st = 0
    elif rem < Fraction(1, 2):
        st = 1
    elif rem == Fraction(1, 2):
        st = 2
    else:
        st = 3
    n = _round_int(n, st, neg, mode, n & 1)
    if n == (1 << (f.mbits + 1)):
        n >>= 1
        e += 1
    s = f.sign_bit if neg else 0
    if e > f.emax:
        return s | overflow(f, mode, neg)
    if n < (1 << f.mbits):
        # subnormal (or zero after rounding: cannot happen as n >= 1 after rounding up
        # or the value was at least one quantum)
        return s | n
    return s | ((e + f.bias) << f.mbits) | (n - (1 << f.mbits))


def overflow(f, mode, neg):
    if mode == RN:
        return f.inf
    if mode == RZ:
        return f.max_finite
    if mode == RU:
        return f.max_finite if neg else f.inf
    return f.inf if neg else f.max_finite  # RD


# ---- Python float helpers -----------------------------------------------------------

def f32_bits(x):
    """Bits of the binary32 nearest (RN) to the Python float x."""
    if isinstance(x, float) and math.isnan(x):
        return F32.canonical_nan
    if isinstance(x, float) and math.isinf(x):
        return F32.inf | (F32.sign_bit if x < 0 else 0)
    neg_zero = isinstance(x, float) and x == 0 and math.copysign(1, x) < 0
    return round_frac(Fraction(x), F32, RN, zero_sign=1 if neg_zero else 0)


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f16_bits(x):
    if isinstance(x, float) and math.isnan(x):
        return F16.canonical_nan
    if isinstance(x, float) and math.isinf(x):
        return F16.inf | (F16.sign_bit if x < 0 else 0)
    neg_zero = isinstance(x, float) and x == 0 and math.copysign(1, x) < 0
    return round_frac(Fraction(x), F16, RN, zero_sign=1 if neg_zero else 0)


def bits_f32(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def bits_f64(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def to_float(b, f=F32):
    """Python float value of a bit pattern (exact for f16/f32/f64)."""
    if f is F64:
        return bits_f64(b)
    if is_nan(b, f):
        return float("nan")
    if is_inf(b, f):
        return float("-inf") if sign(b, f) else float("inf")
    v = float(to_frac(b, f))
    if v == 0 and sign(b, f):
        return -0.0
    return v


# ---- arithmetic -----------------------------------------------------------------------

def add(a, b, f=F32, mode=RN):
    if is_nan(a, f) or is_nan(b, f):
        return f.canonical_nan
    if is_inf(a, f) or is_inf(b, f):
        if is_inf(a, f) and is_inf(b, f) and sign(a, f) != sign(b, f):
            return f.canonical_nan
        return a if is_inf(a, f) else b
    q = to_frac(a, f) + to_frac(b, f)
    if q == 0:
        if is_zero(a, f) and is_zero(b, f) and sign(a, f) == sign(b, f):
            zs = sign(a, f)
        else:
            zs = 1 if mode == RD else 0
        return round_frac(q, f, mode, zs)
    return round_frac(q, f, mode)


def sub(a, b, f=F32, mode=RN):
    if is_nan(b, f):
        return f.canonical_nan
    return add(a, b ^ f.sign_bit, f, mode)


def mul(a, b, f=F32, mode=RN):
    if is_nan(a, f) or is_nan(b, f):
        return f.canonical_nan
    s = sign(a, f) ^ sign(b, f)
    if is_inf(a, f) or is_inf(b, f):
        if is_zero(a, f) or is_zero(b, f):
            return f.canonical_nan
        return f.inf | (f.sign_bit if s else 0)
    return round_frac(to_frac(a, f) * to_frac(b, f), f, mode, zero_sign=s)


def fma(a, b, c, f=F32, mode=RN):
    if is_nan(a, f) or is_nan(b, f) or is_nan(c, f):
        return f.canonical_nan
    ps = sign(a, f) ^ sign(b, f)
    if is_inf(a, f) or is_inf(b, f):
        if is_zero(a, f) or is_zero(b, f):
            return f.canonical_nan
        if is_inf(c, f) and sign(c, f) != ps:
            return f.canonical_nan
        return f.inf | (f.sign_bit if ps else 0)
    if is_inf(c, f):
        return c
    p = to_frac(a, f) * to_frac(b, f)
    q = p + to_frac(c, f)
    if q == 0:
        if p == 0 and is_zero(c, f) and ps == sign(c, f):
            zs = ps
        else:
            zs = 1 if mode == RD else 0
        return round_frac(q, f, mode, zs)
    return round_frac(q, f, mode)


def div(a, b, f=F32, mode=RN):
    if is_nan(a, f) or is_nan(b, f):
        return f.canonical_nan
    s = sign(a, f) ^ sign(b, f)
    sb = f.sign_bit if s else 0
    if is_inf(a, f):
        if is_inf(b, f):
            return f.canonical_nan
        return f.inf | sb
    if is_inf(b, f):
        return sb
    if is_zero(b, f):
        if is_zero(a, f):
            return f.canonical_nan
        return f.inf | sb
    return round_frac(to_frac(a, f) / to_frac(b, f), f, mode, zero_sign=s)


def _sqrt_round(q, f, mode):
    """Correctly rounded sqrt of a positive rational q."""
    e = _floor_log2(q)
    # result exponent about e/2; scale so that the integer root has mbits+3 bits
    k = f.mbits + 3 - (e // 2)
    # compute floor(sqrt(q * 4**k)) and whether it is exact
    scaled = q * (Fraction(4) ** k) if k >= 0 else q / (Fraction(4) ** -k)
    n = scaled.numerator // scaled.denominator
    exact_int = scaled.denominator == 1
    r = math.isqrt(n)
    exact = exact_int and r * r == n
    # value = (r + t) / 2**k with 0 <= t < 1; add a sticky half-quantum below precision
    # Represent as rational with sticky: r + 1/4 if inexact (below the next integer),
    # sufficient because r has >= mbits+2 significant bits.
    val = Fraction(r) if exact else Fraction(4 * r + 1, 4)
    val = val / (Fraction(2) ** k) if k >= 0 else val * (Fraction(2) ** -k)
    return round_frac(val, f, mode)


def sqrt(a, f=F32, mode=RN):
    if is_nan(a, f):
        return f.canonical_nan
    if is_zero(a, f):
        return a
    if sign(a, f):
        return f.canonical_nan
    if is_inf(a, f):
        return a
    return _sqrt_round(to_frac(a, f), f, mode)


def rcp(a, f=F32, mode=RN):
    one = round_frac(1, f)
    return div(one, a, f, mode)


def rsqrt_rn(a, f=F32):
    """Correctly rounded 1/sqrt(a) for positive finite a."""
    q = to_frac(a, f)
    assert q > 0
    return _sqrt_round(1 / q, f, RN)


def fmin(a, b, f=F32):
    if is_nan(a, f) and is_nan(b, f):
        return f.canonical_nan
    if is_nan(a, f):
        return b
    if is_nan(b, f):
        return a
    if is_zero(a, f) and is_zero(b, f):
        return a if sign(a, f) else b
    return a if to_key(a, f) <= to_key(b, f) else b


def fmax(a, b, f=F32):
    if is_nan(a, f) and is_nan(b, f):
        return f.canonical_nan
    if is_nan(a, f):
        return b
    if is_nan(b, f):
        return a
    if is_zero(a, f) and is_zero(b, f):
        return b if sign(a, f) else a
    return a if to_key(a, f) >= to_key(b, f) else b


def to_key(b, f=F32):
    """Ordered key of a non-NaN pattern."""
    if is_inf(b, f):
        return float("-inf") if sign(b, f) else float("inf")
    return to_frac(b, f)


# ---- conversions ----------------------------------------------------------------------

def cvt_f2f(b, src, dst, mode=RN):
    """Float to float (widening is exact)."""
    if is_nan(b, src):
        return dst.canonical_nan
    if is_inf(b, src):
        return dst.inf | (dst.sign_bit if sign(b, src) else 0)
    return round_frac(to_frac(b, src), dst, mode, zero_sign=sign(b, src))


def cvt_f2i(b, f, bits, signed, mode):
    """Float to integer with rounding `mode` (rn = nearest even, rz, ru = ceil,
    rd = floor), saturating to the destination range; NaN gives 0 (PTX cvt).
    Returns the integer value (signed or unsigned)."""
    lo = -(1 << (bits - 1)) if signed else 0
    hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    if is_nan(b, f):
        return 0
    if is_inf(b, f):
        return lo if sign(b, f) else hi
    q = to_frac(b, f)
    fl = q.numerator // q.denominator
    rem = q - fl
    if rem == 0:
        n = fl
    elif mode == RD:
        n = fl
    elif mode == RU:
        n = fl + 1
    elif mode == RZ:
        n = fl + 1 if q < 0 else fl
    else:
        if rem < Fraction(1, 2):
            n = fl
        elif rem > Fraction(1, 2):
            n = fl + 1
        else:
            n = fl if fl % 2 == 0 else fl + 1
    return max(lo, min(hi, n))


def cvt_i2f(n, f, mode=RN):
    return round_frac(Fraction(n), f, mode)


def saturate(b, f=F32):
    """cvt.sat / __saturatef: clamp to [+0.0, 1.0], NaN gives +0.0, -0.0 gives +0.0."""
    if is_nan(b, f):
        return 0
    if sign(b, f):
        return 0
    one = round_frac(1, f)
    if is_inf(b, f) or to_frac(b, f) > 1:
        return one
    return b


def cvt_rint(b, f, mode):
    """Round to integral value in floating point (cvt.rni/rzi/rpi/rmi.f32.f32)."""
    if is_nan(b, f):
        return f.canonical_nan
    if is_inf(b, f) or is_zero(b, f):
        return b
    q = to_frac(b, f)
    n = cvt_f2i(b, f, 4096, True, mode)
    return round_frac(Fraction(n), f, RN, zero_sign=sign(b, f))


# ---- ulp helpers (for checking tolerances in self tests) -----------------------------

def ordered(b, f=F32):
    return -(b & ~f.sign_bit) - 1 if sign(b, f) else b


def ulp_diff(a, b, f=F32):
    return abs(ordered(a, f) - ordered(b, f))
