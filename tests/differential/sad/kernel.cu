extern "C" __global__ void k(unsigned*o,const int*a,const int*b){int i=threadIdx.x; o[i]=__sad(a[i],b[i],3u)+__usad(a[i],b[i],1u);}
