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
    let (rc, out) = fuzz(&["--programs", "1", "--seed", "110", "--out", dir.to_str().unwrap()]);
    assert_eq!(rc, 0, "{out}");
    assert!(out.contains("1 programs") && out.contains("mismatches: 0"), "{out}");
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_planted_bug_is_caught_and_reported_in_the_table() {
    // bar-early: a barrier completes one thread short.
    let (rc, out) = fuzz(&["--seconds", "60", "--seed", "1", "-q", "--plants", "bar-early"]);
    assert_eq!(rc, 0, "{out}");
    let row = out.lines().find(|l| l.starts_with("| `bar-early`")).unwrap_or_else(|| panic!("{out}"));
    assert!(row.contains("| yes |"), "{row}");
}

#[test]
fn shards_resume_and_their_corpora_merge() {
    let dir = std::env::temp_dir().join(format!("heddle-fuzz-corpus-{}", std::process::id()));
    let (a, b, all) = (dir.join("a"), dir.join("b"), dir.join("all"));
    let run = |shard: &str, corpus: &std::path::Path| {
        let (rc, out) = fuzz(&["--seconds", "3", "--seed", "9", "--json", "--shard", shard, "--corpus", corpus.to_str().unwrap()]);
        assert_eq!(rc, 0, "{out}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let first = run("0/2", &a);
    let next = first["next_program"].as_u64().unwrap();
    assert!(next > 0 && first["corpus_added"].as_u64().unwrap() > 0, "{first}");
    // Resumed: it goes on from where it stopped.
    let again = run("0/2", &a);
    assert!(again["next_program"].as_u64().unwrap() > next, "{again}");
    run("1/2", &b);
    let (rc, out) = fuzz(&["--corpus", all.to_str().unwrap(), "--merge", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(rc, 0, "{out}");
    let entries = |d: &std::path::Path| {
        std::fs::read_dir(d).unwrap().filter(|e| !e.as_ref().unwrap().file_name().to_string_lossy().starts_with("resume-")).count()
    };
    assert_eq!(entries(&all), entries(&a) + entries(&b), "{out}");
    assert!(fuzz(&["--shard", "2/2"]).0 == 2, "a shard index must be below the count");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_short_ptx_campaign_is_clean() {
    let (rc, out) = fuzz(&["--target", "ptx", "--seconds", "5", "--seed", "3", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rc, 0, "{out}");
    assert!(v["programs"].as_u64().unwrap() >= 20, "{out}");
    assert!(v["engine_programs_per_s"]["ptx"].as_f64().unwrap() > 0.0, "{out}");
    assert_eq!(v["mismatches"].as_array().unwrap().len(), 0);
    assert_eq!(v["invalid"].as_array().unwrap().len(), 0);
}

#[test]
fn an_unknown_planted_bug_is_an_error_not_a_panic() {
    let o = Command::new(env!("CARGO_BIN_EXE_heddle")).args(["fuzz", "--programs", "1"]).env("HEDDLE_PLANT", "nonesuch").output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("$HEDDLE_PLANT: unknown planted bug `nonesuch`"), "{err}");
}
