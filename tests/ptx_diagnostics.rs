//! The PTX front end's diagnostics, driven by files:
//!
//! * every `tests/ptx/malformed/*.ptx` (written by `tools/gen_malformed.py`,
//!   each a valid kernel with one defect that ptxas rejects) must fail to
//!   load; its FIRST error must be at the `// expect: LINE:COL substring`
//!   of its first line and its message must contain the substring; the
//!   full rendered text must equal the snapshot `NAME.err`
//!   (`HEDDLE_BLESS=1 cargo test --test ptx_diagnostics` rewrites the
//!   snapshots: review the diff);
//! * every `tests/ptx/valid/*.ptx` must load with no error and round-trip
//!   through the printer (parse(print(m)) == m);
//! * no truncation of a valid file (at every token boundary and every 7th
//!   byte) may panic.

use heddle_compiler::ptx::{self, SourceFile};
use heddle_isa::diag::{Diagnostic, Diagnostics};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The files of `dir` (relative to the repository root) ending in `.ext`, sorted.
fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

/// The path relative to the repository root, with `/` separators, so that
/// snapshots do not depend on where the repository lives.
fn rel(p: &Path) -> String {
    let r = p.strip_prefix(root()).unwrap_or(p);
    r.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/")
}

/// `// expect: LINE:COL substring` on the first line.
fn expectation(text: &str) -> Option<(usize, usize, String)> {
    let first = text.lines().next()?;
    let rest = first.strip_prefix("// expect:")?.trim_start();
    let (pos, msg) = rest.split_once(' ')?;
    let (line, col) = pos.split_once(':')?;
    Some((line.parse().ok()?, col.parse().ok()?, msg.trim_end().to_string()))
}

fn load(src: &SourceFile) -> std::thread::Result<Result<ptx::ast::Module, Vec<Diagnostic>>> {
    catch_unwind(AssertUnwindSafe(|| ptx::load(src)))
}

#[test]
fn malformed_files_report_the_expected_first_error() {
    let bless = std::env::var_os("HEDDLE_BLESS").is_some();
    let cases = files("tests/ptx/malformed", "ptx");
    assert!(cases.len() >= 100, "the malformed suite has {} cases (run tools/gen_malformed.py)", cases.len());
    let mut failures = vec![];
    for path in &cases {
        let name = rel(path);
        let text = std::fs::read_to_string(path).unwrap();
        let Some((line, col, msg)) = expectation(&text) else {
            failures.push(format!("{name}: no `// expect: LINE:COL substring` first line"));
            continue;
        };
        let src = SourceFile::new(&name, &text);
        let errors = match load(&src) {
            Err(_) => {
                failures.push(format!("{name}: the front end panicked"));
                continue;
            }
            Ok(Ok(_)) => {
                failures.push(format!("{name}: accepted; expected an error at {line}:{col} containing {msg:?}"));
                continue;
            }
            Ok(Err(errors)) => errors,
        };
        let Some(first) = errors.first() else {
            failures.push(format!("{name}: load failed with no diagnostic"));
            continue;
        };
        if (first.line, first.col) != (line, col) || !first.message.contains(&msg) {
            failures
                .push(format!("{name}: expected {line}:{col} containing {msg:?}, got {}:{} {:?}", first.line, first.col, first.message));
        }
        let rendered = format!("{}\n", Diagnostics(errors));
        let snap = path.with_extension("err");
        if bless {
            std::fs::write(&snap, &rendered).unwrap();
        } else {
            match std::fs::read_to_string(&snap) {
                Ok(want) if want == rendered => {}
                Ok(want) => {
                    failures.push(format!("{name}: diagnostics differ from {}\n--- expected\n{want}--- got\n{rendered}", rel(&snap)))
                }
                Err(_) => failures.push(format!("{name}: no snapshot {} (HEDDLE_BLESS=1 writes it)\n{rendered}", rel(&snap))),
            }
        }
    }
    // Snapshots whose case is gone.
    for snap in files("tests/ptx/malformed", "err") {
        if !snap.with_extension("ptx").exists() {
            if bless {
                std::fs::remove_file(&snap).unwrap();
            } else {
                failures.push(format!("{}: snapshot of no case", rel(&snap)));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} malformed cases failed:\n\n{}", failures.len(), cases.len(), failures.join("\n\n"));
}

#[test]
fn valid_files_load_and_round_trip_through_the_printer() {
    let valid = files("tests/ptx/valid", "ptx");
    assert!(!valid.is_empty());
    for path in &valid {
        let name = rel(path);
        let text = std::fs::read_to_string(path).unwrap();
        let m = match ptx::load(&SourceFile::new(&name, &text)) {
            Ok(m) => m,
            Err(e) => panic!("{name} does not check clean:\n{}", Diagnostics(e)),
        };
        let printed = ptx::print::module(&m);
        let again = SourceFile::new(&format!("{name} (printed)"), &printed);
        let m2 = match ptx::load(&again) {
            Ok(m2) => m2,
            Err(e) => panic!("{name}: the printed module does not load:\n{}\n{printed}", Diagnostics(e)),
        };
        assert!(m == m2, "{name}: parse(print(m)) != m\n{printed}");
        assert_eq!(printed, ptx::print::module(&m2), "{name}: printing is not stable");
    }
}

/// Every diagnostic points into the text it was made from.
fn in_bounds(text: &str, d: &Diagnostic) -> bool {
    let lines: Vec<&str> = text.split('\n').collect();
    d.line >= 1 && d.line <= lines.len() && d.col >= 1 && d.col <= lines[d.line - 1].chars().count() + 1
}

#[test]
fn truncated_valid_files_never_panic() {
    let mut failures = vec![];
    let mut runs = 0;
    for path in files("tests/ptx/valid", "ptx") {
        let name = rel(&path);
        let text = std::fs::read_to_string(&path).unwrap();
        let (toks, _) = ptx::lexer::lex(&text);
        let mut cuts: Vec<usize> = toks
            .iter()
            .flat_map(|t| [t.span.start as usize, t.span.end as usize])
            .chain((0..text.len()).step_by(7))
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        for cut in cuts {
            let t = &text[..cut];
            let src = SourceFile::new(&name, t);
            runs += 1;
            match catch_unwind(AssertUnwindSafe(|| {
                let r = ptx::load(&src);
                if let Err(e) = &r {
                    // Rendering must not panic either.
                    let _ = Diagnostics(e.clone()).to_string();
                }
                r
            })) {
                Err(_) => failures.push(format!("{name} cut at byte {cut}: panic")),
                Ok(Ok(_)) => {}
                Ok(Err(e)) => {
                    if e.is_empty() {
                        failures.push(format!("{name} cut at byte {cut}: Err with no diagnostic"));
                    }
                    for d in e.iter().filter(|d| !in_bounds(t, d)) {
                        failures.push(format!("{name} cut at byte {cut}: diagnostic at {}:{} is outside the text", d.line, d.col));
                    }
                }
            }
        }
    }
    assert!(runs > 1000, "only {runs} truncations");
    assert!(failures.is_empty(), "{} truncations failed:\n{}", failures.len(), failures.join("\n"));
}
