#define BS 128

extern "C" __global__ void scan_hs(const unsigned *in, unsigned *out, unsigned *block_sums, int n)
{
    __shared__ unsigned buf[2][BS];
    int t = threadIdx.x;
    int i = blockIdx.x * BS + t;
    int pin = 0, pout = 1;
    buf[0][t] = i < n ? in[i] : 0;
    __syncthreads();
    #pragma unroll 1
    for (int off = 1; off < BS; off <<= 1) {
        unsigned v = buf[pin][t];
        if (t >= off)
            v += buf[pin][t - off];
        buf[pout][t] = v;
        __syncthreads();
        pin ^= 1;
        pout ^= 1;
    }
    if (i < n)
        out[i] = buf[pin][t];
    if (t == BS - 1)
        block_sums[blockIdx.x] = buf[pin][t];
}
