#!/usr/bin/env bash
# Estimate of an SM configuration's logic on an FPGA family: yosys
# `synth_ice40` or `synth_ecp5` per module (not flattened), with the
# memories (every module that declares a `mem` array) left out as black
# boxes and the SAT-based `share` pass skipped (it ran out of 24 GB on the
# whole SM). Prints yosys's `stat` for the design; the memories' bits are
# in the exported Verilog.
#
#   scripts/fpga-estimate.sh [ice40|ecp5] [tiny|default|wide] [OUTDIR]
#
# Needs yosys (Debian's 0.23 was used) and a release build of heddle. On a
# 2-core machine `ice40 tiny` takes about 35 minutes, `ecp5 tiny` 15.
set -euo pipefail
family=${1:-ice40}
cfg=${2:-tiny}
out=${3:-target/$family-$cfg}
case "$family" in
    ice40)
        cells="read_verilog -D ICE40_HX -lib -specify +/ice40/cells_sim.v"
        # The HX parts have no multipliers: every multiply is LUTs.
        dsp=""
        ;;
    ecp5)
        cells="read_verilog -lib -specify +/ecp5/cells_sim.v +/ecp5/cells_bb.v"
        # synth_ecp5's own coarse step: multiplies to 18x18 DSP blocks.
        dsp="techmap -map +/mul2dsp.v -map +/ecp5/dsp_map.v -D DSP_A_MAXWIDTH=18 -D DSP_B_MAXWIDTH=18 -D DSP_A_MINWIDTH=2 -D DSP_B_MINWIDTH=2 -D DSP_NAME=\$__MUL18X18
chtype -set \$mul t:\$__soft_mul"
        ;;
    *)
        echo "family: ice40 or ecp5" >&2
        exit 2
        ;;
esac
mkdir -p "$out"
cargo run --release --quiet -- export --config "$cfg" > "$out/sm.v"
mems=$(awk '/^module /{m=$2; sub(/\(.*/, "", m)} / mem \[0:/{print m}' "$out/sm.v" | sort -u | tr '\n' ' ')
# synth_<family>'s coarse step without `flatten` and `share`, then the rest
# of synth_<family> from its RAM mapping on.
cat > "$out/estimate.ys" <<YS
$cells
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
$dsp
memory_dff
wreduce t:\$mul
alumacc
opt
memory -nomap
opt_clean
synth_$family -noflatten -top top -run map_ram:
tee -o $out/estimate.stat stat
YS
yosys -q -l "$out/estimate.log" "$out/estimate.ys"
sed -n '/design hierarchy/,$p' "$out/estimate.stat" | grep -E 'SB_|LUT4|CCU2C|TRELLIS|MULT18|ALU54|cells' | head -12
