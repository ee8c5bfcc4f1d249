extern "C" __global__ void dbl(const double *a, const double *b, const double *c, double *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i], y = b[i], z = c[i];
    double *r = o + 20 * i;
    r[0] = x + y;
    r[1] = x - y;
    r[2] = x * y;
    r[3] = x / y;
    r[4] = sqrt(fabs(x));
    r[5] = fma(x, y, z);
    r[6] = fmin(x, y);
    r[7] = fmax(x, y);
    r[8] = __dadd_rz(x, y);
    r[9] = __dadd_ru(x, y);
    r[10] = __dsub_rd(x, y);
    r[11] = __dmul_rz(x, y);
    r[12] = __dmul_ru(x, y);
    r[13] = __fma_rd(x, y, z);
    r[14] = __ddiv_ru(x, y);
    r[15] = __ddiv_rz(x, y);
    r[16] = __dsqrt_rd(fabs(x));
    r[17] = __drcp_ru(y);
    r[18] = __drcp_rn(y);
    r[19] = x * 3.0 + z;  // contracted: fma.rn.f64(x, 3.0, z)
}
