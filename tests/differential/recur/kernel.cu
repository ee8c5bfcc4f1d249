__device__ __noinline__ int fib(int n){return n<2?n:fib(n-1)+fib(n-2);} extern "C" __global__ void k(int*o){o[threadIdx.x]=fib(threadIdx.x%12);}
