"""Compiler benchmark: heddle against ptxas -O3 on the corpus PTX (compute_75).

Reports, per kernel and in total: compile time of `heddle compile` and of
`ptxas -O3 -arch=sm_75` (one run each, same machine), ISA instructions per PTX
instruction, and registers used (heddle's allocation against `ptxas -v`).

    cargo build --release && python3 tools/bench_compile.py
"""
import glob
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEDDLE = os.path.join(ROOT, "target", "release", "heddle")


def ptxas_path():
    import nvidia.cuda_nvcc as pkg  # type: ignore

    return os.path.join(list(pkg.__path__)[0], "bin", "ptxas")


def timed(cmd):
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return time.perf_counter() - t, p


def main():
    if not os.path.exists(HEDDLE):
        sys.exit("build first: cargo build --release")
    ptxas = ptxas_path()
    files = sorted(glob.glob(os.path.join(ROOT, "tests", "corpus", "*", "kernel.ptx")))
    th = tp = 0.0
    ptx_n = isa_n = 0
    rows = []
    for f in files:
        name = os.path.basename(os.path.dirname(f))
        dh, ph = timed([HEDDLE, "compile", f, "--emit", "stats"])
        dp, pp = timed([ptxas, "-O3", "-arch=sm_75", "-v", f, "-o", os.devnull])
        if ph.returncode != 0 or pp.returncode != 0:
            print(f"{name}: heddle rc {ph.returncode}, ptxas rc {pp.returncode}", file=sys.stderr)
            continue
        th += dh
        tp += dp
        ours = {}
        for line in ph.stdout.splitlines()[1:]:
            parts = line.split()
            ours[parts[0]] = (int(parts[1]), int(parts[2]), int(parts[3]))
            ptx_n += int(parts[1])
            isa_n += int(parts[2])
        theirs = {}
        cur = None
        for line in pp.stderr.splitlines():
            m = re.search(r"Compiling entry function '([^']+)'|Function properties for (\S+)", line)
            if m:
                cur = m.group(1) or m.group(2)
            m = re.search(r"Used (\d+) registers", line)
            if m and cur:
                theirs[cur] = int(m.group(1))
        for fn, (p, i, r) in ours.items():
            rows.append((name, fn, p, i, r, theirs.get(fn)))
    print(f"{'case':<26} {'function':<34} {'ptx':>5} {'isa':>5} {'isa/ptx':>8} {'regs':>5} {'ptxas':>6}")
    for name, fn, p, i, r, t in rows:
        print(f"{name:<26} {fn[:34]:<34} {p:>5} {i:>5} {i / max(p, 1):>8.2f} {r:>5} {t if t is not None else '-':>6}")
    kern = [(r, t) for *_, r, t in rows if t is not None]
    print()
    print(f"{len(files)} files: heddle {th:.3f} s, ptxas -O3 {tp:.3f} s, ratio {th / tp:.2f}")
    print(f"ISA instructions per PTX instruction: {isa_n / max(ptx_n, 1):.2f} ({isa_n} / {ptx_n})")
    if kern:
        print(f"registers, mean over {len(kern)} kernels: heddle {sum(r for r, _ in kern) / len(kern):.1f}, ptxas {sum(t for _, t in kern) / len(kern):.1f}")


if __name__ == "__main__":
    main()
