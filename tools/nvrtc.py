"""Compile CUDA C++ to PTX with NVIDIA's NVRTC (PyPI nvidia-cuda-nvrtc-cu12), no GPU needed.

    python3 tools/nvrtc.py kernel.cu --arch compute_75 -o kernel.ptx
"""
import argparse
import ctypes
import glob
import os
import sys


def load_nvrtc():
    import nvidia.cuda_nvrtc as pkg  # type: ignore

    base = list(pkg.__path__)[0]
    libs = sorted(glob.glob(os.path.join(base, "lib", "libnvrtc.so*")))
    if not libs:
        sys.exit("libnvrtc.so not found in the nvidia-cuda-nvrtc-cu12 package")
    return ctypes.CDLL(libs[0])


def compile_cuda(source: str, name: str, arch: str, extra=()) -> str:
    nvrtc = load_nvrtc()
    prog = ctypes.c_void_p()
    check = lambda r, what: r == 0 or sys.exit(f"{what} failed: {r}")
    check(nvrtc.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), name.encode(), 0, None, None), "nvrtcCreateProgram")
    opts = [f"--gpu-architecture={arch}".encode()] + [o.encode() for o in extra]
    arr = (ctypes.c_char_p * len(opts))(*opts)
    res = nvrtc.nvrtcCompileProgram(prog, len(opts), arr)
    size = ctypes.c_size_t()
    nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    nvrtc.nvrtcGetProgramLog(prog, log)
    if res != 0:
        sys.exit(f"{name}: compilation failed\n{log.value.decode()}")
    nvrtc.nvrtcGetPTXSize(prog, ctypes.byref(size))
    ptx = ctypes.create_string_buffer(size.value)
    nvrtc.nvrtcGetPTX(prog, ptx)
    return ptx.value.decode()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("source")
    ap.add_argument("--arch", default="compute_75")
    ap.add_argument("-o", "--output")
    ap.add_argument("extra", nargs="*")
    a, unknown = ap.parse_known_args()
    a.extra += unknown
    text = open(a.source).read()
    ptx = compile_cuda(text, os.path.basename(a.source), a.arch, a.extra)
    if a.output:
        open(a.output, "w").write(ptx)
    else:
        sys.stdout.write(ptx)
