//! `heddle synth`: the SM (or one of its blocks, or any Verilog file) through
//! the open FPGA flow of `heddle_fpga`, reported as a table or JSON.

use heddle_fpga::report::Outcome;
use heddle_fpga::verilog::{self, Port, SCAN_TOP};
use heddle_fpga::{blocks, join, Options, Target};
use std::path::PathBuf;
use std::time::Instant;

/// What `heddle synth` was asked for.
pub struct Request {
    pub target: Target,
    /// The design's name in reports (`tiny`, `tiny lanes=1`, a file).
    pub design: String,
    pub verilog: String,
    /// One module (with the modules below it) instead of the SM's `top`.
    pub block: Option<String>,
    pub freq_mhz: f64,
    pub out: PathBuf,
    pub json: bool,
    pub blocks: bool,
    /// Place and route the whole design from its blocks' netlists.
    pub by_block: bool,
    pub place: bool,
    /// Keep the retire, memory and CTA monitors and the performance
    /// counters (simulation's ports) in the build.
    pub monitors: bool,
    /// Compare with this saved report; worse beyond `tolerance` % fails.
    pub baseline: Option<PathBuf>,
    pub tolerance: f64,
    /// Save the report here as the new baseline.
    pub save_baseline: Option<PathBuf>,
    /// Stop a tool after this long (`--blocks`: per block).
    pub limit: Option<std::time::Duration>,
}

/// The SM's outputs that only simulation reads: the retire, memory and CTA
/// monitors and the performance counters. A synthesis build leaves them
/// unconnected, so yosys removes the logic that only they use.
pub fn is_monitor(p: &Port) -> bool {
    const NAMES: [&str; 9] = ["retire", "waiting", "bus_done", "bus_mask", "smem_done", "smem_mask", "mem_redo", "cta_start", "cta_linear"];
    const PREFIXES: [&str; 5] = ["perf_", "ret_", "mem_laddr", "mem_lwdata", "mem_ldata"];
    NAMES.contains(&p.name.as_str()) || PREFIXES.iter().any(|x| p.name.starts_with(x)) || p.name == "cta_slot"
}

/// Runs the request; prints the report on stdout and the stages on
/// stderr. Exit status 0 when the design was synthesized (and routed),
/// 1 when it does not fit or a tool failed (the report says which).
pub fn run(req: Request) -> Result<i32, String> {
    let start = Instant::now();
    let mut progress = |what: &str| eprintln!("[{:>5.0} s] {what}", start.elapsed().as_secs_f64());
    let keep = |p: &Port| req.monitors || req.block.is_some() || !is_monitor(p);
    if req.blocks {
        let b = blocks::run(&req.design, &req.verilog, req.target, &req.out, req.limit, &keep, &mut progress)?;
        print(&b, req.json)?;
        let failed = b.rows.iter().any(|r| r.failed.is_some());
        return Ok(if failed { 1 } else { baseline(&req, &b)? });
    }
    let opts = Options { target: req.target, freq_mhz: req.freq_mhz, out: req.out.clone(), place: req.place, limit: req.limit };
    if req.by_block {
        let (b, report) = join::run(&req.design, &req.verilog, &opts, &keep, &mut progress)?;
        if let Some(b) = b {
            eprintln!("{b}");
        }
        return finish(&req, &report);
    }
    let all = verilog::modules(&req.verilog)?;
    let top = req.block.clone().unwrap_or_else(|| "top".into());
    let tree = verilog::subtree(&all, &top)?;
    let dut: String = tree.iter().map(|m| m.text.as_str()).collect::<Vec<_>>().join("\n");
    let wrapper = verilog::scan_wrapper(tree[0], keep);
    let sources = vec![("dut.v".to_string(), dut), ("scan.v".to_string(), wrapper)];
    let design = match &req.block {
        Some(b) => format!("{} block {b}", req.design),
        None => req.design.clone(),
    };
    let report = heddle_fpga::run(&design, SCAN_TOP, &sources, &opts, &mut progress)?;
    finish(&req, &report)
}

