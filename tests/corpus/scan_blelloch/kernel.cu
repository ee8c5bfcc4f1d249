#define N 256

extern "C" __global__ void scan_blelloch(const int *in, int *out, int n)
{
    __shared__ int s[N];
    int t = threadIdx.x;
    int base = blockIdx.x * N;
    s[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
    s[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
    int off = 1;
    #pragma unroll 1
    for (int d = N >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            s[bi] += s[ai];
        }
        off <<= 1;
    }
    if (t == 0)
        s[N - 1] = 0;
    #pragma unroll 1
    for (int d = 1; d < N; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            int tmp = s[ai];
            s[ai] = s[bi];
            s[bi] += tmp;
        }
    }
    __syncthreads();
    if (base + 2 * t < n)
        out[base + 2 * t] = s[2 * t];
    if (base + 2 * t + 1 < n)
        out[base + 2 * t + 1] = s[2 * t + 1];
}
