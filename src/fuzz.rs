//! `heddle fuzz`: seeded differential campaigns with `heddle_fuzz` (the
//! golden model against the RTL and/or the Verilator engine, in lockstep),
//! their corpus, shards and planted-bug runs; reproducers of mismatches
//! under `--out`, a summary on stdout (text or JSON), exit 1 on a mismatch.

use heddle_fuzz::{campaign, config_of_seed, gen, points, reproducer, seed_bytes, Oracle, Plan, Summary};
use heddle_hw::plant::{Layer, Plant};
use heddle_hw::SmConfig;
use heddle_sim::engine::Engine;
use std::path::{Path, PathBuf};

/// What `heddle fuzz` generates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// Heddle ISA programs and SM configurations: golden against rtl/verilator.
    Isa,
    /// PTX kernels: the PTX interpreter against the compiled code on golden (and rtl).
    Ptx,
}

/// What `heddle fuzz` was asked.
#[derive(Clone)]
pub struct Opts {
    pub target: Target,
    pub seconds: f64,
    pub seed: u64,
    pub programs: Option<u64>,
    pub out: Option<PathBuf>,
    pub json: bool,
    pub avoid_known: bool,
    pub max_mismatches: usize,
    pub engines: Vec<Engine>,
    pub jobs: usize,
    pub shard: (u64, u64),
    pub corpus: Option<PathBuf>,
    pub configs: usize,
    /// `--config`: the presets to run on, by name (none: draw configurations).
    pub presets: Vec<(&'static str, SmConfig)>,
    pub plant: Option<Plant>,
}

/// `I/N` of `--shard`.
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--shard {s}: expected I/N with 0 <= I < N");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n) = (i.parse::<u64>().map_err(|_| bad())?, n.parse::<u64>().map_err(|_| bad())?);
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The SMs of a campaign with the Verilator engine: `n` drawn from the legal
/// space (seeded by the campaign's seed; at most 8 lanes, so that each
/// Verilator build takes well under a minute).
fn verilator_pool(seed: u64, n: usize) -> Vec<SmConfig> {
    (0..n as u64)
        .map(|i| {
            let c = config_of_seed(seed ^ 0x5eed_c0f1_u64.wrapping_mul(i + 1));
            SmConfig { lanes: c.lanes.min(8), ..c }
        })
        .collect()
}

/// The plan of a campaign from the options.
fn plan(o: &Opts, status: &crate::progress::Status) -> Result<Plan, String> {
    let oracle = Oracle::new(&o.engines)?;
    let mut g = gen::Options { avoid_known: o.avoid_known, ..Default::default() };
    g.configs = o.presets.iter().map(|(_, c)| c.clone()).collect();
    if oracle.engines.contains(&Engine::Verilator) {
        heddle_hw::plant::set(o.plant);
        if g.configs.is_empty() {
            g.configs = verilator_pool(o.seed, o.configs.max(1));
        }
        for (i, c) in g.configs.iter().enumerate() {
            status.say(format!("building the Verilator model of SM {} of {} (once per configuration)", i + 1, g.configs.len()));
            heddle_sim::verilator::prepare(c)?;
        }
    }
    let start = match &o.corpus {
        Some(dir) => read_resume(dir, o)?,
        None => 0,
    };
    Ok(Plan {
        seed: o.seed,
        seconds: o.seconds,
        max_programs: o.programs,
        shrink_s: 120.0,
        max_mismatches: o.max_mismatches.max(1),
        gen: g,
        oracle,
        jobs: o.jobs.max(1),
        shard: o.shard,
        start,
        plant: o.plant,
    })
}

fn resume_file(dir: &Path, o: &Opts) -> PathBuf {
    dir.join(format!("resume-seed{}-shard{}of{}", o.seed, o.shard.0, o.shard.1))
}

fn read_resume(dir: &Path, o: &Opts) -> Result<u64, String> {
    match std::fs::read_to_string(resume_file(dir, o)) {
        Ok(t) => t.trim().parse().map_err(|_| format!("{}: not a program index", resume_file(dir, o).display())),
        Err(_) => Ok(0),
    }
}

/// 64-bit FNV-1a: corpus entries are named by their contents, so merging
/// corpora is copying files.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// Keeps what a campaign learned in `dir`: the programs that reached new
/// coverage (as the bytes they are drawn from, which cargo-fuzz's targets
/// take too) and where to resume.
fn save_corpus(dir: &Path, o: &Opts, s: &Summary) -> Result<usize, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut added = 0;
    for &ps in &s.new_coverage {
        let bytes = seed_bytes(ps);
        let p = dir.join(format!("{:016x}", fnv(&bytes)));
        if !p.exists() {
            std::fs::write(&p, &bytes).map_err(|e| format!("{}: {e}", p.display()))?;
            added += 1;
        }
    }
    std::fs::write(resume_file(dir, o), format!("{}\n", s.next)).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(added)
}

