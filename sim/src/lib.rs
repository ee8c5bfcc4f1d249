//! Heddle's launch and memory model and its engines.
//!
//! - [`device`]: the host API (a device with one module; allocate, copy,
//!   launch, read back); a launch runs on the engine `dispatch` picks;
//! - [`launch`]: a launch, its outcome and errors, and the [`launch::Tracer`] that receives retire records;
//! - [`engine`]: the engines' names, one type for the CLI, manifests and benchmarks;
//! - [`golden`]: the golden-model interpreter, the reference for every engine;
//! - [`ptx`]: the PTX reference interpreter, the oracle for the compiler;
//! - [`rtl`]: the RTL engine: the rust-hdl SM simulated cycle by cycle, VCD, lockstep;
//! - [`retire`]: the one retire-record type engines are compared on;
//! - [`warp`]: a warp's reconvergence stack (golden model and PTX interpreter);
//! - [`trap`]: faults as data; [`stats`]: launch statistics;
//! - [`limits`]: the cycle and time limits that end runaway launches, progress reports;
//! - [`memory`]: global memory, allocations and the device heap;
//! - [`space`]: the state spaces, generic-address windows and access checks every engine uses;
//! - [`printf`]: C printf formatting of `vprintf` argument buffers;
//! - [`syscall`]: the host side of system calls, one copy for every engine.

pub mod device;
mod dispatch;
pub mod engine;
pub mod golden;
pub mod launch;
pub mod limits;
pub mod memory;
pub mod printf;
pub mod ptx;
pub mod retire;
pub mod rtl;
pub mod space;
pub mod stats;
pub mod syscall;
pub mod trap;
pub mod verilator;
pub mod warp;

pub use device::Device;
pub use engine::Engine;
pub use launch::{Launch, Outcome};
pub use retire::Retire;
pub use trap::{Trap, TrapKind};
