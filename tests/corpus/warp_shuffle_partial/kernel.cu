extern "C" __global__ void shfl_partial(const int *x, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = x[i];
    unsigned all = __activemask();
    int cnt = __popc(all);
    // reduction over the existing lanes of a (possibly partial) warp
    int s = v;
    #pragma unroll 1
    for (int off = 16; off > 0; off >>= 1) {
        int o = __shfl_down_sync(all, s, off);
        if (lane + off < cnt)
            s += o;
    }
    s = __shfl_sync(all, s, 0);
    unsigned lo = __ballot_sync(all, lane < 20);
    unsigned hi = all & ~lo;
    int r0, r1;
    if (lane < 20) {
        r0 = __shfl_xor_sync(lo, v, 1);
        r1 = __shfl_sync(lo, v, (lane + 3) % 20);
    } else {
        int top = 31 - __clz(hi);
        r0 = __shfl_sync(hi, v, top);
        r1 = __shfl_sync(hi, v * 2, 20 + (v & 3) % (cnt - 20));
    }
    out[3 * i] = s;
    out[3 * i + 1] = r0;
    out[3 * i + 2] = r1;
}
