//! The retire record: one per warp instruction, the same type for every
//! engine. Differential tests and lockstep compare these.

use crate::trap::Space;
use serde::Serialize;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum MemKind {
    Load,
    Store,
    Atomic,
}

/// One lane's memory access.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MemAccess {
    pub lane: u8,
    pub kind: MemKind,
    pub space: Space,
    /// Offset within the space (global: the address).
    pub addr: u32,
    pub size: u8,
    /// Stored value (stores, atomics: the new value) or loaded value; low bytes first.
    pub data: u128,
}

/// One lane's write of one general register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RegWrite {
    pub lane: u8,
    pub reg: u8,
    pub value: u32,
}

/// A predicate's new lane mask (bits of lanes outside `exec` are unchanged).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PredWrite {
    pub pred: u8,
    pub mask: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Retire {
    /// Engine order: step number (golden model) or cycle (RTL).
    pub seq: u64,
    pub sm: u32,
    /// Linear CTA index in the grid.
    pub cta: u32,
    /// Warp within the CTA.
    pub warp: u32,
    pub pc: u32,
    /// Threads of the warp that issued the instruction.
    pub active: u64,
    /// Of those, the threads whose guard held.
    pub exec: u64,
    pub regs: Vec<RegWrite>,
    pub preds: Vec<PredWrite>,
    pub mem: Vec<MemAccess>,
}

impl Retire {
    /// The fields every engine must agree on (everything except `seq`).
    pub fn same_effect(&self, other: &Retire) -> bool {
        (self.sm, self.cta, self.warp, self.pc, self.active, self.exec)
            == (other.sm, other.cta, other.warp, other.pc, other.active, other.exec)
            && self.regs == other.regs
            && self.preds == other.preds
            && self.mem == other.mem
    }
}

impl Retire {
    /// The record as a `--trace` line with the instruction's mnemonic after
    /// the pc (docs/timeline.md lists the columns).
    pub fn line(&self, mnemonic: &str) -> String {
        Line(self, Some(mnemonic)).to_string()
    }
}

/// A record's text, with or without a mnemonic.
struct Line<'r>(&'r Retire, Option<&'r str>);

impl fmt::Display for Retire {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Line(self, None).fmt(f)
    }
}

impl fmt::Display for Line<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Line(r, m) = *self;
        write!(f, "{:>8} cta {} warp {} pc {:>5} ", r.seq, r.cta, r.warp, r.pc)?;
        if let Some(m) = m {
            write!(f, "{m:<14} ")?;
        }
        write!(f, "active {:#x} exec {:#x}", r.active, r.exec)?;
        for w in &r.regs {
            write!(f, " l{}:r{}={:#x}", w.lane, w.reg, w.value)?;
        }
        for p in &r.preds {
            write!(f, " p{}={:#x}", p.pred, p.mask)?;
        }
        for a in &r.mem {
            let k = match a.kind {
                MemKind::Load => "ld",
                MemKind::Store => "st",
                MemKind::Atomic => "atom",
            };
            write!(f, " l{}:{k}.{}[{:#x}]/{}={:#x}", a.lane, a.space, a.addr, a.size, a.data)?;
        }
        Ok(())
    }
}
