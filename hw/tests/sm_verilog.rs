//! The SM's Verilog: generated for every preset and linted by Verilator.

use heddle_hw::sm::Sm;
use heddle_hw::verilog::{lint, sm_verilog};
use heddle_hw::SmConfig;

#[test]
fn sm_verilog_lints_clean_for_every_preset() {
    for name in ["tiny", "default", "wide"] {
        let v = sm_verilog(&SmConfig::preset(name).unwrap()).unwrap();
        if let Ok(dir) = std::env::var("HEDDLE_DUMP_VERILOG") {
            std::fs::write(format!("{dir}/sm_{name}.v"), &v).unwrap();
        }
        lint(&format!("sm_{name}"), &v).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// A configuration the golden model runs but whose register file this RTL
/// cannot address is an error, not a panic.
#[test]
fn an_rtl_register_file_beyond_its_ram_addresses_is_an_error() {
    let cfg = SmConfig { warps: 64, warp_size: 64, lanes: 1, ..SmConfig::wide() };
    cfg.validate().unwrap();
    let e = Sm::new(&cfg).err().expect("too large for the RTL");
    assert!(e.to_string().contains("register file of 524288 words"), "{e}");
    let wide = SmConfig { warp_size: 64, lanes: 64, warps: 8, ..SmConfig::default() };
    wide.validate().unwrap();
    assert!(Sm::new(&wide).err().expect("too many lanes for the RTL").to_string().contains("at most 32"));
}
