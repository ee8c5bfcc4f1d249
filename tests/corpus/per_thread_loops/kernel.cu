extern "C" __global__ void loops(const unsigned *x, unsigned *steps, unsigned *peak, int *sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = x[i];
    unsigned s = 0, p = v;
    #pragma unroll 1
    while (v != 1) {
        v = (v & 1) ? 3 * v + 1 : v >> 1;
        if (v > p)
            p = v;
        ++s;
    }
    steps[i] = s;
    peak[i] = p;
    int acc = 0;
    int lim = i % 13;
    #pragma unroll 1
    for (int a = 0; a < lim; ++a) {
        if (a % 3 == 1)
            continue;
        #pragma unroll 1
        for (int b = a; b < 2 * lim; ++b) {
            if ((a + b) % 7 == 6)
                break;
            acc += a * b - (int)(x[i] % 5);
        }
    }
    int d = 0;
    unsigned u = x[i];
    #pragma unroll 1
    do {
        u /= 3;
        ++d;
    } while (u > 0);
    sums[i] = acc * 100 + d;
}
