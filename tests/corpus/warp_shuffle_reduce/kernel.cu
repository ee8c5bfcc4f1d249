extern "C" __global__ void warp_shuffles(const float *x, const int *y, float *wsum, int *xsum, int *scan,
                                         int *bcast, int *rot)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = i >> 5;
    float v = x[i];
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
        wsum[warp] = v;
    int s = y[i];
    #pragma unroll
    for (int m = 1; m < 32; m <<= 1)
        s += __shfl_xor_sync(0xffffffffu, s, m);
    xsum[i] = s;
    int p = y[i];
    #pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        int o = __shfl_up_sync(0xffffffffu, p, off);
        if (lane >= off)
            p += o;
    }
    scan[i] = p;
    bcast[i] = __shfl_sync(0xffffffffu, y[i], 3, 8);
    rot[i] = __shfl_sync(0xffffffffu, y[i], (lane * 5 + 7) & 31);
}
