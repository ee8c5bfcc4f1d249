//! The SM's memories as its configuration sizes them: each RAM's module,
//! words, width and how it is read. `Sm::new` sizes its RAMs with these
//! functions, `heddle synth` prints the total against the part, and
//! `tests/budget.rs` checks that the exported Verilog declares exactly
//! these arrays for every preset.

use crate::config::SmConfig;
use crate::regfile::WORD_BITS;
use heddle_isa::fields::BARRIERS;

/// How a memory is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Read {
    /// At a registered address (`SyncRam`, `BankRam`): block RAM.
    Registered,
    /// Asynchronously: distributed RAM or flip-flops. No memory of the SM
    /// is read so (`tests/fpga.rs` checks every preset's Verilog).
    Asynchronous,
}

/// One RAM of the SM.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Memory {
    /// Its module in the exported Verilog (`top$rf$0$port_a`).
    pub module: String,
    pub words: u64,
    pub bits: u64,
    pub read: Read,
}

impl SmConfig {
    /// Bits of a register number in the register file's address: enough
    /// for the registers (`rz`, 127, masked to them lands on a register, so
    /// the SM never reads or writes it through a port).
    pub fn reg_bits(&self) -> u32 {
        self.regs_per_thread.next_power_of_two().trailing_zeros()
    }

    /// Words of each lane's register-file RAM: warps x beats x 2^reg_bits.
    pub fn rf_words(&self) -> usize {
        ((self.warps * self.beats()) as usize) << self.reg_bits()
    }

    /// Words of each lane's `tid` RAM: warps x beats.
    pub fn tid_words(&self) -> usize {
        (self.warps * self.beats()) as usize
    }

    /// Entries of the reconvergence stack's RAMs: each warp's stack rounded
    /// up to a power of two.
    pub fn stack_entries(&self) -> usize {
        self.warps as usize * (self.stack_depth as usize).next_power_of_two()
    }

    /// Words of each shared-memory bank (4 bytes each).
    pub fn smem_bank_words(&self) -> usize {
        (self.shared_bytes as usize / (4 * self.shared_banks as usize)).max(1)
    }

    /// Barrier-state words: every barrier of every CTA slot.
    pub fn barrier_words(&self) -> usize {
        BARRIERS * self.ctas as usize
    }

    /// Every RAM of the SM, by module.
    pub fn memories(&self) -> Vec<Memory> {
        use Read::*;
        let warps = self.warps as usize;
        let mut m = vec![];
        let mut add = |module: String, words: usize, bits: u64, read: Read| m.push(Memory { module, words: words as u64, bits, read });
        for lane in 0..self.lanes {
            for port in ["a", "b", "c"] {
                add(format!("top$rf${lane}$port_{port}"), self.rf_words(), WORD_BITS as u64, Registered);
            }
            add(format!("top$tids${lane}"), self.tid_words(), 32, Registered);
            // A fast access's addresses and 64-bit loads' second words, a word per beat.
            for name in ["fa_adr", "fa_hw"] {
                add(format!("top${name}${lane}"), self.beats() as usize, 32, Registered);
            }
        }
        for bank in 0..self.shared_banks {
            add(format!("top$smem$banks${bank}"), self.smem_bank_words(), 32, Registered);
        }
        let imem = self.imem_words as usize;
        add("top$imem".into(), imem, 64, Registered);
        add("top$ibad".into(), imem, 1, Registered);
        // Thread masks are stored warp_size wide (`SyncRam::keep`).
        let ws = self.warp_size as u64;
        for p in 0..7 {
            add(format!("top$preds${p}"), warps, ws, Registered);
        }
        add("top$carry".into(), warps, ws, Registered);
        add("top$exited".into(), warps, ws, Registered);
        add("top$w_info".into(), warps, 13, Registered);
        for (name, bits) in [("bar_ae", 64), ("bar_cr", 64), ("bar_tag", 16)] {
            add(format!("top${name}"), self.barrier_words(), bits, Registered);
        }
        for half in ["even", "odd"] {
            add(format!("top$pcache${half}"), crate::pcache::PARAM_WORDS / 2, 32, Registered);
        }
        for (name, bits) in [("pcrpc", 64), ("emask", ws), ("ecall", 1)] {
            add(format!("top$stack${name}"), self.stack_entries(), bits, Registered);
        }
        m.sort();
        m
    }

    /// Bits of every RAM, by how they are read: (registered, asynchronous).
    pub fn memory_bits(&self) -> (u64, u64) {
        let sum = |r: Read| self.memories().iter().filter(|m| m.read == r).map(|m| m.words * m.bits).sum();
        (sum(Read::Registered), sum(Read::Asynchronous))
    }
}

/// The memories of a configuration as a table: one row per kind of RAM
/// (per-lane and per-bank copies counted), then the totals.
pub struct Table<'a>(pub &'a SmConfig);

impl std::fmt::Display for Table<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut rows: Vec<(String, u64, u64, Read, u64)> = vec![];
        for m in self.0.memories() {
            // `top$rf$3$port_a` is one of the `top$rf$*$port_a` RAMs.
            let kind: String = m.module.split('$').map(|p| if p.parse::<u32>().is_ok() { "*" } else { p }).collect::<Vec<_>>().join("$");
            match rows.iter_mut().find(|r| r.0 == kind) {
                Some(r) => r.4 += 1,
                None => rows.push((kind, m.words, m.bits, m.read, 1)),
            }
        }
        writeln!(f, "{:<20} {:>6} {:>8} {:>5} {:<13} {:>10}", "memory", "copies", "words", "bits", "read", "kbit")?;
        for (kind, words, bits, read, n) in &rows {
            let read = if *read == Read::Registered { "registered" } else { "asynchronous" };
            writeln!(f, "{kind:<20} {n:>6} {words:>8} {bits:>5} {read:<13} {:>10.1}", (n * words * bits) as f64 / 1024.0)?;
        }
        let (reg, asy) = self.0.memory_bits();
        writeln!(f, "total: {:.1} kbit read at a registered address, {:.1} kbit asynchronously", reg as f64 / 1024.0, asy as f64 / 1024.0)
    }
}
