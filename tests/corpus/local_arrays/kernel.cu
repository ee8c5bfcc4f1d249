extern "C" __global__ void local_arrays(const unsigned *x, unsigned *out, float *fout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned hist[16];
    unsigned perm[16];
    float f[8];
    unsigned v = x[i];
    #pragma unroll 1
    for (int k = 0; k < 16; ++k) {
        hist[k] = 0;
        perm[k] = (k * 7 + v) & 15;
    }
    #pragma unroll 1
    for (int k = 0; k < 8; ++k)
        hist[(v >> (4 * k)) & 15]++;
    unsigned acc = 0, p = v & 15;
    #pragma unroll 1
    for (int k = 0; k < 20; ++k) {
        p = perm[p];
        acc = acc * 31 + hist[p];
    }
    #pragma unroll 1
    for (int k = 0; k < 8; ++k)
        f[k] = (float)(k + i) * 0.75f;
    out[2 * i] = acc;
    out[2 * i + 1] = hist[v & 15] | hist[(v >> 8) & 15] << 8 | p << 16;
    fout[i] = f[v & 7] - f[(v >> 3) & 7];
}
