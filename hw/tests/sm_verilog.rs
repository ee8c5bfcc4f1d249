//! The SM's Verilog: generated for every preset and linted by Verilator.

use heddle_hw::sm::Sm;
use heddle_hw::verilog::{lint, verilog_of};
use heddle_hw::SmConfig;
use rust_hdl::prelude::*;

#[test]
fn sm_verilog_lints_clean_for_the_tiny_preset() {
    let mut sm = Sm::new(&SmConfig::tiny()).unwrap();
    sm.connect_all();
    let v = verilog_of(&sm);
    if let Ok(dir) = std::env::var("HEDDLE_DUMP_VERILOG") {
        std::fs::write(format!("{dir}/sm_tiny.v"), &v).unwrap();
    }
    lint("sm_tiny", &v).unwrap();
}
