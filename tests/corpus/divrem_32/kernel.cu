extern "C" __global__ void divrem32(const int *a, const int *b, const unsigned *ua, const unsigned *ub,
                                    int *o, unsigned *uo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    unsigned ux = ua[i], uy = ub[i];
    int *r = o + 8 * i;
    r[0] = x / y;
    r[1] = x % y;
    r[2] = x / 7;
    r[3] = x % 7;
    r[4] = x / -3;
    r[5] = x % 10;
    r[6] = x / 16;
    r[7] = x % 16;
    unsigned *u = uo + 6 * i;
    u[0] = ux / uy;
    u[1] = ux % uy;
    u[2] = ux / 7;
    u[3] = ux % 10;
    u[4] = ux / 1000000007u;
    u[5] = ux % 64;
}
