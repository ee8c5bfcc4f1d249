__device__ float atomic_max_float(float *addr, float val)
{
    int *ia = (int *)addr;
    int old = *ia, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= val)
            break;
        old = atomicCAS(ia, assumed, __float_as_int(val));
    } while (assumed != old);
    return __int_as_float(old);
}

__device__ unsigned atomic_sat_add(unsigned *addr, unsigned val, unsigned cap)
{
    unsigned old = *addr, assumed;
    do {
        assumed = old;
        unsigned sum = assumed + val;
        unsigned nv = (sum > cap || sum < assumed) ? cap : sum;
        old = atomicCAS(addr, assumed, nv);
    } while (assumed != old);
    return old;
}

__device__ double atomic_add_double(double *addr, double val)
{
    unsigned long long *ua = (unsigned long long *)addr;
    unsigned long long old = *ua, assumed;
    do {
        assumed = old;
        old = atomicCAS(ua, assumed, __double_as_longlong(__longlong_as_double(assumed) + val));
    } while (assumed != old);
    return __longlong_as_double(old);
}

extern "C" __global__ void cas_loops(const float *x, const unsigned *u, float *fmax, unsigned *sat,
                                     double *dsum, unsigned cap, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    atomic_max_float(&fmax[i % 4], x[i]);
    atomic_sat_add(&sat[i % 2], u[i], cap);
    atomic_add_double(&dsum[i % 3], (double)(int)(u[i] % 100000u) - 50000.0);
}
