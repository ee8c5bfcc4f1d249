//! The open FPGA flow for the SM's exported Verilog (`heddle synth`):
//! yosys, nextpnr and the bitstream packers for ECP5 and iCE40 parts, run
//! on a design or on each of its blocks, with typed reports of area,
//! timing and where every memory went (docs/fpga.md).
//!
//! - [`target`]: the parts, their capacities, boards and tool flags;
//! - [`verilog`]: the design's modules and ports, black boxes, the scan
//!   wrapper that puts a module on four pins;
//! - [`flow`]: running the tools and reading their results;
//! - [`report`]: the report types and tables;
//! - [`blocks`]: area per block;
//! - [`join`]: the whole design placed and routed from its blocks'
//!   netlists;
//! - [`budget`]: the memory arrays read from the Verilog, against the part,
//!   before any tool runs.
//!
//! It takes Verilog text and depends on no other heddle crate. serde and
//! serde_json write and read the tools' JSON.

pub mod blocks;
pub mod budget;
pub mod flow;
pub mod join;
pub mod report;
pub mod target;
pub mod verilog;

pub use flow::{run, Options};
pub use report::Report;
pub use target::Target;
