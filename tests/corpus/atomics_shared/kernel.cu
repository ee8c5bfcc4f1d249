extern "C" __global__ void shared_atomics(const unsigned *x, unsigned *blk, unsigned *ghist,
                                          float *fout, unsigned long long *sum64, int n)
{
    __shared__ unsigned hist[32];
    __shared__ unsigned mx, mn, orv, casmax;
    __shared__ float fs;
    __shared__ unsigned long long s64;
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t < 32)
        hist[t] = 0;
    if (t == 0) {
        mx = 0;
        mn = 0xffffffffu;
        orv = 0;
        casmax = 0;
        fs = 0.0f;
        s64 = 0;
    }
    __syncthreads();
    if (i < n) {
        unsigned v = x[i];
        atomicAdd(&hist[v & 31], 1u);
        atomicMax(&mx, v);
        atomicMin(&mn, v);
        atomicOr(&orv, 1u << (v % 29));
        unsigned h = v * 2654435761u;
        unsigned old = casmax, assumed;
        do {
            assumed = old;
            if (assumed >= h)
                break;
            old = atomicCAS(&casmax, assumed, h);
        } while (old != assumed);
        atomicAdd(&fs, (float)(v & 255));
        atomicAdd(&s64, (unsigned long long)v << 8);
    }
    __syncthreads();
    if (t < 32)
        atomicAdd(&ghist[t], hist[t]);
    if (t == 0) {
        unsigned *b = blk + 4 * blockIdx.x;
        b[0] = mx;
        b[1] = mn;
        b[2] = orv;
        b[3] = casmax;
        fout[blockIdx.x] = fs;
        sum64[blockIdx.x] = s64;
    }
}
