extern "C" __global__ void k(unsigned*o,const unsigned*a,const unsigned*b,const unsigned*c){int i=threadIdx.x; o[i]=(a[i]&b[i])^(~c[i]|a[i]) ^ ((a[i]^b[i])&c[i]);}
