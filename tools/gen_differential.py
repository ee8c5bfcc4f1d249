#!/usr/bin/env python3
"""Regenerate the differential-only cases in tests/differential/.

Each case is a small NVRTC-compiled kernel exercising intrinsics and PTX
forms the corpus does not reach (dp4a/dp2a, match.any/all, f16 sign
operations, libdevice double math, 64-bit atomics, fast-math intrinsics,
...). The cases carry no expectations: `tests/corpus.rs` runs each one on the
PTX interpreter and compiled on the golden model and demands identical output
buffers, stdout and traps, for both PTX variants. Inputs are deterministic
pseudo-random words with special values mixed in (zeros, ones, all-ones,
1.0f, the canonical NaN, -0.0f), read as whatever type each kernel declares.

Usage:
  pip install nvidia-cuda-nvrtc-cu12==12.9.86 nvidia-cuda-runtime-cu12==12.9.79
  python3 tools/gen_differential.py            # all cases
  python3 tools/gen_differential.py dp4a ...   # only these
"""
import json
import os
import random
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "tests", "differential")
sys.path.insert(0, HERE)
from nvrtc import compile_cuda  # noqa: E402

H = '#include <cuda_fp16.h>\n'
K = {
'isnan': 'extern "C" __global__ void k(float*o,const float*a,int n){int i=threadIdx.x; if(i<n){float x=a[i]; o[i]= isnan(x)?1.f:(isinf(x)?2.f:(isfinite(x)?3.f:4.f));}}',
'isnan_d': 'extern "C" __global__ void k(double*o,const double*a,int n){int i=threadIdx.x; if(i<n){double x=a[i]; o[i]= isnan(x)?1.0:(isinf(x)?2.0:x);}}',
'signbit': 'extern "C" __global__ void k(int*o,const float*a){int i=threadIdx.x; o[i]=signbit(a[i])+2*signbit((double)a[i]);}',
'dp4a': 'extern "C" __global__ void k(int*o,const int*a,const int*b){int i=threadIdx.x; o[i]=__dp4a(a[i],b[i],i)+__dp2a_lo(a[i],b[i],1);}',
'dp4b': 'extern "C" __global__ void k(int*o,const unsigned*a,const int*b){int i=threadIdx.x; o[i]=__dp4a(a[i],(unsigned)b[i],7u)+__dp4a((int)a[i],b[i+1],-3)+__dp2a_hi((int)a[i],b[i],5)+__dp2a_lo((int)a[i],b[i+2],i)+__dp2a_hi(a[i],(unsigned)b[i],2u)+__dp2a_lo(a[i],(unsigned)b[i+3],9u);}',
'hneg': '#include <cuda_fp16.h>\nextern "C" __global__ void k(__half*o,__half2*p,const __half*a,const __half2*b){int i=threadIdx.x; o[i]=__hneg(a[i]); o[i+64]=__habs(a[i]); p[i]=__hneg2(b[i]); p[i+64]=__habs2(b[i]);}',
'match2': 'extern "C" __global__ void k(unsigned*o,const unsigned*a,const unsigned long long*b){int i=threadIdx.x; int p; if(a[i]&1){ o[i]=__match_any_sync(__activemask(),a[i]%5)+__match_any_sync(__activemask(),b[i]%3)*3;} else {o[i]=__match_all_sync(__activemask(),a[i]&2,&p)+p*5 + __match_all_sync(__activemask(),(b[i]&1ull)<<40,&p)*7+p;} o[i+64]=__match_all_sync(0xffffffff,1,&p)+p;}',
'lop3asm': '__device__ unsigned l3(unsigned a,unsigned b,unsigned c){unsigned d,e,f,g,h; asm("lop3.b32 %0,%1,%2,%3,0x96;":"=r"(d):"r"(a),"r"(b),"r"(c)); asm("lop3.b32 %0,%1,%2,%3,0xE8;":"=r"(e):"r"(a),"r"(b),"r"(c)); asm("lop3.b32 %0,%1,%2,%3,0x01;":"=r"(f):"r"(a),"r"(b),"r"(c)); asm("lop3.b32 %0,%1,%2,%3,0xFF;":"=r"(g):"r"(a),"r"(b),"r"(c)); asm("lop3.b32 %0,%1,%2,%3,0x5C;":"=r"(h):"r"(a),"r"(b),"r"(c)); return d^(e<<1)^(f*3)^g^(h*7);} extern "C" __global__ void k(unsigned*o,const unsigned*a){int i=threadIdx.x; o[i]=l3(a[i],a[i+64],a[i+128]); o[i+64]=l3(a[i],~a[i],i);}',
'testp': '__device__ unsigned tf(float x){unsigned r=0,p; asm("{.reg .pred q; testp.finite.f32 q,%1; selp.u32 %0,1,0,q;}":"=r"(p):"f"(x)); r|=p; asm("{.reg .pred q; testp.infinite.f32 q,%1; selp.u32 %0,2,0,q;}":"=r"(p):"f"(x)); r|=p; asm("{.reg .pred q; testp.number.f32 q,%1; selp.u32 %0,4,0,q;}":"=r"(p):"f"(x)); r|=p; asm("{.reg .pred q; testp.notanumber.f32 q,%1; selp.u32 %0,8,0,q;}":"=r"(p):"f"(x)); r|=p; asm("{.reg .pred q; testp.normal.f32 q,%1; selp.u32 %0,16,0,q;}":"=r"(p):"f"(x)); r|=p; asm("{.reg .pred q; testp.subnormal.f32 q,%1; selp.u32 %0,32,0,q;}":"=r"(p):"f"(x)); return r|p;} __device__ unsigned td(double x){unsigned r=0,p; asm("{.reg .pred q; testp.finite.f64 q,%1; selp.u32 %0,1,0,q;}":"=r"(p):"d"(x)); r|=p; asm("{.reg .pred q; testp.infinite.f64 q,%1; selp.u32 %0,2,0,q;}":"=r"(p):"d"(x)); r|=p; asm("{.reg .pred q; testp.number.f64 q,%1; selp.u32 %0,4,0,q;}":"=r"(p):"d"(x)); r|=p; asm("{.reg .pred q; testp.notanumber.f64 q,%1; selp.u32 %0,8,0,q;}":"=r"(p):"d"(x)); r|=p; asm("{.reg .pred q; testp.normal.f64 q,%1; selp.u32 %0,16,0,q;}":"=r"(p):"d"(x)); r|=p; asm("{.reg .pred q; testp.subnormal.f64 q,%1; selp.u32 %0,32,0,q;}":"=r"(p):"d"(x)); return r|p;} extern "C" __global__ void k(unsigned*o,const unsigned*a){int i=threadIdx.x; const unsigned f[9]={0x7f800000u,0xff800000u,0u,0x007fffffu,0x00800000u,0x7f7fffffu,0x7fc00000u,0x80000001u,a[i]}; const unsigned h[9]={0x7ff00000u,0xfff00000u,0u,0x000fffffu,0x00100000u,0x7fefffffu,0x7ff80000u,0x80000000u,a[i]}; int j=i%9; unsigned lo=(i/9)&1?a[i+64]:0u; o[i]=tf(__uint_as_float(f[j]))|td(__hiloint2double(h[j],lo))<<8;}',
'negftz': 'extern "C" __global__ void k(float*o,const float*a){int i=threadIdx.x; float x,y; asm("neg.ftz.f32 %0,%1;":"=f"(x):"f"(a[i])); asm("abs.ftz.f32 %0,%1;":"=f"(y):"f"(a[i+64])); o[i]=x; o[i+64]=y; o[i+128]=-a[i]; o[i+192]=fabsf(a[i+64]);}',
'bfind64': 'extern "C" __global__ void k(unsigned*o,const unsigned long long*a){int i=threadIdx.x; unsigned long long x=a[i]>>(i%64); long long y=(long long)a[i+64]>>(i%64); if(i%7==0){x=0;y=-1;} if(i%7==1){y=0;} unsigned r1,r2,r3,r4; asm("bfind.u64 %0,%1;":"=r"(r1):"l"(x)); asm("bfind.s64 %0,%1;":"=r"(r2):"l"(y)); asm("bfind.shiftamt.u64 %0,%1;":"=r"(r3):"l"(x)); asm("bfind.shiftamt.s64 %0,%1;":"=r"(r4):"l"(y)); o[i]=r1; o[i+64]=r2; o[i+128]=r3; o[i+192]=r4;}',
'bfe64': 'extern "C" __global__ void k(unsigned long long*o,const unsigned long long*a){int i=threadIdx.x; unsigned long long x=a[i]; unsigned pos=(unsigned)a[i+64]%80u, len=(unsigned)a[i+128]%70u; if(i%9==0) len=0; if(i%9==1) pos=300; long long r,q; unsigned long long u; asm("bfe.s64 %0,%1,%2,%3;":"=l"(r):"l"(x),"r"(pos),"r"(len)); asm("bfe.s64 %0,%1,13,9;":"=l"(q):"l"(x)); asm("bfe.u64 %0,%1,%2,%3;":"=l"(u):"l"(x),"r"(pos),"r"(len)); o[i]=r; o[i+64]=q; o[i+128]=u;}',
'sad': 'extern "C" __global__ void k(unsigned*o,const int*a,const int*b){int i=threadIdx.x; o[i]=__sad(a[i],b[i],3u)+__usad(a[i],b[i],1u);}',
'byteperm': 'extern "C" __global__ void k(unsigned*o,const unsigned*a){int i=threadIdx.x; o[i]=__byte_perm(a[i],a[i+1],0x5410)^__funnelshift_l(a[i],a[i+1],i)^__funnelshift_rc(a[i],a[i+1],i);}',
'bits64': 'extern "C" __global__ void k(long long*o,const unsigned long long*a){int i=threadIdx.x; unsigned long long x=a[i]; o[i]=__clzll(x)+__popcll(x)+__ffsll(x)+(long long)__brevll(x);}',
'lop3': 'extern "C" __global__ void k(unsigned*o,const unsigned*a,const unsigned*b,const unsigned*c){int i=threadIdx.x; o[i]=(a[i]&b[i])^(~c[i]|a[i]) ^ ((a[i]^b[i])&c[i]);}',
'half': H+'extern "C" __global__ void k(__half*o,const __half*a,const __half*b){int i=threadIdx.x; __half x=__hadd(a[i],b[i]); x=__hmul(x,a[i]); x=__hfma(x,b[i],a[i]); o[i]=__hlt(x,a[i])?x:__hneg(x);}',
'half2': H+'extern "C" __global__ void k(__half2*o,const __half2*a,const __half2*b){int i=threadIdx.x; o[i]=__hfma2(a[i],b[i],__hmul2(a[i],a[i]));}',
'halfconv': H+'extern "C" __global__ void k(float*o,const __half*a,__half*p){int i=threadIdx.x; o[i]=__half2float(a[i])*2.f; p[i]=__float2half_rz(o[i]+1.f);}',
'dmath': 'extern "C" __global__ void k(double*o,const double*a){int i=threadIdx.x; double x=a[i]; o[i]=sin(x)+cos(x)+exp(x)+log(fabs(x)+1.0)+sqrt(fabs(x))+pow(fabs(x),1.5)+atan2(x,1.0)+tanh(x)+cbrt(x);}',
'fmath': 'extern "C" __global__ void k(float*o,const float*a){int i=threadIdx.x; float x=a[i]; o[i]=sinf(x)+cosf(x)+expf(x)+logf(fabsf(x)+1.f)+sqrtf(fabsf(x))+powf(fabsf(x),1.5f)+atan2f(x,1.f)+tanhf(x)+erff(x)+fmodf(x,0.7f)+lgammaf(x)+cbrtf(x)+hypotf(x,2.f)+remainderf(x,.3f)+asinhf(x);}',
'fastmath': 'extern "C" __global__ void k(float*o,const float*a){int i=threadIdx.x; float x=a[i]; o[i]=__sinf(x)+__cosf(x)+__expf(x)+__logf(fabsf(x)+1.f)+__fdividef(x,3.f)+__powf(fabsf(x),.5f)+__saturatef(x)+rsqrtf(fabsf(x)+1)+__frcp_rn(x)+__fsqrt_rd(fabsf(x));}',
'atomics': 'extern "C" __global__ void k(double*d,unsigned long long*u,int*s,float*f){atomicAdd(d,1.0); atomicAdd(u,1ull); atomicMax(s,threadIdx.x); atomicMin((unsigned long long*)u+1,(unsigned long long)threadIdx.x); atomicExch(f,1.f); atomicInc((unsigned*)s+1,7u); atomicDec((unsigned*)s+2,7u); atomicCAS(u+2,0ull,5ull); atomicAnd(s+3,3); atomicOr((unsigned long long*)u+3,3ull);}',
'warp': 'extern "C" __global__ void k(int*o,const int*a){int i=threadIdx.x; int v=a[i]; unsigned m=__ballot_sync(0xffffffff,v>0); for(int s=16;s;s>>=1) v+=__shfl_down_sync(0xffffffff,v,s); v+=__shfl_xor_sync(0xffffffff,v,1)+__shfl_up_sync(0xffffffff,v,2)+__shfl_sync(0xffffffff,v,3,8); o[i]=v+__popc(m)+__any_sync(0xffffffff,v<0)+__all_sync(m,v>0)+__activemask();}',
'ints64': 'extern "C" __global__ void k(long long*o,const long long*a,const long long*b){int i=threadIdx.x; long long x=a[i],y=b[i]|1; o[i]=x/y + x%y + (long long)((unsigned long long)x/(unsigned long long)y) + __mul64hi(x,y) + __umul64hi(x,y) + (x>>(i&63)) + llabs(x)+ min(x,y) + max(x,y);}',
'conv': 'extern "C" __global__ void k(int*o,long long*l,unsigned*u,float*f,double*d,const float*a,const double*b){int i=threadIdx.x; float x=a[i]; double y=b[i]; o[i]=__float2int_rd(x)+__float2int_ru(x)+__double2int_rz(y); l[i]=__float2ll_rn(x)+__double2ll_ru(y)+(long long)__double2ull_rd(y); u[i]=__float2uint_rn(x); f[i]=__ll2float_rz(l[i])+__uint2float_rd(u[i])+__double2float_ru(y)+__int2float_rn(o[i]); d[i]=__ll2double_rn(l[i])+__uint2double_rn(u[i]);}',
'struct': 'struct S{int a; double b; char c[3];}; __device__ __noinline__ S f(S s,int k){ s.a+=k; s.b*=2; s.c[k%3]++; return s;} extern "C" __global__ void k(S*o,S in){ o[threadIdx.x]=f(in,threadIdx.x);}',
'recur': '__device__ __noinline__ int fib(int n){return n<2?n:fib(n-1)+fib(n-2);} extern "C" __global__ void k(int*o){o[threadIdx.x]=fib(threadIdx.x%12);}',
'fnptr': '__device__ int add1(int x){return x+1;} __device__ int dbl(int x){return 2*x;} typedef int(*F)(int); __device__ F tab[2]={add1,dbl}; extern "C" __global__ void k(int*o){F f=tab[threadIdx.x&1]; o[threadIdx.x]=f(threadIdx.x);}',
'localarr': 'extern "C" __global__ void k(int*o,const int*a){int t[33]; for(int j=0;j<33;j++) t[j]=a[j]*threadIdx.x; int s=0; for(int j=threadIdx.x%5;j<33;j+=3) s+=t[(j*7)%33]; o[threadIdx.x]=s;}',
'switch': 'extern "C" __global__ void k(int*o,const int*a){int x=a[threadIdx.x]; int r; switch(x&15){case 0:r=1;break;case 1:r=x*3;break;case 2:r=x^7;break;case 3:r=x-9;break;case 5:r=x<<2;break;case 7:r=-x;break;case 9:r=x/3;break;case 11:r=x%7;break;case 12: r=42; break; default:r=0;} o[threadIdx.x]=r;}',
'printf': 'extern "C" __global__ void k(const double*a){ printf("t%d %5.2f %lld %x %s %c %e %g %p\\n", threadIdx.x, a[threadIdx.x], (long long)threadIdx.x*1000000000ll, threadIdx.x, "hi", 65+threadIdx.x, a[0], a[1], a); }',
'malloc': 'extern "C" __global__ void k(int*o){int*p=(int*)malloc(16*sizeof(int)); for(int j=0;j<16;j++)p[j]=j*threadIdx.x; int s=0; for(int j=0;j<16;j++)s+=p[j]; free(p); o[threadIdx.x]=s;}',
'assert': 'extern "C" __global__ void k(int*o){assert(threadIdx.x<1000); o[threadIdx.x]=1;}',
'shared3d': 'extern "C" __global__ void k(float*o,const float*a){__shared__ float t[4][4][4]; int x=threadIdx.x,y=threadIdx.y,z=threadIdx.z; t[z][y][x]=a[(z*4+y)*4+x]; __syncthreads(); o[((blockIdx.z*gridDim.y+blockIdx.y)*gridDim.x+blockIdx.x)*64+(x*4+y)*4+z]=t[x][y][z]+t[y][z][x];}',
'syncs': 'extern "C" __global__ void k(int*o,const int*a){__shared__ int s[256]; s[threadIdx.x]=a[threadIdx.x]; int c=__syncthreads_count(s[threadIdx.x]>0); int n=__syncthreads_or(s[threadIdx.x]<0); int m=__syncthreads_and(s[threadIdx.x]!=5); __threadfence(); __threadfence_block(); o[threadIdx.x]=c+n+m;}',
'fdiv': 'extern "C" __global__ void k(float*o,double*d,const float*a){int i=threadIdx.x; o[i]=a[i]/a[i+1]+__fdiv_rd(a[i],3.f)+__fmul_ru(a[i],a[i])+__fadd_rz(a[i],1e-3f)+__fmaf_rn(a[i],2.f,1.f); d[i]=(double)a[i]/3.0+__dsqrt_ru((double)fabsf(a[i]))+__drcp_rn((double)a[i])+__dmul_rz(a[i],3.0)+__fma_rd(a[i],2.0,1.0);}',
'minmaxabs': 'extern "C" __global__ void k(float*o,int*q,const float*a,const int*b){int i=threadIdx.x; o[i]=fminf(a[i],a[i+1])+fmaxf(a[i],-a[i+1])+fabsf(a[i])+copysignf(a[i],a[i+1])+floorf(a[i])+ceilf(a[i])+truncf(a[i])+roundf(a[i])+rintf(a[i])+ldexpf(a[i],i)+frexpf(a[i],&q[i]); q[i]+=abs(b[i])+min(b[i],5)+umin((unsigned)b[i],7u)+__mulhi(b[i],b[i+1])+__umulhi(b[i],b[i+1])+__mul24(b[i],3)+__hadd(b[i],b[i+1])+__rhadd(b[i],b[i+1]);}',
'vec': 'extern "C" __global__ void k(float4*o,const float4*a,const int2*b,double2*d){int i=threadIdx.x; float4 v=a[i]; v.x+=b[i].x; v.w*=b[i].y; o[i]=v; double2 e=d[i]; e.x+=e.y; d[i]=e;}',
'ldg': 'extern "C" __global__ void k(float* __restrict__ o,const float* __restrict__ a){int i=threadIdx.x; o[i]=__ldg(a+i)+__ldcg(a+i+1)+__ldcs(a+i+2); __stcs(o+i+32, 1.f); __stwt(o+i+64, 2.f);}',
'cglike': 'extern "C" __global__ void k(unsigned*o){unsigned l; asm("mov.u32 %0, %%laneid;":"=r"(l)); unsigned w; asm("mov.u32 %0, %%warpid;":"=r"(w)); unsigned m; asm("mov.u32 %0, %%lanemask_lt;":"=r"(m)); o[threadIdx.x]=l+ (m<<8) + clock()*0 + (unsigned)(clock64()*0);}',
'matchany': 'extern "C" __global__ void k(unsigned*o,const int*a){o[threadIdx.x]=__match_any_sync(0xffffffff,a[threadIdx.x]);}',
'brev': 'extern "C" __global__ void k(unsigned*o,const unsigned*a){unsigned x=a[threadIdx.x]; o[threadIdx.x]=__brev(x)+__clz(x)+__ffs(x)+__popc(x)+(x>>((threadIdx.x)&31))+(unsigned)((int)x>>(threadIdx.x&31));}',
}

