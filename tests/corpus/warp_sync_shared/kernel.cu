extern "C" __global__ void warp_sync_shared(const int *x, const double *d, int *wsum, double *dout)
{
    __shared__ int buf[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int lane = t & 31;
    buf[t] = x[i];
    __syncwarp();
    #pragma unroll 1
    for (int off = 16; off > 0; off >>= 1) {
        int v = lane < off ? buf[t + off] : 0;
        __syncwarp();
        if (lane < off)
            buf[t] += v;
        __syncwarp();
    }
    if (lane == 0)
        wsum[i >> 5] = buf[t];
    double v = d[i];
    double b = __shfl_sync(0xffffffffu, v, (lane + 1) & 31);
    double s = __shfl_xor_sync(0xffffffffu, v, 16);
    dout[2 * i] = b;
    dout[2 * i + 1] = s + v;
}
