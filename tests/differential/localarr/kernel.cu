extern "C" __global__ void k(int*o,const int*a){int t[33]; for(int j=0;j<33;j++) t[j]=a[j]*threadIdx.x; int s=0; for(int j=threadIdx.x%5;j<33;j+=3) s+=t[(j*7)%33]; o[threadIdx.x]=s;}
