//! Differential fuzzing of Heddle's engines (issue 19).
//!
//! ```text
//!  seed ──> bytes ──> gen::case (Unstructured) ──> Case: SmConfig + launch + kernel tree
//!                                                   │ render
//!                                                   v
//!                         .hasm ──assemble──> golden (Device::launch)
//!                                         └─> RTL (Device::launch_rtl, lockstep)
//!                         oracle: lockstep report, trap, stdout, all of global memory
//!                         mismatch ──> shrink (drop statements, flatten, smaller launch) ──> .hasm + run: line
//! ```
//!
//! [`gen`] draws programs that are valid by construction and terminate;
//! [`run_case`] is the oracle; [`shrink`] reduces a failing case while the
//! same kind of difference persists; [`campaign`] runs seeded programs for
//! a while and gathers throughput and opcode coverage.

pub mod gen;
pub mod ptx;

use gen::{Case, Coverage, Stmt};
use heddle_sim::launch::{Launch, LaunchError, NoTrace, Outcome};
use heddle_sim::rtl::RtlOptions;
use heddle_sim::Device;
use std::time::{Duration, Instant};

/// Which kind of difference the oracle saw (the shrinker keeps it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The RTL's lockstep comparison stopped at a retired instruction.
    Lockstep,
    /// Only one engine trapped, or the traps differ.
    Trap,
    Stdout,
    /// Global memory differs at the end.
    Memory,
    /// The RTL engine failed otherwise (simulation fault).
    Engine,
}

/// The first difference between the golden model and the RTL.
#[derive(Debug, Clone)]
pub struct Mismatch {
    pub kind: Kind,
    pub detail: String,
}

/// What running one case gave.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub mismatch: Option<Mismatch>,
    pub golden_s: f64,
    pub rtl_s: f64,
    /// Warp instructions the golden model retired.
    pub instructions: u64,
    pub rtl_cycles: u64,
    /// Bytes the golden model's printf wrote.
    pub stdout_bytes: usize,
}

/// The outcome and final global memory of one engine.
pub struct EngineRun {
    pub result: Result<Outcome, LaunchError>,
    pub memory: Vec<u8>,
}

fn setup(case: &Case, obj: &heddle_isa::Object) -> Result<(Device, Launch), String> {
    let mut dev = Device::new(case.config.clone(), obj.clone()).map_err(|e| e.to_string())?;
    dev.limits.max_cycles = Some(3_000_000);
    let out = dev.alloc(case.out_bytes()).map_err(|e| e.to_string())?;
    let data = dev.alloc(case.data.len() as u32 * 4).map_err(|e| e.to_string())?;
    let bytes: Vec<u8> = case.data.iter().flat_map(|v| v.to_le_bytes()).collect();
    dev.write(data, &bytes).map_err(|e| e.to_string())?;
    let mut params = out.to_le_bytes().to_vec();
    params.extend(data.to_le_bytes());
    let l = Launch { kernel: "fuzz".into(), grid: [case.grid, 1, 1], block: [case.block, 1, 1], params, dynamic_shared: 0 };
    Ok((dev, l))
}

/// Assembles a case (a failure is a generator bug).
pub fn assemble(case: &Case) -> Result<heddle_isa::Object, String> {
    let text = case.render();
    heddle_isa::asm::assemble("fuzz.hasm", &text).map_err(|e| format!("generated program does not assemble: {e:?}\n{text}"))
}

