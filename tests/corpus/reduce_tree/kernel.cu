#define BS 256

extern "C" __global__ void __launch_bounds__(256, 2)
reduce_tree(const float *x, const int *y, float *fsum, int *isum, int n)
{
    __shared__ float sf[BS];
    __shared__ int si[BS];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * BS + t;
    sf[t] = i < n ? x[i] : 0.0f;
    si[t] = i < n ? y[i] : 0;
    __syncthreads();
    #pragma unroll 1
    for (unsigned s = BS / 2; s > 0; s >>= 1) {
        if (t < s) {
            sf[t] += sf[t + s];
            si[t] += si[t + s];
        }
        __syncthreads();
    }
    if (t == 0) {
        fsum[blockIdx.x] = sf[0];
        isum[blockIdx.x] = si[0];
    }
}
