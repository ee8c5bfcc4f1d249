extern "C" __global__ void nested(const int *x, int *out, int *trace, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = x[i];
    int r = 0;
    int tr = 3;
    if (v & 1) {
        if (v & 2) {
            if (v & 4) {
                r = v * 3;
            } else {
                if (v & 8) {
                    out[i] = -1;
                    trace[i] = 1;
                    return;
                }
                r = v + 7;
            }
        } else {
            r = v - 5;
            if (v & 16)
                r <<= 1;
        }
    } else if (v & 2) {
        #pragma unroll 1
        for (int k = 0; k < (v & 7) + 2; ++k) {
            if (k == 3 && (v & 32))
                break;
            r += k * v;
        }
    } else {
        r = v ^ 0x5a5a;
        if (v & 64) {
            if (v & 128) {
                r = ~r;
            } else {
                out[i] = -2;
                trace[i] = 2;
                return;
            }
        }
    }
    // a loop with two exits, one of them a goto past the common tail
    int j = 0;
    #pragma unroll 1
    while (true) {
        if (j * j > (v & 255))
            break;
        if (((v >> j) & 3) == 3 && j > 2) {
            r += 1000 * j;
            tr = 4;
            goto done;
        }
        ++j;
    }
    r += __popc(v) * 10000;
done:
    out[i] = r;
    trace[i] = tr;
}
