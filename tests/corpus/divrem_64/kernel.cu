extern "C" __global__ void divrem64(const long long *a, const long long *b, const unsigned long long *ua,
                                    const unsigned long long *ub, long long *o, unsigned long long *uo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long x = a[i], y = b[i];
    unsigned long long ux = ua[i], uy = ub[i];
    long long *r = o + 6 * i;
    r[0] = x / y;
    r[1] = x % y;
    r[2] = x / 1000;
    r[3] = x % 1000;
    r[4] = x / -7;
    r[5] = x % 4096;
    unsigned long long *u = uo + 5 * i;
    u[0] = ux / uy;
    u[1] = ux % uy;
    u[2] = ux / 10;
    u[3] = ux % 1000000007ull;
    u[4] = ux / 0x100000000ull;
}
