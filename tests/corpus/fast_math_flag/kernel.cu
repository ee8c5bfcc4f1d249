extern "C" __global__ void fastflag(const float *x, const float *y, float *o_sin, float *o_exp, float *o_log,
                                    float *o_div, float *o_sqrt, float *o_mad, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float a = x[i], b = y[i];
    o_sin[i] = sinf(a);
    o_exp[i] = expf(a);
    o_log[i] = logf(b);
    o_div[i] = a / b;
    o_sqrt[i] = sqrtf(b);
    o_mad[i] = a * b + 1.0f;
}
