"""Control flow and the call ABI: nested divergence, per-thread loops, switches,
device calls, recursion, indirect calls, local arrays, structs by value."""
import struct

from .common import Case, Rng, case, wrap
from . import fp


def cdiv(a, b):
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def cmod(a, b):
    return a - b * cdiv(a, b)


@case
def nested_divergence():
    c = Case("nested_divergence", "three-level nested if/else with early returns inside divergent code, "
             "a divergent loop with break, goto into a shared exit, reconvergence before the stores")
    c.source = r"""
extern "C" __global__ void nested(const int *x, int *out, int *trace, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = x[i];
    int r = 0;
    int tr = 3;
    if (v & 1) {
        if (v & 2) {
            if (v & 4) {
                r = v * 3;
            } else {
                if (v & 8) {
                    out[i] = -1;
                    trace[i] = 1;
                    return;
                }
                r = v + 7;
            }
        } else {
            r = v - 5;
            if (v & 16)
                r <<= 1;
        }
    } else if (v & 2) {
        #pragma unroll 1
        for (int k = 0; k < (v & 7) + 2; ++k) {
            if (k == 3 && (v & 32))
                break;
            r += k * v;
        }
    } else {
        r = v ^ 0x5a5a;
        if (v & 64) {
            if (v & 128) {
                r = ~r;
            } else {
                out[i] = -2;
                trace[i] = 2;
                return;
            }
        }
    }
    // a loop with two exits, one of them a goto past the common tail
    int j = 0;
    #pragma unroll 1
    while (true) {
        if (j * j > (v & 255))
            break;
        if (((v >> j) & 3) == 3 && j > 2) {
            r += 1000 * j;
            tr = 4;
            goto done;
        }
        ++j;
    }
    r += __popc(v) * 10000;
done:
    out[i] = r;
    trace[i] = tr;
}
"""
    c.kernel = "nested"
    n = 700
    c.grid, c.block = (3, 1, 1), (256, 1, 1)
    r = Rng(301)
    x = [r.range(0, 1 << 20) for _ in range(n)]
    c.buffer("x", "s32", x)
    c.buffer("out", "s32", count=n, output=True)
    c.buffer("trace", "s32", count=n, output=True)
    c.scalar("s32", n)
    out, trace = [], []
    for v in x:
        rr, tr, early = 0, 3, None
        if v & 1:
            if v & 2:
                if v & 4:
                    rr = v * 3
                elif v & 8:
                    early = (-1, 1)
                else:
                    rr = v + 7
            else:
                rr = v - 5
                if v & 16:
                    rr <<= 1
        elif v & 2:
            for k in range((v & 7) + 2):
                if k == 3 and (v & 32):
                    break
                rr += k * v
        else:
            rr = v ^ 0x5A5A
            if v & 64:
                if v & 128:
                    rr = ~rr
                else:
                    early = (-2, 2)
        if early:
            out.append(early[0])
            trace.append(early[1])
            continue
        j = 0
        jumped = False
        while True:
            if j * j > (v & 255):
                break
            if ((v >> j) & 3) == 3 and j > 2:
                rr += 1000 * j
                tr = 4
                jumped = True
                break
            j += 1
        if not jumped:
            rr += bin(v).count("1") * 10000
        out.append(wrap(rr, "s32"))
        trace.append(tr)
    c.expect("out", "s32", out)
    c.expect("trace", "s32", trace)
    return c


