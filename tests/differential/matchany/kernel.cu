extern "C" __global__ void k(unsigned*o,const int*a){o[threadIdx.x]=__match_any_sync(0xffffffff,a[threadIdx.x]);}
