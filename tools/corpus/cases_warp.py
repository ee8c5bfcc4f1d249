"""Warp-level primitives: shuffles and votes, full and partial masks, partial warps."""
from .common import Case, Rng, case, wrap
from . import fp


@case
def warp_shuffle_reduce():
    c = Case("warp_shuffle_reduce", "full-warp shuffles: __shfl_down_sync f32 tree reduction, "
             "__shfl_xor_sync butterfly, __shfl_up_sync scan, __shfl_sync with width 8 and per-lane "
             "source lanes")
    c.source = r"""
extern "C" __global__ void warp_shuffles(const float *x, const int *y, float *wsum, int *xsum, int *scan,
                                         int *bcast, int *rot)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = i >> 5;
    float v = x[i];
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
        wsum[warp] = v;
    int s = y[i];
    #pragma unroll
    for (int m = 1; m < 32; m <<= 1)
        s += __shfl_xor_sync(0xffffffffu, s, m);
    xsum[i] = s;
    int p = y[i];
    #pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        int o = __shfl_up_sync(0xffffffffu, p, off);
        if (lane >= off)
            p += o;
    }
    scan[i] = p;
    bcast[i] = __shfl_sync(0xffffffffu, y[i], 3, 8);
    rot[i] = __shfl_sync(0xffffffffu, y[i], (lane * 5 + 7) & 31);
}
"""
    c.kernel = "warp_shuffles"
    G, B = 2, 96
    n = G * B
    nw = n // 32
    c.grid, c.block = (G, 1, 1), (B, 1, 1)
    r = Rng(201)
    x = [r.f32_unit(-100, 100) for _ in range(n)]
    y = [r.range(-1000000, 1000000) for _ in range(n)]
    c.buffer("x", "f32", x)
    c.buffer("y", "s32", y)
    c.buffer("wsum", "f32", count=nw, output=True)
    for nm in ("xsum", "scan", "bcast", "rot"):
        c.buffer(nm, "s32", count=n, output=True)
    wsum, xsum, scan, bcast, rot = [], [], [], [], []
    for w in range(nw):
        v = x[32 * w:32 * w + 32]
        off = 16
        while off:
            # a source lane past 31 returns the caller's own value
            v = [fp.add(v[L], v[L + off] if L + off < 32 else v[L]) for L in range(32)]
            off >>= 1
        wsum.append(v[0])
        ys = y[32 * w:32 * w + 32]
        s = list(ys)
        m = 1
        while m < 32:
            s = [s[L] + s[L ^ m] for L in range(32)]
            m <<= 1
        xsum += s
        acc = 0
        for L in range(32):
            acc += ys[L]
            scan.append(acc)
        bcast += [ys[(L & ~7) + 3] for L in range(32)]
        rot += [ys[(L * 5 + 7) & 31] for L in range(32)]
    c.expect("wsum", "f32", wsum)
    c.expect("xsum", "s32", [wrap(v, "s32") for v in xsum])
    c.expect("scan", "s32", scan)
    c.expect("bcast", "s32", bcast)
    c.expect("rot", "s32", rot)
    return c


@case
def warp_vote_partial():
    c = Case("warp_vote_partial", "__activemask in a partial last warp, __ballot_sync/__any_sync/"
             "__all_sync under nested divergent branches with masks computed by ballots")
    c.source = r"""
extern "C" __global__ void votes(const int *x, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    unsigned full = __activemask();
    int v = x[i];
    unsigned b_pos = __ballot_sync(full, v > 0);
    bool odd = v & 1;
    unsigned m_odd = __ballot_sync(full, odd);
    unsigned r_ballot, r_any, r_all, r_inner = 0xdeadbeefu;
    if (odd) {
        r_ballot = __ballot_sync(m_odd, v > 100);
        r_any = __any_sync(m_odd, v < -900);
        r_all = __all_sync(m_odd, v > -1100);
        bool big = v > 0;
        unsigned m_big = __ballot_sync(m_odd, big);
        if (big)
            r_inner = __ballot_sync(m_big, v % 3 == 0) ^ (__popc(m_big) << 24);
    } else {
        unsigned m_even = full & ~m_odd;
        r_ballot = __ballot_sync(m_even, lane < 16);
        r_any = __any_sync(m_even, v == 0);
        r_all = __all_sync(m_even, v >= -1150);
    }
    unsigned *o = out + 7 * i;
    o[0] = full;
    o[1] = b_pos;
    o[2] = m_odd;
    o[3] = r_ballot;
    o[4] = r_any;
    o[5] = r_all;
    o[6] = r_inner;
}
"""
    c.kernel = "votes"
    G, B = 2, 80
    n = G * B
    c.grid, c.block = (G, 1, 1), (B, 1, 1)
    r = Rng(202)
    x = [r.range(-1200, 1200) for _ in range(n)]
    x[5] = 0
    c.buffer("x", "s32", x)
    c.buffer("out", "u32", count=7 * n, output=True)
    out = [0] * (7 * n)
    for b in range(G):
        for w0 in range(0, B, 32):
            lanes = list(range(min(32, B - w0)))
            idx = [b * B + w0 + L for L in lanes]
            vs = [x[j] for j in idx]

            def ballot(pred, subset):
                m = 0
                for L in subset:
                    if pred(L):
                        m |= 1 << L
                return m
            full = ballot(lambda L: True, lanes)
            b_pos = ballot(lambda L: vs[L] > 0, lanes)
            odd = [L for L in lanes if vs[L] & 1]
            even = [L for L in lanes if not vs[L] & 1]
            m_odd = ballot(lambda L: True, odd)
            big = [L for L in odd if vs[L] > 0]
            m_big = ballot(lambda L: True, big)
            for L in lanes:
                v = vs[L]
                inner = 0xDEADBEEF
                if v & 1:
                    rb = ballot(lambda K: vs[K] > 100, odd)
                    ra = int(any(vs[K] < -900 for K in odd))
                    rl = int(all(vs[K] > -1100 for K in odd))
                    if v > 0:
                        inner = ballot(lambda K: vs[K] % 3 == 0, big) ^ (bin(m_big).count("1") << 24)
                else:
                    rb = ballot(lambda K: K < 16, even)
                    ra = int(any(vs[K] == 0 for K in even))
                    rl = int(all(vs[K] >= -1150 for K in even))
                j = idx[L]
                out[7 * j:7 * j + 7] = [full, b_pos, m_odd, rb, ra, rl, inner]
    c.expect("out", "u32", out)
    return c


