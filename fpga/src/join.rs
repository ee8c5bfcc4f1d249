//! The whole design placed and routed from its blocks' netlists, for a
//! design whose flattened synthesis takes too long (ABC9 on the whole SM):
//! every distinct block is synthesized on its own ([`crate::blocks`]), the
//! scan wrapper around the top too, and their mapped netlists are joined
//! into one (each copy of a block under its own name), flattened by yosys
//! and handed to nextpnr as a whole synthesis's would be.
//!
//! What differs from a whole synthesis: nothing is optimised across a
//! block's ports (a constant or an unused output of a child stays logic in
//! its parent), so the joined netlist is the per-block area's: larger and
//! slower than a flattened synthesis (`tiny` with one lane: a fifth more
//! LUTs and 11-33% less Fmax, docs/fpga.md).

use crate::blocks::{self, Blocks};
use crate::budget::Budget;
use crate::flow::{self, Options};
use crate::report::{Outcome, Report, Stage};
use crate::verilog::{self, Port, SCAN_TOP};
use serde_json::{Map, Value};
use std::path::Path;

/// The folder under `out` where the blocks are synthesized.
pub const BLOCKS_DIR: &str = "blocks";

/// Synthesizes `verilog`'s blocks in `opts.out/blocks/`, joins them under
/// the scan wrapper (the top's outputs that `keep` accepts), and places
/// and routes the result in `opts.out` (`opts.place` is not read).
/// Returns the blocks' table (none where the memories alone do not fit the
/// part) and the whole design's report; as in [`flow::run`], a design that does not fit or a
/// tool's failure is the report's outcome.
pub fn run(
    design: &str,
    verilog: &str,
    opts: &Options,
    keep: &dyn Fn(&Port) -> bool,
    progress: &mut dyn FnMut(&str),
) -> Result<(Option<Blocks>, Report), String> {
    let Options { target, freq_mhz, limit, .. } = *opts;
    let out = opts.out.as_path();
    let all = verilog::modules(verilog)?;
    let root = all.iter().find(|m| !all.iter().any(|p| p.children.contains(&m.name))).ok_or("the design has no top module")?;
    let mut r = Report::new(design, target, flow::versions(target)?);
    r.budget = Budget::of_design(&all, &root.name, target);
    if let Some(why) = r.budget.as_ref().and_then(|b| b.short(target)) {
        r.outcome = Outcome::DoesNotFit { reason: format!("{why} (--blocks synthesizes it anyway)") };
        return Ok((None, r));
    }
    let b = blocks::run(design, verilog, target, &out.join(BLOCKS_DIR), limit, keep, progress)?;
    r.stages.push(Stage { name: "yosys by block".into(), seconds: b.seconds });
    if let Some(row) = b.rows.iter().find(|row| row.failed.is_some()) {
        let reason = format!("block {}: {}", row.module, row.failed.as_deref().unwrap_or(""));
        r.outcome = Outcome::Failed { stage: "yosys".into(), reason };
        return Ok((Some(b), r));
    }
    r.memories = b.rows.iter().flat_map(|row| row.memories.iter().cloned()).collect();

    // The scan wrapper, around the top as its block's netlist holds it.
    let top_row = b.rows.iter().find(|row| row.names.contains(&root.name)).ok_or("the top's block is missing")?;
    let dut = if top_row.netlist_top == root.name { root.clone() } else { verilog::modules(&verilog::port_wrapper(root, keep))?.remove(0) };
    let scan_text = verilog::scan_wrapper(&dut, |_| true) + "\n" + &dut.blackbox();
    let scan_opts = Options { target, freq_mhz, out: out.join("scan"), place: false, limit };
    let scan = flow::run(&format!("{design} scan wrapper"), SCAN_TOP, &[("scan.v".into(), scan_text)], &scan_opts, progress)?;
    r.stages.extend(scan.stages.iter().map(|s| Stage { name: format!("{} (scan wrapper)", s.name), seconds: s.seconds }));
    if let Outcome::Failed { reason, .. } = scan.outcome {
        r.outcome = Outcome::Failed { stage: "yosys".into(), reason: format!("the scan wrapper: {reason}") };
        return Ok((Some(b), r));
    }

    // A block is instantiated by its names; the top without its left-out
    // outputs by its wrapper's.
    let names = |row: &blocks::Row| if row.netlist_top == row.module { row.names.clone() } else { vec![row.netlist_top.clone()] };
    let mut parts: Vec<(&Path, &str, Vec<String>)> =
        b.rows.iter().map(|row| (row.dir.as_path(), row.netlist_top.as_str(), names(row))).collect();
    parts.push((&scan_opts.out, SCAN_TOP, vec![SCAN_TOP.into()]));
    let joined = join(&parts)?;
    std::fs::write(out.join("joined.json"), joined.to_string()).map_err(|e| format!("cannot write joined.json: {e}"))?;
    let opts = Options { place: true, ..opts.clone() };
    let script =
        format!("read_json joined.json; hierarchy -top {SCAN_TOP}; flatten; tee -q -o stat.json stat -json; write_json synth.json");
    if let Err(reason) = flow::yosys(&mut r, &script, &format!("{design}'s blocks joined"), &opts, progress) {
        r.outcome = Outcome::Failed { stage: "yosys".into(), reason };
        return Ok((Some(b), r));
    }
    let (cells, _, _) = flow::synthesized(out, target.family())?;
    r.set_cells(cells, target);
    flow::place(&mut r, &opts, progress)?;
    Ok((Some(b), r))
}

