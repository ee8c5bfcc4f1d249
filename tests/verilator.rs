//! The Verilator engine (`heddle run --engine verilator`): the SM's
//! exported Verilog, built by Verilator (once per configuration, cached
//! under `target/heddle-verilator`) and driven by the RTL engine's loop,
//! must print exactly what `--engine rtl` prints for the same launch: the
//! same results, traps, printf output, statistics and cycles, and in
//! lockstep the same count of instructions identical to the golden model.
//!
//! CI runs a handful of corpus cases on `default` and `tiny`;
//! `cargo test --release --test verilator -- --ignored` runs every corpus
//! and differential case (see docs/verilator.md).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn heddle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_heddle")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// Runs `manifest` on both engines with `extra` arguments; the outputs
/// (stdout, exit status) must be identical. Returns the output.
fn same_on_both(manifest: &Path, extra: &[&str]) -> String {
    let m = manifest.to_str().unwrap();
    let run = |engine: &str| {
        let mut args = vec!["run", "--manifest", m, "--engine", engine, "--max-cycles", "0", "--timeout", "0"];
        args.extend(extra);
        heddle(&args)
    };
    let (rtl, vl) = (run("rtl"), run("verilator"));
    assert_eq!(vl.status.code(), rtl.status.code(), "{m}: exit status\nrtl:\n{}\nverilator:\n{}", text(&rtl), text(&vl));
    let (r, v) = (String::from_utf8_lossy(&rtl.stdout), String::from_utf8_lossy(&vl.stdout));
    assert_eq!(v, r, "{m}: the Verilator engine's output differs from the rust-hdl engine's");
    v.into_owned()
}

/// Corpus cases in CI: shared memory and barriers, printf, malloc, a
/// trap, indirect calls, shuffles, FP64.
const CI_CASES: &[&str] = &[
    "scan_blelloch",
    "printf_many_threads",
    "malloc_free",
    "assert_fires",
    "indirect_calls",
    "warp_shuffle_reduce",
    "double_arith",
    "barrier_reductions",
];

#[test]
fn corpus_cases_on_verilator_equal_the_rtl_in_lockstep() {
    for case in CI_CASES {
        let out = same_on_both(&Path::new("tests/corpus").join(case).join("case.json"), &["--lockstep"]);
        assert!(out.contains(&format!("{case}: ok")), "{case}: {out}");
        assert!(out.contains("identical to the golden model"), "{case}: {out}");
    }
}

#[test]
fn tiny_cases_on_verilator_equal_the_rtl_in_lockstep() {
    for case in ["templated_kernels", "assert_fires", "atomics_64bit"] {
        let out = same_on_both(&Path::new("tests/tiny").join(case).join("case.json"), &["--config", "tiny", "--lockstep"]);
        assert!(out.contains(&format!("{case}@tiny: ok")), "{case}: {out}");
    }
}

/// A program (not a manifest) with statistics: the same text on both.
#[test]
fn a_program_run_prints_the_same_statistics() {
    let run = |engine: &str| {
        heddle(&[
            "run",
            "tests/corpus/vec_add_f32/kernel.ptx",
            "--engine",
            engine,
            "--grid",
            "2",
            "--block",
            "64",
            "--arg",
            "buf:a:f32:128=1,2,3",
            "--arg",
            "buf:b:f32:128=4,5,6",
            "--arg",
            "buf:c:f32:128",
            "--arg",
            "s32:128",
            "--stats",
        ])
    };
    let (r, v) = (run("rtl"), run("verilator"));
    assert_eq!(r.status.code(), Some(0), "{}", text(&r));
    assert_eq!(String::from_utf8_lossy(&v.stdout), String::from_utf8_lossy(&r.stdout));
}

#[test]
fn vcd_stays_with_the_rust_hdl_engine() {
    let o = heddle(&["run", "--manifest", "tests/corpus/vec_add_f32/case.json", "--engine", "verilator", "--vcd", "x.vcd"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("need --engine rtl"), "{}", text(&o));
}

fn cases(dir: &str) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("case.json").exists())
        .collect();
    dirs.sort();
    dirs
}

