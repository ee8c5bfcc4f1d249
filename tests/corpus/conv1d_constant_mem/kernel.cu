#define R 4
#define BS 128

__constant__ float coeff[2 * R + 1] = {0.0625f, -0.125f, 0.25f, 0.699999988079071f, 1.0f, 0.699999988079071f, 0.25f, -0.125f, 0.0625f};
__constant__ unsigned lut[16] = {0x9e3779b9u, 0x3c6ef372u, 0xdaa66d2bu, 0x78dde6e4u, 0x1715609du, 0xb54cda56u, 0x5384540fu, 0xf1bbcdc8u, 0x8ff34781u, 0x2e2ac13au, 0xcc623af3u, 0x6a99b4acu, 0x08d12e65u, 0xa708a81eu, 0x454021d7u, 0xe3779b90u};
__device__ unsigned gbias[4] = {0x11111111u, 0x2222u, 0x3u, 0x40000000u};

extern "C" __global__ void conv1d(const float *x, float *y, unsigned *z, int n)
{
    __shared__ float tile[BS + 2 * R];
    int t = threadIdx.x;
    int i = blockIdx.x * BS + t;
    tile[t + R] = i < n ? x[i] : 0.0f;
    if (t < R) {
        int l = i - R;
        tile[t] = l >= 0 ? x[l] : 0.0f;
        int rr = blockIdx.x * BS + BS + t;
        tile[t + BS + R] = rr < n ? x[rr] : 0.0f;
    }
    __syncthreads();
    if (i < n) {
        float acc = 0.0f;
        #pragma unroll
        for (int k = 0; k <= 2 * R; ++k)
            acc = fmaf(coeff[k], tile[t + k], acc);
        y[i] = acc;
        z[i] = (lut[(unsigned)__float_as_int(x[i]) & 15] ^ lut[i & 15]) + gbias[i & 3];
    }
}
