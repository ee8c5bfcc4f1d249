extern "C" __global__ void ids3d(unsigned *out)
{
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    unsigned tlin = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned blin = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
    unsigned g = blin * nthreads + tlin;
    out[g * 4 + 0] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16 | lane << 24;
    out[g * 4 + 1] = blockIdx.x | blockIdx.y << 8 | blockIdx.z << 16;
    out[g * 4 + 2] = blockDim.x | blockDim.y << 8 | blockDim.z << 16;
    out[g * 4 + 3] = gridDim.x | gridDim.y << 8 | gridDim.z << 16 | (tlin / warpSize) << 24;
}
