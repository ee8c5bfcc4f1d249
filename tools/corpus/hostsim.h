// hostsim.h: runs a corpus kernel.cu on the host CPU, as an independent check of the
// expected outputs that tools/corpus/ computes in Python (see host_check.py).
//
// Every CUDA thread of a block is a ucontext coroutine; a block runs to completion
// before the next starts. __syncthreads and the warp primitives (shuffles, votes)
// are rendezvous points between coroutines. Atomics are plain read-modify-writes
// (one coroutine runs at a time). Directed-rounding intrinsics use the host FPU's
// rounding modes (fesetround; compile with -frounding-math), half conversions use
// F16C. This is not a GPU model: it only runs kernels that are correct CUDA.
#pragma once
#include <cfenv>
#include <cmath>
#include <math.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <immintrin.h>
#include <type_traits>
#include <ucontext.h>
#include <utility>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __constant__
#define __shared__ static
#define __noinline__ __attribute__((noinline))
#define __forceinline__ inline
#define __restrict__ __restrict
#define __launch_bounds__(...)

struct uint3 { unsigned x, y, z; };
typedef uint3 dim3;

struct HThread {
    ucontext_t ctx;
    uint3 tid;
    int lin, lane, warp;
    int state;  // 0 runnable, 1 at barrier, 2 done
};

static HThread *hs_cur;
static uint3 hs_block, hs_grid, hs_bdim;
static ucontext_t hs_sched;
static std::vector<HThread> hs_threads;
static unsigned long long hs_progress;
alignas(256) static unsigned char __dyn_smem[1 << 16];

#define threadIdx (hs_cur->tid)
#define blockIdx hs_block
#define blockDim hs_bdim
#define gridDim hs_grid
#define warpSize 32

static inline void hs_yield() { swapcontext(&hs_cur->ctx, &hs_sched); }

static inline void __syncthreads()
{
    hs_cur->state = 1;
    hs_progress++;
    hs_yield();
}
static int hs_bar_red[2];
static unsigned hs_bar_gen;
static inline int hs_bar_reduce(int v, int op)  // op 0 count, 1 and, 2 or
{
    int slot = hs_bar_gen & 1;
    if (op == 1)
        hs_bar_red[slot] += v == 0;  // count of false
    else
        hs_bar_red[slot] += v != 0;
    __syncthreads();
    int r = hs_bar_red[slot];
    return op == 0 ? r : op == 1 ? r == 0 : r != 0;
}
static inline int __syncthreads_count(int p) { return hs_bar_reduce(p, 0); }
static inline int __syncthreads_and(int p) { return hs_bar_reduce(p, 1); }
static inline int __syncthreads_or(int p) { return hs_bar_reduce(p, 2); }
static inline void __threadfence() {}
static inline void __threadfence_block() {}
static inline unsigned __laneid() { return hs_cur->lane; }

// ---- warp rendezvous ----------------------------------------------------------------
struct WarpOp {
    unsigned mask;
    int warp;
    int arrived, departed;
    bool complete;
    unsigned long long vals[32];
};
static std::vector<WarpOp *> hs_ops;

static WarpOp *hs_arrive(unsigned mask, unsigned long long v)
{
    for (;;) {
        WarpOp *op = nullptr;
        bool busy = false;
        for (WarpOp *o : hs_ops)
            if (o->warp == hs_cur->warp && o->mask == mask) {
                if (o->complete)
                    busy = true;
                else
                    op = o;
            }
        if (busy) {  // the previous op with this mask is still being read
            hs_yield();
            continue;
        }
        if (!op) {
            op = new WarpOp();
            op->mask = mask;
            op->warp = hs_cur->warp;
            hs_ops.push_back(op);
        }
        if (!((mask >> hs_cur->lane) & 1)) {
            fprintf(stderr, "hostsim: lane %d not in shuffle mask %08x\n", hs_cur->lane, mask);
            exit(3);
        }
        op->vals[hs_cur->lane] = v;
        op->arrived++;
        if (op->arrived == __builtin_popcount(mask))
            op->complete = true;
        hs_progress++;
        while (!op->complete)
            hs_yield();
        return op;
    }
}

