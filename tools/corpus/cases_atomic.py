"""Atomics on global and shared memory: every 32-bit operation, CAS loops, 64-bit
atomics. Every expected value is independent of the order the atomics land in."""
from .common import Case, Rng, case, wrap
from . import fp

M32 = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF


def atomic_inc(old, val):
    return 0 if old >= val else old + 1


def atomic_dec(old, val):
    return val if old == 0 or old > val else old - 1


@case
def atomics_global_32():
    c = Case("atomics_global_32", "32-bit global atomics from 1200 threads: atomicAdd/Sub/Min/Max (signed "
             "and unsigned)/And/Or/Xor/Inc/Dec, float atomicAdd on integer values, atomicExch and "
             "atomicCAS on per-thread slots, a ticket counter whose returned values index a histogram")
    c.source = r"""
extern "C" __global__ void atomics32(const int *x, int *acc, unsigned *uacc, float *fsum,
                                     unsigned *tickets, unsigned *own, unsigned *olds, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = x[i];
    unsigned u = (unsigned)v;
    atomicAdd(&acc[0], v);
    atomicSub(&acc[1], v);
    atomicMin(&acc[2], v);
    atomicMax(&acc[3], v);
    atomicAnd(&acc[4], v | (1 << (i & 31)));
    atomicOr(&acc[5], v & 0x0f0f0f0f);
    atomicXor(&acc[6], v);
    atomicMin(&uacc[0], u);
    atomicMax(&uacc[1], u);
    atomicInc(&uacc[2], 1000u);
    atomicDec(&uacc[3], 777u);
    atomicAdd(&fsum[i & 1], (float)(v & 1023));
    unsigned t = atomicAdd(&uacc[4], 1u);
    atomicAdd(&tickets[t % 64], 1u);
    olds[2 * i] = atomicExch(&own[i], u);
    olds[2 * i + 1] = atomicCAS(&own[i], u, u ^ 0xffffu);
}
"""
    c.kernel = "atomics32"
    n = 1200
    c.grid, c.block = ((n + 255) // 256, 1, 1), (256, 1, 1)
    r = Rng(601)
    x = [r.s32() for _ in range(n)]
    acc0 = [0, 0, 0x7FFFFFFF, -0x80000000, -1, 0, 0x5A5A5A5A]
    uacc0 = [0xFFFFFFFF, 0, 0, 5, 0]
    own0 = [r.u32() for _ in range(n)]
    c.buffer("x", "s32", x)
    c.buffer("acc", "s32", acc0, output=True)
    c.buffer("uacc", "u32", uacc0, output=True)
    c.buffer("fsum", "f32", init=[0, 0], output=True)
    c.buffer("tickets", "u32", count=64, output=True)
    c.buffer("own", "u32", own0, output=True)
    c.buffer("olds", "u32", count=2 * n, output=True)
    c.scalar("s32", n)
    acc = list(acc0)
    uacc = list(uacc0)
    fs = [0, 0]
    for i, v in enumerate(x):
        u = v & M32
        acc[0] = wrap(acc[0] + v, "s32")
        acc[1] = wrap(acc[1] - v, "s32")
        acc[2] = min(acc[2], v)
        acc[3] = max(acc[3], v)
        acc[4] = wrap(acc[4] & (v | wrap(1 << (i & 31), "s32")), "s32")
        acc[5] = acc[5] | (v & 0x0F0F0F0F)
        acc[6] = wrap(acc[6] ^ v, "s32")
        uacc[0] = min(uacc[0], u)
        uacc[1] = max(uacc[1], u)
        uacc[2] = atomic_inc(uacc[2], 1000)
        uacc[3] = atomic_dec(uacc[3], 777)
        fs[i & 1] += v & 1023
    uacc[4] = n
    tickets = [0] * 64
    for t in range(n):
        tickets[t % 64] += 1
    olds = []
    for i in range(n):
        olds += [own0[i], x[i] & M32]
    c.expect("acc", "s32", acc)
    c.expect("uacc", "u32", uacc)
    c.expect("fsum", "f32", [fp.f32_bits(float(v)) for v in fs])
    c.expect("tickets", "u32", tickets)
    c.expect("own", "u32", [(v & M32) ^ 0xFFFF for v in x])
    c.expect("olds", "u32", olds)
    return c


@case
def atomic_cas_loops():
    c = Case("atomic_cas_loops", "lock-free read-modify-write through atomicCAS loops: a float max, a "
             "saturating unsigned add, and a double add through 64-bit atomicCAS (integer-valued, so "
             "exact in any order)")
    c.source = r"""
__device__ float atomic_max_float(float *addr, float val)
{
    int *ia = (int *)addr;
    int old = *ia, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= val)
            break;
        old = atomicCAS(ia, assumed, __float_as_int(val));
    } while (assumed != old);
    return __int_as_float(old);
}

__device__ unsigned atomic_sat_add(unsigned *addr, unsigned val, unsigned cap)
{
    unsigned old = *addr, assumed;
    do {
        assumed = old;
        unsigned sum = assumed + val;
        unsigned nv = (sum > cap || sum < assumed) ? cap : sum;
        old = atomicCAS(addr, assumed, nv);
    } while (assumed != old);
    return old;
}

__device__ double atomic_add_double(double *addr, double val)
{
    unsigned long long *ua = (unsigned long long *)addr;
    unsigned long long old = *ua, assumed;
    do {
        assumed = old;
        old = atomicCAS(ua, assumed, __double_as_longlong(__longlong_as_double(assumed) + val));
    } while (assumed != old);
    return __longlong_as_double(old);
}

extern "C" __global__ void cas_loops(const float *x, const unsigned *u, float *fmax, unsigned *sat,
                                     double *dsum, unsigned cap, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    atomic_max_float(&fmax[i % 4], x[i]);
    atomic_sat_add(&sat[i % 2], u[i], cap);
    atomic_add_double(&dsum[i % 3], (double)(int)(u[i] % 100000u) - 50000.0);
}
"""
    c.kernel = "cas_loops"
    n = 600
    c.grid, c.block = ((n + 127) // 128, 1, 1), (128, 1, 1)
    r = Rng(602)
    x = [r.f32_unit(-1000, 1000) | 1 for _ in range(n)]  # never zero
    u = [r.u32() >> 12 for _ in range(n)]
    cap = 90000000
    c.buffer("x", "f32", x)
    c.buffer("u", "u32", u)
    c.buffer("fmax", "f32", [0xFF800000] * 4, output=True)
    c.buffer("sat", "u32", [0, 0], output=True)
    c.buffer("dsum", "f64", count=3, output=True)
    c.scalar("u32", cap)
    c.scalar("s32", n)
    fmax = []
    for s in range(4):
        best = None
        for i in range(s, n, 4):
            if best is None or fp.to_key(x[i]) > fp.to_key(best):
                best = x[i]
        fmax.append(best)
    sat = [min(cap, sum(u[s::2])) for s in range(2)]
    assert sat[0] == cap and sat[1] == cap or True
    dsum = [sum((u[i] % 100000) - 50000 for i in range(s, n, 3)) for s in range(3)]
    c.expect("fmax", "f32", fmax)
    c.expect("sat", "u32", sat)
    c.expect("dsum", "f64", [fp.f64_bits(float(v)) for v in dsum])
    return c


@case
def atomics_64bit():
    c = Case("atomics_64bit", "64-bit global atomics: atomicAdd (u64, wrapping), atomicMin/Max on "
             "long long and unsigned long long, atomicAnd/Or/Xor, a 64-bit ticket counter, atomicExch "
             "and atomicCAS on per-thread slots")
    c.source = r"""
extern "C" __global__ void atomics64(const long long *x, unsigned long long *u, long long *s,
                                     unsigned long long *slots, unsigned long long *own,
                                     unsigned long long *olds, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long v = x[i];
    unsigned long long uv = (unsigned long long)v;
    atomicAdd(&u[0], uv);
    atomicMin(&s[0], v);
    atomicMax(&s[1], v);
    atomicMin(&u[1], uv);
    atomicMax(&u[2], uv);
    atomicAnd(&u[3], uv | (1ull << (i & 63)));
    atomicOr(&u[4], uv & 0x00ff00ff00ff00ffull);
    atomicXor(&u[5], uv);
    unsigned long long t = atomicAdd(&u[6], 1ull);
    atomicAdd(&slots[t % 32], t);
    olds[2 * i] = atomicExch(&own[i], uv);
    olds[2 * i + 1] = atomicCAS(&own[i], uv, uv ^ 0xffff0000ffffull);
}
"""
    c.kernel = "atomics64"
    n = 500
    c.grid, c.block = ((n + 127) // 128, 1, 1), (128, 1, 1)
    r = Rng(603)
    x = [r.s64() for _ in range(n)]
    u0 = [0x0123456789ABCDEF, M64, 0, M64, 0, 0x5555AAAA5555AAAA, 0]
    s0 = [(1 << 63) - 1, -(1 << 63)]
    own0 = [r.u64() for _ in range(n)]
    c.buffer("x", "s64", x)
    c.buffer("u", "u64", u0, output=True)
    c.buffer("s", "s64", s0, output=True)
    c.buffer("slots", "u64", count=32, output=True)
    c.buffer("own", "u64", own0, output=True)
    c.buffer("olds", "u64", count=2 * n, output=True)
    c.scalar("s32", n)
    u = list(u0)
    s = list(s0)
    for i, v in enumerate(x):
        uv = v & M64
        u[0] = (u[0] + uv) & M64
        s[0] = min(s[0], v)
        s[1] = max(s[1], v)
        u[1] = min(u[1], uv)
        u[2] = max(u[2], uv)
        u[3] &= uv | (1 << (i & 63))
        u[4] |= uv & 0x00FF00FF00FF00FF
        u[5] ^= uv
    u[6] = n
    slots = [0] * 32
    for t in range(n):
        slots[t % 32] += t
    olds = []
    for i in range(n):
        olds += [own0[i], x[i] & M64]
    c.expect("u", "u64", u)
    c.expect("s", "s64", s)
    c.expect("slots", "u64", slots)
    c.expect("own", "u64", [(v & M64) ^ 0xFFFF0000FFFF for v in x])
    c.expect("olds", "u64", olds)
    return c


@case
def atomics_shared():
    c = Case("atomics_shared", "shared-memory atomics: a per-block histogram with atomicAdd, "
             "atomicMax/Min/Or, a CAS-loop maximum, float and 64-bit atomicAdd on shared, then "
             "global atomicAdd of the block histograms")
    c.source = r"""
extern "C" __global__ void shared_atomics(const unsigned *x, unsigned *blk, unsigned *ghist,
                                          float *fout, unsigned long long *sum64, int n)
{
    __shared__ unsigned hist[32];
    __shared__ unsigned mx, mn, orv, casmax;
    __shared__ float fs;
    __shared__ unsigned long long s64;
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t < 32)
        hist[t] = 0;
    if (t == 0) {
        mx = 0;
        mn = 0xffffffffu;
        orv = 0;
        casmax = 0;
        fs = 0.0f;
        s64 = 0;
    }
    __syncthreads();
    if (i < n) {
        unsigned v = x[i];
        atomicAdd(&hist[v & 31], 1u);
        atomicMax(&mx, v);
        atomicMin(&mn, v);
        atomicOr(&orv, 1u << (v % 29));
        unsigned h = v * 2654435761u;
        unsigned old = casmax, assumed;
        do {
            assumed = old;
            if (assumed >= h)
                break;
            old = atomicCAS(&casmax, assumed, h);
        } while (old != assumed);
        atomicAdd(&fs, (float)(v & 255));
        atomicAdd(&s64, (unsigned long long)v << 8);
    }
    __syncthreads();
    if (t < 32)
        atomicAdd(&ghist[t], hist[t]);
    if (t == 0) {
        unsigned *b = blk + 4 * blockIdx.x;
        b[0] = mx;
        b[1] = mn;
        b[2] = orv;
        b[3] = casmax;
        fout[blockIdx.x] = fs;
        sum64[blockIdx.x] = s64;
    }
}
"""
    c.kernel = "shared_atomics"
    n, B = 1000, 256
    G = (n + B - 1) // B
    c.grid, c.block = (G, 1, 1), (B, 1, 1)
    r = Rng(604)
    x = [r.u32() for _ in range(n)]
    c.buffer("x", "u32", x)
    c.buffer("blk", "u32", count=4 * G, output=True)
    c.buffer("ghist", "u32", count=32, output=True)
    c.buffer("fout", "f32", count=G, output=True)
    c.buffer("sum64", "u64", count=G, output=True)
    c.scalar("s32", n)
    blk, ghist, fo, s64 = [], [0] * 32, [], []
    for b in range(G):
        vs = x[b * B:min(n, (b + 1) * B)]
        orv = 0
        for v in vs:
            ghist[v & 31] += 1
            orv |= 1 << (v % 29)
        blk += [max(vs), min(vs), orv, max((v * 2654435761) & M32 for v in vs)]
        fo.append(fp.f32_bits(float(sum(v & 255 for v in vs))))
        s64.append(sum(v << 8 for v in vs) & M64)
    c.expect("blk", "u32", blk)
    c.expect("ghist", "u32", ghist)
    c.expect("fout", "f32", fo)
    c.expect("sum64", "u64", s64)
    return c


@case
def histogram_global_atomics():
    c = Case("histogram_global_atomics", "byte histogram straight into global memory with atomicAdd, "
             "u8 input read through a grid-stride loop")
    c.source = r"""
extern "C" __global__ void histogram(const unsigned char *data, unsigned *bins, int n)
{
    #pragma unroll 1
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[data[i] >> 2], 1u);
}
"""
    c.kernel = "histogram"
    n = 4000
    c.grid, c.block = (4, 1, 1), (192, 1, 1)
    r = Rng(605)
    data = [min(255, (r.u32() & 0xFF) * (r.u32() & 0xFF) >> 7) for _ in range(n)]
    c.buffer("data", "u8", data)
    c.buffer("bins", "u32", count=64, output=True)
    c.scalar("s32", n)
    bins = [0] * 64
    for v in data:
        bins[v >> 2] += 1
    c.expect("bins", "u32", bins)
    return c