/// Prints the report, writes it to `report.json` in the output folder, and
/// compares it with the baseline: the exit status.
fn finish(req: &Request, report: &heddle_fpga::Report) -> Result<i32, String> {
    print(report, req.json)?;
    std::fs::write(req.out.join("report.json"), serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?)
        .map_err(|e| format!("cannot write report.json: {e}"))?;
    Ok(match report.outcome {
        Outcome::Synthesized | Outcome::Routed { .. } => baseline(req, report)?,
        Outcome::DoesNotFit { .. } | Outcome::Failed { .. } => 1,
    })
}

/// Saves the report as a baseline, or compares it with one: 0 when no
/// figure is worse than the baseline's by more than the tolerance, else 1
/// with the worse figures on stderr.
fn baseline<T: serde::Serialize>(req: &Request, report: &T) -> Result<i32, String> {
    let now = serde_json::to_value(report).map_err(|e| e.to_string())?;
    if let Some(p) = &req.save_baseline {
        let text = serde_json::to_string_pretty(&now).map_err(|e| e.to_string())? + "\n";
        std::fs::write(p, text).map_err(|e| format!("{}: {e}", p.display()))?;
        eprintln!("baseline saved to {}", p.display());
    }
    let Some(p) = &req.baseline else { return Ok(0) };
    let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
    let old: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))?;
    let worse = regressions(&old, &now, req.tolerance);
    for w in &worse {
        eprintln!("worse than {}: {w}", p.display());
    }
    if worse.is_empty() {
        eprintln!("within {}% of the baseline {}", req.tolerance, p.display());
    }
    Ok(if worse.is_empty() { 0 } else { 1 })
}

