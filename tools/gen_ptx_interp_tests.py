#!/usr/bin/env python3
"""Generate the PTX reference-interpreter conformance tests in tests/ptx-interp/.

Issue 3, section 3, "Must show": reference-interpreter tests for every PTX 1.4
instruction, citing the checklist IDs of ../shared/spec/ptx-1.4-checklist.md.

Every case is a directory tests/ptx-interp/<group>_<dialect>/ with
  kernel.ptx           the kernel, with a comment block listing the checklist IDs it
                       covers and, for every form, how its expected values were computed
  case.json            a launch manifest (issue 4, section 2)
  in<k>.bin            inputs of form k (8-byte little-endian slots)
  expected_out<k>.bin  expected outputs of form k

Dialects: `sm13` = `.version 1.4 / .target sm_13` (PTX 1.x semantics: f32 subnormals
always flushed, mad.f32 not fused, 16-bit %tid), `sm75` = `.version 7.0 / .target sm_75 /
.address_size 64` (modern semantics).

The expected values are computed here, independently of Heddle: Python integers for
integer instructions, and exact rational arithmetic (fractions.Fraction) with an explicit
rounding routine (round_to, self-tested against the host's binary64 and numpy's binary32)
for floating point.  The .approx SFU functions are compared with a tolerance from the
checklist's error bounds against an mpmath reference.

Usage:
  python3 tools/gen_ptx_interp_tests.py            # write every case
  python3 tools/gen_ptx_interp_tests.py --check    # also validate sm75 kernels with ptxas
  python3 tools/gen_ptx_interp_tests.py --selftest # only the reference arithmetic self-test

Deterministic: fixed seeds, sorted output; running it twice gives identical files.
Cases listed in PENDING are written to tests/ptx-interp-pending/ instead (the
interpreter or front end disagrees with the expectation; see the README there).
"""
import argparse
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import zlib
from fractions import Fraction
import math
import struct


class Fmt:
    def __init__(self, name, ebits, mbits):
        self.name = name
        self.e = ebits
        self.m = mbits
        self.bits = 1 + ebits + mbits
        self.bias = (1 << (ebits - 1)) - 1
        self.emin = 1 - self.bias
        self.emax = self.bias
        self.qnan = ((1 << ebits) - 1) << mbits | (1 << (mbits - 1))  # +qNaN, canonical-ish
        self.maxfin = Fraction((1 << (mbits + 1)) - 1) * Fraction(2) ** (self.emax - mbits)


F16 = Fmt("f16", 5, 10)
F32 = Fmt("f32", 8, 23)
F64 = Fmt("f64", 11, 52)
FMTS = {"f16": F16, "f32": F32, "f64": F64}

NAN = ("nan",)


def pow2(k):
    return Fraction(2) ** k


def decode(bits, f):
    s = bits >> (f.bits - 1) & 1
    e = bits >> f.m & ((1 << f.e) - 1)
    man = bits & ((1 << f.m) - 1)
    if e == (1 << f.e) - 1:
        return NAN if man else ("inf", s)
    if e == 0:
        return ("num", s, Fraction(man) * pow2(f.emin - f.m))
    return ("num", s, Fraction((1 << f.m) | man) * pow2(e - f.bias - f.m))


def is_subnormal(bits, f):
    e = bits >> f.m & ((1 << f.e) - 1)
    man = bits & ((1 << f.m) - 1)
    return e == 0 and man != 0


def flush(bits, f):
    """Subnormal -> zero of the same sign."""
    if is_subnormal(bits, f):
        return bits & (1 << (f.bits - 1))
    return bits


def floor_log2(q):
    """floor(log2(q)) for a positive Fraction, exactly."""
    n, d = q.numerator, q.denominator
    k = n.bit_length() - d.bit_length()
    # 2^k <= q < 2^(k+1) ?
    if k >= 0:
        if n < d << k:
            k -= 1
    else:
        if n << -k < d:
            k -= 1
    return k


def round_int(q, mode, sign):
    """Round a non-negative Fraction q (a magnitude with the given sign) to an integer."""
    fl = q.numerator // q.denominator
    rem = q - fl
    if rem == 0:
        return fl
    if mode == "rz":
        return fl
    if mode == "rn":
        if rem > Fraction(1, 2):
            return fl + 1
        if rem < Fraction(1, 2):
            return fl
        return fl + (fl & 1)
    if mode == "rm":
        return fl + 1 if sign else fl
    if mode == "rp":
        return fl if sign else fl + 1
    raise ValueError(mode)


def encode_exact(sign, q, f):
    """Bits of sign * q, q exactly representable (or 0)."""
    s = sign << (f.bits - 1)
    if q == 0:
        return s
    k = floor_log2(q)
    if k < f.emin:
        man = q / pow2(f.emin - f.m)
        assert man.denominator == 1
        return s | int(man)
    man = q / pow2(k - f.m)
    assert man.denominator == 1 and (1 << f.m) <= man < (2 << f.m), (q, k)
    return s | (k + f.bias) << f.m | (int(man) - (1 << f.m))


def inf_bits(sign, f):
    return sign << (f.bits - 1) | ((1 << f.e) - 1) << f.m


def round_to(sign, q, f, mode, ftz=False):
    """Round sign*q (q >= 0 Fraction) to format f; returns bits."""
    if q == 0:
        return sign << (f.bits - 1)
    k = floor_log2(q)
    quantum = pow2(max(k, f.emin) - f.m)
    n = round_int(q / quantum, mode, sign)
    r = n * quantum
    if r > f.maxfin:
        to_inf = mode == "rn" or (mode == "rp" and sign == 0) or (mode == "rm" and sign == 1)
        return inf_bits(sign, f) if to_inf else encode_exact(sign, f.maxfin, f)
    bits = encode_exact(sign, r, f)
    if ftz:
        bits = flush(bits, f)
    return bits


def result(v, f, mode, ftz=False):
    """Round a decoded exact value to bits."""
    if v[0] == "nan":
        return f.qnan
    if v[0] == "inf":
        return inf_bits(v[1], f)
    return round_to(v[1], v[2], f, mode, ftz)


def _signed(v):
    return -v[2] if v[1] else v[2]


def _from_signed(x, zero_sign):
    if x == 0:
        return ("num", zero_sign, Fraction(0))
    return ("num", 1 if x < 0 else 0, abs(x))


def add_v(a, b, mode):
    if a[0] == "nan" or b[0] == "nan":
        return NAN
    if a[0] == "inf" and b[0] == "inf":
        return a if a[1] == b[1] else NAN
    if a[0] == "inf":
        return a
    if b[0] == "inf":
        return b
    s = _signed(a) + _signed(b)
    if s == 0:
        if a[2] == 0 and b[2] == 0 and a[1] == b[1]:
            zs = a[1]
        else:
            zs = 1 if mode == "rm" else 0
        return ("num", zs, Fraction(0))
    return _from_signed(s, 0)


def neg_v(a):
    if a[0] == "nan":
        return a
    if a[0] == "inf":
        return ("inf", 1 - a[1])
    return ("num", 1 - a[1], a[2])


def mul_v(a, b):
    if a[0] == "nan" or b[0] == "nan":
        return NAN
    s = a[1] ^ b[1]
    if a[0] == "inf" or b[0] == "inf":
        other = b if a[0] == "inf" else a
        if other[0] == "num" and other[2] == 0:
            return NAN
        return ("inf", s)
    return ("num", s, a[2] * b[2])


def div_v(a, b):
    if a[0] == "nan" or b[0] == "nan":
        return NAN
    s = a[1] ^ b[1]
    if a[0] == "inf":
        return NAN if b[0] == "inf" else ("inf", s)
    if b[0] == "inf":
        return ("num", s, Fraction(0))
    if b[2] == 0:
        return NAN if a[2] == 0 else ("inf", s)
    return ("num", s, a[2] / b[2])


def fma_v(a, b, c, mode):
    p = mul_v(a, b)
    return add_v(p, c, mode)


def sqrt_round(v, f, mode, ftz=False):
    """Correctly rounded square root."""
    if v[0] == "nan":
        return f.qnan
    if v[0] == "inf":
        return f.qnan if v[1] else inf_bits(0, f)
    if v[2] == 0:
        return v[1] << (f.bits - 1)
    if v[1]:
        return f.qnan
    q = v[2]
    # floor(sqrt(q * 4^k)) with k chosen so the root has >= m + 10 bits: rounding
    # boundaries are then multiples of 2^-k, and an inexact root lies strictly inside
    # (s, s + 1) * 2^-k, so rounding (s + 1/2) * 2^-k gives the correctly rounded root.
    k = f.m + 12 - floor_log2(q) // 2
    N = q * Fraction(4) ** k
    n = N.numerator // N.denominator
    s = math.isqrt(n)
    exact = (s * s == N)
    val = Fraction(s, 1) / pow2(k)
    if not exact:
        val = (Fraction(s) + Fraction(1, 2)) / pow2(k)
    return round_to(0, val, f, mode, ftz)


# ----- host float helpers -----