# Launch shapes other than one CTA of 64 threads.
SHAPES = {"shared3d": ([2, 2, 2], [4, 4, 4])}
WORDS = 512
SPECIAL = [0, 1, 5, 0xFFFFFFFF, 0x3F800000, 0x7FC00000, 0x80000000]


def cuda_include():
    import nvidia.cuda_runtime as rt  # type: ignore

    return os.path.join(list(rt.__path__)[0], "include")


def words(rng):
    out = []
    for q in range(WORDS):
        r = rng.random()
        if r < 0.3:
            out.append(rng.choice(SPECIAL + [q, (q * 3 - 7) & 0xFFFFFFFF]))
        elif r < 0.6:
            out.append(rng.getrandbits(32))
        else:
            out.append(rng.randint(0, 100))
    return out


def params_of(ptx):
    """(kind, size) of each .entry parameter: ("ptr"|"u32"|"struct", bytes)."""
    body = re.search(r"\.entry k\((.*?)\)", ptx, re.S).group(1)
    out = []
    for decl in body.split(","):
        m = re.search(r"\.param\s+(?:\.align\s+(\d+)\s+)?\.(\w+)\s+\S+?(?:\[(\d+)\])?\s*$", decl.strip())
        align, ty, n = m.groups()
        if n:
            out.append(("struct", int(n), int(align or 1)))
        elif ty in ("u64", "b64"):
            out.append(("ptr", 8, 8))
        else:
            out.append(("u32", 4, 4))
    return out


