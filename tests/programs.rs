//! File-driven tests: every `tests/programs/*.hasm` is assembled, round-tripped
//! through the disassembler, and run with `heddle run` using the arguments
//! of its `// run:` header lines; the exit status and output must equal
//! `NAME.out` exactly. `HEDDLE_BLESS=1 cargo test --test programs` rewrites
//! the `.out` files (review the diff: they are the expected results).

use heddle_isa::asm::{assemble, disassemble};
use std::path::{Path, PathBuf};
use std::process::Command;

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "hasm")).collect();
    v.sort();
    assert!(!v.is_empty());
    v
}

/// Runs `heddle run` for every `// run:` line; returns the transcript.
fn transcript(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let rel = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap();
    let mut out = String::new();
    for line in text.lines().filter_map(|l| l.trim().strip_prefix("// run:")) {
        let args: Vec<&str> = line.split_whitespace().collect();
        let o = Command::new(env!("CARGO_BIN_EXE_heddle"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .arg("run")
            .arg(rel)
            .args(&args)
            .output()
            .unwrap();
        out.push_str(&format!("$ heddle run {} {}\nexit: {}\n", rel.display(), args.join(" "), o.status.code().unwrap_or(-1)));
        out.push_str(&String::from_utf8_lossy(&o.stdout));
        out.push_str(&String::from_utf8_lossy(&o.stderr));
    }
    out
}

#[test]
fn programs_give_their_expected_output() {
    let bless = std::env::var_os("HEDDLE_BLESS").is_some();
    let mut failures = vec![];
    for p in programs() {
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

/// asm -> disasm -> asm gives the identical object, for every program.
#[test]
fn programs_round_trip_through_the_disassembler() {
    for p in programs() {
        let text = std::fs::read_to_string(&p).unwrap();
        let obj = assemble(&p.display().to_string(), &text).unwrap();
        let dis = disassemble(&obj);
        let again = assemble("disasm", &dis).unwrap_or_else(|e| panic!("{}: disassembly does not assemble:\n{e}\n{dis}", p.display()));
        assert_eq!(again.to_bytes(), obj.to_bytes(), "{}: round trip changed the object\n{dis}", p.display());
    }
}

/// The same round trip through the CLI (`heddle asm`, `heddle disasm`), bit for bit.
#[test]
fn cli_asm_disasm_round_trip_is_bit_exact() {
    let dir = std::env::temp_dir().join(format!("heddle-rt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let heddle = env!("CARGO_BIN_EXE_heddle");
    for p in programs() {
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        let (b1, dis, b2) = (dir.join(format!("{name}.hbin")), dir.join(format!("{name}.dis.hasm")), dir.join(format!("{name}.2.hbin")));
        let ok = |args: &[&std::ffi::OsStr]| assert!(Command::new(heddle).args(args).status().unwrap().success(), "{args:?}");
        ok(&["asm".as_ref(), p.as_os_str(), "-o".as_ref(), b1.as_os_str()]);
        ok(&["disasm".as_ref(), b1.as_os_str(), "-o".as_ref(), dis.as_os_str()]);
        ok(&["asm".as_ref(), dis.as_os_str(), "-o".as_ref(), b2.as_os_str()]);
        assert_eq!(std::fs::read(&b1).unwrap(), std::fs::read(&b2).unwrap(), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
