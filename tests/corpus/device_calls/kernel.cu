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
