extern "C" __global__ void heap(const int *x, int *out, int *flags)
{
    __shared__ int *block_buf;
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int len = 1 + (i % 13);
    int *p = (int *)malloc(len * sizeof(int));
    int ok = p != NULL;
    int s = 0;
    if (ok) {
        #pragma unroll 1
        for (int k = 0; k < len; ++k)
            p[k] = x[i] + k;
        #pragma unroll 1
        for (int k = 0; k < len; ++k)
            s += p[k] * (k + 1);
        ok |= (((size_t)p & 15) == 0) << 1;
        free(p);
    }
    if (t == 0)
        block_buf = (int *)malloc(blockDim.x * sizeof(int));
    __syncthreads();
    int *bb = block_buf;
    if (bb)
        bb[blockDim.x - 1 - t] = s;
    __syncthreads();
    out[i] = bb ? bb[t] : -1;
    flags[i] = ok | ((bb != NULL) << 2);
    __syncthreads();
    if (t == 0)
        free(bb);
}
