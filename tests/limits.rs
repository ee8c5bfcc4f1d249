//! Limits that end runaway work (issue 18, section 3): an infinite loop ends
//! within a minute with a clear trap on every engine under the default
//! limits; `--max-cycles` (rtl), `--timeout` (every engine) and `--budget`
//! stop a launch where they say, naming the warp and pc; a launch of 10^8
//! CTAs honours them too. The defaults are shown in `--help`.

use std::process::Command;
use std::time::{Duration, Instant};

fn heddle(args: &[&str]) -> (i32, String, Duration) {
    let start = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_heddle")).current_dir(env!("CARGO_MANIFEST_DIR")).args(args).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    (o.status.code().unwrap_or(-1), text, start.elapsed())
}

/// `for (;;) x++;` as NVRTC would leave it: one warp spinning forever.
const SPIN: &str = ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry spin(.param .u64 x){\n.reg .b32 %r<3>;\n\
mov.u32 %r1, 0;\n$L__spin:\nadd.u32 %r1, %r1, 1;\nbra.uni $L__spin;\n}\n";

fn spin_file() -> String {
    let p = std::env::temp_dir().join(format!("heddle-spin-{}.ptx", std::process::id()));
    std::fs::write(&p, SPIN).unwrap();
    p.display().to_string()
}

#[test]
fn an_infinite_loop_ends_within_a_minute_on_every_engine_by_default() {
    let f = spin_file();
    let runs: Vec<_> = ["golden", "ptx", "rtl"]
        .into_iter()
        .map(|engine| {
            let f = f.clone();
            std::thread::spawn(move || (engine, heddle(&["run", &f, "--engine", engine, "--arg", "u64:0"])))
        })
        .collect();
    for r in runs {
        let (engine, (code, out, took)) = r.join().unwrap();
        assert_eq!(code, 1, "{engine}: {out}");
        assert!(out.contains("trap: runaway kernel: "), "{engine}: {out}");
        assert!(out.contains("(CTA (0,0,0), warp 0, pc "), "{engine}: {out}");
        assert!(out.contains(".ptx:"), "{engine}: the trap names the PTX line\n{out}");
        assert!(took < Duration::from_secs(60), "{engine} took {took:?}");
        eprintln!("{engine}: {took:?}: {}", out.lines().next().unwrap_or(""));
    }
}

#[test]
fn each_limit_stops_a_launch_where_it_says() {
    let f = spin_file();
    let (code, out, _) = heddle(&["run", &f, "--engine", "rtl", "--arg", "u64:0", "--max-cycles", "20000"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("trap: runaway kernel: more than 20000 cycles, the --max-cycles limit (CTA (0,0,0), warp 0, pc "), "{out}");
    // Lockstep: the golden model is not stopped by the RTL's limit; no difference is reported.
    let (code, out, _) = heddle(&["run", &f, "--engine", "rtl", "--lockstep", "--arg", "u64:0", "--max-cycles", "20000"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("more than 20000 cycles"), "{out}");
    for engine in ["golden", "ptx", "rtl"] {
        let (code, out, took) = heddle(&["run", &f, "--engine", engine, "--arg", "u64:0", "--timeout", "1", "--max-cycles", "0"]);
        assert_eq!(code, 1, "{engine}: {out}");
        assert!(out.contains("trap: runaway kernel: ran longer than 1 s, the --timeout limit"), "{engine}: {out}");
        assert!(took < Duration::from_secs(20), "{engine}: {took:?}");
        let (code, out, _) = heddle(&["run", &f, "--engine", engine, "--arg", "u64:0", "--budget", "5000"]);
        assert_eq!(code, 1, "{engine}: {out}");
        assert!(out.contains("trap: runaway kernel: more than 5000 warp instructions, the --budget limit"), "{engine}: {out}");
    }
}

/// 10^8 CTAs of a real kernel: the launch honours the time limit (it ran
/// silently past 60 s before), on the interpreters, and the RTL's cycle limit.
#[test]
fn a_launch_of_a_hundred_million_ctas_honours_the_limits() {
    let args = ["--grid", "100000000", "--block", "32", "--arg", "buf:in:u32:40", "--arg", "buf:out:u32:40", "--arg", "u32:40"];
    for engine in ["golden", "ptx"] {
        let (code, out, took) =
            heddle(&[&["run", "tests/manifests/add_one.ptx", "--engine", engine, "--timeout", "2"], &args[..]].concat());
        assert_eq!(code, 1, "{engine}: {out}");
        assert!(out.contains("ran longer than 2 s, the --timeout limit (CTA ("), "{engine}: {out}");
        assert!(took < Duration::from_secs(30), "{engine}: {took:?}");
    }
    let (code, out, _) = heddle(&[&["run", "tests/manifests/add_one.ptx", "--engine", "rtl", "--max-cycles", "50000"], &args[..]].concat());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("more than 50000 cycles, the --max-cycles limit"), "{out}");
}

#[test]
fn the_defaults_are_in_the_help() {
    let (code, help, _) = heddle(&["run", "--help"]);
    assert_eq!(code, 0);
    assert!(help.contains("--max-cycles <N>"), "{help}");
    assert!(help.contains("[default: 3000000]"), "{help}");
    assert!(help.contains("--timeout <SECONDS>"), "{help}");
    assert!(help.contains("[default: 50]"), "{help}");
    assert!(help.contains("--quiet"), "{help}");
}
