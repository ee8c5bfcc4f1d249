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

pub mod points;

use gen::{Case, Coverage, Stmt};
use heddle_sim::engine::Engine;
use heddle_sim::launch::{Launch, LaunchError, NoTrace, Outcome};
use heddle_sim::rtl::RtlOptions;
use heddle_sim::Device;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Which kind of difference the oracle saw (the shrinker keeps it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The lockstep comparison stopped at a retired instruction.
    Lockstep,
    /// Only one engine trapped, or the traps differ.
    Trap,
    Stdout,
    /// Global memory differs at the end.
    Memory,
    /// The engine failed otherwise (simulation fault).
    Engine,
}

/// The first difference between the golden model and another engine.
#[derive(Debug, Clone)]
pub struct Mismatch {
    pub kind: Kind,
    /// The engine that differs from the golden model.
    pub engine: Engine,
    pub detail: String,
}

/// How cases are run: the cycle engines held against the golden model
/// (each in lockstep), and the RTL options (test hooks).
#[derive(Debug, Clone)]
pub struct Oracle {
    /// `rtl` and/or `verilator`.
    pub engines: Vec<Engine>,
    pub rtl: RtlOptions,
}

impl Default for Oracle {
    fn default() -> Oracle {
        Oracle { engines: vec![Engine::Rtl], rtl: RtlOptions::default() }
    }
}

impl Oracle {
    /// Golden against `engines` (only `rtl` and `verilator` run generated programs).
    pub fn new(engines: &[Engine]) -> Result<Oracle, String> {
        let mut e: Vec<Engine> = vec![];
        for &x in engines {
            match x {
                Engine::Golden => {}
                Engine::Rtl | Engine::Verilator => {
                    x.available()?;
                    if !e.contains(&x) {
                        e.push(x);
                    }
                }
                Engine::Ptx => return Err("engine `ptx` runs PTX: use `--target ptx`".into()),
            }
        }
        if e.is_empty() {
            return Err("name an engine to hold against the golden model (rtl, verilator)".into());
        }
        Ok(Oracle { engines: e, rtl: RtlOptions::default() })
    }
}

/// What running one case gave.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub mismatch: Option<Mismatch>,
    /// Seconds per engine, the golden model first.
    pub secs: Vec<(Engine, f64)>,
    /// Warp instructions the golden model retired.
    pub instructions: u64,
    /// Cycles of the first cycle engine.
    pub rtl_cycles: u64,
    /// Bytes the golden model's printf wrote.
    pub stdout_bytes: usize,
    /// Functional coverage points hit (see [`points`]).
    pub points: points::Hits,
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

/// Compares `engine`'s end with the golden model's: trap (kind, CTA, warp,
/// lane, pc, address), stdout, every byte of global memory.
pub fn compare(golden: &EngineRun, other: &EngineRun, engine: Engine, case: &Case) -> Option<Mismatch> {
    let found = |kind: Kind, detail: String| Some(Mismatch { kind, engine, detail });
    let (g, r) = match (&golden.result, &other.result) {
        (Ok(g), Ok(r)) => (g, r),
        (Err(e), Ok(_)) => return found(Kind::Engine, format!("golden refused the launch: {e}")),
        (_, Err(LaunchError::Rtl(m))) if m.contains("lockstep") || m.contains("differ") => {
            return found(Kind::Lockstep, format!("golden vs {engine} (lockstep): {m}"))
        }
        (_, Err(e)) => return found(Kind::Engine, format!("{engine} failed: {e}")),
    };
    // A trap ends the launch wherever the other warps are, and which of a
    // program's faults comes first depends on the schedule: with a trap on
    // both sides the engine's own was checked in lockstep (kind, pc, lane,
    // address against the golden model stepped in the engine's order), so
    // here only trapping or not must agree.
    let both = g.trap.is_some() && r.trap.is_some();
    if !both && g.trap != r.trap {
        let show = |t: &Option<heddle_sim::trap::Trap>| t.as_ref().map_or("none".into(), |t| format!("{t}"));
        return found(Kind::Trap, format!("golden vs {engine}: trap differs\n  golden: {}\n  {engine}: {}", show(&g.trap), show(&r.trap)));
    }
    // Lines of different warps come in schedule order: compare them as multisets.
    let lines = |o: &[u8]| {
        let mut v: Vec<Vec<u8>> = o.split(|&b| b == b'\n').map(|l| l.to_vec()).collect();
        v.sort();
        v
    };
    // (With a trap on both sides what was printed before it depends on the schedule too.)
    if !both && g.stdout != r.stdout && lines(&g.stdout) != lines(&r.stdout) {
        let (gs, rs) = (String::from_utf8_lossy(&g.stdout), String::from_utf8_lossy(&r.stdout));
        return found(Kind::Stdout, format!("golden vs {engine}: stdout differs\n  golden: {gs:?}\n  {engine}: {rs:?}"));
    }
    if !both && golden.memory != other.memory {
        let n = golden.memory.len().min(other.memory.len());
        let first = (0..n).find(|&i| golden.memory[i] != other.memory[i]).unwrap_or(n) & !3;
        let word = |m: &[u8]| m.get(first..first + 4).map(|b| u32::from_le_bytes(b.try_into().unwrap()));
        let base = heddle_isa::mem::NULL_LIMIT as usize;
        let off = first.saturating_sub(base) as u32;
        let place = if off < case.col_base() {
            let t = off / gen::THREAD_BYTES;
            let w = off % gen::THREAD_BYTES / 4;
            let sig = (gen::val_hi(&case.config) - gen::VAL_LO) as u32;
            let what = match w {
                w if w < sig => format!("r{} (signature)", w + gen::VAL_LO as u32),
                w if w < 16 => format!("word {w} (past the signature)"),
                w => format!("scratch word {}", w - 16),
            };
            format!("out[thread {t}] {what}")
        } else if off < case.counter_base() {
            let k = (off - case.col_base()) / 4;
            format!("column {} of thread {}", k / case.threads(), k % case.threads())
        } else if off < case.out_bytes() {
            format!("atomic counter word {}", (off - case.counter_base()) / 4)
        } else {
            "data".into()
        };
        return found(
            Kind::Memory,
            format!(
                "golden vs {engine}: global memory differs at {first:#x} ({place}): golden {:x?}, {engine} {:x?}",
                word(&golden.memory),
                word(&other.memory)
            ),
        );
    }
    None
}

