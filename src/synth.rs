//! `heddle synth`: the SM (or one of its blocks, or any Verilog file) through
//! the open FPGA flow of `heddle_fpga`, reported as a table or JSON.

use heddle_fpga::blocks;
use heddle_fpga::report::Outcome;
use heddle_fpga::verilog::{self, Port, SCAN_TOP};
use heddle_fpga::{Options, Target};
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
    pub place: bool,
    /// Keep the retire, memory and CTA monitors and the performance
    /// counters (simulation's ports) in the build.
    pub monitors: bool,
}

/// The SM's outputs that only simulation reads: the retire, memory and CTA
/// monitors and the performance counters. A synthesis build leaves them
/// unconnected, so yosys removes the logic that only they use.
pub fn is_monitor(p: &Port) -> bool {
    const NAMES: [&str; 8] = ["retire", "waiting", "bus_done", "bus_mask", "smem_done", "smem_mask", "cta_start", "cta_linear"];
    const PREFIXES: [&str; 5] = ["perf_", "ret_", "mem_laddr", "mem_lwdata", "mem_ldata"];
    NAMES.contains(&p.name.as_str()) || PREFIXES.iter().any(|x| p.name.starts_with(x)) || p.name == "cta_slot"
}

/// Runs the request; prints the report on stdout and the stages on
/// stderr. Exit status 0 when the design was synthesized (and routed),
/// 1 when it does not fit or a tool failed (the report says which).
pub fn run(req: Request) -> Result<i32, String> {
    let start = Instant::now();
    let mut progress = |what: &str| eprintln!("[{:>5.0} s] {what}", start.elapsed().as_secs_f64());
    if req.blocks {
        let b = blocks::run(&req.design, &req.verilog, req.target, &req.out, &mut progress)?;
        print(&b, req.json)?;
        return Ok(if b.rows.iter().any(|r| r.failed.is_some()) { 1 } else { 0 });
    }
    let all = verilog::modules(&req.verilog)?;
    let top = req.block.clone().unwrap_or_else(|| "top".into());
    let tree = verilog::subtree(&all, &top)?;
    let dut: String = tree.iter().map(|m| m.text.as_str()).collect::<Vec<_>>().join("\n");
    let keep = |p: &Port| req.monitors || req.block.is_some() || !is_monitor(p);
    let wrapper = verilog::scan_wrapper(tree[0], keep);
    let sources = vec![("dut.v".to_string(), dut), ("scan.v".to_string(), wrapper)];
    let opts = Options { target: req.target, freq_mhz: req.freq_mhz, out: req.out.clone(), place: req.place };
    let design = match &req.block {
        Some(b) => format!("{} block {b}", req.design),
        None => req.design.clone(),
    };
    let report = heddle_fpga::run(&design, SCAN_TOP, &sources, &opts, &mut progress)?;
    print(&report, req.json)?;
    std::fs::write(req.out.join("report.json"), serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?)
        .map_err(|e| format!("cannot write report.json: {e}"))?;
    Ok(match report.outcome {
        Outcome::Synthesized | Outcome::Routed { .. } => 0,
        Outcome::DoesNotFit { .. } | Outcome::Failed { .. } => 1,
    })
}

fn print<T: serde::Serialize + std::fmt::Display>(r: &T, json: bool) -> Result<(), String> {
    use std::io::Write as _;
    let text = if json { serde_json::to_string_pretty(r).map_err(|e| e.to_string())? } else { r.to_string() };
    let _ = writeln!(std::io::stdout(), "{text}");
    Ok(())
}
