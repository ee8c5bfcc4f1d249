//! The command line: exit statuses, diagnostics, the histogram example (examples/histogram.hasm),
//! and bounded smoke runs of the benchmarks (golden model and RTL).

use std::process::Command;

fn heddle(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_heddle")).current_dir(env!("CARGO_MANIFEST_DIR")).args(args).output().unwrap();
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stdout).into(), String::from_utf8_lossy(&o.stderr).into())
}

fn temp(name: &str, contents: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("heddle-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p.display().to_string()
}

#[test]
fn the_histogram_example_runs() {
    let (code, out, err) =
        heddle(&["run", "examples/histogram.hasm", "--grid", "4", "--block", "256", "--arg", "buf:hist:u32:16", "--stats"]);
    assert_eq!(code, 0, "{err}");
    // Expected values computed independently (the hash of 0..1023 into 16 bins).
    assert!(out.starts_with("CTA 0: 256 threads, bin 0 holds 17\nCTA 1: 256 threads, bin 0 holds 15\n"), "{out}");
    assert!(out.contains("hist = [64, 65, 64, 65, 63, 64, 64, 63, 65, 64, 64, 64, 64, 64, 63, 64]"), "{out}");
    assert!(out.contains("shared loads 68 stores 64 atomics 1024"), "{out}");
}

#[test]
fn bad_assembly_exits_2_with_a_located_diagnostic() {
    let f = temp("bad.hasm", b".kernel k\n    add r1, r2\n    exit\n");
    let (code, _, err) = heddle(&["asm", &f]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.hasm:2:5"), "{err}");
    assert!(err.contains("takes 3 operands"), "{err}");
    assert!(err.contains("2 |     add r1, r2"), "{err}");
}

#[test]
fn bad_objects_and_arguments_exit_2() {
    let f = temp("junk.hbin", b"HEDDLEOB\x01\x00\x00\x00garbage");
    let (code, _, err) = heddle(&["disasm", &f]);
    assert_eq!(code, 2);
    assert!(err.contains("truncated") || err.contains("corrupt"), "{err}");
    let (code, _, err) = heddle(&["run", "examples/histogram.hasm", "--arg", "buf:hist:u33:16"]);
    assert_eq!((code, err.contains("unknown type `u33`")), (2, true), "{err}");
    let (code, _, err) = heddle(&["run", "examples/histogram.hasm", "--block", "4096", "--arg", "buf:hist:u32:16"]);
    assert_eq!((code, err.contains("threads per CTA")), (2, true), "{err}");
    let (code, _, _) = heddle(&["run", "no/such/file.hasm"]);
    assert_eq!(code, 2);
    let (code, _, _) = heddle(&["frobnicate"]);
    assert_eq!(code, 2);
}

#[test]
fn a_trap_exits_1_and_names_where() {
    let f = temp(
        "oob.hasm",
        b".kernel k\n    .param p 8\n    s2r r0, laneid\n    isetp.eq p0, r0, 5\n    @p0 ld.global.b32 r1, [rz+16]\n    exit\n",
    );
    let (code, out, _) = heddle(&["run", &f, "--arg", "u64:0"]);
    assert_eq!(code, 1);
    assert!(out.contains("trap: out-of-bounds global access of 4 bytes (CTA (0,0,0), warp 0, lane 5, pc 2, address 0x10)"), "{out}");
    assert!(out.contains("at k+2 ("), "{out}");
    assert!(out.contains("oob.hasm:5:5)"), "{out}");
}

#[test]
fn isa_doc_prints_the_checked_in_reference() {
    let (code, out, _) = heddle(&["isa-doc"]);
    assert_eq!(code, 0);
    assert_eq!(out, std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/isa.md")).unwrap());
}

#[test]
fn benchmark_smoke_run() {
    let (code, out, err) = heddle(&["bench", "--seconds", "0"]);
    assert_eq!(code, 0, "{err}");
    for k in ["alu", "fma", "stream", "diverge", "reduce", "total"] {
        assert!(out.contains(k), "{out}");
    }
}

/// `bench --rtl` with one launch per kernel: every row, with the cycles
/// and lane utilisation the README's table gives (exact: the same binary
/// and inputs give the same cycles).
#[test]
fn rtl_benchmark_smoke_run() {
    let (code, out, err) = heddle(&["bench", "--rtl", "--seconds", "0"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<[&str; 4]> = out
        .lines()
        .skip(2)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            [f[0], f[1], f[3], f[7]]
        })
        .collect();
    let want = [
        ["tiny", "alu", "2601", "0.587"],
        ["tiny", "istream", "778", "0.329"],
        ["tiny", "diverge", "2344", "0.445"],
        ["tiny", "reduce", "3022", "0.254"],
        ["default", "alu", "6441", "0.949"],
        ["default", "fma", "5481", "0.893"],
        ["default", "istream", "1849", "0.554"],
        ["default", "diverge", "8000", "0.522"],
        ["default", "reduce", "8588", "0.492"],
    ];
    assert_eq!(rows, want, "{out}");
}

/// `--trace` prints every retire record with a manifest too: one line per
/// retired warp instruction, before the report.
#[test]
fn trace_works_with_a_manifest() {
    let (code, out, err) = heddle(&["run", "--manifest", "tests/corpus/vec_add_f32/case.json", "--trace"]);
    assert_eq!(code, 0, "{err}");
    let records = out.lines().filter(|l| l.split_whitespace().nth(1) == Some("cta")).count();
    assert!(out.contains("vec_add_f32: ok (1152 warp instructions"), "{out}");
    assert_eq!(records, 1152, "one record per warp instruction");
}

/// A reader that stops early (`heddle run ... --trace | head`) ends the
/// output quietly: no panic on the closed pipe. (The trace is 0.7 MB, more
/// than a pipe holds, so the writes meet the closed pipe.)
#[test]
fn a_closed_stdout_is_not_a_panic() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_heddle"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "--manifest", "tests/corpus/vec_add_f32/case.json", "--trace"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// `heddle export`: the SM's Verilog for a preset with `--set` overrides,
/// linted by Verilator; a bad override is an error that names it.
#[test]
fn export_writes_lint_clean_verilog_for_a_configuration() {
    let dir = std::env::temp_dir().join(format!("heddle-cli-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let export = |name: &str, sets: &[&str]| {
        let out = dir.join(name);
        let mut args = vec!["export", "--config", "tiny", "--lint", "-o", out.to_str().unwrap()];
        for s in sets {
            args.extend(["--set", s]);
        }
        let (code, _, err) = heddle(&args);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("lint clean"), "{err}");
        std::fs::read_to_string(out).unwrap()
    };
    let tiny = export("tiny.v", &[]);
    let two = export("tiny2.v", &["lanes=2", "imem_words=512"]);
    assert!(tiny.contains("module top("), "no top module");
    // One integer ALU per lane: 4 on tiny, 2 with lanes=2.
    let alus = |v: &str| v.matches("module top$alus$").count();
    assert_eq!((alus(&tiny), alus(&two)), (4, 2));
    for (set, msg) in [
        ("lanes=3", "lanes 3 must be a power of two"),
        ("bogus=1", "no configuration field `bogus` (fields: lanes, warp_size,"),
        ("fp32=maybe", "`maybe` is not a number or true/false"),
        ("lanes=-1", "--set: invalid value"),
        ("lanes", "expected KEY=VALUE"),
    ] {
        let (code, _, err) = heddle(&["export", "--config", "tiny", "--set", set]);
        assert_eq!(code, 2, "{set}: {err}");
        assert!(err.contains(msg), "{set}: {err}");
    }
    // `run` takes the same overrides.
    let (code, _, err) = heddle(&["run", "examples/histogram.hasm", "--set", "stack_depth=1"]);
    assert_eq!(code, 2);
    assert!(err.contains("stack_depth 1 must be at least 2"), "{err}");
}

/// A straight-line PTX kernel of `adds` increments that stores its count.
fn long_kernel(adds: usize) -> String {
    let mut s = String::from(
        ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 x){\n.reg .b32 %r<2>;\n.reg .b64 %rd<3>;\n\
         ld.param.u64 %rd1,[x];\ncvta.to.global.u64 %rd2,%rd1;\nmov.u32 %r1,0;\n",
    );
    s.push_str(&"add.u32 %r1,%r1,1;\n".repeat(adds));
    s.push_str("st.global.u32 [%rd2],%r1;\nret;\n}\n");
    s
}

/// The program limit (`heddle_isa::fields::MAX_CODE`, 1,048,573
/// instructions: pcs are 20 bits with two reserved) is one number that the
/// compiler, the assembler, the object loader and every engine enforce: a
/// longer program is refused with exit 2, never run to an early, silent end
/// (it used to retire 2^20 - 1 instructions and print `x = [0]`). A kernel
/// just inside the limit runs to its last instruction on golden and ptx.
#[test]
fn programs_past_the_instruction_limit_are_refused() {
    let max = heddle_isa::fields::MAX_CODE as usize;
    let over = temp("over.ptx", long_kernel(max + 1).as_bytes());
    for args in
        [vec!["run", &over, "--arg", "buf:x:u32:1"], vec!["run", &over, "--engine", "ptx", "--arg", "buf:x:u32:1"], vec!["compile", &over]]
    {
        let (code, out, err) = heddle(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("more than the 1048573 a Heddle program may hold"), "{args:?}: {err}");
    }
    let adds = max - 16;
    let near = temp("near.ptx", long_kernel(adds).as_bytes());
    for engine in ["golden", "ptx"] {
        let (code, out, err) = heddle(&["run", &near, "--engine", engine, "--arg", "buf:x:u32:1"]);
        assert_eq!(code, 0, "{engine}: {err}");
        assert_eq!(out, format!("x = [{adds}]\n"), "{engine}");
    }
    // The assembler names the first instruction past the limit, once.
    let asm = format!(".kernel k\n{}    exit\n", "    nop\n".repeat(max));
    let (code, _, err) = heddle(&["asm", &temp("over.hasm", asm.as_bytes())]);
    assert_eq!(code, 2);
    assert!(err.contains(&format!("over.hasm:{}:5", max + 2)), "{err}");
    assert_eq!(err.matches("a Heddle program holds at most 1048573").count(), 1, "{err}");
}

/// Issue 18: compiled PTX runs on `tiny` (16 registers): `run K.ptx --config
/// tiny` and `run --manifest --config tiny` compile for the SM's
/// `regs_per_thread`, on golden and on the RTL in lockstep.
#[test]
fn compiled_ptx_runs_on_tiny() {
    let (code, out, err) = heddle(&["run", "--manifest", "tests/manifests/ok.json", "--config", "tiny"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = heddle(&["run", "--manifest", "tests/manifests/ok.json", "--config", "tiny", "--engine", "rtl", "--lockstep"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("identical to the golden model"), "{out}");
    let (code, out, err) = heddle(&[
        "run",
        "tests/manifests/add_one.ptx",
        "--config",
        "tiny",
        "--arg",
        "buf:in:u32:4=1,2,3,4",
        "--arg",
        "buf:out:u32:4",
        "--arg",
        "u32:4",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("out = [2, 3, 4, 5]"), "{out}");
    // The kernel needs what it uses, not the whole register file.
    let (code, out, _) = heddle(&["compile", "tests/manifests/add_one.ptx", "--emit", "stats", "--config", "tiny"]);
    assert_eq!(code, 0);
    let regs: u32 = out.lines().find(|l| l.starts_with("add_one")).and_then(|l| l.split_whitespace().nth(3)?.parse().ok()).unwrap();
    assert!(regs <= 16, "{out}");
}

/// `--max-regs`: 1..=127, at most the configuration's registers; a budget a
/// function cannot fit is an error naming it and what it needs at least.
#[test]
fn max_regs_is_checked() {
    for bad in ["0", "128"] {
        let (code, _, err) = heddle(&["compile", "tests/manifests/add_one.ptx", "--max-regs", bad]);
        assert_eq!(code, 2);
        assert!(err.contains("--max-regs") && err.contains("1..=127"), "{err}");
    }
    let (code, _, err) = heddle(&["compile", "tests/corpus/libm_f64/kernel.ptx", "--max-regs", "6", "--emit", "stats"]);
    assert_eq!(code, 2);
    assert!(err.contains("does not fit a budget of 6 registers per thread: it needs at least"), "{err}");
    assert!(err.contains("kernel.ptx:"), "positioned at the function: {err}");
    // Under the minimum, small kernels still compile when they fit.
    let (code, out, err) = heddle(&["compile", "tests/manifests/add_one.ptx", "--max-regs", "10", "--emit", "stats"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("add_one"), "{out}");
}

#[test]
fn export_memories_prints_the_configurations_rams() {
    let (code, out, err) = heddle(&["export", "--config", "tiny", "--memories"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("top$rf$*$port_a") && out.contains("total: 141.9 kbit read at a registered address"), "{out}");
    let (code, _, err) = heddle(&["export", "--config", "tiny", "--memories", "--lint"]);
    assert_eq!(code, 2, "{err}");
}