@case
def per_thread_loops():
    c = Case("per_thread_loops", "loops whose trip counts differ per thread: Collatz while loop, nested "
             "for loops with continue and break, a do-while; all divergent")
    c.source = r"""
extern "C" __global__ void loops(const unsigned *x, unsigned *steps, unsigned *peak, int *sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = x[i];
    unsigned s = 0, p = v;
    #pragma unroll 1
    while (v != 1) {
        v = (v & 1) ? 3 * v + 1 : v >> 1;
        if (v > p)
            p = v;
        ++s;
    }
    steps[i] = s;
    peak[i] = p;
    int acc = 0;
    int lim = i % 13;
    #pragma unroll 1
    for (int a = 0; a < lim; ++a) {
        if (a % 3 == 1)
            continue;
        #pragma unroll 1
        for (int b = a; b < 2 * lim; ++b) {
            if ((a + b) % 7 == 6)
                break;
            acc += a * b - (int)(x[i] % 5);
        }
    }
    int d = 0;
    unsigned u = x[i];
    #pragma unroll 1
    do {
        u /= 3;
        ++d;
    } while (u > 0);
    sums[i] = acc * 100 + d;
}
"""
    c.kernel = "loops"
    n = 400
    c.grid, c.block = (4, 1, 1), (128, 1, 1)
    r = Rng(302)
    x = [r.range(1, 10000) for _ in range(n)]
    c.buffer("x", "u32", x)
    for nm in ("steps", "peak"):
        c.buffer(nm, "u32", count=n, output=True)
    c.buffer("sums", "s32", count=n, output=True)
    c.scalar("s32", n)
    steps, peak, sums = [], [], []
    for i, v0 in enumerate(x):
        v, s, p = v0, 0, v0
        while v != 1:
            v = 3 * v + 1 if v & 1 else v >> 1
            p = max(p, v)
            s += 1
        steps.append(s)
        peak.append(p)
        acc, lim = 0, i % 13
        for a in range(lim):
            if a % 3 == 1:
                continue
            for b in range(a, 2 * lim):
                if (a + b) % 7 == 6:
                    break
                acc += a * b - v0 % 5
        d, u = 0, v0
        while True:
            u //= 3
            d += 1
            if u == 0:
                break
        sums.append(acc * 100 + d)
    c.expect("steps", "u32", steps)
    c.expect("peak", "u32", peak)
    c.expect("sums", "s32", sums)
    return c


@case
def switch_statements():
    c = Case("switch_statements", "a dense switch with fallthrough and negative remainders reaching "
             "default, and a sparse switch over far-apart values")
    c.source = r"""
extern "C" __global__ void switches(const int *x, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = x[i];
    int r = 0;
    switch (v % 12) {
    case 0: r = v; break;
    case 1: r = v * 2; break;
    case 2: r = v + 100; break;
    case 3: r = -v; break;
    case 4: r = v ^ 0xff; break;
    case 5: r = v >> 1;  // fall through
    case 6: r += 3; break;
    case 7: r = v * v; break;
    case 8: r = 8; break;
    case 9: r = v - 9; break;
    case 10: r = v & 0xf0f; break;
    default: r = -1; break;
    }
    int s;
    switch (v) {
    case -7: s = 1; break;
    case 3: s = 2; break;
    case 100: s = 3; break;
    case 1000: s = 4; break;
    case 65536: s = 5; break;
    default: s = 0; break;
    }
    out[2 * i] = r;
    out[2 * i + 1] = s;
}
"""
    c.kernel = "switches"
    n = 500
    c.grid, c.block = (2, 1, 1), (256, 1, 1)
    r = Rng(303)
    x = [r.range(-60, 1100) for _ in range(n)]
    for k, v in enumerate((-7, 3, 100, 1000, 65536, 65535, -12, -11, 0)):
        x[17 * k + 5] = v
    c.buffer("x", "s32", x)
    c.buffer("out", "s32", count=2 * n, output=True)
    c.scalar("s32", n)
    out = []
    for v in x:
        m = cmod(v, 12)
        rr = {0: v, 1: v * 2, 2: v + 100, 3: -v, 4: v ^ 0xFF, 5: (v >> 1) + 3, 6: 3, 7: v * v, 8: 8,
              9: v - 9, 10: v & 0xF0F}.get(m, -1)
        s = {-7: 1, 3: 2, 100: 3, 1000: 4, 65536: 5}.get(v, 0)
        out += [wrap(rr, "s32"), s]
    c.expect("out", "s32", out)
    return c