/// The figures of `now` worse than `old`'s by more than `tolerance` %:
/// LUTs, flip-flops, block RAMs and DSPs (more is worse), Fmax (less is
/// worse), and with `--blocks` each block's LUTs.
pub fn regressions(old: &serde_json::Value, now: &serde_json::Value, tolerance: f64) -> Vec<String> {
    let mut out = Vec::new();
    let mut more_is_worse = |what: String, o: Option<f64>, n: Option<f64>| {
        if let (Some(o), Some(n)) = (o, n) {
            if n > o * (1.0 + tolerance / 100.0) + 0.5 {
                out.push(format!("{what}: {n} (was {o})"));
            }
        }
    };
    let total = if now.get("total").is_some() { "total" } else { "cells" };
    more_is_worse("LUTs".into(), old["lut_equivalent"]["used"].as_f64(), now["lut_equivalent"]["used"].as_f64());
    for k in ["ffs", "brams", "dsps"] {
        more_is_worse(k.into(), old[total][k].as_f64(), now[total][k].as_f64());
    }
    let block_luts = |v: &serde_json::Value, name: &str| {
        v["rows"].as_array()?.iter().find(|r| r["module"] == name).map(|r| {
            let c = &r["cells"];
            (c["luts"].as_f64().unwrap_or(0.0) + 2.0 * c["carry"].as_f64().unwrap_or(0.0)) * r["copies"].as_f64().unwrap_or(1.0)
        })
    };
    for row in now["rows"].as_array().into_iter().flatten() {
        let name = row["module"].as_str().unwrap_or("?");
        more_is_worse(format!("block {name} LUTs"), block_luts(old, name), block_luts(now, name));
    }
    if let (Some(o), Some(n)) = (old["timing"]["fmax_mhz"].as_f64(), now["timing"]["fmax_mhz"].as_f64()) {
        if n < o * (1.0 - tolerance / 100.0) {
            out.push(format!("Fmax: {n:.1} MHz (was {o:.1})"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::regressions;
    use serde_json::json;

    #[test]
    fn worse_figures_beyond_the_tolerance_are_named() {
        let old = json!({"lut_equivalent": {"used": 1000}, "cells": {"ffs": 100, "brams": 2, "dsps": 0}, "timing": {"fmax_mhz": 40.0}});
        let same = json!({"lut_equivalent": {"used": 1010}, "cells": {"ffs": 100, "brams": 2, "dsps": 0}, "timing": {"fmax_mhz": 39.5}});
        assert!(regressions(&old, &same, 2.0).is_empty());
        let worse = json!({"lut_equivalent": {"used": 1100}, "cells": {"ffs": 100, "brams": 3, "dsps": 0}, "timing": {"fmax_mhz": 30.0}});
        let w = regressions(&old, &worse, 2.0);
        assert_eq!(w, vec!["LUTs: 1100 (was 1000)", "brams: 3 (was 2)", "Fmax: 30.0 MHz (was 40.0)"]);
        let blocks_old =
            json!({"lut_equivalent": {"used": 10}, "total": {}, "rows": [{"module": "a", "copies": 2, "cells": {"luts": 5, "carry": 0}}]});
        let blocks_now =
            json!({"lut_equivalent": {"used": 10}, "total": {}, "rows": [{"module": "a", "copies": 2, "cells": {"luts": 9, "carry": 0}}]});
        assert_eq!(regressions(&blocks_old, &blocks_now, 2.0), vec!["block a LUTs: 18 (was 10)"]);
    }
}

/// Writes the files of an FPGA project for the user's own flow: the SM's
/// Verilog (`dut.v`), the scan wrapper (`scan.v`, top `heddle_scan`), the
/// board's constraints, and a FuseSoC core (`heddle.core`) with a target
/// for the part. Returns the files written.
pub fn write_project(dir: &std::path::Path, target: Target, design: &str, verilog: &str, monitors: bool) -> Result<Vec<String>, String> {
    let all = verilog::modules(verilog)?;
    let top = all.iter().find(|m| m.name == "top").ok_or("no module `top` in the design")?;
    let wrapper = verilog::scan_wrapper(top, |p| monitors || !is_monitor(p));
    let slug: String = design.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    let (tool, constraint_type, device) = match target.family() {
        heddle_fpga::target::Family::Ecp5 => ("trellis", "LPF", target.nextpnr().1.join(", ")),
        heddle_fpga::target::Family::Ice40 => ("icestorm", "PCF", target.nextpnr().1.join(", ")),
    };
    let core = format!(
        "CAPI=2:\n# Generated by heddle export --fpga: the SM `{design}` and its scan wrapper for {part} ({board}).\n\
         name: heddle:sm:{slug}:0.1.0\ndescription: Heddle SIMT streaming multiprocessor, configuration {design}\n\n\
         filesets:\n  rtl:\n    files: [dut.v, scan.v]\n    file_type: verilogSource\n  board:\n    files: [{cf}]\n    file_type: {constraint_type}\n\n\
         targets:\n  default:\n    filesets: [rtl]\n    toplevel: top\n  {name}:\n    default_tool: {tool}\n    filesets: [rtl, board]\n    toplevel: {scan}\n\
         \x20   tools:\n      {tool}:\n{pnr}        nextpnr_options: [{device}, --freq, 50]\n",
        pnr = if tool == "icestorm" { "        pnr: next\n" } else { "" },
        part = target.part(),
        board = target.board().name,
        cf = target.constraints_file(),
        name = target.name().replace('-', "_"),
        scan = SCAN_TOP,
    );
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let files =
        [("dut.v", verilog.to_string()), ("scan.v", wrapper), (target.constraints_file(), target.constraints()), ("heddle.core", core)];
    for (name, text) in &files {
        std::fs::write(dir.join(name), text).map_err(|e| format!("{}: {e}", dir.join(name).display()))?;
    }
    Ok(files.iter().map(|(n, _)| n.to_string()).collect())
}

fn print<T: serde::Serialize + std::fmt::Display>(r: &T, json: bool) -> Result<(), String> {
    use std::io::Write as _;
    let text = if json { serde_json::to_string_pretty(r).map_err(|e| e.to_string())? } else { r.to_string() };
    let _ = writeln!(std::io::stdout(), "{text}");
    Ok(())
}
