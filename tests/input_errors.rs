//! Input a user gets wrong gets exit 2 and a message that names it, never
//! silence (issue 18, section 4): flags that do not apply, VCD options that
//! would write nothing useful, manifest tolerances and buffers, out-of-range
//! launch shapes, empty programs, predicates the SM lacks, texture
//! instructions; and the output forms that go with them (summaries of long
//! buffers, a quiet exit on a closed pipe, PTX traps located in the source).

use std::process::{Command, Stdio};

fn heddle(args: &[&str]) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_heddle")).current_dir(env!("CARGO_MANIFEST_DIR")).args(args).output().unwrap();
    (o.status.code().unwrap_or(-1), format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)))
}

fn temp(name: &str, contents: &str) -> String {
    let dir = std::env::temp_dir().join(format!("heddle-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p.display().to_string()
}

/// Exit 2, and `want` in the message.
fn refused(args: &[&str], want: &str) {
    let (code, out) = heddle(args);
    assert_eq!(code, 2, "{args:?}: {out}");
    assert!(out.contains(want), "{args:?}: `{want}` not in\n{out}");
}

const HIST: &str = "examples/histogram.hasm";
const MANIFEST: &str = "tests/manifests/ok.json";

#[test]
fn flags_that_do_not_apply_are_refused() {
    refused(&["run", HIST, "--arg", "buf:hist:u32:16", "--json"], "--json applies to --manifest runs only");
    refused(&["run", HIST, "--arg", "buf:hist:u32:16", "--dump", "/tmp"], "--dump applies to --manifest runs only");
    refused(&["run", HIST, "--arg", "buf:hist:u32:16", "--ptx-variant", "x"], "--ptx-variant applies to --manifest runs only");
    for flag in [["--kernel", "k"], ["--grid", "2"], ["--block", "64"], ["--arg", "u32:1"], ["--shared", "16"]] {
        refused(&["run", "--manifest", MANIFEST, flag[0], flag[1]], "cannot be used with");
    }
    for flag in [["--vcd-from", "5"], ["--vcd-to", "9"], ["--vcd-scope", "sm.sched"]] {
        refused(&["run", HIST, "--arg", "buf:hist:u32:16", "--engine", "rtl", flag[0], flag[1]], "--vcd <VCD>");
    }
    refused(&["run", HIST, "--arg", "buf:hist:u32:16", "--vcd", "x.vcd"], "need --engine rtl");
}

#[test]
fn vcd_options_that_would_write_nothing_are_refused() {
    let vcd = std::env::temp_dir().join(format!("heddle-input-{}.vcd", std::process::id())).display().to_string();
    let rtl = ["run", HIST, "--arg", "buf:hist:u32:16", "--engine", "rtl", "--vcd", &vcd];
    refused(&[&rtl[..], &["--vcd-scope", "sm.nothing"]].concat(), "--vcd-scope `sm.nothing` names no part of the SM");
    refused(&[&rtl[..], &["--vcd-scope", "sm.nothing"]].concat(), "sm.sched");
    refused(&[&rtl[..], &["--vcd-from", "10", "--vcd-to", "5"]].concat(), "--vcd-from 10 is not before --vcd-to 5");
    refused(&[&rtl[..], &["--vcd-from", "7", "--vcd-to", "7"]].concat(), "would hold no cycle");
    // A known scope still traces.
    let (code, out) = heddle(&[&rtl[..], &["--vcd-scope", "sm.sched", "--vcd-to", "100"]].concat());
    assert_eq!(code, 0, "{out}");
    assert!(std::fs::read_to_string(&vcd).unwrap().contains("$scope module sched $end"));
    // The default end of the window is shown as the end of the run, not 2^64 - 1.
    let (_, help) = heddle(&["run", "--help"]);
    assert!(!help.contains("18446744073709551615"), "{help}");
    assert!(help.contains("default: the end of the run"), "{help}");
}

/// A manifest like `tests/manifests/ok.json` with `edit` applied to its JSON.
fn manifest_with(name: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/manifests");
    let mut m: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("ok.json")).unwrap()).unwrap();
    m["ptx"] = dir.join("add_one.ptx").display().to_string().into();
    m["expect"]["out"]["file"] = dir.join("expected_out.bin").display().to_string().into();
    edit(&mut m);
    temp(name, &m.to_string())
}

