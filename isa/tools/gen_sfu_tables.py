#!/usr/bin/env python3
"""Generate the piecewise-quadratic tables of isa/src/scalar/sfu.rs.

Each table covers [lo, lo + n*h) with n segments of width h.  On segment i
(start a = lo + i*h) the function f is replaced by the quadratic
    p(tau) = c0 + c1*tau + c2*tau^2,   tau = (x - a)/h in [0, 1],
that interpolates f at tau = 0, alpha, 2*alpha with alpha = sqrt(3)/(2+sqrt(3)).
(Those are the zeros of a Chebyshev polynomial T3 stretched so that its
leftmost zero sits on tau = 0: near-minimax, but exact at the segment start, so
lg2(2^k) = k and ex2(k) = 2^k come out exact.)  Coefficients are rounded to
nearest integers in units of 2^-F (F = 32 for every table).

Usage: python3 isa/tools/gen_sfu_tables.py [LG2 EX2 SIN TANH INV_2PI]
prints the Rust constants (all, or the named ones) for pasting into sfu.rs, and
the estimated max error of each table piece on stderr.  Needs mpmath.
"""
import sys
from mpmath import mp, mpf, log, sin, tanh, pi, sqrt, floor

mp.dps = 100  # 1/(2*pi) needs 256 bits
F = 32
ALPHA = sqrt(3) / (2 + sqrt(3))


def rnd(v):
    return int(floor(v * 2**F + mpf(1) / 2))


def table(f, lo, h, n):
    rows = []
    for i in range(n):
        a = lo + i * h
        f0, f1, f2 = f(a), f(a + ALPHA * h), f(a + 2 * ALPHA * h)
        c2 = (f2 - 2 * f1 + f0) / (2 * ALPHA**2)
        c1 = (f1 - f0) / ALPHA - c2 * ALPHA
        rows.append((rnd(f0), rnd(c1), rnd(c2)))
    return rows


def horner(c, t, T):
    v = c[1] + ((c[2] * t) >> T)
    return c[0] + ((v * t) >> T)


def max_err(f, lo, h, rows, samples=40, rel=False):
    """Max error (absolute, or relative to f) of the integer evaluation, T = 24."""
    worst = mpf(0)
    for i, c in enumerate(rows):
        for k in range(samples + 1):
            t = (k * (1 << 24)) // samples
            x = lo + i * h + h * mpf(t) / (1 << 24)
            e = abs(mpf(horner(c, t, 24)) / 2**F - f(x))
            if rel:
                e /= abs(f(x))
            worst = max(worst, e)
    return float(log(worst, 2))


def sinq(u):  # sin(2*pi*u)/u, the quarter-wave kernel
    return 2 * pi if u == 0 else sin(2 * pi * u) / u


def tanhq(x):  # tanh(x)/x
    return mpf(1) if x == 0 else tanh(x) / x


# name, description, pieces: (f, lo, h, n), error measured relative to f?
TABLES = [
    ("LG2", "log2(1 + (i + tau)/128)",
     [(lambda m: log(m, 2), mpf(1), mpf(1) / 128, 128)], False),
    ("EX2", "2^((i + tau)/64)",
     [(lambda y: mpf(2) ** y, mpf(0), mpf(1) / 64, 64)], False),
    ("SIN", "S(u) = sin(2*pi*u)/u at u = (i + tau)/512 revolutions",
     [(sinq, mpf(0), mpf(1) / 512, 128)], True),
    ("TANH", "rows 0..63: tanh(x)/x at x = (i + tau)/32; "
     "rows 64..95: tanh(x)/x at x = 2 + (i - 64 + tau)/16; rows 96..127: tanh(x) at x = 4 + (i - 96 + tau)/8",
     [(tanhq, mpf(0), mpf(1) / 32, 64), (tanhq, mpf(2), mpf(1) / 16, 32), (tanh, mpf(4), mpf(1) / 8, 32)], True),
]

if __name__ == "__main__":
    only = sys.argv[1:]
    for name, what, pieces, rel in TABLES:
        if only and name not in only:
            continue
        rows, errs = [], []
        for f, lo, h, n in pieces:
            part = table(f, lo, h, n)
            errs.append(max_err(f, lo, h, part, rel=rel))
            rows += part
        kind = "relative" if rel else "absolute"
        print(f"{name}: {len(rows)} rows, est. max {kind} error per piece: "
              + ", ".join(f"2^{e:.2f}" for e in errs), file=sys.stderr)
        print(f"/// {what}; [c0, c1, c2] in units of 2^-{F}.")
        print("#[rustfmt::skip]")
        print(f"const {name}: [[i64; 3]; {len(rows)}] = [")
        for i in range(0, len(rows), 4):
            print("    " + " ".join(f"[{a}, {b}, {c}]," for a, b, c in rows[i:i + 4]))
        print("];")
    if not only or "INV_2PI" in only:
        w = int(floor(2**256 / (2 * pi)))
        words = ", ".join(f"0x{(w >> (64 * k)) & (2**64 - 1):016x}" for k in (3, 2, 1, 0))
        print("/// floor(2^256 / (2*pi)) as four big-endian 64-bit words (bit j of the fraction = 2^-j).")
        print("#[rustfmt::skip]")
        print(f"const INV_2PI: [u64; 4] = [{words}];")