/// `--merge`: copies the entries of other corpora (shards') into `into`.
pub fn merge(into: &Path, from: &[PathBuf]) -> Result<String, String> {
    std::fs::create_dir_all(into).map_err(|e| format!("{}: {e}", into.display()))?;
    let (mut added, mut seen) = (0, 0);
    for d in from {
        for e in std::fs::read_dir(d).map_err(|e| format!("{}: {e}", d.display()))? {
            let p = e.map_err(|e| e.to_string())?.path();
            if p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("resume-")) || !p.is_file() {
                continue;
            }
            seen += 1;
            let bytes = std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            let to = into.join(format!("{:016x}", fnv(&bytes)));
            if !to.exists() {
                std::fs::write(&to, &bytes).map_err(|e| format!("{}: {e}", to.display()))?;
                added += 1;
            }
        }
    }
    Ok(format!("merged {seen} entries into {}: {added} new\n", into.display()))
}

/// Runs the campaign and returns (report, mismatches and generator bugs found).
pub fn run(o: &Opts, status: &crate::progress::Status) -> Result<(String, usize), String> {
    if o.target == Target::Ptx {
        return run_ptx(o, status);
    }
    let p = plan(o, status)?;
    let s = campaign(&p, |s: &Summary| {
        status.say(format!(
            "{} programs, {:.1}/s, {} mismatches, {} opcodes, {} of {} coverage points",
            s.programs,
            s.programs as f64 / s.wall_s.max(1e-9),
            s.found.len(),
            s.coverage.opcodes(),
            s.points.distinct(),
            points::ALL.len()
        ))
    });
    let mut files = vec![];
    if let Some(dir) = &o.out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        heddle_hw::plant::set(o.plant);
        for f in &s.found {
            let p = dir.join(format!("mismatch-{}.hasm", f.seed));
            std::fs::write(&p, reproducer(&f.case, Some(f.seed), &f.mismatch)).map_err(|e| format!("{}: {e}", p.display()))?;
            files.push(p.display().to_string());
        }
        for (ps, e) in &s.invalid {
            let p = dir.join(format!("invalid-{ps}.txt"));
            std::fs::write(&p, e).map_err(|e| format!("{}: {e}", p.display()))?;
        }
    }
    let added = match &o.corpus {
        Some(dir) => Some(save_corpus(dir, o, &s)?),
        None => None,
    };
    let text = if o.json { json(o, &p, &s, &files, added) } else { text(o, &p, &s, &files, added) };
    Ok((text, s.found.len() + s.invalid.len()))
}

/// ` --config a,b` when the campaign ran on presets.
fn presets_arg(o: &Opts) -> String {
    match o.presets.is_empty() {
        true => String::new(),
        false => format!(" --config {}", o.presets.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(",")),
    }
}

fn rate(n: f64, t: f64) -> f64 {
    n / t.max(1e-9)
}

fn json(o: &Opts, p: &Plan, s: &Summary, files: &[String], added: Option<usize>) -> String {
    let per_engine: serde_json::Map<String, serde_json::Value> =
        s.secs.keys().map(|e| (e.to_string(), serde_json::json!(rate(s.programs as f64, s.secs[e])))).collect();
    let v = serde_json::json!({
        "seed": o.seed,
        "presets": o.presets.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        "shard": format!("{}/{}", o.shard.0, o.shard.1),
        "jobs": p.jobs,
        "engines": p.oracle.engines.iter().map(|e| e.name()).collect::<Vec<_>>(),
        "plant": o.plant.map(|p| p.name()),
        "seconds": s.wall_s,
        "programs": s.programs,
        "programs_per_s": rate(s.programs as f64, s.wall_s),
        "engine_programs_per_s": per_engine,
        "warp_instructions": s.instructions,
        "rtl_cycles": s.rtl_cycles,
        "mismatches": s.found.iter().map(|f| serde_json::json!({
            "program_seed": f.seed, "after_s": f.after_s, "programs_before": f.programs_before,
            "kind": format!("{:?}", f.mismatch.kind), "engine": f.mismatch.engine.name(),
            "detail": f.mismatch.detail, "run": f.case.run_args_on(f.mismatch.engine)
        })).collect::<Vec<_>>(),
        "invalid": s.invalid.iter().map(|(ps, e)| serde_json::json!({"program_seed": ps, "error": e})).collect::<Vec<_>>(),
        "reproducers": files,
        "coverage": s.coverage.ops,
        "points": s.points.0,
        "points_missing": s.points.missing(),
        "corpus_added": added,
        "next_program": s.next,
    });
    format!("{}\n", serde_json::to_string_pretty(&v).unwrap())
}

