extern "C" __global__ void printer(const int *x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    printf("block %d thread %d value %d\n", blockIdx.x, threadIdx.x, x[i]);
    if (threadIdx.x % 8 == 0)
        printf("[%d] group %u square %lld\n", i, threadIdx.x / 8, (long long)x[i] * x[i]);
}
