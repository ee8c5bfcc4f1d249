#!/usr/bin/env bash
# Estimate of an SM configuration's logic on an iCE40: yosys `synth_ice40`
# per module (not flattened), with the memories (every module that declares
# a `mem` array) left out as black boxes and the SAT-based `share` pass
# skipped (it ran out of 24 GB on the whole SM). Prints yosys's `stat` for
# the design; the memories' bits are in the exported Verilog.
#
#   scripts/ice40-estimate.sh [tiny|default|wide] [OUTDIR]
#
# Needs yosys (Debian's 0.23 was used) and a release build of heddle. On a
# 2-core machine `tiny` takes about 35 minutes.
set -euo pipefail
cfg=${1:-tiny}
out=${2:-target/ice40-$cfg}
mkdir -p "$out"
cargo run --release --quiet -- export --config "$cfg" > "$out/sm.v"
mems=$(awk '/^module /{m=$2; sub(/\(.*/, "", m)} / mem \[0:/{print m}' "$out/sm.v" | sort -u | tr '\n' ' ')
cat > "$out/estimate.ys" <<YS
read_verilog -D ICE40_HX -lib -specify +/ice40/cells_sim.v
read_verilog $out/sm.v
blackbox $mems
hierarchy -check -top top
proc
opt_expr
opt_clean
check
opt -nodffe -nosdff
fsm
opt
wreduce
peepopt
opt_clean
techmap -map +/cmp2lut.v -D LUT_WIDTH=4
opt_expr
opt_clean
memory_dff
wreduce t:\$mul
alumacc
opt
memory -nomap
opt_clean
synth_ice40 -noflatten -top top -run map_ram:
tee -o $out/estimate.stat stat
YS
yosys -q -l "$out/estimate.log" "$out/estimate.ys"
sed -n '/design hierarchy/,$p' "$out/estimate.stat" | grep -E 'SB_|cells' | head -8
