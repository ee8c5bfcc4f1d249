extern "C" __global__ void k(float*o,const float*a,int n){int i=threadIdx.x; if(i<n){float x=a[i]; o[i]= isnan(x)?1.f:(isinf(x)?2.f:(isfinite(x)?3.f:4.f));}}
