"""Element-wise maps, grid-stride loops, 2D/3D grids and blocks, vector types."""
from .common import Case, Rng, case, wrap
from . import fp
from .fp import F32, F64


@case
def vec_add_f32():
    c = Case("vec_add_f32", "element-wise f32 add, bounds check in a partial last block")
    c.source = r"""
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
"""
    c.kernel = "vec_add"
    n = 1000
    c.grid, c.block = (8, 1, 1), (128, 1, 1)
    r = Rng(1)
    a = [r.f32_unit(-100, 100) for _ in range(n)]
    b = [r.f32_unit(-100, 100) for _ in range(n)]
    c.buffer("a", "f32", a)
    c.buffer("b", "f32", b)
    c.buffer("c", "f32", count=n, output=True)
    c.scalar("s32", n)
    c.expect("c", "f32", [fp.add(x, y) for x, y in zip(a, b)])
    return c


@case
def saxpy_restrict_fma():
    c = Case("saxpy_restrict_fma", "y = a*x + y in place: a contracted fma.rn.f32, __restrict__ loads "
             "(ld.global.nc), an f32 scalar parameter")
    c.source = r"""
extern "C" __global__ void saxpy(float a, const float *__restrict__ x, float *__restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];   // NVRTC contracts this to fma.rn.f32 (--fmad=true)
}
"""
    c.kernel = "saxpy"
    n = 777
    c.grid, c.block = (4, 1, 1), (256, 1, 1)
    r = Rng(2)
    a = fp.f32_bits(1.7182818)
    x = [r.f32_unit(-10, 10) for _ in range(n)]
    y = [r.f32_unit(-10, 10) for _ in range(n)]
    c.scalar("f32", a)
    c.buffer("x", "f32", x)
    c.buffer("y", "f32", y, output=True)
    c.scalar("s32", n)
    c.expect("y", "f32", [fp.fma(a, xi, yi) for xi, yi in zip(x, y)])
    return c


@case
def grid_stride_loop():
    c = Case("grid_stride_loop", "grid-stride loop with a 64-bit (size_t) index over more elements "
             "than threads; u64 scalar parameter")
    c.source = r"""
extern "C" __global__ void grid_stride(const unsigned *in, unsigned *out, size_t n, unsigned k)
{
    #pragma unroll 1
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)blockDim.x * gridDim.x) {
        unsigned v = in[i];
        out[i] = (v * k + (unsigned)i) ^ (v >> 3);
    }
}
"""
    c.kernel = "grid_stride"
    n, k = 2500, 2654435761
    c.grid, c.block = (3, 1, 1), (64, 1, 1)
    r = Rng(3)
    x = [r.u32() for _ in range(n)]
    c.buffer("in", "u32", x)
    c.buffer("out", "u32", count=n, output=True)
    c.scalar("u64", n)
    c.scalar("u32", k)
    c.expect("out", "u32", [((v * k + i) & 0xFFFFFFFF) ^ (v >> 3) for i, v in enumerate(x)])
    return c


@case
def small_int_types():
    c = Case("small_int_types", "8- and 16-bit loads and stores, sign and zero extension, wrapping "
             "narrowing conversions")
    c.source = r"""
extern "C" __global__ void small_ints(const signed char *a, const unsigned char *b, const short *c,
                                      const unsigned short *d, short *o1, unsigned char *o2, int *o3,
                                      unsigned short *o4, signed char *o5, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    o1[i] = (short)(a[i] * b[i]);
    o2[i] = (unsigned char)(b[i] + a[i]);
    o3[i] = c[i] * (int)(d[i] >> 2) + a[i];
    o4[i] = (unsigned short)((d[i] >> (b[i] & 7)) | ((unsigned)c[i] << 4));
    o5[i] = (signed char)(c[i] >> 3);
}
"""
    c.kernel = "small_ints"
    n = 300
    c.grid, c.block = (3, 1, 1), (128, 1, 1)
    r = Rng(4)
    a = [wrap(r.u32(), "s8") for _ in range(n)]
    b = [r.u32() & 0xFF for _ in range(n)]
    cc = [wrap(r.u32(), "s16") for _ in range(n)]
    d = [r.u32() & 0xFFFF for _ in range(n)]
    for nm, dt, v in (("a", "s8", a), ("b", "u8", b), ("c", "s16", cc), ("d", "u16", d)):
        c.buffer(nm, dt, v)
    c.buffer("o1", "s16", count=n, output=True)
    c.buffer("o2", "u8", count=n, output=True)
    c.buffer("o3", "s32", count=n, output=True)
    c.buffer("o4", "u16", count=n, output=True)
    c.buffer("o5", "s8", count=n, output=True)
    c.scalar("s32", n)
    c.expect("o1", "s16", [wrap(a[i] * b[i], "s16") for i in range(n)])
    c.expect("o2", "u8", [wrap(b[i] + a[i], "u8") for i in range(n)])
    c.expect("o3", "s32", [wrap(cc[i] * (d[i] >> 2) + a[i], "s32") for i in range(n)])
    c.expect("o4", "u16", [wrap((d[i] >> (b[i] & 7)) | ((cc[i] & 0xFFFFFFFF) << 4), "u16") for i in range(n)])
    c.expect("o5", "s8", [wrap(cc[i] >> 3, "s8") for i in range(n)])
    return c