@case
def warp_shuffle_partial():
    c = Case("warp_shuffle_partial", "shuffles with partial masks inside divergent branches and in a "
             "partial warp: __shfl_xor_sync, __shfl_sync with data-dependent source lanes, a guarded "
             "__shfl_down_sync reduction over only the existing lanes")
    c.source = r"""
extern "C" __global__ void shfl_partial(const int *x, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = x[i];
    unsigned all = __activemask();
    int cnt = __popc(all);
    // reduction over the existing lanes of a (possibly partial) warp
    int s = v;
    #pragma unroll 1
    for (int off = 16; off > 0; off >>= 1) {
        int o = __shfl_down_sync(all, s, off);
        if (lane + off < cnt)
            s += o;
    }
    s = __shfl_sync(all, s, 0);
    unsigned lo = __ballot_sync(all, lane < 20);
    unsigned hi = all & ~lo;
    int r0, r1;
    if (lane < 20) {
        r0 = __shfl_xor_sync(lo, v, 1);
        r1 = __shfl_sync(lo, v, (lane + 3) % 20);
    } else {
        int top = 31 - __clz(hi);
        r0 = __shfl_sync(hi, v, top);
        r1 = __shfl_sync(hi, v * 2, 20 + (v & 3) % (cnt - 20));
    }
    out[3 * i] = s;
    out[3 * i + 1] = r0;
    out[3 * i + 2] = r1;
}
"""
    c.kernel = "shfl_partial"
    G, B = 2, 56
    n = G * B
    c.grid, c.block = (G, 1, 1), (B, 1, 1)
    r = Rng(203)
    x = [r.range(0, 1000000) for _ in range(n)]
    c.buffer("x", "s32", x)
    c.buffer("out", "s32", count=3 * n, output=True)
    out = [0] * (3 * n)
    for b in range(G):
        for w0 in range(0, B, 32):
            cnt = min(32, B - w0)
            vs = [x[b * B + w0 + L] for L in range(cnt)]
            total = sum(vs)
            for L in range(cnt):
                v = vs[L]
                if L < 20:
                    r0 = vs[L ^ 1]
                    r1 = vs[(L + 3) % 20]
                else:
                    r0 = vs[cnt - 1]
                    r1 = 2 * vs[20 + (v & 3) % (cnt - 20)]
                j = b * B + w0 + L
                out[3 * j:3 * j + 3] = [wrap(total, "s32"), r0, r1]
    c.expect("out", "s32", out)
    return c


@case
def warp_sync_shared():
    c = Case("warp_sync_shared", "warp-synchronous shared-memory reduction ordered by __syncwarp "
             "(bar.warp.sync), and shuffles of 64-bit doubles")
    c.source = r"""
extern "C" __global__ void warp_sync_shared(const int *x, const double *d, int *wsum, double *dout)
{
    __shared__ int buf[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int lane = t & 31;
    buf[t] = x[i];
    __syncwarp();
    #pragma unroll 1
    for (int off = 16; off > 0; off >>= 1) {
        int v = lane < off ? buf[t + off] : 0;
        __syncwarp();
        if (lane < off)
            buf[t] += v;
        __syncwarp();
    }
    if (lane == 0)
        wsum[i >> 5] = buf[t];
    double v = d[i];
    double b = __shfl_sync(0xffffffffu, v, (lane + 1) & 31);
    double s = __shfl_xor_sync(0xffffffffu, v, 16);
    dout[2 * i] = b;
    dout[2 * i + 1] = s + v;
}
"""
    c.kernel = "warp_sync_shared"
    G, B = 2, 128
    n = G * B
    c.grid, c.block = (G, 1, 1), (B, 1, 1)
    r = Rng(204)
    x = [r.range(-1000000, 1000000) for _ in range(n)]
    d = [r.f64_exp_range(-40, 40) for _ in range(n)]
    c.buffer("x", "s32", x)
    c.buffer("d", "f64", d)
    c.buffer("wsum", "s32", count=n // 32, output=True)
    c.buffer("dout", "f64", count=2 * n, output=True)
    c.expect("wsum", "s32", [sum(x[32 * w:32 * w + 32]) for w in range(n // 32)])
    dout = []
    for i in range(n):
        base, lane = i - (i & 31), i & 31
        dout += [d[base + ((lane + 1) & 31)], fp.add(d[base + (lane ^ 16)], d[i], fp.F64)]
    c.expect("dout", "f64", dout)
    return c
