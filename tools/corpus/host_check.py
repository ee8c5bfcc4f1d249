#!/usr/bin/env python3
"""Independent check of the corpus' expected outputs: compile each tests/corpus/<case>/kernel.cu
for the host CPU with hostsim.h (coroutine threads, host FPU rounding modes, F16C), run the
launch its case.json describes, and compare every expectation (buffers with their tolerance,
stdout, trap) the way `heddle run --manifest` must.

The expected files come from the Python references in tools/corpus/; this runs the CUDA source
itself, so a mistake in a reference (or in the source) shows up as a mismatch.

    python3 tools/corpus/host_check.py [CASE...]
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(ROOT, "tests", "corpus")
sys.path.insert(0, os.path.dirname(HERE))
from corpus.common import DTYPES, pack  # noqa: E402
from corpus import fp  # noqa: E402

# SFU approximations (__sinf, ex2.approx, ...) have no host counterpart
SKIP = {"fast_math_intrinsics": "SFU approximation intrinsics", "fast_math_flag": "--use_fast_math"}
# NVRTC contracts a*b+c into fma here (the references assume it); let g++ do the same
CONTRACT = {"saxpy_restrict_fma", "double_arith", "device_calls"}
NAN_ONLY = [0]
KERNEL_EXPR = {"_Z4axpbIiEvPKT_PS0_S0_S0_i": "axpb<int>"}
CTYPE = {"u32": "unsigned", "s32": "int", "u64": "unsigned long long", "s64": "long long",
         "f32": "float", "f64": "double"}
FMT = {"f16": fp.F16, "f32": fp.F32, "f64": fp.F64}


def host_source(src):
    src = src.replace("#include <cuda_fp16.h>", "")
    src = re.sub(r"extern\s+__shared__\s+([\w ]+?)\s+(\w+)\s*\[\s*\]\s*;",
                 r"\1 *\2 = (\1 *)__dyn_smem;", src)
    src = re.sub(r'asm\s+volatile\s*\(\s*"mov\.u32 %0, %%laneid;"\s*:\s*"=r"\s*\((\w+)\)\s*\)\s*;',
                 r"\1 = __laneid();", src)
    return src


def unpack(dtype, data):
    code, size = DTYPES[dtype]
    return list(struct.unpack("<%d%s" % (len(data) // size, code), data))


def compare(dtype, got, exp, tol):
    """(number of mismatches, first index, got, expected)."""
    bad, first = 0, None
    nan_only = NAN_ONLY
    f = FMT.get(dtype)
    for i, (g, e) in enumerate(zip(got, exp)):
        ok = g == e
        if not ok and f is not None and fp.is_nan(g, f) and fp.is_nan(e, f):
            ok = True  # the host FPU's NaN is not the GPU's canonical NaN
            nan_only[0] += 1
        if not ok and f is not None and tol is not None:
            if fp.is_nan(e, f) or fp.is_nan(g, f) or fp.is_inf(e, f) or fp.is_inf(g, f):
                ok = False
            elif "ulp" in tol:
                ok = fp.ulp_diff(g, e, f) <= tol["ulp"]
            else:
                gv, ev = fp.to_float(g, f), fp.to_float(e, f)
                ok = abs(gv - ev) <= tol.get("abs", 0) + tol.get("rel", 0) * abs(ev)
        if not ok:
            bad += 1
            if first is None:
                first = (i, g, e)
    if len(got) != len(exp):
        bad += 1
    return bad, first


def check(name, work):
    d = os.path.join(CORPUS, name)
    m = json.load(open(os.path.join(d, "case.json")))
    src = host_source(open(os.path.join(d, "kernel.cu")).read())
    wd = os.path.join(work, name)
    os.makedirs(wd)
    with open(os.path.join(wd, "kernel_host.cu"), "w") as fh:
        fh.write(src)
    decl, reads, writes = [], [], []
    for k, p in enumerate(m["params"]):
        t = p["type"]
        if t == "buffer":
            _, size = DTYPES[p["dtype"]]
            nbytes = p["count"] * size
            if "file" in p:
                data = open(os.path.join(d, p["file"]), "rb").read()
            elif "init" in p:
                vals = p["init"]
                if p["dtype"] in FMT:
                    f = FMT[p["dtype"]]
                    vals = [fp.f64_bits(v) if f is fp.F64 else fp.round_frac(fp.Fraction(v), f) for v in vals]
                data = pack(p["dtype"], vals)
            else:
                data = bytes(nbytes)
            assert len(data) == nbytes, (name, p["name"])
            open(os.path.join(wd, f"in{k}.bin"), "wb").write(data)
            decl.append(f"    void *p{k} = aligned_alloc(256, {max(256, (nbytes + 255) // 256 * 256)});")
            reads.append(f'    hs_read("in{k}.bin", p{k}, {nbytes});')
            decl.append(f"    args[{k}] = &p{k};")
            if p.get("output"):
                writes.append(f'    hs_write("out{k}.bin", p{k}, {nbytes});')
        elif t == "struct":
            decl.append(f"    alignas(16) static unsigned char s{k}[{p['size']}];")
            hx = p["bytes"]
            decl.append("    memcpy(s%d, \"%s\", %d);" % (k, "".join("\\x" + hx[j:j + 2] for j in range(0, len(hx), 2)), p["size"]))
            decl.append(f"    args[{k}] = s{k};")
        else:
            v = p["value"]
            lit = repr(float(v)) if t in ("f32", "f64") else str(v) + ("ull" if t == "u64" else "ll" if t == "s64" else "")
            if t == "f32":
                lit += "f"
            decl.append(f"    static {CTYPE[t]} v{k} = {lit};")
            decl.append(f"    args[{k}] = &v{k};")
    kexpr = KERNEL_EXPR.get(m["kernel"], m["kernel"])
    g, b = m["grid"], m["block"]
    main = f"""#include "hostsim.h"