def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def bits_f32(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def bits_f64(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def bits_of(x, f):
    """Bits of a Python number (exact Fraction/int/float) rounded RN to f."""
    if isinstance(x, float):
        if math.isnan(x):
            return f.qnan
        if math.isinf(x):
            return inf_bits(1 if x < 0 else 0, f)
        sign = 1 if math.copysign(1.0, x) < 0 else 0
        return round_to(sign, abs(Fraction(x)), f, "rn")
    x = Fraction(x)
    return round_to(1 if x < 0 else 0, abs(x), f, "rn")


def value(bits, f):
    """Decoded value as a Fraction (finite only) or float for inf/nan."""
    v = decode(bits, f)
    if v[0] == "nan":
        return float("nan")
    if v[0] == "inf":
        return float("-inf") if v[1] else float("inf")
    return -v[2] if v[1] else v[2]


def is_nan(bits, f):
    return decode(bits, f)[0] == "nan"


# ----- binary-op entry points on bits -----

def fadd(a, b, f, mode="rn", ftz_in=False, ftz_out=False):
    if ftz_in:
        a, b = flush(a, f), flush(b, f)
    return result(add_v(decode(a, f), decode(b, f), mode), f, mode, ftz_out)


def fsub(a, b, f, mode="rn", ftz_in=False, ftz_out=False):
    if ftz_in:
        a, b = flush(a, f), flush(b, f)
    return result(add_v(decode(a, f), neg_v(decode(b, f)), mode), f, mode, ftz_out)


def fmul(a, b, f, mode="rn", ftz_in=False, ftz_out=False):
    if ftz_in:
        a, b = flush(a, f), flush(b, f)
    return result(mul_v(decode(a, f), decode(b, f)), f, mode, ftz_out)


def ffma(a, b, c, f, mode="rn", ftz_in=False, ftz_out=False):
    if ftz_in:
        a, b, c = flush(a, f), flush(b, f), flush(c, f)
    return result(fma_v(decode(a, f), decode(b, f), decode(c, f), mode), f, mode, ftz_out)


def fdiv(a, b, f, mode="rn", ftz_in=False, ftz_out=False):
    if ftz_in:
        a, b = flush(a, f), flush(b, f)
    return result(div_v(decode(a, f), decode(b, f)), f, mode, ftz_out)


def fsqrt(a, f, mode="rn", ftz_in=False, ftz_out=False):
    if ftz_in:
        a = flush(a, f)
    return sqrt_round(decode(a, f), f, mode, ftz_out)


def sat(bits, f):
    """.sat: clamp to [+0.0, 1.0]; NaN -> +0 (FPE-04, CVT-23). A -0 result also gives +0 (the clamp's lower bound is +0.0)."""
    v = decode(bits, f)
    if v[0] == "nan":
        return 0
    if v[1] == 1:  # negative (or -0, -inf)
        return 0
    if v[0] == "inf" or v[2] > 1:
        return encode_exact(0, Fraction(1), f)
    return bits


def convert(bits, src, dst, mode, ftz_in=False, ftz_out=False):
    """float -> float conversion."""
    if ftz_in:
        bits = flush(bits, src)
    return result(decode(bits, src), dst, mode, ftz_out)


def int_to_float(x, dst, mode, ftz_out=False):
    return round_to(1 if x < 0 else 0, Fraction(abs(x)), dst, mode, ftz_out)


def float_to_int(bits, src, mode, signed, nbits, ftz_in=False):
    """cvt.rXi.{s,u}N.fM: round to an integer, saturate, NaN -> 0."""
    if ftz_in:
        bits = flush(bits, src)
    v = decode(bits, src)
    lo, hi = (-(1 << (nbits - 1)), (1 << (nbits - 1)) - 1) if signed else (0, (1 << nbits) - 1)
    if v[0] == "nan":
        r = 0
    elif v[0] == "inf":
        r = lo if v[1] else hi
    else:
        m = {"rni": "rn", "rzi": "rz", "rmi": "rm", "rpi": "rp"}[mode]
        n = round_int(v[2], m, v[1])
        r = -n if v[1] else n
        r = max(lo, min(hi, r))
    return r & ((1 << nbits) - 1)


def round_integral(bits, f, mode, ftz=False):
    """cvt.rXi.fN.fN: round to an integral value kept as float."""
    if ftz:
        bits = flush(bits, f)
    v = decode(bits, f)
    if v[0] != "num":
        return f.qnan if v[0] == "nan" else bits
    m = {"rni": "rn", "rzi": "rz", "rmi": "rm", "rpi": "rp"}[mode]
    n = round_int(v[2], m, v[1])
    return encode_exact(v[1], Fraction(n), f)


def minmax(a, b, f, is_max, ftz=False):
    """PTX 1.4 min/max: one NaN -> the other; both NaN -> NaN; else (a<b)?a:b."""
    if ftz:
        a, b = flush(a, f), flush(b, f)
    na, nb = is_nan(a, f), is_nan(b, f)
    if na and nb:
        return f.qnan
    if na:
        return b
    if nb:
        return a
    va, vb = value(a, f), value(b, f)
    if is_max:
        return a if va > vb else b
    return a if va < vb else b


def compare(op, a, b, f, ftz=False):
    """PTX comparison on floats (CMP-04..06)."""
    if ftz:
        a, b = flush(a, f), flush(b, f)
    na, nb = is_nan(a, f), is_nan(b, f)
    unordered = na or nb
    if op == "num":
        return not unordered
    if op == "nan":
        return unordered
    base = op[:-1] if op.endswith("u") and op not in ("eq",) and len(op) == 3 else op
    if unordered:
        return op in ("equ", "neu", "ltu", "leu", "gtu", "geu")
    va, vb = value(a, f), value(b, f)
    return {"eq": va == vb, "ne": va != vb, "lt": va < vb, "le": va <= vb, "gt": va > vb, "ge": va >= vb}[base]


def ulp(bits, f):
    """Spacing of f at the magnitude of bits (finite)."""
    v = decode(bits, f)
    q = v[2]
    if q == 0:
        return pow2(f.emin - f.m)
    return pow2(max(floor_log2(q), f.emin) - f.m)


def _selftest():
    import random
    rnd = random.Random(1)
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        np = None
    # RN against the host (binary64 and numpy binary32).
    specials32 = [0, 0x80000000, 0x7F800000, 0xFF800000, 0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0x3F800000, 0xBF800000]
    for _ in range(1500):
        a = rnd.choice(specials32) if rnd.random() < 0.2 else rnd.getrandbits(32)
        b = rnd.choice(specials32) if rnd.random() < 0.2 else rnd.getrandbits(32)
        if np is not None:
            with np.errstate(all="ignore"):
                fa, fb = np.array([a], dtype=np.uint32).view(np.float32), np.array([b], dtype=np.uint32).view(np.float32)
                for op, ref in (("add", fadd), ("sub", fsub), ("mul", fmul), ("div", fdiv)):
                    h = {"add": fa + fb, "sub": fa - fb, "mul": fa * fb, "div": fa / fb}[op].view(np.uint32)[0]
                    mine = ref(a, b, F32)
                    if is_nan(int(h), F32):
                        assert is_nan(mine, F32), (op, hex(a), hex(b))
                    else:
                        assert mine == int(h), (op, hex(a), hex(b), hex(mine), hex(int(h)))
                h = np.sqrt(fa).view(np.uint32)[0]
                mine = fsqrt(a, F32)
                assert (is_nan(mine, F32) and is_nan(int(h), F32)) or mine == int(h), ("sqrt", hex(a))
        x, y = rnd.getrandbits(64), rnd.getrandbits(64)
        fx, fy = bits_f64(x), bits_f64(y)
        for op, ref, h in (("add", fadd, lambda: fx + fy), ("mul", fmul, lambda: fx * fy)):
            try:
                hv = h()
            except OverflowError:
                continue
            mine = ref(x, y, F64)
            if math.isnan(hv):
                assert is_nan(mine, F64)
            else:
                assert mine == f64_bits(hv), (op, hex(x), hex(y))
        if not math.isnan(fx) and fx >= 0:
            assert fsqrt(x, F64) == f64_bits(math.sqrt(fx)), hex(x)
        if fy != 0 and not math.isnan(fx) and not math.isnan(fy) and not math.isinf(fx) and not math.isinf(fy):
            assert fdiv(x, y, F64) == f64_bits(fx / fy)
        # fma against math.fma when available (3.13+); otherwise against exact rounding identity
        # Directed rounding: rz <= exact <= rp ordering and neighbourhood.
        for f, a2, b2 in ((F32, a, b), (F64, x, y)):
            va, vb = decode(a2, f), decode(b2, f)
            if va[0] != "num" or vb[0] != "num":
                continue
            exact = _signed(va) * _signed(vb)
            for mode in ("rz", "rm", "rp"):
                r = fmul(a2, b2, f, mode)
                v = decode(r, f)
                if v[0] != "num":
                    continue
                rv = _signed(v)
                if mode == "rm":
                    assert rv <= exact
                if mode == "rp":
                    assert rv >= exact
                if mode == "rz":
                    assert abs(rv) <= abs(exact)
    # f64 -> f32 conversion against struct (RN).
    for _ in range(2000):
        x = rnd.getrandbits(64)
        fx = bits_f64(x)
        if math.isnan(fx):
            continue
        try:
            h = struct.unpack("<I", struct.pack("<f", fx))[0]
        except OverflowError:
            h = inf_bits(1 if fx < 0 else 0, F32)
        assert convert(x, F64, F32, "rn") == h, hex(x)
    # Hand-checked values.
    assert round_to(0, Fraction(16777217), F32, "rn") == 0x4B800000
    assert round_to(0, Fraction(16777217), F32, "rp") == 0x4B800001
    assert round_to(1, Fraction(16777217), F32, "rm") == 0xCB800001
    assert round_to(0, Fraction(16777219), F32, "rn") == 0x4B800002
    assert fadd(0x3F800000, 0xBF800000, F32, "rm") == 0x80000000
    assert fadd(0x3F800000, 0xBF800000, F32, "rn") == 0x00000000
    assert fmul(0x7F7FFFFF, 0x40000000, F32, "rz") == 0x7F7FFFFF
    assert fmul(0x7F7FFFFF, 0x40000000, F32, "rn") == 0x7F800000
    assert fmul(0xFF7FFFFF, 0x40000000, F32, "rp") == 0xFF7FFFFF
    assert fsqrt(0x40000000, F32, "rz") + 1 == fsqrt(0x40000000, F32, "rp")
    assert float_to_int(f32_bits(2.5), F32, "rni", True, 32) == 2
    assert float_to_int(f32_bits(3.5), F32, "rni", True, 32) == 4
    assert float_to_int(f32_bits(-2.5), F32, "rmi", True, 32) == (-3) & 0xFFFFFFFF
    assert float_to_int(f32_bits(1e10), F32, "rzi", True, 32) == 0x7FFFFFFF
    assert float_to_int(f32_bits(-1.0), F32, "rzi", False, 32) == 0
    assert convert(0x3C00, F16, F32, "rn") == 0x3F800000
    assert convert(f32_bits(65520.0), F32, F16, "rn") == 0x7C00
    assert convert(f32_bits(65519.0), F32, F16, "rn") == 0x7BFF



# =====================================================================================
# Integer helpers
# =====================================================================================

def M(x, n):
    """x mod 2^n."""
    return x & ((1 << n) - 1)


def SX(x, n):
    """The n-bit pattern x read as a signed integer."""
    x = M(x, n)
    return x - (1 << n) if x >> (n - 1) else x


TYPES = {
    "u16": (16, False), "s16": (16, True), "b16": (16, False),
    "u32": (32, False), "s32": (32, True), "b32": (32, False),
    "u64": (64, False), "s64": (64, True), "b64": (64, False),
    "u8": (8, False), "s8": (8, True), "b8": (8, False),
    "f16": (16, False), "f32": (32, False), "f64": (64, False), "pred": (1, False),
}


def width(t):
    return TYPES[t][0]


def signed(t):
    return TYPES[t][1]


def val(x, t):
    """The bit pattern x as the integer value of type t."""
    return SX(x, width(t)) if signed(t) else M(x, width(t))


def F(x):
    """binary32 bits of a Python number (RN)."""
    return bits_of(x, F32)


def D(x):
    """binary64 bits of a Python number (RN)."""
    return bits_of(x, F64)


def H(x):
    return bits_of(x, F16)


def hx(x, n):
    return "0x%0*x" % ((n + 3) // 4, x)


# Bit patterns used across the floating-point groups.
F32_SPECIALS = [
    0x00000000, 0x80000000,  # +0, -0
    0x3F800000, 0xBF800000,  # +1, -1
    0x00000001, 0x80000001,  # +-min subnormal
    0x007FFFFF, 0x807FFFFF,  # +-max subnormal
    0x00800000, 0x80800000,  # +-min normal
    0x7F7FFFFF, 0xFF7FFFFF,  # +-max finite
    0x7F800000, 0xFF800000,  # +-inf
    0x7FC00000, 0xFFC00001,  # NaNs
    0x3FC00000, 0x40490FDB,  # 1.5, pi
]
F64_SPECIALS = [
    0x0000000000000000, 0x8000000000000000,
    0x3FF0000000000000, 0xBFF0000000000000,
    0x0000000000000001, 0x8000000000000001,
    0x000FFFFFFFFFFFFF, 0x0010000000000000,
    0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF,
    0x7FF0000000000000, 0xFFF0000000000000,
    0x7FF8000000000000, 0xFFF8000000000001,
    0x3FF8000000000000, 0x400921FB54442D18,
]


def rng_for(name):
    return random.Random(zlib.crc32(name.encode()))


# =====================================================================================
# Test framework: "forms" (one instruction shape, many operand vectors, one thread per
# vector) assembled into kernels, and raw cases (hand-written kernels).
# =====================================================================================

NANANY = {"ulp": 0}  # bit-exact, except that any NaN matches any NaN (FPE-05)

DIALECTS = ("sm13", "sm75")

HEADER = {
    "sm13": ".version 1.4\n.target sm_13\n",
    "sm75": ".version 7.0\n.target sm_75\n.address_size 64\n",
}


class Form:
    """One instruction shape.

    ins/outs/temps: register types; the body refers to them as {a0}.., {d0}.., {t0}...
    vecs: operand tuples (bit patterns), one thread each.
    ref(vec) -> list of output bit patterns (one per out).
    out_dtype: element type of the output buffer (slots of that size).
    tol: manifest tolerance, or None for bit-exact.
    check: False = run the form but do not compare its output (e.g. x / 0, unspecified).
    rule: how the expected values were computed (goes into the kernel comment).
    """

    def __init__(self, title, ins, outs, body, vecs, ref, rule, out_dtype="u32", tol=None, temps=(), check=True, split=None, ids=None):
        self.ids = ids  # optional: the checklist IDs this form covers (for split cases)
        self.split = split  # forms with a split name go to their own case <group>_<split>_<dialect>
        self.title = title
        self.ins = list(ins)
        self.outs = list(outs)
        self.body = body
        self.vecs = [tuple(v) for v in vecs]
        self.ref = ref
        self.rule = rule
        self.out_dtype = out_dtype
        self.tol = tol
        self.temps = list(temps)
        self.check = check


DTYPE_SIZE = {"u8": 1, "u16": 2, "f16": 2, "u32": 4, "s32": 4, "f32": 4, "u64": 8, "s64": 8, "f64": 8}
PACK = {1: "<B", 2: "<H", 4: "<I", 8: "<Q"}


def pack(vals, size):
    return b"".join(struct.pack(PACK[size], v & ((1 << (8 * size)) - 1)) for v in vals)


class Case:
    def __init__(self, name, dialect, ids, title, ptx, params, expect, grid=(1, 1, 1), block=(32, 1, 1), files=None,
                 expect_trap=False, dynamic_shared=0, notes=""):
        self.name = name
        self.dialect = dialect
        self.ids = ids
        self.title = title
        self.ptx = ptx
        self.params = params
        self.expect = expect
        self.grid = grid
        self.block = block
        self.files = files or {}
        self.expect_trap = expect_trap
        self.dynamic_shared = dynamic_shared
        self.notes = notes


def comment_block(name, dialect, ids, title, lines):
    out = [
        "// Heddle PTX reference-interpreter conformance test: %s" % name,
        "// Generated by tools/gen_ptx_interp_tests.py (do not edit by hand).",
        "// Dialect: %s" % {"sm13": "PTX 1.4 / sm_13 (PTX 1.x semantics)", "sm75": "PTX 7.0 / sm_75 (modern semantics)"}[dialect],
        "// Checklist IDs: %s" % " ".join(ids),
        "// %s" % title,
        "//",
    ]
    for l in lines:
        out.append(("// " + l).rstrip())
    return "\n".join(out) + "\n"


def reg(k, kind, j):
    return "%%k%d%s%d" % (k, kind, j)


def tid_code(dialect):
    if dialect == "sm13":
        return "  cvt.u32.u16 %tix, %tid.x;\n"
    return "  mov.u32 %tix, %tid.x;\n"


def base_code(dialect, param):
    s = "  ld.param.u64 %%base, [%s];\n" % param
    if dialect == "sm75":
        s += "  cvta.to.global.u64 %base, %base;\n"
    return s


def ld_line(t, r, off):
    if t == "pred":
        raise AssertionError
    return "  ld.global.%s %s, [%%addr+%d];\n" % (t, r, off)


def build_forms_case(name, dialect, ids, title, forms, extra_lines=()):
    """Assemble forms into one kernel + manifest."""
    kname = name
    nthreads = max(len(f.vecs) for f in forms)
    block = max(32, (nthreads + 31) // 32 * 32)
    params = []
    expect = {}
    files = {}
    decls = ["  .reg .u32 %tix;", "  .reg .u64 %base, %addr, %off;", "  .reg .pred %skip;"]
    code = [tid_code(dialect)]
    doc = list(extra_lines)
    for k, f in enumerate(forms):
        n = len(f.vecs)
        nin, nout = len(f.ins), len(f.outs)
        osz = DTYPE_SIZE[f.out_dtype]
        for j, t in enumerate(f.ins):
            decls.append("  .reg .%s %s;" % (t, reg(k, "a", j)))
            if t == "pred":
                decls.append("  .reg .u32 %s;" % reg(k, "l", j))
        for j, t in enumerate(f.outs):
            decls.append("  .reg .%s %s;" % (t, reg(k, "d", j)))
            if t == "pred":
                decls.append("  .reg .u32 %s;" % reg(k, "s", j))
        for j, t in enumerate(f.temps):
            decls.append("  .reg .%s %s;" % (t, reg(k, "t", j)))
        subst = {}
        for j in range(nin):
            subst["a%d" % j] = reg(k, "a", j)
        for j in range(nout):
            subst["d%d" % j] = reg(k, "d", j)
        for j in range(len(f.temps)):
            subst["t%d" % j] = reg(k, "t", j)
        subst["k"] = str(k)
        body = f.body.format(**subst)
        c = []
        c.append("  // form %d: %s\n" % (k, f.title))
        c.append("  setp.ge.u32 %%skip, %%tix, %d;\n" % n)
        c.append("  @%%skip bra SKIP_%d;\n" % k)
        if nin:
            c.append(base_code(dialect, "in%d" % k))
            c.append("  mul.wide.u32 %%off, %%tix, %d;\n" % (8 * nin))
            c.append("  add.u64 %addr, %base, %off;\n")
            for j, t in enumerate(f.ins):
                if t == "pred":
                    c.append("  ld.global.u32 %s, [%%addr+%d];\n" % (reg(k, "l", j), 8 * j))
                    c.append("  setp.ne.u32 %s, %s, 0;\n" % (reg(k, "a", j), reg(k, "l", j)))
                else:
                    c.append(ld_line(t, reg(k, "a", j), 8 * j))
        for line in body.strip("\n").split("\n"):
            c.append("  " + line.strip() + "\n")
        c.append(base_code(dialect, "out%d" % k))
        c.append("  mul.wide.u32 %%off, %%tix, %d;\n" % (osz * nout))
        c.append("  add.u64 %addr, %base, %off;\n")
        for j, t in enumerate(f.outs):
            r = reg(k, "d", j)
            if t == "pred":
                c.append("  selp.u32 %s, 1, 0, %s;\n" % (reg(k, "s", j), r))
                c.append("  st.global.u32 [%%addr+%d], %s;\n" % (osz * j, reg(k, "s", j)))
            else:
                c.append("  st.global.%s [%%addr+%d], %s;\n" % (t, osz * j, r))
        c.append("SKIP_%d:\n" % k)
        code.append("".join(c))
        # Data.
        ins = []
        for v in f.vecs:
            assert len(v) == nin, (name, f.title, v)
            for x, t in zip(v, f.ins):
                ins.append(M(x, 64 if t == "pred" else width(t)))
        exp = []
        for v in f.vecs:
            r = f.ref(*v)
            assert len(r) == nout, (name, f.title, v, r)
            for x in r:
                exp.append(M(x, 8 * osz))
        if nin:
            files["in%d.bin" % k] = pack(ins, 8)
            params.append({"type": "buffer", "name": "in%d" % k, "dtype": "u64", "count": n * nin, "file": "in%d.bin" % k, "output": False})
        else:
            params.append({"type": "buffer", "name": "in%d" % k, "dtype": "u64", "count": 1, "output": False})
        params.append({"type": "buffer", "name": "out%d" % k, "dtype": f.out_dtype, "count": n * nout, "output": True})
        if f.check:
            files["expected_out%d.bin" % k] = pack(exp, osz)
            e = {"file": "expected_out%d.bin" % k, "dtype": f.out_dtype, "count": n * nout}
            if f.tol is not None:
                e["tolerance"] = f.tol
            expect["out%d" % k] = e
        # Documentation.
        doc.append("")
        doc.append("Form %d: %s   [in%d -> out%d, %d threads]" % (k, f.title, k, k, n))
        for i, l in enumerate(f.rule.strip().split("\n")):
            doc.append(("  expected: " if i == 0 else "            ") + l.strip())
        if f.tol is not None:
            doc.append("  compared with tolerance %s" % json.dumps(f.tol))
        if not f.check:
            doc.append("  (value unspecified by the spec: the form must run without a trap, its output is not compared)")
        shown = f.vecs if len(f.vecs) <= 48 else f.vecs[:48]
        for v in shown:
            r = f.ref(*v)
            ins_s = " ".join(hx(M(x, 64 if t == "pred" else width(t)), 1 if t == "pred" else width(t)) for x, t in zip(v, f.ins))
            out_s = " ".join(hx(M(x, width(t) if t != "pred" else 1), width(t) if t != "pred" else 1) for x, t in zip(r, f.outs))
            doc.append("  %s -> %s" % (ins_s, out_s if f.check else "(not compared)"))
        if len(f.vecs) > len(shown):
            doc.append("  ... %d more vectors (in%d.bin / expected_out%d.bin)" % (len(f.vecs) - len(shown), k, k))
    ptx = comment_block(name, dialect, ids, title, doc)
    ptx += "\n" + HEADER[dialect] + "\n"
    plist = ",\n".join("  .param .u64 %s" % p["name"] for p in params)
    ptx += "%s %s (\n%s\n)\n{\n" % (".visible .entry" if dialect == "sm75" else ".entry", kname, plist)
    ptx += "\n".join(decls) + "\n\n"
    ptx += "".join(code)
    ptx += "  exit;\n}\n"
    return Case(name, dialect, ids, title, ptx, params, expect, block=(block, 1, 1), files=files)


# Group registry: name -> function(dialect) -> (ids, title, forms) or Case.
GROUPS = []


def group(name, dialects=DIALECTS):
    def deco(fn):
        GROUPS.append((name, dialects, fn))
        return fn
    return deco


# =====================================================================================
# 6.1 Integer arithmetic
# =====================================================================================

def int_edges(t):
    n = width(t)
    e = [0, 1, 2, M(-1, n), M(-2, n), 1 << (n - 1), (1 << (n - 1)) - 1, (1 << (n - 1)) + 1, 0x55 << (n - 8), 3 << (n - 2)]
    return [M(x, n) for x in e]


def int_pairs(t, name, nrand=24):
    r = rng_for(name + t)
    e = int_edges(t)
    pairs = [(a, b) for a in e[:6] for b in e[:6]]
    pairs += [(e[6], 1), (e[5], M(-1, width(t))), (e[6], e[6]), (e[5], e[5])]
    pairs += [(r.getrandbits(width(t)), r.getrandbits(width(t))) for _ in range(nrand)]
    return pairs


@group("int_add_sub")
def g_int_add_sub(d):
    forms = []
    for op in ("add", "sub"):
        for t in ("u16", "s16", "u32", "s32", "u64", "s64"):
            n = width(t)
            f = (lambda a, b, n=n: [M(a + b, n)]) if op == "add" else (lambda a, b, n=n: [M(a - b, n)])
            forms.append(Form("%s.%s d, a, b" % (op, t), [t, t], [t], "%s.%s {d0}, {a0}, {a1};" % (op, t),
                              int_pairs(t, op), f, "(a %s b) mod 2^%d, Python integers" % ("+" if op == "add" else "-", n),
                              out_dtype="u64" if n == 64 else "u32"))
    for op in ("add", "sub"):
        def f(a, b, op=op):
            x = SX(a, 32) + SX(b, 32) if op == "add" else SX(a, 32) - SX(b, 32)
            return [M(max(-(1 << 31), min((1 << 31) - 1, x)), 32)]
        forms.append(Form("%s.sat.s32 d, a, b" % op, ["s32", "s32"], ["s32"], "%s.sat.s32 {d0}, {a0}, {a1};" % op,
                          int_pairs("s32", op + "sat") + [(0x7FFFFFFF, 1), (0x80000000, 0xFFFFFFFF), (0x7FFFFFFF, 0x80000000), (0x80000000, 0x7FFFFFFF)],
                          f, "signed a %s b computed exactly, clamped to [-2^31, 2^31-1]" % ("+" if op == "add" else "-")))
    # Immediate operands and a .b32 register read by add.s32 (TC-03: reinterpreted).
    forms.append(Form("add.s32 d, a(.b32 reg), -5 (immediate)", ["b32"], ["s32"], "add.s32 {d0}, {a0}, -5;",
                      [(0,), (5,), (0xFFFFFFFF,), (0x80000004,)], lambda a: [M(a - 5, 32)], "(a - 5) mod 2^32"))
    forms.append(Form("sub.u16 d, 7 (immediate), a", ["u16"], ["u16"], "sub.u16 {d0}, 7, {a0};",
                      [(0,), (7,), (8,), (0xFFFF,)], lambda a: [M(7 - a, 16)], "(7 - a) mod 2^16"))
    return ["INT-ADD", "INT-SUB", "TC-03"], "add/sub on every integer type, .sat.s32, immediates", forms


@group("int_carry")
def g_int_carry(d):
    forms = []
    r = rng_for("carry")
    words = lambda x: [M(x >> (32 * i), 32) for i in range(4)]
    big = [0, 1, (1 << 128) - 1, (1 << 96) - 1, (1 << 32) - 1, (1 << 64), 0xFFFFFFFF00000000FFFFFFFF00000000]
    vecs = []
    for a in big:
        for b in big[:4]:
            vecs.append(tuple(words(a) + words(b)))
    for _ in range(20):
        vecs.append(tuple(words(r.getrandbits(128)) + words(r.getrandbits(128))))

    def add128(*v):
        a = sum(x << (32 * i) for i, x in enumerate(v[:4]))
        b = sum(x << (32 * i) for i, x in enumerate(v[4:]))
        s = a + b
        return words(s) + [s >> 128]

    def sub128(*v):
        a = sum(x << (32 * i) for i, x in enumerate(v[:4]))
        b = sum(x << (32 * i) for i, x in enumerate(v[4:]))
        s = a - b
        return words(M(s, 128)) + [0xFFFFFFFF if a < b else 0]

    forms.append(Form("128-bit add: add.cc.u32, addc.cc.u32 x3, addc.u32 (carry out)", ["u32"] * 8, ["u32"] * 5, """
        add.cc.u32 {d0}, {a0}, {a4};
        addc.cc.u32 {d1}, {a1}, {a5};
        addc.cc.u32 {d2}, {a2}, {a6};
        addc.cc.u32 {d3}, {a3}, {a7};
        addc.u32 {d4}, 0, 0;""", vecs, add128,
        "128-bit a + b with Python integers; d0..d3 = words of the sum, d4 = carry out of bit 127 (0/1)"))
    forms.append(Form("128-bit sub: sub.cc.u32, subc.cc.u32 x3, subc.u32 (borrow out)", ["u32"] * 8, ["u32"] * 5, """
        sub.cc.u32 {d0}, {a0}, {a4};
        subc.cc.u32 {d1}, {a1}, {a5};
        subc.cc.u32 {d2}, {a2}, {a6};
        subc.cc.u32 {d3}, {a3}, {a7};
        subc.u32 {d4}, 0, 0;""", vecs, sub128,
        "128-bit (a - b) mod 2^128 with Python integers; d4 = 0 - 0 - borrow = 0xffffffff iff a < b"))
    # 64-bit chains with the .s32 spelling.
    v64 = [(M(x, 32), M(x >> 32, 32), M(y, 32), M(y >> 32, 32)) for x, y in
           [(0, 0), (0xFFFFFFFF, 1), (0xFFFFFFFFFFFFFFFF, 1), (0x7FFFFFFFFFFFFFFF, 0x7FFFFFFFFFFFFFFF), (0x8000000000000000, 0xFFFFFFFF)]
           + [(r.getrandbits(64), r.getrandbits(64)) for _ in range(8)]]

    def add64(a0, a1, b0, b1):
        s = (a0 | a1 << 32) + (b0 | b1 << 32)
        return [M(s, 32), M(s >> 32, 32), s >> 64]

    def sub64(a0, a1, b0, b1):
        a, b = a0 | a1 << 32, b0 | b1 << 32
        s = M(a - b, 64)
        return [M(s, 32), M(s >> 32, 32), 0xFFFFFFFF if a < b else 0]
    forms.append(Form("64-bit add with add.cc.s32 / addc.cc.s32 / addc.s32", ["s32"] * 4, ["s32"] * 3, """
        add.cc.s32 {d0}, {a0}, {a2};
        addc.cc.s32 {d1}, {a1}, {a3};
        addc.s32 {d2}, 0, 0;""", v64, add64, "64-bit unsigned sum of the word pairs; carry = unsigned carry out of bit 63"))
    forms.append(Form("64-bit sub with sub.cc.s32 / subc.cc.s32 / subc.s32", ["s32"] * 4, ["s32"] * 3, """
        sub.cc.s32 {d0}, {a0}, {a2};
        subc.cc.s32 {d1}, {a1}, {a3};
        subc.s32 {d2}, 0, 0;""", v64, sub64, "64-bit (a - b) mod 2^64 of the word pairs; d2 = -borrow"))
    # Carry-in edge cases: CF set explicitly, then addc.cc / subc.cc.
    edge = [(a, b, c) for a in (0, 1, 0xFFFFFFFF, 0x80000000) for b in (0, 0xFFFFFFFF, 0x7FFFFFFF) for c in (0, 1)]

    def addc(a, b, c):
        s = a + b + c
        return [M(s, 32), s >> 32]

    def subc(a, b, c):
        s = a - (b + c)
        return [M(s, 32), 0xFFFFFFFF if a < b + c else 0]
    forms.append(Form("addc.cc.u32 with carry in (CF from add.cc.u32 t, cin, 0xffffffff)", ["u32", "u32", "u32"], ["u32", "u32"], """
        add.cc.u32 {t0}, {a2}, 0xffffffff;
        addc.cc.u32 {d0}, {a0}, {a1};
        addc.u32 {d1}, 0, 0;""", edge, addc,
        "CF = cin (carry of cin + 0xffffffff); d0 = (a + b + cin) mod 2^32; d1 = carry out of the full 33-bit sum\n"
        "(b = 0xffffffff with cin = 1 carries although b + cin wraps to 0)", temps=["u32"]))
    forms.append(Form("subc.cc.u32 with borrow in (CF from sub.cc.u32 t, 0, cin)", ["u32", "u32", "u32"], ["u32", "u32"], """
        sub.cc.u32 {t0}, 0, {a2};
        subc.cc.u32 {d0}, {a0}, {a1};
        subc.u32 {d1}, 0, 0;""", edge, subc,
        "CF = cin (borrow of 0 - cin); d0 = (a - (b + cin)) mod 2^32; d1 = -(a < b + cin computed without wrap)", temps=["u32"]))
    # CC persistence: instructions without .cc leave CF alone (INT-CC).
    forms.append(Form("CF survives add.u32/mul.lo.u32/addc.u32 without .cc between producer and consumer", ["u32", "u32", "u32"], ["u32", "u32", "u32"], """
        add.cc.u32 {t0}, {a2}, 0xffffffff;
        add.u32 {t1}, {a0}, 0xffffffff;
        mul.lo.u32 {t1}, {t1}, {a1};
        addc.u32 {d0}, {a0}, {a1};
        addc.u32 {d1}, {t1}, 0;
        addc.u32 {d2}, 0, 0;""", edge, lambda a, b, c: [M(a + b + c, 32), M((M(a + 0xFFFFFFFF, 32) * b) + c, 32), c],
        "CF = cin, then add.u32 / mul.lo.u32 (no .cc) and addc.u32 (no .cc) must not change it:\n"
        "d0 = a + b + cin, d1 = ((a - 1) * b mod 2^32) + cin, d2 = cin", temps=["u32", "u32"]))
    return ["INT-ADDCC", "INT-ADDC", "INT-SUBCC", "INT-SUBC", "INT-CC"], "carry chains (add.cc/addc/sub.cc/subc)", forms


@group("int_mul")
def g_int_mul(d):
    forms = []
    for t in ("u16", "s16", "u32", "s32", "u64", "s64"):
        n = width(t)
        dt = "u64" if n == 64 else "u32"
        for mode in ("lo", "hi"):
            def f(a, b, t=t, n=n, mode=mode):
                p = val(a, t) * val(b, t)
                return [M(p, n) if mode == "lo" else M(p >> n, n)]
            forms.append(Form("mul.%s.%s" % (mode, t), [t, t], [t], "mul.%s.%s {d0}, {a0}, {a1};" % (mode, t), int_pairs(t, "mul" + mode), f,
                              "exact %s product t = a*b (Python integers); d = t<%s>" % ("signed" if signed(t) else "unsigned",
                                                                                       "%d..0" % (n - 1) if mode == "lo" else "%d..%d" % (2 * n - 1, n)),
                              out_dtype=dt))
        if n <= 32:
            wt = {"u16": "u32", "s16": "s32", "u32": "u64", "s32": "s64"}[t]
            forms.append(Form("mul.wide.%s" % t, [t, t], [wt], "mul.wide.%s {d0}, {a0}, {a1};" % t, int_pairs(t, "mulwide"),
                              lambda a, b, t=t, n=n: [M(val(a, t) * val(b, t), 2 * n)],
                              "exact product, all %d bits" % (2 * n), out_dtype="u64" if n == 32 else "u32"))
    forms.append(Form("mul.hi.s32 -1, 1 vs mul.hi.u32 0xffffffff, 1 (the checklist's example)", [], ["s32", "u32"],
                      "mul.hi.s32 {d0}, -1, 1;\nmul.hi.u32 {d1}, 0xffffffff, 1;", [()], lambda: [0xFFFFFFFF, 0],
                      "signed: -1 * 1 = -1, high word 0xffffffff; unsigned: 0xffffffff * 1 < 2^32, high word 0"))
    return ["INT-MUL"], "mul .lo/.hi/.wide on every type", forms


def triples(t, name, nrand=20):
    r = rng_for(name + t)
    e = int_edges(t)
    n = width(t)
    v = [(a, b, c) for a in e[:5] for b in e[:4] for c in (0, 1, M(-1, n), 1 << (n - 1))]
    v += [(r.getrandbits(n), r.getrandbits(n), r.getrandbits(n)) for _ in range(nrand)]
    return v


@group("int_mad")
def g_int_mad(d):
    forms = []
    for t in ("u16", "s16", "u32", "s32", "u64", "s64"):
        n = width(t)
        dt = "u64" if n == 64 else "u32"
        for mode in ("lo", "hi"):
            def f(a, b, c, t=t, n=n, mode=mode):
                p = val(a, t) * val(b, t)
                h = M(p, n) if mode == "lo" else M(p >> n, n)
                return [M(h + c, n)]
            forms.append(Form("mad.%s.%s" % (mode, t), [t, t, t], [t], "mad.%s.%s {d0}, {a0}, {a1}, {a2};" % (mode, t), triples(t, "mad" + mode), f,
                              "t = a*b exactly (%s); d = (t<%s> + c) mod 2^%d: c is added to the %s half only, no carry from the other half"
                              % ("signed" if signed(t) else "unsigned", "%d..0" % (n - 1) if mode == "lo" else "%d..%d" % (2 * n - 1, n), n, mode),
                              out_dtype=dt))
        if n <= 32:
            wt = {"u16": "u32", "s16": "s32", "u32": "u64", "s32": "s64"}[t]
            r = rng_for("madwide" + t)
            vecs = [(a, b, c) for a in int_edges(t)[:5] for b in int_edges(t)[:4] for c in (0, 1, M(-1, 2 * n), 1 << (2 * n - 1))]
            vecs += [(r.getrandbits(n), r.getrandbits(n), r.getrandbits(2 * n)) for _ in range(16)]
            forms.append(Form("mad.wide.%s (c and d are %d-bit)" % (t, 2 * n), [t, t, wt], [wt], "mad.wide.%s {d0}, {a0}, {a1}, {a2};" % t, vecs,
                              lambda a, b, c, t=t, n=n: [M(val(a, t) * val(b, t) + c, 2 * n)],
                              "(exact product + c) mod 2^%d" % (2 * n), out_dtype="u64" if n == 32 else "u32"))

    def hisat(a, b, c):
        h = SX((SX(a, 32) * SX(b, 32)) >> 32, 32)
        return [M(max(-(1 << 31), min((1 << 31) - 1, h + SX(c, 32))), 32)]
    vecs = triples("s32", "madhisat") + [(0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF), (0x80000000, 0x80000000, 0x7FFFFFFF),
                                         (0x80000000, 0x7FFFFFFF, 0x80000000), (0xFFFFFFFF, 0xFFFFFFFF, 0x7FFFFFFF)]
    forms.append(Form("mad.hi.sat.s32", ["s32"] * 3, ["s32"], "mad.hi.sat.s32 {d0}, {a0}, {a1}, {a2};", vecs, hisat,
                      "signed high word of a*b plus c, exactly, clamped to [-2^31, 2^31-1]"))
    forms.append(Form("mad.hi.u32 0xffffffff, 0xffffffff, 0xffffffff (the checklist's example)", ["u32"] * 3, ["u32"],
                      "mad.hi.u32 {d0}, {a0}, {a1}, {a2};", [(0xFFFFFFFF,) * 3], lambda a, b, c: [0xFFFFFFFD],
                      "t = 0xfffffffe00000001; t<63..32> + c = 0xfffffffe + 0xffffffff = 0xfffffffd (not the high half of t + c)"))
    return ["INT-MAD"], "mad .lo/.hi/.wide on every type, mad.hi.sat.s32", forms


@group("int_mul24_mad24")
def g_int_24(d):
    forms = []
    r = rng_for("mul24")
    u24 = [0, 1, 2, 0xFFFFFF, 0x800000, 0x7FFFFF, 0x123456] + [r.getrandbits(24) for _ in range(5)]
    s24 = [M(x, 32) for x in (0, 1, -1, -2, 0x7FFFFF, -0x800000, 0x123456, -0x123456)] + [M(r.randrange(-(1 << 23), 1 << 23), 32) for _ in range(4)]

    def p24(a, b, s):
        if s:
            return SX(a, 24) * SX(b, 24)
        return M(a, 24) * M(b, 24)
    for t, vals in (("u32", u24), ("s32", s24)):
        s = t == "s32"
        sp = "signed" if s else None
        pairs = [(a, b) for a in vals for b in vals[:8]]
        forms.append(Form("mul24.lo.%s (24-bit operands)" % t, [t, t], [t], "mul24.lo.%s {d0}, {a0}, {a1};" % t, pairs,
                          lambda a, b, s=s: [M(p24(a, b, s), 32)], "t = 48-bit product of the 24-bit values; d = t<31..0>", split=sp))
        forms.append(Form("mul24.hi.%s (24-bit operands)" % t, [t, t], [t], "mul24.hi.%s {d0}, {a0}, {a1};" % t, pairs,
                          lambda a, b, s=s: [M(p24(a, b, s) >> 16, 32)], "t = 48-bit product; d = t<47..16> (NOT bits 63..32)", split=sp))
        trip = [(a, b, c) for a in vals[:6] for b in vals[:5] for c in (0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF)]
        forms.append(Form("mad24.lo.%s" % t, [t, t, t], [t], "mad24.lo.%s {d0}, {a0}, {a1}, {a2};" % t, trip,
                          lambda a, b, c, s=s: [M(p24(a, b, s) + c, 32)], "(t<31..0> + c) mod 2^32", split=sp))
        forms.append(Form("mad24.hi.%s" % t, [t, t, t], [t], "mad24.hi.%s {d0}, {a0}, {a1}, {a2};" % t, trip,
                          lambda a, b, c, s=s: [M((p24(a, b, s) >> 16) + c, 32)], "(t<47..16> + c) mod 2^32", split=sp))
    trip = [(a, b, c) for a in s24[:6] for b in s24[:6] for c in (0, 0x7FFFFFFF, 0x80000000, 0x7FFF0000, 0x80010000)]
    forms.append(Form("mad24.hi.sat.s32", ["s32"] * 3, ["s32"], "mad24.hi.sat.s32 {d0}, {a0}, {a1}, {a2};", trip,
                      lambda a, b, c: [M(max(-(1 << 31), min((1 << 31) - 1, SX(M(p24(a, b, True) >> 16, 32), 32) + SX(c, 32))), 32)],
                      "signed t<47..16> (as s32) + c, exactly, clamped to [-2^31, 2^31-1]", split="signed"))
    forms.append(Form("mul24.hi.u32 0xffffff * 0xffffff (the checklist's example)", [], ["u32", "u32"],
                      "mul24.hi.u32 {d0}, 0xffffff, 0xffffff;\nmul24.lo.u32 {d1}, 0xffffff, 0xffffff;", [()],
                      lambda: [0xFFFFFE00, 0xFE000001], "0xffffff^2 = 0xfffffe000001: .hi = 0xfffffe00, .lo = 0xfe000001"))
    # Out-of-range operand bits (checklist: use the low 24 bits, sign from bit 23), tested separately.
    oor = [(0xFF000003, 0x00000005), (0x12FFFFFF, 0x00000002), (0x80000001, 0xFF000001), (0xFFFFFFFF, 0x7F000001)]
    forms.append(Form("mul24.lo.u32 / mul24.lo.s32 with bits 31..24 set (only the low 24 bits count)", ["u32", "u32"], ["u32", "u32"],
                      "mul24.lo.u32 {d0}, {a0}, {a1};\nmul24.lo.s32 {d1}, {a0}, {a1};", oor,
                      lambda a, b: [M(p24(a, b, False), 32), M(p24(a, b, True), 32)],
                      "operands reduced to their low 24 bits (INT-MUL24 recommendation: unsigned, or signed from bit 23)", split="signed"))
    return ["INT-MUL24", "INT-MAD24"], "mul24/mad24 .lo/.hi (.hi = bits 47..16), mad24.hi.sat.s32", forms


@group("int_sad_div_rem")
def g_int_sad_div_rem(d):
    forms = []
    for t in ("u16", "s16", "u32", "s32", "u64", "s64"):
        n = width(t)
        dt = "u64" if n == 64 else "u32"

        def sad(a, b, c, t=t, n=n):
            x, y = val(a, t), val(b, t)
            return [M(c + (y - x if x < y else x - y), n)]
        forms.append(Form("sad.%s" % t, [t, t, t], [t], "sad.%s {d0}, {a0}, {a1}, {a2};" % t, triples(t, "sad"), sad,
                          "c + |a - b| with a %s compare, mod 2^%d" % ("signed" if signed(t) else "unsigned", n), out_dtype=dt))
    for t in ("u16", "s16", "u32", "s32", "u64", "s64"):
        n = width(t)
        dt = "u64" if n == 64 else "u32"
        r = rng_for("div" + t)
        neg_ok = d == "sm75"  # signed division/remainder of negative operands: C semantics (PTX 2.0+); 1.4 leaves rem machine-dependent
        hi = (1 << (n - 1)) - 1 if signed(t) else (1 << n) - 1
        vals = [0, 1, 2, 3, 7, 100, hi, hi - 1, hi // 3]
        pairs = [(a, b) for a in vals for b in vals if b != 0]
        pairs += [(r.randrange(0, hi + 1), r.randrange(1, hi + 1)) for _ in range(16)]
        pairs += [(r.randrange(0, hi + 1), r.randrange(1, 1 << 12)) for _ in range(8)]
        if signed(t) and neg_ok:
            for _ in range(16):
                a = r.randrange(-(1 << (n - 1)) + 1, 1 << (n - 1))
                b = r.randrange(-(1 << (n - 1)) + 1, 1 << (n - 1)) >> r.randrange(0, n - 2)
                if b:
                    pairs.append((M(a, n), M(b, n)))
            pairs += [(M(-7, n), 2), (7, M(-2, n)), (M(-7, n), M(-2, n)), (M(-(1 << (n - 1)), n), 3)]

        def tdiv(x, y):
            q = abs(x) // abs(y)
            return q if (x < 0) == (y < 0) else -q

        def div(a, b, t=t, n=n):
            x, y = val(a, t), val(b, t)
            q = tdiv(x, y)
            return [M(q, n), M(x - q * y, n)]
        forms.append(Form("div.%s / rem.%s" % (t, t), [t, t], [t, t], "div.%s {d0}, {a0}, {a1};\nrem.%s {d1}, {a0}, {a1};" % (t, t), pairs, div,
                          "quotient truncated toward zero and remainder a - q*b, Python integers"
                          + ("" if not signed(t) else (" (negative operands included: C semantics, PTX 2.0+)" if neg_ok else " (non-negative operands only: 1.4 leaves negative rem machine-dependent)")),
                          out_dtype=dt))
    # Division by zero must not trap; its value is unspecified (not compared).
    forms.append(Form("div.u32 / rem.u32 / div.s32 / div.u64 by zero (no trap; value unspecified)", ["u32", "u64"], ["u32", "u32", "s32", "u64"],
                      "div.u32 {d0}, {a0}, 0;\nrem.u32 {d1}, {a0}, 0;\ndiv.s32 {d2}, {a0}, 0;\ndiv.u64 {d3}, {a1}, 0;",
                      [(5, 5), (0, 0)], lambda a, b: [0, 0, 0, 0], "unspecified", out_dtype="u64", check=False))
    return ["INT-SAD", "INT-DIV", "INT-REM"], "sad, div, rem on every type", forms


@group("int_abs_neg_min_max")
def g_int_absneg(d):
    forms = []
    for t in ("s16", "s32", "s64"):
        n = width(t)
        dt = "u64" if n == 64 else "u32"
        r = rng_for("abs" + t)
        vals = [0, 1, M(-1, n), (1 << (n - 1)) - 1, M(-((1 << (n - 1)) - 1), n), 1 << (n - 1)] + [r.getrandbits(n) for _ in range(10)]
        forms.append(Form("abs.%s / neg.%s" % (t, t), [t], [t, t], "abs.%s {d0}, {a0};\nneg.%s {d1}, {a0};" % (t, t),
                          [(v,) for v in vals if v != 1 << (n - 1)],
                          lambda a, t=t, n=n: [M(abs(val(a, t)), n), M(-val(a, t), n)],
                          "|a| and -a (INT_MIN left out: abs(INT_MIN) is unspecified [?])", out_dtype=dt))
        forms.append(Form("neg.%s INT_MIN (wraps)" % t, [t], [t], "neg.%s {d0}, {a0};" % t, [(1 << (n - 1),)],
                          lambda a, n=n: [1 << (n - 1)], "-INT_MIN mod 2^%d = INT_MIN" % n, out_dtype=dt))
    for t in ("u16", "s16", "u32", "s32", "u64", "s64"):
        n = width(t)
        dt = "u64" if n == 64 else "u32"
        forms.append(Form("min.%s / max.%s" % (t, t), [t, t], [t, t], "min.%s {d0}, {a0}, {a1};\nmax.%s {d1}, {a0}, {a1};" % (t, t),
                          int_pairs(t, "minmax"), lambda a, b, t=t: [a if val(a, t) < val(b, t) else b, a if val(a, t) > val(b, t) else b],
                          "%s compare of a and b" % ("signed" if signed(t) else "unsigned"), out_dtype=dt))
    forms.append(Form("min.s32(-1, 1) vs min.u32(0xffffffff, 1) (the checklist's example)", [], ["s32", "u32"],
                      "min.s32 {d0}, -1, 1;\nmin.u32 {d1}, 0xffffffff, 1;", [()], lambda: [0xFFFFFFFF, 1], "-1 (signed) and 1 (unsigned)"))
    return ["INT-ABS", "INT-NEG", "INT-MIN", "INT-MAX"], "abs/neg (signed only), min/max signed vs unsigned", forms


# =====================================================================================
# 6.4 Logic and shift
# =====================================================================================

@group("logic_bitwise")
def g_logic(d):
    forms = []
    for t in ("b16", "b32", "b64"):
        n = width(t)
        dt = "u64" if n == 64 else "u32"
        forms.append(Form("and/or/xor/not/cnot.%s" % t, [t, t], [t] * 6, """
            and.{t} {{d0}}, {{a0}}, {{a1}};
            or.{t} {{d1}}, {{a0}}, {{a1}};
            xor.{t} {{d2}}, {{a0}}, {{a1}};
            not.{t} {{d3}}, {{a0}};
            cnot.{t} {{d4}}, {{a0}};
            cnot.{t} {{d5}}, {{a1}};""".format(t=t), int_pairs(t, "logic", 12),
            lambda a, b, n=n: [a & b, a | b, a ^ b, M(~a, n), int(a == 0), int(b == 0)],
            "bitwise a&b, a|b, a^b, ~a on %d bits; cnot(x) = 1 if x == 0 else 0 (1, not all-ones)" % n, out_dtype=dt))
    pv = [(a, b) for a in (0, 1) for b in (0, 1)]
    forms.append(Form("and/or/xor/not.pred", ["pred", "pred"], ["pred"] * 5, """
        and.pred {d0}, {a0}, {a1};
        or.pred {d1}, {a0}, {a1};
        xor.pred {d2}, {a0}, {a1};
        not.pred {d3}, {a0};
        mov.pred {d4}, {a1};""", pv, lambda a, b: [a & b, a | b, a ^ b, 1 - a, b], "logical and/or/xor/not of the predicates; mov.pred copies"))
    forms.append(Form("and.b32 with an .f32 register and an immediate (and.b32 sign, fpvalue, 0x80000000)", ["f32"], ["b32", "b32"],
                      "and.b32 {d0}, {a0}, 0x80000000;\nor.b32 {d1}, {a0}, 0x00010001;",
                      [(F(1.5),), (F(-2.0),), (0x80000000,), (0xFFC00001,)], lambda a: [a & 0x80000000, a | 0x00010001],
                      "raw bits of the f32 register (T17: .b32 accepts any 32-bit operand)"))
    return ["LS-AND", "LS-OR", "LS-XOR", "LS-NOT", "LS-CNOT", "PRED-01"], "bitwise logic on .b16/.b32/.b64 and .pred", forms


SHIFT_COUNTS = [0, 1, 2, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]


@group("logic_shift")
def g_shift(d):
    forms = []
    vals = {16: [0x8001, 0x7FFF, 0xFFFF, 0x1234], 32: [0x80000001, 0x7FFFFFFF, 0xFFFFFFFF, 0x12345678],
            64: [0x8000000000000001, 0x7FFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF, 0x123456789ABCDEF0]}
    for n in (16, 32, 64):
        dt = "u64" if n == 64 else "u32"
        vecs = [(a, c) for a in vals[n] for c in SHIFT_COUNTS]

        def f(a, c, n=n):
            sh = min(c, n)
            shl = M(a << sh, n) if sh < n else 0
            shr_u = a >> sh if sh < n else 0
            shr_s = M(SX(a, n) >> min(c, n - 1), n)
            return [shl, shr_u, shr_u, shr_s]
        forms.append(Form("shl.b%d / shr.b%d / shr.u%d / shr.s%d by a .u32 register count" % (n, n, n, n), ["b%d" % n, "u32"], ["b%d" % n, "b%d" % n, "u%d" % n, "s%d" % n], """
            shl.b{n} {{d0}}, {{a0}}, {{a1}};
            shr.b{n} {{d1}}, {{a0}}, {{a1}};
            shr.u{n} {{d2}}, {{a0}}, {{a1}};
            shr.s{n} {{d3}}, {{a0}}, {{a1}};""".format(n=n), vecs, f,
            "the count is an unsigned 32-bit value clamped at %d: shl and shr.b/.u give 0 for counts >= %d, shr.s gives\n"
            "all sign bits; never count mod %d (0xffffffff is a huge count, not -1)" % (n, n, n), out_dtype=dt))
    forms.append(Form("shifts by immediates", ["b32", "b64"], ["b32", "b32", "s32", "b64", "b64"], """
        shl.b32 {d0}, {a0}, 4;
        shr.u32 {d1}, {a0}, 31;
        shr.s32 {d2}, {a0}, 40;
        shl.b64 {d3}, {a1}, 63;
        shr.s64 {d4}, {a1}, 64;""", [(0x80000001, 0x8000000000000003), (0x7FFFFFFF, 0x0000000000000001), (0x12345678, 0x7FFFFFFFFFFFFFFF)],
        lambda a, b: [M(a << 4, 32), a >> 31, M(SX(a, 32) >> 31, 32), M(b << 63, 64), M(SX(b, 64) >> 63, 64)],
        "as above with immediate counts (40 on .s32 and 64 on .s64 clamp to all sign bits)", out_dtype="u64"))
    return ["LS-SHL", "LS-SHR"], "shl/shr with count clamping, .s/.u/.b fill", forms


# =====================================================================================
# 6.3 Comparison and selection
# =====================================================================================

INT_CMP = {"s": ["eq", "ne", "lt", "le", "gt", "ge"], "u": ["eq", "ne", "lo", "ls", "hi", "hs", "lt", "le", "gt", "ge"], "b": ["eq", "ne"]}
FLT_CMP = ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]


def int_cmp(op, x, y):
    return {"eq": x == y, "ne": x != y, "lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y,
            "lo": x < y, "ls": x <= y, "hi": x > y, "hs": x >= y}[op]


@group("cmp_setp_int")
def g_setp_int(d):
    forms = []
    for t in ("s16", "s32", "s64", "u16", "u32", "u64", "b16", "b32", "b64"):
        ops = INT_CMP[t[0]]
        n = width(t)
        r = rng_for("setp" + t)
        e = [0, 1, M(-1, n), 1 << (n - 1), (1 << (n - 1)) - 1, 2]
        vecs = [(a, b) for a in e for b in e] + [(r.getrandbits(n), r.getrandbits(n)) for _ in range(8)]
        body = "\n".join("setp.%s.%s {d%d}, {a0}, {a1};" % (op, t, i) for i, op in enumerate(ops))
        forms.append(Form("setp.{%s}.%s" % (",".join(ops), t), [t, t], ["pred"] * len(ops), body, vecs,
                          lambda a, b, t=t, ops=ops: [int(int_cmp(op, val(a, t), val(b, t))) for op in ops],
                          "%s comparison of a and b (lo/ls/hi/hs = lt/le/gt/ge unsigned); predicate stored as 0/1" %
                          {"s": "signed", "u": "unsigned", "b": "bit-pattern (eq/ne only)"}[t[0]]))
    # p|q with a boolean combine and a (negated) predicate c: p = t BOP c, q = !t BOP c.
    vecs = [(a, b, c) for a, b in ((1, 2), (2, 1), (M(-1, 32), 1), (5, 5)) for c in (0, 1)]

    def pq(a, b, c):
        t = SX(a, 32) < SX(b, 32)
        out = []
        for bop in ("and", "or", "xor"):
            for cc in (c, 1 - c):
                f = {"and": lambda x, y: x and y, "or": lambda x, y: x or y, "xor": lambda x, y: x != y}[bop]
                out += [int(f(t, bool(cc))), int(f(not t, bool(cc)))]
        return out
    body = []
    k = 0
    for bop in ("and", "or", "xor"):
        for neg in ("", "!"):
            body.append("setp.lt.%s.s32 {d%d}|{d%d}, {a0}, {a1}, %s{a2};" % (bop, k, k + 1, neg))
            k += 2
    forms.append(Form("setp.lt.{and,or,xor}.s32 p|q, a, b, [!]c", ["s32", "s32", "pred"], ["pred"] * 12, "\n".join(body), vecs, pq,
                      "t = a < b (signed); p = t BOP c', q = (!t) BOP c' with c' = c or !c; the complement applies to t only"))
    forms.append(Form("setp.gt.u32 p|q without a boolean op; setp with an immediate operand", ["u32"], ["pred", "pred", "pred"],
                      "setp.gt.u32 {d0}|{d1}, {a0}, 7;\nsetp.ne.b32 {d2}, {a0}, 0;", [(0,), (7,), (8,), (0xFFFFFFFF,)],
                      lambda a: [int(a > 7), int(not a > 7), int(a != 0)], "p = a > 7, q = !p; a != 0"))
    return ["CS-SETP", "CMP-01", "CMP-02", "CMP-03"], "setp on integer types: every comparison, p|q, boolean combine", forms


def fpairs(specials, rndvals):
    return [(a, b) for a in specials for b in specials] + rndvals


@group("cmp_setp_float")
def g_setp_float(d):
    forms = []
    r = rng_for("setpf")
    s32 = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x00000001, 0x80000001, 0x00000002, 0x007FFFFF,
           0x00800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x3FC00000]
    vecs = fpairs(s32, [(F(r.uniform(-4, 4)), F(r.uniform(-4, 4))) for _ in range(8)])
    legacy = d == "sm13"
    ops = FLT_CMP
    body = "\n".join("setp.%s.f32 {d%d}, {a0}, {a1};" % (op, i) for i, op in enumerate(ops))
    forms.append(Form("setp.<all 14>.f32" + (" (sm_1x: subnormals flushed)" if legacy else " (no .ftz: subnormals compared exactly)"),
                      ["f32", "f32"], ["pred"] * 14, body, vecs,
                      lambda a, b: [int(compare(op, a, b, F32, ftz=legacy)) for op in ops],
                      "exact comparison of the decoded values; ordered ops false and unordered ops true if either is NaN;\n"
                      "num/nan test for NaN; -0 == +0" + ("; subnormal inputs flushed to a signed zero first (CS-G, FPE-03)" if legacy else "")))
    body = "\n".join("setp.%s.ftz.f32 {d%d}, {a0}, {a1};" % (op, i) for i, op in enumerate(ops))
    forms.append(Form("setp.<all 14>.ftz.f32", ["f32", "f32"], ["pred"] * 14, body, vecs,
                      lambda a, b: [int(compare(op, a, b, F32, ftz=True)) for op in ops],
                      "as above with subnormal inputs flushed to a zero of the same sign (so two subnormals compare equal)"))
    s64 = [0, 0x8000000000000000, 0x3FF0000000000000, 0xBFF0000000000000, 0x0000000000000001, 0x8000000000000001, 0x0000000000000002,
           0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0x3FF0000000000001]
    vecs = fpairs(s64, [(D(r.uniform(-4, 4)), D(r.uniform(-4, 4))) for _ in range(8)])
    body = "\n".join("setp.%s.f64 {d%d}, {a0}, {a1};" % (op, i) for i, op in enumerate(ops))
    forms.append(Form("setp.<all 14>.f64 (subnormals kept)", ["f64", "f64"], ["pred"] * 14, body, vecs,
                      lambda a, b: [int(compare(op, a, b, F64)) for op in ops], "exact comparison; f64 subnormals are compared as values"))
    vecs = [(a, b, c) for a, b in ((F(1.0), F(2.0)), (F(2.0), F(1.0)), (0x7FC00000, F(1.0)), (F(0.0), 0x80000000)) for c in (0, 1)]

    def pq(a, b, c):
        t = compare("ne", a, b, F32)
        return [int(t and c), int((not t) and c), int(t or (not c)), int((not t) or (not c))]
    forms.append(Form("setp.ne.and.f32 p|q, a, b, c / setp.ne.or.f32 p|q, a, b, !c (NaN: ne is false)", ["f32", "f32", "pred"], ["pred"] * 4,
                      "setp.ne.and.f32 {d0}|{d1}, {a0}, {a1}, {a2};\nsetp.ne.or.f32 {d2}|{d3}, {a0}, {a1}, !{a2};", vecs, pq,
                      "t = a ne b (false when either is NaN); p = t and c, q = !t and c; then t or !c, !t or !c"))
    return ["CS-SETP", "CS-G", "CMP-04", "CMP-05", "CMP-06", "CMP-08"], "setp on .f32/.f64: ordered, unordered, num/nan, signed zeros, subnormals", forms


@group("cmp_set")
def g_set(d):
    forms = []
    legacy = d == "sm13"
    TRUE = {"u32": 0xFFFFFFFF, "s32": 0xFFFFFFFF, "f32": 0x3F800000}
    r = rng_for("set")
    # integer sources
    for dt in ("u32", "s32", "f32"):
        for st, op in (("s32", "lt"), ("u32", "lo"), ("s16", "ge"), ("u64", "hi"), ("b16", "ne"), ("s64", "le")):
            n = width(st)
            e = [0, 1, M(-1, n), 1 << (n - 1), 5]
            vecs = [(a, b) for a in e for b in e]
            forms.append(Form("set.%s.%s.%s" % (op, dt, st), [st, st], [dt], "set.%s.%s.%s {d0}, {a0}, {a1};" % (op, dt, st), vecs,
                              lambda a, b, st=st, op=op, dt=dt: [TRUE[dt] if int_cmp(op, val(a, st), val(b, st)) else 0],
                              "t = a %s b (%s); d = t ? %s : 0" % (op, "signed" if signed(st) else "unsigned", hx(TRUE[dt], 32))))
    # float sources, incl. subnormals (flushed on sm_1x even without .ftz; the dtype is an integer type here)
    s32 = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x00000001, 0x80000001, 0x7F800000, 0x7FC00000]
    vecs = [(a, b) for a in s32 for b in s32]
    for dt in ("u32", "f32"):
        for op in ("eq", "ne", "lt", "neu", "geu", "nan"):
            forms.append(Form("set.%s.%s.f32" % (op, dt) + (" (sm_1x: subnormal inputs flushed)" if legacy else ""), ["f32", "f32"], [dt],
                              "set.%s.%s.f32 {d0}, {a0}, {a1};" % (op, dt), vecs,
                              lambda a, b, op=op, dt=dt: [TRUE[dt] if compare(op, a, b, F32, ftz=legacy) else 0],
                              "t = compare(a, b) as for setp%s; d = t ? %s : 0" % (" with subnormals flushed" if legacy else "", hx(TRUE[dt], 32)),
                              split="sm1x_flush" if legacy and dt != "f32" else None, ids=["CS-SET", "CS-G", "CMP-04", "CMP-05", "CMP-06"]))
    forms.append(Form("set.lt.ftz.s32.f32 (explicit .ftz)", ["f32", "f32"], ["s32"], "set.lt.ftz.s32.f32 {d0}, {a0}, {a1};", vecs,
                      lambda a, b: [0xFFFFFFFF if compare("lt", a, b, F32, ftz=True) else 0], "t = a < b after flushing subnormals; d = t ? -1 : 0"))
    s64 = [0, 0x8000000000000000, 0x3FF0000000000000, 0x0000000000000001, 0x7FF8000000000000, 0xFFF0000000000000]
    vecs = [(a, b) for a in s64 for b in s64]
    forms.append(Form("set.gtu.u32.f64 / set.le.f32.f64", ["f64", "f64"], ["u32", "f32"], "set.gtu.u32.f64 {d0}, {a0}, {a1};\nset.le.f32.f64 {d1}, {a0}, {a1};",
                      vecs, lambda a, b: [0xFFFFFFFF if compare("gtu", a, b, F64) else 0, 0x3F800000 if compare("le", a, b, F64) else 0],
                      "f64 comparisons (subnormals kept), d = 0xffffffff / 1.0f for true"))
    # boolean combine with a predicate
    vecs = [(a, b, c) for a, b in ((1, 2), (2, 1), (3, 3)) for c in (0, 1)]

    def comb(a, b, c):
        t = SX(a, 32) < SX(b, 32)
        return [0x3F800000 if (t and c) else 0, 0xFFFFFFFF if (t or not c) else 0, 0xFFFFFFFF if (t != bool(c)) else 0]
    forms.append(Form("set.lt.and.f32.s32 d, a, b, c / set.lt.or.u32.s32 d, a, b, !c / set.lt.xor.s32.s32", ["s32", "s32", "pred"], ["f32", "u32", "s32"],
                      "set.lt.and.f32.s32 {d0}, {a0}, {a1}, {a2};\nset.lt.or.u32.s32 {d1}, {a0}, {a1}, !{a2};\nset.lt.xor.s32.s32 {d2}, {a0}, {a1}, {a2};",
                      vecs, comb, "t = a < b; d = BoolOp(t, c or !c) ? TRUE : 0 (TRUE = 1.0f for .f32, 0xffffffff for .u32/.s32)"))
    return ["CS-SET", "CS-G", "CMP-01", "CMP-02", "CMP-04", "CMP-05", "CMP-06"], "set: integer/float sources, u32/s32/f32 results, boolean combine", forms


@group("cmp_selp_slct")
def g_selp(d):
    forms = []
    legacy = d == "sm13"
    for t, vals in (("b16", [0x8001, 0x7FFF]), ("u16", [1, 0xFFFF]), ("s16", [0x8000, 5]), ("b32", [0xDEADBEEF, 1]), ("u32", [7, 0xFFFFFFFF]),
                    ("s32", [0x80000000, 3]), ("f32", [0x00000001, 0xFFC00001]), ("b64", [0x0123456789ABCDEF, 0xFEDCBA9876543210]),
                    ("u64", [1, 1 << 63]), ("s64", [M(-2, 64), 9]), ("f64", [0x0000000000000001, 0x7FF8000000000123])):
        n = width(t)
        forms.append(Form("selp.%s (bits copied: subnormals and NaN payloads unchanged)" % t, [t, t, "pred"], [t],
                          "selp.%s {d0}, {a0}, {a1}, {a2};" % t, [(vals[0], vals[1], 1), (vals[0], vals[1], 0)],
                          lambda a, b, c: [a if c else b], "d = c ? a : b, the raw bits", out_dtype="u64" if n == 64 else "u32"))
    # slct with an s32 selector
    cs = [0, 1, M(-1, 32), 0x7FFFFFFF, 0x80000000]
    for t, a, b in (("u32", 0x11111111, 0x22222222), ("f32", 0x00000001, 0x7FC00001), ("b16", 0x1234, 0xABCD), ("s64", 1 << 40, M(-3, 64)),
                    ("f64", 0x8000000000000001, 0x7FF0000000000000)):
        n = width(t)
        forms.append(Form("slct.%s.s32" % t, [t, t, "s32"], [t], "slct.%s.s32 {d0}, {a0}, {a1}, {a2};" % t, [(a, b, c) for c in cs],
                          lambda a, b, c: [a if SX(c, 32) >= 0 else b], "d = (c >= 0, signed) ? a : b (raw bits of a/b)",
                          out_dtype="u64" if n == 64 else "u32"))
    # slct with an f32 selector: -0 -> a, negative subnormal flushed -> a (sm_1x or .ftz), NaN -> b
    cf = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x00000001, 0x80000001, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000]

    def sel_f(a, b, c, ftz):
        if ftz:
            c = flush(c, F32)
        if is_nan(c, F32):
            return [b]
        return [a if value(c, F32) >= 0 else b]
    for t, a, b in (("u32", 0xAAAAAAAA, 0x55555555), ("f32", 0x3F800000, 0xC0000000), ("s16", 0x7FFF, 0x8000), ("f64", 0x3FF0000000000000, 0x0000000000000001)):
        n = width(t)
        forms.append(Form("slct.%s.f32" % t + (" (sm_1x: c flushed)" if legacy else " (no .ftz: a negative subnormal c is < 0)"), [t, t, "f32"], [t],
                          "slct.%s.f32 {d0}, {a0}, {a1}, {a2};" % t, [(a, b, c) for c in cf],
                          lambda a, b, c: sel_f(a, b, c, legacy),
                          "d = (c >= 0.0) ? a : b; -0.0 >= 0 is true; NaN c selects b" + ("; c subnormal flushed to a signed zero (selects a)" if legacy else ""),
                          out_dtype="u64" if n == 64 else "u32", split="sm1x_flush" if legacy and t != "f32" else None, ids=["CS-SLCT", "CS-G"]))
        forms.append(Form("slct.ftz.%s.f32" % t, [t, t, "f32"], [t],
                          "slct.ftz.%s.f32 {d0}, {a0}, {a1}, {a2};" % t, [(a, b, c) for c in cf],
                          lambda a, b, c: sel_f(a, b, c, True),
                          "as above with c flushed: a negative subnormal c selects a", out_dtype="u64" if n == 64 else "u32"))
    return ["CS-SELP", "CS-SLCT", "CS-G"], "selp on every type, slct with .s32 and .f32 selectors", forms


# =====================================================================================
# 6.2 Floating point
# =====================================================================================

S32 = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x80800000,
       0x7F7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x3FC00000]