static void hs_depart(WarpOp *op)
{
    op->departed++;
    if (op->departed == __builtin_popcount(op->mask)) {
        for (size_t k = 0; k < hs_ops.size(); ++k)
            if (hs_ops[k] == op) {
                hs_ops.erase(hs_ops.begin() + k);
                break;
            }
        delete op;
    }
}

template <typename T> static unsigned long long hs_bits(T v)
{
    unsigned long long b = 0;
    memcpy(&b, &v, sizeof(T));
    return b;
}
template <typename T> static T hs_from(unsigned long long b)
{
    T v;
    memcpy(&v, &b, sizeof(T));
    return v;
}

template <typename T> static T hs_shfl_from(unsigned mask, T var, int src)
{
    WarpOp *op = hs_arrive(mask, hs_bits(var));
    T r = (src >= 0 && src < 32 && ((op->mask >> src) & 1)) ? hs_from<T>(op->vals[src]) : var;
    hs_depart(op);
    return r;
}

template <typename T> static T __shfl_sync(unsigned mask, T var, int srcLane, int width = 32)
{
    int lane = hs_cur->lane;
    int src = (lane & ~(width - 1)) + (srcLane & (width - 1));
    return hs_shfl_from(mask, var, src);
}
template <typename T> static T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32)
{
    int lane = hs_cur->lane;
    int src = (lane % width) >= (int)delta ? lane - (int)delta : lane;
    return hs_shfl_from(mask, var, src);
}
template <typename T> static T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32)
{
    int lane = hs_cur->lane;
    int src = (lane % width) + (int)delta < width ? lane + (int)delta : lane;
    return hs_shfl_from(mask, var, src);
}
template <typename T> static T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32)
{
    int lane = hs_cur->lane;
    int src = lane ^ laneMask;
    if ((src & ~(width - 1)) != (lane & ~(width - 1)))
        src = lane;
    return hs_shfl_from(mask, var, src);
}
static unsigned __ballot_sync(unsigned mask, int pred)
{
    WarpOp *op = hs_arrive(mask, pred != 0);
    unsigned r = 0;
    for (int l = 0; l < 32; ++l)
        if (((mask >> l) & 1) && op->vals[l])
            r |= 1u << l;
    hs_depart(op);
    return r;
}
static int __any_sync(unsigned mask, int pred) { return __ballot_sync(mask, pred) != 0; }
static int __all_sync(unsigned mask, int pred) { return __ballot_sync(mask, pred) == mask; }
static void __syncwarp(unsigned mask = 0xffffffffu)
{
    WarpOp *op = hs_arrive(mask, 0);
    hs_depart(op);
}
static unsigned __activemask()
{
    unsigned m = 0;
    for (auto &t : hs_threads)
        if (t.warp == hs_cur->warp && t.state != 2)
            m |= 1u << t.lane;
    return m;
}

// ---- launch -----------------------------------------------------------------------------
static void (*hs_body)(void *);
static void *hs_body_arg;

static void hs_entry()
{
    hs_body(hs_body_arg);
    hs_cur->state = 2;
    hs_progress++;
    swapcontext(&hs_cur->ctx, &hs_sched);
}

