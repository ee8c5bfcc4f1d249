extern "C" __global__ void map2d(const int *in, int *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        int v = in[y * w + x];
        out[y * w + x] = v * 2 + x - 3 * y;
    }
}