S64 = [0x0000000000000000, 0x8000000000000000, 0x3FF0000000000000, 0xBFF0000000000000, 0x0000000000000001, 0x8000000000000001,
       0x000FFFFFFFFFFFFF, 0x0010000000000000, 0x7FEFFFFFFFFFFFFF, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
       0x3FF8000000000000]


def rand_f(r, f, lo=-30, hi=30):
    """A random finite value with a random exponent in [lo, hi] and a full random mantissa."""
    e = r.randint(lo, hi)
    man = r.getrandbits(f.m)
    return (r.getrandbits(1) << (f.bits - 1)) | ((e + f.bias) << f.m) | man


def f32_pairs(name, op):
    r = rng_for(name + op)
    v = [(a, b) for a in S32 for b in S32]
    # rounding ties and near-ties (1 + 2^-24 is halfway between 1 and 1 + 2^-23)
    v += [(F(1.0), F(2.0 ** -24)), (F(1.0), F(3 * 2.0 ** -24)), (F(1.0 + 2 ** -23), F(2.0 ** -24)), (F(1.0), F(-(2.0 ** -25))),
          (F(-1.0), F(-(2.0 ** -24))), (F(1.0), F(2.0 ** -24 + 2.0 ** -47)), (0x4B7FFFFF, F(0.5)), (0x3F7FFFFF, 0x33800000)]
    # subnormal results (flushed on sm_1x / with .ftz)
    v += [(0x00800000, 0x807FFFFF), (0x00C00000, 0x80800000), (F(2.0 ** -70), F(2.0 ** -70)), (F(1.5 * 2 ** -64), F(2.0 ** -64)),
          (F(2.0 ** -126), F(0.75)), (0x00800001, 0x3F000000)]
    v += [(rand_f(r, F32), rand_f(r, F32)) for _ in range(24)]
    v += [(rand_f(r, F32, -126, -120), rand_f(r, F32, -3, 3)) for _ in range(8)]
    return v


def f64_pairs(name, op):
    r = rng_for(name + op)
    v = [(a, b) for a in S64 for b in S64]
    v += [(D(1.0), D(2.0 ** -53)), (D(1.0), D(3 * 2.0 ** -53)), (D(1.0 + 2 ** -52), D(2.0 ** -53)), (D(-1.0), D(-(2.0 ** -53)))]
    v += [(0x0010000000000000, 0x800FFFFFFFFFFFFF), (D(2.0 ** -540), D(2.0 ** -540)), (D(1.5 * 2 ** -520), D(2.0 ** -530))]
    v += [(rand_f(r, F64, -60, 60), rand_f(r, F64, -60, 60)) for _ in range(24)]
    return v


def arith_ref(op, f, mode, ftz, satf):
    fn = {"add": fadd, "sub": fsub, "mul": fmul, "div": fdiv}[op]

    def g(a, b):
        x = fn(a, b, f, mode, ftz_in=ftz, ftz_out=ftz)
        return sat(x, f) if satf else x
    return g


@group("fp_add_sub_mul_f32")
def g_fp32(d):
    legacy = d == "sm13"
    forms = []
    # (modifier string, rounding, ftz, sat)
    if legacy:
        variants = [("", "rn", True, False), (".rn", "rn", True, False), (".rz", "rz", True, False), (".ftz", "rn", True, False),
                    (".rz.ftz", "rz", True, False), (".sat", "rn", True, True), (".rn.ftz.sat", "rn", True, True)]
    else:
        variants = [("", "rn", False, False), (".rn", "rn", False, False), (".rz", "rz", False, False), (".rm", "rm", False, False),
                    (".rp", "rp", False, False), (".ftz", "rn", True, False), (".rz.ftz", "rz", True, False), (".rm.ftz", "rm", True, False),
                    (".sat", "rn", False, True), (".rp.ftz.sat", "rp", True, True)]
    for op in ("add", "sub", "mul"):
        body = "\n".join("%s%s.f32 {d%d}, {a0}, {a1};" % (op, m, i) for i, (m, _, _, _) in enumerate(variants))
        refs = [arith_ref(op, F32, rnd, ftz, st) for _, rnd, ftz, st in variants]
        forms.append(Form("%s{%s}.f32" % (op, ",".join(m or "(none)" for m, _, _, _ in variants)), ["f32", "f32"], ["f32"] * len(variants), body,
                          f32_pairs(d, op), lambda a, b, refs=refs: [g(a, b) for g in refs],
                          "exact rational a %s b, rounded once to binary32 in the given mode (no modifier = .rn);\n"
                          "%s; .sat clamps to [+0.0, 1.0] (so NaN and -0 give +0);\n"
                          "IEEE specials: inf - inf and 0 * inf give NaN; an exact zero sum is +0 (-0 under .rm), -0 + -0 = -0"
                          % ({"add": "+", "sub": "-", "mul": "*"}[op],
                             "sm_1x: subnormal inputs and results ALWAYS flushed to a signed zero (FPE-03), .ftz changes nothing" if legacy
                             else "sm_20+: subnormals kept unless .ftz (then inputs and results flushed)"),
                          out_dtype="f32", tol=NANANY))
    return ["FP-ADD", "FP-SUB", "FP-MUL", "FPE-03", "FPE-04"], "f32 add/sub/mul: rounding modes, ftz, sat, special values", forms


