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
    /// classify it (see [`crate::rtl::Cycle`]).
    fn cycle(&mut self, _c: &crate::rtl::Cycle) {}
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
