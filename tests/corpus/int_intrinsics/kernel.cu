extern "C" __global__ void intr(const int *a, const int *b, const unsigned *c, int *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    unsigned ux = x, uy = y, z = c[i];
    int *r = o + 14 * i;
    r[0] = __mulhi(x, y);
    r[1] = __umulhi(ux, uy);
    r[2] = __mul24(x, y);
    r[3] = __umul24(ux, uy);
    r[4] = __sad(x, y, z);
    r[5] = __usad(ux, uy, z);
    r[6] = __hadd(x, y);
    r[7] = __rhadd(x, y);
    r[8] = __uhadd(ux, uy);
    r[9] = __urhadd(ux, uy);
    r[10] = x == (-2147483647 - 1) ? 7 : abs(x);
    r[11] = min(x, y);
    r[12] = max(ux, uy);
    r[13] = (x > y) != (ux > uy) ? (int)(ux - uy) : (int)(uy - (unsigned)(x >> 3));
}
