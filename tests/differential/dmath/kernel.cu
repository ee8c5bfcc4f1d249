extern "C" __global__ void k(double*o,const double*a){int i=threadIdx.x; double x=a[i]; o[i]=sin(x)+cos(x)+exp(x)+log(fabs(x)+1.0)+sqrt(fabs(x))+pow(fabs(x),1.5)+atan2(x,1.0)+tanh(x)+cbrt(x);}
