extern "C" __global__ void switches(const int *x, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = x[i];
    int r = 0;
    switch (v % 12) {
    case 0: r = v; break;
    case 1: r = v * 2; break;
    case 2: r = v + 100; break;
    case 3: r = -v; break;
    case 4: r = v ^ 0xff; break;
    case 5: r = v >> 1;  // fall through
    case 6: r += 3; break;
    case 7: r = v * v; break;
    case 8: r = 8; break;
    case 9: r = v - 9; break;
    case 10: r = v & 0xf0f; break;
    default: r = -1; break;
    }
    int s;
    switch (v) {
    case -7: s = 1; break;
    case 3: s = 2; break;
    case 100: s = 3; break;
    case 1000: s = 4; break;
    case 65536: s = 5; break;
    default: s = 0; break;
    }
    out[2 * i] = r;
    out[2 * i + 1] = s;
}
