//! Launch statistics, counted the same way by every engine.

use heddle_isa::Opcode;
use serde::Serialize;
use std::fmt;

/// Loads, stores and atomics of one state space (counted per thread).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct MemCounts {
    pub loads: u64,
    pub stores: u64,
    pub atomics: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub branches: u64,
    pub divergent_branches: u64,
    pub barriers: u64,
    pub syscalls: u64,
    pub global: MemCounts,
    pub shared: MemCounts,
    pub local: MemCounts,
    pub constant: MemCounts,
    pub param: MemCounts,
    /// Cycles (timed engines only).
    pub cycles: Option<u64>,
}

impl Stats {
    /// Counts the control statistics of one warp instruction, `op`, run
    /// with `active` lanes on its reconvergence-stack entry and `exec` of
    /// them executing: every `bra` is a branch, divergent when it splits
    /// the lanes; every `bar`/`barred` that some lane executes is a barrier.
    /// The golden model counts as it steps, the RTL engine from the SM's
    /// retire monitor.
    pub fn count_control(&mut self, op: Opcode, active: u64, exec: u64) {
        match op {
            Opcode::Bra => {
                self.branches += 1;
                self.divergent_branches += (exec != 0 && exec != active) as u64;
            }
            Opcode::Bar | Opcode::Barred => self.barriers += (exec != 0) as u64,
            _ => {}
        }
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "warp instructions   {}", self.warp_instructions)?;
        writeln!(f, "thread instructions {}", self.thread_instructions)?;
        if self.warp_instructions > 0 {
            writeln!(f, "threads per warp instruction {:.2}", self.thread_instructions as f64 / self.warp_instructions as f64)?;
        }
        writeln!(f, "branches {} (divergent {})", self.branches, self.divergent_branches)?;
        writeln!(f, "barriers {}  syscalls {}", self.barriers, self.syscalls)?;
        if let Some(c) = self.cycles {
            writeln!(f, "cycles {c}  IPC {:.3}", self.warp_instructions as f64 / c.max(1) as f64)?;
        }
        for (name, m) in
            [("global", self.global), ("shared", self.shared), ("local", self.local), ("const", self.constant), ("param", self.param)]
        {
            if m != MemCounts::default() {
                writeln!(f, "{name:<6} loads {} stores {} atomics {}", m.loads, m.stores, m.atomics)?;
            }
        }
        Ok(())
    }
}
