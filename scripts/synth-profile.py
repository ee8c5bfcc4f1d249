#!/usr/bin/env python3
"""Where a synthesized block's LUTs go, by the signal they compute.

Usage: scripts/synth-profile.py OUT/NNN/synth.json [ROWS]

Reads the netlist yosys wrote for one block of `heddle synth --blocks
--out OUT` (or for a whole build) and charges every LUT4 (1) and CCU2C
(2, as the report counts them) to the first named signal downstream of
it: the flip-flop, output port or kept local it feeds, following the
first path through cells yosys named itself. Signals of one Vec (`rf$3`,
`rf$5`) and bits of one bus (`rf$3_wdata_7`) are summed into one row.

The charge is the LUTs in a signal's fan-in cone up to the next named
signal, so a multiplexer that selects a local which yosys flattened away
is charged to the register or port the local feeds (the shuffle's
`sh_val` to `rf$N_wdata`, for instance). Rows sum to the block's LUTs
with carries (distributed RAM, not charged here, is in the report's total).
"""
import collections
import json
import re
import sys

# Names yosys gives nets it creates (`..._LUT4_Z`, `..._TRELLIS_FF_Q_DI`).
MADE = re.compile(r"_(LUT4|PFUMX|L6MUX21|TRELLIS_FF|CCU2C|MULT18X18D|TRELLIS_DPR16X4)_|_(Z|DI|Q|C0|D|C|B|A)$")
COST = {"LUT4": 1, "CCU2C": 2}


def main():
    netlist = json.load(open(sys.argv[1]))
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    modules = netlist["modules"]
    # The design's top module (yosys marks it), else a known top name.
    tops = [n for n, m in modules.items() if int(str(m.get("attributes", {}).get("top", "0")), 2)]
    name = tops[0] if tops else next(n for n in ("heddle_block", "heddle_scan", "top") if n in modules)
    m = modules[name]
    named = collections.defaultdict(list)
    for n, v in m["netnames"].items():
        if not v.get("hide_name", 0) and not n.startswith("$") and not MADE.search(n):
            for b in v["bits"]:
                if isinstance(b, int):
                    named[b].append(n)
    readers = collections.defaultdict(list)
    for cn, c in m["cells"].items():
        for p, d in c.get("port_directions", {}).items():
            if d == "input":
                for b in c["connections"][p]:
                    if isinstance(b, int):
                        readers[b].append(cn)

    def outputs(c):
        return [b for p, d in c.get("port_directions", {}).items() if d == "output" for b in c["connections"][p] if isinstance(b, int)]

    dest = {}

    def destination(start):
        # Iterative depth-first search for the first named net downstream.
        stack, path = [start], []
        while stack:
            cn = stack.pop()
            if cn in dest:
                found = dest[cn]
                if found != "?":
                    break
                continue
            dest[cn] = "?"
            path.append(cn)
            bits = outputs(m["cells"][cn])
            hit = next((min(named[b], key=len) for b in bits if named[b]), None)
            if hit:
                found = hit
                break
            stack.extend(r for b in bits for r in readers[b])
        else:
            found = "?"
        for cn in path:
            dest[cn] = found
        return dest[start]

    cost = collections.Counter()
    for cn, c in m["cells"].items():
        w = COST.get(c["type"], 0)
        if w:
            d = re.sub(r"\$(d|q|next|rdata)$", "", destination(cn))
            d = re.sub(r"\$\d+", "$N", d)
            d = re.sub(r"_\d+$", "", d)
            cost[d] += w
    print(f"{name}: {sum(cost.values())} LUTs with carries")
    for k, v in cost.most_common(rows):
        print(f"{v:8d}  {k}")


if __name__ == "__main__":
    main()
