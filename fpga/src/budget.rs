//! The memory budget of a design, read from its Verilog before any tool
//! runs: every memory array, what it becomes on the family (block RAM when
//! its read address is registered, distributed RAM or flip-flops when it
//! is read asynchronously), and what the part must hold for the arrays as
//! declared. A design whose memories alone exceed the part is a "does not
//! fit" report in seconds, instead of after minutes of yosys.
//!
//! As declared, not as built: yosys drops unused bits and can merge copies
//! written together into one array with more read ports (`tiny` with one
//! lane declares three 1,024 x 64 register-file copies, 12 DP16KD, and
//! yosys builds them in 9). So the check only stops a place-and-route
//! run; `--no-place` synthesizes anyway.
//!
//! It reads the shape of the SM's RAMs (`hw/src/ram.rs`): an array
//! `reg [W-1:0] mem [0:N-1];` per module, read at a registered address
//! when the module reads `mem[ra]`.

use crate::target::{Family, Target};
use crate::verilog::Module;
use serde::Serialize;
use std::fmt;

/// How a memory is read, and so what it can become.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Read {
    /// At a registered address: block RAM.
    Registered,
    /// Asynchronously: distributed RAM (ECP5) or flip-flops (iCE40).
    Asynchronous,
}

/// One memory array of the design.
#[derive(Clone, Debug, Serialize)]
pub struct MemoryArray {
    /// The module that holds it.
    pub module: String,
    pub words: u64,
    pub bits: u64,
    pub read: Read,
    /// The block RAMs (registered), distributed-RAM cells (ECP5,
    /// asynchronous) or flip-flops (iCE40, asynchronous) it takes alone.
    pub cells: u64,
}

/// The design's memories against the part.
#[derive(Clone, Debug, Serialize)]
pub struct Budget {
    pub memories: Vec<MemoryArray>,
    /// Block RAMs the registered memories need.
    pub brams: u64,
    /// TRELLIS_DPR16X4 cells the asynchronous memories need on ECP5.
    pub dist_ram: u64,
    /// The LUTs those cells occupy (each 16 x 4 cell packs into 6
    /// TRELLIS_COMB: 4 for the RAM, 2 for its write port).
    pub dist_ram_luts: u64,
    /// Flip-flops the asynchronous memories become on iCE40.
    pub ffs: u64,
}

/// The block RAM shapes (words, bits) of a family: DP16KD (18 kbit) and
/// SB_RAM40_4K (4 kbit).
fn bram_shapes(f: Family) -> &'static [(u64, u64)] {
    match f {
        Family::Ecp5 => &[(16384, 1), (8192, 2), (4096, 4), (2048, 9), (1024, 18), (512, 36)],
        Family::Ice40 => &[(2048, 2), (1024, 4), (512, 8), (256, 16)],
    }
}

/// The least block RAMs of family `f` that hold `words` x `bits`.
pub fn brams(f: Family, words: u64, bits: u64) -> u64 {
    bram_shapes(f).iter().map(|&(d, w)| words.div_ceil(d) * bits.div_ceil(w)).min().unwrap_or(0)
}

/// The memory arrays of `modules`, one per module that declares one.
pub fn arrays(modules: &[&Module], family: Family) -> Vec<MemoryArray> {
    let mut out = Vec::new();
    for m in modules {
        for line in m.text.lines() {
            let Some((bits, words)) = array_decl(line.trim()) else { continue };
            let read = if m.text.contains("mem[ra]") { Read::Registered } else { Read::Asynchronous };
            let cells = match (read, family) {
                (Read::Registered, f) => brams(f, words, bits),
                (Read::Asynchronous, Family::Ecp5) => words.div_ceil(16) * bits.div_ceil(4),
                (Read::Asynchronous, Family::Ice40) => words * bits,
            };
            out.push(MemoryArray { module: m.name.clone(), words, bits, read, cells });
        }
    }
    out
}

/// `reg [H:0] mem [0:L];` as (bits, words).
fn array_decl(line: &str) -> Option<(u64, u64)> {
    let rest = line.strip_prefix("reg [")?;
    let (h, rest) = rest.split_once(":0] mem [0:")?;
    let l = rest.strip_suffix("];")?;
    Some((h.trim().parse::<u64>().ok()? + 1, l.trim().parse::<u64>().ok()? + 1))
}

