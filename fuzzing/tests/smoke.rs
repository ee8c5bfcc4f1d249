//! A bounded campaign must find no difference; the oracle must catch one.

use heddle_fuzz::*;
use heddle_sim::engine::Engine::Rtl;
use heddle_sim::rtl::RtlOptions;

/// The golden model against the RTL with RTL options (test hooks).
fn with(rtl: RtlOptions) -> Oracle {
    Oracle { rtl, ..Oracle::default() }
}

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
    let s = campaign(&Plan { seed: 1, seconds: secs, shrink_s: 60.0, jobs: 2, ..Plan::default() }, |_| {});
    for f in &s.found {
        eprintln!("seed {}: {}\n{}", f.seed, f.mismatch.detail, reproducer(&f.case, Some(f.seed), &f.mismatch));
    }
    assert!(s.invalid.is_empty(), "{:?}", s.invalid.first());
    assert!(s.programs >= 10, "only {} programs", s.programs);
    assert!(s.found.is_empty());
    assert!(s.coverage.opcodes() > 40, "{} opcodes", s.coverage.opcodes());
    // The functional points the generator is built to reach.
    for p in ["branch: divergent", "stack depth: 3-4", "exit: divergent", "barred (reduction)", "bus: stalls", "CTA slots used: 2"] {
        assert!(s.points.0.contains_key(p), "{p} never hit: {:?}", s.points.0);
    }
}

/// `heddle fuzz --config tiny,default`: the generator fits each preset
/// (`tiny` has 16 registers, so its kernels keep 8 values, not 16).
#[test]
fn campaign_on_the_presets_has_no_mismatch() {
    let presets = vec![heddle_hw::SmConfig::tiny(), heddle_hw::SmConfig::default()];
    let opts = gen::Options { configs: presets.clone(), ..Default::default() };
    for seed in 0..40 {
        let c = case_of_bytes(&seed_bytes(seed), opts.clone());
        assert!(presets.contains(&c.config));
        let regs = if c.config == presets[0] { 16 } else { 24 };
        assert!(c.render().contains(&format!(".regs {regs}\n")), "seed {seed}");
        assemble(&c).unwrap();
    }
    let s = campaign(&Plan { seed: 3, seconds: 15.0, shrink_s: 60.0, jobs: 2, gen: opts, ..Plan::default() }, |_| {});
    for f in &s.found {
        eprintln!("seed {}: {}\n{}", f.seed, f.mismatch.detail, reproducer(&f.case, Some(f.seed), &f.mismatch));
    }
    assert!(s.invalid.is_empty(), "{:?}", s.invalid.first());
    assert!(s.programs >= 10, "only {} programs", s.programs);
    assert!(s.found.is_empty());
}

#[test]
fn oracle_catches_a_corrupted_retire() {
    let c = case_of_seed(3);
    let v = run_case(&c, &with(RtlOptions { corrupt_retire: Some(20), ..Default::default() })).unwrap();
    let m = v.mismatch.expect("a corrupted retire is reported");
    assert_eq!(m.kind, Kind::Lockstep, "{}", m.detail);
}

#[test]
fn oracle_compares_memory_traps_and_stdout() {
    use heddle_sim::launch::Outcome;
    let c = case_of_seed(5);
    let ok = |mem: Vec<u8>| EngineRun { result: Ok(Outcome::default()), memory: mem };
    assert!(compare(&ok(vec![0; 8192]), &ok(vec![0; 8192]), Rtl, &c).is_none());
    let mut m = vec![0; 8192];
    m[0x1004] = 1;
    assert_eq!(compare(&ok(vec![0; 8192]), &ok(m), Rtl, &c).unwrap().kind, Kind::Memory);
    let mut t = Outcome::default();
    t.trap = Some(heddle_sim::Trap { kind: heddle_sim::TrapKind::UserTrap, cta: [0; 3], warp: 1, lane: Some(2), pc: 7, addr: None });
    let trapped = EngineRun { result: Ok(t), memory: vec![] };
    assert_eq!(compare(&ok(vec![]), &trapped, Rtl, &c).unwrap().kind, Kind::Trap);
    let mut o = Outcome::default();
    o.stdout = b"x".to_vec();
    assert_eq!(compare(&ok(vec![]), &EngineRun { result: Ok(o), memory: vec![] }, Rtl, &c).unwrap().kind, Kind::Stdout);
}

#[test]
fn shrinking_keeps_a_planted_difference_and_reduces() {
    let opts = with(RtlOptions { corrupt_retire: Some(30), ..Default::default() });
    let (c, m) = (0..50).map(case_of_seed).find_map(|c| run_case(&c, &opts).unwrap().mismatch.map(|m| (c, m))).unwrap();
    let small = shrink(&c, &m, std::time::Duration::from_secs(60), &opts, |_| {});
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
        .map(|c| run_case(&c, &Oracle::default()).unwrap())
        .collect::<Vec<_>>();
    assert!(v.iter().any(|v| v.stdout_bytes > 0));
    assert!(v.iter().all(|v| v.mismatch.is_none()));
    // Lines of different warps may come in another order.
    let c = case_of_seed(5);
    let out = |s: &[u8]| EngineRun { result: Ok(heddle_sim::launch::Outcome { stdout: s.to_vec(), ..Default::default() }), memory: vec![] };
    assert!(compare(&out(b"a\nb\n"), &out(b"b\na\n"), Rtl, &c).is_none());
    assert!(compare(&out(b"a\nb\n"), &out(b"a\nc\n"), Rtl, &c).is_some());
}

#[test]
fn shards_and_threads_take_their_own_programs_and_say_where_to_resume() {
    let run = |shard, jobs, start| {
        campaign(&Plan { seed: 40, seconds: 600.0, max_programs: Some(4), shard, jobs, start, ..Plan::default() }, |_| {})
    };
    // Shard 1/3 from program 5: programs 7, 10, 13, 16.
    let s = run((1, 3), 1, 5);
    assert_eq!((s.programs, s.next), (4, 17));
    // Two threads split shard 0/2: 0, 2, 4, 6 between them, the same four programs.
    let (one, two) = (run((0, 2), 1, 0), run((0, 2), 2, 0));
    assert_eq!((one.next, two.next), (7, 7));
    assert_eq!(one.instructions, two.instructions, "the same programs ran");
}

#[test]
fn a_planted_rtl_bug_is_caught_and_shrunk() {
    // sched-ignores-wait: warp 1 runs on past a barrier it waits at.
    let p = heddle_hw::plant::Plant::SchedIgnoresWait;
    let s = campaign(&Plan { seed: 1, seconds: 60.0, shrink_s: 30.0, plant: Some(p), ..Plan::default() }, |_| {});
    let f = s.found.first().expect("the planted bug is caught within a minute");
    assert_eq!(f.mismatch.engine, Rtl);
    heddle_hw::plant::set(Some(p));
    let again = run_case(&f.case, &Oracle::default()).unwrap();
    heddle_hw::plant::set(None);
    assert!(again.mismatch.is_some(), "the shrunk case still shows it");
    assert!(run_case(&f.case, &Oracle::default()).unwrap().mismatch.is_none(), "and runs clean without the plant");
}
