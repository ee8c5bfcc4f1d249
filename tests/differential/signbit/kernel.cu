extern "C" __global__ void k(int*o,const float*a){int i=threadIdx.x; o[i]=signbit(a[i])+2*signbit((double)a[i]);}
