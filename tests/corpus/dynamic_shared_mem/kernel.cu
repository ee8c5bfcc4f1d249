extern "C" __global__ void dyn_shared(const int *in, int *out_rev, float *out_f, int *out_s, int n)
{
    extern __shared__ unsigned char smem[];
    __shared__ int stat[4];
    int *si = (int *)smem;
    float *sf = (float *)(smem + blockDim.x * sizeof(int));
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t < 4)
        stat[t] = 1000 * (t + 1) + blockIdx.x;
    si[t] = i < n ? in[i] : -1;
    sf[t] = (float)t * 0.5f;
    __syncthreads();
    int r = blockDim.x - 1 - t;
    if (i < n) {
        out_rev[i] = si[r];
        out_f[i] = sf[r] + sf[t];
        out_s[i] = stat[t & 3] + si[t];
    }
}