def build(name, src, inc):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "kernel.cu"), "w") as f:
        f.write(src + "\n")
    ptx = {}
    for arch, fname in (("compute_75", "kernel.ptx"), ("compute_52", "kernel.sm52.ptx")):
        try:
            ptx[arch] = compile_cuda(src, "kernel.cu", arch, ["-default-device", "--std=c++17", "-I" + inc])
        except SystemExit:
            continue  # an sm_70+ intrinsic: compute_75 only
        with open(os.path.join(d, fname), "w") as f:
            f.write(ptx[arch])
    rng = random.Random(sum(map(ord, name)))
    params = []
    for j, (kind, size, align) in enumerate(params_of(ptx["compute_75"])):
        if kind == "u32":
            params.append({"type": "u32", "value": 40})
        elif kind == "struct":
            params.append({"type": "struct", "align": align, "size": size, "bytes": bytes(rng.getrandbits(8) for _ in range(size)).hex()})
        else:
            b = f"b{j}"
            with open(os.path.join(d, b + ".bin"), "wb") as f:
                f.write(struct.pack(f"<{WORDS}I", *words(rng)))
            params.append({"type": "buffer", "name": b, "dtype": "u32", "count": WORDS, "file": b + ".bin", "output": True})
    grid, block = SHAPES.get(name, ([1, 1, 1], [64, 1, 1]))
    variants = {"compute_75": "kernel.ptx"}
    if "compute_52" in ptx:
        variants["compute_52"] = "kernel.sm52.ptx"
    case = {"name": name, "kernel": "k", "ptx": variants, "grid": grid, "block": block, "dynamic_shared_bytes": 0, "params": params, "expect": {}}
    if name in ("printf", "malloc"):
        case["expect_stdout_unordered_lines"] = True
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump(case, f, indent=1)
        f.write("\n")


def main():
    inc = cuda_include()
    only = sys.argv[1:]
    for name, src in K.items():
        if not only or name in only:
            build(name, src, inc)
            print(name)


if __name__ == "__main__":
    main()
