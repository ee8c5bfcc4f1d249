struct Params {
    int a;
    float scale;
    double offset;
    char tag[3];
    short s;
    unsigned long long mask;
};

struct Vec3 {
    float x, y, z;
};

__device__ __noinline__ Vec3 scale_vec(Vec3 v, float s)
{
    Vec3 r = {v.x * s, v.y * s, v.z * s};
    return r;
}

__device__ __noinline__ int sum_params(Params p)
{
    return p.a + p.tag[0] + p.tag[1] + p.tag[2] + p.s;
}

extern "C" __global__ void structs(Params p, const Vec3 *in, Vec3 *out, double *dout,
                                   unsigned long long *mout, int *iout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Vec3 v = scale_vec(in[i], p.scale);
    out[i] = v;
    dout[i] = p.offset + (double)i;
    mout[i] = p.mask >> (i & 63);
    iout[i] = sum_params(p) + i;
}
