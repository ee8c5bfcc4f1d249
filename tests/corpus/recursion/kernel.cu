__device__ __noinline__ int fib(int n)
{
    if (n < 2)
        return n;
    int a = fib(n - 1);
    int b = fib(n - 2);
    return a + b;
}

__device__ __noinline__ int ack(int m, int n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

__device__ __noinline__ unsigned walk(const unsigned *arr, int k)
{
    if (k == 0)
        return arr[0];
    unsigned r = walk(arr, k - 1);
    return (r * 2654435761u) ^ arr[k];
}

extern "C" __global__ void recursion(const unsigned *x, int *o_fib, int *o_ack, unsigned *o_walk, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned arr[16];
    #pragma unroll 1
    for (int k = 0; k < 16; ++k)
        arr[k] = x[i] + k * 0x1234567u;
    o_fib[i] = fib(i % 16);
    o_ack[i] = ack(i % 3, (i / 3) % 5);
    o_walk[i] = walk(arr, x[i] & 15);
}