/// Compares two engines' ends: trap (kind, CTA, warp, lane, pc, address),
/// stdout, every byte of global memory.
pub fn compare(golden: &EngineRun, rtl: &EngineRun, case: &Case) -> Option<Mismatch> {
    let (g, r) = match (&golden.result, &rtl.result) {
        (Ok(g), Ok(r)) => (g, r),
        (Err(e), Ok(_)) => return Some(Mismatch { kind: Kind::Engine, detail: format!("golden refused the launch: {e}") }),
        (_, Err(LaunchError::Rtl(m))) if m.contains("lockstep") || m.contains("differ") => {
            return Some(Mismatch { kind: Kind::Lockstep, detail: format!("golden vs rtl (lockstep): {m}") })
        }
        (_, Err(e)) => return Some(Mismatch { kind: Kind::Engine, detail: format!("rtl failed: {e}") }),
    };
    // A trap ends the launch wherever the other warps are, which depends on
    // the schedule: with a trap on both sides only its kind must agree.
    let both = g.trap.is_some() && r.trap.is_some();
    let differs = if both { g.trap.as_ref().map(|t| &t.kind) != r.trap.as_ref().map(|t| &t.kind) } else { g.trap != r.trap };
    if differs {
        return Some(Mismatch {
            kind: Kind::Trap,
            detail: format!(
                "golden vs rtl: trap differs\n  golden: {}\n  rtl:    {}",
                g.trap.as_ref().map_or("none".into(), |t| format!("{t}")),
                r.trap.as_ref().map_or("none".into(), |t| format!("{t}"))
            ),
        });
    }
    // Lines of different warps come in schedule order: compare them as multisets.
    let lines = |o: &[u8]| {
        let mut v: Vec<Vec<u8>> = o.split(|&b| b == b'\n').map(|l| l.to_vec()).collect();
        v.sort();
        v
    };
    if g.stdout != r.stdout && lines(&g.stdout) != lines(&r.stdout) {
        return Some(Mismatch {
            kind: Kind::Stdout,
            detail: format!(
                "golden vs rtl: stdout differs\n  golden: {:?}\n  rtl:    {:?}",
                String::from_utf8_lossy(&g.stdout),
                String::from_utf8_lossy(&r.stdout)
            ),
        });
    }
    if !both && golden.memory != rtl.memory {
        let n = golden.memory.len().min(rtl.memory.len());
        let first = (0..n).find(|&i| golden.memory[i] != rtl.memory[i]).unwrap_or(n) & !3;
        let word = |m: &[u8]| m.get(first..first + 4).map(|b| u32::from_le_bytes(b.try_into().unwrap()));
        let base = heddle_isa::mem::NULL_LIMIT as usize;
        let off = first.saturating_sub(base) as u32;
        let place = if off < case.col_base() {
            let t = off / gen::THREAD_BYTES;
            let w = off % gen::THREAD_BYTES / 4;
            let what = if w < 16 { format!("r{} (signature)", w + gen::VAL_LO as u32) } else { format!("scratch word {}", w - 16) };
            format!("out[thread {t}] {what}")
        } else if off < case.counter_base() {
            let k = (off - case.col_base()) / 4;
            format!("column {} of thread {}", k / case.threads(), k % case.threads())
        } else if off < case.out_bytes() {
            format!("atomic counter word {}", (off - case.counter_base()) / 4)
        } else {
            "data".into()
        };
        return Some(Mismatch {
            kind: Kind::Memory,
            detail: format!(
                "golden vs rtl: global memory differs at {first:#x} ({place}): golden {:x?}, rtl {:x?}",
                word(&golden.memory),
                word(&rtl.memory)
            ),
        });
    }
    None
}

/// Runs a case on the golden model and on the RTL in lockstep; compares the ends.
pub fn run_case(case: &Case, opts: &RtlOptions) -> Result<Verdict, String> {
    let obj = assemble(case)?;
    let (mut gd, l) = setup(case, &obj)?;
    let t = Instant::now();
    let gres = gd.launch(&l);
    let golden_s = t.elapsed().as_secs_f64();
    let instructions = gres.as_ref().map(|o| o.stats.warp_instructions).unwrap_or(0);
    let stdout_bytes = gres.as_ref().map(|o| o.stdout.len()).unwrap_or(0);
    if let Err(e) = &gres {
        return Err(format!("generated launch refused by the golden model: {e}"));
    }
    let golden = EngineRun { result: gres, memory: gd.global.bytes().to_vec() };
    let (mut rd, l) = setup(case, &obj)?;
    let t = Instant::now();
    let rres = rd.launch_rtl(&l, &RtlOptions { lockstep: true, ..opts.clone() }, &mut NoTrace);
    let rtl_s = t.elapsed().as_secs_f64();
    let rtl_cycles = rres.as_ref().map(|o| o.rtl.cycles).unwrap_or(0);
    let rtl = EngineRun { result: rres.map(|o| o.outcome), memory: rd.global.bytes().to_vec() };
    Ok(Verdict { mismatch: compare(&golden, &rtl, case), golden_s, rtl_s, instructions, rtl_cycles, stdout_bytes })
}