fn text(o: &Opts, p: &Plan, s: &Summary, files: &[String], added: Option<usize>) -> String {
    let engines: Vec<String> = s.secs.keys().map(|e| format!("{e} {:.1} programs/s", rate(s.programs as f64, s.secs[e]))).collect();
    let mut t = format!(
        "heddle fuzz --seed {}{}{}: {} programs in {:.1} s ({:.1}/s, {} job{}); {}\n\
         {} warp instructions (golden), {} RTL cycles\n\
         coverage: {} opcodes, {} opcode.modifier forms; {} of {} functional points\n",
        o.seed,
        presets_arg(o),
        o.plant.map_or(String::new(), |p| format!(" (planted bug {})", p.name())),
        s.programs,
        s.wall_s,
        rate(s.programs as f64, s.wall_s),
        p.jobs,
        if p.jobs == 1 { "" } else { "s" },
        engines.join(", "),
        s.instructions,
        s.rtl_cycles,
        s.coverage.opcodes(),
        s.coverage.forms(),
        s.points.distinct(),
        points::ALL.len()
    );
    let mut ops: Vec<(&String, &u64)> = s.coverage.ops.iter().filter(|(k, _)| !k.contains('.')).collect();
    ops.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    t.push_str("  ");
    t.push_str(&ops.iter().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", "));
    t.push('\n');
    let missing: Vec<&str> = heddle_isa::table::TABLE.iter().map(|i| i.mnemonic).filter(|m| !s.coverage.ops.contains_key(*m)).collect();
    t.push_str(&format!("  never generated: {}\n", if missing.is_empty() { "-".into() } else { missing.join(", ") }));
    t.push_str("functional points (programs that hit each):\n");
    for pt in points::ALL {
        t.push_str(&format!("  {:>7}  {pt}\n", s.points.0.get(*pt).copied().unwrap_or(0)));
    }
    for (ps, e) in &s.invalid {
        t.push_str(&format!("generator bug (program seed {ps}): {}\n", e.lines().next().unwrap_or("")));
    }
    if let Some(n) = added {
        t.push_str(&format!("corpus: {n} new entries; resume at program {}\n", s.next));
    }
    t.push_str(&format!("mismatches: {}\n", s.found.len()));
    for (f, file) in s.found.iter().zip(files.iter().map(Some).chain(std::iter::repeat(None))) {
        t.push_str(&format!(
            "program seed {} ({:.1} s, {} programs in): {}\n  run: {}\n",
            f.seed,
            f.after_s,
            f.programs_before,
            f.mismatch.detail,
            f.case.run_args_on(f.mismatch.engine)
        ));
        if let Some(file) = file {
            t.push_str(&format!("  reproducer: {file}\n"));
        }
    }
    t
}

/// A difference's first line, cut for a table cell.
fn brief(detail: &str) -> String {
    let l = detail.lines().next().unwrap_or("").replace('|', "\\|");
    let l = l.split("; the VCD").next().unwrap_or("").to_string();
    match l.char_indices().nth(150) {
        Some((i, _)) => format!("{}...", &l[..i]),
        None => l,
    }
}

/// `--plants`: a bounded campaign against each planted bug in turn (RTL
/// plants on golden vs rtl, Verilog plants on golden vs verilator); a
/// table of which were caught, after how long and by what.
pub fn run_plants(o: &Opts, only: &[Plant], status: &crate::progress::Status) -> Result<(String, usize), String> {
    let list: Vec<Plant> = if only.is_empty() { Plant::ALL.to_vec() } else { only.to_vec() };
    let mut rows =
        String::from("| planted bug | area | engines | caught | after (s) | programs | difference |\n|---|---|---|---|---|---|---|\n");
    let mut missed = 0;
    for p in list {
        let engines = match p.layer() {
            Layer::Rtl => vec![Engine::Golden, Engine::Rtl],
            Layer::Verilog => vec![Engine::Golden, Engine::Verilator],
        };
        let po = Opts { plant: Some(p), engines: engines.clone(), corpus: None, out: None, ..o.clone() };
        let plan = Plan { shrink_s: 20.0, ..plan(&po, status)? };
        status.say(format!("planted bug {}: campaign of up to {} s", p.name(), o.seconds));
        let s = campaign(&plan, |s: &Summary| status.say(format!("planted bug {}: {} programs", p.name(), s.programs)));
        let names: Vec<&str> = engines.iter().map(|e| e.name()).collect();
        match s.found.first() {
            Some(f) => rows.push_str(&format!(
                "| `{}` | {} | {} | yes | {:.1} | {} | {:?}: {} |\n",
                p.name(),
                p.area(),
                names.join(", "),
                f.after_s,
                f.programs_before + 1,
                f.mismatch.kind,
                brief(&f.mismatch.detail)
            )),
            None => {
                missed += 1;
                rows.push_str(&format!(
                    "| `{}` | {} | {} | **no** | {:.0} | {} | - |\n",
                    p.name(),
                    p.area(),
                    names.join(", "),
                    s.wall_s,
                    s.programs
                ))
            }
        }
    }
    heddle_hw::plant::set(None);
    Ok((rows, missed))
}

