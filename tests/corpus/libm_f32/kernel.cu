extern "C" __global__ void libm(const float *a, float *o_sinf, float *o_cosf, float *o_tanf, float *o_expf, float *o_exp2f, float *o_exp10f, float *o_logf, float *o_log2f, float *o_log10f, float *o_cbrtf, float *o_tanhf, float *o_atanf, float *o_erff, float *o_powf, float *o_atan2f, float *o_hypotf, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    o_sinf[i] = sinf(a[0 * n + i]);
    o_cosf[i] = cosf(a[1 * n + i]);
    o_tanf[i] = tanf(a[2 * n + i]);
    o_expf[i] = expf(a[3 * n + i]);
    o_exp2f[i] = exp2f(a[4 * n + i]);
    o_exp10f[i] = exp10f(a[5 * n + i]);
    o_logf[i] = logf(a[6 * n + i]);
    o_log2f[i] = log2f(a[7 * n + i]);
    o_log10f[i] = log10f(a[8 * n + i]);
    o_cbrtf[i] = cbrtf(a[9 * n + i]);
    o_tanhf[i] = tanhf(a[10 * n + i]);
    o_atanf[i] = atanf(a[11 * n + i]);
    o_erff[i] = erff(a[12 * n + i]);
    o_powf[i] = powf(a[13 * n + i], a[14 * n + i]);
    o_atan2f[i] = atan2f(a[15 * n + i], a[16 * n + i]);
    o_hypotf[i] = hypotf(a[17 * n + i], a[18 * n + i]);
}