/// A seeded case: the same seed gives the same case.
pub fn case_of_seed(seed: u64) -> Case {
    case_of_seed_with(seed, gen::Options::default())
}

/// A seeded case drawn with generator options.
pub fn case_of_seed_with(seed: u64, opts: gen::Options) -> Case {
    let mut x = seed ^ 0x9e37_79b9_7f4a_7c15;
    let bytes: Vec<u8> = (0..8192)
        .map(|_| {
            // splitmix64
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) as u8
        })
        .collect();
    let mut u = arbitrary::Unstructured::new(&bytes);
    gen::case_with(&mut u, opts).expect("generation from seeded bytes")
}

impl<'a> arbitrary::Arbitrary<'a> for Case {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Case> {
        gen::case(u)
    }
}

// ---------------------------------------------------------------- shrinking

/// Every way to make the tree one step smaller: remove a statement, or
/// replace an `if`/loop by its body.
fn candidates(body: &[Stmt]) -> Vec<Vec<Stmt>> {
    let mut out = vec![];
    // chunks first (ddmin), large to small
    let mut chunk = body.len() / 2;
    while chunk >= 2 {
        for start in (0..body.len()).step_by(chunk) {
            let mut v = body.to_vec();
            v.drain(start..(start + chunk).min(body.len()));
            out.push(v);
        }
        chunk /= 2;
    }
    for i in 0..body.len() {
        let mut v = body.to_vec();
        v.remove(i);
        out.push(v);
        let flat: Option<Vec<Stmt>> = match &body[i] {
            Stmt::If { then, els, .. } => Some(then.iter().chain(els).cloned().collect()),
            Stmt::Loop { body, .. } => Some(body.clone()),
            Stmt::Code(c) if c.len() > 1 => None,
            _ => None,
        };
        if let Some(f) = flat {
            let mut v = body.to_vec();
            v.splice(i..=i, f);
            out.push(v);
        }
        let inner: Vec<Stmt> = match &body[i] {
            Stmt::If { cond, then, els } => {
                let mut r: Vec<Stmt> =
                    candidates(then).into_iter().map(|t| Stmt::If { cond: cond.clone(), then: t, els: els.clone() }).collect();
                r.extend(candidates(els).into_iter().map(|e| Stmt::If { cond: cond.clone(), then: then.clone(), els: e }));
                r
            }
            Stmt::Loop { level, trip, mask, base, body: b } => {
                let mut r: Vec<Stmt> = candidates(b)
                    .into_iter()
                    .map(|nb| Stmt::Loop { level: *level, trip: trip.clone(), mask: *mask, base: *base, body: nb })
                    .collect();
                if *mask > 1 {
                    r.push(Stmt::Loop { level: *level, trip: trip.clone(), mask: mask >> 1, base: *base, body: b.clone() });
                }
                r
            }
            _ => vec![],
        };
        for s in inner {
            let mut v = body.to_vec();
            v[i] = s;
            out.push(v);
        }
    }
    out
}

fn smaller_cases(c: &Case) -> Vec<Case> {
    let mut out = vec![];
    for b in candidates(&c.body) {
        out.push(Case { body: b, ..c.clone() });
    }
    for (i, f) in c.funcs.iter().enumerate() {
        for nf in candidates(f) {
            let mut funcs = c.funcs.clone();
            funcs[i] = nf;
            out.push(Case { funcs, ..c.clone() });
        }
    }
    if c.grid > 1 {
        out.push(Case { grid: 1, ..c.clone() });
        out.push(Case { grid: c.grid - 1, ..c.clone() });
    }
    if c.block > 1 {
        out.push(Case { block: c.block / 2, ..c.clone() });
        out.push(Case { block: c.block - 1, ..c.clone() });
    }
    // A simpler SM: one CTA slot, a whole warp per beat.
    if c.config.ctas > 1 {
        out.push(Case { config: heddle_hw::SmConfig { ctas: 1, ..c.config.clone() }, ..c.clone() });
    }
    let wide = c.config.warp_size.min(32);
    if c.config.lanes < wide {
        out.push(Case { config: heddle_hw::SmConfig { lanes: wide, ..c.config.clone() }, ..c.clone() });
    }
    if c.data.iter().any(|&v| v != 0) {
        out.push(Case { data: vec![0; c.data.len()], ..c.clone() });
    }
    out
}

