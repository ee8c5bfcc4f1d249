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

/// Every run line of a file prints the same program output: budgets and
/// engines change registers and spills, never results.
#[test]
fn every_budget_gives_the_same_output() {
    for p in files() {
        let t = transcript(&p);
        let runs: Vec<&str> = t.split("$ heddle ").filter(|s| s.starts_with("run ")).map(|s| s.split_once('\n').map_or("", |x| x.1)).collect();
        for r in &runs[1..] {
            assert_eq!(r, &runs[0], "{}: outputs differ", p.display());
        }
    }
}
