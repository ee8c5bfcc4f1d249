extern "C" __global__ void bits(const unsigned *a, const unsigned *b, const unsigned long long *c,
                                unsigned *o, unsigned long long *o64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i];
    unsigned long long z = c[i];
    unsigned s = y >> 26;  // 0..63
    unsigned *r = o + 18 * i;
    r[0] = __popc(x);
    r[1] = __clz(x);
    r[2] = __ffs(x);
    r[3] = __brev(x);
    r[4] = __byte_perm(x, y, (y ^ x) & 0x7777);
    r[5] = __byte_perm(x, y, 0x0123);
    r[6] = __funnelshift_l(x, y, s);
    r[7] = __funnelshift_r(x, y, s);
    r[8] = __funnelshift_lc(x, y, s);
    r[9] = __funnelshift_rc(x, y, s);
    r[10] = (x >> (y & 31)) & 31u;
    r[11] = (x & ~(0xffu << 8)) | ((y & 0xffu) << 8);
    r[12] = __popcll(z);
    r[13] = __clzll(z);
    r[14] = __ffsll(z);
    r[15] = 31 - __clz(x);
    r[16] = __byte_perm(x, 0, 0x4440 | (y & 3));
    r[17] = (x << (y & 15)) >> 16;
    o64[i] = __brevll(z);
}