#[test]
fn manifest_tolerances_and_buffers_are_checked() {
    for (tol, want) in [
        (serde_json::json!({"abs": -1.0}), "tolerance `abs` must be a finite number of at least 0, not -1.0"),
        (serde_json::json!({"rel": -0.5}), "tolerance `rel` must be a finite number of at least 0"),
        (serde_json::json!({"ulp": -2}), "tolerance `ulp` must be a whole number of at least 0, not -2"),
        (serde_json::json!({"ulps": 2}), "unknown tolerance `ulps`"),
        (serde_json::json!({}), "`tolerance` is empty"),
        (serde_json::json!(3), "`tolerance` must be an object"),
    ] {
        let m = manifest_with("tol.json", |m| m["expect"]["out"]["tolerance"] = tol);
        refused(&["run", "--manifest", &m], want);
    }
    let ok = manifest_with("tol_ok.json", |m| m["expect"]["out"]["tolerance"] = serde_json::json!({"abs": 0.5, "rel": 0.0}));
    assert_eq!(heddle(&["run", "--manifest", &ok]).0, 0);
    let twice = manifest_with("twice.json", |m| m["params"][1]["name"] = "in".into());
    refused(&["run", "--manifest", &twice], "params[1]: two buffers are named `in`");
    let empty = manifest_with("empty.json", |m| m["params"][1]["count"] = 0.into());
    refused(&["run", "--manifest", &empty], "params[1]: buffer `out` has no elements");
}

#[test]
fn command_line_buffers_and_shapes_are_checked() {
    refused(&["run", HIST, "--arg", "buf:hist:u32:0"], "`buf:hist:u32:0`: buffer `hist` has no elements");
    refused(&["run", HIST, "--grid", "4294967296", "--arg", "buf:hist:u32:16"], "`4294967296` is out of range (at most 4294967295)");
    refused(&["run", HIST, "--block", "1,99999999999", "--arg", "buf:hist:u32:16"], "is out of range");
    refused(&["run", HIST, "--grid", "x", "--arg", "buf:hist:u32:16"], "`x` is not a number");
    let two = temp("two.hasm", ".kernel k\n    .param a 8\n    .param b 8\n    exit\n");
    refused(&["run", &two, "--arg", "buf:x:u32:4", "--arg", "buf:x:u32:4"], "argument 2: two buffers are named `x`");
}

#[test]
fn empty_programs_and_missing_predicates_are_refused() {
    let empty = temp("empty.hasm", "");
    refused(&["asm", &empty], "no `.kernel` in the file");
    let comments = temp("comments.hasm", "// nothing here\n\n");
    refused(&["run", &comments], "no `.kernel` in the file");
    // histogram.hasm guards with p0 and p1: an SM without predicates cannot run it.
    refused(&["run", HIST, "--arg", "buf:hist:u32:16", "--set", "preds=0"], "needs predicate registers 2, the SM has 0");
    // PTX is compiled for the SM's predicates: with 3 it still runs (the rest live in general registers).
    let (code, out) = heddle(&["run", "--manifest", "tests/corpus/scan_blelloch/case.json", "--set", "preds=3"]);
    assert_eq!(code, 0, "{out}");
    refused(
        &["run", "--manifest", "tests/corpus/scan_blelloch/case.json", "--set", "preds=1"],
        "the compiler needs at least 2 predicate registers; the SM has 1",
    );
    assert_eq!(heddle(&["run", HIST, "--arg", "buf:hist:u32:16", "--set", "preds=2"]).0, 0);
}

