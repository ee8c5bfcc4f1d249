//! What a launch is and what it gives back, for every engine: the launch
//! ([`Launch`]), its outcome ([`Outcome`]: statistics, output, the trap if
//! any), the errors that keep it from starting ([`LaunchError`]), and the
//! [`Tracer`] that receives its retire records (and, on the RTL, cycles).

use crate::memory::MemError;
use crate::retire::Retire;
use crate::stats::Stats;
use crate::trap::Trap;

/// One kernel launch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launch {
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// The parameter-space image (the kernel's `param_bytes` long).
    pub params: Vec<u8>,
    pub dynamic_shared: u32,
}

/// What a launch produced. A trap is a result, not an error.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    pub trap: Option<Trap>,
    pub stats: Stats,
    /// Device printf output, in execution order.
    pub stdout: Vec<u8>,
}

/// The host did something wrong: the launch never started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    #[error("no kernel named `{0}` in the module")]
    NoKernel(String),
    #[error("bad launch shape: {0}")]
    Shape(String),
    #[error("kernel `{kernel}` takes {want} parameter bytes, {got} given")]
    Params { kernel: String, want: u32, got: u32 },
    #[error("kernel `{kernel}` needs {what} {need}, the SM has {have}")]
    Resources { kernel: String, what: &'static str, need: u64, have: u64 },
    #[error(transparent)]
    Memory(#[from] MemError),
    #[error(transparent)]
    Config(#[from] heddle_hw::ConfigError),
    /// The module cannot run (an over-long program).
    #[error("{0}")]
    Program(String),
    /// The RTL engine failed: a lockstep difference or a simulation fault.
    #[error("{0}")]
    Rtl(String),
}

/// Receives retire records as an engine produces them.
pub trait Tracer {
    /// Whether records are built at all (false: the engine skips the work).
    const ON: bool;
    fn retire(&mut self, r: Retire);
    /// Whether the engine reports every clock cycle (the RTL engine only;
    /// false: it does not even sample the SM for them).
    const CYCLES: bool = false;
    /// One cycle of the RTL: what the SM did in it, as its own counters
    /// classify it (see [`Cycle`]).
    fn cycle(&mut self, _c: &Cycle) {}
}

/// Builds no records.
pub struct NoTrace;

impl Tracer for NoTrace {
    const ON: bool = false;
    fn retire(&mut self, _: Retire) {}
}

/// Keeps every record.
#[derive(Default)]
pub struct Collect(pub Vec<Retire>);

impl Tracer for Collect {
    const ON: bool = true;
    fn retire(&mut self, r: Retire) {
        self.0.push(r);
    }
}

impl<F: FnMut(Retire)> Tracer for F {
    const ON: bool = true;
    fn retire(&mut self, r: Retire) {
        self(r)
    }
}

/// What the SM did in one cycle: the performance counter that counted the
/// cycle, or for the cycles no counter counts, the state machine's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Cause {
    /// An execute beat of the lanes (`exec_cycles`; which unit: the instruction's).
    Exec,
    /// A load, store, atomic or system call holds the SM: address and data
    /// beats, bus transfers and their waits (`mem_cycles` less bank conflicts).
    Memory,
    /// A shared-memory pass waits on a bank another lane holds (`bank_conflicts`).
    BankConflict,
    /// Reconvergence-stack commands: branch, call, return, exit
    /// (`ctl_cycles` less the barriers').
    Control,
    /// Picking a warp, popping its stack, fetch, predicate reads, not hidden
    /// behind another instruction's beats (`front_cycles`).
    FrontEnd,
    /// A barrier instruction's arrive, check, release and write-back (which
    /// the SM counts in `ctl_cycles`), or the scheduler finding every warp
    /// waiting (deadlock).
    Barrier,
    /// Starting a CTA: clearing its warps, writing its threads' ids.
    CtaSetup,
    /// Dispatch, commit and the rest no counter counts.
    Other,
}

/// One cycle of an RTL launch, for [`Tracer::cycle`]: what the SM did and
/// which warps it did it for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cycle {
    /// Cycles since the launch started (the clock of retire records' `seq`).
    pub cycle: u64,
    pub cause: Cause,
    /// The warp slot (`slot << slot_shift | warp in CTA`) whose instruction
    /// is in flight, and its pc.
    pub warp: u32,
    pub pc: u32,
    /// Warp slots waiting at a barrier (a bit each).
    pub waiting: u64,
    /// A CTA started in this cycle: its CTA slot and linear CTA index.
    pub cta_start: Option<(u32, u32)>,
    /// log2 of the warp slots per CTA slot (`rtl::Residency::shift`).
    pub slot_shift: u32,
}