/// Reduces a failing case while the same kind of difference persists
/// (greedy: the first smaller candidate that still fails is taken, until
/// none does or `budget` runs out).
pub fn shrink(case: &Case, kind: Kind, budget: Duration, tick: impl FnMut(&Case)) -> Case {
    shrink_with(case, kind, budget, &RtlOptions::default(), tick)
}

/// [`shrink`] with RTL options (tests plant a difference with `corrupt_retire`).
pub fn shrink_with(case: &Case, kind: Kind, budget: Duration, opts: &RtlOptions, mut tick: impl FnMut(&Case)) -> Case {
    let t = Instant::now();
    let mut best = case.clone();
    'outer: while t.elapsed() < budget {
        for c in smaller_cases(&best) {
            if t.elapsed() >= budget {
                break 'outer;
            }
            if let Ok(v) = run_case(&c, opts) {
                if v.mismatch.is_some_and(|m| m.kind == kind) {
                    best = c;
                    tick(&best);
                    continue 'outer;
                }
            }
        }
        break;
    }
    best
}

/// A reproducer: the program with the mismatch as a comment and the `run:` line.
pub fn reproducer(case: &Case, seed: Option<u64>, m: &Mismatch) -> String {
    let mut s = String::new();
    s.push_str("// Found by `heddle fuzz`");
    if let Some(seed) = seed {
        s.push_str(&format!(" (program seed {seed})"));
    }
    s.push_str(".\n");
    for l in m.detail.lines() {
        s.push_str(&format!("// {l}\n"));
    }
    s.push_str(&format!("// run: {}\n", case.run_args()));
    s.push_str(&case.render());
    s
}

// ---------------------------------------------------------------- campaigns

/// What a campaign did.
#[derive(Debug, Default)]
pub struct Summary {
    pub programs: u64,
    pub golden_s: f64,
    pub rtl_s: f64,
    pub instructions: u64,
    pub rtl_cycles: u64,
    pub wall_s: f64,
    /// (program seed, shrunk case, mismatch).
    pub mismatches: Vec<(u64, Case, Mismatch)>,
    pub coverage: Coverage,
    /// Generator bugs: programs that did not assemble or launch.
    pub invalid: Vec<(u64, String)>,
}

/// Runs programs of seeds `seed`, `seed+1`, ... for `seconds`, shrinking
/// each mismatch for at most `shrink_s` seconds. `progress` sees the summary after every program.
pub fn campaign(
    seed: u64,
    seconds: f64,
    shrink_s: f64,
    max_mismatches: usize,
    opts: gen::Options,
    mut progress: impl FnMut(&Summary),
) -> Summary {
    let mut s = Summary::default();
    let t = Instant::now();
    let mut k = 0u64;
    while t.elapsed().as_secs_f64() < seconds && s.mismatches.len() < max_mismatches {
        let ps = seed.wrapping_add(k);
        k += 1;
        let case = case_of_seed_with(ps, opts);
        match assemble(&case) {
            Ok(obj) => s.coverage.add_program(&obj.code),
            Err(e) => {
                s.invalid.push((ps, e));
                continue;
            }
        }
        match run_case(&case, &RtlOptions::default()) {
            Ok(v) => {
                s.programs += 1;
                s.golden_s += v.golden_s;
                s.rtl_s += v.rtl_s;
                s.instructions += v.instructions;
                s.rtl_cycles += v.rtl_cycles;
                if let Some(m) = v.mismatch {
                    let small = shrink(&case, m.kind, Duration::from_secs_f64(shrink_s), |_| {});
                    let m2 = run_case(&small, &RtlOptions::default()).ok().and_then(|v| v.mismatch).unwrap_or(m);
                    s.mismatches.push((ps, small, m2));
                }
            }
            Err(e) => s.invalid.push((ps, e)),
        }
        s.wall_s = t.elapsed().as_secs_f64();
        progress(&s);
    }
    s.wall_s = t.elapsed().as_secs_f64();
    s
}