/// Textures and surfaces get the same "not supported" error as `wmma`,
/// whatever their operands look like (`tex.1d` once lexed as a number).
#[test]
fn texture_and_surface_instructions_are_not_supported() {
    let head = ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 x){\n.reg .f32 %f<5>;\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n";
    for (op, line) in [
        ("tex", "tex.1d.v4.f32.s32 {%f1,%f2,%f3,%f4}, [tex0, {%r1}];"),
        ("tex", "tex.2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [tex0, {%f1,%f2}];"),
        ("suld", "suld.b.1d.v4.b32.trap {%r1,%r2,%r1,%r2}, [surf0, {%r1}];"),
        ("sust", "sust.b.3d.b32.clamp [surf0, {%r1,%r1,%r1,%r1}], {%r2};"),
        ("txq", "txq.width.b32 %r1, [tex0];"),
        ("wmma", "wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1}, [%rd1], 16;"),
    ] {
        let f = temp("tex.ptx", &format!("{head}{line}\nret;\n}}\n"));
        for cmd in ["check", "compile"] {
            let (code, out) = heddle(&[cmd, &f]);
            assert_eq!(code, 2, "{line}: {out}");
            assert!(out.contains(&format!("`{op}` is not supported by Heddle")), "{line}: {out}");
            assert!(out.contains("tex.ptx:8:1"), "{line}: {out}");
            assert_eq!(out.matches("error").count(), 1, "{line}: one error only\n{out}");
        }
    }
}

#[test]
fn long_buffers_print_as_a_summary_unless_full() {
    let (code, out) = heddle(&["run", HIST, "--grid", "4", "--block", "256", "--arg", "buf:hist:u32:2000"]);
    assert_eq!(code, 0, "{out}");
    let line = out.lines().find(|l| l.starts_with("hist = ")).unwrap();
    assert!(line.starts_with("hist = [64, 65, 64, 65, 63, 64, 64, 63, ..., 0, 0, 0, 0, 0, 0, 0, 0] (2000 elements, crc32 "), "{line}");
    assert!(line.ends_with("; --full prints them all)"), "{line}");
    let (_, full) = heddle(&["run", HIST, "--grid", "4", "--block", "256", "--arg", "buf:hist:u32:2000", "--full"]);
    let line = full.lines().find(|l| l.starts_with("hist = ")).unwrap();
    assert_eq!(line.split(", ").count(), 2000, "{line}");
    // The summary's checksum is the CRC-32 of the buffer's bytes.
    let vals: Vec<u32> = line["hist = [".len()..line.len() - 1].split(", ").map(|v| v.parse().unwrap()).collect();
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    assert!(out.contains(&format!("crc32 {:08x};", crc32fast::hash(&bytes))), "{out}");
}

#[test]
fn a_closed_pipe_ends_output_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_heddle"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["export", "--config", "tiny"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one line, then close the pipe (`heddle export | head -1`).
    let mut first = [0u8; 64];
    use std::io::Read;
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The PTX engine's traps name the PTX source line, as the golden engine's
/// name the line their instruction was compiled from.
#[test]
fn ptx_traps_carry_their_source_location() {
    let f = temp(
        "oob.ptx",
        ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 x){\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n\
         ld.param.u64 %rd1,[x];\nmov.u32 %r1, 5;\n  st.global.u32 [%rd1+4096],%r1;\nret;\n}\n",
    );
    for engine in ["ptx", "golden"] {
        let (code, out) = heddle(&["run", &f, "--engine", engine, "--arg", "buf:x:u32:1"]);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("trap: out-of-bounds global access of 4 bytes"), "{engine}: {out}");
        assert!(out.contains("oob.ptx:9:3)"), "{engine}: {out}");
    }
    let (_, help) = heddle(&["run", "--help"]);
    assert!(!help.contains("(with --engine ptx)"), "{help}");
}
