//! The `heddle` command line: assemble, disassemble, run, benchmark.
//!
//! Dependencies: `clap` (derive) for the command line. Assembly diagnostics
//! are rendered by `heddle_isa::diag` in rustc's `file:line:col` + caret
//! style.

pub mod bench;
pub mod cli;
pub mod run;
