"""Integer arithmetic: 64-bit math, division and remainder, bit manipulation,
integer intrinsics."""
from .common import Case, Rng, case, wrap
from .cases_control import cdiv, cmod

M32 = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF
I64_MIN = -(1 << 63)
I64_MAX = (1 << 63) - 1
I32_MIN = -(1 << 31)
I32_MAX = (1 << 31) - 1


def int64_inputs(r, n):
    edge = [0, 1, -1, 2, -2, I64_MAX, I64_MIN + 1, 1 << 32, -(1 << 32), (1 << 32) - 1, 0x7FFFFFFF,
            -0x80000000, 12345678901234, -98765432109876]
    a = [edge[k % len(edge)] if k < 2 * len(edge) else 0 for k in range(n)]
    for k in range(n):
        kind = k % 4
        if k < 2 * len(edge):
            continue
        if kind == 0:
            a[k] = r.s64()
        elif kind == 1:
            a[k] = r.range(-1000, 1000)
        elif kind == 2:
            a[k] = wrap(r.u32(), "s32")
        else:
            a[k] = r.s64() >> r.range(0, 62)
    return a


@case
def int64_math():
    c = Case("int64_math", "64-bit integer add/sub/mul, __mul64hi/__umul64hi, arithmetic and logical "
             "shifts by variable amounts, rotates, signed/unsigned compares, min/max, abs, mul.wide, "
             "sign extension, carries")
    c.source = r"""
extern "C" __global__ void int64_ops(const long long *a, const long long *b, const unsigned *sh,
                                     long long *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long x = a[i], y = b[i];
    unsigned long long ux = x, uy = y;
    unsigned s = sh[i] & 63;
    long long *r = o + 20 * i;
    r[0] = (long long)(ux + uy);
    r[1] = (long long)(ux - uy);
    r[2] = (long long)(ux * uy);
    r[3] = __mul64hi(x, y);
    r[4] = (long long)__umul64hi(ux, uy);
    r[5] = x >> s;
    r[6] = (long long)(ux >> s);
    r[7] = (long long)(ux << s);
    r[8] = (long long)((ux << s) | (ux >> ((64 - s) & 63)));
    r[9] = x < y;
    r[10] = ux < uy;
    r[11] = min(x, y);
    r[12] = (long long)max(ux, uy);
    r[13] = x == I64_MIN_GUARD ? 0 : llabs(x);
    r[14] = (long long)(int)x * (long long)(int)y;
    r[15] = (long long)((unsigned long long)(unsigned)x * (unsigned)y);
    r[16] = x == y;
    r[17] = (ux + uy) < ux;
    r[18] = (long long)(ux + (unsigned long long)(long long)(int)sh[i]);
    r[19] = (long long)((ux ^ (uy >> 7)) - (~ux & 0xffff0000ffffull));
}
""".replace("I64_MIN_GUARD", "(-9223372036854775807ll - 1)")
    c.kernel = "int64_ops"
    n = 256
    c.grid, c.block = (2, 1, 1), (128, 1, 1)
    r = Rng(401)
    a = int64_inputs(r, n)
    b = int64_inputs(r, n)
    b = b[7:] + b[:7]
    for k in range(0, n, 11):
        b[k] = a[k]
    sh = [r.u32() for _ in range(n)]
    c.buffer("a", "s64", a)
    c.buffer("b", "s64", b)
    c.buffer("sh", "u32", sh)
    c.buffer("o", "s64", count=20 * n, output=True)
    c.scalar("s32", n)
    out = []
    for x, y, shv in zip(a, b, sh):
        ux, uy, s = x & M64, y & M64, shv & 63
        sx32 = wrap(x, "s32")
        sy32 = wrap(y, "s32")
        row = [
            ux + uy, ux - uy, ux * uy,
            (x * y) >> 64, (ux * uy) >> 64,
            x >> s, ux >> s, ux << s,
            (ux << s) | (ux >> ((64 - s) & 63)),
            int(x < y), int(ux < uy), min(x, y), max(ux, uy),
            0 if x == I64_MIN else abs(x),
            sx32 * sy32, (x & M32) * (y & M32),
            int(x == y), int(ux + uy > M64), x + wrap(shv, "s32"),
            (ux ^ (uy >> 7)) - (~ux & 0xFFFF0000FFFF),
        ]
        out += [wrap(v, "s64") for v in row]
    c.expect("o", "s64", out)
    return c


