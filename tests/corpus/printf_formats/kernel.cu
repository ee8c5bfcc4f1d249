extern "C" __global__ void formats(const int *x, const double *d)
{
    if (threadIdx.x != 3)
        return;
    printf("int %d %i %u %x %X %o\n", x[0], x[1], (unsigned)x[2], x[3], x[3], x[4]);
    printf("width [%5d] [%-5d] [%05d] [%+d]\n", x[5], x[5], x[5], x[5]);
    printf("long %ld %lld %llu %llx\n", (long)x[0] * 100000, (long long)x[1] * 3000000000LL,
           18446744073709551615ULL, 0x123456789abcdefULL);
    printf("char %c%c%c str %s [%8s] [%-6s]\n", 'G', 'P', 'U', "heddle", "pad", "left");
    printf("float %f %.3f %e %g %g\n", d[0], d[1], d[2], d[3], (float)d[4]);
    printf("percent %% done\n");
    #pragma unroll 1
    for (int k = 0; k < 3; ++k)
        printf("loop %d\n", k * x[0]);
}
