//! The `heddle` command line: assemble, disassemble, run, benchmark.
//!
//! Dependencies: `clap` (derive) for the command line; `serde_json` (with
//! `preserve_order`: a manifest's first PTX variant is its default) for launch
//! manifests; `indicatif` for the progress line of long runs on a terminal
//! (`progress`); `crc32fast` for the checksum of a buffer printed as a
//! summary. Assembly diagnostics
//! are rendered by `heddle_isa::diag` in rustc's `file:line:col` + caret
//! style.

pub mod bench;
pub mod cli;
pub mod fuzz;
pub mod manifest;
pub mod progress;
pub mod run;
pub mod synth;
pub mod timeline;
