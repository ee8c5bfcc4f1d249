//! The kernel corpus (`tests/corpus/*/case.json`, PTX from NVRTC): every PTX
//! file parses and checks clean and survives the printer round trip, and
//! every case passes on the PTX reference interpreter.

use heddle_compiler::ptx::{load, parse, print, SourceFile};
use std::path::{Path, PathBuf};
use std::process::Command;

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.join("case.json").exists()).collect();
    v.sort();
    v
}

fn ptx_files() -> Vec<PathBuf> {
    let mut v = vec![];
    for d in cases() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "ptx") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

#[test]
fn corpus_is_large_enough() {
    assert!(cases().len() >= 30, "{} cases", cases().len());
}

#[test]
fn every_corpus_ptx_checks_clean_and_round_trips() {
    let mut failures = vec![];
    for p in ptx_files() {
        let text = std::fs::read_to_string(&p).unwrap();
        let src = SourceFile::new(&p.display().to_string(), &text);
        match load(&src) {
            Err(e) => failures.push(format!("{}", heddle_isa::diag::Diagnostics(e))),
            Ok(m) => {
                let printed = print::module(&m);
                let again = parse(&SourceFile::new("printed", &printed)).unwrap_or_else(|e| panic!("{}: printed text does not parse: {}", p.display(), e[0]));
                assert!(again == m, "{}: parse(print(ast)) != ast", p.display());
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_case_passes_on_the_ptx_interpreter() {
    let mut failures = vec![];
    for c in cases() {
        for variant in ["compute_75", "compute_52"] {
            let o = Command::new(env!("CARGO_BIN_EXE_heddle"))
                .args(["run", "--engine", "ptx", "--ptx-variant", variant, "--manifest"])
                .arg(c.join("case.json"))
                .output()
                .unwrap();
            if o.status.code() != Some(0) {
                failures.push(format!("{} ({variant}): exit {:?}\n{}{}", c.display(), o.status.code(), String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
