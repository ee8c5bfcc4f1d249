extern "C" __global__ void k(int*o){int*p=(int*)malloc(16*sizeof(int)); for(int j=0;j<16;j++)p[j]=j*threadIdx.x; int s=0; for(int j=0;j<16;j++)s+=p[j]; free(p); o[threadIdx.x]=s;}
