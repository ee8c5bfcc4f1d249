//! Verilog export and lint: `generate_verilog` from rust-hdl, checked with
//! Verilator.
//!
//! The lint runs `verilator --lint-only -Wall` with the warnings rust-hdl's
//! generator cannot avoid turned off: WIDTH (it sizes literals at 32 bits),
//! UNUSEDPARAM (every enum state becomes a localparam), DECLFILENAME (one
//! file holds every module) and UNOPTFLAT (a parent's single combinational
//! block both drives a child's inputs and reads its outputs, which Verilator
//! reports as a possible loop even where there is none) and UNUSEDSIGNAL
//! (blocks are reused where not every output or bit is needed, such as the
//! stack's depth output or the upper bits of a shifted lane mask).

use crate::config::{ConfigError, SmConfig};
use crate::sm::Sm;
use rust_hdl::prelude::{generate_verilog, Block};
use std::path::PathBuf;
use std::process::Command;

pub const LINT_FLAGS: &[&str] =
    &["--lint-only", "-Wall", "-Wno-WIDTH", "-Wno-UNUSEDPARAM", "-Wno-DECLFILENAME", "-Wno-UNOPTFLAT", "-Wno-UNUSEDSIGNAL"];

/// The Verilog of a connected block, its top module named `top`.
pub fn verilog_of<B: Block>(block: &B) -> String {
    generate_verilog(block)
}

/// The Verilog of the whole SM for `cfg` (what `heddle export` writes).
pub fn sm_verilog(cfg: &SmConfig) -> Result<String, ConfigError> {
    let mut sm = Sm::new(cfg)?;
    sm.connect_all();
    Ok(verilog_of(&sm))
}

/// Lints `verilog` with Verilator; the error holds Verilator's report.
pub fn lint(name: &str, verilog: &str) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("heddle-lint-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let file: PathBuf = dir.join(format!("{name}.v"));
    std::fs::write(&file, verilog).map_err(|e| e.to_string())?;
    let out = Command::new("verilator")
        .args(LINT_FLAGS)
        .arg("--top-module")
        .arg("top")
        .arg(&file)
        .output()
        .map_err(|e| format!("cannot run verilator ({e}); scripts/test.sh installs it"))?;
    let _ = std::fs::remove_dir_all(&dir);
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("verilator rejected {name}:\n{}", String::from_utf8_lossy(&out.stderr)))
    }
}
