#include <cuda_fp16.h>
extern "C" __global__ void k(__half*o,const __half*a,const __half*b){int i=threadIdx.x; __half x=__hadd(a[i],b[i]); x=__hmul(x,a[i]); x=__hfma(x,b[i],a[i]); o[i]=__hlt(x,a[i])?x:__hneg(x);}
