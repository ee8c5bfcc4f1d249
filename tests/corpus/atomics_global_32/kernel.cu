extern "C" __global__ void atomics32(const int *x, int *acc, unsigned *uacc, float *fsum,
                                     unsigned *tickets, unsigned *own, unsigned *olds, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = x[i];
    unsigned u = (unsigned)v;
    atomicAdd(&acc[0], v);
    atomicSub(&acc[1], v);
    atomicMin(&acc[2], v);
    atomicMax(&acc[3], v);
    atomicAnd(&acc[4], v | (1 << (i & 31)));
    atomicOr(&acc[5], v & 0x0f0f0f0f);
    atomicXor(&acc[6], v);
    atomicMin(&uacc[0], u);
    atomicMax(&uacc[1], u);
    atomicInc(&uacc[2], 1000u);
    atomicDec(&uacc[3], 777u);
    atomicAdd(&fsum[i & 1], (float)(v & 1023));
    unsigned t = atomicAdd(&uacc[4], 1u);
    atomicAdd(&tickets[t % 64], 1u);
    olds[2 * i] = atomicExch(&own[i], u);
    olds[2 * i + 1] = atomicCAS(&own[i], u, u ^ 0xffffu);
}
