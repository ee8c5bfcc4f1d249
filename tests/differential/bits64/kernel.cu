extern "C" __global__ void k(long long*o,const unsigned long long*a){int i=threadIdx.x; unsigned long long x=a[i]; o[i]=__clzll(x)+__popcll(x)+__ffsll(x)+(long long)__brevll(x);}
