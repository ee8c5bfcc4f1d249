//! What a run of the flow measured, as types (written as JSON) and as a
//! table: cells after synthesis, what placement used of the part, timing,
//! where each memory went, how long each stage took.

use crate::target::{Family, Target};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// LUT sites an ECP5 16x4 distributed RAM (TRELLIS_DPR16X4) takes: its two
/// RAM slices and the slice that drives its write port (`RAMW`), two LUTs
/// each, none of them free for logic.
pub const DPR16X4_LUTS: u64 = 6;

/// Cells after synthesis, by what they are.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Cells {
    /// LUT4 (ECP5) or SB_LUT4 (iCE40).
    pub luts: u64,
    /// Carry cells: CCU2C (two LUTs each) or SB_CARRY (in a LUT's cell).
    pub carry: u64,
    pub ffs: u64,
    /// DP16KD/PDPW16KD or SB_RAM40_4K.
    pub brams: u64,
    /// Distributed RAM: TRELLIS_DPR16X4 (ECP5; none on iCE40).
    pub dist_ram: u64,
    /// MULT18X18D/ALU54B or SB_MAC16.
    pub dsps: u64,
    /// Every primitive by type, as yosys counted it.
    pub by_type: BTreeMap<String, u64>,
}

impl Cells {
    /// Classifies yosys's `num_cells_by_type` (black boxes and yosys's
    /// bookkeeping cells are left out).
    pub fn of(family: Family, by_type: &BTreeMap<String, u64>) -> Cells {
        let mut c = Cells::default();
        for (ty, &n) in by_type {
            let slot = match (family, ty.as_str()) {
                (Family::Ecp5, "LUT4") | (Family::Ice40, "SB_LUT4") => &mut c.luts,
                (Family::Ecp5, "CCU2C") | (Family::Ice40, "SB_CARRY") => &mut c.carry,
                (Family::Ecp5, "TRELLIS_FF") => &mut c.ffs,
                (Family::Ice40, t) if t.starts_with("SB_DFF") => &mut c.ffs,
                (Family::Ecp5, "DP16KD" | "PDPW16KD") | (Family::Ice40, "SB_RAM40_4K") => &mut c.brams,
                (Family::Ecp5, "TRELLIS_DPR16X4") => &mut c.dist_ram,
                (Family::Ecp5, "MULT18X18D" | "ALU54B") | (Family::Ice40, "SB_MAC16") => &mut c.dsps,
                _ if is_primitive(family, ty) => {
                    c.by_type.insert(ty.clone(), n);
                    continue;
                }
                _ => continue,
            };
            *slot += n;
            c.by_type.insert(ty.clone(), n);
        }
        c
    }

    /// LUTs with carries and distributed RAM counted as the LUTs they
    /// occupy (on ECP5 a CCU2C holds two, a TRELLIS_DPR16X4 three slices,
    /// [`DPR16X4_LUTS`]; an SB_CARRY shares its LUT's cell on iCE40): what
    /// the part's LUT count is compared with.
    pub fn lut_equivalent(&self, family: Family) -> u64 {
        match family {
            Family::Ecp5 => self.luts + 2 * self.carry + DPR16X4_LUTS * self.dist_ram,
            Family::Ice40 => self.luts,
        }
    }

    pub fn add(&mut self, other: &Cells, times: u64) {
        self.luts += other.luts * times;
        self.carry += other.carry * times;
        self.ffs += other.ffs * times;
        self.brams += other.brams * times;
        self.dist_ram += other.dist_ram * times;
        self.dsps += other.dsps * times;
        for (t, n) in &other.by_type {
            *self.by_type.entry(t.clone()).or_default() += n * times;
        }
    }
}

/// Primitive cells of the family (anything else in a count is a black box
/// or yosys's own bookkeeping).
fn is_primitive(family: Family, ty: &str) -> bool {
    match family {
        Family::Ecp5 => ty.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'),
        Family::Ice40 => ty.starts_with("SB_"),
    }
}

/// Used against available.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Use {
    pub used: u64,
    pub available: u64,
}

impl fmt::Display for Use {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pct = if self.available == 0 { 0.0 } else { 100.0 * self.used as f64 / self.available as f64 };
        write!(f, "{} / {} ({pct:.1}%)", self.used, self.available)
    }
}

/// What placement used of the part (nextpnr's utilization).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Placed {
    /// TRELLIS_COMB (LUTs, carries, distributed-RAM LUTs) or ICESTORM_LC.
    pub logic: Use,
    pub ffs: Use,
    pub brams: Use,
    pub dsps: Use,
    /// Distributed-RAM write ports (TRELLIS_RAMW, ECP5).
    pub dist_ram: Use,
    pub io: Use,
}

/// The achieved clock and its critical path.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Timing {
    pub clock: String,
    pub target_mhz: f64,
    pub fmax_mhz: f64,
    pub path_from: String,
    pub path_to: String,
    /// Cell delays on the path (clock-to-out, logic, setup), ns.
    pub logic_ns: f64,
    pub routing_ns: f64,
    /// Cells the path passes through.
    pub cells: usize,
}

/// What a memory of the design became.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MemKind {
    BlockRam,
    DistributedRam,
    FlipFlops,
}

impl fmt::Display for MemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MemKind::BlockRam => "block RAM",
            MemKind::DistributedRam => "distributed RAM",
            MemKind::FlipFlops => "flip-flops (warning)",
        })
    }
}

/// One memory and what it became.
#[derive(Clone, Debug, Serialize)]
pub struct Memory {
    /// `module.memory` as yosys names it.
    pub name: String,
    pub became: MemKind,
    /// yosys's mapping cell (`$__ECP5_DP16KD_`), or `memory_map`.
    pub via: String,
}

