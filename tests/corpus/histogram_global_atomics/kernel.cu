extern "C" __global__ void histogram(const unsigned char *data, unsigned *bins, int n)
{
    #pragma unroll 1
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[data[i] >> 2], 1u);
}
