"""Shared memory and barriers: tiling, reductions, scans, sorting, constant and
dynamic shared memory."""
from .common import Case, Rng, case, wrap
from . import fp
from .fp import F32


@case
def transpose_tiled():
    c = Case("transpose_tiled", "32x33 padded shared-memory tile transpose, 2D blocks of 32x8 looping over "
             "rows, partial tiles on both edges, __syncthreads")
    c.source = r"""
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose(const unsigned *in, unsigned *out, int w, int h)
{
    __shared__ unsigned tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    #pragma unroll 1
    for (int j = 0; j < TILE; j += ROWS)
        if (x < w && y + j < h)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    #pragma unroll 1
    for (int j = 0; j < TILE; j += ROWS)
        if (x < h && y + j < w)
            out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
"""
    c.kernel = "transpose"
    w, h = 70, 45
    c.grid, c.block = (3, 2, 1), (32, 8, 1)
    r = Rng(101)
    m = [r.u32() for _ in range(w * h)]
    c.buffer("in", "u32", m)
    c.buffer("out", "u32", count=w * h, output=True)
    c.scalar("s32", w)
    c.scalar("s32", h)
    c.expect("out", "u32", [m[y * w + x] for x in range(w) for y in range(h)])
    return c


@case
def matmul_tiled_f32():
    c = Case("matmul_tiled_f32", "16x16 shared-memory tiled f32 matrix multiply (explicit fmaf chain), "
             "sizes not multiples of the tile, two barriers per tile")
    c.source = r"""
#define T 16

extern "C" __global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int row = blockIdx.y * T + threadIdx.y;
    int col = blockIdx.x * T + threadIdx.x;
    float acc = 0.0f;
    #pragma unroll 1
    for (int t = 0; t < (K + T - 1) / T; ++t) {
        int ka = t * T + threadIdx.x;
        int kb = t * T + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < T; ++k)
            acc = fmaf(As[threadIdx.y][k], Bs[k][threadIdx.x], acc);
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
"""
    c.kernel = "matmul"
    M, N, K, T = 40, 36, 50, 16
    c.grid, c.block = ((N + T - 1) // T, (M + T - 1) // T, 1), (T, T, 1)
    r = Rng(102)
    A = [r.f32_unit(-2, 2) for _ in range(M * K)]
    B = [r.f32_unit(-2, 2) for _ in range(K * N)]
    c.buffer("A", "f32", A)
    c.buffer("B", "f32", B)
    c.buffer("C", "f32", count=M * N, output=True)
    for v in (M, N, K):
        c.scalar("s32", v)
    out = []
    tiles = (K + T - 1) // T
    for row in range(M):
        for col in range(N):
            acc = 0
            for kk in range(tiles * T):
                a = A[row * K + kk] if kk < K else 0
                b = B[kk * N + col] if kk < K else 0
                acc = fp.fma(a, b, acc)
            out.append(acc)
    c.expect("C", "f32", out)
    return c


@case
def stencil_2d_shared():
    c = Case("stencil_2d_shared", "5-point stencil on a 2D grid of 16x16 blocks, halo tile loaded "
             "cooperatively into 2D shared memory with clamped borders")
    c.source = r"""
#define B 16

extern "C" __global__ void stencil5(const int *in, int *out, int w, int h)
{
    __shared__ int tile[B + 2][B + 2];
    int gx = blockIdx.x * B + threadIdx.x;
    int gy = blockIdx.y * B + threadIdx.y;
    #pragma unroll 1
    for (int t = threadIdx.y * B + threadIdx.x; t < (B + 2) * (B + 2); t += B * B) {
        int ty = t / (B + 2), tx = t % (B + 2);
        int sx = min(max((int)(blockIdx.x * B) + tx - 1, 0), w - 1);
        int sy = min(max((int)(blockIdx.y * B) + ty - 1, 0), h - 1);
        tile[ty][tx] = in[sy * w + sx];
    }
    __syncthreads();
    if (gx < w && gy < h) {
        int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
        out[gy * w + gx] = 4 * tile[ty][tx] - tile[ty - 1][tx] - tile[ty + 1][tx]
                           - tile[ty][tx - 1] - tile[ty][tx + 1];
    }
}
"""
    c.kernel = "stencil5"
    w, h = 50, 37
    c.grid, c.block = (4, 3, 1), (16, 16, 1)
    r = Rng(103)
    m = [r.range(-50000, 50000) for _ in range(w * h)]
    c.buffer("in", "s32", m)
    c.buffer("out", "s32", count=w * h, output=True)
    c.scalar("s32", w)
    c.scalar("s32", h)

    def at(x, y):
        return m[min(max(y, 0), h - 1) * w + min(max(x, 0), w - 1)]
    c.expect("out", "s32", [4 * at(x, y) - at(x, y - 1) - at(x, y + 1) - at(x - 1, y) - at(x + 1, y)
                            for y in range(h) for x in range(w)])
    return c


@case
def reduce_tree():
    c = Case("reduce_tree", "block tree reduction in shared memory (f32 and s32) with a barrier per "
             "level; per-block partial sums; __launch_bounds__ (.maxntid, .minnctapersm)")
    c.source = r"""
#define BS 256

extern "C" __global__ void __launch_bounds__(256, 2)
reduce_tree(const float *x, const int *y, float *fsum, int *isum, int n)
{
    __shared__ float sf[BS];
    __shared__ int si[BS];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * BS + t;
    sf[t] = i < n ? x[i] : 0.0f;
    si[t] = i < n ? y[i] : 0;
    __syncthreads();
    #pragma unroll 1
    for (unsigned s = BS / 2; s > 0; s >>= 1) {
        if (t < s) {
            sf[t] += sf[t + s];
            si[t] += si[t + s];
        }
        __syncthreads();
    }
    if (t == 0) {
        fsum[blockIdx.x] = sf[0];
        isum[blockIdx.x] = si[0];
    }
}
"""
    c.kernel = "reduce_tree"
    n, BS = 2000, 256
    nb = (n + BS - 1) // BS
    c.grid, c.block = (nb, 1, 1), (BS, 1, 1)
    r = Rng(104)
    x = [r.f32_unit(-1000, 1000) for _ in range(n)]
    y = [r.s32() for _ in range(n)]
    c.buffer("x", "f32", x)
    c.buffer("y", "s32", y)
    c.buffer("fsum", "f32", count=nb, output=True)
    c.buffer("isum", "s32", count=nb, output=True)
    c.scalar("s32", n)
    fs, is_ = [], []
    for b in range(nb):
        sf = [x[b * BS + t] if b * BS + t < n else 0 for t in range(BS)]
        si = [y[b * BS + t] if b * BS + t < n else 0 for t in range(BS)]
        s = BS // 2
        while s > 0:
            for t in range(s):
                sf[t] = fp.add(sf[t], sf[t + s])
                si[t] = wrap(si[t] + si[t + s], "s32")
            s >>= 1
        fs.append(sf[0])
        is_.append(si[0])
    c.expect("fsum", "f32", fs)
    c.expect("isum", "s32", is_)
    return c


@case
def reduce_last_block():
    c = Case("reduce_last_block", "grid-wide reduction in one launch: __threadfence, an atomicInc ticket "
             "on a module-scope __device__ counter, volatile reads; the last block finishes")
    c.source = r"""
#define BS 128

__device__ unsigned int retirement_count = 0;

extern "C" __global__ void reduce_last_block(const unsigned *x, unsigned *partial,
                                             unsigned long long *total, int n)
{
    __shared__ unsigned s[BS];
    __shared__ bool is_last;
    unsigned t = threadIdx.x;
    unsigned sum = 0;
    #pragma unroll 1
    for (unsigned i = blockIdx.x * BS + t; i < n; i += BS * gridDim.x)
        sum += x[i];
    s[t] = sum;
    __syncthreads();
    #pragma unroll 1
    for (unsigned st = BS / 2; st > 0; st >>= 1) {
        if (t < st)
            s[t] += s[t + st];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicInc(&retirement_count, gridDim.x - 1);
        is_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (is_last && t == 0) {
        const volatile unsigned *p = partial;
        unsigned long long acc = 0;
        #pragma unroll 1
        for (unsigned b = 0; b < gridDim.x; ++b)
            acc += p[b];
        total[0] = acc;
        total[1] = retirement_count;  // atomicInc wrapped it back to 0
    }
}
"""
    c.kernel = "reduce_last_block"
    n, BS, G = 3000, 128, 10
    c.grid, c.block = (G, 1, 1), (BS, 1, 1)
    r = Rng(105)
    x = [r.u32() >> 12 for _ in range(n)]
    c.buffer("x", "u32", x)
    c.buffer("partial", "u32", count=G, output=True)
    c.buffer("total", "u64", count=2, output=True)
    c.scalar("s32", n)
    partial = [0] * G
    for i, v in enumerate(x):
        partial[(i // BS) % G] += v
    c.expect("partial", "u32", partial)
    c.expect("total", "u64", [sum(partial), 0])
    return c


@case
def barrier_reductions():
    c = Case("barrier_reductions", "__syncthreads_count/_and/_or (bar.red.popc/and/or) in blocks of 100 "
             "threads (a partial last warp)")
    c.source = r"""
extern "C" __global__ void bar_red(const int *x, int *out)
{
    int t = threadIdx.x;
    int v = x[blockIdx.x * blockDim.x + t];
    int c = __syncthreads_count(v > 0);
    int a = __syncthreads_and(v > -900) != 0;
    int o = __syncthreads_or(v == 777) != 0;
    int c2 = __syncthreads_count((v & 3) == 1);
    if (t == blockDim.x - 1) {
        int *r = out + 4 * blockIdx.x;
        r[0] = c;
        r[1] = a;
        r[2] = o;
        r[3] = c2;
    }
}
"""
    c.kernel = "bar_red"
    G, B = 3, 100
    c.grid, c.block = (G, 1, 1), (B, 1, 1)
    r = Rng(111)
    x = [r.range(-1000, 1000) for _ in range(G * B)]
    x[150] = 777
    for k in range(200, 300):
        x[k] = abs(x[k]) % 850
    c.buffer("x", "s32", x)
    c.buffer("out", "s32", count=4 * G, output=True)
    out = []
    for b in range(G):
        vs = x[b * B:(b + 1) * B]
        out += [sum(v > 0 for v in vs), int(all(v > -900 for v in vs)), int(any(v == 777 for v in vs)),
                sum((v & 3) == 1 for v in vs)]
    c.expect("out", "s32", out)
    return c


@case
def scan_hillis_steele():
    c = Case("scan_hillis_steele", "inclusive block scan (Hillis-Steele) with a double-buffered shared "
             "array, a barrier per step, per-block totals")
    c.source = r"""
#define BS 128

extern "C" __global__ void scan_hs(const unsigned *in, unsigned *out, unsigned *block_sums, int n)
{
    __shared__ unsigned buf[2][BS];
    int t = threadIdx.x;
    int i = blockIdx.x * BS + t;
    int pin = 0, pout = 1;
    buf[0][t] = i < n ? in[i] : 0;
    __syncthreads();
    #pragma unroll 1
    for (int off = 1; off < BS; off <<= 1) {
        unsigned v = buf[pin][t];
        if (t >= off)
            v += buf[pin][t - off];
        buf[pout][t] = v;
        __syncthreads();
        pin ^= 1;
        pout ^= 1;
    }
    if (i < n)
        out[i] = buf[pin][t];
    if (t == BS - 1)
        block_sums[blockIdx.x] = buf[pin][t];
}
"""
    c.kernel = "scan_hs"
    n, BS = 500, 128
    nb = (n + BS - 1) // BS
    c.grid, c.block = (nb, 1, 1), (BS, 1, 1)
    r = Rng(106)
    x = [r.u32() for _ in range(n)]
    c.buffer("in", "u32", x)
    c.buffer("out", "u32", count=n, output=True)
    c.buffer("block_sums", "u32", count=nb, output=True)
    c.scalar("s32", n)
    out, sums = [], []
    for b in range(nb):
        acc = 0
        for t in range(BS):
            i = b * BS + t
            acc = (acc + (x[i] if i < n else 0)) & 0xFFFFFFFF
            if i < n:
                out.append(acc)
        sums.append(acc)
    c.expect("out", "u32", out)
    c.expect("block_sums", "u32", sums)
    return c


@case
def scan_blelloch():
    c = Case("scan_blelloch", "work-efficient exclusive scan (Blelloch up-sweep/down-sweep), two "
             "elements per thread, barriers inside loops with shrinking active sets")
    c.source = r"""
#define N 256

extern "C" __global__ void scan_blelloch(const int *in, int *out, int n)
{
    __shared__ int s[N];
    int t = threadIdx.x;
    int base = blockIdx.x * N;
    s[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
    s[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
    int off = 1;
    #pragma unroll 1
    for (int d = N >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            s[bi] += s[ai];
        }
        off <<= 1;
    }
    if (t == 0)
        s[N - 1] = 0;
    #pragma unroll 1
    for (int d = 1; d < N; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            int tmp = s[ai];
            s[ai] = s[bi];
            s[bi] += tmp;
        }
    }
    __syncthreads();
    if (base + 2 * t < n)
        out[base + 2 * t] = s[2 * t];
    if (base + 2 * t + 1 < n)
        out[base + 2 * t + 1] = s[2 * t + 1];
}
"""
    c.kernel = "scan_blelloch"
    n, N = 700, 256
    nb = (n + N - 1) // N
    c.grid, c.block = (nb, 1, 1), (N // 2, 1, 1)
    r = Rng(107)
    x = [r.range(-100000, 100000) for _ in range(n)]
    c.buffer("in", "s32", x)
    c.buffer("out", "s32", count=n, output=True)
    c.scalar("s32", n)
    out = []
    for b in range(nb):
        acc = 0
        for i in range(b * N, min(n, (b + 1) * N)):
            out.append(acc)
            acc += x[i]
    c.expect("out", "s32", out)
    return c


@case
def bitonic_sort_shared():
    c = Case("bitonic_sort_shared", "bitonic sort of 256 keys per block in shared memory: nested loops "
             "of compare-exchange steps, divergent swaps, a barrier per step")
    c.source = r"""
#define N 256

extern "C" __global__ void bitonic(unsigned *data)
{
    __shared__ unsigned s[N];
    unsigned t = threadIdx.x;
    unsigned *d = data + blockIdx.x * N;
    s[t] = d[t];
    __syncthreads();
    #pragma unroll 1
    for (unsigned k = 2; k <= N; k <<= 1) {
        #pragma unroll 1
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            unsigned ixj = t ^ j;
            if (ixj > t) {
                unsigned a = s[t], b = s[ixj];
                bool up = (t & k) == 0;
                if ((a > b) == up) {
                    s[t] = b;
                    s[ixj] = a;
                }
            }
            __syncthreads();
        }
    }
    d[t] = s[t];
}
"""
    c.kernel = "bitonic"
    N, G = 256, 3
    c.grid, c.block = (G, 1, 1), (N, 1, 1)
    r = Rng(108)
    x = [r.u32() % 5000 for _ in range(N * G)]  # with duplicates
    c.buffer("data", "u32", x, output=True)
    out = []
    for b in range(G):
        out += sorted(x[b * N:(b + 1) * N])
    c.expect("data", "u32", out)
    return c


@case
def dynamic_shared_mem():
    c = Case("dynamic_shared_mem", "extern __shared__ buffer sized at launch (dynamic_shared_bytes), "
             "carved into an int and a float array, next to static shared memory")
    c.source = r"""
extern "C" __global__ void dyn_shared(const int *in, int *out_rev, float *out_f, int *out_s, int n)
{
    extern __shared__ unsigned char smem[];
    __shared__ int stat[4];
    int *si = (int *)smem;
    float *sf = (float *)(smem + blockDim.x * sizeof(int));
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t < 4)
        stat[t] = 1000 * (t + 1) + blockIdx.x;
    si[t] = i < n ? in[i] : -1;
    sf[t] = (float)t * 0.5f;
    __syncthreads();
    int r = blockDim.x - 1 - t;
    if (i < n) {
        out_rev[i] = si[r];
        out_f[i] = sf[r] + sf[t];
        out_s[i] = stat[t & 3] + si[t];
    }
}
"""
    c.kernel = "dyn_shared"
    n, BS, G = 260, 96, 3
    c.grid, c.block = (G, 1, 1), (BS, 1, 1)
    c.dynamic_shared_bytes = BS * 8
    r = Rng(109)
    x = [r.range(-1000000, 1000000) for _ in range(n)]
    c.buffer("in", "s32", x)
    c.buffer("out_rev", "s32", count=n, output=True)
    c.buffer("out_f", "f32", count=n, output=True)
    c.buffer("out_s", "s32", count=n, output=True)
    c.scalar("s32", n)
    rev, fo, so = [], [], []
    for i in range(n):
        b, t = divmod(i, BS)
        rr = BS - 1 - t
        j = b * BS + rr
        rev.append(x[j] if j < n else -1)
        fo.append(fp.f32_bits((rr + t) * 0.5))
        so.append(1000 * ((t & 3) + 1) + b + x[i])
    c.expect("out_rev", "s32", rev)
    c.expect("out_f", "f32", fo)
    c.expect("out_s", "s32", so)
    return c


CONV_COEFF = [0.0625, -0.125, 0.25, 0.7, 1.0, 0.7, 0.25, -0.125, 0.0625]
LUT = [0x9E3779B9 * (k + 1) & 0xFFFFFFFF for k in range(16)]


@case
def conv1d_constant_mem():
    c = Case("conv1d_constant_mem", "1D convolution: __constant__ coefficients and a __constant__ lookup "
             "table with initializers (module .const data), an initialized __device__ array (module "
             ".global data), data-dependent constant indexing, a shared tile with halo")
    # written as the shortest decimal of the binary32 value, so the C parser gets the same bits
    coeff = ", ".join(repr(fp.to_float(fp.f32_bits(v))) + "f" for v in CONV_COEFF)
    lut = ", ".join("0x%08xu" % v for v in LUT)
    c.source = r"""
#define R 4
#define BS 128

__constant__ float coeff[2 * R + 1] = {%s};
__constant__ unsigned lut[16] = {%s};
__device__ unsigned gbias[4] = {0x11111111u, 0x2222u, 0x3u, 0x40000000u};

extern "C" __global__ void conv1d(const float *x, float *y, unsigned *z, int n)
{
    __shared__ float tile[BS + 2 * R];
    int t = threadIdx.x;
    int i = blockIdx.x * BS + t;
    tile[t + R] = i < n ? x[i] : 0.0f;
    if (t < R) {
        int l = i - R;
        tile[t] = l >= 0 ? x[l] : 0.0f;
        int rr = blockIdx.x * BS + BS + t;
        tile[t + BS + R] = rr < n ? x[rr] : 0.0f;
    }
    __syncthreads();
    if (i < n) {
        float acc = 0.0f;
        #pragma unroll
        for (int k = 0; k <= 2 * R; ++k)
            acc = fmaf(coeff[k], tile[t + k], acc);
        y[i] = acc;
        z[i] = (lut[(unsigned)__float_as_int(x[i]) & 15] ^ lut[i & 15]) + gbias[i & 3];
    }
}
""" % (coeff, lut)
    c.kernel = "conv1d"
    n, BS, R = 600, 128, 4
    c.grid, c.block = ((n + BS - 1) // BS, 1, 1), (BS, 1, 1)
    r = Rng(110)
    x = [r.f32_unit(-4, 4) for _ in range(n)]
    c.buffer("x", "f32", x)
    c.buffer("y", "f32", count=n, output=True)
    c.buffer("z", "u32", count=n, output=True)
    c.scalar("s32", n)
    cb = [fp.f32_bits(v) for v in CONV_COEFF]
    y = []
    for i in range(n):
        acc = 0
        for k in range(2 * R + 1):
            j = i - R + k
            v = x[j] if 0 <= j < n else 0
            acc = fp.fma(cb[k], v, acc)
        y.append(acc)
    c.expect("y", "f32", y)
    gbias = [0x11111111, 0x2222, 0x3, 0x40000000]
    c.expect("z", "u32", [((LUT[x[i] & 15] ^ LUT[i & 15]) + gbias[i & 3]) & 0xFFFFFFFF for i in range(n)])
    return c
