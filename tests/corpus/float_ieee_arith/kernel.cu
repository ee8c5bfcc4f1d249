extern "C" __global__ void ieee(const float *a, const float *b, const float *c, const float *d, const float *e,
                                float *o_add, float *o_sub, float *o_mul, float *o_fma, float *o_min,
                                float *o_max, float *o_div, float *o_sqrt, float *o_abs, float *o_cps,
                                float *o_neg, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    o_add[i] = x + y;
    o_sub[i] = x - y;
    o_mul[i] = x * y;
    o_fma[i] = fmaf(x, y, c[i]);
    o_min[i] = fminf(x, e[i]);
    o_max[i] = fmaxf(x, e[i]);
    if (isnan(x) || isnan(y))
        return;  // the rest is only checked on non-NaN operands
    o_div[i] = x / d[i];
    o_sqrt[i] = sqrtf(fabsf(x));
    o_abs[i] = fabsf(x);
    o_cps[i] = copysignf(x, y);
    o_neg[i] = -x;
}
