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

#[test]
fn same_seed_same_text() {
    for seed in [0, 1, 42, 1 << 40] {
        assert_eq!(ptx_case_of_seed(seed).render(), ptx_case_of_seed(seed).render());
    }
    assert_ne!(ptx_case_of_seed(1).render(), ptx_case_of_seed(2).render());
}

/// The generator draws what the brief weights toward, over 200 seeds.
#[test]
fn generated_ptx_covers_the_operations() {
    let text: String = (0..200).map(|s| ptx_case_of_seed(s).render()).collect();
    for op in [
        "mul.wide.",
        "mad.lo.",
        "div.s32",
        "rem.u64",
        "bfe.",
        "bfi.b32",
        "prmt.b32",
        "popc.b64",
        "brev.b64",
        "cvt.sat.",
        "setp.",
        ".and %p",
        "selp.",
        "fma.rz",
        "add.rp.ftz",
        "cvt.rni.",
        "ld.global.nc.",
        "ld.global.v4",
        "st.shared.u32",
        "bar.sync 0",
        "atom.global.cas",
        "red.global.",
        "st.local.",
        "call.uni",
        "%laneid",
        "@!%p",
        "exit;",
        "$L_head",
        "cvta.local",
        ".f64",
    ] {
        assert!(text.contains(op), "no `{op}` in 200 seeds");
    }
}

/// Programs as drawn: blocks of 1-96 threads (partial warps), 1-3 CTAs.
#[test]
fn launch_shapes_vary() {
    let cases: Vec<PtxCase> = (0..200).map(ptx_case_of_seed).collect();
    assert!(cases.iter().any(|c| c.block % 32 != 0) && cases.iter().any(|c| c.block % 32 == 0));
    assert!(cases.iter().all(|c| (1..=3).contains(&c.grid) && (1..=96).contains(&c.block)));
    assert!(cases.iter().any(|c| c.grid == 3) && cases.iter().any(|c| c.max_regs < 64));
}

/// A 20 s campaign, interpreter vs compiled on the golden model: no
/// mismatch, no invalid program.
#[test]
fn campaign_20s_has_no_mismatch() {
    let s = ptx_campaign(5000, 20.0, false, |_| {});
    let report: Vec<String> =
        s.mismatches.iter().map(|(seed, c, m)| format!("seed {seed}:\n{}", ptx_reproducer(c, Some(*seed), m))).collect();
    assert!(s.mismatches.is_empty(), "{}", report.join("\n"));
    assert!(s.invalid.is_empty(), "{:?}", s.invalid);
    assert!(s.programs > 100, "only {} programs", s.programs);
    eprintln!(
        "{} programs in {:.1} s: ptx {:.0}/s, golden {:.0}/s, build {:.1} s",
        s.programs,
        s.wall_s,
        s.rate(s.ptx_s),
        s.rate(s.golden_s),
        s.build_s
    );
}

/// A few cases on the RTL too (in lockstep with the golden model).
#[test]
fn a_few_cases_agree_on_the_rtl() {
    let mut ran = 0;
    for seed in 0..40 {
        let c = ptx_case_of_seed(seed);
        if c.threads() > 64 {
            continue;
        }
        let v = run_ptx_case(&c, true).unwrap();
        assert!(v.mismatch.is_none(), "seed {seed}: {:?}", v.mismatch);
        assert!(v.rtl_s > 0.0);
        ran += 1;
        if ran == 4 {
            break;
        }
    }
    assert_eq!(ran, 4);
}

/// The oracle sees a difference planted in one engine's memory, names the
/// pair and the place.
#[test]
fn oracle_catches_a_planted_difference() {
    let c = ptx_case_of_seed(7);
    let v = run_ptx_case_with(&c, false, |e, m| {
        if e == "golden" {
            m[heddle_isa::mem::NULL_LIMIT as usize + 4 * 3] ^= 1;
        }
    })
    .unwrap();
    let m = v.mismatch.expect("the planted difference");
    assert_eq!((m.kind, m.engines), (PtxKind::Memory, ("ptx", "golden")));
    assert!(m.detail.contains("out[thread 0] %r11"), "{}", m.detail);
    // On the RTL side: golden vs rtl.
    let c = PtxCase { grid: 1, block: 8, ..c };
    let v = run_ptx_case_with(&c, true, |e, m| {
        if e == "rtl" {
            m[heddle_isa::mem::NULL_LIMIT as usize + 4] ^= 0x80;
        }
    })
    .unwrap();
    let m = v.mismatch.expect("the planted difference");
    assert_eq!((m.kind, m.engines), (PtxKind::Memory, ("golden", "rtl")));
    let r = ptx_reproducer(&c, Some(7), &m);
    assert!(r.contains("// run: --engine golden --max-regs") && r.contains("// run: --engine rtl --lockstep"));
    assert!(r.contains(".visible .entry fuzz("));
}