/// Runs a case on the golden model and on each of the oracle's engines in
/// lockstep; compares each end with the golden model's.
pub fn run_case(case: &Case, oracle: &Oracle) -> Result<Verdict, String> {
    let obj = assemble(case)?;
    let (mut gd, l) = setup(case, &obj)?;
    let mut probe = points::Probe::new(&obj.code, case.config.bus_bits);
    let t = Instant::now();
    let gres = gd.launch_traced(&l, &mut probe);
    let mut secs = vec![(Engine::Golden, t.elapsed().as_secs_f64())];
    let instructions = gres.as_ref().map(|o| o.stats.warp_instructions).unwrap_or(0);
    let stdout_bytes = gres.as_ref().map(|o| o.stdout.len()).unwrap_or(0);
    if let Err(e) = &gres {
        return Err(format!("generated launch refused by the golden model: {e}"));
    }
    let mut points = probe.hits(case, gres.as_ref().ok());
    let golden = EngineRun { result: gres, memory: gd.global.bytes().to_vec() };
    let (mut rtl_cycles, mut mismatch) = (0, None);
    for &engine in &oracle.engines {
        let (mut rd, l) = setup(case, &obj)?;
        let opts = RtlOptions {
            lockstep: true,
            verilator: engine == Engine::Verilator,
            bus_waits: case.bus_waits,
            mem_latency: case.mem_latency,
            ..oracle.rtl.clone()
        };
        let t = Instant::now();
        let rres = rd.launch_rtl(&l, &opts, &mut NoTrace);
        secs.push((engine, t.elapsed().as_secs_f64()));
        if let Ok(o) = &rres {
            if rtl_cycles == 0 {
                rtl_cycles = o.rtl.cycles;
                points.add_rtl(&o.rtl, case.config.stack_depth);
            }
        }
        let run = EngineRun { result: rres.map(|o| o.outcome), memory: rd.global.bytes().to_vec() };
        if mismatch.is_none() {
            mismatch = compare(&golden, &run, engine, case);
        }
    }
    Ok(Verdict { mismatch, secs, instructions, rtl_cycles, stdout_bytes, points })
}

/// The bytes a seed stands for (splitmix64): what [`case_of_seed_with`]
/// draws a case from, and a campaign's corpus entries.
pub fn seed_bytes(seed: u64) -> Vec<u8> {
    splitmix_bytes(seed ^ 0x9e37_79b9_7f4a_7c15, 8192)
}

/// `n` bytes of the splitmix64 stream from state `x` (the PTX generator
/// starts its seeds from a state of its own).
pub fn splitmix_bytes(mut x: u64, n: usize) -> Vec<u8> {
    (0..n)
        .map(|_| {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) as u8
        })
        .collect()
}

/// A seeded case: the same seed gives the same case.
pub fn case_of_seed(seed: u64) -> Case {
    case_of_seed_with(seed, gen::Options::default())
}

