//! The RTL engine (`heddle run --engine rtl`): corpus kernels and assembly
//! programs in lockstep with the golden model, faults, and the VCD trace read
//! back with the `vcd` crate.
//!
//! CI runs the fast cases here; `cargo test --release --test rtl -- --ignored`
//! runs every corpus case on the RTL and prints which pass (see README).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn heddle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_heddle")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// Corpus cases the RTL runs in CI (a spread over every unit; the rest take
/// minutes each: the ignored test below runs them all).
const CI_CASES: &[&str] = &[
    "assert_passes",
    "templated_kernels",
    "warp_vote_partial",
    "int_intrinsics",
    "bit_manipulation",
    "switch_statements",
    "small_int_types",
    "grid_stride_loop",
    "int64_math",
    "scan_blelloch",
    "vec_add_f32",
    "saxpy_restrict_fma",
    "dynamic_shared_mem",
    "warp_shuffle_reduce",
    "assert_fires",
    "barrier_reductions",
    "indirect_calls",
    "double_arith",
    "half_precision",
    "fast_math_intrinsics",
    "malloc_free",
    "printf_many_threads",
];

fn run_case(case: &str) -> Output {
    let manifest = format!("tests/corpus/{case}/case.json");
    // No cycle or time limit: the slowest cases take minutes.
    heddle(&["run", "--manifest", &manifest, "--engine", "rtl", "--lockstep", "--max-cycles", "0", "--timeout", "0"])
}

#[test]
fn corpus_cases_pass_on_the_rtl_in_lockstep() {
    for case in CI_CASES {
        let o = run_case(case);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(0), "{case} on the RTL:\n{t}");
        assert!(t.contains(&format!("{case}: ok")), "{case}: {t}");
        let n: u64 = t
            .lines()
            .find_map(|l| l.strip_prefix("lockstep: ")?.split_whitespace().next()?.parse().ok())
            .unwrap_or_else(|| panic!("{case}: no lockstep summary in\n{t}"));
        assert!(n > 100, "{case}: only {n} instructions compared");
    }
}

/// The 44 differential kernels (NVRTC-compiled, written apart from the
/// corpus and never tuned against the RTL) in lockstep: every one passes
/// with no difference from the golden model.
#[test]
fn unseen_nvrtc_kernels_run_on_the_rtl_in_lockstep() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/differential"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert_eq!(dirs.len(), 44);
    for d in &dirs {
        let manifest = d.join("case.json");
        let o = heddle(&["run", "--manifest", manifest.to_str().unwrap(), "--engine", "rtl", "--lockstep"]);
        assert_eq!(o.status.code(), Some(0), "{}: {}", d.display(), text(&o));
    }
}

/// Program runs too slow for CI on the RTL (tens of seconds: long CAS
/// contention, deep recursion, a 10k-instruction budget); the ignored test
/// runs them.
const SLOW_RUNS: &[&str] = &["--kernel contend --block 256", "--kernel fib --block 64", "--budget 10000", "--kernel global_atoms"];

/// Runs every `// run:` line of every assembly program on the RTL in
/// lockstep, with `extra` arguments: the output (trap reports and memory
/// included) must equal the golden model's. Returns the number of runs.
fn check_programs(include_slow: bool, extra: &[&str]) -> u32 {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "hasm")).collect();
    files.sort();
    let mut same = 0;
    for f in files {
        let src = std::fs::read_to_string(&f).unwrap();
        for line in src.lines().filter_map(|l| l.trim().strip_prefix("// run:")) {
            if !include_slow && SLOW_RUNS.iter().any(|s| line.contains(s)) {
                continue;
            }
            let mut args: Vec<&str> = vec!["run", f.to_str().unwrap()];
            args.extend(line.split_whitespace());
            let gold = heddle(&args);
            args.extend(["--engine", "rtl", "--lockstep"]);
            args.extend(extra);
            let rtl = heddle(&args);
            assert_eq!(text(&rtl), text(&gold), "{} {line}", f.display());
            assert_eq!(rtl.status.code(), gold.status.code(), "{} {line}", f.display());
            same += 1;
        }
    }
    same
}