/// The shrinker reduces a case that fails while it holds a planted
/// operation to that operation (in one thread), keeping it failing.
#[test]
fn shrinker_reduces_a_planted_failure() {
    let planted = PStmt::Code(vec!["xor.b32 %r9, %r9, 12345;".into()]);
    let mut c = ptx_case_of_seed(11);
    c.body.insert(c.body.len() / 2, planted.clone());
    c.grid = 3;
    c.block = 70;
    fn has(body: &[PStmt], s: &PStmt) -> bool {
        body.iter().any(|x| {
            x == s
                || match x {
                    PStmt::If { then, els, .. } => has(then, s) || has(els, s),
                    PStmt::Loop { body, .. } => has(body, s),
                    _ => false,
                }
        })
    }
    let small = shrink_ptx_by(&c, Duration::from_secs(30), |k| has(&k.body, &planted) && build(k).is_ok());
    assert!(has(&small.body, &planted));
    assert_eq!(small.body, vec![planted]);
    assert_eq!((small.grid, small.block), (1, 1));
    assert!(small.funcs.is_empty() && small.data.iter().all(|&v| v == 0));
    assert!(c.body.len() > 3 && small.render().len() < c.render().len());
}

/// The shrinker, driven by the oracle: a golden-side corruption that needs
/// a store to the scratch persists while the rest goes.
#[test]
fn shrink_ptx_keeps_the_mismatch() {
    let c = PtxCase { grid: 2, block: 40, ..ptx_case_of_seed(3) };
    let corrupt = |e: &str, m: &mut Vec<u8>| {
        if e == "golden" {
            m[heddle_isa::mem::NULL_LIMIT as usize] ^= 1;
        }
    };
    let m = run_ptx_case_with(&c, false, corrupt).unwrap().mismatch.unwrap();
    let small = shrink_ptx_by(&c, Duration::from_secs(20), |k| {
        run_ptx_case_with(k, false, corrupt).ok().and_then(|v| v.mismatch).is_some_and(|n| n.kind == m.kind)
    });
    assert!(small.body.is_empty() && small.grid == 1 && small.block == 1, "{small:?}");
}

/// Measured figures: `CAMPAIGN_S=60 CAMPAIGN_RTL=1 cargo test --release -p heddle-fuzz --test ptx -- --ignored campaign_figures --nocapture`.
#[test]
#[ignore]
fn campaign_figures() {
    let secs: f64 = std::env::var("CAMPAIGN_S").ok().and_then(|v| v.parse().ok()).unwrap_or(60.0);
    let seed: u64 = std::env::var("CAMPAIGN_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let rtl = std::env::var("CAMPAIGN_RTL").is_ok();
    let s = ptx_campaign(seed, secs, rtl, |_| {});
    println!(
        "seed {seed}, {:.0} s, rtl {rtl}: {} programs ({:.1}/s), ptx {:.0}/s, golden {:.0}/s, rtl {:.1}/s, build {:.1} s, {} mismatches, {} invalid",
        s.wall_s,
        s.programs,
        s.programs as f64 / s.wall_s,
        s.rate(s.ptx_s),
        s.rate(s.golden_s),
        s.rate(s.rtl_s),
        s.build_s,
        s.mismatches.len(),
        s.invalid.len()
    );
    for (seed, c, m) in &s.mismatches {
        println!("seed {seed}:\n{}", ptx_reproducer(c, Some(*seed), m));
    }
    for (seed, e) in &s.invalid {
        println!("invalid seed {seed}: {e}");
    }
}

/// A diagnostic: how many of the first 300 seeds trap on the PTX interpreter (and why).
#[test]
#[ignore]
fn traps() {
    let mut n = 0;
    for seed in 0..300 {
        let c = ptx_case_of_seed(seed);
        let (prog, _) = build(&c).unwrap();
        let mut dev = heddle_sim::Device::from_ptx(heddle_hw::SmConfig::default(), prog).unwrap();
        let out = dev.alloc(c.out_bytes()).unwrap();
        let data = dev.alloc(256).unwrap();
        let mut params = out.to_le_bytes().to_vec();
        params.extend(data.to_le_bytes());
        let l =
            heddle_sim::launch::Launch { kernel: "fuzz".into(), grid: [c.grid, 1, 1], block: [c.block, 1, 1], params, dynamic_shared: 0 };
        if let Some(t) = dev.launch(&l).unwrap().trap {
            n += 1;
            println!("seed {seed}: {t}");
        }
    }
    println!("{n} of 300 trap");
}

/// A diagnostic: prints the reproducer of seed REPRO_SEED with a dummy difference
/// (to check its `run:` lines with `heddle run`).
#[test]
#[ignore]
fn print_reproducer() {
    let seed: u64 = std::env::var("REPRO_SEED").unwrap().parse().unwrap();
    let m = PtxMismatch { kind: PtxKind::Memory, engines: ("ptx", "golden"), detail: "dummy".into() };
    print!("{}", ptx_reproducer(&ptx_case_of_seed(seed), Some(seed), &m));
}
