extern "C" __global__ void small_ints(const signed char *a, const unsigned char *b, const short *c,
                                      const unsigned short *d, short *o1, unsigned char *o2, int *o3,
                                      unsigned short *o4, signed char *o5, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    o1[i] = (short)(a[i] * b[i]);
    o2[i] = (unsigned char)(b[i] + a[i]);
    o3[i] = c[i] * (int)(d[i] >> 2) + a[i];
    o4[i] = (unsigned short)((d[i] >> (b[i] & 7)) | ((unsigned)c[i] << 4));
    o5[i] = (signed char)(c[i] >> 3);
}
