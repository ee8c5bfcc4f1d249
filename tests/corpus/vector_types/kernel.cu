extern "C" __global__ void vec_types(const float4 *a, const int2 *b, const double2 *c,
                                     float4 *oa, int2 *ob, double *oc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 v = a[i];
    oa[i] = make_float4(v.w, v.z + v.x, v.y * 2.0f, -v.x);
    int2 w = b[i];
    ob[i] = make_int2(w.x + w.y, w.x - w.y);
    double2 d = c[i];
    oc[i] = d.x + d.y;
}
