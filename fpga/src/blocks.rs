//! Area per hardware block: every distinct module of the design
//! synthesized on its own, its children as black boxes, so the LUTs of a
//! design too large to synthesize whole can still be counted, and each
//! block's memories show what they became. Flip-flop banks (`Reg`, `Regs`)
//! are not blocks: each is synthesized inside its parent, so a register the
//! parent holds is counted as what it becomes in the whole design, a
//! flip-flop with a clock enable, not as a multiplexer feeding back `q`.

use crate::flow::{self, Options};
use crate::report::{Cells, Memory, Outcome, Use};
use crate::target::Target;
use crate::verilog::{self, Module};
use serde::Serialize;
use std::fmt;

/// One distinct module body and the modules that share it.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The first module with this body.
    pub module: String,
    /// How many modules share it (rust-hdl writes one per instance).
    pub copies: u64,
    /// One copy's cells.
    pub cells: Cells,
    pub memories: Vec<Memory>,
    pub seconds: f64,
    /// Why it could not be synthesized, if it could not.
    pub failed: Option<String>,
    /// Every module with this body, `module` first.
    #[serde(skip)]
    pub names: Vec<String>,
    /// Where it was synthesized (its `synth.json`).
    #[serde(skip)]
    pub dir: std::path::PathBuf,
    /// The module that netlist holds it as: `module`, or
    /// [`verilog::BLOCK_TOP`] for the design's top without the outputs
    /// left out.
    #[serde(skip)]
    pub netlist_top: String,
}

/// Every block of a design.
#[derive(Clone, Debug, Serialize)]
pub struct Blocks {
    pub design: String,
    pub target: String,
    pub tools: Vec<String>,
    /// By total LUTs (copies included), largest first.
    pub rows: Vec<Row>,
    /// Sums over every row, copies included.
    pub total: Cells,
    pub lut_equivalent: Use,
    pub seconds: f64,
}

/// Synthesizes each distinct module of `verilog` for `target`, in `out/<n>/`,
/// each for at most `limit` (a block that takes longer is a row that says so).
/// The design's top module keeps only the outputs `keep` accepts.
pub fn run(
    design: &str,
    verilog: &str,
    target: Target,
    out: &std::path::Path,
    limit: Option<std::time::Duration>,
    keep: &dyn Fn(&verilog::Port) -> bool,
    progress: &mut dyn FnMut(&str),
) -> Result<Blocks, String> {
    let all = verilog::modules(verilog)?;
    let mut groups: Vec<(&Module, Vec<String>)> = Vec::new();
    let mut bodies: Vec<String> = Vec::new();
    let inside_parent = |m: &Module| m.is_flop_bank() && all.iter().any(|p| p.children.contains(&m.name));
    for m in all.iter().filter(|m| !inside_parent(m)) {
        let body = m.body();
        match bodies.iter().position(|b| *b == body) {
            Some(i) => groups[i].1.push(m.name.clone()),
            None => {
                bodies.push(body);
                groups.push((m, vec![m.name.clone()]));
            }
        }
    }
    let mut rows = Vec::new();
    let mut tools = flow::versions(target)?;
    let n = groups.len();
    for (i, (m, names)) in groups.into_iter().enumerate() {
        let copies = names.len() as u64;
        let opts = Options { target, freq_mhz: 0.0, out: out.join(format!("{i:03}")), place: false, limit };
        let mut text = verilog::with_blackboxes(&all, m);
        // The design's top: without the outputs `keep` leaves out.
        let root = !all.iter().any(|p| p.children.contains(&m.name));
        let dropped = m.ports.iter().any(|p| p.dir == verilog::Dir::Out && !keep(p));
        let top = if root && dropped {
            text += &verilog::port_wrapper(m, keep);
            verilog::BLOCK_TOP
        } else {
            m.name.as_str()
        };
        // A block synthesized before, from the same text, in the same folder
        // (its `stat.json` is written last): reused.
        let done = opts.out.join("stat.json").exists()
            && std::fs::read_to_string(opts.out.join("block.v")).is_ok_and(|t| t == text)
            && std::fs::read_to_string(opts.out.join("synth.ys")).is_ok_and(|t| t.contains(target.synth_command()));
        if done {
            progress(&format!("block {}/{n}: {} (x{copies}), synthesized before", i + 1, m.name));
            let (cells, memories, seconds) = flow::synthesized(&opts.out, target.family())?;
            rows.push(Row {
                module: m.name.clone(),
                copies,
                cells,
                memories,
                seconds,
                failed: None,
                names,
                dir: opts.out,
                netlist_top: top.into(),
            });
            continue;
        }
        let _ = std::fs::remove_file(opts.out.join("stat.json"));
        let src = vec![("block.v".to_string(), text)];
        let r = flow::run(&m.name, top, &src, &opts, &mut |_| progress(&format!("block {}/{n}: {} (x{copies})", i + 1, m.name)))?;
        tools = r.tools.clone();
        let failed = match &r.outcome {
            Outcome::Failed { reason, .. } => Some(reason.clone()),
            _ => None,
        };
        rows.push(Row {
            module: m.name.clone(),
            copies,
            cells: r.cells.clone(),
            memories: r.memories.clone(),
            seconds: r.seconds(),
            failed,
            names,
            dir: opts.out,
            netlist_top: top.into(),
        });
    }
    let family = target.family();
    rows.sort_by_key(|r| std::cmp::Reverse(r.cells.lut_equivalent(family) * r.copies));
    let mut total = Cells::default();
    for r in &rows {
        total.add(&r.cells, r.copies);
    }
    Ok(Blocks {
        design: design.into(),
        target: target.name().into(),
        tools,
        lut_equivalent: Use { used: total.lut_equivalent(family), available: target.capacity().luts },
        seconds: rows.iter().map(|r| r.seconds).sum(),
        rows,
        total,
    })
}

