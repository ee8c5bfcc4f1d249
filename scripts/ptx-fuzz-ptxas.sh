#!/usr/bin/env bash
# Checks that seeded random PTX kernels of `heddle fuzz --target ptx`
# (heddle_fuzz::ptx) are valid PTX: writes COUNT of them and runs NVIDIA's
# ptxas (PyPI nvidia-cuda-nvcc-cu12) on each with -arch sm_75.
#
#   scripts/ptx-fuzz-ptxas.sh [COUNT [FIRST_SEED [DIR]]]     (default 200 1 target/ptx-fuzz-ptxas)
set -euo pipefail
count=${1:-200}
first=${2:-1}
dir=${3:-target/ptx-fuzz-ptxas}
cd "$(dirname "$0")/.."

ptxas=$(python3 -c 'import nvidia.cuda_nvcc, os; print(os.path.join(nvidia.cuda_nvcc.__path__[0], "bin", "ptxas"))' 2>/dev/null || true)
if [ ! -x "$ptxas" ]; then
    pip install --user nvidia-cuda-nvcc-cu12 >&2
    ptxas=$(python3 -c 'import nvidia.cuda_nvcc, os; print(os.path.join(nvidia.cuda_nvcc.__path__[0], "bin", "ptxas"))')
fi

rm -rf "$dir"
CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1} cargo run -q --release -p heddle-fuzz --example ptx_cases -- "$dir" "$first" "$count"

ok=0
bad=0
for f in "$dir"/seed-*.ptx; do
    if "$ptxas" -arch sm_75 -o /dev/null "$f" 2>"$f.err"; then
        ok=$((ok + 1))
        rm -f "$f.err"
    else
        bad=$((bad + 1))
        echo "REJECTED $f:" >&2
        head -5 "$f.err" >&2
    fi
done
echo "ptxas $("$ptxas" --version | tail -1)"
echo "checked $((ok + bad)) seeded PTX kernels (seeds $first..$((first + count - 1))): $ok accepted, $bad rejected"
[ "$bad" -eq 0 ]