static void hs_launch(uint3 grid, uint3 block, void (*body)(void *), void *arg)
{
    const size_t STACK = 256 * 1024;
    int nt = block.x * block.y * block.z;
    std::vector<char> stacks((size_t)nt * STACK);
    hs_body = body;
    hs_body_arg = arg;
    hs_grid = grid;
    hs_bdim = block;
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx) {
                hs_block = {bx, by, bz};
                hs_bar_gen = 0;
                hs_bar_red[0] = hs_bar_red[1] = 0;
                hs_threads.assign(nt, HThread());
                for (int t = 0; t < nt; ++t) {
                    HThread &h = hs_threads[t];
                    h.tid = {(unsigned)(t % block.x), (unsigned)((t / block.x) % block.y),
                             (unsigned)(t / (block.x * block.y))};
                    h.lin = t;
                    h.lane = t % 32;
                    h.warp = t / 32;
                    h.state = 0;
                    getcontext(&h.ctx);
                    h.ctx.uc_stack.ss_sp = &stacks[(size_t)t * STACK];
                    h.ctx.uc_stack.ss_size = STACK;
                    h.ctx.uc_link = nullptr;
                    makecontext(&h.ctx, hs_entry, 0);
                }
                int idle_rounds = 0;
                for (;;) {
                    unsigned long long before = hs_progress;
                    int done = 0, at_bar = 0;
                    for (auto &h : hs_threads) {
                        if (h.state == 0) {
                            hs_cur = &h;
                            swapcontext(&hs_sched, &h.ctx);
                        }
                        if (h.state == 2)
                            done++;
                        else if (h.state == 1)
                            at_bar++;
                    }
                    if (done == nt)
                        break;
                    if (at_bar + done == nt) {
                        for (auto &h : hs_threads)
                            if (h.state == 1)
                                h.state = 0;
                        hs_bar_gen++;
                        hs_bar_red[hs_bar_gen & 1] = 0;  // the slot the next barrier uses
                        hs_progress++;
                    }
                    if (hs_progress == before) {
                        if (++idle_rounds > 1000) {
                            fprintf(stderr, "hostsim: deadlock in block %u,%u,%u\n", bx, by, bz);
                            exit(4);
                        }
                    } else {
                        idle_rounds = 0;
                    }
                }
            }
}

extern "C" void __assertfail(const char *message, const char *file, unsigned int line,
                             const char *function, size_t charSize)
{
    fflush(stdout);
    fprintf(stderr, "%s:%u: %s: Assertion `%s` failed.\n", file, line, function, message);
    exit(77);
}

// ---- vector types -------------------------------------------------------------------------
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(8) int2 { int x, y; };
struct alignas(16) double2 { double x, y; };
static inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
static inline int2 make_int2(int x, int y) { return {x, y}; }

// ---- integer intrinsics ---------------------------------------------------------------------
template <typename T> static inline T min(T a, T b) { return a < b ? a : b; }
template <typename T> static inline T max(T a, T b) { return a > b ? a : b; }
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(unsigned x) { return x ? __builtin_clz(x) : 32; }
static inline int __clzll(unsigned long long x) { return x ? __builtin_clzll(x) : 64; }
static inline int __ffs(unsigned x) { return __builtin_ffs((int)x); }
static inline int __ffsll(unsigned long long x) { return __builtin_ffsll((long long)x); }
static inline unsigned __brev(unsigned x)
{
    unsigned r = 0;
    for (int k = 0; k < 32; ++k)
        r |= ((x >> k) & 1u) << (31 - k);
    return r;
}
static inline unsigned long long __brevll(unsigned long long x)
{
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long src = ((unsigned long long)y << 32) | x;
    unsigned r = 0;
    for (int k = 0; k < 4; ++k) {
        unsigned sel = (s >> (4 * k)) & 7;
        r |= (unsigned)((src >> (8 * sel)) & 0xff) << (8 * k);
    }
    return r;
}
static inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s)
{
    unsigned long long c = ((unsigned long long)hi << 32) | lo;
    return (unsigned)((c << (s & 31)) >> 32);
}
static inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned s)
{
    unsigned long long c = ((unsigned long long)hi << 32) | lo;
    s = s > 32 ? 32 : s;
    return (unsigned)((c << s) >> 32);
}
static inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s)
{
    unsigned long long c = ((unsigned long long)hi << 32) | lo;
    return (unsigned)(c >> (s & 31));
}
static inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned s)
{
    unsigned long long c = ((unsigned long long)hi << 32) | lo;
    s = s > 32 ? 32 : s;
    return (unsigned)(c >> s);
}
static inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
static inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
static inline int __mul24(int a, int b)
{
    int sa = (int)((unsigned)a << 8) >> 8, sb = (int)((unsigned)b << 8) >> 8;
    return (int)((unsigned)sa * (unsigned)sb);
}
static inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffff) * (b & 0xffffff); }
static inline unsigned __sad(int a, int b, unsigned c) { return (a > b ? (unsigned)a - (unsigned)b : (unsigned)b - (unsigned)a) + c; }
static inline unsigned __usad(unsigned a, unsigned b, unsigned c) { return (a > b ? a - b : b - a) + c; }
static inline int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
static inline int __rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
static inline unsigned __uhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b) >> 1); }
static inline unsigned __urhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b + 1) >> 1); }

