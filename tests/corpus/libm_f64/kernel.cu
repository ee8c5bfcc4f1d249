extern "C" __global__ void libm64(const double *a, double *o_sin, double *o_cos, double *o_exp, double *o_log, double *o_cbrt, double *o_tanh, double *o_erf, double *o_pow, double *o_atan2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    o_sin[i] = sin(a[0 * n + i]);
    o_cos[i] = cos(a[1 * n + i]);
    o_exp[i] = exp(a[2 * n + i]);
    o_log[i] = log(a[3 * n + i]);
    o_cbrt[i] = cbrt(a[4 * n + i]);
    o_tanh[i] = tanh(a[5 * n + i]);
    o_erf[i] = erf(a[6 * n + i]);
    o_pow[i] = pow(a[7 * n + i], a[8 * n + i]);
    o_atan2[i] = atan2(a[9 * n + i], a[10 * n + i]);
}
