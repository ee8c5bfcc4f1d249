//! The PTX kernel generator, oracle and shrinker (`heddle_fuzz::ptx`).

use heddle_fuzz::ptx::*;
use std::time::Duration;

/// Generated PTX parses, passes the interpreter's checks and compiles.
#[test]
fn generated_ptx_builds_for_200_seeds() {
    let mut bad = vec![];
    for seed in 0..200 {
        if let Err(e) = build(&ptx_case_of_seed(seed)) {
            bad.push(format!("seed {seed}: {}", e.lines().take(3).collect::<Vec<_>>().join(" | ")));
        }
    }
    assert!(bad.is_empty(), "{} of 200 seeds invalid:\n{}", bad.len(), bad.join("\n"));
}

/// A diagnostic: runs seeds and prints every invalid program and mismatch.
#[test]
#[ignore]
fn survey() {
    let n: u64 = std::env::var("SURVEY_N").ok().and_then(|v| v.parse().ok()).unwrap_or(100);
    let first: u64 = std::env::var("SURVEY_FIRST").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    for seed in first..first + n {
        match run_ptx_case(&ptx_case_of_seed(seed), false) {
            Ok(v) => {
                if let Some(m) = v.mismatch {
                    println!("seed {seed}: MISMATCH {}", m.detail);
                }
            }
            Err(e) => println!("seed {seed}: INVALID {}", e.lines().take(4).collect::<Vec<_>>().join(" | ")),
        }
    }
}

/// A diagnostic: shrinks the mismatch of seed SHRINK_SEED and prints the reproducer.
#[test]
#[ignore]
fn shrink_seed() {
    let seed: u64 = std::env::var("SHRINK_SEED").unwrap().parse().unwrap();
    let rtl = std::env::var("SHRINK_RTL").is_ok();
    let case = ptx_case_of_seed(seed);
    let m = run_ptx_case(&case, rtl).unwrap().mismatch.expect("a mismatch");
    let small = shrink_ptx(&case, &m, rtl, Duration::from_secs(60));
    let m = run_ptx_case(&small, rtl).unwrap().mismatch.unwrap();
    println!("{}", ptx_reproducer(&small, Some(seed), &m));
}