// ---- atomics (one coroutine runs at a time) ---------------------------------------------------
template <typename T, typename U> static inline T atomicAdd(T *p, U v) { T o = *p; *p = o + (T)v; return o; }
template <typename T, typename U> static inline T atomicSub(T *p, U v) { T o = *p; *p = o - (T)v; return o; }
template <typename T, typename U> static inline T atomicMin(T *p, U v) { T o = *p; *p = o < (T)v ? o : (T)v; return o; }
template <typename T, typename U> static inline T atomicMax(T *p, U v) { T o = *p; *p = o > (T)v ? o : (T)v; return o; }
template <typename T, typename U> static inline T atomicAnd(T *p, U v) { T o = *p; *p = o & (T)v; return o; }
template <typename T, typename U> static inline T atomicOr(T *p, U v) { T o = *p; *p = o | (T)v; return o; }
template <typename T, typename U> static inline T atomicXor(T *p, U v) { T o = *p; *p = o ^ (T)v; return o; }
template <typename T, typename U> static inline T atomicExch(T *p, U v) { T o = *p; *p = (T)v; return o; }
template <typename T, typename U, typename V> static inline T atomicCAS(T *p, U cmp, V v)
{
    T o = *p;
    if (o == (T)cmp)
        *p = (T)v;
    return o;
}
static inline unsigned atomicInc(unsigned *p, unsigned v) { unsigned o = *p; *p = o >= v ? 0 : o + 1; return o; }
static inline unsigned atomicDec(unsigned *p, unsigned v) { unsigned o = *p; *p = (o == 0 || o > v) ? v : o - 1; return o; }

// ---- float bit casts and rounding-mode intrinsics ------------------------------------------------
static inline int __float_as_int(float f) { return hs_from<int>(hs_bits(f)); }
static inline float __int_as_float(int i) { return hs_from<float>(hs_bits(i)); }
static inline long long __double_as_longlong(double d) { return hs_from<long long>(hs_bits(d)); }
static inline double __longlong_as_double(long long i) { return hs_from<double>(hs_bits(i)); }

struct HsRound {
    int old;
    explicit HsRound(int m) : old(fegetround()) { fesetround(m); }
    ~HsRound() { fesetround(old); }
};
#define HS_RN FE_TONEAREST
#define HS_RZ FE_TOWARDZERO
#define HS_RU FE_UPWARD
#define HS_RD FE_DOWNWARD

