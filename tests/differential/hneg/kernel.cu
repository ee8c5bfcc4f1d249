#include <cuda_fp16.h>
extern "C" __global__ void k(__half*o,__half2*p,const __half*a,const __half2*b){int i=threadIdx.x; o[i]=__hneg(a[i]); o[i+64]=__habs(a[i]); p[i]=__hneg2(b[i]); p[i+64]=__habs2(b[i]);}
