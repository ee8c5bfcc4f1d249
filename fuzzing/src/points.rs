//! Functional coverage: which situations that break SIMT hardware a
//! campaign's programs reached, and how often (issue 19, "Coverage").
//!
//! A point is a name; a program hits it at most once. They come from two
//! places: the golden model's retire trace ([`Probe`], a `Tracer`: masks,
//! memory accesses and the opcode at each pc) and the RTL's own counters
//! (`RtlStats`: the deepest reconvergence stack, bank-conflict cycles, bus
//! transfers, stalls and error retries, CTA slots used). [`ALL`] lists
//! every point, so a report can name those never hit.

use crate::gen::Case;
use heddle_isa::{Inst, Opcode};
use heddle_sim::launch::{Outcome, Tracer};
use heddle_sim::retire::{MemKind, Retire};
use heddle_sim::rtl::RtlStats;
use heddle_sim::trap::{Space, TrapKind};
use std::collections::{BTreeMap, BTreeSet};

/// Every point, in report order.
pub const ALL: &[&str] = &[
    "branch: divergent",
    "branch: under a partial mask",
    "stack depth: 2",
    "stack depth: 3-4",
    "stack depth: 5-8",
    "stack depth: 9+",
    "stack depth: full (stack_depth entries)",
    "stack: overflow trap",
    "exit: divergent",
    "call",
    "call: divergent",
    "calli",
    "ret: divergent",
    "barriers per program: 1",
    "barriers per program: 2-3",
    "barriers per program: 4+",
    "barrier: warp with exited threads",
    "barred (reduction)",
    "shfl: partial mask",
    "vote/ballot: partial mask",
    "atomic: 2-7 lanes on one address",
    "atomic: 8+ lanes on one address",
    "global: one bus word for several lanes",
    "global: some lanes share bus words",
    "global: a bus word per lane",
    "global: access wider than the bus word",
    "memory width: 1",
    "memory width: 2",
    "memory width: 4",
    "memory width: 8",
    "memory width: 16",
    "shared: bank conflicts 1-15 cycles",
    "shared: bank conflicts 16+ cycles",
    "shared: broadcast (lanes read one word)",
    "bus: stalls",
    "bus: error answered, lanes retried",
    "bus: error after beats that did not wait, started again",
    "CTA slots used: 2",
    "CTA slots used: 3+",
    "launch: partial last warp",
    "launch: several CTAs",
    "printf",
    "trap: any",
];

/// Points a program (or a campaign: summed) hit, with counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hits(pub BTreeMap<String, u64>);

impl Hits {
    fn hit(&mut self, p: &str) {
        *self.0.entry(p.to_string()).or_default() += 1;
    }

    /// Adds another's counts.
    pub fn merge(&mut self, o: &Hits) {
        for (k, n) in &o.0 {
            *self.0.entry(k.clone()).or_default() += n;
        }
    }

    /// Points hit at least once.
    pub fn distinct(&self) -> usize {
        self.0.len()
    }

    /// The points of [`ALL`] never hit.
    pub fn missing(&self) -> Vec<&'static str> {
        ALL.iter().copied().filter(|p| !self.0.contains_key(*p)).collect()
    }

    /// The RTL's counters of one launch.
    pub fn add_rtl(&mut self, r: &RtlStats, stack_depth: u32) {
        let mut once = BTreeSet::new();
        let d = r.max_stack_depth;
        if d >= stack_depth as u64 {
            once.insert("stack depth: full (stack_depth entries)");
        }
        once.insert(match d {
            0..=1 => "",
            2 => "stack depth: 2",
            3..=4 => "stack depth: 3-4",
            5..=8 => "stack depth: 5-8",
            _ => "stack depth: 9+",
        });
        once.insert(match r.bank_conflicts {
            0 => "",
            1..=15 => "shared: bank conflicts 1-15 cycles",
            _ => "shared: bank conflicts 16+ cycles",
        });
        once.insert(if r.bus_stalls > 0 { "bus: stalls" } else { "" });
        once.insert(if r.bus_errors > 0 { "bus: error answered, lanes retried" } else { "" });
        once.insert(if r.mem_redos > 0 { "bus: error after beats that did not wait, started again" } else { "" });
        once.insert(match r.cta_slots_used {
            0..=1 => "",
            2 => "CTA slots used: 2",
            _ => "CTA slots used: 3+",
        });
        for p in once.into_iter().filter(|p| !p.is_empty()) {
            self.hit(p);
        }
    }
}

/// Watches the golden model's retired instructions.
#[derive(Default)]
pub struct Probe {
    /// The program, to decode the opcode at a pc.
    code: Vec<u64>,
    seen: BTreeSet<&'static str>,
    barriers: u64,
    bus_bytes: u32,
}

impl Probe {
    pub fn new(code: &[u64], bus_bits: u32) -> Probe {
        Probe { code: code.to_vec(), bus_bytes: bus_bits / 8, ..Probe::default() }
    }