@group("fp_add_sub_mul_f64")
def g_fp64(d):
    forms = []
    variants = [("", "rn"), (".rn", "rn"), (".rz", "rz"), (".rm", "rm"), (".rp", "rp")]
    for op in ("add", "sub", "mul"):
        body = "\n".join("%s%s.f64 {d%d}, {a0}, {a1};" % (op, m, i) for i, (m, _) in enumerate(variants))
        refs = [arith_ref(op, F64, rnd, False, False) for _, rnd in variants]
        forms.append(Form("%s{(none),.rn,.rz,.rm,.rp}.f64" % op, ["f64", "f64"], ["f64"] * len(variants), body, f64_pairs(d, op),
                          lambda a, b, refs=refs: [g(a, b) for g in refs],
                          "exact rational result rounded once to binary64 in the given mode; subnormals kept (both dialects)",
                          out_dtype="f64", tol=NANANY))
    return ["FP-ADD", "FP-SUB", "FP-MUL"], "f64 add/sub/mul: every rounding mode, subnormals, special values", forms


def f_triples(f, name):
    r = rng_for(name)
    S = S32 if f is F32 else S64
    one = encode_exact(0, Fraction(1), f)
    sub = [x for x in S if not is_nan(x, f)][:10] + [f.qnan]
    v = [(a, b, c) for a in sub for b in sub[:8] for c in (0, 1 << (f.bits - 1), one, S[6], S[10] if f is F32 else S[9])]
    for _ in range(40):
        v.append((rand_f(r, f, -20, 20), rand_f(r, f, -20, 20), rand_f(r, f, -20, 20)))
    for _ in range(16):  # cancellation: c close to -a*b
        a, b = rand_f(r, f, -5, 5), rand_f(r, f, -5, 5)
        p = fmul(a, b, f, "rn")
        v.append((a, b, p ^ (1 << (f.bits - 1))))
    return v


