//! Co-simulation of custom blocks: the same input vectors through the
//! block's rust-hdl model and through its Verilog under Verilator, outputs
//! compared. Custom blocks (a Rust `update()` plus a hand-written Verilog
//! body) are only trustworthy with such a test.
//!
//! The harness writes a Verilog test bench that reads one vector per line
//! (`$fscanf`, hex fields in port order), settles, prints the outputs, and,
//! for clocked blocks, pulses `clock` after each vector; it builds it with
//! `verilator --binary`.

use rust_hdl::prelude::*;
use std::fmt::Write as _;
use std::process::Command;

/// A port: name and width in bits.
pub type Port = (&'static str, usize);

/// Runs `vectors` (one value per input port, in `inputs` order) through the
/// Verilog of `verilog` (a module named `top`) and returns the output values
/// per vector, in `outputs` order. Values wider than 128 bits are not supported.
pub fn run_verilator(
    name: &str,
    verilog: &str,
    inputs: &[Port],
    outputs: &[Port],
    clocked: bool,
    vectors: &[Vec<u128>],
) -> Result<Vec<Vec<u128>>, String> {
    let dir = std::env::temp_dir().join(format!("heddle-cosim-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let mut tb = String::from("module tb;\n");
    // $fscanf writes through references, which Verilator does not treat as
    // events: scan into v_* and assign the ports normally.
    for (n, w) in inputs {
        writeln!(tb, "reg [{}:0] {n};\nreg [{}:0] v_{n};", w - 1, w - 1).unwrap();
    }
    for (n, w) in outputs {
        writeln!(tb, "wire [{}:0] {n};", w - 1).unwrap();
    }
    if clocked {
        tb += "reg clock = 0;\n";
    }
    let conns: Vec<String> =
        inputs.iter().chain(outputs).map(|(n, _)| format!(".{n}({n})")).chain(clocked.then(|| ".clock(clock)".to_string())).collect();
    writeln!(tb, "top dut({});", conns.join(", ")).unwrap();
    tb += "integer fin, fout, r;\ninitial begin\n";
    writeln!(tb, "  fin = $fopen(\"{}\", \"r\");", dir.join("in.hex").display()).unwrap();
    writeln!(tb, "  fout = $fopen(\"{}\", \"w\");", dir.join("out.hex").display()).unwrap();
    let fmt_in = vec!["%h"; inputs.len()].join(" ");
    let args_in: Vec<String> = inputs.iter().map(|(n, _)| format!("v_{n}")).collect();
    let assigns: String = inputs.iter().map(|(n, _)| format!("{n} = v_{n}; ")).collect();
    let fmt_out = vec!["%h"; outputs.len()].join(" ");
    let args_out: Vec<&str> = outputs.iter().map(|(n, _)| *n).collect();
    writeln!(tb, "  while (!$feof(fin)) begin\n    r = $fscanf(fin, \"{fmt_in}\\n\", {});", args_in.join(", ")).unwrap();
    writeln!(
        tb,
        "    if (r == {}) begin\n      {assigns}\n      #1;\n      $fwrite(fout, \"{fmt_out}\\n\", {});",
        inputs.len(),
        args_out.join(", ")
    )
    .unwrap();
    if clocked {
        tb += "      clock = 1; #1; clock = 0; #1;\n";
    }
    tb += "    end\n  end\n  $fclose(fout);\n  $finish;\nend\nendmodule\n";
    let mut vin = String::new();
    for v in vectors {
        let fields: Vec<String> = v.iter().map(|x| format!("{x:x}")).collect();
        vin += &fields.join(" ");
        vin.push('\n');
    }
    std::fs::write(dir.join("in.hex"), vin).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("dut.v"), verilog).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("tb.v"), tb).map_err(|e| e.to_string())?;
    build_binary(&dir, "tb", &["tb.v", "dut.v"]).map_err(|e| format!("verilator build of {name} failed:\n{e}"))?;
    let run = Command::new(dir.join("obj_dir/sim")).current_dir(&dir).output().map_err(|e| e.to_string())?;
    if !run.status.success() {
        return Err(format!("{name} simulation failed:\n{}", String::from_utf8_lossy(&run.stderr)));
    }
    let text = std::fs::read_to_string(dir.join("out.hex")).map_err(|e| e.to_string())?;
    if std::env::var_os("HEDDLE_COSIM_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    text.lines()
        .map(|l| l.split_whitespace().map(|f| u128::from_str_radix(f, 16).map_err(|e| format!("bad output `{f}`: {e}"))).collect())
        .collect()
}

/// Builds `files` (in `dir`) with top module `top` into the simulation
/// binary `dir/obj_dir/sim` (`verilator --binary`, timing on, lint
/// warnings off: the designs are linted apart). The error is Verilator's.
pub fn build_binary(dir: &std::path::Path, top: &str, files: &[&str]) -> Result<(), String> {
    let out = Command::new("verilator")
        .current_dir(dir)
        .args(["--binary", "-j", "2", "--timing", "-Wno-fatal", "-Wno-lint", "-Wno-style", "--top-module", top, "-o", "sim"])
        .args(files)
        .output()
        .map_err(|e| format!("cannot run verilator ({e}); scripts/test.sh installs it"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Settles a block after its inputs changed; false if it oscillates.
pub fn settle<B: Block>(b: &mut B) -> bool {
    simulate(b, 100)
}