impl Budget {
    /// The budget of module `top` of a design's modules and the modules
    /// below it (none without `top`).
    pub fn of_design(all: &[Module], top: &str, target: Target) -> Option<Budget> {
        Some(Budget::of(&crate::verilog::subtree(all, top).ok()?, target))
    }

    pub fn of(modules: &[&Module], target: Target) -> Budget {
        let family = target.family();
        let memories = arrays(modules, family);
        let sum = |read: Read| memories.iter().filter(|m| m.read == read).map(|m| m.cells).sum::<u64>();
        let asynchronous = sum(Read::Asynchronous);
        let (dist_ram, ffs) = match family {
            Family::Ecp5 => (asynchronous, 0),
            Family::Ice40 => (0, asynchronous),
        };
        Budget { brams: sum(Read::Registered), dist_ram, dist_ram_luts: crate::report::DPR16X4_LUTS * dist_ram, ffs, memories }
    }

    /// Why the memories alone do not fit `target`, if they do not.
    pub fn short(&self, target: Target) -> Option<String> {
        let cap = target.capacity();
        let largest = |read: Read| {
            self.memories
                .iter()
                .filter(|m| m.read == read)
                .max_by_key(|m| m.cells)
                .map(|m| format!(" (the largest: {} x {} bits in {})", m.words, m.bits, m.module))
                .unwrap_or_default()
        };
        let needs = [
            (self.brams, cap.brams, Read::Registered, format!("read at a registered address need {} block RAMs", self.brams)),
            (
                self.dist_ram_luts,
                cap.luts,
                Read::Asynchronous,
                format!("read asynchronously need {} distributed-RAM cells, {} LUTs", self.dist_ram, self.dist_ram_luts),
            ),
            (
                self.ffs,
                cap.ffs,
                Read::Asynchronous,
                format!("read asynchronously become {} flip-flops on a part without distributed RAM", self.ffs),
            ),
        ];
        let (_, has, read, need) = needs.into_iter().find(|(need, has, _, _)| need > has)?;
        Some(format!("as declared, its memories {need}, the part has {has}{}", largest(read)))
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = |read: Read| self.memories.iter().filter(|m| m.read == read).count();
        write!(
            f,
            "{} read at a registered address ({} block RAMs as declared), {} asynchronously",
            n(Read::Registered),
            self.brams,
            n(Read::Asynchronous)
        )?;
        if self.dist_ram > 0 {
            write!(f, " ({} distributed-RAM cells, {} LUTs)", self.dist_ram, self.dist_ram_luts)?;
        }
        if self.ffs > 0 {
            write!(f, " ({} flip-flops)", self.ffs)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_ram_counts_take_the_best_shape() {
        // A register-file port of `tiny` (256 x 64) and of `default` (16,384 x 64).
        assert_eq!(brams(Family::Ecp5, 256, 64), 2);
        assert_eq!(brams(Family::Ice40, 256, 64), 4);
        assert_eq!(brams(Family::Ecp5, 16384, 64), 64);
        assert_eq!(brams(Family::Ice40, 4096, 64), 64);
        assert_eq!(brams(Family::Ecp5, 2048, 9), 1);
    }

    #[test]
    fn arrays_are_read_from_the_ram_modules() {
        let v = "module top$rf(clock,raddr,rdata);\n    input wire  clock;\n    reg [63:0] mem [0:255];\n    reg [7:0] ra;\n    \
                 assign rdata = mem[ra];\nendmodule\n\
                 module top$imem(raddr,rdata);\n    reg [63:0] mem [0:2047];\n    assign rdata = mem[raddr];\nendmodule\n";
        let ms = crate::verilog::modules(v).unwrap();
        let refs: Vec<&Module> = ms.iter().collect();
        let b = Budget::of(&refs, Target::Ecp5_25f);
        assert_eq!(b.memories.len(), 2);
        assert_eq!((b.memories[0].read, b.memories[0].cells), (Read::Registered, 2));
        assert_eq!((b.memories[1].read, b.memories[1].cells), (Read::Asynchronous, 2048));
        assert_eq!((b.brams, b.dist_ram, b.dist_ram_luts), (2, 2048, 12288));
        assert_eq!(b.short(Target::Ecp5_25f), None);
        let ice = Budget::of(&refs, Target::Ice40Up5k);
        assert_eq!((ice.brams, ice.ffs), (4, 131072));
        let why = ice.short(Target::Ice40Up5k).unwrap();
        assert!(why.contains("become 131072 flip-flops") && why.contains("2048 x 64 bits in top$imem"), "{why}");
    }
}