#[test]
fn programs_match_the_golden_model() {
    let same = check_programs(false, &[]);
    eprintln!("{same} program runs identical to the golden model");
    assert!(same >= 89, "only {same} program runs: some `// run:` lines were lost");
}

/// The same runs with a memory that stalls the bus and answers late, at
/// random (`--bus-waits`): the SM's Wishbone master must hold its transfers
/// through `STALL` and wait for each answer; results, faults included, are
/// unchanged.
#[test]
fn programs_match_the_golden_model_with_bus_wait_states() {
    let same = check_programs(false, &["--bus-waits", "3"]);
    assert!(same >= 89, "only {same} program runs");
}

/// Wait states change cycles, never the transfers: the same kernel moves
/// the same number of bus transfers with and without them.
#[test]
fn wait_states_do_not_change_the_bus_transfers() {
    let transfers = |extra: &[&str]| -> u64 {
        let o = heddle(
            &[&["run", "--manifest", "tests/corpus/vector_types/case.json", "--engine", "rtl", "--lockstep", "--stats"], extra].concat(),
        );
        let t = text(&o);
        assert_eq!(o.status.code(), Some(0), "{t}");
        t.lines()
            .find_map(|l| l.strip_prefix("rtl: ")?.split(", ").find_map(|f| f.strip_suffix(" bus transactions")?.parse().ok()))
            .unwrap_or_else(|| panic!("no transfer count in\n{t}"))
    };
    let plain = transfers(&[]);
    assert!(plain > 0);
    assert_eq!(transfers(&["--bus-waits", "9"]), plain);
}

/// A memory that answers late (`--mem-latency`, or a manifest's
/// `mem_latency`): the same results and transfers, more cycles, and the
/// command line wins over the manifest.
#[test]
fn memory_latency_changes_only_the_cycles() {
    let stats = |args: &[&str]| -> (u64, u64) {
        let o = heddle(&[&["run", "--engine", "rtl", "--lockstep", "--stats"], args].concat());
        let t = text(&o);
        assert_eq!(o.status.code(), Some(0), "{t}");
        let field = |suffix: &str| -> u64 {
            t.lines()
                .find_map(|l| l.strip_prefix("rtl: ")?.split(", ").find_map(|f| f.strip_suffix(suffix)?.parse().ok()))
                .unwrap_or_else(|| panic!("no `{suffix}` in\n{t}"))
        };
        (field(" cycles"), field(" bus transactions"))
    };
    let case = "tests/corpus/vector_types/case.json";
    let (c1, t1) = stats(&["--manifest", case]);
    let (c8, t8) = stats(&["--manifest", case, "--mem-latency", "8"]);
    assert_eq!(t8, t1, "the same transfers");
    assert!(c8 >= c1 + 7, "latency 8: {c8} cycles, latency 1: {c1}");
    // The manifest's own latency, with its files found where they are.
    let dir = std::fs::canonicalize("tests/corpus/vector_types").unwrap();
    let d = dir.to_str().unwrap();
    let text = std::fs::read_to_string(case)
        .unwrap()
        .replace("\"file\": \"", &format!("\"file\": \"{d}/"))
        .replace("\"kernel.", &format!("\"{d}/kernel."));
    let copy = std::env::temp_dir().join(format!("heddle-latency-{}.json", std::process::id()));
    std::fs::write(&copy, text.replacen('{', "{\"mem_latency\": 8, ", 1)).unwrap();
    assert_eq!(stats(&["--manifest", copy.to_str().unwrap()]), (c8, t8));
    assert_eq!(stats(&["--manifest", copy.to_str().unwrap(), "--mem-latency", "1"]), (c1, t1));
    let _ = std::fs::remove_file(copy);
}

#[test]
#[ignore]
fn every_program_run_on_the_rtl() {
    let same = check_programs(true, &[]);
    println!("{same} program runs identical to the golden model");
}