@case
def device_calls():
    c = Case("device_calls", "__noinline__ device functions: int/float/double/64-bit arguments and "
             "returns, 12 arguments, a pointer argument, nested calls, calls inside divergent branches")
    c.source = r"""
__device__ __noinline__ int add3(int a, int b, int c)
{
    return a + b * 2 + c * 3;
}

__device__ __noinline__ int depth2(int v)
{
    return add3(v, v >> 1, 1) ^ 0x55;
}

__device__ __noinline__ float lerp_f(float a, float b, float t)
{
    return fmaf(t, b - a, a);
}

__device__ __noinline__ long long wide(int a, int b)
{
    return (long long)a * b;
}

__device__ __noinline__ void write_two(int *p, int v)
{
    p[0] = v;
    p[1] = ~v;
}

__device__ __noinline__ int many_args(int a0, int a1, int a2, int a3, int a4, int a5,
                                      int a6, int a7, int a8, int a9, int a10, int a11)
{
    return a0 - a1 + a2 * 2 - a3 + (a4 ^ a5) + a6 * a7 - a8 + (a9 | a10) - a11;
}

__device__ __noinline__ double dmix(double x, float y, int k)
{
    return x * 0.5 + (double)y * k;
}

extern "C" __global__ void calls(const int *x, const float *f, int *o_int, float *o_f,
                                 long long *o_wide, int *o_two, double *o_d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = x[i];
    int r;
    if (v & 1)
        r = add3(v, i, -v);
    else
        r = depth2(v);
    if (v % 3 == 0)
        r += many_args(v, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, i);
    o_int[i] = r;
    o_f[i] = lerp_f(f[i], f[i + 1], 0.25f);
    o_wide[i] = wide(v, v - 7777777);
    write_two(o_two + 2 * i, v);
    o_d[i] = dmix((double)v, f[i], i);
}
"""
    c.kernel = "calls"
    n = 300
    c.grid, c.block = (3, 1, 1), (128, 1, 1)
    r = Rng(304)
    x = [r.range(-3000000, 3000000) for _ in range(n)]
    f = [r.f32_unit(-50, 50) for _ in range(n + 1)]
    c.buffer("x", "s32", x)
    c.buffer("f", "f32", f)
    c.buffer("o_int", "s32", count=n, output=True)
    c.buffer("o_f", "f32", count=n, output=True)
    c.buffer("o_wide", "s64", count=n, output=True)
    c.buffer("o_two", "s32", count=2 * n, output=True)
    c.buffer("o_d", "f64", count=n, output=True)
    c.scalar("s32", n)

    def add3(a, b, cc):
        return wrap(a + b * 2 + cc * 3, "s32")
    quarter = fp.f32_bits(0.25)
    oi, of, ow, ot, od = [], [], [], [], []
    for i, v in enumerate(x):
        rr = add3(v, i, -v) if v & 1 else add3(v, v >> 1, 1) ^ 0x55
        if cmod(v, 3) == 0:
            a = [v, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, i]
            rr += a[0] - a[1] + a[2] * 2 - a[3] + (a[4] ^ a[5]) + a[6] * a[7] - a[8] + (a[9] | a[10]) - a[11]
        oi.append(wrap(rr, "s32"))
        of.append(fp.fma(quarter, fp.sub(f[i + 1], f[i]), f[i]))
        ow.append(v * (v - 7777777))
        ot += [v, ~v]
        # x*0.5 is exact, so (x*0.5) + y*k is one rounding of y*k then one of the sum,
        # whether or not NVRTC contracts it into an fma (y*k is exact in double)
        yk = fp.mul(fp.cvt_f2f(f[i], fp.F32, fp.F64), fp.f64_bits(float(i)), fp.F64)
        od.append(fp.add(fp.f64_bits(v * 0.5), yk, fp.F64))
    c.expect("o_int", "s32", oi)
    c.expect("o_f", "f32", of)
    c.expect("o_wide", "s64", ow)
    c.expect("o_two", "s32", ot)
    c.expect("o_d", "f64", od)
    return c


