//! Faults of a simulated kernel: results, never panics. Every engine returns
//! the same [`Trap`] record and the CLI prints it the same way.

use serde::Serialize;
use std::fmt;

/// A memory state space, as traps and retire records name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Space {
    Global,
    Shared,
    Local,
    Const,
    Param,
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Const => "const",
            Space::Param => "param",
        })
    }
}

/// Why a launch stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum TrapKind {
    OutOfBounds {
        space: Space,
        size: u32,
    },
    Misaligned {
        space: Space,
        size: u32,
    },
    /// A write to a read-only space (const, param).
    ReadOnly {
        space: Space,
    },
    InvalidInstruction {
        reason: String,
    },
    /// A local-memory (per-thread stack) access outside the thread's local bytes.
    StackOverflow,
    ReconvergenceStackOverflow {
        depth: u32,
    },
    BarrierDeadlock,
    Runaway {
        budget: u64,
    },
    /// The launch ran past its cycle limit (`Limits::max_cycles`).
    CycleLimit {
        cycles: u64,
    },
    /// The launch ran past its wall-clock limit (`Limits::timeout`).
    TimeLimit {
        seconds: u64,
    },
    DivergentUniformBranch,
    /// Not implemented: an instruction of a unit the SM is built without
    /// ([`TrapKind::not_built`], every engine), or what an engine cannot do yet.
    Unimplemented {
        what: String,
    },
    UserTrap,
    Breakpoint,
    AssertFail {
        message: String,
        file: String,
        line: u32,
        function: String,
    },
    BadFree,
    Printf {
        reason: String,
    },
}

/// A fault with where it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Trap {
    pub kind: TrapKind,
    /// CTA coordinates.
    pub cta: [u32; 3],
    /// Warp within the CTA.
    pub warp: u32,
    /// The first faulting lane, when one lane is to blame.
    pub lane: Option<u32>,
    pub pc: u32,
    /// The faulting address (generic or space offset as the kind says).
    pub addr: Option<u64>,
}

impl TrapKind {
    /// An instruction that needs `unit` (an optional unit of `SmConfig`:
    /// fp32, fp64, int_div, mul64, shift64), which the SM is built without: the golden model
    /// and the RTL trap with this.
    pub fn not_built(i: &heddle_isa::Inst, unit: &str) -> TrapKind {
        TrapKind::Unimplemented { what: format!("`{}` (the SM is built without {unit})", heddle_isa::asm::print::opname(i)) }
    }
}

impl fmt::Display for TrapKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrapKind::OutOfBounds { space, size } => {
                write!(f, "out-of-bounds {space} access of {size} bytes")
            }
            TrapKind::Misaligned { space, size } => {
                write!(f, "misaligned {space} access of {size} bytes")
            }
            TrapKind::ReadOnly { space } => write!(f, "write to read-only {space} memory"),
            TrapKind::InvalidInstruction { reason } => write!(f, "invalid instruction: {reason}"),
            TrapKind::StackOverflow => write!(f, "stack overflow (local memory access outside the thread's frame)"),
            TrapKind::ReconvergenceStackOverflow { depth } => {
                write!(f, "reconvergence stack overflow (depth {depth})")
            }
            TrapKind::BarrierDeadlock => write!(f, "barrier deadlock: every live warp waits and no barrier can complete"),
            TrapKind::Runaway { budget } => {
                write!(f, "runaway kernel: more than {budget} warp instructions, the --budget limit")
            }
            TrapKind::CycleLimit { cycles } => write!(f, "runaway kernel: more than {cycles} cycles, the --max-cycles limit"),
            TrapKind::TimeLimit { seconds } => write!(f, "runaway kernel: ran longer than {seconds} s, the --timeout limit"),
            TrapKind::DivergentUniformBranch => write!(f, "divergent bra.uni"),
            TrapKind::Unimplemented { what } => write!(f, "not implemented: {what}"),
            TrapKind::UserTrap => write!(f, "trap instruction"),
            TrapKind::Breakpoint => write!(f, "breakpoint"),
            TrapKind::AssertFail { message, file, line, function } => {
                write!(f, "assertion `{message}` failed in {function} at {file}:{line}")
            }
            TrapKind::BadFree => write!(f, "free of an address that malloc did not return"),
            TrapKind::Printf { reason } => write!(f, "bad vprintf call: {reason}"),
        }
    }
}

impl fmt::Display for Trap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.cta;
        write!(f, "trap: {} (CTA ({x},{y},{z}), warp {}", self.kind, self.warp)?;
        if let Some(l) = self.lane {
            write!(f, ", lane {l}")?;
        }
        write!(f, ", pc {}", self.pc)?;
        if let Some(a) = self.addr {
            write!(f, ", address {a:#x}")?;
        }
        write!(f, ")")
    }
}
