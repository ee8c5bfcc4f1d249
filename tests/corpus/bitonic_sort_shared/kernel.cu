#define N 256

extern "C" __global__ void bitonic(unsigned *data)
{
    __shared__ unsigned s[N];
    unsigned t = threadIdx.x;
    unsigned *d = data + blockIdx.x * N;
    s[t] = d[t];
    __syncthreads();
    #pragma unroll 1
    for (unsigned k = 2; k <= N; k <<= 1) {
        #pragma unroll 1
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            unsigned ixj = t ^ j;
            if (ixj > t) {
                unsigned a = s[t], b = s[ixj];
                bool up = (t & k) == 0;
                if ((a > b) == up) {
                    s[t] = b;
                    s[ixj] = a;
                }
            }
            __syncthreads();
        }
    }
    d[t] = s[t];
}