def div_inputs32(r, n, signed):
    xs, ys = [], []
    for k in range(n):
        kind = k % 6
        if signed:
            x = [r.s32(), r.range(-100, 100), I32_MIN, I32_MAX, r.s32() >> 8, r.s32()][kind]
            y = [r.s32(), r.range(1, 20), r.range(-20, -2), r.s32() >> r.range(0, 30), 1, -1][(k // 6) % 6]
            if y == 0:
                y = 3
            if x == I32_MIN and y == -1:
                y = -2
        else:
            x = [r.u32(), r.range(0, 100), M32, 0x80000000, r.u32() >> 8, r.u32()][kind]
            y = [r.u32(), r.range(1, 20), 1 << r.range(0, 31), r.u32() >> r.range(0, 31), 1, M32][(k // 6) % 6]
            if y == 0:
                y = 5
        xs.append(x)
        ys.append(y)
    return xs, ys


@case
def divrem_32():
    c = Case("divrem_32", "32-bit signed and unsigned division and remainder by variable divisors "
             "(negative, 1, -1, powers of two, INT_MIN dividends) and by constants (magic-number "
             "sequences, power-of-two shifts)")
    c.source = r"""
extern "C" __global__ void divrem32(const int *a, const int *b, const unsigned *ua, const unsigned *ub,
                                    int *o, unsigned *uo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    unsigned ux = ua[i], uy = ub[i];
    int *r = o + 8 * i;
    r[0] = x / y;
    r[1] = x % y;
    r[2] = x / 7;
    r[3] = x % 7;
    r[4] = x / -3;
    r[5] = x % 10;
    r[6] = x / 16;
    r[7] = x % 16;
    unsigned *u = uo + 6 * i;
    u[0] = ux / uy;
    u[1] = ux % uy;
    u[2] = ux / 7;
    u[3] = ux % 10;
    u[4] = ux / 1000000007u;
    u[5] = ux % 64;
}
"""
    c.kernel = "divrem32"
    n = 360
    c.grid, c.block = (3, 1, 1), (128, 1, 1)
    r = Rng(402)
    xs, ys = div_inputs32(r, n, True)
    uxs, uys = div_inputs32(r, n, False)
    c.buffer("a", "s32", xs)
    c.buffer("b", "s32", ys)
    c.buffer("ua", "u32", uxs)
    c.buffer("ub", "u32", uys)
    c.buffer("o", "s32", count=8 * n, output=True)
    c.buffer("uo", "u32", count=6 * n, output=True)
    c.scalar("s32", n)
    o, uo = [], []
    for x, y in zip(xs, ys):
        o += [cdiv(x, y), cmod(x, y), cdiv(x, 7), cmod(x, 7), cdiv(x, -3), cmod(x, 10), cdiv(x, 16), cmod(x, 16)]
    for x, y in zip(uxs, uys):
        uo += [x // y, x % y, x // 7, x % 10, x // 1000000007, x % 64]
    c.expect("o", "s32", o)
    c.expect("uo", "u32", uo)
    return c


@case
def divrem_64():
    c = Case("divrem_64", "64-bit signed and unsigned division and remainder by variable divisors and "
             "by constants")
    c.source = r"""
extern "C" __global__ void divrem64(const long long *a, const long long *b, const unsigned long long *ua,
                                    const unsigned long long *ub, long long *o, unsigned long long *uo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long x = a[i], y = b[i];
    unsigned long long ux = ua[i], uy = ub[i];
    long long *r = o + 6 * i;
    r[0] = x / y;
    r[1] = x % y;
    r[2] = x / 1000;
    r[3] = x % 1000;
    r[4] = x / -7;
    r[5] = x % 4096;
    unsigned long long *u = uo + 5 * i;
    u[0] = ux / uy;
    u[1] = ux % uy;
    u[2] = ux / 10;
    u[3] = ux % 1000000007ull;
    u[4] = ux / 0x100000000ull;
}
"""
    c.kernel = "divrem64"
    n = 300
    c.grid, c.block = (3, 1, 1), (128, 1, 1)
    r = Rng(403)
    xs = int64_inputs(r, n)
    ys = []
    for k in range(n):
        y = [r.s64(), r.range(1, 50), r.range(-50, -2), r.s64() >> r.range(0, 62), 1, -1,
             wrap(r.u32(), "s32")][(k // 3) % 7]
        if y == 0:
            y = 9
        if xs[k] == I64_MIN and y == -1:
            y = 2
        ys.append(y)
    uxs = [x & M64 for x in int64_inputs(r, n)]
    uys = []
    for k in range(n):
        y = [r.u64(), r.range(1, 50), 1 << r.range(0, 63), r.u64() >> r.range(0, 63), 1, M64,
             r.u32()][(k // 3) % 7]
        uys.append(y or 11)
    c.buffer("a", "s64", xs)
    c.buffer("b", "s64", ys)
    c.buffer("ua", "u64", uxs)
    c.buffer("ub", "u64", uys)
    c.buffer("o", "s64", count=6 * n, output=True)
    c.buffer("uo", "u64", count=5 * n, output=True)
    c.scalar("s32", n)
    o, uo = [], []
    for x, y in zip(xs, ys):
        o += [cdiv(x, y), cmod(x, y), cdiv(x, 1000), cmod(x, 1000), cdiv(x, -7), cmod(x, 4096)]
    for x, y in zip(uxs, uys):
        uo += [x // y, x % y, x // 10, x % 1000000007, x >> 32]
    c.expect("o", "s64", o)
    c.expect("uo", "u64", uo)
    return c


def brev(x, bits):
    return int(format(x, "0%db" % bits)[::-1], 2)


def clz(x, bits):
    return bits - x.bit_length()


def ffs(x):
    return (x & -x).bit_length()


def byte_perm(x, y, s):
    src = x | (y << 32)
    r = 0
    for k in range(4):
        sel = (s >> (4 * k)) & 7
        r |= ((src >> (8 * sel)) & 0xFF) << (8 * k)
    return r


@case
def bit_manipulation():
    c = Case("bit_manipulation", "__popc/__popcll, __clz/__clzll, __ffs/__ffsll, __brev/__brevll, "
             "__byte_perm (constant and variable selectors), __funnelshift_l/r/lc/rc with shifts past "
             "31, bit-field extract and insert, floor(log2)")
    c.source = r"""
extern "C" __global__ void bits(const unsigned *a, const unsigned *b, const unsigned long long *c,
                                unsigned *o, unsigned long long *o64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i];
    unsigned long long z = c[i];
    unsigned s = y >> 26;  // 0..63
    unsigned *r = o + 18 * i;
    r[0] = __popc(x);
    r[1] = __clz(x);
    r[2] = __ffs(x);
    r[3] = __brev(x);
    r[4] = __byte_perm(x, y, (y ^ x) & 0x7777);
    r[5] = __byte_perm(x, y, 0x0123);
    r[6] = __funnelshift_l(x, y, s);
    r[7] = __funnelshift_r(x, y, s);
    r[8] = __funnelshift_lc(x, y, s);
    r[9] = __funnelshift_rc(x, y, s);
    r[10] = (x >> (y & 31)) & 31u;
    r[11] = (x & ~(0xffu << 8)) | ((y & 0xffu) << 8);
    r[12] = __popcll(z);
    r[13] = __clzll(z);
    r[14] = __ffsll(z);
    r[15] = 31 - __clz(x);
    r[16] = __byte_perm(x, 0, 0x4440 | (y & 3));
    r[17] = (x << (y & 15)) >> 16;
    o64[i] = __brevll(z);
}
"""
    c.kernel = "bits"
    n = 256
    c.grid, c.block = (2, 1, 1), (128, 1, 1)
    r = Rng(404)
    a, b, z = [], [], []
    for k in range(n):
        kind = k % 5
        a.append([r.u32(), 0, M32, 1 << r.range(0, 31), r.u32() >> r.range(0, 31)][kind] if k > 4 else
                 [0, 1, M32, 0x80000000, 0x00010000][k])
        b.append(r.u32())
        z.append([r.u64(), 0, M64, 1 << r.range(0, 63), r.u64() >> r.range(0, 63)][(k // 5) % 5])
    c.buffer("a", "u32", a)
    c.buffer("b", "u32", b)
    c.buffer("c", "u64", z)
    c.buffer("o", "u32", count=18 * n, output=True)
    c.buffer("o64", "u64", count=n, output=True)
    c.scalar("s32", n)
    o, o64 = [], []
    for x, y, zz in zip(a, b, z):
        s = y >> 26
        cat = (y << 32) | x
        sl, slc = s & 31, min(s, 32)
        row = [
            bin(x).count("1"), clz(x, 32), ffs(x), brev(x, 32),
            byte_perm(x, y, (y ^ x) & 0x7777), byte_perm(x, y, 0x0123),
            ((cat << sl) >> 32) & M32, (cat >> sl) & M32,
            ((cat << slc) >> 32) & M32, (cat >> slc) & M32,
            (x >> (y & 31)) & 31, (x & ~(0xFF << 8) & M32) | ((y & 0xFF) << 8),
            bin(zz).count("1"), clz(zz, 64), ffs(zz), (31 - clz(x, 32)) & M32,
            byte_perm(x, 0, 0x4440 | (y & 3)), ((x << (y & 15)) & M32) >> 16,
        ]
        o += row
        o64.append(brev(zz, 64))
    c.expect("o", "u32", o)
    c.expect("o64", "u64", o64)
    return c


@case
def int_intrinsics():
    c = Case("int_intrinsics", "__mulhi/__umulhi, __mul24/__umul24, __sad/__usad, __hadd/__rhadd/"
             "__uhadd/__urhadd, abs, min/max, signed and unsigned compares and selects")
    c.source = r"""
extern "C" __global__ void intr(const int *a, const int *b, const unsigned *c, int *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    unsigned ux = x, uy = y, z = c[i];
    int *r = o + 14 * i;
    r[0] = __mulhi(x, y);
    r[1] = __umulhi(ux, uy);
    r[2] = __mul24(x, y);
    r[3] = __umul24(ux, uy);
    r[4] = __sad(x, y, z);
    r[5] = __usad(ux, uy, z);
    r[6] = __hadd(x, y);
    r[7] = __rhadd(x, y);
    r[8] = __uhadd(ux, uy);
    r[9] = __urhadd(ux, uy);
    r[10] = x == (-2147483647 - 1) ? 7 : abs(x);
    r[11] = min(x, y);
    r[12] = max(ux, uy);
    r[13] = (x > y) != (ux > uy) ? (int)(ux - uy) : (int)(uy - (unsigned)(x >> 3));
}
"""
    c.kernel = "intr"
    n = 256
    c.grid, c.block = (2, 1, 1), (128, 1, 1)
    r = Rng(405)
    a = [[r.s32(), r.range(-100, 100), I32_MIN, I32_MAX, r.s32() >> 8][k % 5] for k in range(n)]
    b = [[r.s32(), r.range(-(1 << 23), 1 << 23), -1, r.s32() >> 16][k % 4] for k in range(n)]
    z = [r.u32() for _ in range(n)]
    c.buffer("a", "s32", a)
    c.buffer("b", "s32", b)
    c.buffer("c", "u32", z)
    c.buffer("o", "s32", count=14 * n, output=True)
    c.scalar("s32", n)

    def s24(v):
        v &= 0xFFFFFF
        return v - (1 << 24) if v & 0x800000 else v
    o = []
    for x, y, zz in zip(a, b, z):
        ux, uy = x & M32, y & M32
        row = [
            (x * y) >> 32, (ux * uy) >> 32,
            s24(x) * s24(y), (ux & 0xFFFFFF) * (uy & 0xFFFFFF),
            abs(x - y) + zz, abs(ux - uy) + zz,
            (x + y) >> 1, (x + y + 1) >> 1, (ux + uy) >> 1, (ux + uy + 1) >> 1,
            7 if x == I32_MIN else abs(x),
            min(x, y), max(ux, uy),
            (ux - uy) if (x > y) != (ux > uy) else y - (x >> 3),
        ]
        o += [wrap(v, "s32") for v in row]
    c.expect("o", "s32", o)
    return c
