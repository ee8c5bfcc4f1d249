//! File-driven tests of the compiler's register budget (issue 18):
//! every `tests/budget/*.ptx` is compiled and run with `heddle` using the
//! arguments of its `// compile:` and `// run:` header lines (run lines on
//! the golden model and, with `--engine rtl --lockstep`, on the RTL); the
//! transcript must equal `NAME.out` exactly. `HEDDLE_BLESS=1 cargo test
//! --test budget` rewrites the `.out` files (review the diff).
//!
//! Checklist rows: ABI-CALL-02 (PTX registers are virtual: allocation and
//! the mapping to physical registers or stack slots is the translator's
//! job, here within `--max-regs` / the SM's `regs_per_thread`) and
//! ABI-CALL-03 (the stack frame, spill slots included, is defined by the
//! translator: the stack pointer lives inside the budget).

use std::path::{Path, PathBuf};
use std::process::Command;

fn files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/budget");
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "ptx")).collect();
    v.sort();
    assert!(!v.is_empty());
    v
}

/// Runs every `// compile:` and `// run:` line; returns the transcript.
fn transcript(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let rel = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap();
    let mut out = String::new();
    for line in text.lines() {
        let (cmd, rest) = match (line.trim().strip_prefix("// compile:"), line.trim().strip_prefix("// run:")) {
            (Some(r), _) => ("compile", r),
            (_, Some(r)) => ("run", r),
            _ => continue,
        };
        let args: Vec<&str> = rest.split_whitespace().collect();
        let o = Command::new(env!("CARGO_BIN_EXE_heddle"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("HEDDLE_CHECK_ALLOC", "1")
            .arg(cmd)
            .arg(rel)
            .args(&args)
            .output()
            .unwrap();
        out.push_str(&format!("$ heddle {cmd} {} {}\nexit: {}\n", rel.display(), args.join(" "), o.status.code().unwrap_or(-1)));
        out.push_str(&String::from_utf8_lossy(&o.stdout));
        out.push_str(&String::from_utf8_lossy(&o.stderr));
    }
    out
}

#[test]
fn budget_files_give_their_expected_output() {
    let bless = std::env::var_os("HEDDLE_BLESS").is_some();
    let mut failures = vec![];
    for p in files() {
        let got = transcript(&p);
        assert!(got.contains("$ heddle run"), "{} has no `// run:` line", p.display());
        let expected_path = p.with_extension("out");
        if bless {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != want {
            failures.push(format!("{}:\n--- expected\n{want}\n--- got\n{got}", p.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every run line of a file with the same `--config` prints the same
/// program output: budgets, predicate counts and engines change registers,
/// spills and predicates, never results (the warp size may: tiny's is 8).
#[test]
fn every_budget_gives_the_same_output() {
    for p in files() {
        let t = transcript(&p);
        let mut first: std::collections::HashMap<String, String> = Default::default();
        for run in t.split("$ heddle ").filter(|s| s.starts_with("run ")) {
            let (cmd, out) = run.split_once('\n').unwrap_or((run, ""));
            let config = cmd.split_once("--config ").map_or("default", |(_, r)| r.split_whitespace().next().unwrap_or("")).to_string();
            let want = first.entry(config.clone()).or_insert_with(|| out.to_string());
            assert_eq!(out, want.as_str(), "{}: `{cmd}` differs from the first {config} run", p.display());
        }
    }
}
