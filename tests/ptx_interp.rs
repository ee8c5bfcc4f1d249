//! PTX reference-interpreter conformance tests (issue 3, section 3, "Must show": reference-interpreter
//! tests for every PTX 1.4 instruction, citing checklist IDs).
//!
//! Every `tests/ptx-interp/*/case.json` (written by `tools/gen_ptx_interp_tests.py`, with expected
//! values computed independently of Heddle) runs on `heddle run --engine ptx` and must exit 0. The
//! checklist IDs cited in the kernels' `// Checklist IDs:` lines must cover every row of section 6 of
//! `../shared/spec/ptx-1.4-checklist.md` (parsed from the file when it exists, otherwise the list
//! embedded below, taken from it once), less the rows in `NOT_REQUIRED`.
//!
//! Cases in `tests/ptx-interp-pending/` hold expectations the interpreter or the front end does not
//! meet yet; they are not run here (see the README in that folder).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The row IDs of checklist section 6 ("Instructions"), in checklist order.
const SECTION6_IDS: &[&str] = &[
    "INT-ADD",
    "INT-SUB",
    "INT-ADDCC",
    "INT-ADDC",
    "INT-SUBCC",
    "INT-SUBC",
    "INT-CC",
    "INT-MUL",
    "INT-MAD",
    "INT-MUL24",
    "INT-MAD24",
    "INT-SAD",
    "INT-DIV",
    "INT-REM",
    "INT-ABS",
    "INT-NEG",
    "INT-MIN",
    "INT-MAX",
    "FP-ADD",
    "FP-SUB",
    "FP-MUL",
    "FP-FMA",
    "FP-MAD32",
    "FP-MAD64",
    "FP-DIV",
    "FP-ABS",
    "FP-NEG",
    "FP-MIN",
    "FP-MAX",
    "FP-RCP",
    "FP-SQRT",
    "FP-RSQRT",
    "FP-SIN",
    "FP-COS",
    "FP-LG2",
    "FP-EX2",
    "FP-SPECIAL",
    "CS-G",
    "CS-SET",
    "CS-SETP",
    "CS-SELP",
    "CS-SLCT",
    "LS-AND",
    "LS-OR",
    "LS-XOR",
    "LS-NOT",
    "LS-CNOT",
    "LS-SHL",
    "LS-SHR",
    "DM-MOV",
    "DM-MOVPK",
    "DM-LD",
    "DM-ST",
    "DM-CVT",
    "CVT-10",
    "CVT-11",
    "CVT-12",
    "CVT-13",
    "CVT-20",
    "CVT-21",
    "CVT-22",
    "CVT-23",
    "CVT-30",
    "CVT-31",
    "CVT-40",
    "TEX-01",
    "CF-BLOCK",
    "CF-GUARD",
    "CF-BRA",
    "CF-CALL",
    "CF-RET",
    "CF-EXIT",
    "SY-BAR",
    "SY-MEMBAR",
    "SY-ATOM",
    "SY-RED",
    "SY-VOTE",
    "MISC-TRAP",
    "MISC-BRKPT",
    "MISC-PMEV",
    "MEM-01",
    "MEM-02",
    "MEM-03",
    "MEM-04",
    "MEM-05",
    "MEM-06",
];

/// Section 6 rows that no interpreter test can cite, and why.
const NOT_REQUIRED: &[(&str, &str)] = &[
    ("TEX-01", "tex is outside the interpreter's scope (texture references are rejected)"),
    ("MEM-01", "global memory is not sequentially consistent: a permission, nothing a test can observe"),
    ("MEM-06", "a misaligned access is undefined"),
    ("CVT-13", "a rounding modifier of the wrong kind is a compile-time error: a checker rule, no run-time semantics"),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cases() -> Vec<PathBuf> {
    let dir = root().join("tests/ptx-interp");
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.join("case.json").exists()).collect();
    v.sort();
    v
}

/// The IDs listed in a kernel's `// Checklist IDs:` lines.
fn cited(ptx: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(ptx).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("// Checklist IDs:"))
        .flat_map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .collect()
}

fn is_id(s: &str) -> bool {
    s.contains('-')
        && s.starts_with(|c: char| c.is_ascii_uppercase())
        && s.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
        && !s.ends_with('-')
}

/// Row IDs of a checklist text: first cells of table rows, plus bold labels such as `**FP-SPECIAL**:`.
fn row_ids(text: &str) -> Vec<String> {
    let mut ids = vec![];
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("| ") {
            if let Some(cell) = rest.split(" |").next() {
                if is_id(cell.trim()) {
                    ids.push(cell.trim().to_string());
                }
            }
        } else if let Some(rest) = line.strip_prefix("**") {
            if let Some((label, _)) = rest.split_once("**") {
                if is_id(label) {
                    ids.push(label.to_string());
                }
            }
        }
    }
    ids
}

fn checklist() -> Option<String> {
    std::fs::read_to_string(root().join("../shared/spec/ptx-1.4-checklist.md")).ok()
}

/// Section 6 of the checklist (from its heading to the next level-2 heading).
fn section6(text: &str) -> &str {
    let start = text.find("\n## 6.").expect("checklist has a section 6");
    let end = text[start + 1..].find("\n## ").map_or(text.len(), |e| start + 1 + e);
    &text[start..end]
}

#[test]
fn every_case_passes_on_the_ptx_interpreter() {
    let all = cases();
    assert!(all.len() >= 40, "only {} cases in tests/ptx-interp", all.len());
    let mut failures = vec![];
    for c in &all {
        let o = Command::new(env!("CARGO_BIN_EXE_heddle"))
            .args(["run", "--engine", "ptx", "--manifest"])
            .arg(c.join("case.json"))
            .output()
            .unwrap();
        if o.status.code() != Some(0) {
            failures.push(format!(
                "{}: exit {:?}\n{}{}",
                c.file_name().unwrap().to_string_lossy(),
                o.status.code(),
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases fail:\n{}", failures.len(), all.len(), failures.join("\n"));
}

#[test]
fn every_kernel_cites_checklist_ids() {
    for c in cases() {
        assert!(!cited(&c.join("kernel.ptx")).is_empty(), "{}: no `// Checklist IDs:` line", c.display());
    }
}

#[test]
fn cited_ids_cover_every_instruction_row_of_section_6() {
    let cited: BTreeSet<String> = cases().iter().flat_map(|c| cited(&c.join("kernel.ptx"))).collect();
    let required: Vec<String> = match checklist() {
        Some(text) => {
            let parsed = row_ids(section6(&text));
            // The embedded copy must stay in step with the checklist.
            assert_eq!(parsed, SECTION6_IDS, "SECTION6_IDS no longer matches section 6 of the checklist");
            // Every cited ID names a real checklist row.
            let known: BTreeSet<String> = row_ids(&text).into_iter().collect();
            let unknown: Vec<&String> = cited.iter().filter(|i| !known.contains(*i)).collect();
            assert!(unknown.is_empty(), "cited IDs that are not checklist rows: {unknown:?}");
            parsed
        }
        None => SECTION6_IDS.iter().map(|s| s.to_string()).collect(),
    };
    let missing: Vec<&String> = required.iter().filter(|i| !cited.contains(*i) && !NOT_REQUIRED.iter().any(|(n, _)| n == i)).collect();
    assert!(missing.is_empty(), "section 6 rows no passing interpreter test cites: {missing:?}");
    for (id, why) in NOT_REQUIRED {
        assert!(required.iter().any(|r| r == id), "NOT_REQUIRED names {id}, which is not a section 6 row ({why})");
    }
}
