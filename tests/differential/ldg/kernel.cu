extern "C" __global__ void k(float* __restrict__ o,const float* __restrict__ a){int i=threadIdx.x; o[i]=__ldg(a+i)+__ldcg(a+i+1)+__ldcs(a+i+2); __stcs(o+i+32, 1.f); __stwt(o+i+64, 2.f);}
