extern "C" __global__ void fast(const float *a, const float *b, float *o_sin, float *o_cos, float *o_exp,
                                float *o_exp10, float *o_log_near, float *o_log_far, float *o_log2_near,
                                float *o_fdiv, float *o_rsqrt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float *x = a + 8 * i;
    o_sin[i] = __sinf(x[0]);
    o_cos[i] = __cosf(x[0]);
    o_exp[i] = __expf(x[1]);
    o_exp10[i] = __exp10f(x[2]);
    o_log_near[i] = __logf(x[3]);
    o_log_far[i] = __logf(x[4]);
    o_log2_near[i] = __log2f(x[3]);
    o_fdiv[i] = __fdividef(x[5], b[i]);
    o_rsqrt[i] = rsqrtf(x[6]);
}
