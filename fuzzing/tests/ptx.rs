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