/// `--target ptx`: PTX kernels on the interpreter, compiled on the golden
/// model (and with `rtl` among the engines, on the RTL in lockstep).
fn run_ptx(o: &Opts, status: &crate::progress::Status) -> Result<(String, usize), String> {
    use heddle_fuzz::ptx::{ptx_campaign_with, ptx_reproducer, PtxOptions, PtxSummary};
    if o.engines.contains(&Engine::Verilator)
        || o.jobs > 1
        || o.shard != (0, 1)
        || o.corpus.is_some()
        || o.plant.is_some()
        || o.programs.is_some()
        || !o.presets.is_empty()
    {
        return Err(
            "--target ptx runs on ptx, golden and rtl, in one job, for --seconds, on `default`, without shards, corpus or plants".into()
        );
    }
    let rtl = o.engines.contains(&Engine::Rtl);
    let s = ptx_campaign_with(o.seed, o.seconds, rtl, 120.0, o.max_mismatches.max(1), PtxOptions::default(), |s: &PtxSummary| {
        status.say(format!("{} PTX programs, {:.1}/s, {} mismatches", s.programs, rate(s.programs as f64, s.wall_s), s.mismatches.len()))
    });
    let mut files = vec![];
    if let Some(dir) = &o.out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for (ps, c, m) in &s.mismatches {
            let p = dir.join(format!("mismatch-{ps}.ptx"));
            std::fs::write(&p, ptx_reproducer(c, Some(*ps), m)).map_err(|e| format!("{}: {e}", p.display()))?;
            files.push(p.display().to_string());
        }
    }
    let mut engines = vec![("ptx", s.rate(s.ptx_s)), ("golden", s.rate(s.golden_s))];
    if rtl {
        engines.push(("rtl", s.rate(s.rtl_s)));
    }
    let text = if o.json {
        let v = serde_json::json!({
            "target": "ptx",
            "seed": o.seed,
            "seconds": s.wall_s,
            "programs": s.programs,
            "programs_per_s": rate(s.programs as f64, s.wall_s),
            "engine_programs_per_s": engines.iter().map(|(e, r)| (e.to_string(), serde_json::json!(r))).collect::<serde_json::Map<_, _>>(),
            "build_s": s.build_s,
            "mismatches": s.mismatches.iter().map(|(ps, _, m)| serde_json::json!({
                "program_seed": ps, "kind": format!("{:?}", m.kind), "engines": [m.engines.0, m.engines.1], "detail": m.detail
            })).collect::<Vec<_>>(),
            "invalid": s.invalid.iter().map(|(ps, e)| serde_json::json!({"program_seed": ps, "error": e})).collect::<Vec<_>>(),
            "reproducers": files,
        });
        format!("{}\n", serde_json::to_string_pretty(&v).unwrap())
    } else {
        let per: Vec<String> = engines.iter().map(|(e, r)| format!("{e} {r:.1} programs/s")).collect();
        let mut t = format!(
            "heddle fuzz --target ptx --seed {}: {} programs in {:.1} s ({:.1}/s); {}; parsing and compiling {:.1} s\n",
            o.seed,
            s.programs,
            s.wall_s,
            rate(s.programs as f64, s.wall_s),
            per.join(", "),
            s.build_s
        );
        for (ps, e) in &s.invalid {
            t.push_str(&format!("invalid program (seed {ps}): {}\n", e.lines().next().unwrap_or("")));
        }
        t.push_str(&format!("mismatches: {}\n", s.mismatches.len()));
        for ((ps, _, m), f) in s.mismatches.iter().zip(files.iter().map(Some).chain(std::iter::repeat(None))) {
            t.push_str(&format!("program seed {ps}: {} vs {}: {}\n", m.engines.0, m.engines.1, m.detail));
            if let Some(f) = f {
                t.push_str(&format!("  reproducer: {f}\n"));
            }
        }
        t
    };
    Ok((text, s.mismatches.len() + s.invalid.len()))
}
