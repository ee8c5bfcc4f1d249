//! A bounded campaign must find no difference; the oracle must catch one.

use heddle_fuzz::*;
use heddle_sim::rtl::RtlOptions;

#[test]
fn generated_programs_assemble_and_are_reproducible() {
    for seed in 0..200 {
        let c = case_of_seed(seed);
        assert_eq!(c, case_of_seed(seed));
        c.config.validate().unwrap();
        assemble(&c).unwrap();
    }
}

#[test]
fn bounded_campaign_has_no_mismatch() {
    let secs = std::env::var("HEDDLE_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(30.0);
    let s = campaign(1, secs, 60.0, 1, gen::Options::default(), |_| {});
    for (seed, c, m) in &s.mismatches {
        eprintln!("seed {seed}: {}\n{}", m.detail, reproducer(c, Some(*seed), m));
    }
    assert!(s.invalid.is_empty(), "{:?}", s.invalid.first());
    assert!(s.programs >= 10, "only {} programs", s.programs);
    assert!(s.mismatches.is_empty());
    assert!(s.coverage.opcodes() > 40, "{} opcodes", s.coverage.opcodes());
}

#[test]
fn oracle_catches_a_corrupted_retire() {
    let c = case_of_seed(3);
    let v = run_case(&c, &RtlOptions { corrupt_retire: Some(20), ..Default::default() }).unwrap();
    let m = v.mismatch.expect("a corrupted retire is reported");
    assert_eq!(m.kind, Kind::Lockstep, "{}", m.detail);
}

#[test]
fn oracle_compares_memory_traps_and_stdout() {
    use heddle_sim::launch::Outcome;
    let c = case_of_seed(5);
    let ok = |mem: Vec<u8>| EngineRun { result: Ok(Outcome::default()), memory: mem };
    assert!(compare(&ok(vec![0; 8192]), &ok(vec![0; 8192]), &c).is_none());
    let mut m = vec![0; 8192];
    m[0x1004] = 1;
    assert_eq!(compare(&ok(vec![0; 8192]), &ok(m), &c).unwrap().kind, Kind::Memory);
    let mut t = Outcome::default();
    t.trap = Some(heddle_sim::Trap { kind: heddle_sim::TrapKind::UserTrap, cta: [0; 3], warp: 1, lane: Some(2), pc: 7, addr: None });
    let trapped = EngineRun { result: Ok(t), memory: vec![] };
    assert_eq!(compare(&ok(vec![]), &trapped, &c).unwrap().kind, Kind::Trap);
    let mut o = Outcome::default();
    o.stdout = b"x".to_vec();
    assert_eq!(compare(&ok(vec![]), &EngineRun { result: Ok(o), memory: vec![] }, &c).unwrap().kind, Kind::Stdout);
}

#[test]
fn shrinking_keeps_a_planted_difference_and_reduces() {
    let opts = RtlOptions { corrupt_retire: Some(30), ..Default::default() };
    let c = (0..50).map(case_of_seed).find(|c| run_case(c, &opts).unwrap().mismatch.is_some()).unwrap();
    let small = shrink_with(&c, Kind::Lockstep, std::time::Duration::from_secs(60), &opts, |_| {});
    assert_eq!(run_case(&small, &opts).unwrap().mismatch.unwrap().kind, Kind::Lockstep);
    let lines = |c: &gen::Case| c.render().lines().count();
    assert!(lines(&small) < lines(&c) || small.block < c.block, "{} -> {}", lines(&c), lines(&small));
    assert!(small.grid == 1, "grid {}", small.grid);
}

#[test]
fn printf_output_is_generated_and_agrees() {
    let v = (0..200)
        .map(case_of_seed)
        .filter(|c| c.render().contains("vprintf"))
        .take(5)
        .map(|c| run_case(&c, &RtlOptions::default()).unwrap())
        .collect::<Vec<_>>();
    assert!(v.iter().any(|v| v.stdout_bytes > 0));
    assert!(v.iter().all(|v| v.mismatch.is_none()));
    // Lines of different warps may come in another order.
    let c = case_of_seed(5);
    let out = |s: &[u8]| EngineRun { result: Ok(heddle_sim::launch::Outcome { stdout: s.to_vec(), ..Default::default() }), memory: vec![] };
    assert!(compare(&out(b"a\nb\n"), &out(b"b\na\n"), &c).is_none());
    assert!(compare(&out(b"a\nb\n"), &out(b"a\nc\n"), &c).is_some());
}
