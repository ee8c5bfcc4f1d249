extern "C" __global__ void bar_red(const int *x, int *out)
{
    int t = threadIdx.x;
    int v = x[blockIdx.x * blockDim.x + t];
    int c = __syncthreads_count(v > 0);
    int a = __syncthreads_and(v > -900) != 0;
    int o = __syncthreads_or(v == 777) != 0;
    int c2 = __syncthreads_count((v & 3) == 1);
    if (t == blockDim.x - 1) {
        int *r = out + 4 * blockIdx.x;
        r[0] = c;
        r[1] = a;
        r[2] = o;
        r[3] = c2;
    }
}
