#define B 16

extern "C" __global__ void stencil5(const int *in, int *out, int w, int h)
{
    __shared__ int tile[B + 2][B + 2];
    int gx = blockIdx.x * B + threadIdx.x;
    int gy = blockIdx.y * B + threadIdx.y;
    #pragma unroll 1
    for (int t = threadIdx.y * B + threadIdx.x; t < (B + 2) * (B + 2); t += B * B) {
        int ty = t / (B + 2), tx = t % (B + 2);
        int sx = min(max((int)(blockIdx.x * B) + tx - 1, 0), w - 1);
        int sy = min(max((int)(blockIdx.y * B) + ty - 1, 0), h - 1);
        tile[ty][tx] = in[sy * w + sx];
    }
    __syncthreads();
    if (gx < w && gy < h) {
        int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
        out[gy * w + gx] = 4 * tile[ty][tx] - tile[ty - 1][tx] - tile[ty + 1][tx]
                           - tile[ty][tx - 1] - tile[ty][tx + 1];
    }
}