/// Several CTAs are resident at once: in `cta_slots` (whose results the
/// programs test checks against the golden model), the most CTAs that have
/// retired an instruction and not yet their last one is the number the SM
/// holds: 8 on `default` with 2 warps a CTA (`SmConfig::ctas`: its 16 warp
/// slots allow 8), 4 with 3 warps a CTA (4 warp slots each), 2 when
/// each CTA takes 20000 bytes of the 48 KiB shared memory, 1 on `tiny`.
#[test]
fn several_ctas_are_resident_at_once() {
    let runs = [
        ("--grid 12 --block 64 --arg buf:out:u32:768 --arg buf:ids:u32:768", 8),
        ("--grid 9 --block 96 --arg buf:out:u32:864 --arg buf:ids:u32:864", 4),
        ("--grid 5 --block 64 --shared 20000 --arg buf:out:u32:320 --arg buf:ids:u32:320", 2),
        ("--grid 6 --block 8 --config tiny --arg buf:out:u32:48 --arg buf:ids:u32:48", 1),
    ];
    for (args, resident) in runs {
        let mut a = vec!["run", "tests/programs/cta_slots.hasm", "--kernel", "slots", "--engine", "rtl", "--trace"];
        a.extend(args.split_whitespace());
        let o = heddle(&a);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(0), "{args}: {t}");
        // Retire lines: `SEQ cta C warp W pc ...`; each CTA's first and last retire.
        let mut span: std::collections::BTreeMap<u32, (u64, u64)> = Default::default();
        for w in t.lines().map(|l| l.split_whitespace().collect::<Vec<_>>()).filter(|w| w.len() > 3 && w[1] == "cta") {
            let (seq, cta): (u64, u32) = (w[0].parse().unwrap(), w[2].parse().unwrap());
            let e = span.entry(cta).or_insert((seq, seq));
            e.1 = seq;
        }
        let ctas: u32 = args.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert_eq!(span.len() as u32, ctas, "{args}: every CTA retires");
        let most = span.values().map(|&(from, _)| span.values().filter(|&&(a, b)| a <= from && from <= b).count()).max().unwrap();
        assert_eq!(most, resident, "{args}: CTAs in flight at once");
    }
}

/// A warp slot's register words carry its epoch, which wraps after 16 CTA
/// starts (`heddle_hw::regfile::EPOCH_BITS`); the start that would wrap it
/// first zeroes the warp's words (`InitFill`). `tiny` runs one CTA of one
/// warp at a time, always in warp slot 0, so 40 CTAs wrap its epoch twice:
/// without the zeroing, CTA 16 reads the r14 that CTA 0 wrote (55), and
/// the lockstep stops there.
#[test]
fn register_words_of_an_earlier_cta_read_zero_after_the_epoch_wraps() {
    let args = "run tests/programs/cta_slots.hasm --kernel slots --engine rtl --lockstep --config tiny --grid 40 --block 8 \
                --arg buf:out:u32:320 --arg buf:ids:u32:320";
    let o = heddle(&args.split_whitespace().collect::<Vec<_>>());
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    let want: Vec<String> = (0..40).flat_map(|c| (0..8).map(move |i| (1000 * c + 7 - i).to_string())).collect();
    assert!(t.contains(&format!("out = [{}]", want.join(", "))), "{t}");
}

