#!/usr/bin/env bash
# LUTs (and, where a routed report exists, Fmax) of a preset against its
# lane count: `heddle synth --blocks` for each of 1, 2, 4 and 8 lanes, then a
# Markdown table on stdout and an SVG plot (docs/fpga.md, "Scaling").
#
#   scripts/fpga-scaling.sh [CONFIG] [TARGET] [SVG]
#
# Defaults: tiny, ecp5-85f, docs/fpga-scaling.svg. Each lane count takes a
# few minutes; the reports stay in target/heddle-synth/scaling/. A routed
# whole-SM report for N lanes, if present as
# target/heddle-synth/scaling/routed-lanesN.json (heddle synth --set
# lanes=N --json), adds its Fmax.
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-tiny}
target=${2:-ecp5-85f}
svg=${3:-docs/fpga-scaling.svg}
dir=target/heddle-synth/scaling
mkdir -p "$dir"
cargo build --release --locked -q
for n in 1 2 4 8; do
    f="$dir/$config-lanes$n-$target.json"
    [ -s "$f" ] && continue
    echo "lanes=$n ..." >&2
    ./target/release/heddle synth --config "$config" --set lanes=$n --blocks --target "$target" --json \
        --out "$dir/$config-lanes$n-$target" > "$f.tmp"
    mv "$f.tmp" "$f"
done
python3 - "$dir" "$config" "$target" "$svg" <<'EOF'
import json, os, sys
d, config, target, svg = sys.argv[1:]
rows = []
for n in (1, 2, 4, 8):
    b = json.load(open(f"{d}/{config}-lanes{n}-{target}.json"))
    fmax = None
    routed = f"{d}/routed-lanes{n}.json"
    if os.path.exists(routed):
        fmax = json.load(open(routed)).get("timing", {}).get("fmax_mhz")
    rows.append((n, b["lut_equivalent"]["used"], b["lut_equivalent"]["available"], b["total"]["ffs"], b["total"]["dsps"], fmax))
print(f"| lanes | LUTs (carries and distributed RAM counted) | of the part | FF | DSP | Fmax (routed) |")
print("|---|---|---|---|---|---|")
for n, l, a, ff, dsp, fmax in rows:
    print(f"| {n} | {l:,} | {100 * l / a:.0f}% | {ff:,} | {dsp} | {f'{fmax:.1f} MHz' if fmax else 'not routed'} |")
# The plot: LUTs against lanes, the part's size as a line, Fmax as labels.
W, H, L, B = 520, 300, 70, 40
top = max(max(r[1] for r in rows), rows[0][2]) * 1.1
x = lambda i: L + 40 + i * (W - L - 80) / 3
y = lambda v: H - B - v / top * (H - B - 30)
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<text x="{W/2}" y="18" text-anchor="middle">{config} on {target}: LUTs (carries, distributed RAM) by lane count, heddle synth --blocks</text>',
       f'<line x1="{L}" y1="{H-B}" x2="{W-20}" y2="{H-B}" stroke="black"/>',
       f'<line x1="{L}" y1="{H-B}" x2="{L}" y2="28" stroke="black"/>']
for k in range(0, 6):
    v = top * k / 5
    out.append(f'<text x="{L-6}" y="{y(v)+4:.1f}" text-anchor="end">{v/1000:.0f}k</text>')
cap = rows[0][2]
out.append(f'<line x1="{L}" y1="{y(cap):.1f}" x2="{W-20}" y2="{y(cap):.1f}" stroke="#c33" stroke-dasharray="4 3"/>')
out.append(f'<text x="{W-22}" y="{y(cap)-4:.1f}" text-anchor="end" fill="#c33">the part: {cap:,} LUTs</text>')
# The budget: at most 75% of the part's LUTs (issue 21).
bud = cap * 3 // 4
out.append(f'<line x1="{L}" y1="{y(bud):.1f}" x2="{W-20}" y2="{y(bud):.1f}" stroke="#c93" stroke-dasharray="2 3"/>')
out.append(f'<text x="{W-22}" y="{y(bud)+14:.1f}" text-anchor="end" fill="#c93">75%: {bud:,} LUTs</text>')
pts = " ".join(f"{x(i):.1f},{y(r[1]):.1f}" for i, r in enumerate(rows))
out.append(f'<polyline points="{pts}" fill="none" stroke="#36c" stroke-width="2"/>')
for i, (n, l, a, ff, dsp, fmax) in enumerate(rows):
    out.append(f'<circle cx="{x(i):.1f}" cy="{y(l):.1f}" r="4" fill="#36c"/>')
    label = f"{l/1000:.1f}k" + (f", {fmax:.1f} MHz" if fmax else "")
    out.append(f'<text x="{x(i):.1f}" y="{y(l)-9:.1f}" text-anchor="middle">{label}</text>')
    out.append(f'<text x="{x(i):.1f}" y="{H-B+16}" text-anchor="middle">{n}</text>')
out.append(f'<text x="{(L+W)/2}" y="{H-6}" text-anchor="middle">lanes</text>')
out.append("</svg>")
open(svg, "w").write("\n".join(out) + "\n")
print(f"\n(plot: {svg})")
EOF