    /// The points the launch hit (`outcome`: the golden model's end).
    pub fn hits(self, case: &Case, outcome: Option<&Outcome>) -> Hits {
        let mut seen = self.seen;
        seen.insert(match self.barriers {
            0 => "",
            1 => "barriers per program: 1",
            2..=3 => "barriers per program: 2-3",
            _ => "barriers per program: 4+",
        });
        if case.block % case.config.warp_size != 0 {
            seen.insert("launch: partial last warp");
        }
        if case.grid > 1 {
            seen.insert("launch: several CTAs");
        }
        if let Some(o) = outcome {
            if !o.stdout.is_empty() {
                seen.insert("printf");
            }
            if let Some(t) = &o.trap {
                seen.insert("trap: any");
                if matches!(t.kind, TrapKind::ReconvergenceStackOverflow { .. }) {
                    seen.insert("stack: overflow trap");
                }
            }
        }
        let mut h = Hits::default();
        for p in seen.into_iter().filter(|p| !p.is_empty()) {
            h.hit(p);
        }
        h
    }

    fn see(&mut self, r: &Retire) {
        let Some(op) = self.code.get(r.pc as usize).and_then(|&w| Inst::decode(w).ok()).map(|i| i.op) else { return };
        let partial = r.exec != r.active;
        // The warp's threads that have not exited are `active` on the stack's
        // bottom; a mask with holes below its top bit has lost threads.
        let holes = r.active != 0 && r.active.wrapping_add(1) & r.active != 0;
        let s = &mut self.seen;
        match op {
            Opcode::Bra => {
                if partial && r.exec != 0 {
                    s.insert("branch: divergent");
                }
                if holes {
                    s.insert("branch: under a partial mask");
                }
            }
            Opcode::Exit if partial || holes => {
                s.insert("exit: divergent");
            }
            Opcode::Call => {
                s.insert(if partial || holes { "call: divergent" } else { "call" });
            }
            Opcode::Calli => {
                s.insert("calli");
            }
            Opcode::Ret if partial || holes => {
                s.insert("ret: divergent");
            }
            Opcode::Bar | Opcode::Barred => {
                self.barriers += (r.exec != 0) as u64;
                if holes {
                    s.insert("barrier: warp with exited threads");
                }
                if op == Opcode::Barred {
                    s.insert("barred (reduction)");
                }
            }
            Opcode::Shfl if partial || holes => {
                s.insert("shfl: partial mask");
            }
            Opcode::Vote | Opcode::Ballot if partial || holes => {
                s.insert("vote/ballot: partial mask");
            }
            _ => {}
        }
        if r.mem.is_empty() {
            return;
        }
        for m in &r.mem {
            s.insert(match m.size {
                1 => "memory width: 1",
                2 => "memory width: 2",
                4 => "memory width: 4",
                8 => "memory width: 8",
                _ => "memory width: 16",
            });
        }
        let addrs = |f: &dyn Fn(&heddle_sim::retire::MemAccess) -> bool| -> Vec<u32> {
            r.mem.iter().filter(|m| f(m)).map(|m| m.addr).collect::<Vec<_>>()
        };
        let atomics = addrs(&|m| m.kind == MemKind::Atomic);
        let most = atomics.iter().map(|a| atomics.iter().filter(|b| *b == a).count()).max().unwrap_or(0);
        s.insert(match most {
            0..=1 => "",
            2..=7 => "atomic: 2-7 lanes on one address",
            _ => "atomic: 8+ lanes on one address",
        });
        let global: Vec<&heddle_sim::retire::MemAccess> =
            r.mem.iter().filter(|m| m.space == Space::Global && m.kind != MemKind::Atomic).collect();
        if global.iter().any(|m| m.size as u32 > self.bus_bytes) {
            s.insert("global: access wider than the bus word");
        }
        if global.len() > 1 {
            let words: BTreeSet<u32> = global.iter().map(|m| m.addr / self.bus_bytes.max(1)).collect();
            s.insert(match words.len() {
                1 => "global: one bus word for several lanes",
                n if n < global.len() => "global: some lanes share bus words",
                _ => "global: a bus word per lane",
            });
        }
        let shared = addrs(&|m| m.space == Space::Shared && m.kind == MemKind::Load);
        if shared.len() > 1 && shared.iter().collect::<BTreeSet<_>>().len() < shared.len() {
            s.insert("shared: broadcast (lanes read one word)");
        }
    }
}

impl Tracer for Probe {
    const ON: bool = true;

    fn retire(&mut self, r: Retire) {
        self.see(&r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by `cargo fuzz run differential`: a full 64-lane mask overflowed the holes test.
    #[test]
    fn a_full_64_lane_warp_is_seen_without_overflow() {
        let code = heddle_isa::asm::assemble("t.hasm", ".kernel k\n    bra l, l\nl:\n    exit\n").unwrap().code;
        assert_eq!(Inst::decode(code[0]).unwrap().op, Opcode::Bra);
        let mut p = Probe::new(&code, 32);
        let r =
            Retire { seq: 0, sm: 0, cta: 0, warp: 0, pc: 0, active: u64::MAX, exec: u64::MAX, regs: vec![], preds: vec![], mem: vec![] };
        p.retire(r.clone());
        assert!(p.seen.is_empty(), "a uniform branch of a whole warp is no point: {:?}", p.seen);
        p.retire(Retire { exec: 1, ..r });
        assert!(p.seen.contains("branch: divergent") && !p.seen.contains("branch: under a partial mask"));
    }
}