/// One netlist of the modules in `parts` (a netlist's folder, the module
/// it was synthesized as, the names it is instantiated as): each part's
/// module under each of its names, and the primitives and other black
/// boxes the netlists declare, where no part defines that name. Only the
/// scan wrapper keeps the `top` attribute.
fn join(parts: &[(&Path, &str, Vec<String>)]) -> Result<Value, String> {
    let mut modules = Map::new();
    let mut boxes = Map::new();
    for (dir, top, names) in parts {
        let p = dir.join("synth.json");
        let text = std::fs::read_to_string(&p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
        let v: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))?;
        let all = v["modules"].as_object().ok_or_else(|| format!("{}: no modules", p.display()))?;
        let body = all.get(*top).ok_or_else(|| format!("{}: no module `{top}`", p.display()))?;
        for name in names {
            let mut m = body.clone();
            if name != SCAN_TOP {
                if let Some(a) = m["attributes"].as_object_mut() {
                    a.remove("top");
                }
            }
            modules.insert(name.clone(), m);
        }
        for (name, m) in all {
            if m["attributes"].get("blackbox").is_some() {
                boxes.entry(name.clone()).or_insert_with(|| m.clone());
            }
        }
    }
    for (name, m) in boxes {
        modules.entry(name).or_insert(m);
    }
    Ok(serde_json::json!({ "creator": "heddle (fpga/src/join.rs): blocks' netlists joined", "modules": modules }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_copy_gets_the_body_and_black_boxes_fill_only_the_gaps() {
        let dir = std::env::temp_dir().join(format!("heddle-join-{}", std::process::id()));
        let (a, s) = (dir.join("a"), dir.join("s"));
        for d in [&a, &s] {
            std::fs::create_dir_all(d).unwrap();
        }
        let bb = serde_json::json!({"attributes": {"blackbox": "1"}, "ports": {}, "cells": {}});
        let lane = serde_json::json!({"attributes": {"top": "1"}, "ports": {"x": {}}, "cells": {"l": {"type": "LUT4"}}});
        std::fs::write(a.join("synth.json"), serde_json::json!({"modules": {"lane$0": lane, "LUT4": bb}}).to_string()).unwrap();
        let scan =
            serde_json::json!({"attributes": {"top": "1"}, "ports": {}, "cells": {"d0": {"type": "lane$0"}, "d1": {"type": "lane$1"}}});
        std::fs::write(s.join("synth.json"), serde_json::json!({"modules": {SCAN_TOP: scan, "lane$0": bb, "lane$1": bb}}).to_string())
            .unwrap();
        let parts =
            vec![(a.as_path(), "lane$0", vec!["lane$0".to_string(), "lane$1".to_string()]), (s.as_path(), SCAN_TOP, vec![SCAN_TOP.into()])];
        let j = join(&parts).unwrap();
        let m = j["modules"].as_object().unwrap();
        assert_eq!(m.len(), 4, "{j}");
        for lane in ["lane$0", "lane$1"] {
            assert_eq!(m[lane]["cells"]["l"]["type"], "LUT4", "{lane} is the block, not the scan wrapper's black box");
            assert!(m[lane]["attributes"].get("top").is_none());
        }
        assert_eq!(m[SCAN_TOP]["attributes"]["top"], "1");
        assert!(m["LUT4"]["attributes"].get("blackbox").is_some());
        assert!(join(&[(a.as_path(), "nope", vec!["nope".to_string()])]).unwrap_err().contains("no module `nope`"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