/// A seeded case drawn with generator options.
pub fn case_of_seed_with(seed: u64, opts: gen::Options) -> Case {
    case_of_bytes(&seed_bytes(seed), opts)
}

/// An SM configuration drawn from the legal space by a seed.
pub fn config_of_seed(seed: u64) -> heddle_hw::SmConfig {
    let bytes = seed_bytes(seed);
    gen::config(&mut arbitrary::Unstructured::new(&bytes)).expect("drawing a configuration never fails")
}

/// A case drawn from bytes (a corpus entry, or cargo-fuzz's input); bytes
/// that run out read as zeros, so every input gives a case.
pub fn case_of_bytes(bytes: &[u8], opts: gen::Options) -> Case {
    let mut u = arbitrary::Unstructured::new(bytes);
    gen::case_with(&mut u, opts).expect("generation never fails: exhausted bytes read as zeros")
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
            // Shallower recursion, the same depth on every lane.
            Stmt::Recurse { base, spread } => {
                let mut r = vec![];
                if *base > 1 {
                    r.push(Stmt::Recurse { base: base / 2, spread: *spread });
                    r.push(Stmt::Recurse { base: base - 1, spread: *spread });
                }
                if *spread > 0 {
                    r.push(Stmt::Recurse { base: *base, spread: 0 });
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
    if c.bus_waits.is_some() {
        out.push(Case { bus_waits: None, ..c.clone() });
    }
    if c.mem_latency.is_some() {
        out.push(Case { mem_latency: None, ..c.clone() });
    }
    if c.data.iter().any(|&v| v != 0) {
        out.push(Case { data: vec![0; c.data.len()], ..c.clone() });
    }
    out
}

/// Reduces a failing case while the same kind of difference with the
/// same engine persists (greedy: the first smaller candidate that still
/// fails is taken, until none does or `budget` runs out).
pub fn shrink(case: &Case, m: &Mismatch, budget: Duration, oracle: &Oracle, mut tick: impl FnMut(&Case)) -> Case {
    // Only the engine that differed runs: the others cost time and say
    // nothing; nor does a VCD of every failing candidate.
    let oracle = Oracle { engines: vec![m.engine], rtl: RtlOptions { no_mismatch_vcd: true, ..oracle.rtl.clone() } };
    greedy(case, budget, smaller_cases, |c| {
        let fails = run_case(c, &oracle).is_ok_and(|v| v.mismatch.is_some_and(|x| x.kind == m.kind));
        if fails {
            tick(c);
        }
        fails
    })
}

/// Greedy delta debugging: the first of `smaller(best)` that still `fails`
/// becomes the best, until none does or `budget` runs out.
pub fn greedy<C: Clone>(case: &C, budget: Duration, smaller: impl Fn(&C) -> Vec<C>, mut fails: impl FnMut(&C) -> bool) -> C {
    let t = Instant::now();
    let mut best = case.clone();
    'outer: while t.elapsed() < budget {
        for c in smaller(&best) {
            if t.elapsed() >= budget {
                break 'outer;
            }
            if fails(&c) {
                best = c;
                continue 'outer;
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
    if let Some(p) = heddle_hw::plant::active() {
        s.push_str(&format!(" with the planted bug `{}` (HEDDLE_PLANT={0})", p.name()));
    }
    s.push_str(".\n");
    for l in m.detail.lines() {
        s.push_str(&format!("// {l}\n"));
    }
    s.push_str(&format!("// run: {}\n", case.run_args_on(m.engine)));
    s.push_str(&case.render());
    s
}

// ---------------------------------------------------------------- campaigns

/// What a campaign runs.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Program k has seed `seed + k`.
    pub seed: u64,
    pub seconds: f64,
    /// Stop after this many programs (all threads, each its share), if the time lasts.
    pub max_programs: Option<u64>,
    /// Seconds to shrink each mismatch for.
    pub shrink_s: f64,
    pub max_mismatches: usize,
    pub gen: gen::Options,
    pub oracle: Oracle,
    /// Threads, each running every `jobs`-th program of the shard.
    pub jobs: usize,
    /// This shard runs programs k with k % count == index (`--shard I/N`).
    pub shard: (u64, u64),
    /// The first program (k) to run: a resumed campaign goes on from here.
    pub start: u64,
    /// The planted bug every thread's SMs carry (`heddle_hw::plant`).
    pub plant: Option<heddle_hw::plant::Plant>,
}

impl Default for Plan {
    fn default() -> Plan {
        Plan {
            seed: 0,
            seconds: 60.0,
            max_programs: None,
            shrink_s: 120.0,
            max_mismatches: 1,
            gen: gen::Options::default(),
            oracle: Oracle::default(),
            jobs: 1,
            shard: (0, 1),
            start: 0,
            plant: None,
        }
    }
}

/// A mismatch a campaign found.
#[derive(Debug, Clone)]
pub struct Found {
    pub seed: u64,
    /// Seconds into the campaign it was seen (before shrinking).
    pub after_s: f64,
    /// Programs run before it (all threads).
    pub programs_before: u64,
    pub case: Case,
    pub mismatch: Mismatch,
}

/// What a campaign did.
#[derive(Debug, Default)]
pub struct Summary {
    pub programs: u64,
    /// Seconds per engine, summed over programs.
    pub secs: BTreeMap<&'static str, f64>,
    pub instructions: u64,
    pub rtl_cycles: u64,
    pub wall_s: f64,
    pub found: Vec<Found>,
    pub coverage: Coverage,
    pub points: points::Hits,
    /// Generator bugs: programs that did not assemble or launch.
    pub invalid: Vec<(u64, String)>,
    /// Seeds of programs that hit a coverage point or form no earlier one had.
    pub new_coverage: Vec<u64>,
    /// One past the highest program index (k) run: where a resumed campaign starts.
    pub next: u64,
}

impl Summary {
    /// Programs per second of `engine` alone.
    pub fn rate(&self, engine: Engine) -> f64 {
        self.programs as f64 / self.secs.get(engine.name()).copied().unwrap_or(0.0).max(1e-9)
    }

    fn add(&mut self, ps: u64, obj: &heddle_isa::Object, v: &Verdict) {
        self.programs += 1;
        for (e, t) in &v.secs {
            *self.secs.entry(e.name()).or_default() += t;
        }
        self.instructions += v.instructions;
        self.rtl_cycles += v.rtl_cycles;
        let (forms, hits) = (self.coverage.forms(), self.points.distinct());
        self.coverage.add_program(&obj.code);
        self.points.merge(&v.points);
        if self.coverage.forms() > forms || self.points.distinct() > hits {
            self.new_coverage.push(ps);
        }
    }
}

/// Runs programs of seeds `seed + k` for `seconds` on `jobs` threads,
/// shrinking each mismatch. `progress` sees the summary after every program.
pub fn campaign(plan: &Plan, progress: impl Fn(&Summary) + Sync) -> Summary {
    let t = Instant::now();
    let shared = Mutex::new(Summary { next: plan.start, ..Summary::default() });
    let stride = plan.shard.1 * plan.jobs as u64;
    let first = plan.start.div_ceil(plan.shard.1) * plan.shard.1 + plan.shard.0;
    std::thread::scope(|scope| {
        for j in 0..plan.jobs as u64 {
            let (shared, progress) = (&shared, &progress);
            scope.spawn(move || {
                heddle_hw::plant::set(plan.plant);
                let mut k = first + j * plan.shard.1;
                // This thread's share of `max_programs`: the same programs run however fast each thread is.
                let jobs = plan.jobs as u64;
                let mut quota = plan.max_programs.map(|n| n / jobs + (j < n % jobs) as u64);
                loop {
                    {
                        let s = shared.lock().unwrap();
                        if quota == Some(0) || t.elapsed().as_secs_f64() >= plan.seconds || s.found.len() >= plan.max_mismatches {
                            break;
                        }
                        quota = quota.map(|q| q - 1);
                    }
                    let ps = plan.seed.wrapping_add(k);
                    let case = case_of_seed_with(ps, plan.gen.clone());
                    let verdict = assemble(&case).and_then(|obj| run_case(&case, &plan.oracle).map(|v| (obj, v)));
                    let mut s = shared.lock().unwrap();
                    s.next = s.next.max(k + 1);
                    k += stride;
                    match verdict {
                        Err(e) => s.invalid.push((ps, e)),
                        Ok((obj, v)) => {
                            s.add(ps, &obj, &v);
                            if let Some(m) = v.mismatch {
                                let (after_s, before) = (t.elapsed().as_secs_f64(), s.programs - 1);
                                drop(s);
                                let small = shrink(&case, &m, Duration::from_secs_f64(plan.shrink_s), &plan.oracle, |_| {});
                                let again = run_case(&small, &plan.oracle).ok().and_then(|v| v.mismatch);
                                let f = Found { seed: ps, after_s, programs_before: before, case: small, mismatch: again.unwrap_or(m) };
                                shared.lock().unwrap().found.push(f);
                                continue;
                            }
                        }
                    }
                    s.wall_s = t.elapsed().as_secs_f64();
                    progress(&s);
                }
            });
        }
    });
    let mut s = shared.into_inner().unwrap();
    s.wall_s = t.elapsed().as_secs_f64();
    s.invalid.sort();
    s
}
