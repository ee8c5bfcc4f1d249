struct S{int a; double b; char c[3];}; __device__ __noinline__ S f(S s,int k){ s.a+=k; s.b*=2; s.c[k%3]++; return s;} extern "C" __global__ void k(S*o,S in){ o[threadIdx.x]=f(in,threadIdx.x);}