#include "kernel_host.cu"
static void hs_read(const char *f, void *p, size_t n) {{ FILE *h = fopen(f, "rb"); if (fread(p, 1, n, h) != n) exit(5); fclose(h); }}
static void hs_write(const char *f, void *p, size_t n) {{ FILE *h = fopen(f, "wb"); fwrite(p, 1, n, h); fclose(h); }}
int main()
{{
    static void *args[{max(1, len(m['params']))}];
{chr(10).join(decl)}
{chr(10).join(reads)}
    hs_launch_kernel(&{kexpr}, args, uint3{{{g[0]}u, {g[1]}u, {g[2]}u}}, uint3{{{b[0]}u, {b[1]}u, {b[2]}u}});
    fflush(stdout);
{chr(10).join(writes)}
    return 0;
}}
"""
    with open(os.path.join(wd, "main.cpp"), "w") as fh:
        fh.write(main)
    flags = ["-O1", "-std=c++17", "-frounding-math", "-mf16c", "-w", "-I", HERE]
    flags += ["-O2", "-mfma", "-ffp-contract=fast"] if name in CONTRACT else ["-ffp-contract=off"]
    r = subprocess.run(["g++"] + flags + ["main.cpp", "-o", "main", "-lm"], cwd=wd, capture_output=True, text=True)
    if r.returncode:
        return [f"host compile failed:\n{r.stderr[:3000]}"]
    r = subprocess.run(["./main"], cwd=wd, capture_output=True, timeout=600)
    problems = []
    trapped = r.returncode == 77
    if r.returncode not in (0, 77):
        return [f"host run failed with {r.returncode}: {r.stderr.decode()[:2000]}"]
    if trapped != m.get("expect_trap", False):
        problems.append(f"trap: got {trapped}, expected {m.get('expect_trap', False)}")
    if trapped:
        return problems
    if "expect_stdout" in m:
        out = r.stdout.decode()
        exp = m["expect_stdout"]
        if m.get("expect_stdout_unordered_lines"):
            same = sorted(out.splitlines(True)) == sorted(exp.splitlines(True))
        else:
            same = out == exp
        if not same:
            problems.append(f"stdout differs:\n--- got\n{out[:1500]}\n--- expected\n{exp[:1500]}")
    outs = {p["name"]: k for k, p in enumerate(m["params"]) if p["type"] == "buffer"}
    for bname, e in m.get("expect", {}).items():
        k = outs[bname]
        got = unpack(e["dtype"], open(os.path.join(wd, f"out{k}.bin"), "rb").read())[:e["count"]]
        exp = unpack(e["dtype"], open(os.path.join(d, e["file"]), "rb").read())
        bad, first = compare(e["dtype"], got, exp, e.get("tolerance"))
        if bad:
            i, gv, ev = first
            problems.append(f"{bname}: {bad} mismatches, first at [{i}]: got {gv:#x} expected {ev:#x}")
    return problems


def main():
    names = sys.argv[1:] or sorted(n for n in os.listdir(CORPUS) if os.path.isdir(os.path.join(CORPUS, n)))
    work = tempfile.mkdtemp(prefix="heddle-hostcheck-")
    failed = 0
    try:
        for n in names:
            if n in SKIP:
                print(f"{n}: skipped ({SKIP[n]})")
                continue
            problems = check(n, work)
            print(f"{n}: {'ok' if not problems else 'MISMATCH'}")
            for p in problems:
                print("   ", p.replace("\n", "\n    "))
            failed += bool(problems)
    finally:
        shutil.rmtree(work)
    print(f"{failed} case(s) with mismatches")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
