//! `heddle fuzz`: a short seeded campaign through the CLI finds no
//! difference and reports JSON.

use std::process::Command;

fn fuzz(args: &[&str]) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_heddle")).arg("fuzz").args(args).output().unwrap();
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn short_campaign_is_clean_and_reports_json() {
    let (rc, out) = fuzz(&["--seconds", "10", "--seed", "7", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rc, 0, "{out}");
    assert!(v["programs"].as_u64().unwrap() >= 5, "{out}");
    assert_eq!(v["mismatches"].as_array().unwrap().len(), 0);
    assert!(v["coverage"].as_object().unwrap().len() > 50);
}

#[test]
fn the_program_that_found_the_shfl_bug_now_runs_clean_and_writes_nothing() {
    let dir = std::env::temp_dir().join(format!("heddle-fuzz-test-{}", std::process::id()));
    // Program seed 110 found the shfl.bfly clamp bug (tests/fuzz-regressions/shfl_clamp.hasm).
    let (rc, out) = fuzz(&["--seconds", "0.001", "--seed", "110", "--out", dir.to_str().unwrap()]);
    assert_eq!(rc, 0, "{out}");
    assert!(out.contains("1 programs") && out.contains("mismatches: 0"), "{out}");
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}