def trunc24(q):
    """Truncate a positive rational to 24 significant bits (no exponent clamp)."""
    if q == 0:
        return q
    k = floor_log2(q)
    unit = pow2(k - 23)
    return (q // unit) * unit


def legacy_mad32(a, b, c, satf=False):
    """FP-MAD32 (PTX 1.x): inputs flushed; the product is formed exactly, its mantissa truncated to 23 bits (24 significant
    bits) keeping the exponent; c is added and the sum rounded to nearest; the result flushed. c = +-0: the result of a
    separate mul.rn then add (the product rounded to nearest)."""
    a, b, c = flush(a, F32), flush(b, F32), flush(c, F32)
    va, vb, vc = decode(a, F32), decode(b, F32), decode(c, F32)
    if vc[0] == "num" and vc[2] == 0:
        x = fadd(fmul(a, b, F32, "rn", True, True), c, F32, "rn", True, True)
    else:
        p = mul_v(va, vb)
        if p[0] == "num":
            p = ("num", p[1], trunc24(p[2]))
        x = result(add_v(p, vc, "rn"), F32, "rn", True)
    return sat(x, F32) if satf else x


@group("fp_fma_mad")
def g_fma(d):
    legacy = d == "sm13"
    forms = []
    for op in ("fma", "mad"):
        body = "\n".join("%s.%s.f64 {d%d}, {a0}, {a1}, {a2};" % (op, m, i) for i, m in enumerate(("rn", "rz", "rm", "rp")))
        forms.append(Form("%s.{rn,rz,rm,rp}.f64" % op, ["f64"] * 3, ["f64"] * 4, body, f_triples(F64, op + "64"),
                          lambda a, b, c: [ffma(a, b, c, F64, m) for m in ("rn", "rz", "rm", "rp")],
                          "exact a*b + c rounded once (IEEE fused multiply-add), subnormals kept; mad.rnd.f64 == fma.rnd.f64",
                          out_dtype="f64", tol=NANANY))
    if legacy:
        r = rng_for("mad32")
        v0 = []
        # (1) c = +-0: the product rounded to nearest, as by a separate mul (FP-MAD32 exception)
        while len(v0) < 12:
            a, b = rand_f(r, F32, -4, 4), rand_f(r, F32, -4, 4)
            q = decode(a, F32)[2] * decode(b, F32)[2]
            if round_to(0, q, F32, "rn") != round_to(0, q, F32, "rz"):
                v0.append((a, b, 0x80000000 if len(v0) % 2 else 0))
        v = []
        # (2) products where truncation and rounding differ, with a non-zero c
        n = 0
        while n < 24:
            a, b = rand_f(r, F32, -4, 4), rand_f(r, F32, -4, 4)
            c = rand_f(r, F32, -12, 2)
            q = decode(a, F32)[2] * decode(b, F32)[2]
            if round_to(0, q, F32, "rn") != round_to(0, q, F32, "rz"):
                v.append((a, b, c))
                n += 1
        # (3) exact products, specials, subnormal inputs (flushed)
        v += [(F(1.5), F(2.0), F(0.25)), (F(3.0), F(-1.0), F(3.0)), (0x00000001, F(1.0), F(1.0)), (F(1.0), F(1.0), 0x807FFFFF),
              (0x7F800000, F(0.0), F(1.0)), (0x7F800000, F(1.0), 0xFF800000), (0x7FC00000, F(1.0), F(1.0)), (F(2.0 ** 100), F(2.0 ** 100), F(1.0)),
              (F(2.0 ** -70), F(2.0 ** -70), F(0.0)), (F(2.0 ** -63), F(2.0 ** -63), F(2.0 ** -125))]
        forms.append(Form("mad.f32 and mad.ftz.f32 with c = +-0 (sm_1x: equals mul.rn then add)", ["f32"] * 3, ["f32", "f32"],
                          "mad.f32 {d0}, {a0}, {a1}, {a2};\nmad.ftz.f32 {d1}, {a0}, {a1}, {a2};", v0,
                          lambda a, b, c: [legacy_mad32(a, b, c)] * 2,
                          "FP-MAD32 exception: when c = +-0 the result equals a separate mul (rounded to nearest) followed by the add;\n"
                          "the vectors are chosen so that the rounded and the truncated product differ",
                          out_dtype="f32", tol=NANANY, split="c_zero", ids=["FP-MAD32"]))
        forms.append(Form("mad.f32 and mad.ftz.f32 (sm_1x: not fused, product truncated to 24 bits)", ["f32"] * 3, ["f32", "f32"],
                          "mad.f32 {d0}, {a0}, {a1}, {a2};\nmad.ftz.f32 {d1}, {a0}, {a1}, {a2};", v,
                          lambda a, b, c: [legacy_mad32(a, b, c)] * 2,
                          "FP-MAD32 (1.x): inputs flushed; exact product truncated (toward zero) to 24 significant bits, keeping its\n"
                          "exponent; + c rounded to nearest; result flushed. c = +-0: mul.rn then add (product rounded to nearest)",
                          out_dtype="f32", tol=NANANY))
        forms.append(Form("mad.sat.f32 (sm_1x)", ["f32"] * 3, ["f32"], "mad.sat.f32 {d0}, {a0}, {a1}, {a2};",
                          [(F(0.5), F(0.5), F(0.25)), (F(2.0), F(2.0), F(-1.0)), (F(-1.0), F(1.0), F(0.5)), (0x7FC00000, F(1.0), F(0.0)),
                           (F(0.75), F(0.5), F(0.0)), (0x7F800000, F(1.0), 0xFF800000)],
                          lambda a, b, c: [legacy_mad32(a, b, c, True)], "as mad.f32 (exact here), then clamped to [0, 1] with NaN -> +0",
                          out_dtype="f32", tol=NANANY))
    else:
        v = f_triples(F32, "fma32")
        variants = [("fma.rn", "rn", False), ("fma.rz", "rz", False), ("fma.rm", "rm", False), ("fma.rp", "rp", False),
                    ("fma.rn.ftz", "rn", True), ("mad.rn", "rn", False), ("mad.rz.ftz", "rz", True)]
        body = "\n".join("%s.f32 {d%d}, {a0}, {a1}, {a2};" % (m, i) for i, (m, _, _) in enumerate(variants))
        forms.append(Form("{fma,mad}.rnd[.ftz].f32 (sm_20+: fused)", ["f32"] * 3, ["f32"] * len(variants), body, v,
                          lambda a, b, c: [ffma(a, b, c, F32, m, ftz, ftz) for _, m, ftz in variants],
                          "exact a*b + c rounded once in the given mode (mad.rnd.f32 is fma on sm_20+); .ftz flushes inputs and result",
                          out_dtype="f32", tol=NANANY))
        forms.append(Form("fma.rn.sat.f32 / mad.rn.sat.f32", ["f32"] * 3, ["f32", "f32"], "fma.rn.sat.f32 {d0}, {a0}, {a1}, {a2};\nmad.rn.sat.f32 {d1}, {a0}, {a1}, {a2};",
                          [(F(0.5), F(0.5), F(0.25)), (F(2.0), F(2.0), F(-1.0)), (F(-1.0), F(1.0), F(0.5)), (0x7FC00000, F(1.0), F(0.0)),
                           (F(0.75), F(0.5), F(0.0)), (0x7F800000, F(1.0), 0xFF800000)],
                          lambda a, b, c: [sat(ffma(a, b, c, F32, "rn"), F32)] * 2, "fused result clamped to [0, 1], NaN -> +0",
                          out_dtype="f32", tol=NANANY))
    return ["FP-FMA", "FP-MAD64", "FP-MAD32"], "fma/mad: f64 fused with every rounding mode; mad.f32 per dialect", forms


def div_pairs(name):
    r = rng_for(name)
    v = []
    for _ in range(48):
        v.append((rand_f(r, F32, -40, 40), rand_f(r, F32, -40, 40)))
    v += [(F(1.0), F(3.0)), (F(2.0), F(3.0)), (F(-7.0), F(0.1)), (F(1.0), F(2.0 ** 120)), (F(2.0 ** 120), F(2.0 ** -5))]
    return v


@group("fp_div")
def g_div(d):
    legacy = d == "sm13"
    forms = []
    r = rng_for("div64")
    v64 = [(a, b) for a in S64 for b in S64] + [(rand_f(r, F64, -300, 300), rand_f(r, F64, -300, 300)) for _ in range(24)]
    v64 += [(D(1.0), D(3.0)), (0x0000000000000003, D(2.0)), (D(2.0 ** -1000), D(2.0 ** 70))]
    modes = ["rn"] if legacy else ["rn", "rz", "rm", "rp"]
    forms.append(Form("div.{%s}.f64" % ",".join(modes), ["f64", "f64"], ["f64"] * len(modes),
                      "\n".join("div.%s.f64 {d%d}, {a0}, {a1};" % (m, i) for i, m in enumerate(modes)), v64,
                      lambda a, b: [fdiv(a, b, F64, m) for m in modes],
                      "exact quotient rounded once (IEEE); x/0 = signed inf, 0/0 and inf/inf NaN; subnormals kept",
                      out_dtype="f64", tol=NANANY))
    # approximate f32 division: within 2 ulp of the correctly rounded quotient for |b| in [2^-126, 2^126]
    vp = div_pairs("divapprox" + d)
    ftzs = [True] if legacy else [False, True]
    for ftz in ftzs:
        fm = "" if (legacy or not ftz) else ".ftz"
        forms.append(Form("div.approx%s.f32 / div.full%s.f32 (normal operands and results)" % (fm, fm), ["f32", "f32"], ["f32", "f32"],
                          "div.approx%s.f32 {d0}, {a0}, {a1};\ndiv.full%s.f32 {d1}, {a0}, {a1};" % (fm, fm), vp,
                          lambda a, b, ftz=ftz: [fdiv(a, b, F32, "rn", ftz, ftz)] * 2,
                          "correctly rounded quotient (exact rationals); the spec bounds both forms by 2 ulp", out_dtype="f32", tol={"ulp": 2}))
    spec = [(F(1.0), F(0.0)), (F(-3.0), F(0.0)), (F(5.0), 0x80000000), (F(-5.0), 0x80000000), (0x7F800000, F(2.0)), (F(0.0), F(2.0)),
            (0x80000000, F(4.0)), (0x7FC00000, F(1.0)), (F(1.0), 0x7FC00000)]
    if legacy:
        spec += [(F(1.0), 0x00000001), (F(-1.0), 0x807FFFFF), (0x00000001, F(1.0))]  # subnormals flushed: x/+-0 and +-0/x
    forms.append(Form("div.approx.f32 / div.full.f32 special values" + (" (sm_1x: subnormals flushed)" if legacy else ""),
                      ["f32", "f32"], ["f32", "f32"], "div.approx.f32 {d0}, {a0}, {a1};\ndiv.full.f32 {d1}, {a0}, {a1};", spec,
                      lambda a, b: [fdiv(a, b, F32, "rn", legacy, legacy)] * 2,
                      "FP-DIV: x/+-0 = inf with the sign of a*b (sign of a for b = +0); inf/x = inf; 0/x = 0; NaN in, NaN out",
                      out_dtype="f32", tol=NANANY))
    if not legacy:
        v = f32_pairs("div", "rnd")
        variants = [("rn", False), ("rz", False), ("rm", False), ("rp", False), ("rn", True), ("rz", True)]
        forms.append(Form("div.{rn,rz,rm,rp}[.ftz].f32 (sm_20+ IEEE division)", ["f32", "f32"], ["f32"] * len(variants),
                          "\n".join("div.%s%s.f32 {d%d}, {a0}, {a1};" % (m, ".ftz" if z else "", i) for i, (m, z) in enumerate(variants)), v,
                          lambda a, b: [fdiv(a, b, F32, m, z, z) for m, z in variants],
                          "exact quotient rounded once in the given mode; .ftz flushes inputs and result", out_dtype="f32", tol=NANANY))
    return ["FP-DIV"], "div: f64 IEEE, f32 approx/full (2 ulp), f32 IEEE on sm_20+", forms


@group("fp_abs_neg_min_max")
def g_absneg(d):
    legacy = d == "sm13"
    forms = []
    vals = S32 + [0x807FFFFF, 0xFFC00001]
    forms.append(Form("abs.f32 / neg.f32 / abs.ftz.f32 / neg.ftz.f32", ["f32"], ["f32"] * 4,
                      "abs.f32 {d0}, {a0};\nneg.f32 {d1}, {a0};\nabs.ftz.f32 {d2}, {a0};\nneg.ftz.f32 {d3}, {a0};", [(x,) for x in vals],
                      lambda a: [flush(a, F32) & 0x7FFFFFFF if legacy else a & 0x7FFFFFFF, flush(a, F32) ^ 0x80000000 if legacy else a ^ 0x80000000,
                                 flush(a, F32) & 0x7FFFFFFF, flush(a, F32) ^ 0x80000000],
                      "abs clears and neg flips the sign bit (neg(+0) = -0; not 0 - a); " +
                      ("sm_1x: subnormal input flushed first (abs(-sub) = +0, neg(+sub) = -0)" if legacy else "no .ftz: subnormals kept; .ftz: flushed first") +
                      "; a NaN input gives some NaN", out_dtype="f32", tol=NANANY))
    forms.append(Form("abs.f64 / neg.f64", ["f64"], ["f64", "f64"], "abs.f64 {d0}, {a0};\nneg.f64 {d1}, {a0};", [(x,) for x in S64],
                      lambda a: [a & ((1 << 63) - 1), a ^ (1 << 63)], "sign bit cleared / flipped; subnormals kept", out_dtype="f64", tol=NANANY))

    def mm_pairs(S, f, ftz):
        out = []
        for a in S:
            for b in S:
                fa, fb = (flush(a, f), flush(b, f)) if ftz else (a, b)
                va, vb = decode(fa, f), decode(fb, f)
                if va[0] == "num" and vb[0] == "num" and va[2] == 0 and vb[2] == 0 and va[1] != vb[1]:
                    continue  # +-0 ordering is not specified
                out.append((a, b))
        return out
    variants = [("", legacy), (".ftz", True)]
    for m, ftz in variants:
        forms.append(Form("min%s.f32 / max%s.f32" % (m, m), ["f32", "f32"], ["f32", "f32"],
                          "min%s.f32 {d0}, {a0}, {a1};\nmax%s.f32 {d1}, {a0}, {a1};" % (m, m), mm_pairs(S32 + [0x807FFFFF], F32, ftz),
                          lambda a, b, ftz=ftz: [minmax(a, b, F32, False, ftz), minmax(a, b, F32, True, ftz)],
                          "exactly one NaN -> the other operand; both NaN -> NaN; else (a < b) ? a : b / (a > b) ? a : b" +
                          ("; subnormals flushed first" if ftz else "; subnormals kept") + "; (-0, +0) pairs left out",
                          out_dtype="f32", tol=NANANY))
    forms.append(Form("min.f64 / max.f64", ["f64", "f64"], ["f64", "f64"], "min.f64 {d0}, {a0}, {a1};\nmax.f64 {d1}, {a0}, {a1};",
                      mm_pairs(S64, F64, False), lambda a, b: [minmax(a, b, F64, False), minmax(a, b, F64, True)],
                      "as for f32, subnormals kept", out_dtype="f64", tol=NANANY))
    return ["FP-ABS", "FP-NEG", "FP-MIN", "FP-MAX"], "abs/neg (sign bit), min/max (NaN rules)", forms


def mp_ref(fn, x_bits):
    """binary32 RN of an mpmath function of a binary32 input (60 significant digits)."""
    import mpmath
    mpmath.mp.prec = 200
    x = mpmath.mpf(Fraction(value(x_bits, F32)).numerator) / Fraction(value(x_bits, F32)).denominator
    y = {"sin": mpmath.sin, "cos": mpmath.cos, "lg2": lambda t: mpmath.log(t, 2), "ex2": lambda t: mpmath.power(2, t),
         "rsqrt": lambda t: 1 / mpmath.sqrt(t), "sqrt": mpmath.sqrt, "rcp": lambda t: 1 / t}[fn](x)
    m, e = mpmath.frexp(y)
    q = Fraction(int(mpmath.floor(abs(m) * 2 ** 120))) * pow2(int(e) - 120)  # |y| to 120 bits (RN below is unaffected)
    return round_to(1 if y < 0 else 0, q, F32, "rn")


def mp_ref64(fn, x_bits):
    import mpmath
    mpmath.mp.prec = 300
    q = value(x_bits, F64)
    x = mpmath.mpf(q.numerator) / q.denominator
    y = 1 / mpmath.sqrt(x)
    m, e = mpmath.frexp(y)
    return round_to(0, Fraction(int(mpmath.floor(m * 2 ** 200))) * pow2(int(e) - 200), F64, "rn")


def uniform_f32(r, lo, hi, n):
    return [F(r.uniform(lo, hi)) for _ in range(n)]


# FP-SPECIAL (T48..T54): result for each special input, per function, under flushing (sm_1x or .ftz).
SPECIAL_IN = [("-inf", 0xFF800000), ("-subnormal", 0x807FFFFF), ("-0", 0x80000000), ("+0", 0x00000000), ("+subnormal", 0x00000001),
              ("+inf", 0x7F800000), ("NaN", 0x7FC00000)]
NANB = 0x7FC00000
SPECIAL_OUT = {
    "rcp": [0x80000000, 0xFF800000, 0xFF800000, 0x7F800000, 0x7F800000, 0x00000000, NANB],
    "sqrt": [NANB, 0x80000000, 0x80000000, 0x00000000, 0x00000000, 0x7F800000, NANB],
    "rsqrt": [NANB, 0xFF800000, 0xFF800000, 0x7F800000, 0x7F800000, 0x00000000, NANB],
    "sin": [NANB, 0x80000000, 0x80000000, 0x00000000, 0x00000000, NANB, NANB],
    "cos": [NANB, 0x3F800000, 0x3F800000, 0x3F800000, 0x3F800000, NANB, NANB],
    "lg2": [NANB, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0x7F800000, NANB],
    "ex2": [0x00000000, 0x3F800000, 0x3F800000, 0x3F800000, 0x3F800000, 0x7F800000, NANB],
}


def special_form(fns, legacy, ftz):
    """Special values of FP-SPECIAL. Without flushing (sm_20+, no .ftz) the subnormal rows are left out."""
    rows = [(n, x) for n, x in SPECIAL_IN if (legacy or ftz) or "subnormal" not in n]
    fm = ".ftz" if ftz else ""
    body = "\n".join("%s.approx%s.f32 {d%d}, {a0};" % (fn, fm, i) for i, fn in enumerate(fns))
    table = {x: [SPECIAL_OUT[fn][[v for _, v in SPECIAL_IN].index(x)] for fn in fns] for _, x in rows}
    return Form("%s special values (FP-SPECIAL)%s" % ("/".join("%s.approx%s.f32" % (fn, fm) for fn in fns),
                                                     " (sm_1x: subnormals flushed)" if legacy and not ftz else ""),
                ["f32"], ["f32"] * len(fns), body, [(x,) for _, x in rows], lambda a: table[a],
                "the FP-SPECIAL table (T48-T54) row for each input: " + ", ".join(n for n, _ in rows) + "; NaN outputs match any NaN",
                out_dtype="f32", tol=NANANY)


def abs_tol(bound_log2, result_max_log2):
    """Spec absolute error bound 2^bound plus half an ulp of the largest result (the expected file holds the RN value)."""
    return {"abs": float(2.0 ** bound_log2 + 2.0 ** (result_max_log2 - 24))}


@group("fp_rcp_sqrt_rsqrt")
def g_rcp(d):
    legacy = d == "sm13"
    forms = []
    r = rng_for("rcp" + d)
    # f64 IEEE forms
    v64 = [(x,) for x in S64] + [(rand_f(r, F64, -1000, 1000),) for _ in range(24)] + [(D(2.0),), (D(3.0),), (0x000FFFFFFFFFFFFF,)]
    modes = ["rn"] if legacy else ["rn", "rz", "rm", "rp"]
    if not legacy:
        subn = [(x,) for x in (0x0000000000000001, 0x000FFFFFFFFFFFFF, 0x000FFFFFFFFFFFFE, 0x0000000000000002, 0x0008000000000001,
                               0x0000000000000003, 0x00000000FFFFFFFF, 0x000123456789ABCD)]
        v64 = [v for v in v64 if not is_subnormal(v[0] & ~(1 << 63), F64)]
        forms.append(Form("rcp.{rn,rz,rm,rp}.f64 / sqrt.{rn,rz,rm,rp}.f64 on subnormal inputs", ["f64"], ["f64"] * 8,
                          "\n".join("rcp.%s.f64 {d%d}, {a0};" % (m, i) for i, m in enumerate(modes)) + "\n" +
                          "\n".join("sqrt.%s.f64 {d%d}, {a0};" % (m, i + 4) for i, m in enumerate(modes)), subn,
                          lambda a: [fdiv(D(1.0), a, F64, m) for m in modes] + [fsqrt(a, F64, m) for m in modes],
                          "exact 1/a and sqrt(a) rounded once in the given mode (the square root of a subnormal is a normal number;\n"
                          "the residual c*c - a of a candidate root is far below the subnormal range, so it must be computed exactly)",
                          out_dtype="f64", tol=NANANY))
    forms.append(Form("rcp.{%s}.f64 / sqrt.{%s}.f64" % (",".join(modes), ",".join(modes)), ["f64"], ["f64"] * (2 * len(modes)),
                      "\n".join("rcp.%s.f64 {d%d}, {a0};" % (m, i) for i, m in enumerate(modes)) + "\n" +
                      "\n".join("sqrt.%s.f64 {d%d}, {a0};" % (m, i + len(modes)) for i, m in enumerate(modes)), v64,
                      lambda a: [fdiv(D(1.0), a, F64, m) for m in modes] + [fsqrt(a, F64, m) for m in modes],
                      "exact 1/a and sqrt(a) rounded once (IEEE); 1/+-0 = +-inf, sqrt(-0) = -0, sqrt(negative) = NaN; subnormals kept",
                      out_dtype="f64", tol=NANANY))
    # rsqrt.approx.f64: error TBD in the spec; bound chosen here: 2 ulp of the correctly rounded value
    v = [(rand_f(r, F64, -1000, 1000) & ~(1 << 63),) for _ in range(24)] + [(D(4.0),), (D(2.0),), (0x0000000000000001,), (0x000FFFFFFFFFFFFF,)]
    forms.append(Form("rsqrt.approx.f64 (normal and subnormal inputs)", ["f64"], ["f64"], "rsqrt.approx.f64 {d0}, {a0};", v,
                      lambda a: [mp_ref64("rsqrt", a)],
                      "1/sqrt(a) with mpmath (300 bits), rounded to nearest; the spec's bound is TBD, 2 ulp assumed; subnormal inputs kept",
                      out_dtype="f64", tol={"ulp": 2}))
    forms.append(Form("rsqrt.approx.f64 special values", ["f64"], ["f64"], "rsqrt.approx.f64 {d0}, {a0};",
                      [(0xFFF0000000000000,), (0x8000000000000000,), (0,), (0x7FF0000000000000,), (0x7FF8000000000000,), (D(-2.0),)],
                      lambda a: [{0xFFF0000000000000: F64.qnan, 0x8000000000000000: 0xFFF0000000000000, 0: 0x7FF0000000000000,
                                  0x7FF0000000000000: 0, 0x7FF8000000000000: F64.qnan, D(-2.0): F64.qnan}[a]],
                      "-inf -> NaN, -0 -> -inf, +0 -> +inf, +inf -> +0, NaN -> NaN, negative -> NaN", out_dtype="f64", tol=NANANY))
    # f32 approximations within the checklist's bounds
    ftzs = [False] if legacy else [False, True]
    for ftz in ftzs:
        fm = ".ftz" if ftz else ""
        xs = uniform_f32(r, 1.0, 2.0, 40) + [F(1.0), F(2.0), F(1.5), 0x3FFFFFFF]
        forms.append(Form("rcp.approx%s.f32 on [1, 2]" % fm, ["f32"], ["f32"], "rcp.approx%s.f32 {d0}, {a0};" % fm, [(x,) for x in xs],
                          lambda a: [fdiv(F(1.0), a, F32, "rn")], "1/a correctly rounded (exact rationals); bound: absolute error 2^-23 on [1, 2]",
                          out_dtype="f32", tol=abs_tol(-23, 0)))
        xs = uniform_f32(r, 1.0, 4.0, 40) + [F(1.0), F(4.0), F(2.0), 0x407FFFFF]
        forms.append(Form("rsqrt.approx%s.f32 on [1, 4]" % fm, ["f32"], ["f32"], "rsqrt.approx%s.f32 {d0}, {a0};" % fm, [(x,) for x in xs],
                          lambda a: [mp_ref("rsqrt", a)], "1/sqrt(a) with mpmath, rounded to nearest; bound: absolute error 2^-22.4 on [1, 4]",
                          out_dtype="f32", tol=abs_tol(-22.4, 0)))
        xs = [rand_f(r, F32, -100, 100) & 0x7FFFFFFF for _ in range(40)] + [F(4.0), F(2.0), F(1e-30), F(3e30)]
        forms.append(Form("sqrt.approx%s.f32 (normal inputs)" % fm, ["f32"], ["f32"], "sqrt.approx%s.f32 {d0}, {a0};" % fm, [(x,) for x in xs],
                          lambda a: [fsqrt(a, F32, "rn")],
                          "sqrt(a) correctly rounded (exact); the spec's bound is TBD: relative error 2^-22 assumed",
                          out_dtype="f32", tol={"rel": 2.0 ** -22, "abs": 0.0}))
        forms.append(special_form(["rcp", "sqrt", "rsqrt"], legacy, ftz))
    forms.append(Form("sqrt.approx.f32 of a negative normal number", ["f32"], ["f32", "f32"], "sqrt.approx.f32 {d0}, {a0};\nrsqrt.approx.f32 {d1}, {a0};",
                      [(F(-1.0),), (F(-2.5e10),)], lambda a: [NANB, NANB], "NaN (FP-SQRT / FP-RSQRT)", out_dtype="f32", tol=NANANY))
    if not legacy:
        v = [(x,) for x in S32] + [(rand_f(r, F32, -120, 120),) for _ in range(24)] + [(F(2.0),), (F(3.0),), (0x00000003,), (F(-4.0),)]
        variants = [("rn", False), ("rz", False), ("rm", False), ("rp", False), ("rn", True)]
        forms.append(Form("rcp.{rn,rz,rm,rp}[.ftz].f32 / sqrt.{rn,rz,rm,rp}[.ftz].f32 (sm_20+ IEEE)", ["f32"], ["f32"] * 10,
                          "\n".join("rcp.%s%s.f32 {d%d}, {a0};" % (m, ".ftz" if z else "", i) for i, (m, z) in enumerate(variants)) + "\n" +
                          "\n".join("sqrt.%s%s.f32 {d%d}, {a0};" % (m, ".ftz" if z else "", i + 5) for i, (m, z) in enumerate(variants)), v,
                          lambda a: [fdiv(F(1.0), a, F32, m, z, z) for m, z in variants] + [fsqrt(a, F32, m, z, z) for m, z in variants],
                          "exact 1/a and sqrt(a) rounded once in the given mode; .ftz flushes input and result", out_dtype="f32", tol=NANANY))
    return ["FP-RCP", "FP-SQRT", "FP-RSQRT", "FP-SPECIAL"], "rcp/sqrt/rsqrt: IEEE f64 (and f32 on sm_20+), .approx within bounds, special values", forms


@group("fp_sin_cos_lg2_ex2")
def g_sfu(d):
    legacy = d == "sm13"
    forms = []
    r = rng_for("sfu" + d)
    import math as _m
    ftzs = [False] if legacy else [False, True]
    for ftz in ftzs:
        fm = ".ftz" if ftz else ""
        xs = uniform_f32(r, -_m.pi, _m.pi, 48) + [F(0.5), F(-1.0), F(_m.pi / 2), F(3.0)]
        forms.append(Form("sin.approx%s.f32 / cos.approx%s.f32 on [-pi, pi]" % (fm, fm), ["f32"], ["f32", "f32"],
                          "sin.approx%s.f32 {d0}, {a0};\ncos.approx%s.f32 {d1}, {a0};" % (fm, fm), [(x,) for x in xs],
                          lambda a: [mp_ref("sin", a), mp_ref("cos", a)],
                          "mpmath sin/cos of the exact input, rounded to nearest; bound: absolute error 2^-20.9",
                          out_dtype="f32", tol=abs_tol(-20.9, 0)))
        xs = uniform_f32(r, 0.5, 4.0, 48) + [F(1.0), F(2.0), F(0.75), F(3.999)]
        forms.append(Form("lg2.approx%s.f32 on [0.5, 4)" % fm, ["f32"], ["f32"], "lg2.approx%s.f32 {d0}, {a0};" % fm, [(x,) for x in xs],
                          lambda a: [mp_ref("lg2", a)], "mpmath log2, rounded to nearest; bound: absolute error 2^-22.6",
                          out_dtype="f32", tol=abs_tol(-22.6, 1)))
        xs = uniform_f32(r, -1.0, 1.0, 48) + [F(0.5), F(-0.5), F(0.999), F(-1.0)]
        forms.append(Form("ex2.approx%s.f32 on [-1, 1]" % fm, ["f32"], ["f32"], "ex2.approx%s.f32 {d0}, {a0};" % fm, [(x,) for x in xs],
                          lambda a: [mp_ref("ex2", a)], "mpmath 2^x, rounded to nearest; bound: absolute error 2^-22.5",
                          out_dtype="f32", tol=abs_tol(-22.5, 1)))
        forms.append(special_form(["sin", "cos", "lg2", "ex2"], legacy, ftz))
    return ["FP-SIN", "FP-COS", "FP-LG2", "FP-EX2", "FP-SPECIAL"], "sin/cos/lg2/ex2 .approx within the checklist's bounds, special values", forms


# =====================================================================================
# 6.5 cvt
# =====================================================================================

ITYPES = ["s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"]


def cvt_ii(x, at, dt, satf):
    """int -> int (T9 + CVT-01/20/40): the source (chopped to atype) extends by ITS signedness; .sat clamps to dtype's range;
    the result is then extended to the 64-bit destination register by dtype's signedness (T19)."""
    v = val(x, at)
    n = width(dt)
    if satf:
        lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed(dt) else (0, (1 << n) - 1)
        v = max(lo, min(hi, v))
    return M(val(M(v, n), dt), 64)


def sat_legal(at, dt):
    """CVT-20: .sat on int->int is legal for narrowing, same size, and signed->unsigned widening."""
    if width(dt) < width(at) or width(dt) == width(at):
        return True
    return signed(at) and not signed(dt)


@group("cvt_int_int")
def g_cvt_ii(d):
    forms = []
    r = rng_for("cvtii")
    vals = [0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x123456789ABCDEF0,
            0xFFFFFFFFFFFFFF80, 0x8000000000000000, 0x7FFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF, 300, M(-300, 64), M(-5, 64)] + [r.getrandbits(64) for _ in range(5)]
    for at in ITYPES:
        dts = [t for t in ITYPES]
        body = "\n".join("cvt.%s.%s {d%d}, {a0};" % (dt, at, i) for i, dt in enumerate(dts))
        forms.append(Form("cvt.{every integer type}.%s (64-bit source and destination registers)" % at, ["b64"], ["b64"] * len(dts), body,
                          [(x,) for x in vals], lambda x, at=at, dts=dts: [cvt_ii(x, at, dt, False) for dt in dts],
                          "source register chopped to %s (T18) and read as %s; widened by the SOURCE's signedness (CVT-01) or chopped;\n"
                          "then extended to the 64-bit register by the destination type's signedness (T19, chop1, CVT-40)" % (at, at),
                          out_dtype="u64"))
        sdts = [t for t in ITYPES if t != at and sat_legal(at, t)]
        if sdts:
            body = "\n".join("cvt.sat.%s.%s {d%d}, {a0};" % (dt, at, i) for i, dt in enumerate(sdts))
            forms.append(Form("cvt.sat.{%s}.%s" % (",".join(sdts), at), ["b64"], ["b64"] * len(sdts), body, [(x,) for x in vals],
                              lambda x, at=at, sdts=sdts: [cvt_ii(x, at, dt, True) for dt in sdts],
                              "value of the %s source clamped to the destination type's range (CVT-20), then extended as above" % at,
                              out_dtype="u64"))
    # Exact-size registers (the common case), incl. the checklist's examples.
    forms.append(Form("cvt.u16.s8 / cvt.u32.s8 / cvt.s32.u8 / cvt.s16.u32 with exact-size registers", ["s16", "u32"], ["u16", "u32", "s32", "s16"],
                      "cvt.u16.s8 {d0}, {a0};\ncvt.u32.s8 {d1}, {a0};\ncvt.s32.u8 {d2}, {a0};\ncvt.s16.u32 {d3}, {a1};",
                      [(0x80, 0x18000), (0x7F, 0x7FFF), (0xFF, 0x12345)],
                      lambda a, b: [M(SX(a, 8), 16), M(SX(a, 8), 32), M(a, 8), M(b, 16)],
                      "CVT-01: cvt.u16.s8 and cvt.u32.s8 sign-extend, cvt.s32.u8 zero-extends; cvt.s16.u32 chops"))
    forms.append(Form("cvt.sat.u32.s32 / cvt.sat.s32.u32 / cvt.u32.s32 / cvt.sat.s8.s32 (CVT-02, CVT-20 examples)", ["s32"], ["u32", "s32", "u32", "s16"],
                      "cvt.sat.u32.s32 {d0}, {a0};\ncvt.sat.s32.u32 {d1}, {a0};\ncvt.u32.s32 {d2}, {a0};\ncvt.sat.s8.s32 {d3}, {a0};",
                      [(M(-5, 32),), (0x80000000,), (300,), (7,)],
                      lambda a: [max(0, SX(a, 32)), min(a, 0x7FFFFFFF), a, M(max(-128, min(127, SX(a, 32))), 16)],
                      "-5 -> 0 (sat u32), 0x80000000 -> 0x7fffffff (sat s32 of an unsigned value), plain copy without .sat, 300 -> 127"))
    return ["DM-CVT", "CVT-01", "CVT-02", "CVT-20", "CVT-40"], "cvt between integer types: widening by source signedness, chop, .sat, wide registers", forms


F2I_SRC32 = [F(x) for x in (0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 2.4999998, -2.4999998, 3.5, 127.5, -128.5, 255.5, 32767.5, 65535.5,
                            2147483520.0, 2.0 ** 31, -(2.0 ** 31), -(2.0 ** 31) - 256, 4294967040.0, 2.0 ** 32, 1e10, -1e10, 2.0 ** 63, -(2.0 ** 63), 2.0 ** 64, 1e30)] \
    + [0x7F800000, 0xFF800000, 0x00000001, 0x80000001, 0x007FFFFF]
F2I_SRC64 = [D(x) for x in (0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 2.4999999999999996, 127.5, -128.5, 255.5, 32767.5, 65535.5,
                            2147483647.5, 2147483648.0, -2147483648.5, 4294967295.5, 4294967296.0, 9.2233720368547748e18, 2.0 ** 63, -(2.0 ** 63),
                            -(2.0 ** 63) - 4096, 1.8446744073709550e19, 2.0 ** 64, 1e300)] + [0x7FF0000000000000, 0xFFF0000000000000, 1, 0x8000000000000001]


@group("cvt_float_to_int")
def g_cvt_fi(d):
    legacy = d == "sm13"
    forms = []
    modes = ["rni", "rzi", "rmi", "rpi"]
    nan32, nan64 = 0x7FC00000, 0x7FF8000000000000
    for src, vals in (("f32", F2I_SRC32), ("f64", F2I_SRC64)):
        f = FMTS[src]
        if not legacy:
            vals = vals + [nan32 if src == "f32" else nan64]
        elif src == "f32":
            vals = [x for x in vals if not is_subnormal(x, F32)]  # tested on their own below (CVT-30)
        for dts in (("s8", "s16", "s32", "s64"), ("u8", "u16", "u32", "u64")):
            outs = [(dt, m) for dt in dts for m in modes]
            body = "\n".join("cvt.%s.%s.%s {d%d}, {a0};" % (m, dt, src, i) for i, (dt, m) in enumerate(outs))

            def ref(a, src=src, f=f, outs=outs):
                res = []
                for dt, m in outs:
                    # CVT-30: on sm_1x, f32 -> 8/16/32-bit integers flush subnormal inputs; f32 -> 64-bit and f64 sources do not.
                    fl = legacy and src == "f32" and width(dt) < 64
                    x = float_to_int(a, f, m, signed(dt), width(dt), ftz_in=fl)
                    res.append(M(val(x, dt), 64))
                return res
            forms.append(Form("cvt.{rni,rzi,rmi,rpi}.{%s}.%s" % (",".join(dts), src), [src], ["b64"] * len(outs), body, [(x,) for x in vals], ref,
                              "exact value rounded to an integer (rni: nearest, ties to EVEN), then saturated to the destination range\n"
                              "(CVT-21: +-inf and out-of-range values clamp, negative -> 0 for unsigned)%s;\n"
                              "%s; result extended to the 64-bit register by the destination's signedness"
                              % ("; NaN -> 0 (CVT-22, PTX 2.0+)" if not legacy else "",
                                 "sm_1x CVT-30: f32 subnormal inputs flushed for 8/16/32-bit destinations, NOT for .s64/.u64 (rpi(+sub) = 1)" if legacy and src == "f32"
                                 else "subnormal inputs kept (rpi(+min subnormal) = 1)"),
                              out_dtype="u64"))
    if legacy:
        vals = [0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF]
        outs = [("s32", "rpi"), ("s32", "rmi"), ("u32", "rpi"), ("s16", "rmi"), ("s64", "rpi"), ("s64", "rmi"), ("u64", "rpi"), ("s64", "rni")]
        forms.append(Form("cvt.{rpi,rmi,rni}.{s16,s32,u32,s64,u64}.f32 of subnormal inputs (sm_1x, CVT-30)", ["f32"], ["b64"] * len(outs),
                          "\n".join("cvt.%s.%s.f32 {d%d}, {a0};" % (m, dt, i) for i, (dt, m) in enumerate(outs)), [(x,) for x in vals],
                          lambda a, outs=outs: [M(val(float_to_int(a, F32, m, signed(dt), width(dt), width(dt) < 64), dt), 64) for dt, m in outs],
                          "CVT-30 (errata-shaped 1.4 rule): f32 -> 16/32-bit integers flush the subnormal input (rpi(+sub) = 0, rmi(-sub) = 0),\n"
                          "f32 -> .s64/.u64 do NOT flush (rpi(+sub) = 1, rmi(-sub) = -1); the checklist's example cvt.rpi.s64.f32(+denormal) = 1",
                          out_dtype="u64", split="cvt30", ids=["DM-CVT", "CVT-30", "CVT-31"]))
    if not legacy:
        vals = [0x00000001, 0x80000001, 0x007FFFFF, F(1.5), F(-2.5)]
        outs = [("s32", "rpi"), ("s32", "rmi"), ("s64", "rpi"), ("u64", "rpi"), ("s16", "rmi")]
        forms.append(Form("cvt.rXi.ftz.{s32,s64,u64,s16}.f32 (explicit .ftz flushes subnormal inputs)", ["f32"], ["b64"] * len(outs),
                          "\n".join("cvt.%s.ftz.%s.f32 {d%d}, {a0};" % (m, dt, i) for i, (dt, m) in enumerate(outs)), [(x,) for x in vals],
                          lambda a, outs=outs: [M(val(float_to_int(a, F32, m, signed(dt), width(dt), True), dt), 64) for dt, m in outs],
                          "as above with the f32 input flushed to a signed zero first", out_dtype="u64"))
    # f16 sources (bit patterns in a .b16 register)
    h = [H(x) for x in (0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 255.5, 65504.0, -65504.0)] + [0x7C00, 0xFC00, 0x0001]
    outs = [("s8", "rni"), ("u8", "rzi"), ("s16", "rni"), ("u16", "rpi"), ("s32", "rmi"), ("u64", "rni")]
    forms.append(Form("cvt.rXi.{s8,u8,s16,u16,s32,u64}.f16", ["b16"], ["b64"] * len(outs),
                      "\n".join("cvt.%s.%s.f16 {d%d}, {a0};" % (m, dt, i) for i, (dt, m) in enumerate(outs)), [(x,) for x in h],
                      lambda a, outs=outs: [M(val(float_to_int(a, F16, m, signed(dt), width(dt)), dt), 64) for dt, m in outs],
                      "binary16 value rounded and saturated as above", out_dtype="u64"))
    return ["DM-CVT", "CVT-10", "CVT-21", "CVT-22", "CVT-30", "CVT-31"] if not legacy else ["DM-CVT", "CVT-10", "CVT-21", "CVT-30", "CVT-31"], \
        "cvt float -> int: integer rounding, saturation, NaN, subnormal flush rules", forms


@group("cvt_int_to_float")
def g_cvt_if(d):
    forms = []
    modes = ["rn", "rz", "rm", "rp"]
    big = [0, 1, M(-1, 64), 16777217, 16777219, M(-16777217, 64), 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, (1 << 53) + 1, (1 << 53) + 3,
           0x7FFFFFFFFFFFFFFF, 0x8000000000000000, 0xFFFFFFFFFFFFFFFF, 0x0000000100000001, 0xFFFFFF7FFFFFFFFF, 12345, M(-12345, 64), 0x7F, 0x80, 0x8001]
    for at in ITYPES:
        outs = [(dt, m) for dt in ("f32", "f64") for m in modes]
        body = "\n".join("cvt.%s.%s.%s {d%d}, {a0};" % (m, dt, at, i) for i, (dt, m) in enumerate(outs))
        forms.append(Form("cvt.{rn,rz,rm,rp}.{f32,f64}.%s (64-bit source register, chopped)" % at, ["b64"], ["b64"] * len(outs), body, [(x,) for x in big],
                          lambda x, at=at, outs=outs: [int_to_float(val(x, at), FMTS[dt], m) for dt, m in outs],
                          "the %s value (source chopped to %d bits) rounded once to the float format in the given mode (CVT-11);\n"
                          "f32 results zero-extended into the .b64 destination register (T19)" % (at, width(at)), out_dtype="u64"))
    # f16 destinations: values within the f16 range only (f16 overflow is undecided, CVT-03)
    small = [0, 1, M(-1, 64), 2049, 2051, M(-2049, 64), 65504, 65519, M(-65519, 64), 1000, 0x7F, 0x80, 4097]
    for at in ("s16", "u16", "s32", "u64"):
        vs = [x for x in small if abs(val(x, at)) < 65520]
        forms.append(Form("cvt.{rn,rz,rm,rp}.f16.%s" % at, ["b64"], ["b16"] * 4, "\n".join("cvt.%s.f16.%s {d%d}, {a0};" % (m, at, i) for i, m in enumerate(modes)),
                          [(x,) for x in vs], lambda x, at=at: [int_to_float(val(x, at), F16, m) for m in modes],
                          "rounded once to binary16 (no overflow in these vectors)", out_dtype="u32"))
    forms.append(Form("cvt.rn.sat.f32.s32 / cvt.rz.sat.f64.u32 (CVT-23)", ["s32"], ["f32", "f64"], "cvt.rn.sat.f32.s32 {d0}, {a0};\ncvt.rz.sat.f64.u32 {d1}, {a0};",
                      [(0,), (1,), (5,), (M(-3, 32),)], lambda a: [sat(int_to_float(SX(a, 32), F32, "rn"), F32), sat(int_to_float(a, F64, "rz"), F64)],
                      "converted, then clamped to [0.0, 1.0]", out_dtype="u64"))
    return ["DM-CVT", "CVT-11", "CVT-23"], "cvt int -> float: every rounding mode, wide registers, .sat", forms


@group("cvt_legacy_defaults", dialects=("sm13",))
def g_cvt_legacy(d):
    """CVT-12: .version 1.3 code may leave out cvt rounding modifiers; the C defaults apply (.rn for int -> float,
    .rzi for float -> int). The case is written with .version 1.3 (see build: VERSION_OVERRIDE)."""
    forms = []
    forms.append(Form("cvt.f32.s32 / cvt.f32.u32 without a rounding modifier (.version 1.3: means .rn)", ["s32"], ["f32", "f32"],
                      "cvt.f32.s32 {d0}, {a0};\ncvt.f32.u32 {d1}, {a0};", [(16777217,), (16777219,), (M(-16777219, 32),), (0x7FFFFFFF,), (5,)],
                      lambda a: [int_to_float(SX(a, 32), F32, "rn"), int_to_float(a, F32, "rn")],
                      "rounded to nearest even (16777219 -> 16777220; .rz would give 16777218)", out_dtype="f32"))
    forms.append(Form("cvt.s32.f64 / cvt.s32.f32 / cvt.u16.f32 without a rounding modifier (.version 1.3: means .rzi)", ["f64", "f32"], ["s32", "s32", "u16"],
                      "cvt.s32.f64 {d0}, {a0};\ncvt.s32.f32 {d1}, {a1};\ncvt.u16.f32 {d2}, {a1};",
                      [(D(2.7), F(2.7)), (D(-2.7), F(-2.7)), (D(-0.5), F(0.5)), (D(1e10), F(70000.9)), (D(3.5), F(3.5))],
                      lambda a, b: [float_to_int(a, F64, "rzi", True, 32), float_to_int(b, F32, "rzi", True, 32), float_to_int(b, F32, "rzi", False, 16)],
                      "truncated toward zero, saturated (2.7 -> 2, -2.7 -> -2, 1e10 -> 0x7fffffff, 70000.9 -> 65535)"))
    return ["DM-CVT", "CVT-12"], "cvt without rounding modifiers in a .version 1.3 file: the legacy defaults", forms


@group("cvt_float_float")
def g_cvt_ff(d):
    legacy = d == "sm13"
    forms = []
    modes = ["rn", "rz", "rm", "rp"]
    r = rng_for("cvtff" + d)
    v64 = [0, 1 << 63, D(1.0), D(-1.0), D(1.0 + 2 ** -24), D(1.0 + 2 ** -24 + 2 ** -40), D(-(1.0 + 3 * 2 ** -24)), D(3.4028235677973366e38),
           D(3.5e38), D(-1e300), D(2.0 ** -130), D(-(2.0 ** -149)), D(2.0 ** -150), D(2.0 ** -151), D(1e-50), D(-1e-50),
           0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0x0000000000000001] + [rand_f(r, F64, -140, 130) for _ in range(12)]
    forms.append(Form("cvt.{rn,rz,rm,rp}.f32.f64", ["f64"], ["f32"] * 4, "\n".join("cvt.%s.f32.f64 {d%d}, {a0};" % (m, i) for i, m in enumerate(modes)),
                      [(x,) for x in v64], lambda a: [convert(a, F64, F32, m) for m in modes],
                      "exact f64 value rounded once to binary32; overflow -> inf or max finite per mode; f32 SUBNORMAL results kept\n"
                      "(CVT-30: no flush when .f64 is involved, on sm_1x too)", out_dtype="f32", tol=NANANY))
    v32 = S32 + [0x807FFFFF, F(0.1), F(-3.75), 0x00000003]
    forms.append(Form("cvt.f64.f32 (exact widening)", ["f32"], ["f64"], "cvt.f64.f32 {d0}, {a0};", [(x,) for x in v32],
                      lambda a: [convert(a, F32, F64, "rn")], "the exact value; subnormal f32 inputs give the exact denormal value (CVT-30, no flush)",
                      out_dtype="f64", tol=NANANY))
    vh = [F(x) for x in (0.0, -0.0, 1.0, 1.0 + 2 ** -11, 1.0 + 3 * 2 ** -11, -(1.0 + 2 ** -11), 0.1, 1000.7, 65504.0, -65503.0, 2.0 ** -14, 6.1e-5)] + [0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001]
    if not legacy:
        vh += [F(2.0 ** -20), F(-(2.0 ** -24)), F(3 * 2.0 ** -26)]  # f16 subnormal results (not specified for sm_1x)
    forms.append(Form("cvt.{rn,rz,rm,rp}.f16.f32", ["f32"], ["b16"] * 4, "\n".join("cvt.%s.f16.f32 {d%d}, {a0};" % (m, i) for i, m in enumerate(modes)),
                      [(x,) for x in vh], lambda a: [convert(a, F32, F16, m, ftz_in=legacy) for m in modes],
                      "rounded once to binary16" + ("; sm_1x flushes the f32 subnormal input (CVT-30)" if legacy else "") + "; NaN -> some NaN",
                      out_dtype="f16", tol=NANANY))
    vhs = [0x0000, 0x8000, 0x3C00, 0xBC00, 0x0001, 0x83FF, 0x0400, 0x7BFF, 0x7C00, 0xFC00, 0x3555]
    forms.append(Form("cvt.f32.f16 / cvt.f64.f16 (exact widening)", ["b16"], ["f32"], "cvt.f32.f16 {d0}, {a0};", [(x,) for x in vhs],
                      lambda a: [convert(a, F16, F32, "rn")], "exact value (f16 subnormals become f32 normals)", out_dtype="f32", tol=NANANY))
    forms.append(Form("cvt.f64.f16", ["b16"], ["f64"], "cvt.f64.f16 {d0}, {a0};", [(x,) for x in vhs],
                      lambda a: [convert(a, F16, F64, "rn")], "exact value", out_dtype="f64", tol=NANANY))
    vh64 = [D(x) for x in (1.0, 1.0 + 2 ** -11, 1.0 + 2 ** -11 + 2 ** -30, -(1.0 + 3 * 2 ** -11), 0.1, 65504.0, 2.0 ** -14)]
    forms.append(Form("cvt.{rn,rz,rm,rp}.f16.f64", ["f64"], ["b16"] * 4, "\n".join("cvt.%s.f16.f64 {d%d}, {a0};" % (m, i) for i, m in enumerate(modes)),
                      [(x,) for x in vh64], lambda a: [convert(a, F64, F16, m) for m in modes], "rounded once to binary16", out_dtype="f16"))
    # same-size: integral rounding, plain copy/flush, .sat
    vi = [F(x) for x in (0.5, -0.5, 1.5, 2.5, -2.5, 3.49, -3.51, 1e10, 8388607.5, -0.0, 0.0)] + [0x7F800000, 0xFF800000, 0x00000001, 0x80000001]
    outs = ["rni", "rzi", "rmi", "rpi"]
    forms.append(Form("cvt.{rni,rzi,rmi,rpi}.f32.f32 (round to an integral value)", ["f32"], ["f32"] * 4,
                      "\n".join("cvt.%s.f32.f32 {d%d}, {a0};" % (m, i) for i, m in enumerate(outs)), [(x,) for x in vi],
                      lambda a: [round_integral(a, F32, m, ftz=legacy) for m in outs],
                      "integral value in the given direction (rni: ties to even), sign kept (-0.5 rni -> -0.0); inf unchanged" +
                      ("; sm_1x: subnormal input flushed first (CVT-30)" if legacy else "; subnormal -> +-0 or +-1 by direction"),
                      out_dtype="f32", tol=NANANY))
    vi64 = [D(x) for x in (0.5, -0.5, 1.5, 2.5, -2.5, 3.49, -3.51, 1e300, 4503599627370495.5, -0.0)] + [1, 0x8000000000000001, 0x7FF0000000000000]
    forms.append(Form("cvt.{rni,rzi,rmi,rpi}.f64.f64", ["f64"], ["f64"] * 4, "\n".join("cvt.%s.f64.f64 {d%d}, {a0};" % (m, i) for i, m in enumerate(outs)),
                      [(x,) for x in vi64], lambda a: [round_integral(a, F64, m) for m in outs], "integral value in the given direction, subnormals kept",
                      out_dtype="f64", tol=NANANY))
    vs = [F(x) for x in (0.5, 1.5, -2.0, 1.0, 0.0, 0.999)] + [0x7FC00000, 0x7F800000, 0xFF800000]
    forms.append(Form("cvt.sat.f32.f32 / cvt.rni.sat.f32.f32 / cvt.rn.sat.f32.f64-of-widened / cvt.sat.f64.f32 (CVT-23)", ["f32"], ["f32", "f32", "f64"],
                      "cvt.sat.f32.f32 {d0}, {a0};\ncvt.rni.sat.f32.f32 {d1}, {a0};\ncvt.sat.f64.f32 {d2}, {a0};", [(x,) for x in vs],
                      lambda a: [sat(a, F32), sat(round_integral(a, F32, "rni"), F32), sat(convert(a, F32, F64, "rn"), F64)],
                      "clamped to [0.0, 1.0]; NaN -> +0.0", out_dtype="u64"))
    forms.append(Form("cvt.f32.f32 (no rounding modifier)" + (" (sm_1x: flushes subnormals)" if legacy else ""), ["f32"], ["f32"], "cvt.f32.f32 {d0}, {a0};",
                      [(x,) for x in (0x3F800000, 0x00000001, 0x807FFFFF, 0xC0490FDB)], lambda a: [flush(a, F32) if legacy else a],
                      "identity" + (" with subnormal inputs flushed (CVT-30)" if legacy else ""), out_dtype="f32", tol=NANANY))
    if not legacy:
        forms.append(Form("cvt.ftz.f32.f32 / cvt.ftz.f64.f32 / cvt.rn.ftz.f32.f64 (sm_20+ explicit .ftz)", ["f32", "f64"], ["f32", "f64", "f32"],
                          "cvt.ftz.f32.f32 {d0}, {a0};\ncvt.ftz.f64.f32 {d1}, {a0};\ncvt.rn.ftz.f32.f64 {d2}, {a1};",
                          [(0x00000001, D(2.0 ** -140)), (0x807FFFFF, D(-(2.0 ** -130))), (F(1.5), D(1.5))],
                          lambda a, b: [flush(a, F32), convert(a, F32, F64, "rn", ftz_in=True), convert(b, F64, F32, "rn", ftz_out=True)],
                          "subnormal f32 inputs and results flushed to a signed zero", out_dtype="u64"))
    return ["DM-CVT", "CVT-10", "CVT-11", "CVT-23", "CVT-30"], "cvt float -> float: rounding, integral rounding, ftz rules, .sat", forms


# =====================================================================================
# Hand-written kernels: data movement, control flow, synchronization, special registers
# =====================================================================================

class Buf:
    """A buffer parameter: initial data (or zero-filled) and optional expected contents."""

    def __init__(self, name, dtype, count, data=None, expect=None, tol=None, output=None, rule=""):
        self.name, self.dtype, self.count = name, dtype, count
        self.data, self.expect, self.tol = data, expect, tol
        self.output = output if output is not None else expect is not None
        self.rule = rule


def ptr(d, param, r):
    """Load a buffer parameter into a 64-bit register (a global address)."""
    s = "  ld.param.u64 %s, [%s];\n" % (r, param)
    if d == "sm75":
        s += "  cvta.to.global.u64 %s, %s;\n" % (r, r)
    return s


def tidx(d, r="%tix"):
    return "  cvt.u32.u16 %s, %%tid.x;\n" % r if d == "sm13" else "  mov.u32 %s, %%tid.x;\n" % r


def raw_case(d, ids, title, doc, bufs, body, decls="", module="", funcs="", block=(32, 1, 1), grid=(1, 1, 1), expect_trap=False,
             scalars=(), kernel="k"):
    """bufs: [Buf]; scalars: [(name, type, value)] appended after the buffers in .entry order."""
    params, expect, files = [], {}, {}
    lines = list(doc)
    for b in bufs:
        sz = DTYPE_SIZE[b.dtype]
        p = {"type": "buffer", "name": b.name, "dtype": b.dtype, "count": b.count, "output": b.output}
        if b.data is not None:
            files["%s.bin" % b.name] = pack(b.data, sz)
            p["file"] = "%s.bin" % b.name
        params.append(p)
        if b.expect is not None:
            assert len(b.expect) == b.count, (title, b.name, len(b.expect), b.count)
            files["expected_%s.bin" % b.name] = pack(b.expect, sz)
            e = {"file": "expected_%s.bin" % b.name, "dtype": b.dtype, "count": b.count}
            if b.tol is not None:
                e["tolerance"] = b.tol
            expect[b.name] = e
            lines.append("")
            rl = b.rule.split("\n")
            lines.append("buffer %s (%d x %s): %s" % (b.name, b.count, b.dtype, rl[0]))
            lines += ["  " + x for x in rl[1:]]
            shown = b.expect[:64]
            for i in range(0, len(shown), 8):
                lines.append("  [%3d] %s" % (i, " ".join(hx(x, 8 * sz) for x in shown[i:i + 8])))
            if len(b.expect) > 64:
                lines.append("  ... (%d more in expected_%s.bin)" % (len(b.expect) - 64, b.name))
    for n, t, v in scalars:
        params.append({"type": t, "value": v})
    ptx = comment_block("", d, ids, title, lines)
    ptx += "\n" + HEADER[d] + "\n"
    if module:
        ptx += module.strip("\n") + "\n\n"
    if funcs:
        ptx += funcs.strip("\n") + "\n\n"
    plist = [".param .u64 %s" % b.name for b in bufs] + [".param .%s %s" % (t, n) for n, t, _ in scalars]
    ptx += "%s %s (\n%s\n)\n{\n" % (".visible .entry" if d == "sm75" else ".entry", kernel, ",\n".join("  " + p for p in plist))
    ptx += "  .reg .u32 %tix;\n" + decls.rstrip() + "\n\n" + body.rstrip() + "\n}\n"
    c = Case("", d, ids, title, ptx, params, expect, grid=grid, block=block, files=files, expect_trap=expect_trap)
    return c


def set_kernel_name(c, name):
    c.ptx = c.ptx.replace("Heddle PTX reference-interpreter conformance test: \n", "Heddle PTX reference-interpreter conformance test: %s\n" % name, 1)
    c.ptx = c.ptx.replace("entry k (\n", "entry %s (\n" % name, 1)
    c.name = name


@group("mem_ld_st_spaces")
def g_mem(d):
    n = 64
    r = rng_for("mem")
    inp = [r.getrandbits(32) for _ in range(n)]
    in4 = [r.getrandbits(32) for _ in range(4 * n)]
    ctab = [100, 200, 300, 400]
    gtab = [10, 20, 30, 40]
    K = 7
    exp = []
    for t in range(n):
        loc = [t + i for i in range(4)]
        v = in4[4 * t:4 * t + 4]
        exp += [inp[t], ctab[t % 4], ctab[2], gtab[1], K, M(t * 3 + 1, 32), sum(loc) + loc[1], t ^ 0x5A,
                t ^ 0xA5, M(sum(v), 32), v[2], v[3], None, None, None, 0x600DF00D]
    a64 = "%rd" if d == "sm75" else "%r"
    body = tidx(d) + ptr(d, "inp", "%rd1") + ptr(d, "in4", "%rd2") + ptr(d, "out", "%rd3") + """
  mul.wide.u32 %rd4, %tix, 4;
  add.u64 %rd5, %rd1, %rd4;
  ld.global.u32 %r1, [%rd5];                 // [reg]
  mul.wide.u32 %rd4, %tix, 64;
  add.u64 %rd6, %rd3, %rd4;                  // &out[16*t]
  st.global.u32 [%rd6], %r1;
  // const space: computed address (mov gives the address of ctab in .const), [var+imm]
  and.b32 %r2, %tix, 3;
  shl.b32 %r2, %r2, 2;
  mov.u32 %r3, ctab;
  add.u32 %r3, %r3, %r2;
  ld.const.u32 %r4, [%r3];
  st.global.u32 [%rd6+4], %r4;
  ld.const.u32 %r4, [ctab+8];
  st.global.u32 [%rd6+8], %r4;
  ld.global.u32 %r4, [gtab+4];               // module .global with an initializer
  st.global.u32 [%rd6+12], %r4;
  ld.param.u32 %r4, [k];                     // scalar kernel parameter
  st.global.u32 [%rd6+16], %r4;
  // shared: own slot, [reg+imm] and [reg+-imm]
  mov.u32 %r5, sh;
  shl.b32 %r6, %tix, 2;
  add.u32 %r5, %r5, %r6;
  mad.lo.u32 %r7, %tix, 3, 1;
  st.shared.u32 [%r5+4], %r7;
  add.u32 %r5, %r5, 8;
  ld.shared.u32 %r8, [%r5+-4];
  st.global.u32 [%rd6+20], %r8;
  // local: [var+imm] and a computed address
  st.local.u32 [loc], %tix;
  add.u32 %r9, %tix, 1;
  st.local.u32 [loc+4], %r9;
  add.u32 %r9, %tix, 2;
  st.local.u32 [loc+8], %r9;
  add.u32 %r9, %tix, 3;
  st.local.u32 [loc+12], %r9;
  mov.u32 %r10, loc;
  ld.local.u32 %r11, [%r10];
  ld.local.u32 %r12, [%r10+4];
  ld.local.u32 %r13, [loc+8];
  ld.local.u32 %r14, [loc+12];
  add.u32 %r11, %r11, %r12;
  add.u32 %r11, %r11, %r13;
  add.u32 %r11, %r11, %r14;
  add.u32 %r11, %r11, %r12;
  st.global.u32 [%rd6+24], %r11;
  // volatile global and shared
  xor.b32 %r15, %tix, 0x5a;
  st.volatile.global.u32 [%rd6+28], %r15;
  xor.b32 %r15, %tix, 0xa5;
  st.volatile.shared.u32 [%r5+-4], %r15;
  ld.volatile.shared.u32 %r16, [%r5+-4];
  st.global.u32 [%rd6+32], %r16;
  // vectors: ld.v4 / ld.v2 into brace lists, st.v2 from a brace list (vector registers: mem_vector_regs)
  mul.wide.u32 %rd4, %tix, 16;
  add.u64 %rd7, %rd2, %rd4;
  ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd7];
  add.u32 %r17, %r1, %r2;
  add.u32 %r17, %r17, %r3;
  add.u32 %r17, %r17, %r4;
  ld.global.v2.u32 {%r25, %r26}, [%rd7+8];
  st.global.v2.u32 [%rd6+40], {%r25, %r26}; // 8-byte aligned
  st.global.u32 [%rd6+36], %r17;
  // 8-bit vector from a module variable: ld.global.v4.u8 (T19: zero-extended into 16-bit registers)
  and.b32 %r19, %tix, 1;
  shl.b32 %r19, %r19, 2;
  mov.u32 %r20, rgba;
  add.u32 %r20, %r20, %r19;
  ld.global.v4.u8 {%h1, %h2, %h3, %h4}, [%r20];   // a 32-bit address register (zero-extended)
  mov.b32 %r21, {%h1, %h2};
  mov.b32 %r22, {%h3, %h4};
  shl.b32 %r22, %r22, 8;
  or.b32 %r21, %r21, %r22;
  st.global.u32 [%rd6+48], %r21;
  // mov of a variable's address: the byte offset of loc[1] relative to loc, plus tid*4
  mov.u32 %r23, loc;
  add.u32 %r23, %r23, 4;
  mov.u32 %r24, loc;
  sub.u32 %r23, %r23, %r24;
  add.u32 %r23, %r23, %r6;
  st.global.u32 [%rd6+52], %r23;
  // .f64 in .const, st.global.f32 of an immediate-loaded register, ld/st.global.f64
  ld.const.f64 %fd1, [cd];
  cvt.rn.f32.f64 %f1, %fd1;
  mov.b32 %r25, %f1;
  st.global.u32 [%rd6+56], %r25;
  mov.u32 %r26, 0x600df00d;
  st.global.u32 [%rd6+60], %r26;
  exit;
"""
    # r21 = (h1 | h2 << 16) | ((h3 | h4 << 16) << 8), the bytes zero-extended into 16-bit registers (T19)
    def rgba_word(t):
        b = [1, 2, 3, 4] if t % 2 == 0 else [5, 6, 7, 8]
        return M((b[0] | b[1] << 16) | ((b[2] | b[3] << 16) << 8), 32)
    for t in range(n):
        exp[16 * t + 12] = rgba_word(t)
        exp[16 * t + 13] = 4 + 4 * t
        exp[16 * t + 14] = F(2.5)
    decls = """  .reg .u16 %h<5>;
  .reg .u32 %r<28>;
  .reg .u64 %rd<9>;
  .reg .f32 %f1;
  .reg .f64 %fd1;
  .local .u32 loc[4];
  .shared .u32 sh[66];"""
    module = """.global .u32 gtab[4] = {10, 20, 30, 40};
.global .v4 .u8 rgba[2] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
.const .u32 ctab[4] = {100, 200, 300, 400};
.const .f64 cd = 2.5;"""
    doc = ["Each thread t writes 16 words at out[16t]: a global load through a register address, const loads through a",
           "computed address and [var+imm], a module .global, a scalar .param, shared [reg+imm]/[reg+-imm], local",
           "variables through [var+imm] and a mov'd address, volatile global/shared, ld.v4/ld.v2/st.v2 with element",
           "selectors, ld.global.v4.u8 of a module vector array, address arithmetic on mov'd addresses, .const .f64.",
           "Expected values: Python re-computation of each step (see tools/gen_ptx_interp_tests.py, g_mem)."]
    if d == "sm75":
        body = body.replace("mov.u32 %r3, ctab;\n  add.u32 %r3, %r3, %r2;\n  ld.const.u32 %r4, [%r3];",
                            "mov.u64 %rd9, ctab;\n  cvt.u64.u32 %rd10, %r2;\n  add.u64 %rd9, %rd9, %rd10;\n  ld.const.u32 %r4, [%rd9];")
        body = body.replace("mov.u32 %r5, sh;\n  shl.b32 %r6, %tix, 2;\n  add.u32 %r5, %r5, %r6;",
                            "mov.u32 %r5, sh;\n  shl.b32 %r6, %tix, 2;\n  add.u32 %r5, %r5, %r6;")
        body = body.replace("mov.u32 %r10, loc;", "mov.u32 %r10, loc;")
        body = body.replace("mov.u32 %r20, rgba;\n  add.u32 %r20, %r20, %r19;\n  ld.global.v4.u8 {%h1, %h2, %h3, %h4}, [%r20];",
                            "mov.u64 %rd8, rgba;\n  cvt.u64.u32 %rd10, %r19;\n  add.u64 %rd8, %rd8, %rd10;\n  ld.global.v4.u8 {%h1, %h2, %h3, %h4}, [%rd8];")
        decls = decls.replace(".reg .u64 %rd<9>;", ".reg .u64 %rd<11>;")
    bufs = [Buf("inp", "u32", n, inp), Buf("in4", "u32", 4 * n, in4),
            Buf("out", "u32", 16 * n, None, exp, rule="16 words per thread, see the list above")]
    return raw_case(d, ["DM-LD", "DM-ST", "DM-MOV", "MEM-03"], "ld/st in every state space, address forms, vectors, volatile", doc, bufs, body, decls, module,
                    block=(n, 1, 1), scalars=[("k", "u32", K)])


@group("mem_vector_regs")
def g_vecregs(d):
    n = 32
    r = rng_for("vecregs")
    inp = [r.getrandbits(32) for _ in range(4 * n)]
    exp = []
    for t in range(n):
        v = inp[4 * t:4 * t + 4]
        exp += [v[2], v[3], v[0], v[1]] + v + [M(v[0] + v[1] + v[2] + v[3], 32), 0, 0, 0]
    body = tidx(d) + ptr(d, "inp", "%rd1") + ptr(d, "out", "%rd2") + """  mul.wide.u32 %rd3, %tix, 16;
  add.u64 %rd1, %rd1, %rd3;
  mul.wide.u32 %rd3, %tix, 48;
  add.u64 %rd2, %rd2, %rd3;
  ld.global.v2.u32 %v0, [%rd1];             // parameterized vector registers: %v0, %v1, %v2 are three .v2 .u32 vectors
  ld.global.v2.u32 %v1, [%rd1+8];
  st.global.v2.u32 [%rd2], %v1;
  st.global.v2.u32 [%rd2+8], %v0;
  ld.global.v4.u32 %w, [%rd1];              // a plain vector register (the spec's `ld.global.v2.u32 V2, [addr]`)
  st.global.v4.u32 [%rd2+16], %w;
  ld.global.v4.u32 {%r0, %r1, %r2, %r3}, [%rd1];
  add.u32 %r0, %r0, %r1;
  add.u32 %r0, %r0, %r2;
  add.u32 %r0, %r0, %r3;
  st.global.u32 [%rd2+32], %r0;
  exit;
"""
    decls = """  .reg .v2 .u32 %v<3>;
  .reg .v4 .u32 %w;
  .reg .u32 %r<4>;
  .reg .u64 %rd<4>;"""
    bufs = [Buf("inp", "u32", 4 * n, inp), Buf("out", "u32", 12 * n, None, exp, rule="per thread: the second pair, the first pair (through %v1, %v0), the four words\n"
                "(through the .v4 register %w), their sum, 0, 0, 0")]
    doc = ["ld/st with vector registers as data operands (OP-07, the spec's `ld.global.v2.u32 V2, [addr+offset2]`), including",
           "vector registers declared with a parameterized name (.reg .v2 .u32 %v<3>; VAR-01, VAR-09): each %vN is a whole vector.",
           "Expected: Python."]
    return raw_case(d, ["DM-LD", "DM-ST", "VAR-09"], "parameterized vector registers in ld/st", doc, bufs, body, decls, block=(n, 1, 1))


@group("mem_relaxed_types")
def g_relaxed(d):
    n = 32
    r = rng_for("relaxed")
    b = [r.getrandbits(8) for _ in range(8 * n)]
    for t in range(0, n, 4):  # make sure sign bits are set in some lanes
        for j in range(8):
            b[8 * t + j] |= 0x80
    exp, sexp = [], []
    for t in range(n):
        x = b[8 * t:8 * t + 8]
        w = lambda i, k: int.from_bytes(bytes(x[i:i + k]), "little")
        exp += [M(SX(x[0], 8), 32), x[1], M(SX(x[2], 8), 16), M(SX(x[3], 8), 64), x[4], w(4, 2), M(SX(w(6, 2), 16), 32),
                M(SX(w(4, 4), 32), 64), w(0, 4), w(0, 4)]
        v32 = M(0x12345678 ^ t, 32)
        v64 = M(0x8877665544332211 + t, 64)
        f = F(1.5 + t)
        sb = [0] * 16
        sb[0] = v32 & 0xFF
        sb[2:4] = list(M(v64, 16).to_bytes(2, "little"))
        sb[4:8] = list(M(v64, 32).to_bytes(4, "little"))
        sb[8] = f & 0xFF
        sb[10:12] = list(M(v32, 16).to_bytes(2, "little"))
        sb[12:16] = list(M(v64, 32).to_bytes(4, "little"))
        sexp += sb
    body = tidx(d) + ptr(d, "bytes", "%rd1") + ptr(d, "out", "%rd2") + ptr(d, "sout", "%rd3") + """
  mul.wide.u32 %rd4, %tix, 8;
  add.u64 %rd1, %rd1, %rd4;
  mul.wide.u32 %rd4, %tix, 80;
  add.u64 %rd2, %rd2, %rd4;
  mul.wide.u32 %rd4, %tix, 16;
  add.u64 %rd3, %rd3, %rd4;
  ld.global.s8 %s1, [%rd1];          // s8 into .s32: sign-extended
  st.global.s32 [%rd2], %s1;
  ld.global.u8 %r1, [%rd1+1];        // u8 into .u32: zero-extended
  st.global.u32 [%rd2+8], %r1;
  ld.global.s8 %hs1, [%rd1+2];       // s8 into .s16: sign-extended
  st.global.s16 [%rd2+16], %hs1;
  ld.global.s8 %rd5, [%rd1+3];       // s8 into .u64: sign-extended (the instruction type decides)
  st.global.u64 [%rd2+24], %rd5;
  ld.global.b8 %b1, [%rd1+4];        // b8 into .b32: zero-extended
  st.global.b32 [%rd2+32], %b1;
  ld.global.u16 %sd1, [%rd1+4];      // u16 into .s64: zero-extended
  st.global.s64 [%rd2+40], %sd1;
  ld.global.s16 %r2, [%rd1+6];       // s16 into .u32: sign-extended
  st.global.u32 [%rd2+48], %r2;
  ld.global.s32 %bd1, [%rd1+4];      // s32 into .b64: sign-extended
  st.global.b64 [%rd2+56], %bd1;
  ld.global.f32 %bd2, [%rd1];        // f32 into .b64: zero-extended
  st.global.b64 [%rd2+64], %bd2;
  ld.global.u32 %sd2, [%rd1];        // u32 into .s64: zero-extended
  st.global.s64 [%rd2+72], %sd2;
  // stores from wider registers keep the low bits (T18 chop)
  xor.b32 %r3, %tix, 0x12345678;
  cvt.u64.u32 %rd6, %tix;
  add.u64 %sd3, %rd6, 0x8877665544332211;
  mov.b64 %bd3, %sd3;
  cvt.rn.f32.u32 %f1, %tix;
  add.f32 %f1, %f1, 0f3FC00000;
  st.global.u8 [%rd3], %r3;          // .u32 register, 8-bit store
  st.global.s16 [%rd3+2], %sd3;      // .s64 register, 16-bit store
  st.global.b32 [%rd3+4], %bd3;      // .b64 register, 32-bit store
  st.global.b8 [%rd3+8], %f1;        // .f32 register, 8-bit store (b8 accepts any source type)
  st.global.u16 [%rd3+10], %r3;      // .u32 register, 16-bit store
  st.global.f32 [%rd3+12], %bd3;     // .b64 register, f32 store (b64 -> chop)
  exit;
"""
    decls = """  .reg .s16 %hs1;
  .reg .u32 %r<4>;
  .reg .s32 %s1;
  .reg .b32 %b1;
  .reg .f32 %f1;
  .reg .u64 %rd<7>;
  .reg .s64 %sd<4>;
  .reg .b64 %bd<4>;"""
    bufs = [Buf("bytes", "u8", 8 * n, b), Buf("out", "u64", 10 * n, None, exp, rule="10 slots per thread: the loaded register, stored at its full width"),
            Buf("sout", "u8", 16 * n, None, sexp, rule="16 bytes per thread written by stores from wider registers")]
    doc = ["T18/T19 (TC-10..TC-12): ld into registers wider than the instruction type extends by the INSTRUCTION type's",
           "signedness (.s -> sign, .u/.b/.f -> zero); st from a wider register stores its low bits.",
           "Expected: Python re-computation from the input bytes."]
    return raw_case(d, ["DM-LD", "DM-ST", "TC-10", "TC-11", "TC-12"], "ld/st with registers wider than the instruction type (T18/T19)", doc, bufs, body, decls, block=(n, 1, 1))


@group("mov_pack")
def g_mov(d):
    forms = []
    forms.append(Form("mov.b32 {h0, h1} (pack) / mov.b32 {h0, h1}, r (unpack)", ["b16", "b16", "b32"], ["b32", "b16", "b16"],
                      "mov.b32 {d0}, {{{a0}, {a1}}};\nmov.b32 {{{d1}, {d2}}}, {a2};", [(0x1234, 0xABCD, 0xDEADBEEF), (0xFFFF, 0, 0x00018000)],
                      lambda a, b, c: [a | b << 16, c & 0xFFFF, c >> 16], "element x in the least significant bits (DM-MOVPK)"))
    forms.append(Form("mov with immediates of every type", [], ["u16", "s16", "u32", "s32", "u64", "s64", "f32", "f32", "f64", "b32"], """
        mov.u16 {d0}, 0xfffe;
        mov.s16 {d1}, -3;
        mov.u32 {d2}, 4000000000;
        mov.s32 {d3}, -2147483648;
        mov.u64 {d4}, 0xfedcba9876543210;
        mov.s64 {d5}, -2;
        mov.f32 {d6}, 0f3FC00000;
        mov.f32 {d7}, 0.1;
        mov.f64 {d8}, 0d400921FB54442D18;
        mov.b32 {d9}, WARP_SZ;""", [()],
        lambda: [0xFFFE, M(-3, 16), 4000000000, 0x80000000, 0xFEDCBA9876543210, M(-2, 64), 0x3FC00000, F(0.1), 0x400921FB54442D18, 32],
        "the immediate's value in the instruction type (0.1 rounded to nearest binary32; WARP_SZ = 32)", out_dtype="u64"))
    forms.append(Form("mov between registers of every type (bits unchanged, no flushing)", ["b64", "f32", "f64", "pred"], ["b64", "f32", "f64", "pred", "u16"], """
        mov.b64 {d0}, {a0};
        mov.f32 {d1}, {a1};
        mov.f64 {d2}, {a2};
        mov.pred {d3}, {a3};
        cvt.u16.u64 {d4}, {a0};""",
        [(0x0123456789ABCDEF, 0x00000001, 0x000FFFFFFFFFFFFF, 1), (M(-1, 64), 0x7FC00123, 0x7FF8000000000001, 0)],
        lambda a, b, c, p: [a, b, c, p, a & 0xFFFF], "a plain copy: f32 subnormals and NaN payloads survive mov (FPE-03)", out_dtype="u64"))
    if d == "sm75":
        forms.append(Form("mov.b64 {lo, hi} (pack) / mov.b64 {lo, hi}, x (unpack), mov.b64 {4 x b16}", ["b32", "b32", "b64"], ["b64", "b32", "b32", "b64"], """
            mov.b64 {d0}, {{{a0}, {a1}}};
            mov.b64 {{{d1}, {d2}}}, {a2};
            mov.b64 {{{t0}, {t1}, {t2}, {t3}}}, {a2};
            mov.b64 {d3}, {{{t3}, {t2}, {t1}, {t0}}};""", [(0x11111111, 0x22222222, 0x0123456789ABCDEF)],
            lambda a, b, c: [a | b << 32, c & 0xFFFFFFFF, c >> 32, 0xCDEF89AB45670123], "x in the low bits; the 16-bit unpack/repack reverses the halfwords",
            out_dtype="u64", temps=["b16"] * 4))
    return ["DM-MOV", "DM-MOVPK", "SREG-WARPSZ"], "mov: pack/unpack, immediates, register copies", forms


@group("mov_vector")
def g_mov_vec(d):
    forms = []
    forms.append(Form("mov.v2.u32 V2, V1 / mov.v4.f32 {a, b, c, d}, V (the spec's example)", ["u32", "u32", "f32"], ["u32", "u32", "f32", "f32", "f32", "f32"], """
        mov.u32 {t0}.x, {a0};
        mov.u32 {t0}.y, {a1};
        mov.v2.u32 {t1}, {t0};
        mov.u32 {d0}, {t1}.x;
        mov.u32 {d1}, {t1}.y;
        mov.f32 {t2}.x, {a2};
        add.f32 {t3}, {a2}, 0f3F800000;
        mov.f32 {t2}.y, {t3};
        add.f32 {t3}, {t3}, 0f3F800000;
        mov.f32 {t2}.z, {t3};
        add.f32 {t3}, {t3}, 0f3F800000;
        mov.f32 {t2}.w, {t3};
        mov.v4.f32 {{{d2}, {d3}, {d4}, {d5}}}, {t2};""", [(0x12345678, 0x9ABCDEF0, F(1.0)), (1, 2, F(-8.5))],
        lambda a, b, c: [a, b, c, fadd(c, F(1.0), F32), fadd(fadd(c, F(1.0), F32), F(1.0), F32), fadd(fadd(fadd(c, F(1.0), F32), F(1.0), F32), F(1.0), F32)],
        "element-wise copies of whole 32-bit elements (.x -> .x, ...)", temps=["v2 .u32", "v2 .u32", "v4 .f32", "f32"]))
    return ["DM-MOV"], "mov with vector operands", forms


@group("cf_branch_loop_guard")
def g_branch(d):
    n = 96
    exp = []
    for t in range(n):
        if t % 2 == 1:
            v = (100 if t & 2 else 200) + t
        else:
            v = 300 if t < 32 else 400
        k = t % 7
        acc = sum(3 * i for i in range(k))
        first = next(i for i in range(10) if (t + i) % 5 == 0)
        w = 7 + t * t
        u = 11 if n == 96 else 12
        exp += [v, acc, first, w, u, 1 if t % 4 == 3 else 0]
    body = tidx(d) + ptr(d, "out", "%rd1") + """
  mul.wide.u32 %rd2, %tix, 24;
  add.u64 %rd1, %rd1, %rd2;
  // nested divergent if/else
  and.b32 %r1, %tix, 1;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra EVEN;
  and.b32 %r2, %tix, 2;
  setp.ne.u32 %p2, %r2, 0;
  @!%p2 bra ODD_A;
  mov.u32 %r3, 100;
  bra ODD_END;
ODD_A:
  mov.u32 %r3, 200;
ODD_END:
  add.u32 %r3, %r3, %tix;
  bra JOIN;
EVEN:
  setp.lt.u32 %p3, %tix, 32;
  @%p3 mov.u32 %r3, 300;              // guarded moves, both outcomes in one warp
  @!%p3 mov.u32 %r3, 400;
JOIN:
  st.global.u32 [%rd1], %r3;
  // loop with a per-thread trip count (tid % 7)
  rem.u32 %r4, %tix, 7;
  mov.u32 %r5, 0;
  mov.u32 %r6, 0;
LOOP:
  setp.ge.u32 %p4, %r6, %r4;
  @%p4 bra LOOP_END;
  mad.lo.u32 %r5, %r6, 3, %r5;
  add.u32 %r6, %r6, 1;
  bra LOOP;
LOOP_END:
  st.global.u32 [%rd1+4], %r5;
  // loop with two exits: the first i in [0, 10) with (tid + i) % 5 == 0
  mov.u32 %r7, 0;
SEARCH:
  add.u32 %r8, %tix, %r7;
  rem.u32 %r8, %r8, 5;
  setp.eq.u32 %p5, %r8, 0;
  @%p5 bra FOUND;
  add.u32 %r7, %r7, 1;
  setp.lt.u32 %p6, %r7, 10;
  @%p6 bra SEARCH;
  mov.u32 %r7, 999;
FOUND:
  st.global.u32 [%rd1+8], %r7;
  // a false guard does nothing (GEN-05); a block with its own register (CF-BLOCK)
  mov.u32 %r9, 7;
  setp.gt.u32 %p7, %tix, 1000;
  @%p7 mov.u32 %r9, 99;
  {
    .reg .u32 %inner;
    mul.lo.u32 %inner, %tix, %tix;
    add.u32 %r9, %r9, %inner;
  }
  st.global.u32 [%rd1+12], %r9;
  // bra.uni on a uniform condition (the block size)
  mov.u32 %r10, 11;
""" + ("  cvt.u32.u16 %r11, %ntid.x;\n" if d == "sm13" else "  mov.u32 %r11, %ntid.x;\n") + """
  setp.eq.u32 %p8, %r11, 96;
  @%p8 bra.uni UNI_DONE;
  mov.u32 %r10, 12;
UNI_DONE:
  st.global.u32 [%rd1+16], %r10;
  // guarded store
  and.b32 %r12, %tix, 3;
  setp.eq.u32 %p9, %r12, 3;
  selp.u32 %r13, 1, 0, %p9;
  @%p9 st.global.u32 [%rd1+20], %r13;
  exit;
"""
    decls = """  .reg .u32 %r<14>;
  .reg .u64 %rd<3>;
  .reg .pred %p<10>;"""
    bufs = [Buf("out", "u32", 6 * n, None, exp, rule="per thread: if/else value, loop sum, search result, guarded/blocked value, bra.uni result, guarded store")]
    doc = ["Control flow with divergence inside warps (96 threads = 3 warps): nested if/else, per-thread trip counts,",
           "a loop with two exits, guards (a false guard writes nothing), a { } block with its own register, bra.uni.",
           "Expected: the same control flow in Python."]
    return raw_case(d, ["CF-BRA", "CF-GUARD", "CF-BLOCK", "GEN-04", "GEN-05", "DIV-03"], "branches, loops and guards with divergence", doc, bufs, body, decls, block=(n, 1, 1))


@group("cf_call_ret")
def g_call(d):
    n = 64
    exp = []
    fact = lambda k: 1 if k <= 1 else k * fact(k - 1)
    for t in range(n):
        a = t % 3
        o0 = 1000 if a == 0 else a + t
        o1 = (2 * ((1000 if t == 0 else t + 7))) if t % 2 == 1 else 5
        o2 = t * 11
        o3 = fact(t % 8) if d == "sm75" else 0
        exp += [o0, o1, o2, o3]
    if d == "sm13":
        funcs = """.func (.reg .u32 rv) f_add3 (.reg .u32 a, .reg .u32 b)
{
  .reg .pred p;
  setp.eq.u32 p, a, 0;
  @p bra ZERO;
  add.u32 rv, a, b;
  ret;                                  // divergent returns: several rets in one function
ZERO:
  mov.u32 rv, 1000;
  ret;
}

.func (.reg .u32 rv) f_nested (.reg .u32 x)
{
  .reg .u32 t;
  call (t), f_add3, (x, 7);
  shl.b32 rv, t, 1;
  ret;
}

.func f_store (.reg .u64 addr, .reg .u32 v)
{
  st.global.u32 [addr], v;
  ret;
}"""
        calls = """  rem.u32 %r1, %tix, 3;
  call (%r2), f_add3, (%r1, %tix);
  st.global.u32 [%rd1], %r2;
  mov.u32 %r3, 5;
  and.b32 %r4, %tix, 1;
  setp.eq.u32 %p1, %r4, 1;
  @%p1 call (%r3), f_nested, (%tix);   // a call made by half of each warp
  st.global.u32 [%rd1+4], %r3;
  mul.lo.u32 %r5, %tix, 11;
  add.u64 %rd3, %rd1, 8;
  call f_store, (%rd3, %r5);
  mov.u32 %r6, 0;
  st.global.u32 [%rd1+12], %r6;
"""
    else:
        funcs = """.func (.param .b32 rv) f_add3 (.param .b32 a, .param .b32 b)
{
  .reg .u32 %x, %y;
  .reg .pred %p;
  ld.param.u32 %x, [a];
  ld.param.u32 %y, [b];
  setp.eq.u32 %p, %x, 0;
  @%p bra ZERO;
  add.u32 %x, %x, %y;
  st.param.b32 [rv], %x;
  ret;
ZERO:
  mov.u32 %x, 1000;
  st.param.b32 [rv], %x;
  ret;
}

.func (.param .b32 rv) f_nested (.param .b32 x)
{
  .reg .u32 %v, %t;
  ld.param.u32 %v, [x];
  {
    .param .b32 pa;
    .param .b32 pb;
    .param .b32 rr;
    st.param.b32 [pa], %v;
    st.param.b32 [pb], 7;
    call.uni (rr), f_add3, (pa, pb);
    ld.param.b32 %t, [rr];
  }
  shl.b32 %t, %t, 1;
  st.param.b32 [rv], %t;
  ret;
}

.func f_store (.param .b64 addr, .param .b32 v)
{
  .reg .u64 %a;
  .reg .u32 %x;
  ld.param.u64 %a, [addr];
  ld.param.u32 %x, [v];
  st.global.u32 [%a], %x;
  ret;
}

.func (.param .b32 rv) f_fact (.param .b32 n)
{
  .reg .u32 %k, %r, %s;
  .reg .pred %p;
  ld.param.u32 %k, [n];
  setp.le.u32 %p, %k, 1;
  @%p bra BASE;
  sub.u32 %s, %k, 1;
  {
    .param .b32 pn;
    .param .b32 rr;
    st.param.b32 [pn], %s;
    call (rr), f_fact, (pn);            // recursion (PTX 2.0+ ABI)
    ld.param.b32 %r, [rr];
  }
  mul.lo.u32 %r, %r, %k;
  st.param.b32 [rv], %r;
  ret;
BASE:
  st.param.b32 [rv], 1;
  ret;
}"""
        calls = """  rem.u32 %r1, %tix, 3;
  {
    .param .b32 pa;
    .param .b32 pb;
    .param .b32 rr;
    st.param.b32 [pa], %r1;
    st.param.b32 [pb], %tix;
    call (rr), f_add3, (pa, pb);
    ld.param.b32 %r2, [rr];
  }
  st.global.u32 [%rd1], %r2;
  mov.u32 %r3, 5;
  and.b32 %r4, %tix, 1;
  setp.eq.u32 %p1, %r4, 1;
  @!%p1 bra SKIPCALL;
  {
    .param .b32 px;
    .param .b32 rr2;
    st.param.b32 [px], %tix;
    call (rr2), f_nested, (px);
    ld.param.b32 %r3, [rr2];
  }
SKIPCALL:
  st.global.u32 [%rd1+4], %r3;
  mul.lo.u32 %r5, %tix, 11;
  add.u64 %rd3, %rd1, 8;
  {
    .param .b64 pa2;
    .param .b32 pv;
    st.param.b64 [pa2], %rd3;
    st.param.b32 [pv], %r5;
    call f_store, (pa2, pv);
  }
  and.b32 %r6, %tix, 7;
  {
    .param .b32 pn;
    .param .b32 rr3;
    st.param.b32 [pn], %r6;
    call (rr3), f_fact, (pn);
    ld.param.b32 %r6, [rr3];
  }
  st.global.u32 [%rd1+12], %r6;
"""
    body = tidx(d) + ptr(d, "out", "%rd1") + """  mul.wide.u32 %rd2, %tix, 16;
  add.u64 %rd1, %rd1, %rd2;
""" + calls + "  exit;\n"
    decls = """  .reg .u32 %r<7>;
  .reg .u64 %rd<4>;
  .reg .pred %p1;"""
    bufs = [Buf("out", "u32", 4 * n, None, exp, rule="per thread: f_add3(t%3, t), odd t: f_nested(t) else 5, f_store(t*11), " +
                ("f_fact(t%8) (recursive)" if d == "sm75" else "0"))]
    doc = ["Calls with arguments and return values (" + ("PTX 1.x register parameters" if d == "sm13" else "the .param ABI") + "), a function",
           "with several divergent rets, a nested call, a call made by half of each warp, a call without a return value" +
           (", recursion." if d == "sm75" else "."), "Expected: the same functions in Python."]
    return raw_case(d, ["CF-CALL", "CF-RET"], "call and ret, divergent calls and returns", doc, bufs, body, decls, funcs=funcs, block=(n, 1, 1))


@group("cf_exit")
def g_exit(d):
    n = 64
    exp = []
    for t in range(n):
        if t % 3 == 0 or t == 5:
            exp += [1, 0]
        elif t % 3 == 1:
            exp += [1, 0]
        else:
            exp += [1, 2 * t + 3]
    if d == "sm13":
        funcs = """.func f_maybe_exit (.reg .u32 x, .reg .u64 addr)
{
  .reg .pred p;
  .reg .u32 v;
  setp.eq.u32 p, x, 5;
  @p exit;                              // exit inside a function ends the thread
  add.u32 v, x, 3;
  st.global.u32 [addr], v;
  ret;
}"""
        call = "  add.u64 %rd3, %rd1, 4;\n  call f_maybe_exit, (%r2, %rd3);\n"
    else:
        funcs = """.func (.param .b32 rv) f_maybe_exit (.param .b32 x)
{
  .reg .u32 %v;
  .reg .pred %p;
  ld.param.u32 %v, [x];
  setp.eq.u32 %p, %v, 5;
  @%p exit;                             // exit inside a function ends the thread
  add.u32 %v, %v, 3;
  st.param.b32 [rv], %v;
  ret;
}"""
        call = """  {
    .param .b32 px;
    .param .b32 rr;
    st.param.b32 [px], %r2;
    call (rr), f_maybe_exit, (px);
    ld.param.b32 %r3, [rr];
  }
"""
    body = tidx(d) + ptr(d, "out", "%rd1") + """  mul.wide.u32 %rd2, %tix, 8;
  add.u64 %rd1, %rd1, %rd2;
  mov.u32 %r1, 1;
  st.global.u32 [%rd1], %r1;
  rem.u32 %r1, %tix, 3;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 exit;                            // a third of each warp exits
  setp.eq.u32 %p2, %r1, 1;
  @%p2 bra RET;
  mul.lo.u32 %r2, %tix, 2;
  add.u32 %r2, %r2, 0;
  setp.eq.u32 %p3, %tix, 5;
  selp.u32 %r2, 5, %r2, %p3;
""" + call + ("" if d == "sm13" else "  st.global.u32 [%rd1+4], %r3;\n") + """  exit;
RET:
  ret;                                  // ret in an entry function ends the thread
"""
    # thread 5: 5 % 3 == 2 -> calls f_maybe_exit(5) and exits there
    decls = """  .reg .u32 %r<4>;
  .reg .u64 %rd<4>;
  .reg .pred %p<4>;"""
    bufs = [Buf("out", "u32", 2 * n, None, exp, rule="per thread: marker 1; then 2t + 3 unless the thread exited (t % 3 == 0, ret for t % 3 == 1, exit in a function for t = 5)")]
    doc = ["exit and ret end threads at different points of divergent code; the other threads continue.",
           "Expected: Python."]
    return raw_case(d, ["CF-EXIT", "CF-RET"], "exit and ret in divergent code", doc, bufs, body, decls, funcs=funcs, block=(n, 1, 1))


@group("sync_bar_membar")
def g_bar(d):
    n = 128
    exp = []
    first = [t * t + 1 for t in range(n)]
    second = [first[(t + 37) % n] + t for t in range(n)]
    for t in range(n):
        exp += [first[(t + 37) % n], second[n - 1 - t], t ^ 0x3C]
    exp += [sum(range(n))] + [0] * 3
    body = tidx(d) + ptr(d, "out", "%rd1") + """  mul.wide.u32 %rd2, %tix, 12;
  add.u64 %rd3, %rd1, %rd2;
  shl.b32 %r1, %tix, 2;
  mov.u32 %r2, sh;
  add.u32 %r2, %r2, %r1;
  mad.lo.u32 %r3, %tix, %tix, 1;
  st.shared.u32 [%r2], %r3;
  bar.sync 0;                           // writes before the barrier are visible after it (MEM-02)
  add.u32 %r4, %tix, 37;
  and.b32 %r4, %r4, 127;
  shl.b32 %r4, %r4, 2;
  mov.u32 %r5, sh;
  add.u32 %r5, %r5, %r4;
  ld.shared.u32 %r6, [%r5];
  st.global.u32 [%rd3], %r6;
  bar.sync 1;                           // everyone has read before anyone overwrites
  add.u32 %r7, %r6, %tix;
  st.shared.u32 [%r2], %r7;
  bar.sync 1;
  mov.u32 %r8, 127;
  sub.u32 %r8, %r8, %tix;
  shl.b32 %r8, %r8, 2;
  mov.u32 %r9, sh;
  add.u32 %r9, %r9, %r8;
  ld.shared.u32 %r10, [%r9];
  st.global.u32 [%rd3+4], %r10;
  // tree reduction of tid over the CTA, a barrier in a loop
  bar.sync 0;
  st.shared.u32 [%r2], %tix;
  mov.u32 %r11, 64;
RED:
  bar.sync 0;
  setp.ge.u32 %p1, %tix, %r11;
  @%p1 bra RED_SKIP;
  shl.b32 %r12, %r11, 2;
  add.u32 %r12, %r2, %r12;
  ld.shared.u32 %r13, [%r12];
  ld.shared.u32 %r14, [%r2];
  add.u32 %r14, %r14, %r13;
  st.shared.u32 [%r2], %r14;
RED_SKIP:
  shr.u32 %r11, %r11, 1;
  setp.ne.u32 %p2, %r11, 0;
  @%p2 bra RED;
  bar.sync 0;
  setp.eq.u32 %p3, %tix, 0;
  @!%p3 bra NOT0;
  ld.shared.u32 %r15, [sh];
  st.global.u32 [%rd1+1536], %r15;
NOT0:
  // membar: a thread's own store then load, ordered (SY-MEMBAR)
  xor.b32 %r16, %tix, 0x3c;
  st.global.u32 [%rd3+8], %r16;
  membar.gl;
  ld.global.u32 %r17, [%rd3+8];
  membar.cta;
  st.global.u32 [%rd3+8], %r17;
  exit;
"""
    decls = """  .reg .u32 %r<18>;
  .reg .u64 %rd<4>;
  .reg .pred %p<4>;
  .shared .u32 sh[128];"""
    bufs = [Buf("out", "u32", 3 * n + 4, None, exp, rule="per thread: sh[(t+37)%128] after barrier 0, second-phase value of thread 127-t, t^0x3c; then the CTA sum of tid")]
    doc = ["bar.sync across 4 warps: exchange through shared memory, two barrier ids, a tree reduction with a barrier",
           "inside a loop; membar.gl / membar.cta between a thread's own accesses. Expected: Python."]
    return raw_case(d, ["SY-BAR", "SY-MEMBAR", "MEM-02", "MEM-04"], "bar.sync and membar", doc, bufs, body, decls, block=(n, 1, 1))


INC_INIT = [0, 4, 5, 9, 100, 3]
DEC_INIT = [0, 1, 5, 6, 100, 2]


def atomics_case(d, space):
    """Atomics on .global or .shared memory.

    Part 1, one slot per thread (exact old values and final contents): add.u32, add.s32, and/or/xor.b32, cas.b32 (hit and
    miss), exch.b32, inc.u32 / dec.u32 around their bounds (dec at 0 wraps to b, DEF-06), min/max .u32 and .s32,
    add.u64 / cas.b64 / exch.b64 (global, or any space on sm_20+), and the red forms.
    Part 2, contended (every thread on one address): add (tickets must be unique), red.add, inc/dec wrap-around,
    and/or/xor/min/max, cas (exactly one winner), add.f32 (sm_20+; integer-valued, so exact in any order).
    """
    legacy = d == "sm13"
    shared = space == "shared"
    n = 32 if (legacy and shared) else 96
    r = rng_for("atom" + space + d)
    A = [r.getrandbits(32) for _ in range(n)]
    C = [r.getrandbits(32) for _ in range(n)]
    Dv = [5 if t % 2 else 6 for t in range(n)]
    E = [r.getrandbits(32) for _ in range(n)]
    Fi = [INC_INIT[t % 6] for t in range(n)]
    G = [DEC_INIT[t % 6] for t in range(n)]
    Hm = [r.getrandbits(32) for _ in range(n)]
    Hb = [r.getrandbits(32) for _ in range(n)]
    Q = [r.getrandbits(64) for _ in range(n)]
    use64 = (not shared) or (not legacy)
    inp = []
    for t in range(n):
        inp += [A[t], C[t], Dv[t], E[t], Fi[t], G[t], Hm[t], Hb[t], M(Q[t], 32), Q[t] >> 32]
    olds, finals = [], []
    m1, m2, m3 = 0xF0F0F0F0, 0x0000FF01, 0x12345678
    for t in range(n):
        a_new = M(A[t] + t + 1, 32)
        a_new2 = M(a_new - 1000, 32)           # add.s32 with -1000
        c1 = C[t] & m1
        c2 = c1 | m2
        c3 = c2 ^ m3
        d_new = 77 if Dv[t] == 5 else Dv[t]
        e_new = M(t * 3, 32)
        f_new = 0 if Fi[t] >= 5 else Fi[t] + 1
        g_new = 5 if (G[t] == 0 or G[t] > 5) else G[t] - 1
        h1 = min(Hm[t], Hb[t])                       # min.u32
        h2 = h1 if SX(h1, 32) > SX(Hb[t], 32) else Hb[t]       # max.s32 on the value left by min.u32
        q1 = M(Q[t] + (t << 33) + 5, 64)
        q2 = 0xABCDEF0123456789                     # cas.b64 with the right compare value: hits
        q3 = M(t * 0x100000001 + 3, 64)   # exch, then red.add.u64 3
        olds += [A[t], a_new, C[t], c1, c2, Dv[t], E[t], Fi[t], G[t], Hm[t], h1]
        if use64:
            olds += [M(Q[t], 32), Q[t] >> 32, M(q1, 32), q1 >> 32, M(q2, 32), q2 >> 32]
        else:
            olds += [0] * 6
        # red on the same slots after the atoms: red.add.u32 A += 2, red.xor C ^= 0xff, red.inc F (b=5), red.dec G (b=5), red.max.u32 H
        ra = M(a_new2 + 2, 32)
        rc = c3 ^ 0xFF
        rf = 0 if f_new >= 5 else f_new + 1
        rg = 5 if (g_new == 0 or g_new > 5) else g_new - 1
        rh = max(h2, 0x80000000)
        finals += [ra, rc, d_new, e_new, rf, rg, rh]
        if use64:
            finals += [M(q3, 32), q3 >> 32]
        else:
            finals += [0, 0]
    # contended
    inc_b, dec_b = 9, 9
    cont = [n, sum(range(n)), n % (inc_b + 1), (-n) % (dec_b + 1)]
    andv, orv, xorv = 0xFFFFFFFF, 0, 0
    for t in range(n):
        andv &= ~(1 << (t % 32)) & 0xFFFFFFFF if t % 3 == 0 else 0xFFFFFFFF
        orv |= 1 << (t % 32) if t % 5 == 0 else 0
        xorv ^= M(t * 0x01010101, 32)
    minv = min(500 - 7 * t for t in range(n))
    maxv = max(M(t * 2654435761, 32) for t in range(n))
    cont += [andv, orv, xorv, M(minv, 32), maxv, 1, F(float(sum(t % 7 for t in range(n)))) if not legacy else 0, 1]
    flags = [1] * n
    sp = "." + space
    # ------------------------------------------------------------------ PTX
    body = tidx(d) + ptr(d, "inp", "%rd1") + ptr(d, "olds", "%rd2") + ptr(d, "finals", "%rd3") + ptr(d, "cont", "%rd4") + ptr(d, "flags", "%rd5")
    body += """  mul.wide.u32 %rd6, %tix, 40;
  add.u64 %rd1, %rd1, %rd6;              // this thread's 10 input words
  mul.wide.u32 %rd6, %tix, 68;
  add.u64 %rd2, %rd2, %rd6;              // 17 old values
  mul.wide.u32 %rd6, %tix, 36;
  add.u64 %rd3, %rd3, %rd6;              // 9 final values
"""
    if shared:
        # slots in shared memory: 7 words + 2 (64-bit) per thread, written by the owner thread
        body += """  mov.u32 %ra, smem;
  mul.lo.u32 %r30, %tix, 40;
  add.u32 %ra, %ra, %r30;                // 10 words per thread, 8-byte aligned
  ld.global.u32 %r1, [%rd1];
  st.shared.u32 [%ra], %r1;
  ld.global.u32 %r1, [%rd1+4];
  st.shared.u32 [%ra+4], %r1;
  ld.global.u32 %r1, [%rd1+8];
  st.shared.u32 [%ra+8], %r1;
  ld.global.u32 %r1, [%rd1+12];
  st.shared.u32 [%ra+12], %r1;
  ld.global.u32 %r1, [%rd1+16];
  st.shared.u32 [%ra+16], %r1;
  ld.global.u32 %r1, [%rd1+20];
  st.shared.u32 [%ra+20], %r1;
  ld.global.u32 %r1, [%rd1+24];
  st.shared.u32 [%ra+24], %r1;
  ld.global.u64 %q1, [%rd1+32];
  st.shared.u64 [%ra+32], %q1;
"""
        A_ = "%ra"
    else:
        A_ = "%rd1"
    ld_hb = "  ld.global.u32 %r9, [%rd1+28];\n"
    body += ld_hb + """  add.u32 %r2, %tix, 1;
  atom{sp}.add.u32 %r10, [{A}], %r2;
  atom{sp}.add.s32 %r11, [{A}], -1000;
  atom{sp}.and.b32 %r12, [{A}+4], 0xf0f0f0f0;
  atom{sp}.or.b32 %r13, [{A}+4], 0x0000ff01;
  atom{sp}.xor.b32 %r14, [{A}+4], 0x12345678;
  atom{sp}.cas.b32 %r15, [{A}+8], 5, 77;     // hits when the slot holds 5, else leaves it
  mul.lo.u32 %r3, %tix, 3;
  atom{sp}.exch.b32 %r16, [{A}+12], %r3;
  atom{sp}.inc.u32 %r17, [{A}+16], 5;        // (old >= 5) ? 0 : old + 1
  atom{sp}.dec.u32 %r18, [{A}+20], 5;        // (old == 0 || old > 5) ? 5 : old - 1
  atom{sp}.min.u32 %r19, [{A}+24], %r9;
  atom{sp}.max.s32 %r20, [{A}+24], %r9;
  st.global.u32 [%rd2], %r10;
  st.global.u32 [%rd2+4], %r11;
  st.global.u32 [%rd2+8], %r12;
  st.global.u32 [%rd2+12], %r13;
  st.global.u32 [%rd2+16], %r14;
  st.global.u32 [%rd2+20], %r15;
  st.global.u32 [%rd2+24], %r16;
  st.global.u32 [%rd2+28], %r17;
  st.global.u32 [%rd2+32], %r18;
  st.global.u32 [%rd2+36], %r19;
  st.global.u32 [%rd2+40], %r20;
""".format(sp=sp, A=A_)
    if use64:
        body += """  cvt.u64.u32 %q2, %tix;
  shl.b64 %q2, %q2, 33;
  add.u64 %q2, %q2, 5;
  atom{sp}.add.u64 %q3, [{A}+32], %q2;
  add.u64 %q4, %q3, %q2;                   // the value now in memory
  atom{sp}.cas.b64 %q5, [{A}+32], %q4, 0xabcdef0123456789;
  cvt.u64.u32 %q6, %tix;
  mul.lo.u64 %q6, %q6, 0x100000001;
  atom{sp}.exch.b64 %q7, [{A}+32], %q6;
  st.global.u64 [%rd2+44], %q3;
  st.global.u64 [%rd2+52], %q5;
  st.global.u64 [%rd2+60], %q7;
""".format(sp=sp, A=A_)
        for q, off in (("%q3", 44), ("%q5", 52), ("%q7", 60)):
            body = body.replace("  st.global.u64 [%%rd2+%d], %s;\n" % (off, q),
                                "  cvt.u32.u64 %%r21, %s;\n  shr.b64 %s, %s, 32;\n  cvt.u32.u64 %%r22, %s;\n"
                                "  st.global.u32 [%%rd2+%d], %%r21;\n  st.global.u32 [%%rd2+%d], %%r22;\n" % (q, q, q, q, off, off + 4))
    body += """  red{sp}.add.u32 [{A}], 2;
  red{sp}.xor.b32 [{A}+4], 0xff;
{red64}
  red{sp}.inc.u32 [{A}+16], 5;
  red{sp}.dec.u32 [{A}+20], 5;
  red{sp}.max.u32 [{A}+24], 0x80000000;
""".format(sp=sp, A=A_, red64=("  red%s.add.u64 [%s+32], 3;" % (sp, A_)) if use64 else "")
    # finals: read back this thread's slots
    mem_ld = "ld.shared" if shared else "ld.global"
    body += """  {ld}.u32 %r1, [{A}];
  st.global.u32 [%rd3], %r1;
  {ld}.u32 %r1, [{A}+4];
  st.global.u32 [%rd3+4], %r1;
  {ld}.u32 %r1, [{A}+8];
  st.global.u32 [%rd3+8], %r1;
  {ld}.u32 %r1, [{A}+12];
  st.global.u32 [%rd3+12], %r1;
  {ld}.u32 %r1, [{A}+16];
  st.global.u32 [%rd3+16], %r1;
  {ld}.u32 %r1, [{A}+20];
  st.global.u32 [%rd3+20], %r1;
  {ld}.u32 %r1, [{A}+24];
  st.global.u32 [%rd3+24], %r1;
""".format(ld=mem_ld, A=A_)
    if use64:
        body += """  {ld}.u32 %r1, [{A}+32];
  st.global.u32 [%rd3+28], %r1;
  {ld}.u32 %r1, [{A}+36];
  st.global.u32 [%rd3+32], %r1;
""".format(ld=mem_ld, A=A_)
    # contended part
    if shared:
        cbase = "%rc"
        init = """  mov.u32 %rc, cshared;
""" + ("""  // one warp: every thread stores the same initial values, the atomics below come after in the warp's order
""" if legacy else "") + """  mov.u32 %r1, 0;
  st.shared.u32 [%rc], %r1;
  st.shared.u32 [%rc+4], %r1;
  st.shared.u32 [%rc+8], %r1;
  st.shared.u32 [%rc+12], %r1;
  mov.u32 %r1, 0xffffffff;
  st.shared.u32 [%rc+16], %r1;
  mov.u32 %r1, 0;
  st.shared.u32 [%rc+20], %r1;
  st.shared.u32 [%rc+24], %r1;
  mov.u32 %r1, 0x7fffffff;
  st.shared.u32 [%rc+28], %r1;
  mov.u32 %r1, 0;
  st.shared.u32 [%rc+32], %r1;
  st.shared.u32 [%rc+36], %r1;
  st.shared.u32 [%rc+40], %r1;
""" + ("  membar.cta;\n" if legacy else "  bar.sync 0;\n")
    else:
        cbase = "%rd4"
        init = ""
    body += init + """  atom{sp}.add.u32 %r23, [{C}], 1;          // a ticket: unique per thread
  mul.wide.u32 %rd7, %r23, 4;
  add.u64 %rd8, %rd5, %rd7;
  mov.u32 %r24, 1;
  st.global.u32 [%rd8], %r24;               // flags[ticket] = 1
  red{sp}.add.u32 [{C}+4], %tix;
  atom{sp}.inc.u32 %r25, [{C}+8], 9;
  red{sp}.dec.u32 [{C}+12], 9;
  rem.u32 %r26, %tix, 3;
  setp.eq.u32 %p1, %r26, 0;
  and.b32 %r27, %tix, 31;
  mov.u32 %r28, 1;
  shl.b32 %r28, %r28, %r27;
  not.b32 %r29, %r28;
  selp.u32 %r29, %r29, 0xffffffff, %p1;
  atom{sp}.and.b32 %r25, [{C}+16], %r29;
  rem.u32 %r26, %tix, 5;
  setp.eq.u32 %p2, %r26, 0;
  selp.u32 %r28, %r28, 0, %p2;
  red{sp}.or.b32 [{C}+20], %r28;
  mul.lo.u32 %r29, %tix, 0x01010101;
  red{sp}.xor.b32 [{C}+24], %r29;
  mul.lo.u32 %r29, %tix, 7;
  mov.u32 %r30, 500;
  sub.u32 %r29, %r30, %r29;
  red{sp}.min.s32 [{C}+28], %r29;
  mul.lo.u32 %r29, %tix, 2654435761;
  atom{sp}.max.u32 %r25, [{C}+32], %r29;
  add.u32 %r29, %tix, 1;
  atom{sp}.cas.b32 %r25, [{C}+36], 0, 1;    // exactly one thread finds 0
  setp.eq.u32 %p3, %r25, 0;
  selp.u32 %r31, 1, 0, %p3;
  red.global.add.u32 [%rd4+44], %r31;       // count of winners (global)
""".format(sp=sp, C=cbase)
    if not legacy:
        body += """  rem.u32 %r26, %tix, 7;
  cvt.rn.f32.u32 %f1, %r26;
  atom{sp}.add.f32 %f2, [{C}+40], %f1;       // float atomics: sm_20+ (unimplemented in 1.4)
""".format(sp=sp, C=cbase)
    if shared:
        body += ("  membar.cta;\n" if legacy else "  bar.sync 0;\n") + """  setp.ne.u32 %p4, %tix, 0;
  @%p4 bra DONE;
  ld.shared.u32 %r1, [%rc];
  st.global.u32 [%rd4], %r1;
  ld.shared.u32 %r1, [%rc+4];
  st.global.u32 [%rd4+4], %r1;
  ld.shared.u32 %r1, [%rc+8];
  st.global.u32 [%rd4+8], %r1;
  ld.shared.u32 %r1, [%rc+12];
  st.global.u32 [%rd4+12], %r1;
  ld.shared.u32 %r1, [%rc+16];
  st.global.u32 [%rd4+16], %r1;
  ld.shared.u32 %r1, [%rc+20];
  st.global.u32 [%rd4+20], %r1;
  ld.shared.u32 %r1, [%rc+24];
  st.global.u32 [%rd4+24], %r1;
  ld.shared.u32 %r1, [%rc+28];
  st.global.u32 [%rd4+28], %r1;
  ld.shared.u32 %r1, [%rc+32];
  st.global.u32 [%rd4+32], %r1;
  ld.shared.u32 %r1, [%rc+36];
  st.global.u32 [%rd4+36], %r1;
  ld.shared.u32 %r1, [%rc+40];
  st.global.u32 [%rd4+40], %r1;
DONE:
"""
    body += "  exit;\n"
    decls = """  .reg .u32 %r<32>;
  .reg .u32 %ra, %rc;
  .reg .u64 %rd<9>;
  .reg .u64 %q<8>;
  .reg .f32 %f<3>;
  .reg .pred %p<5>;"""
    if shared:
        decls += "\n  .shared .align 8 .u32 smem[%d];\n  .shared .u32 cshared[12];" % (10 * n)
    if d == "sm75":
        decls = decls.replace(".reg .u32 %ra, %rc;", ".reg .u32 %ra, %rc;")
    # contended buffer initial contents (global case: the atomics work on it directly)
    cinit = [0, 0, 0, 0, 0xFFFFFFFF, 0, 0, 0x7FFFFFFF, 0, 0, 0, 0]
    bufs = [Buf("inp", "u32", 10 * n, inp),
            Buf("olds", "u32", 17 * n, None, olds, rule="per thread: the OLD values returned by add.u32, add.s32, and, or, xor, cas, exch, inc, dec, min.u32, max.s32" +
                (", add.u64, cas.b64, exch.b64 (two words each)" if use64 else "")),
            Buf("finals", "u32", 9 * n, None, finals, rule="per thread: final slot contents after the atoms and red.add/xor/inc/dec/max" + (", and the 64-bit slot" if use64 else "")),
            Buf("cont", "u32", 12, cinit if not shared else None, cont, tol=None,
                rule="contended: add count, red.add sum of tid, inc wrap (n mod 10), dec wrap (-n mod 10), and, or, xor, min.s32, max.u32,\n"
                "cas(0 -> 1) final value 1, " + ("(add.f32 not in 1.4: 0)" if legacy else "add.f32 sum") + ", number of cas winners (1)"),
            Buf("flags", "u32", n, None, flags, rule="flags[ticket] = 1: the add tickets are a permutation of 0..n-1")]
    if shared:
        bufs[3] = Buf("cont", "u32", 12, None, cont, rule=bufs[3].rule)
    ids = ["SY-ATOM", "SY-RED", "MEM-05", "DEF-06"]
    doc = ["atom/red on %s memory, %d threads%s. Part 1: one slot per thread (exact old values and final contents);" % (space, n,
           " (one warp: no barrier in PTX 1.x shared code)" if legacy and shared else ""),
           "part 2: every thread on one address (results that do not depend on the order).",
           "Expected: Python model of each operation: add/and/or/xor/min/max as usual, cas(r,s,t) = r==s ? t : r, exch = s,",
           "inc(r,s) = r>=s ? 0 : r+1, dec(r,s) = (r==0 || r>s) ? s : r-1 (DEF-06); atom returns the OLD value."]
    return raw_case(d, ids, "atom and red on %s memory" % space, doc, bufs, body, decls, block=(n, 1, 1))


@group("atom_red_global")
def g_atom_global(d):
    return atomics_case(d, "global")


@group("atom_red_shared")
def g_atom_shared(d):
    return atomics_case(d, "shared")


@group("vote")
def g_vote(d):
    n = 48  # warp 0 full, warp 1 with 16 threads
    legacy = d == "sm13"
    exp = []
    warps = [list(range(0, 32)), list(range(32, 48))]

    def votes(active, pred):
        vals = [pred(t) for t in active]
        return [int(all(vals)), int(any(vals)), int(all(vals) or not any(vals))]
    for t in range(n):
        w = warps[t // 32]
        row = []
        row += votes(w, lambda u: u < 40)                       # p1
        row += votes(w, lambda u: not (u < 40))                 # !p1 (none / not all)
        row += votes(w, lambda u: u % 2 == 0)                   # p2
        row += votes(w, lambda u: True)                         # uniform true
        if t % 4 == 0:  # divergent: only threads with t % 4 == 0 vote
            act = [u for u in w if u % 4 == 0]
            row += votes(act, lambda u: u % 8 == 0)
        else:
            row += [7, 7, 7]
        exp += row
    if legacy:
        V = lambda mode, dst, src: "  vote.%s.pred %s, %s;\n" % (mode, dst, src)
        mask = ""
    else:
        V = lambda mode, dst, src: "  vote.sync.%s.pred %s, %s, %%m;\n" % (mode, dst, src)
        mask = "  activemask.b32 %m;\n"
    body = tidx(d) + ptr(d, "out", "%rd1") + """  mul.wide.u32 %rd2, %tix, 60;
  add.u64 %rd1, %rd1, %rd2;
  setp.lt.u32 %p1, %tix, 40;
  and.b32 %r1, %tix, 1;
  setp.eq.u32 %p2, %r1, 0;
  setp.eq.u32 %p3, %r1, %r1;
""" + mask
    k = 0
    for src in ("%p1", "!%p1", "%p2", "%p3"):
        for mode in ("all", "any", "uni"):
            body += V(mode, "%%q%d" % k, src)
            k += 1
    for j in range(12):
        body += "  selp.u32 %%r2, 1, 0, %%q%d;\n  st.global.u32 [%%rd1+%d], %%r2;\n" % (j, 4 * j)
    body += """  mov.u32 %r3, 7;
  st.global.u32 [%rd1+48], %r3;
  st.global.u32 [%rd1+52], %r3;
  st.global.u32 [%rd1+56], %r3;
  and.b32 %r4, %tix, 3;
  setp.ne.u32 %p4, %r4, 0;
  @%p4 bra SKIP;
  and.b32 %r5, %tix, 7;
  setp.eq.u32 %p5, %r5, 0;
""" + mask
    for j, mode in enumerate(("all", "any", "uni")):
        body += V(mode, "%%q%d" % (12 + j), "%p5")
        body += "  selp.u32 %%r2, 1, 0, %%q%d;\n  st.global.u32 [%%rd1+%d], %%r2;\n" % (12 + j, 48 + 4 * j)
    body += "SKIP:\n  exit;\n"
    decls = """  .reg .u32 %r<6>;
  .reg .u64 %rd<3>;
  .reg .pred %p<6>;
  .reg .pred %q<15>;""" + ("" if legacy else "\n  .reg .b32 %m;")
    bufs = [Buf("out", "u32", 15 * n, None, exp, rule="per thread: all/any/uni of p1 = tid < 40, of !p1, of p2 = tid even, of true;\n"
                "then, for tid % 4 == 0 only (divergent), all/any/uni of tid % 8 == 0 over the active threads (7 = not executed)")]
    doc = ["vote over the ACTIVE threads of a warp: 48 threads = a full warp and a 16-thread partial warp, a negated operand,",
           "and a vote inside a branch taken by a quarter of the threads. " + ("vote.{all,any,uni}.pred (PTX 1.2+, sm_12)." if legacy else
           "sm_70+ requires vote.sync: the member mask is activemask, i.e. the same active threads."),
           "Expected: Python (all / any / all-or-none over the active threads of each warp)."]
    return raw_case(d, ["SY-VOTE"], "vote.all/any/uni with partial warps and divergence", doc, bufs, body, decls, block=(n, 1, 1))


@group("sreg")
def g_sreg(d):
    legacy = d == "sm13"
    grid, block = (2, 3, 2), (4, 3, 2)
    nthr = block[0] * block[1] * block[2]
    ncta = grid[0] * grid[1] * grid[2]
    exp = []
    for cz in range(grid[2]):
        for cy in range(grid[1]):
            for cx in range(grid[0]):
                for tz in range(block[2]):
                    for ty in range(block[1]):
                        for tx in range(block[0]):
                            lin = tx + block[0] * (ty + block[1] * tz)
                            exp.append((cx + grid[0] * (cy + grid[1] * cz), lin,
                                        [tx, ty, tz, block[0], block[1], block[2], cx, cy, cz, grid[0], grid[1], grid[2], lin % 32, 32, 1, 0]))
    exp.sort()
    flat = []
    for _, _, row in exp:
        flat += row
    rd = (lambda dst, s: "  cvt.u32.u16 %s, %s;\n" % (dst, s)) if legacy else (lambda dst, s: "  mov.u32 %s, %s;\n" % (dst, s))
    body = ""
    regs = ["%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z", "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z"]
    for i, s in enumerate(regs):
        body += rd("%%r%d" % i, s)
    body += ptr(d, "out", "%rd1") + """  // linear index: (ctaid linear) * 24 + tid linear
  mad.lo.u32 %r20, %r1, %r3, %r0;
  mul.lo.u32 %r21, %r3, %r4;
  mad.lo.u32 %r20, %r2, %r21, %r20;
  mad.lo.u32 %r22, %r7, %r9, %r6;
  mul.lo.u32 %r23, %r9, %r10;
  mad.lo.u32 %r22, %r8, %r23, %r22;
  mul.lo.u32 %r24, %r21, %r5;
  mad.lo.u32 %r20, %r22, %r24, %r20;
  mul.wide.u32 %rd2, %r20, 64;
  add.u64 %rd1, %rd1, %rd2;
"""
    for i in range(12):
        body += "  st.global.u32 [%%rd1+%d], %%r%d;\n" % (4 * i, i)
    body += """  mov.u32 %r12, %laneid;
  st.global.u32 [%rd1+48], %r12;
  mov.u32 %r13, WARP_SZ;
  st.global.u32 [%rd1+52], %r13;
  // %warpid: the same for every thread of the warp (each bit votes uniform)
  mov.u32 %r14, %warpid;
""" + ("" if legacy else "  activemask.b32 %m;\n")
    for b in range(5):
        body += "  and.b32 %%r15, %%r14, %d;\n  setp.ne.u32 %%p%d, %%r15, 0;\n" % (1 << b, b)
        body += ("  vote.uni.pred %%p%d, %%p%d;\n" % (b, b)) if legacy else ("  vote.sync.uni.pred %%p%d, %%p%d, %%m;\n" % (b, b))
    body += """  and.pred %p0, %p0, %p1;
  and.pred %p0, %p0, %p2;
  and.pred %p0, %p0, %p3;
  and.pred %p0, %p0, %p4;
  selp.u32 %r16, 1, 0, %p0;
  st.global.u32 [%rd1+56], %r16;
  // values the spec leaves unspecified: read, not compared
  mov.u32 %r17, %clock;
  mov.u32 %r18, %smid;
  mov.u32 %r19, %clock;
""" + ptr(d, "scratch", "%rd3") + """  mul.wide.u32 %rd2, %r20, 12;
  add.u64 %rd3, %rd3, %rd2;
  st.global.u32 [%rd3], %r17;
  st.global.u32 [%rd3+4], %r18;
  st.global.u32 [%rd3+8], %r19;
  exit;
"""
    decls = """  .reg .u32 %r<25>;
  .reg .u64 %rd<4>;
  .reg .pred %p<5>;""" + ("" if legacy else "\n  .reg .b32 %m;")
    bufs = [Buf("out", "u32", 16 * nthr * ncta, None, flat, rule="per thread (indexed by linear CTA * 24 + linear tid): tid.xyz, ntid.xyz, ctaid.xyz, nctaid.xyz,\n"
                "laneid (= linear tid mod 32: one partial warp per CTA), WARP_SZ = 32, warpid uniform over the warp (1), 0"),
            Buf("scratch", "u32", 3 * nthr * ncta, None, None, output=True)]
    doc = ["Special registers on a 2x3x2 grid of 4x3x2 CTAs" + (" (PTX 1.x: %tid and friends are 16-bit, read with cvt.u32.u16)" if legacy else "") + ".",
           "%clock and %smid are read but not compared (unspecified values). Expected: Python enumeration of the launch."]
    return raw_case(d, ["DM-MOV", "DM-CVT", "SREG-TID", "SREG-NTID", "SREG-CTAID", "SREG-NCTAID", "SREG-LANE", "SREG-WARP", "SREG-WARPSZ",
                                "SREG-CLOCK", "SREG-SMID"], "special registers", doc, bufs, body, decls, block=block, grid=grid)


@group("sreg_16bit", dialects=("sm13",))
def g_sreg16(d):
    """PTX 1.x: %tid, %ntid, %ctaid, %nctaid are .u16 (SREG-TID...SREG-NCTAID), so mov.u16 is THE way to read them
    (mov.u32 r, %tid.x is a strict type error in 1.4, checklist section 12 #10); %gridid is .u32 since 1.3."""
    grid, block = (3, 2, 1), (5, 2, 1)
    exp = []
    for cy in range(grid[1]):
        for cx in range(grid[0]):
            for ty in range(block[1]):
                for tx in range(block[0]):
                    exp += [tx, ty, block[0], block[1], cx, cy, grid[0], grid[1]]
    body = """  mov.u16 %h0, %tid.x;
  mov.u16 %h1, %tid.y;
  mov.u16 %h2, %ntid.x;
  mov.u16 %h3, %ntid.y;
  mov.u16 %h4, %ctaid.x;
  mov.u16 %h5, %ctaid.y;
  mov.u16 %h6, %nctaid.x;
  mov.u16 %h7, %nctaid.y;
  mov.u32 %r9, %gridid;                  // .u32 in PTX 1.3+ (value unspecified: not compared)
  // linear index ((ctaid.y * nctaid.x + ctaid.x) * ntid.x * ntid.y + tid.y * ntid.x + tid.x), in 16-bit arithmetic
  mul.lo.u16 %h8, %h5, %h6;
  add.u16 %h8, %h8, %h4;
  mul.lo.u16 %h9, %h2, %h3;
  mul.lo.u16 %h8, %h8, %h9;
  mul.lo.u16 %h9, %h1, %h2;
  add.u16 %h8, %h8, %h9;
  add.u16 %h8, %h8, %h0;
  cvt.u32.u16 %tix, %h8;
""" + ptr(d, "out", "%rd1") + """  mul.wide.u32 %rd2, %tix, 16;
  add.u64 %rd1, %rd1, %rd2;
  st.global.u16 [%rd1], %h0;
  st.global.u16 [%rd1+2], %h1;
  st.global.u16 [%rd1+4], %h2;
  st.global.u16 [%rd1+6], %h3;
  st.global.u16 [%rd1+8], %h4;
  st.global.u16 [%rd1+10], %h5;
  st.global.u16 [%rd1+12], %h6;
  st.global.u16 [%rd1+14], %h7;
  exit;
"""
    decls = """  .reg .u16 %h<10>;
  .reg .u32 %r9;
  .reg .u64 %rd<3>;"""
    n = block[0] * block[1] * grid[0] * grid[1]
    bufs = [Buf("out", "u16", 8 * n, None, exp, rule="per thread: tid.x, tid.y, ntid.x, ntid.y, ctaid.x, ctaid.y, nctaid.x, nctaid.y")]
    doc = ["PTX 1.x special registers read with mov.u16 (they are 16-bit in 1.4) and %gridid with mov.u32. Expected: Python."]
    return raw_case(d, ["DM-MOV", "SREG-TID", "SREG-NTID", "SREG-CTAID", "SREG-NCTAID", "SREG-GRIDID"], "16-bit special registers (PTX 1.x)", doc, bufs, body, decls, block=block, grid=grid)


@group("misc_trap")
def g_trap(d):
    n = 64
    body = tidx(d) + ptr(d, "out", "%rd1") + """  mul.wide.u32 %rd2, %tix, 4;
  add.u64 %rd1, %rd1, %rd2;
  st.global.u32 [%rd1], %tix;
  setp.eq.u32 %p1, %tix, 37;
  @%p1 trap;                            // one thread of the second warp aborts the launch
  exit;
"""
    decls = "  .reg .u64 %rd<3>;\n  .reg .pred %p1;"
    bufs = [Buf("out", "u32", n, None, None, output=True)]
    doc = ["trap aborts execution: the launch must end with a trap (expect_trap)."]
    c = raw_case(d, ["MISC-TRAP"], "trap", doc, bufs, body, decls, block=(n, 1, 1), expect_trap=True)
    return c


@group("misc_brkpt")
def g_brkpt(d):
    body = tidx(d) + """  setp.eq.u32 %p1, %tix, 3;
  @%p1 brkpt;                           // suspends execution: without a debugger the launch does not complete
  exit;
"""
    doc = ["brkpt (sm_11+) suspends execution; with no debugger attached the launch must not complete normally (expect_trap)."]
    return raw_case(d, ["MISC-BRKPT"], "brkpt", doc, [Buf("out", "u32", 1, None, None, output=True)], body, "  .reg .pred %p1;", expect_trap=True)


@group("misc_no_effect")
def g_noeffect(d):
    n = 64
    exp = [t * 5 + 1 for t in range(n)]
    body = tidx(d) + ptr(d, "out", "%rd1") + """  mul.wide.u32 %rd2, %tix, 4;
  add.u64 %rd1, %rd1, %rd2;
  setp.gt.u32 %p1, %tix, 1000;
  @%p1 trap;                            // guard false everywhere: no trap (GEN-05)
  @%p1 brkpt;
  pmevent 3;                            // performance-monitor event: no architectural effect
  pmevent 15;
  membar.cta;
  membar.gl;
  mad.lo.u32 %r1, %tix, 5, 1;
  st.global.u32 [%rd1], %r1;
  exit;
"""
    decls = "  .reg .u32 %r1;\n  .reg .u64 %rd<3>;\n  .reg .pred %p1;"
    bufs = [Buf("out", "u32", n, None, exp, rule="5t + 1")]
    doc = ["pmevent, membar and guarded-off trap/brkpt have no effect on the results; the launch completes."]
    return raw_case(d, ["MISC-PMEV", "MISC-TRAP", "MISC-BRKPT", "SY-MEMBAR", "MEM-04", "CF-GUARD", "GEN-05"], "pmevent, membar, guarded trap/brkpt", doc, bufs, body, decls, block=(n, 1, 1))


# =====================================================================================
# Writing the cases
# =====================================================================================

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "ptx-interp")
OUT_PENDING = os.path.join(ROOT, "tests", "ptx-interp-pending")

# Groups written with another .version than their dialect's default.
VERSION_OVERRIDE = {"cvt_legacy_defaults": "1.3"}

# Cases the interpreter or the front end currently gets wrong (see PENDING_README and the
# report); they are written to tests/ptx-interp-pending/ and not run by tests/ptx_interp.rs.
PENDING = {
    "int_mul24_mad24_signed_sm13": "INT-MUL24/INT-MAD24: the .s32 forms do not sign-extend the 24-bit operands from bit 23 "
                                   "(mul24.lo.s32 1, 0xffffffff: expected 0xffffffff, got 0x00ffffff).",
    "int_mul24_mad24_signed_sm75": "as int_mul24_mad24_signed_sm13.",
    "cmp_set_sm1x_flush_sm13": "CS-G/CS-SET: on sm_1x, set with an integer dtype and an .f32 source does not flush subnormal inputs "
                               "(set.eq.u32.f32 +0, 0x00000001: expected 0xffffffff, got 0).",
    "cmp_selp_slct_sm1x_flush_sm13": "CS-G/CS-SLCT: on sm_1x, slct.<non-f32>.f32 does not flush a subnormal c "
                                     "(slct.u32.f32 a, b, 0x80000001: expected a, got b).",
    "fp_fma_mad_c_zero_sm13": "FP-MAD32: on sm_1x, mad.f32 with c = +-0 must equal mul.rn then add (product rounded to nearest); "
                              "the product is truncated instead (0xbfb31f64 * 0xc1b5d500 + 0: expected 0x41fe7476, got 0x41fe7475).",
    "cvt_float_to_int_cvt30_sm13": "CVT-30/CVT-31: on sm_1x, cvt from .f32 to .s64/.u64 must not flush subnormal inputs "
                                   "(cvt.rpi.s64.f32 0x00000001: expected 1, got 0).",
    "cf_call_ret_sm13": "CF-CALL/CF-RET: the interpreter panics (attempt to add with overflow in Machine::unwind_frames) when a "
                        "PTX 1.x .func with a .reg return parameter returns.",
    "mem_vector_regs_sm13": "DM-LD/DM-ST, OP-07, VAR-09: the front end rejects a vector register as the data operand of ld/st "
                            "(`ld.v2` needs a vector operand {...}); before that check existed, the interpreter treated parameterized "
                            "vector registers (.reg .v2 .u32 %v<3>) as scalars (ld.global.v2.u32 %v1 kept only the last element).",
    "mem_vector_regs_sm75": "as mem_vector_regs_sm13.",
    "mov_vector_sm13": "DM-MOV, OP-07 (front end): `mov` has no modifier `.v2` / `.v4` (the spec's own example "
                       "`mov.v4.f32 {a,b,c,d}, V;` is rejected).",
    "mov_vector_sm75": "as mov_vector_sm13 (ptxas accepts this file).",
}


def make_cases():
    cases = []
    for name, dialects, fn in GROUPS:
        for d in dialects:
            r = fn(d)
            if r is None:
                continue
            if isinstance(r, Case):
                set_kernel_name(r, "%s_%s" % (name, d))
                cases.append(r)
                continue
            ids, title, forms = r
            parts = {}
            for f in forms:
                parts.setdefault(f.split, []).append(f)
            for sp in sorted(parts, key=lambda x: (x is not None, x or "")):
                cname = "%s_%s" % (name, d) if sp is None else "%s_%s_%s" % (name, sp, d)
                fids = ids if sp is None else sorted({i for f in parts[sp] for i in (f.ids or ids)}, key=ids.index)
                c = build_forms_case(cname, d, fids, title + ("" if sp is None else " (%s)" % sp.replace("_", " ")), parts[sp])
                if name in VERSION_OVERRIDE:
                    v = VERSION_OVERRIDE[name]
                    c.ptx = c.ptx.replace(".version 1.4\n", ".version %s\n" % v, 1)
                    c.ptx = c.ptx.replace("// Dialect: PTX 1.4 / sm_13", "// Dialect: PTX %s / sm_13" % v, 1)
                cases.append(c)
    return cases


def manifest(c):
    m = {
        "name": c.name,
        "description": c.title,
        "kernel": c.name,
        "ptx": "kernel.ptx",
        "grid": list(c.grid),
        "block": list(c.block),
        "dynamic_shared_bytes": c.dynamic_shared,
        "params": c.params,
        "expect": c.expect,
        "expect_trap": c.expect_trap,
    }
    return json.dumps(m, indent=1) + "\n"


def write_case(c, root):
    d = os.path.join(root, c.name)
    os.makedirs(d)
    with open(os.path.join(d, "kernel.ptx"), "w") as f:
        f.write(c.ptx)
    with open(os.path.join(d, "case.json"), "w") as f:
        f.write(manifest(c))
    for fn in sorted(c.files):
        with open(os.path.join(d, fn), "wb") as f:
            f.write(c.files[fn])


def ptxas_path():
    try:
        import nvidia.cuda_nvcc as nv  # type: ignore
    except ImportError:
        return None
    p = os.path.join(list(nv.__path__)[0], "bin", "ptxas")
    return p if os.path.exists(p) else None


def ptxas_check(c, ptxas):
    import tempfile
    with tempfile.TemporaryDirectory() as t:
        src = os.path.join(t, "k.ptx")
        with open(src, "w") as f:
            f.write(c.ptx)
        r = subprocess.run([ptxas, "-arch=sm_75", src, "-o", os.path.join(t, "k.cubin")], capture_output=True, text=True)
        return r.returncode == 0, r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="validate the sm75 kernels with ptxas (nvidia-cuda-nvcc-cu12)")
    ap.add_argument("--selftest", action="store_true", help="only run the reference-arithmetic self-test")
    ap.add_argument("--only", nargs="*", help="write only these case names (for development)")
    args = ap.parse_args()
    _selftest()
    if args.selftest:
        print("self-test ok")
        return
    cases = make_cases()
    names = [c.name for c in cases]
    assert len(names) == len(set(names)), "duplicate case names"
    for p in PENDING:
        assert p in names, "PENDING names an unknown case: %s" % p
    if args.check:
        ptxas = ptxas_path()
        if ptxas is None:
            sys.exit("--check needs ptxas: pip install nvidia-cuda-nvcc-cu12")
        bad = 0
        for c in cases:
            if c.dialect == "sm75":
                ok, err = ptxas_check(c, ptxas)
                if not ok:
                    bad += 1
                    print("ptxas rejects %s:\n%s" % (c.name, err))
        if bad:
            sys.exit(1)
    for root in (OUT, OUT_PENDING):
        if args.only is None and os.path.isdir(root):
            shutil.rmtree(root)
        os.makedirs(root, exist_ok=True)
    for c in cases:
        if args.only is not None and c.name not in args.only:
            continue
        root = OUT_PENDING if c.name in PENDING else OUT
        for r in (OUT, OUT_PENDING):
            if os.path.isdir(os.path.join(r, c.name)):
                shutil.rmtree(os.path.join(r, c.name))
        write_case(c, root)
    with open(os.path.join(OUT_PENDING, "README.md"), "w") as f:
        f.write(PENDING_README)
        for p in sorted(PENDING):
            f.write("- `%s`: %s\n" % (p, PENDING[p]))
    print("%d cases (%d pending)" % (len(cases), len(PENDING)))


PENDING_README = """# Pending PTX interpreter conformance cases

Generated by `tools/gen_ptx_interp_tests.py`, like `tests/ptx-interp/`. These cases hold
expectations computed independently from the checklist (`../shared/spec/ptx-1.4-checklist.md`)
that the PTX reference interpreter or the PTX front end does not meet yet. They are not
run by `tests/ptx_interp.rs`; when the interpreter is fixed, remove the case from `PENDING`
in the generator and regenerate, which moves it to `tests/ptx-interp/`.

"""


if __name__ == "__main__":
    main()