#define HS_MODES(X) X(rn, HS_RN) X(rz, HS_RZ) X(ru, HS_RU) X(rd, HS_RD)
// Operands go through volatile locals so that GCC cannot move or merge the operation across
// the fesetround calls (it does not treat them as barriers, even with -frounding-math).
#define HS_DEF(m, M)                                                                                 \
    static float __fadd_##m(float a0, float b0) { HsRound r(M); volatile float a = a0, b = b0; volatile float v = a + b; return v; } \
    static float __fsub_##m(float a0, float b0) { HsRound r(M); volatile float a = a0, b = b0; volatile float v = a - b; return v; } \
    static float __fmul_##m(float a0, float b0) { HsRound r(M); volatile float a = a0, b = b0; volatile float v = a * b; return v; } \
    static float __fdiv_##m(float a0, float b0) { HsRound r(M); volatile float a = a0, b = b0; volatile float v = a / b; return v; } \
    static float __fmaf_##m(float a0, float b0, float c0) { HsRound r(M); volatile float a = a0, b = b0, c = c0; volatile float v = fmaf(a, b, c); return v; } \
    static float __frcp_##m(float a0) { HsRound r(M); volatile float a = a0; volatile float v = 1.0f / a; return v; } \
    static float __fsqrt_##m(float a0) { HsRound r(M); volatile float a = a0; volatile float v = sqrtf(a); return v; } \
    static double __dadd_##m(double a0, double b0) { HsRound r(M); volatile double a = a0, b = b0; volatile double v = a + b; return v; } \
    static double __dsub_##m(double a0, double b0) { HsRound r(M); volatile double a = a0, b = b0; volatile double v = a - b; return v; } \
    static double __dmul_##m(double a0, double b0) { HsRound r(M); volatile double a = a0, b = b0; volatile double v = a * b; return v; } \
    static double __ddiv_##m(double a0, double b0) { HsRound r(M); volatile double a = a0, b = b0; volatile double v = a / b; return v; } \
    static double __drcp_##m(double a0) { HsRound r(M); volatile double a = a0; volatile double v = 1.0 / a; return v; } \
    static double __dsqrt_##m(double a0) { HsRound r(M); volatile double a = a0; volatile double v = sqrt(a); return v; } \
    static double __fma_##m(double a0, double b0, double c0) { HsRound r(M); volatile double a = a0, b = b0, c = c0; volatile double v = fma(a, b, c); return v; } \
    static float __int2float_##m(int a0) { HsRound r(M); volatile int a = a0; volatile float v = (float)a; return v; } \
    static float __uint2float_##m(unsigned a0) { HsRound r(M); volatile unsigned a = a0; volatile float v = (float)a; return v; } \
    static float __ll2float_##m(long long a0) { HsRound r(M); volatile long long a = a0; volatile float v = (float)a; return v; } \
    static float __ull2float_##m(unsigned long long a0) { HsRound r(M); volatile unsigned long long a = a0; volatile float v = (float)a; return v; } \
    static double __ll2double_##m(long long a0) { HsRound r(M); volatile long long a = a0; volatile double v = (double)a; return v; } \
    static double __ull2double_##m(unsigned long long a0) { HsRound r(M); volatile unsigned long long a = a0; volatile double v = (double)a; return v; } \
    static float __double2float_##m(double a0) { HsRound r(M); volatile double a = a0; volatile float v = (float)a; return v; } \
    static int __float2int_##m(float a) { return (int)hs_f2i(a, M, -2147483648.0L, 2147483647.0L); } \
    static unsigned __float2uint_##m(float a) { return (unsigned)hs_f2i(a, M, 0.0L, 4294967295.0L); } \
    static long long __float2ll_##m(float a) { return (long long)hs_f2i(a, M, -9223372036854775808.0L, 9223372036854775807.0L); } \
    static unsigned long long __float2ull_##m(float a) { return (unsigned long long)hs_f2i(a, M, 0.0L, 18446744073709551615.0L); } \
    static int __double2int_##m(double a) { return (int)hs_f2i(a, M, -2147483648.0L, 2147483647.0L); } \
    static unsigned __double2uint_##m(double a) { return (unsigned)hs_f2i(a, M, 0.0L, 4294967295.0L); } \
    static long long __double2ll_##m(double a) { return (long long)hs_f2i(a, M, -9223372036854775808.0L, 9223372036854775807.0L); } \
    static unsigned long long __double2ull_##m(double a) { return (unsigned long long)hs_f2i(a, M, 0.0L, 18446744073709551615.0L); }

