extern "C" __global__ void k(float4*o,const float4*a,const int2*b,double2*d){int i=threadIdx.x; float4 v=a[i]; v.x+=b[i].x; v.w*=b[i].y; o[i]=v; double2 e=d[i]; e.x+=e.y; d[i]=e;}
