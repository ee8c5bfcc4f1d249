#!/usr/bin/env python3
"""Regenerate the kernel corpus in tests/corpus/ (issue 4, section 3).

For every case this writes tests/corpus/<name>/:
  kernel.cu          the CUDA C++ source
  kernel.ptx         NVRTC 12.9, --gpu-architecture=compute_75
  kernel.sm52.ptx    NVRTC 12.9, --gpu-architecture=compute_52
  case.json          the launch manifest (issue 4, section 2)
  <buf>.bin          input buffers, little-endian packed
  expected_<buf>.bin expected outputs, computed by the CPU references in tools/corpus/

Usage:
  pip install nvidia-cuda-nvrtc-cu12==12.9.86 nvidia-cuda-runtime-cu12==12.9.79 nvidia-cuda-nvcc-cu12==12.9.86
  python3 tools/gen_corpus.py                 # all cases
  python3 tools/gen_corpus.py vec_add_f32 ... # only these
  python3 tools/gen_corpus.py --list          # names and descriptions
  python3 tools/gen_corpus.py --no-ptxas      # skip the ptxas validation
  python3 tools/corpus/host_check.py          # check every expectation against the kernel run on the host

tests/corpus/README.md is rewritten from the case list when all cases are generated.

The output is deterministic: fixed seeds, no timestamps; running it twice gives
identical files. Every PTX file is validated with ptxas (sm_75 / sm_52) when the
nvidia-cuda-nvcc-cu12 package is installed.
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(ROOT, "tests", "corpus")
sys.path.insert(0, HERE)

from nvrtc import compile_cuda  # noqa: E402
from corpus import common, readme  # noqa: E402
from corpus import (  # noqa: E402,F401  (registration order = README order)
    cases_basic, cases_sync, cases_warp, cases_atomic, cases_control, cases_int, cases_float, cases_sys,
)

VARIANTS = (("compute_75", "kernel.ptx", "sm_75"), ("compute_52", "kernel.sm52.ptx", "sm_52"))


def cuda_include():
    try:
        import nvidia.cuda_runtime as rt  # type: ignore
    except ImportError:
        return None
    return os.path.join(list(rt.__path__)[0], "include")


def ptxas_path():
    try:
        import nvidia.cuda_nvcc as nv  # type: ignore
    except ImportError:
        return None
    p = os.path.join(list(nv.__path__)[0], "bin", "ptxas")
    return p if os.path.exists(p) else None


def build(case, use_ptxas, warnings):
    d = os.path.join(OUT, case.name)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    src = case.source.lstrip("\n")
    with open(os.path.join(d, "kernel.cu"), "w") as f:
        f.write(src)
    opts = list(case.nvrtc_opts)
    if "#include <cuda_fp16.h>" in src:
        inc = cuda_include()
        if inc is None:
            sys.exit("cuda_fp16.h needed: pip install nvidia-cuda-runtime-cu12")
        opts.append("-I" + inc)
    for arch, fname, sm in VARIANTS:
        ptx = compile_cuda(src, "kernel.cu", arch, opts)
        if f".entry {case.kernel}(" not in ptx:
            sys.exit(f"{case.name}: entry {case.kernel} not found in the {arch} PTX")
        path = os.path.join(d, fname)
        with open(path, "w") as f:
            f.write(ptx)
        if use_ptxas:
            r = subprocess.run([use_ptxas, f"-arch={sm}", path, "-o", os.devnull],
                               capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"{case.name}/{fname}: ptxas failed\n{r.stderr}")
            if r.stderr.strip():
                warnings.append(f"{case.name}/{fname}: {r.stderr.strip()}")
    for fname, data in sorted(case.files.items()):
        with open(os.path.join(d, fname), "wb") as f:
            f.write(data)
    with open(os.path.join(d, "case.json"), "w") as f:
        f.write(case.manifest())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--no-ptxas", action="store_true")
    a = ap.parse_args()
    cases = [fn() for fn in common.REGISTRY]
    names = [c.name for c in cases]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        sys.exit(f"duplicate case names: {sorted(dup)}")
    if a.list:
        for c in cases:
            print(f"{c.name}: {c.description}")
        return
    if a.names:
        unknown = set(a.names) - set(names)
        if unknown:
            sys.exit(f"unknown cases: {sorted(unknown)}")
        cases = [c for c in cases if c.name in a.names]
    use_ptxas = None if a.no_ptxas else ptxas_path()
    if not a.no_ptxas and use_ptxas is None:
        print("note: ptxas not found (pip install nvidia-cuda-nvcc-cu12): PTX not validated")
    warnings = []
    for c in cases:
        build(c, use_ptxas, warnings)
        print(f"{c.name}")
    if not a.names:
        with open(os.path.join(OUT, "README.md"), "w") as f:
            f.write(readme.render(cases))
        # remove case folders that no longer have a builder
        for entry in sorted(os.listdir(OUT)):
            p = os.path.join(OUT, entry)
            if os.path.isdir(p) and entry not in names:
                shutil.rmtree(p)
    for w in warnings:
        print("ptxas warning:", w)
    print(f"{len(cases)} cases written to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
