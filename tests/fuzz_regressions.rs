//! Shrunk reproducers that `heddle fuzz` found (tests/fuzz-regressions/):
//! each `// run:` line must run on the RTL in lockstep without a difference.
//! Reproducers of bugs still open are to be `#[ignore]`d (docs/fuzzing.md lists them).

use std::path::Path;
use std::process::Command;

fn check(name: &str) {
    let path = Path::new("tests/fuzz-regressions").join(name);
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path)).unwrap();
    let mut runs = 0;
    for line in text.lines().filter_map(|l| l.trim().strip_prefix("// run:")) {
        runs += 1;
        let o = Command::new(env!("CARGO_BIN_EXE_heddle"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .arg("run")
            .arg(&path)
            .args(line.split_whitespace())
            .output()
            .unwrap();
        let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        assert!(o.status.success() && !all.contains("lockstep:"), "{name}: {all}");
    }
    assert!(runs > 0);
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
