extern "C" __device__ void __assertfail(const char *message, const char *file, unsigned int line,
                                        const char *function, size_t charSize);
#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, sizeof(char)))

extern "C" __global__ void checked(const int *x, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = x[i];
    assert(v >= 0);
    if (v & 1)
        assert(v % 2 == 1);
    assert(v < 1000 || i == 0);
    out[i] = v * 2 + 1;
}