// round to an integer value in long double (exact for every float/double input), then saturate
static inline __int128 hs_f2i(long double a, int mode, long double lo, long double hi)
{
    if (std::isnan(a))
        return 0;
    long double r;
    switch (mode) {
    case HS_RZ: r = truncl(a); break;
    case HS_RU: r = ceill(a); break;
    case HS_RD: r = floorl(a); break;
    default: { HsRound g(FE_TONEAREST); volatile long double va = a; r = nearbyintl(va); }
    }
    if (r <= lo)
        return (__int128)lo;
    if (r >= hi)
        return hi == 18446744073709551615.0L ? (__int128)18446744073709551615ULL : (__int128)hi;
    return (__int128)r;
}
HS_MODES(HS_DEF)
static inline double __int2double_rn(int a) { return (double)a; }
static inline float __saturatef(float a) { return std::isnan(a) ? 0.0f : a < 0.0f ? 0.0f : a > 1.0f ? 1.0f : a; }
static inline float __frsqrt_rn(float a) { return (float)(1.0L / sqrtl((long double)a)); }

// ---- half precision (F16C) ------------------------------------------------------------------------
struct __half { unsigned short x; };
struct alignas(4) __half2 { __half x, y; };
static inline float __half2float(__half h) { return _cvtsh_ss(h.x); }
static inline __half __float2half_rn(float f) { return {(unsigned short)_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT)}; }
static inline __half __float2half_rz(float f) { return {(unsigned short)_cvtss_sh(f, _MM_FROUND_TO_ZERO)}; }
static inline __half __float2half_ru(float f) { return {(unsigned short)_cvtss_sh(f, _MM_FROUND_TO_POS_INF)}; }
static inline __half __float2half_rd(float f) { return {(unsigned short)_cvtss_sh(f, _MM_FROUND_TO_NEG_INF)}; }
static inline __half __double2half(double d)
{
    // round to odd into binary32 (>= 13 bits more than binary16), then to nearest: one rounding
    float f;
    {
        HsRound g(FE_TOWARDZERO);
        volatile double vd = d;
        volatile float v = (float)vd;
        f = v;
    }
    if ((double)f != d && !std::isinf(f)) {
        unsigned b = hs_from<unsigned>(hs_bits(f)) | 1u;
        f = hs_from<float>(b);
    }
    return __float2half_rn(f);
}
static inline __half __hadd(__half a, __half b) { return __float2half_rn(__half2float(a) + __half2float(b)); }
static inline __half __hsub(__half a, __half b) { return __float2half_rn(__half2float(a) - __half2float(b)); }
static inline __half __hmul(__half a, __half b) { return __float2half_rn(__half2float(a) * __half2float(b)); }
static inline __half2 __halves2half2(__half a, __half b) { return {a, b}; }
static inline __half2 __hadd2(__half2 a, __half2 b) { return {__hadd(a.x, b.x), __hadd(a.y, b.y)}; }

// ---- calling a kernel with byte images of its arguments ---------------------------------------------
template <typename... A, size_t... I>
static void hs_call(void (*k)(A...), void **argv, std::index_sequence<I...>)
{
    k(*reinterpret_cast<typename std::remove_cv<typename std::remove_reference<A>::type>::type *>(argv[I])...);
}
template <typename... A> struct HsKernel {
    void (*k)(A...);
    void **argv;
};
template <typename... A> static void hs_run_body(void *p)
{
    auto *kk = (HsKernel<A...> *)p;
    hs_call(kk->k, kk->argv, std::index_sequence_for<A...>{});
}
template <typename... A> static void hs_launch_kernel(void (*k)(A...), void **argv, uint3 g, uint3 b)
{
    static_assert(sizeof...(A) > 0, "kernel without parameters");
    HsKernel<A...> kk{k, argv};
    hs_launch(g, b, hs_run_body<A...>, &kk);
}
