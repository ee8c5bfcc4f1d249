extern "C" __global__ void grid_stride(const unsigned *in, unsigned *out, size_t n, unsigned k)
{
    #pragma unroll 1
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)blockDim.x * gridDim.x) {
        unsigned v = in[i];
        out[i] = (v * k + (unsigned)i) ^ (v >> 3);
    }
}
