extern "C" __global__ void round_cmp(const float *a, const float *b, const float *x, const float *y,
                                     unsigned *o_cmp, float *o_round, float *o_fmod, int *o_frexp,
                                     float *o_ldexp, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float p = a[i], q = b[i];
    unsigned bits = 0;
    bits |= (p < q) << 0;
    bits |= (p <= q) << 1;
    bits |= (p == q) << 2;
    bits |= (p != q) << 3;
    bits |= (p > q) << 4;
    bits |= (p >= q) << 5;
    bits |= !(p < q) << 6;
    bits |= !(p >= q) << 7;
    bits |= isnan(p) << 8;
    bits |= isinf(p) << 9;
    bits |= isfinite(p) << 10;
    bits |= (signbit(p) != 0) << 11;
    bits |= (isnan(p) || isnan(q)) << 12;
    o_cmp[i] = bits;
    float v = x[i];
    float *r = o_round + 5 * i;
    r[0] = floorf(v);
    r[1] = ceilf(v);
    r[2] = truncf(v);
    r[3] = rintf(v);
    r[4] = roundf(v);
    o_fmod[i] = fmodf(v, y[i]);
    int e;
    float m = frexpf(v, &e);
    o_frexp[2 * i] = __float_as_int(m);
    o_frexp[2 * i + 1] = e;
    o_ldexp[i] = ldexpf(m, (i % 7) - 3);
}
