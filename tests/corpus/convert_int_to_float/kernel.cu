extern "C" __global__ void i2f(const int *a, const unsigned *ua, const long long *la,
                               const unsigned long long *ula, const double *d, const float *f,
                               const float *fs, float *o_i2f, double *o_l2d, float *o_d2f, double *o_f2d, float *o_sat, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i];
    unsigned ux = ua[i];
    long long lx = la[i];
    unsigned long long ulx = ula[i];
    float *r = o_i2f + 16 * i;
    double *q = o_l2d + 9 * i;
    float *s = o_d2f + 4 * i;
    r[0] = __int2float_rn(x);
    r[1] = __int2float_rz(x);
    r[2] = __int2float_ru(x);
    r[3] = __int2float_rd(x);
    r[4] = __uint2float_rn(ux);
    r[5] = __uint2float_rz(ux);
    r[6] = __uint2float_ru(ux);
    r[7] = __uint2float_rd(ux);
    r[8] = __ll2float_rn(lx);
    r[9] = __ll2float_rz(lx);
    r[10] = __ll2float_ru(lx);
    r[11] = __ll2float_rd(lx);
    r[12] = __ull2float_rn(ulx);
    r[13] = __ull2float_rz(ulx);
    r[14] = __ull2float_ru(ulx);
    r[15] = __ull2float_rd(ulx);
    q[0] = __ll2double_rn(lx);
    q[1] = __ll2double_rz(lx);
    q[2] = __ll2double_ru(lx);
    q[3] = __ll2double_rd(lx);
    q[4] = __ull2double_rn(ulx);
    q[5] = __ull2double_rz(ulx);
    q[6] = __ull2double_ru(ulx);
    q[7] = __ull2double_rd(ulx);
    q[8] = __int2double_rn(x);
    s[0] = __double2float_rn(d[i]);
    s[1] = __double2float_rz(d[i]);
    s[2] = __double2float_ru(d[i]);
    s[3] = __double2float_rd(d[i]);
    o_f2d[i] = (double)f[i];
    o_sat[i] = __saturatef(fs[i]);
}