impl fmt::Display for Blocks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} on {}, per block (children as black boxes, flip-flops in their parents); {}",
            self.design,
            self.target,
            self.tools.join("; ")
        )?;
        writeln!(
            f,
            "{:<28} {:>6} {:>9} {:>7} {:>7} {:>6} {:>6} {:>5} {:>9} {:>6}",
            "block", "copies", "LUT4 all", "LUT4", "carry", "FF", "BRAM", "DSP", "dist RAM", "s"
        )?;
        for r in &self.rows {
            let c = &r.cells;
            let all = c.luts * r.copies;
            writeln!(
                f,
                "{:<28} {:>6} {:>9} {:>7} {:>7} {:>6} {:>6} {:>5} {:>9} {:>6.1}{}",
                r.module,
                r.copies,
                all,
                c.luts,
                c.carry,
                c.ffs,
                c.brams,
                c.dsps,
                c.dist_ram,
                r.seconds,
                r.failed.as_deref().map(|e| format!("  FAILED: {e}")).unwrap_or_default()
            )?;
        }
        let t = &self.total;
        let missing: Vec<&str> = self.rows.iter().filter(|r| r.failed.is_some()).map(|r| r.module.as_str()).collect();
        if !missing.is_empty() {
            writeln!(f, "the totals leave out {} block(s) that did not synthesize: {}", missing.len(), missing.join(", "))?;
        }
        writeln!(
            f,
            "total: {} LUT4, {} carry, {} FF, {} block RAM, {} DSP, {} distributed RAM",
            t.luts, t.carry, t.ffs, t.brams, t.dsps, t.dist_ram
        )?;
        writeln!(f, "LUTs (carries and distributed RAM as the LUTs they occupy): {}", self.lut_equivalent)?;
        writeln!(f, "memories:")?;
        let mut flops = 0;
        for r in &self.rows {
            for m in &r.memories {
                writeln!(f, "  {:<40} x{:<3} {} ({})", m.name, r.copies, m.became, m.via)?;
                flops += (m.became == crate::report::MemKind::FlipFlops) as u64 * r.copies;
            }
        }
        if flops > 0 {
            writeln!(f, "warning: {flops} memories became flip-flops")?;
        }
        write!(f, "synthesis time: {:.0} s", self.seconds)
    }
}