/// Every corpus and differential case on `default`, and every tiny case on
/// `tiny` with FP units and dividers, in lockstep: output identical to the rust-hdl engine's (minutes).
#[test]
#[ignore]
fn every_case_on_verilator_equals_the_rtl() {
    let mut n = 0;
    for d in cases("tests/corpus").into_iter().chain(cases("tests/differential")) {
        same_on_both(&d.join("case.json"), &["--lockstep"]);
        n += 1;
    }
    for d in cases("tests/tiny") {
        // With the FP units and dividers that some of them need (as `every_tiny_case_on_the_rtl`).
        let units = ["--set", "fp32=true", "--set", "fp64=true", "--set", "int_div=true", "--set", "mul64=true"];
        same_on_both(&d.join("case.json"), &[&["--config", "tiny", "--lockstep"][..], &units].concat());
        n += 1;
    }
    println!("{n} cases identical on verilator and rtl");
}

/// A memory with wait states (`--bus-waits`), or with a latency
/// (`--mem-latency`): the same cycles on both.
#[test]
fn bus_wait_states_and_latency_take_the_same_cycles_on_both() {
    let case = Path::new("tests/tiny/atomics_64bit/case.json");
    for extra in [["--bus-waits", "7"], ["--mem-latency", "6"]] {
        let out = same_on_both(case, &[&["--config", "tiny", "--lockstep"][..], &extra].concat());
        assert!(out.contains("identical to the golden model"), "{extra:?}: {out}");
    }
}

/// A lockstep difference found on the Verilator model is reported, with a
/// VCD window written by replaying the launch on the rust-hdl SM (the two
/// take the same cycles).
#[test]
fn a_lockstep_difference_on_verilator_is_reported_with_a_vcd_window() {
    use heddle_sim::device::Device;
    use heddle_sim::launch::{Launch, LaunchError, NoTrace};
    use heddle_sim::rtl::RtlOptions;
    let src = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/nested_divergence.hasm")).unwrap();
    let obj = heddle_isa::asm::assemble("nested_divergence.hasm", &src).unwrap();
    let mut dev = Device::new(heddle_hw::SmConfig::default_config(), obj.clone()).unwrap();
    let k = &obj.kernels[0];
    let out = dev.alloc(64 * 4).unwrap();
    let mut params = out.to_le_bytes().to_vec();
    params.resize(k.param_bytes as usize, 0);
    let launch = Launch { kernel: k.name.clone(), grid: [1, 1, 1], block: [64, 1, 1], params, dynamic_shared: 0 };
    let opts = RtlOptions { lockstep: true, verilator: true, corrupt_retire: Some(20), ..Default::default() };
    let Err(LaunchError::Rtl(msg)) = dev.launch_rtl(&launch, &opts, &mut NoTrace) else { panic!("the injected difference went unnoticed") };
    assert!(msg.starts_with("lockstep: cycle ") && msg.contains(", golden lane "), "{msg}");
    let path = msg.split("the VCD ").nth(1).and_then(|t| t.split(" covers").next()).unwrap_or_else(|| panic!("no VCD in: {msg}"));
    assert!(std::fs::metadata(path).unwrap().len() > 0);
    let _ = std::fs::remove_file(path);
}

/// `--trace` (every retire record) and the cycles-by-cause chart, which
/// read the SM's state and counters every cycle, are the same on both.
#[test]
fn traces_and_cycle_causes_are_the_same_on_both() {
    let dir = std::env::temp_dir().join(format!("heddle-vl-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chart = |e: &str| dir.join(format!("{e}.svg"));
    let run = |e: &str| {
        let svg = chart(e);
        heddle(&[
            "run",
            "--manifest",
            "tests/tiny/templated_kernels/case.json",
            "--config",
            "tiny",
            "--engine",
            e,
            "--trace",
            "--stats-svg",
            svg.to_str().unwrap(),
        ])
    };
    let (r, v) = (run("rtl"), run("verilator"));
    assert_eq!(r.status.code(), Some(0), "{}", text(&r));
    assert_eq!(String::from_utf8_lossy(&v.stdout), String::from_utf8_lossy(&r.stdout));
    assert_eq!(std::fs::read(chart("verilator")).unwrap(), std::fs::read(chart("rtl")).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}
