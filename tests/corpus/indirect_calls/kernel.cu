typedef unsigned (*op_t)(unsigned, unsigned);

__device__ unsigned op_add(unsigned a, unsigned b) { return a + b; }
__device__ unsigned op_sub(unsigned a, unsigned b) { return a - b; }
__device__ unsigned op_mul(unsigned a, unsigned b) { return a * b; }
__device__ unsigned op_xor(unsigned a, unsigned b) { return a ^ (b << 3); }

__device__ op_t ops[4] = {op_add, op_sub, op_mul, op_xor};

extern "C" __global__ void indirect(const unsigned *x, const unsigned *y, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    op_t f = ops[x[i] & 3];
    unsigned r = f(x[i], y[i]);
    op_t g = (r & 1) ? ops[(i >> 2) & 3] : ops[3 - (i & 3)];
    out[i] = g(r, i);
}
