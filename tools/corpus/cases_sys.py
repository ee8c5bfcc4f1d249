"""System calls: device printf (vprintf), malloc/free, assert (__assertfail)."""
from .common import Case, Rng, case, wrap

ASSERT_DECL = r"""
extern "C" __device__ void __assertfail(const char *message, const char *file, unsigned int line,
                                        const char *function, size_t charSize);
#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, sizeof(char)))
"""


@case
def printf_many_threads():
    c = Case("printf_many_threads", "device printf from 96 threads in 2 blocks and 6 warps (one line per "
             "thread, plus a second line from every 8th thread): the order between threads is not "
             "defined, so lines are compared unordered")
    c.source = r"""
extern "C" __global__ void printer(const int *x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    printf("block %d thread %d value %d\n", blockIdx.x, threadIdx.x, x[i]);
    if (threadIdx.x % 8 == 0)
        printf("[%d] group %u square %lld\n", i, threadIdx.x / 8, (long long)x[i] * x[i]);
}
"""
    c.kernel = "printer"
    G, B = 2, 48
    c.grid, c.block = (G, 1, 1), (B, 1, 1)
    r = Rng(701)
    x = [r.range(-100000, 100000) for _ in range(G * B)]
    c.buffer("x", "s32", x)
    lines = []
    for b in range(G):
        for t in range(B):
            i = b * B + t
            lines.append("block %d thread %d value %d\n" % (b, t, x[i]))
            if t % 8 == 0:
                lines.append("[%d] group %u square %d\n" % (i, t // 8, x[i] * x[i]))
    c.expect_stdout = "".join(lines)
    c.unordered = True
    return c


@case
def printf_formats():
    c = Case("printf_formats", "device printf conversions from one thread of a warp (ordered output): "
             "%d %i %u %x %X %o, width/flags, %ld %lld %llu %llx, %c %s with widths, %f %.3f %e %g "
             "(float promoted to double), %%, and a loop")
    c.source = r"""
extern "C" __global__ void formats(const int *x, const double *d)
{
    if (threadIdx.x != 3)
        return;
    printf("int %d %i %u %x %X %o\n", x[0], x[1], (unsigned)x[2], x[3], x[3], x[4]);
    printf("width [%5d] [%-5d] [%05d] [%+d]\n", x[5], x[5], x[5], x[5]);
    printf("long %ld %lld %llu %llx\n", (long)x[0] * 100000, (long long)x[1] * 3000000000LL,
           18446744073709551615ULL, 0x123456789abcdefULL);
    printf("char %c%c%c str %s [%8s] [%-6s]\n", 'G', 'P', 'U', "heddle", "pad", "left");
    printf("float %f %.3f %e %g %g\n", d[0], d[1], d[2], d[3], (float)d[4]);
    printf("percent %% done\n");
    #pragma unroll 1
    for (int k = 0; k < 3; ++k)
        printf("loop %d\n", k * x[0]);
}
"""
    c.kernel = "formats"
    c.grid, c.block = (1, 1, 1), (32, 1, 1)
    x = [123456, -42, -1, 0xBEEF, 8, 42]
    d = [3.14159265358979, -2.0 / 3.0, 6.02214076e23, 0.0001234, 1.0 / 3.0]
    c.buffer("x", "s32", x)
    from . import fp
    c.buffer("d", "f64", [fp.f64_bits(v) for v in d])
    f4 = fp.to_float(fp.f32_bits(d[4]))
    out = "int %d %i %u %x %X %o\n" % (x[0], x[1], x[2] & 0xFFFFFFFF, x[3], x[3], x[4])
    out += "width [%5d] [%-5d] [%05d] [%+d]\n" % (x[5], x[5], x[5], x[5])
    out += "long %d %d %d %x\n" % (x[0] * 100000, x[1] * 3000000000, 18446744073709551615, 0x123456789ABCDEF)
    out += "char %c%c%c str %s [%8s] [%-6s]\n" % ("G", "P", "U", "heddle", "pad", "left")
    out += "float %f %.3f %e %g %g\n" % (d[0], d[1], d[2], d[3], f4)
    out += "percent % done\n"
    for k in range(3):
        out += "loop %d\n" % (k * x[0])
    c.expect_stdout = out
    c.unordered = False
    return c


@case
def malloc_free():
    c = Case("malloc_free", "device-side malloc/free: per-thread allocations of varying size (16-byte "
             "alignment checked), and one per-block allocation shared through a __shared__ pointer "
             "and freed after a barrier")
    c.source = r"""
extern "C" __global__ void heap(const int *x, int *out, int *flags)
{
    __shared__ int *block_buf;
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int len = 1 + (i % 13);
    int *p = (int *)malloc(len * sizeof(int));
    int ok = p != NULL;
    int s = 0;
    if (ok) {
        #pragma unroll 1
        for (int k = 0; k < len; ++k)
            p[k] = x[i] + k;
        #pragma unroll 1
        for (int k = 0; k < len; ++k)
            s += p[k] * (k + 1);
        ok |= (((size_t)p & 15) == 0) << 1;
        free(p);
    }
    if (t == 0)
        block_buf = (int *)malloc(blockDim.x * sizeof(int));
    __syncthreads();
    int *bb = block_buf;
    if (bb)
        bb[blockDim.x - 1 - t] = s;
    __syncthreads();
    out[i] = bb ? bb[t] : -1;
    flags[i] = ok | ((bb != NULL) << 2);
    __syncthreads();
    if (t == 0)
        free(bb);
}
"""
    c.kernel = "heap"
    G, B = 3, 64
    n = G * B
    c.grid, c.block = (G, 1, 1), (B, 1, 1)
    r = Rng(702)
    x = [r.range(-10000, 10000) for _ in range(n)]
    c.buffer("x", "s32", x)
    c.buffer("out", "s32", count=n, output=True)
    c.buffer("flags", "s32", count=n, output=True)
    s = []
    for i in range(n):
        ln = 1 + i % 13
        s.append(sum((x[i] + k) * (k + 1) for k in range(ln)))
    out = []
    for b in range(G):
        for t in range(B):
            out.append(s[b * B + (B - 1 - t)])
    c.expect("out", "s32", out)
    c.expect("flags", "s32", [7] * n)
    return c


@case
def assert_passes():
    c = Case("assert_passes", "device assert (__assertfail) whose conditions hold in every thread, "
             "including one inside divergent code: the kernel completes normally")
    c.source = ASSERT_DECL + r"""
extern "C" __global__ void checked(const int *x, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = x[i];
    assert(v >= 0);
    if (v & 1)
        assert(v % 2 == 1);
    assert(v < 1000 || i == 0);
    out[i] = v * 2 + 1;
}
"""
    c.kernel = "checked"
    n = 100
    c.grid, c.block = (1, 1, 1), (128, 1, 1)
    r = Rng(703)
    x = [5000] + [r.range(0, 999) for _ in range(n - 1)]
    c.buffer("x", "s32", x)
    c.buffer("out", "s32", count=n, output=True)
    c.scalar("s32", n)
    c.expect("out", "s32", [2 * v + 1 for v in x])
    return c


@case
def assert_fires():
    c = Case("assert_fires", "device assert that fails in one thread (x[37] == 42) of a 64-thread "
             "block: the launch must end in a trap (expect_trap)")
    c.source = ASSERT_DECL + r"""
extern "C" __global__ void checked(const int *x, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = x[i];
    out[i] = v;
    assert(v != 42);
    out[i] = v * 2;
}
"""
    c.kernel = "checked"
    n = 64
    c.grid, c.block = (1, 1, 1), (64, 1, 1)
    r = Rng(704)
    x = [r.range(100, 999) for _ in range(n)]
    x[37] = 42
    c.buffer("x", "s32", x)
    c.buffer("out", "s32", count=n, output=True)
    c.scalar("s32", n)
    c.expect_trap = True
    return c