@case
def vector_types():
    c = Case("vector_types", "float4 / int2 / double2 vector loads and stores (ld.v4, ld.v2, st.v4)")
    c.source = r"""
extern "C" __global__ void vec_types(const float4 *a, const int2 *b, const double2 *c,
                                     float4 *oa, int2 *ob, double *oc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 v = a[i];
    oa[i] = make_float4(v.w, v.z + v.x, v.y * 2.0f, -v.x);
    int2 w = b[i];
    ob[i] = make_int2(w.x + w.y, w.x - w.y);
    double2 d = c[i];
    oc[i] = d.x + d.y;
}
"""
    c.kernel = "vec_types"
    n = 200
    c.grid, c.block = (2, 1, 1), (128, 1, 1)
    r = Rng(5)
    a = [r.f32_exp_range(-20, 20) for _ in range(4 * n)]
    b = [r.s32() for _ in range(2 * n)]
    d = [r.f64_exp_range(-30, 30) for _ in range(2 * n)]
    c.buffer("a", "f32", a)
    c.buffer("b", "s32", b)
    c.buffer("c", "f64", d)
    c.buffer("oa", "f32", count=4 * n, output=True)
    c.buffer("ob", "s32", count=2 * n, output=True)
    c.buffer("oc", "f64", count=n, output=True)
    c.scalar("s32", n)
    two = fp.f32_bits(2.0)
    oa, ob, oc = [], [], []
    for i in range(n):
        x, y, z, w = a[4 * i:4 * i + 4]
        oa += [w, fp.add(z, x), fp.mul(y, two), x ^ 0x80000000]
        ob += [wrap(b[2 * i] + b[2 * i + 1], "s32"), wrap(b[2 * i] - b[2 * i + 1], "s32")]
        oc.append(fp.add(d[2 * i], d[2 * i + 1], F64))
    c.expect("oa", "f32", oa)
    c.expect("ob", "s32", ob)
    c.expect("oc", "f64", oc)
    return c


@case
def map_2d_grid():
    c = Case("map_2d_grid", "2D grid of 2D blocks over an image whose size is not a multiple of the "
             "block (partial blocks in x and y)")
    c.source = r"""
extern "C" __global__ void map2d(const int *in, int *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        int v = in[y * w + x];
        out[y * w + x] = v * 2 + x - 3 * y;
    }
}
"""
    c.kernel = "map2d"
    w, h = 70, 20
    c.grid, c.block = (5, 3, 1), (16, 8, 1)
    r = Rng(6)
    x = [r.range(-100000, 100000) for _ in range(w * h)]
    c.buffer("in", "s32", x)
    c.buffer("out", "s32", count=w * h, output=True)
    c.scalar("s32", w)
    c.scalar("s32", h)
    c.expect("out", "s32", [x[yy * w + xx] * 2 + xx - 3 * yy for yy in range(h) for xx in range(w)])
    return c


@case
def ids_3d():
    c = Case("ids_3d", "3D grid of 3D blocks: every special register (%tid, %ntid, %ctaid, %nctaid, "
             "%laneid, WARP_SZ) in all three dimensions, a partial last warp per block")
    c.source = r"""
extern "C" __global__ void ids3d(unsigned *out)
{
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    unsigned tlin = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned blin = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
    unsigned g = blin * nthreads + tlin;
    out[g * 4 + 0] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16 | lane << 24;
    out[g * 4 + 1] = blockIdx.x | blockIdx.y << 8 | blockIdx.z << 16;
    out[g * 4 + 2] = blockDim.x | blockDim.y << 8 | blockDim.z << 16;
    out[g * 4 + 3] = gridDim.x | gridDim.y << 8 | gridDim.z << 16 | (tlin / warpSize) << 24;
}
"""
    c.kernel = "ids3d"
    G, B = (2, 3, 2), (4, 3, 5)
    c.grid, c.block = G, B
    nt = B[0] * B[1] * B[2]
    nb = G[0] * G[1] * G[2]
    c.buffer("out", "u32", count=4 * nt * nb, output=True)
    out = [0] * (4 * nt * nb)
    for bz in range(G[2]):
        for by in range(G[1]):
            for bx in range(G[0]):
                blin = bx + G[0] * (by + G[1] * bz)
                for tz in range(B[2]):
                    for ty in range(B[1]):
                        for tx in range(B[0]):
                            tlin = tx + B[0] * (ty + B[1] * tz)
                            g = blin * nt + tlin
                            out[4 * g] = tx | ty << 8 | tz << 16 | (tlin % 32) << 24
                            out[4 * g + 1] = bx | by << 8 | bz << 16
                            out[4 * g + 2] = B[0] | B[1] << 8 | B[2] << 16
                            out[4 * g + 3] = G[0] | G[1] << 8 | G[2] << 16 | (tlin // 32) << 24
    c.expect("out", "u32", out)
    return c


@case
def templated_kernels():
    c = Case("templated_kernels", "a C++ template kernel instantiated twice (mangled entry names, two "
             "entries in one module); the manifest runs the int instantiation")
    c.source = r"""
template <typename T>
__global__ void axpb(const T *x, T *y, T a, T b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + b;
}

template __global__ void axpb<int>(const int *, int *, int, int, int);
template __global__ void axpb<float>(const float *, float *, float, float, int);
"""
    c.kernel = "_Z4axpbIiEvPKT_PS0_S0_S0_i"
    n = 100
    c.grid, c.block = (1, 1, 1), (128, 1, 1)
    r = Rng(7)
    x = [r.s32() for _ in range(n)]
    a, b = -7, 123456789
    c.buffer("x", "s32", x)
    c.buffer("y", "s32", count=n, output=True)
    c.scalar("s32", a)
    c.scalar("s32", b)
    c.scalar("s32", n)
    c.expect("y", "s32", [wrap(a * v + b, "s32") for v in x])
    return c
