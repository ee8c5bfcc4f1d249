#include <cuda_fp16.h>
__device__ int g_counter;
__device__ float gtab[8];
struct P { double x; int k; short s; char c; };
extern "C" __global__ void k1(float *f, double *d, int *i, long long *ll, unsigned long long *ull, __half *h, P p, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float x = f[t]; double y = d[t]; int a = i[t]; long long b = ll[t]; unsigned long long u = ull[t];
  f[t] = isnan(x) + isinf(x) + isfinite(y) + signbit(x) + __saturatef(x) + fmaf(x, x, 1.f) + rsqrtf(x) + exp2f(x) + log2f(x) + powf(x, 2.5f) + tanhf(x) + erff(x) + atan2f(x, 1.f) + ldexpf(x, a & 7) + truncf(x) + hypotf(x, 3.f);
  d[t] = sqrt(y) + rsqrt(y) + exp(y) + log(y) + sin(y) + pow(y, 1.5) + fma(y, y, y) + (double)b / 3.0 + floor(y) + nearbyint(y) + frexp(y, &a) + cbrt(y) + p.x;
  i[t] = __clz(a) + __ffs(a) + __popc(a) + __brev(a) + __byte_perm(a, t, 0x3210) + __funnelshift_l(a, t, 5) + __funnelshift_r(a, t, t & 31) + a / 7 + a % 7 + __mulhi(a, t) + __usad(a, t, 3) + min(a, t) + abs(a) + __sad(a, t, 1) + __float2int_rn(x) + __double2int_rz(y) + (int)__half2float(h[t]) + p.k + p.s + p.c + __clzll(b) + __ffsll(b) + __popcll(u) + (int)(b >> (a & 63)) + (int)(u >> (a & 63)) + atomicAdd(&g_counter, 1) + (int)gtab[t & 7];
  ll[t] = b * 7 / 13 + b % 11 + (long long)x + llabs(b) + __mul64hi(b, b) + __umul64hi(u, u) + min(b, (long long)a) + (b << (a & 63)) + __brevll(u) + (long long)__double2ll_rd(y) + __float2ll_ru(x) + (b < 0 ? -b : b);
  ull[t] = u / 10 + u % 10 + __double2ull_rn(y) + (u << 3) + (unsigned long long)__float2ull_rz(x) + atomicMax((unsigned long long*)ull, u) + atomicCAS((unsigned long long*)ull + 1, u, u + 1);
  h[t] = __hadd(h[t], __float2half(x)) ;
  h[t+1] = __hmul(__hsub(h[t], __double2half(y)), __int2half_rn(a));
}
