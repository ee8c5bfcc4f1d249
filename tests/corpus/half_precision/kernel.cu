#include <cuda_fp16.h>

extern "C" __global__ void halfk(const __half *h1, const __half *h2, const float *f, const double *d,
                                 const __half2 *p, float *o_h2f, __half *o_f2h, __half *o_d2h,
                                 __half *o_arith, __half2 *o_h2, float *o_dot, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half x = h1[i], y = h2[i];
    o_h2f[i] = __half2float(x);
    __half *q = o_f2h + 4 * i;
    q[0] = __float2half_rn(f[i]);
    q[1] = __float2half_rz(f[i]);
    q[2] = __float2half_ru(f[i]);
    q[3] = __float2half_rd(f[i]);
    o_d2h[i] = __double2half(d[i]);
    __half *ar = o_arith + 3 * i;
    ar[0] = __hadd(x, y);
    ar[1] = __hsub(x, y);
    ar[2] = __hmul(x, y);
    o_h2[i] = __hadd2(p[i], __halves2half2(x, y));
    float acc = 0.0f;
    #pragma unroll 1
    for (int k = 0; k < 8; ++k)
        acc = fmaf(__half2float(h1[(i + k) % n]), __half2float(h2[(i * 3 + k) % n]), acc);
    o_dot[i] = acc;
}
