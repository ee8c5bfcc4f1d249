//! The Heddle streaming multiprocessor.
//!
//! For now this crate holds [`SmConfig`], the one configuration that the
//! hardware, the simulators' timing and limits, and the exported Verilog
//! parameters all read. The rust-hdl pipeline follows (issue 5).

pub mod config;

pub use config::{ConfigError, SmConfig};