/// Shared-memory bank conflicts (`default`: 8 banks, 8 lanes a beat, so 64
/// threads are 8 beats; `strided` adds t / 8 to each word index, the same
/// for a beat's lanes): a store or load of stride 1 or 9 words spreads a
/// beat over 8 banks, no conflict; stride 8 puts a beat's 8 lanes on one
/// bank in 8 rows, 7 extra cycles per beat for the store and the load
/// (8 x 2 x 7 = 112); stride 4 puts 4 lanes on each of 2 banks (8 x 2 x 3
/// = 48); stride 0 puts every lane on one word: stores go one lane per
/// cycle (8 x 7 = 56) and the load is a broadcast (0).
#[test]
fn shared_memory_bank_conflicts_are_counted() {
    for (stride, want) in [(1, 0), (9, 0), (8, 112), (4, 48), (0, 56)] {
        let stride = format!("u32:{stride}");
        let args = [
            "run",
            "tests/programs/shared_banks.hasm",
            "--kernel",
            "strided",
            "--block",
            "64",
            "--arg",
            "buf:out:u32:64",
            "--arg",
            &stride,
        ];
        let o = heddle(&[&args[..], &["--engine", "rtl", "--lockstep", "--stats"]].concat());
        let t = text(&o);
        assert_eq!(o.status.code(), Some(0), "{t}");
        let n: u64 = t
            .lines()
            .find_map(|l| {
                l.strip_prefix("rtl: ")?.split(", ").find_map(|f| f.strip_suffix(" shared-memory bank-conflict cycles")?.parse().ok())
            })
            .unwrap_or_else(|| panic!("no bank-conflict count in\n{t}"));
        assert_eq!(n, want, "{stride}: {t}");
    }
}