@case
def recursion():
    c = Case("recursion", "true recursion through the call stack: doubly recursive Fibonacci, "
             "Ackermann, and a recursive walk over a local array passed by (generic) pointer")
    c.source = r"""
__device__ __noinline__ int fib(int n)
{
    if (n < 2)
        return n;
    int a = fib(n - 1);
    int b = fib(n - 2);
    return a + b;
}

__device__ __noinline__ int ack(int m, int n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

__device__ __noinline__ unsigned walk(const unsigned *arr, int k)
{
    if (k == 0)
        return arr[0];
    unsigned r = walk(arr, k - 1);
    return (r * 2654435761u) ^ arr[k];
}

extern "C" __global__ void recursion(const unsigned *x, int *o_fib, int *o_ack, unsigned *o_walk, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned arr[16];
    #pragma unroll 1
    for (int k = 0; k < 16; ++k)
        arr[k] = x[i] + k * 0x1234567u;
    o_fib[i] = fib(i % 16);
    o_ack[i] = ack(i % 3, (i / 3) % 5);
    o_walk[i] = walk(arr, x[i] & 15);
}
"""
    c.kernel = "recursion"
    n = 96
    c.grid, c.block = (1, 1, 1), (96, 1, 1)
    r = Rng(305)
    x = [r.u32() for _ in range(n)]
    c.buffer("x", "u32", x)
    c.buffer("o_fib", "s32", count=n, output=True)
    c.buffer("o_ack", "s32", count=n, output=True)
    c.buffer("o_walk", "u32", count=n, output=True)
    c.scalar("s32", n)

    def fib(k):
        a, b = 0, 1
        for _ in range(k):
            a, b = b, a + b
        return a

    def ack(m, k):
        return {0: k + 1, 1: k + 2, 2: 2 * k + 3}[m]

    def walk(arr, k):
        rr = arr[0]
        for j in range(1, k + 1):
            rr = ((rr * 2654435761) & 0xFFFFFFFF) ^ arr[j]
        return rr
    c.expect("o_fib", "s32", [fib(i % 16) for i in range(n)])
    c.expect("o_ack", "s32", [ack(i % 3, (i // 3) % 5) for i in range(n)])
    c.expect("o_walk", "u32", [walk([(v + k * 0x1234567) & 0xFFFFFFFF for k in range(16)], v & 15)
                               for v in x])
    return c


@case
def indirect_calls():
    c = Case("indirect_calls", "calls through a table of device function pointers in a module-scope "
             "__device__ array initialized with function addresses; divergent indirect calls")
    c.source = r"""
typedef unsigned (*op_t)(unsigned, unsigned);

__device__ unsigned op_add(unsigned a, unsigned b) { return a + b; }
__device__ unsigned op_sub(unsigned a, unsigned b) { return a - b; }
__device__ unsigned op_mul(unsigned a, unsigned b) { return a * b; }
__device__ unsigned op_xor(unsigned a, unsigned b) { return a ^ (b << 3); }

__device__ op_t ops[4] = {op_add, op_sub, op_mul, op_xor};

extern "C" __global__ void indirect(const unsigned *x, const unsigned *y, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    op_t f = ops[x[i] & 3];
    unsigned r = f(x[i], y[i]);
    op_t g = (r & 1) ? ops[(i >> 2) & 3] : ops[3 - (i & 3)];
    out[i] = g(r, i);
}
"""
    c.kernel = "indirect"
    n = 200
    c.grid, c.block = (2, 1, 1), (128, 1, 1)
    r = Rng(306)
    x = [r.u32() for _ in range(n)]
    y = [r.u32() for _ in range(n)]
    c.buffer("x", "u32", x)
    c.buffer("y", "u32", y)
    c.buffer("out", "u32", count=n, output=True)
    c.scalar("s32", n)
    M = 0xFFFFFFFF
    ops = [lambda a, b: (a + b) & M, lambda a, b: (a - b) & M, lambda a, b: (a * b) & M,
           lambda a, b: a ^ ((b << 3) & M)]
    out = []
    for i in range(n):
        rr = ops[x[i] & 3](x[i], y[i])
        g = ops[(i >> 2) & 3] if rr & 1 else ops[3 - (i & 3)]
        out.append(g(rr, i))
    c.expect("out", "u32", out)
    return c


@case
def local_arrays():
    c = Case("local_arrays", "per-thread arrays in local memory indexed by data: a histogram, a "
             "permutation walk, a float array")
    c.source = r"""
extern "C" __global__ void local_arrays(const unsigned *x, unsigned *out, float *fout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned hist[16];
    unsigned perm[16];
    float f[8];
    unsigned v = x[i];
    #pragma unroll 1
    for (int k = 0; k < 16; ++k) {
        hist[k] = 0;
        perm[k] = (k * 7 + v) & 15;
    }
    #pragma unroll 1
    for (int k = 0; k < 8; ++k)
        hist[(v >> (4 * k)) & 15]++;
    unsigned acc = 0, p = v & 15;
    #pragma unroll 1
    for (int k = 0; k < 20; ++k) {
        p = perm[p];
        acc = acc * 31 + hist[p];
    }
    #pragma unroll 1
    for (int k = 0; k < 8; ++k)
        f[k] = (float)(k + i) * 0.75f;
    out[2 * i] = acc;
    out[2 * i + 1] = hist[v & 15] | hist[(v >> 8) & 15] << 8 | p << 16;
    fout[i] = f[v & 7] - f[(v >> 3) & 7];
}
"""
    c.kernel = "local_arrays"
    n = 160
    c.grid, c.block = (2, 1, 1), (96, 1, 1)
    r = Rng(307)
    x = [r.u32() for _ in range(n)]
    c.buffer("x", "u32", x)
    c.buffer("out", "u32", count=2 * n, output=True)
    c.buffer("fout", "f32", count=n, output=True)
    c.scalar("s32", n)
    out, fo = [], []
    for i, v in enumerate(x):
        hist = [0] * 16
        perm = [(k * 7 + v) & 15 for k in range(16)]
        for k in range(8):
            hist[(v >> (4 * k)) & 15] += 1
        acc, p = 0, v & 15
        for _ in range(20):
            p = perm[p]
            acc = (acc * 31 + hist[p]) & 0xFFFFFFFF
        f = [fp.mul(fp.cvt_i2f(k + i, fp.F32), fp.f32_bits(0.75)) for k in range(8)]
        out += [acc, hist[v & 15] | hist[(v >> 8) & 15] << 8 | p << 16]
        fo.append(fp.sub(f[v & 7], f[(v >> 3) & 7]))
    c.expect("out", "u32", out)
    c.expect("fout", "f32", fo)
    return c


@case
def struct_by_value():
    c = Case("struct_by_value", "a 32-byte struct kernel parameter by value (padding, char array, "
             "double, u64), structs passed to and returned from __noinline__ functions, a 12-byte "
             "struct array in global memory")
    c.source = r"""
struct Params {
    int a;
    float scale;
    double offset;
    char tag[3];
    short s;
    unsigned long long mask;
};

struct Vec3 {
    float x, y, z;
};

__device__ __noinline__ Vec3 scale_vec(Vec3 v, float s)
{
    Vec3 r = {v.x * s, v.y * s, v.z * s};
    return r;
}

__device__ __noinline__ int sum_params(Params p)
{
    return p.a + p.tag[0] + p.tag[1] + p.tag[2] + p.s;
}

extern "C" __global__ void structs(Params p, const Vec3 *in, Vec3 *out, double *dout,
                                   unsigned long long *mout, int *iout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Vec3 v = scale_vec(in[i], p.scale);
    out[i] = v;
    dout[i] = p.offset + (double)i;
    mout[i] = p.mask >> (i & 63);
    iout[i] = sum_params(p) + i;
}
"""
    c.kernel = "structs"
    n = 100
    c.grid, c.block = (1, 1, 1), (128, 1, 1)
    a, scale, offset, tag, s, mask = -123456, 1.3125, 1e10 + 0.25, (65, -3, 127), -2024, 0xF0E1D2C3B4A59687
    data = struct.pack("<ifd3bxh2xQ", a, scale, offset, *tag, s, mask)
    assert len(data) == 32
    c.struct(8, data)
    r = Rng(308)
    vin = [r.f32_unit(-1000, 1000) for _ in range(3 * n)]
    c.buffer("in", "f32", vin)
    c.buffer("out", "f32", count=3 * n, output=True)
    c.buffer("dout", "f64", count=n, output=True)
    c.buffer("mout", "u64", count=n, output=True)
    c.buffer("iout", "s32", count=n, output=True)
    c.scalar("s32", n)
    sb = fp.f32_bits(scale)
    c.expect("out", "f32", [fp.mul(v, sb) for v in vin])
    c.expect("dout", "f64", [fp.add(fp.f64_bits(offset), fp.f64_bits(float(i)), fp.F64) for i in range(n)])
    c.expect("mout", "u64", [mask >> (i & 63) for i in range(n)])
    c.expect("iout", "s32", [a + sum(tag) + s + i for i in range(n)])
    return c