/// How the run ended.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Outcome {
    /// Synthesized only (`--blocks`, or `--no-place`).
    Synthesized,
    /// Placed, routed and packed into a bitstream.
    Routed { meets_timing: bool },
    /// The design needs more than the part has.
    DoesNotFit { reason: String },
    /// A tool failed; its log is in the output folder.
    Failed { stage: String, reason: String },
}

/// One stage of the flow and its wall time.
#[derive(Clone, Debug, Serialize)]
pub struct Stage {
    pub name: String,
    pub seconds: f64,
}

/// One run of the flow.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub design: String,
    pub target: String,
    pub part: String,
    pub board: String,
    pub tools: Vec<String>,
    pub cells: Cells,
    /// The LUTs the part's LUT count is compared with (`Cells::lut_equivalent`).
    pub lut_equivalent: Use,
    pub placed: Option<Placed>,
    pub timing: Option<Timing>,
    pub memories: Vec<Memory>,
    /// The memory arrays read from the Verilog before synthesis, against
    /// the part (absent for Verilog the flow cannot read).
    pub budget: Option<crate::budget::Budget>,
    pub bitstream: Option<String>,
    pub stages: Vec<Stage>,
    pub outcome: Outcome,
}

impl Report {
    pub fn new(design: &str, target: Target, tools: Vec<String>) -> Report {
        Report {
            design: design.into(),
            target: target.name().into(),
            part: target.part().into(),
            board: target.board().name.into(),
            tools,
            cells: Cells::default(),
            lut_equivalent: Use::default(),
            placed: None,
            timing: None,
            memories: Vec::new(),
            budget: None,
            bitstream: None,
            stages: Vec::new(),
            outcome: Outcome::Synthesized,
        }
    }

    /// The netlist's cells, and the LUTs they occupy of the part's.
    pub fn set_cells(&mut self, cells: Cells, target: Target) {
        self.lut_equivalent = Use { used: cells.lut_equivalent(target.family()), available: target.capacity().luts };
        self.cells = cells;
    }

    pub fn seconds(&self) -> f64 {
        self.stages.iter().map(|s| s.seconds).sum()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} on {} ({}, board {})", self.design, self.target, self.part, self.board)?;
        writeln!(f, "  tools       {}", self.tools.join("; "))?;
        let c = &self.cells;
        if !self.stages.is_empty() {
            writeln!(
                f,
                "  synthesis   {} LUT4, {} carry, {} FF, {} block RAM, {} distributed RAM, {} DSP",
                c.luts, c.carry, c.ffs, c.brams, c.dist_ram, c.dsps
            )?;
            writeln!(f, "  LUTs        {} (carries and distributed RAM as the LUTs they occupy)", self.lut_equivalent)?;
        }
        if let Some(p) = &self.placed {
            writeln!(
                f,
                "  placed      logic {}, FF {}, block RAM {}, DSP {}, distributed RAM {}, IO {}",
                p.logic, p.ffs, p.brams, p.dsps, p.dist_ram, p.io
            )?;
        }
        if let Some(t) = &self.timing {
            writeln!(
                f,
                "  timing      Fmax {:.1} MHz (target {:.1}); critical path {} -> {}: {:.1} ns logic + {:.1} ns routing, {} cells",
                t.fmax_mhz, t.target_mhz, t.path_from, t.path_to, t.logic_ns, t.routing_ns, t.cells
            )?;
        }
        if let Some(b) = &self.budget {
            writeln!(f, "  arrays      {b}")?;
        }
        if !self.memories.is_empty() {
            writeln!(f, "  memories")?;
            for m in &self.memories {
                writeln!(f, "    {:<40} {} ({})", m.name, m.became, m.via)?;
            }
        }
        if let Some(b) = &self.bitstream {
            writeln!(f, "  bitstream   {b}")?;
        }
        let stages: Vec<String> = self.stages.iter().map(|s| format!("{} {:.0} s", s.name, s.seconds)).collect();
        if stages.is_empty() {
            writeln!(f, "  time        no tool ran")?;
        } else {
            writeln!(f, "  time        {:.0} s ({})", self.seconds(), stages.join(", "))?;
        }
        let outcome = match &self.outcome {
            Outcome::Synthesized => "synthesized".to_string(),
            Outcome::Routed { meets_timing: true } => "routed, meets timing".to_string(),
            Outcome::Routed { meets_timing: false } => "routed, misses timing".to_string(),
            Outcome::DoesNotFit { reason } => format!("does not fit: {reason}"),
            Outcome::Failed { stage, reason } => format!("{stage} failed: {reason}"),
        };
        write!(f, "  outcome     {outcome}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_classified_and_black_boxes_left_out() {
        let by: BTreeMap<String, u64> =
            [("LUT4", 10), ("CCU2C", 3), ("TRELLIS_FF", 7), ("DP16KD", 2), ("PFUMX", 4), ("$scopeinfo", 1), ("top$alus$0", 1)]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect();
        let c = Cells::of(Family::Ecp5, &by);
        assert_eq!((c.luts, c.carry, c.ffs, c.brams), (10, 3, 7, 2));
        assert_eq!(c.lut_equivalent(Family::Ecp5), 16);
        assert!(c.by_type.contains_key("PFUMX") && !c.by_type.contains_key("top$alus$0") && !c.by_type.contains_key("$scopeinfo"));
        let mut t = Cells::default();
        t.add(&c, 3);
        assert_eq!((t.luts, t.by_type["PFUMX"]), (30, 12));
    }
}
