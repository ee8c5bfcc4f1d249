extern "C" __global__ void atomics64(const long long *x, unsigned long long *u, long long *s,
                                     unsigned long long *slots, unsigned long long *own,
                                     unsigned long long *olds, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long v = x[i];
    unsigned long long uv = (unsigned long long)v;
    atomicAdd(&u[0], uv);
    atomicMin(&s[0], v);
    atomicMax(&s[1], v);
    atomicMin(&u[1], uv);
    atomicMax(&u[2], uv);
    atomicAnd(&u[3], uv | (1ull << (i & 63)));
    atomicOr(&u[4], uv & 0x00ff00ff00ff00ffull);
    atomicXor(&u[5], uv);
    unsigned long long t = atomicAdd(&u[6], 1ull);
    atomicAdd(&slots[t % 32], t);
    olds[2 * i] = atomicExch(&own[i], uv);
    olds[2 * i + 1] = atomicCAS(&own[i], uv, uv ^ 0xffff0000ffffull);
}
