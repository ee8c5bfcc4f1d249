//! The `heddle` command line: assemble, disassemble, run, benchmark.
//!
//! Dependencies: `clap` (derive) for the command line; `serde_json` (with
//! `preserve_order`: a manifest's first PTX variant is its default) for launch
//! manifests. Assembly diagnostics
//! are rendered by `heddle_isa::diag` in rustc's `file:line:col` + caret
//! style.

pub mod bench;
pub mod cli;
pub mod manifest;
pub mod run;
pub mod timeline;
