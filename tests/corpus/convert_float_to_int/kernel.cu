extern "C" __global__ void f2i(const float *f, const float *g, const double *d, int *oi, unsigned *ou, long long *oll, unsigned long long *oull, int *odi, unsigned *odu, long long *odll, unsigned long long *odull, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    oi[4 * i + 0] = __float2int_rn(f[i]);
    oi[4 * i + 1] = __float2int_rz(f[i]);
    oi[4 * i + 2] = __float2int_ru(f[i]);
    oi[4 * i + 3] = __float2int_rd(f[i]);
    ou[4 * i + 0] = __float2uint_rn(f[i]);
    ou[4 * i + 1] = __float2uint_rz(f[i]);
    ou[4 * i + 2] = __float2uint_ru(f[i]);
    ou[4 * i + 3] = __float2uint_rd(f[i]);
    oll[4 * i + 0] = __float2ll_rn(g[i]);
    oll[4 * i + 1] = __float2ll_rz(g[i]);
    oll[4 * i + 2] = __float2ll_ru(g[i]);
    oll[4 * i + 3] = __float2ll_rd(g[i]);
    oull[4 * i + 0] = __float2ull_rn(g[i]);
    oull[4 * i + 1] = __float2ull_rz(g[i]);
    oull[4 * i + 2] = __float2ull_ru(g[i]);
    oull[4 * i + 3] = __float2ull_rd(g[i]);
    odi[4 * i + 0] = __double2int_rn(d[i]);
    odi[4 * i + 1] = __double2int_rz(d[i]);
    odi[4 * i + 2] = __double2int_ru(d[i]);
    odi[4 * i + 3] = __double2int_rd(d[i]);
    odu[4 * i + 0] = __double2uint_rn(d[i]);
    odu[4 * i + 1] = __double2uint_rz(d[i]);
    odu[4 * i + 2] = __double2uint_ru(d[i]);
    odu[4 * i + 3] = __double2uint_rd(d[i]);
    odll[4 * i + 0] = __double2ll_rn(d[i]);
    odll[4 * i + 1] = __double2ll_rz(d[i]);
    odll[4 * i + 2] = __double2ll_ru(d[i]);
    odll[4 * i + 3] = __double2ll_rd(d[i]);
    odull[4 * i + 0] = __double2ull_rn(d[i]);
    odull[4 * i + 1] = __double2ull_rz(d[i]);
    odull[4 * i + 2] = __double2ull_ru(d[i]);
    odull[4 * i + 3] = __double2ull_rd(d[i]);
}
