extern "C" __global__ void saxpy(float a, const float *__restrict__ x, float *__restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];   // NVRTC contracts this to fma.rn.f32 (--fmad=true)
}
