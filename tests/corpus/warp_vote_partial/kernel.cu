extern "C" __global__ void votes(const int *x, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    unsigned full = __activemask();
    int v = x[i];
    unsigned b_pos = __ballot_sync(full, v > 0);
    bool odd = v & 1;
    unsigned m_odd = __ballot_sync(full, odd);
    unsigned r_ballot, r_any, r_all, r_inner = 0xdeadbeefu;
    if (odd) {
        r_ballot = __ballot_sync(m_odd, v > 100);
        r_any = __any_sync(m_odd, v < -900);
        r_all = __all_sync(m_odd, v > -1100);
        bool big = v > 0;
        unsigned m_big = __ballot_sync(m_odd, big);
        if (big)
            r_inner = __ballot_sync(m_big, v % 3 == 0) ^ (__popc(m_big) << 24);
    } else {
        unsigned m_even = full & ~m_odd;
        r_ballot = __ballot_sync(m_even, lane < 16);
        r_any = __any_sync(m_even, v == 0);
        r_all = __all_sync(m_even, v >= -1150);
    }
    unsigned *o = out + 7 * i;
    o[0] = full;
    o[1] = b_pos;
    o[2] = m_odd;
    o[3] = r_ballot;
    o[4] = r_any;
    o[5] = r_all;
    o[6] = r_inner;
}