/// The README's main command, with the VCD bounded: the trace parses, has
/// the hardware's scopes, and shows the control FSM moving.
#[test]
fn main_command_writes_a_vcd_that_parses() {
    let vcd_path = std::env::temp_dir().join(format!("heddle-main-{}.vcd", std::process::id()));
    let o = heddle(&[
        "run",
        "--manifest",
        "tests/corpus/scan_blelloch/case.json",
        "--engine",
        "rtl",
        "--vcd",
        vcd_path.to_str().unwrap(),
        "--vcd-to",
        "6000",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let file = std::fs::File::open(&vcd_path).unwrap();
    let mut parser = vcd::Parser::new(std::io::BufReader::new(file));
    let header = parser.parse_header().unwrap();
    for path in [&["sm", "sched"][..], &["sm", "stack"], &["sm", "lane0", "alu"], &["sm", "lane7", "rf"], &["sm", "state"]] {
        assert!(header.find_scope(path).is_some(), "no scope {path:?} in the VCD");
    }
    let state = header.find_var(&["sm", "state", "q"]).expect("the FSM state register").code;
    let clk = header.find_var(&["sm", "clk"]).expect("clk").code;
    let (mut stamps, mut states, mut clock_edges) = (0u64, std::collections::BTreeSet::new(), 0);
    let mut last = 0;
    for cmd in parser {
        match cmd.unwrap() {
            vcd::Command::Timestamp(t) => {
                assert!(t >= last, "time goes backwards");
                last = t;
                stamps += 1;
            }
            vcd::Command::ChangeString(id, s) if id == state => {
                states.insert(s);
            }
            vcd::Command::ChangeScalar(id, vcd::Value::V1) if id == clk => clock_edges += 1,
            _ => {}
        }
    }
    let _ = std::fs::remove_file(&vcd_path);
    assert_eq!(clock_edges, 6000, "one rising edge per cycle of the window");
    assert_eq!(stamps, 12000);
    for s in ["Sched", "Aux", "Exec", "BeatReq", "BarCheck", "Commit"] {
        assert!(states.iter().any(|x| x.contains(s)), "state {s} never seen: {states:?}");
    }
}

/// A difference (injected through the test hook) is reported with its
/// cycle, warp, pc and the differing register, and a VCD of the cycles
/// around it, written by a deterministic replay.
#[test]
fn a_lockstep_difference_is_reported_with_a_vcd_window() {
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
    let opts = RtlOptions { lockstep: true, corrupt_retire: Some(20), ..Default::default() };
    let Err(LaunchError::Rtl(msg)) = dev.launch_rtl(&launch, &opts, &mut NoTrace) else { panic!("the injected difference went unnoticed") };
    assert!(msg.starts_with("lockstep: cycle "), "{msg}");
    assert!(msg.contains(" warp ") && msg.contains(" pc ") && msg.contains(", golden lane "), "{msg}");
    let path = msg.split("the VCD ").nth(1).and_then(|t| t.split(" covers").next()).unwrap_or_else(|| panic!("no VCD in: {msg}"));
    let file = std::fs::File::open(path).unwrap();
    let mut parser = vcd::Parser::new(std::io::BufReader::new(file));
    assert!(parser.parse_header().unwrap().find_scope(&["sm", "sched"]).is_some());
    let stamps = parser.filter(|c| matches!(c, Ok(vcd::Command::Timestamp(_)))).count();
    assert!(stamps > 2 * 20, "window of {} timestamps", stamps);
    let _ = std::fs::remove_file(path);
}

/// Same inputs, same VCD, byte for byte (and the same output).
#[test]
fn the_vcd_is_deterministic() {
    let dir = std::env::temp_dir();
    let runs: Vec<(Vec<u8>, String)> = (0..2)
        .map(|i| {
            let path = dir.join(format!("heddle-det-{}-{i}.vcd", std::process::id()));
            let o = heddle(&[
                "run",
                "--manifest",
                "tests/corpus/warp_vote_partial/case.json",
                "--engine",
                "rtl",
                "--vcd",
                path.to_str().unwrap(),
                "--vcd-from",
                "500",
                "--vcd-to",
                "1500",
            ]);
            assert_eq!(o.status.code(), Some(0), "{}", text(&o));
            let bytes = std::fs::read(&path).unwrap();
            let _ = std::fs::remove_file(&path);
            (bytes, text(&o))
        })
        .collect();
    assert!(runs[0].0.len() > 10_000);
    assert!(runs[0] == runs[1], "two runs differ");
}

/// Runs assembly source `src` on the RTL (unless `args` name an engine) with `args` (from a temporary file).
fn run_source(name: &str, src: &str, args: &[&str]) -> std::process::Output {
    let dir = std::env::temp_dir().join(format!("heddle-rtl-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("k.hasm");
    std::fs::write(&file, src).unwrap();
    let mut all = vec!["run", file.to_str().unwrap()];
    if !args.contains(&"--engine") {
        all.extend(["--engine", "rtl"]);
    }
    all.extend(args);
    let o = heddle(&all);
    let _ = std::fs::remove_dir_all(&dir);
    o
}

/// The trap line of `src` run with `args` on the golden model: the same as the RTL's.
fn golden_trap(name: &str, src: &str, args: &[&str]) -> String {
    let o = run_source(name, src, &[args, &["--engine", "golden"]].concat());
    text(&o).lines().find(|l| l.starts_with("trap:")).unwrap_or("no trap").to_string()
}

/// `tiny` has no FP32 unit: a float kernel traps naming the instruction and
/// the unit, on the RTL and on the golden model alike.
#[test]
fn a_kernel_needing_a_missing_unit_traps_with_its_name() {
    let src = ".kernel k\n    s2r r0, tid.x\n    fadd r1, r0, r0\n    exit\n";
    // One warp: which warp traps first is the engine's schedule.
    let o = run_source("unit", src, &["--config", "tiny", "--block", "8"]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    let line = "trap: not implemented: `fadd` (the SM is built without fp32) (CTA (0,0,0), warp 0, pc 1)";
    assert!(t.contains(line), "{t}");
    assert_eq!(golden_trap("unit", src, &["--config", "tiny", "--block", "8"]), line);
}

/// `tiny` has no integer dividers (`SmConfig::int_div`): `div` and `rem`
/// trap naming the instruction; with `--set int_div=true` the same kernel
/// runs in lockstep with the golden model.
#[test]
fn a_division_without_dividers_traps_with_its_name() {
    let src = ".kernel k\n    s2r r0, tid.x\n    mov r1, 3\n    rem.s r2, r0, r1\n    div.u r3, r0, r1\n    exit\n";
    let o = run_source("div", src, &["--config", "tiny", "--block", "8"]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("not implemented: `rem.s` (the SM is built without int_div)"), "{t}");
    assert!(golden_trap("div", src, &["--config", "tiny", "--block", "8"]).contains("`rem.s` (the SM is built without int_div)"));
    let o = run_source("div", src, &["--config", "tiny", "--block", "8", "--set", "int_div=true", "--lockstep"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// An FP atomic add runs on the SM's FP unit of its width (lane 0's binary32
/// unit, the shared binary64 one): without it, it traps naming that unit,
/// even on shared memory, on the RTL and the golden model alike (`tiny` has
/// no FP units; `fp32=false` and `fp64=false` lack one). With the unit it
/// runs in lockstep.
#[test]
fn an_fp_atomic_without_its_fp_unit_traps_with_its_name() {
    let f32_src = ".kernel k\n.shared 16\n    s2r r0, tid.x\n    mov r1, 0\n    atom.shared.fadd rz, [r1], r0\n    exit\n";
    let f64_src =
        ".kernel k\n.shared 16\n    s2r r2, tid.x\n    mov r3, 0\n    mov r1, 0\n    atom.shared.fadd.b64 rz, [r1], r2\n    exit\n";
    for (src, args, unit) in [
        (f32_src, &["--config", "tiny"][..], "fp32"),
        (f32_src, &["--set", "fp32=false"][..], "fp32"),
        (f64_src, &["--set", "fp64=false"][..], "fp64"),
    ] {
        let o = run_source("fatom", src, args);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(1), "{t}");
        let msg =
            format!("not implemented: `atom.shared.fadd{}` (the SM is built without {unit})", if unit == "fp64" { ".b64" } else { "" });
        assert!(t.contains(&msg), "{args:?}: {t}");
        assert!(golden_trap("fatom", src, args).contains(&msg), "{args:?}");
    }
    for (src, args) in
        [(f32_src, &[][..]), (f64_src, &[][..]), (f64_src, &["--set", "fp32=false"][..]), (f32_src, &["--set", "fp64=false"][..])]
    {
        let o = run_source("fatom", src, &[args, &["--lockstep"]].concat());
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o));
    }
}

#[test]
fn vcd_needs_the_rtl_engine() {
    let o = heddle(&["run", "--manifest", "tests/corpus/vec_add_f32/case.json", "--vcd", "x.vcd"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("need --engine rtl"));
}

/// Every corpus case on the RTL in lockstep (minutes): prints a table.
#[test]
#[ignore]
fn every_corpus_case_on_the_rtl() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let mut failed = vec![];
    for d in dirs {
        let case = d.file_name().unwrap().to_str().unwrap().to_string();
        let o = run_case(&case);
        let t = text(&o);
        let verdict = if o.status.code() == Some(0) {
            "pass".to_string()
        } else if let Some(i) = t.find("not implemented by this engine: ") {
            t[i + 31..].split(" in the RTL").next().unwrap_or("?").to_string()
        } else {
            failed.push(case.clone());
            format!("FAIL {}", t.lines().last().unwrap_or(""))
        };
        println!("{case:<28} {verdict}");
    }
    assert!(failed.is_empty(), "lockstep or output failures: {failed:?}");
}

/// Every statistic the RTL engine reports is counted, not left at zero:
/// its `--json` statistics (branches, divergent branches, barriers, memory
/// accesses by space, system calls) equal the golden model's for kernels
/// with divergence, barriers, reductions and printf; only `cycles` is the
/// RTL's own.
#[test]
fn rtl_statistics_equal_the_golden_models() {
    let stats = |case: &str, engine: &str| -> serde_json::Value {
        let o = heddle(&["run", "--manifest", &format!("tests/corpus/{case}/case.json"), "--engine", engine, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{case} on {engine}: {}", text(&o));
        let mut j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        j["stats"].as_object_mut().unwrap().remove("cycles");
        j["stats"].take()
    };
    for case in ["scan_blelloch", "barrier_reductions", "warp_vote_partial", "printf_many_threads"] {
        let rtl = stats(case, "rtl");
        assert_eq!(rtl, stats(case, "golden"), "{case}");
        assert!(rtl["branches"].as_u64().unwrap() > 0, "{case}: {rtl}");
    }
    let scan = stats("scan_blelloch", "rtl");
    assert_eq!(
        (scan["branches"].as_u64(), scan["divergent_branches"].as_u64(), scan["barriers"].as_u64()),
        (Some(444), Some(37), Some(204))
    );
}

/// Issue 18: compiled code fits `tiny` (16 registers: the compiler packs
/// registers and spills within the SM's `regs_per_thread`, the stack pointer
/// included). Corpus kernels relaunched with 32-thread CTAs
/// (`tests/tiny/`, integer only: tiny has no FP units or dividers) run on
/// tiny's RTL in lockstep with the golden model and meet the corpus
/// expectations; a few seconds in all.
#[test]
fn corpus_kernels_run_on_tiny_in_lockstep() {
    for case in ["templated_kernels", "assert_fires", "int_intrinsics", "switch_statements", "bit_manipulation", "atomics_64bit"] {
        let manifest = format!("tests/tiny/{case}/case.json");
        let o = heddle(&["run", "--manifest", &manifest, "--config", "tiny", "--engine", "rtl", "--lockstep"]);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(0), "{case} on tiny:\n{t}");
        assert!(t.contains(&format!("{case}@tiny: ok")) && t.contains("identical to the golden model"), "{case}: {t}");
    }
    // Spill code on the RTL: 8 registers, below the documented minimum.
    let o = heddle(&[
        "run",
        "--manifest",
        "tests/tiny/int64_math/case.json",
        "--config",
        "tiny",
        "--set",
        "mul64=true",
        "--engine",
        "rtl",
        "--lockstep",
        "--max-regs",
        "8",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "int64_math at 8 registers on tiny:\n{t}");
    assert!(t.contains("identical to the golden model"), "{t}");
}

/// Every `tests/tiny/` case on tiny's RTL in lockstep, with the FP units and
/// dividers added (the integer-only ones need none: `scripts/registers.sh`
/// tells them apart); about a minute.
#[test]
#[ignore]
fn every_tiny_case_on_the_rtl() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tiny"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let mut failed = vec![];
    for d in dirs {
        let case = d.file_name().unwrap().to_str().unwrap().to_string();
        let manifest = format!("tests/tiny/{case}/case.json");
        let units = ["--set", "fp32=true", "--set", "fp64=true", "--set", "int_div=true", "--set", "mul64=true"];
        let mut args = vec!["run", "--manifest", &manifest, "--config", "tiny", "--engine", "rtl", "--lockstep"];
        args.extend(units);
        let o = heddle(&args);
        let ok = o.status.code() == Some(0);
        println!("{case:<28} {}", if ok { "pass" } else { "FAIL" });
        if !ok {
            failed.push(format!("{case}: {}", text(&o)));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Issue 21's reduced ISA: an SM without the 64-bit multiplier or shifters
/// (`mul64`, `shift64`, as `tiny`) gets 64-bit products (low and high
/// halves) and shifts from 32-bit instructions, with the same results as
/// the 64-bit instructions and the PTX interpreter, on the RTL in
/// lockstep; the instructions themselves trap there as not implemented.
#[test]
fn an_sm_without_64_bit_units_computes_in_32_bit_pieces() {
    let input = "buf:in:u64:9=3,18446744073709551615,4294967297,12345678901234567,18446744069414584320,\
                 9223372036854775807,2,4294967295,18446744073709551614";
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "tests/manifests/mul64.ptx", "--block", "8", "--arg", input, "--arg", "buf:out:u64:24"];
        args.extend(extra);
        let o = heddle(&args);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", text(&o));
        String::from_utf8_lossy(&o.stdout).lines().filter(|l| l.starts_with("out = ")).collect::<String>()
    };
    let reference = run(&["--engine", "ptx"]);
    assert!(reference.contains("18446744073709551613"), "{reference}");
    assert_eq!(run(&["--config", "tiny", "--set", "mul64=true"]), reference);
    assert_eq!(run(&["--config", "tiny"]), reference);
    let o = heddle(&[
        "run",
        "tests/manifests/mul64.ptx",
        "--block",
        "8",
        "--arg",
        input,
        "--arg",
        "buf:out:u64:24",
        "--config",
        "tiny",
        "--engine",
        "rtl",
        "--lockstep",
        "--stats",
    ]);
    let t = text(&o);
    assert!(o.status.success() && t.contains(&reference) && t.contains("identical to the golden model"), "{t}");
    // The code: no mul64 without the unit, one per product with it.
    let asm = |set: &str| {
        let o = heddle(&["compile", "tests/manifests/mul64.ptx", "--emit", "asm", "--config", "tiny", "--set", set]);
        assert!(o.status.success(), "{}", text(&o));
        String::from_utf8_lossy(&o.stdout).lines().filter(|l| l.trim_start().starts_with("mul64.")).count()
    };
    assert_eq!((asm("mul64=false"), asm("mul64=true")), (0, 3));
    // The high halves (MUL-01, MAD-01): mul.hi.u64, mul.hi.s64, mad.hi.s64.
    let hi = |extra: &[&str]| {
        let mut args = vec!["run", "tests/manifests/mulhi64.ptx", "--block", "8", "--arg", input, "--arg", "buf:out:u64:24"];
        args.extend(extra);
        let o = heddle(&args);
        let t = text(&o);
        assert!(o.status.success(), "{extra:?}: {t}");
        (t.lines().filter(|l| l.starts_with("out = ")).collect::<String>(), t)
    };
    let (reference, _) = hi(&["--engine", "ptx"]);
    assert!(reference.contains("18446744073709551614, 2874452"), "{reference}");
    let (out, t) = hi(&["--config", "tiny", "--engine", "rtl", "--lockstep", "--stats"]);
    assert!(out == reference && t.contains("identical to the golden model"), "{t}");
    let o = heddle(&["run", "--manifest", "tests/tiny/int64_math/case.json", "--config", "tiny"]);
    assert!(o.status.success(), "{}", text(&o));
    // 64-bit shifts by amounts around the word boundary, without `shift64`
    // (tiny) and with it, against the PTX interpreter and on the RTL.
    let shifts = [
        "--block",
        "16",
        "--arg",
        "buf:x:u64:4=0x8123456789abcdef,0x00000001fffffffe,0xffffffff00000001,0x7fffffff80000000",
        "--arg",
        "buf:n:u32:16=0,1,31,32,33,63,64,100,4294967295,16,47,48,2,62,65,95",
        "--arg",
        "buf:out:u64:48",
    ];
    let shift = |extra: &[&str]| {
        let mut args = vec!["run", "tests/manifests/shift64.ptx"];
        args.extend(shifts);
        args.extend(extra);
        let o = heddle(&args);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", text(&o));
        String::from_utf8_lossy(&o.stdout).lines().filter(|l| l.starts_with("out = ")).collect::<String>()
    };
    let reference = shift(&["--engine", "ptx"]);
    assert_eq!(shift(&["--config", "tiny", "--set", "shift64=true"]), reference);
    assert_eq!(shift(&["--config", "tiny"]), reference);
    let rtl = shift(&["--config", "tiny", "--engine", "rtl", "--lockstep"]);
    assert_eq!(rtl, reference);
    let o = heddle(&["compile", "tests/manifests/shift64.ptx", "--emit", "asm", "--config", "tiny"]);
    let shifts64 = String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| l.trim_start().starts_with("shl64") || l.trim_start().starts_with("shr64"))
        .count();
    assert_eq!(shifts64, 0);
    // The instruction itself traps as not implemented on such an SM.
    let prog = std::env::temp_dir().join(format!("heddle-mul64-{}.hasm", std::process::id()));
    for (inst, unit) in [("mul64.u r0, r2, r4", "mul64"), ("shl64 r0, r2, r4", "shift64")] {
        std::fs::write(&prog, format!(".kernel k\n    {inst}\n    exit\n")).unwrap();
        let o = heddle(&["run", prog.to_str().unwrap(), "--config", "tiny", "--block", "8"]);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(1), "{t}");
        assert!(t.contains(&format!("built without {unit}")), "{t}");
    }
    let _ = std::fs::remove_file(&prog);
}
