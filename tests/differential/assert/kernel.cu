extern "C" __global__ void k(int*o){assert(threadIdx.x<1000); o[threadIdx.x]=1;}
