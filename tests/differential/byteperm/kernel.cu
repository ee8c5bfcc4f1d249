extern "C" __global__ void k(unsigned*o,const unsigned*a){int i=threadIdx.x; o[i]=__byte_perm(a[i],a[i+1],0x5410)^__funnelshift_l(a[i],a[i+1],i)^__funnelshift_rc(a[i],a[i+1],i);}
