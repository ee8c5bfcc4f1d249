//! Shrunk reproducers that `heddle fuzz` found (tests/fuzz-regressions/):
//! each `// run:` line must run on the RTL in lockstep without a difference.
//! A `.ptx` reproducer (`heddle fuzz --target ptx`) has one `run:` line per
//! engine: each must succeed and all must print the same.
//! Reproducers of bugs still open are to be `#[ignore]`d (docs/fuzzing.md lists them).

use std::path::Path;
use std::process::Command;

fn check(name: &str) {
    let path = Path::new("tests/fuzz-regressions").join(name);
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path)).unwrap();
    let mut outputs = vec![];
    for line in text.lines().filter_map(|l| l.trim().strip_prefix("// run:")) {
        let o = Command::new(env!("CARGO_BIN_EXE_heddle"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .arg("run")
            .arg(&path)
            .args(line.split_whitespace())
            .output()
            .unwrap();
        let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        assert!(o.status.success() && !all.contains("lockstep:"), "{name}: {all}");
        outputs.push((line.to_string(), String::from_utf8_lossy(&o.stdout).into_owned()));
    }
    assert!(!outputs.is_empty());
    if name.ends_with(".ptx") {
        for (line, out) in &outputs[1..] {
            assert_eq!(out, &outputs[0].1, "{name}: `{line}` and `{}` print differently", outputs[0].0);
        }
    }
}

/// `mufu.rcp` of +0.0 gave 0 instead of +inf on the RTL: the SFU's
/// simulation skipped its first evaluation (inputs at their reset values).
#[test]
fn sfu_rcp_zero() {
    check("sfu_rcp_zero.hasm");
}

/// `shfl.down`/`shfl.bfly` lanes outside the clamp counted as in range on
/// the RTL: its in-range test compared the idx mode's source lane.
#[test]
fn shfl_clamp() {
    check("shfl_clamp.hasm");
}

#[test]
fn shfl_down_clamp() {
    check("shfl_down_clamp.hasm");
}

/// `brev.b64 d, d` compiled to two `brev`s that overwrote d's low half
/// before reading it (found by `heddle fuzz --target ptx`).
#[test]
fn brev64_in_place() {
    check("brev64_in_place.ptx");
}
