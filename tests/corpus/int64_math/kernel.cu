extern "C" __global__ void int64_ops(const long long *a, const long long *b, const unsigned *sh,
                                     long long *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long x = a[i], y = b[i];
    unsigned long long ux = x, uy = y;
    unsigned s = sh[i] & 63;
    long long *r = o + 20 * i;
    r[0] = (long long)(ux + uy);
    r[1] = (long long)(ux - uy);
    r[2] = (long long)(ux * uy);
    r[3] = __mul64hi(x, y);
    r[4] = (long long)__umul64hi(ux, uy);
    r[5] = x >> s;
    r[6] = (long long)(ux >> s);
    r[7] = (long long)(ux << s);
    r[8] = (long long)((ux << s) | (ux >> ((64 - s) & 63)));
    r[9] = x < y;
    r[10] = ux < uy;
    r[11] = min(x, y);
    r[12] = (long long)max(ux, uy);
    r[13] = x == (-9223372036854775807ll - 1) ? 0 : llabs(x);
    r[14] = (long long)(int)x * (long long)(int)y;
    r[15] = (long long)((unsigned long long)(unsigned)x * (unsigned)y);
    r[16] = x == y;
    r[17] = (ux + uy) < ux;
    r[18] = (long long)(ux + (unsigned long long)(long long)(int)sh[i]);
    r[19] = (long long)((ux ^ (uy >> 7)) - (~ux & 0xffff0000ffffull));
}
