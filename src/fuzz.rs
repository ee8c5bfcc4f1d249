//! `heddle fuzz`: a seeded differential campaign (golden model against the
//! RTL in lockstep) with `heddle_fuzz`; reproducers of mismatches under
//! `--out`, a summary on stdout (text or JSON), exit 1 on a mismatch.

use heddle_fuzz::gen::Options;
use heddle_fuzz::{campaign, reproducer, Summary};
use std::path::Path;

/// What `heddle fuzz` was asked.
pub struct Opts<'a> {
    pub seconds: f64,
    pub seed: u64,
    pub out: Option<&'a Path>,
    pub json: bool,
    pub avoid_known: bool,
    pub max_mismatches: usize,
}

/// Runs the campaign and returns (report, mismatches and generator bugs found).
pub fn run(o: &Opts, status: &crate::progress::Status) -> Result<(String, usize), String> {
    let (seed, out, json) = (o.seed, o.out, o.json);
    let s = campaign(seed, o.seconds, 120.0, o.max_mismatches.max(1), Options { avoid_known: o.avoid_known }, |s: &Summary| {
        status.say(format!(
            "{} programs, {:.0}/s, {} mismatches, {} opcodes",
            s.programs,
            s.programs as f64 / s.wall_s.max(1e-9),
            s.mismatches.len(),
            s.coverage.opcodes()
        ))
    });
    let mut files = vec![];
    if let Some(dir) = out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for (ps, c, m) in &s.mismatches {
            let p = dir.join(format!("mismatch-{ps}.hasm"));
            std::fs::write(&p, reproducer(c, Some(*ps), m)).map_err(|e| format!("{}: {e}", p.display()))?;
            files.push(p.display().to_string());
        }
        for (ps, e) in &s.invalid {
            let p = dir.join(format!("invalid-{ps}.txt"));
            std::fs::write(&p, e).map_err(|e| format!("{}: {e}", p.display()))?;
        }
    }
    let rate = |n: f64, t: f64| n / t.max(1e-9);
    let text = if json {
        let v = serde_json::json!({
            "seed": seed,
            "seconds": s.wall_s,
            "programs": s.programs,
            "programs_per_s": rate(s.programs as f64, s.wall_s),
            "golden_programs_per_s": rate(s.programs as f64, s.golden_s),
            "rtl_programs_per_s": rate(s.programs as f64, s.rtl_s),
            "warp_instructions": s.instructions,
            "rtl_cycles": s.rtl_cycles,
            "mismatches": s.mismatches.iter().map(|(ps, c, m)| serde_json::json!({
                "program_seed": ps, "kind": format!("{:?}", m.kind), "detail": m.detail, "run": c.run_args()
            })).collect::<Vec<_>>(),
            "invalid": s.invalid.iter().map(|(ps, e)| serde_json::json!({"program_seed": ps, "error": e})).collect::<Vec<_>>(),
            "reproducers": files,
            "coverage": s.coverage.ops,
        });
        format!("{}\n", serde_json::to_string_pretty(&v).unwrap())
    } else {
        let mut t = format!(
            "heddle fuzz --seed {seed}: {} programs in {:.1} s ({:.1}/s); golden {:.0} programs/s, rtl (lockstep) {:.1} programs/s\n\
             {} warp instructions (golden), {} RTL cycles ({:.0} cycles/s)\n\
             coverage: {} opcodes, {} opcode.modifier forms\n",
            s.programs,
            s.wall_s,
            rate(s.programs as f64, s.wall_s),
            rate(s.programs as f64, s.golden_s),
            rate(s.programs as f64, s.rtl_s),
            s.instructions,
            s.rtl_cycles,
            rate(s.rtl_cycles as f64, s.rtl_s),
            s.coverage.opcodes(),
            s.coverage.forms()
        );
        let mut ops: Vec<(&String, &u64)> = s.coverage.ops.iter().filter(|(k, _)| !k.contains('.')).collect();
        ops.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        t.push_str("  ");
        t.push_str(&ops.iter().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", "));
        t.push('\n');
        let missing: Vec<&str> = heddle_isa::table::TABLE.iter().map(|i| i.mnemonic).filter(|m| !s.coverage.ops.contains_key(*m)).collect();
        t.push_str(&format!("  never generated: {}\n", if missing.is_empty() { "-".into() } else { missing.join(", ") }));
        for (ps, e) in &s.invalid {
            t.push_str(&format!("generator bug (program seed {ps}): {}\n", e.lines().next().unwrap_or("")));
        }
        t.push_str(&format!("mismatches: {}\n", s.mismatches.len()));
        for ((ps, c, m), f) in s.mismatches.iter().zip(files.iter().map(Some).chain(std::iter::repeat(None))) {
            t.push_str(&format!("program seed {ps}: {}\n  run: {}\n", m.detail, c.run_args()));
            if let Some(f) = f {
                t.push_str(&format!("  reproducer: {f}\n"));
            }
        }
        t
    };
    Ok((text, s.mismatches.len() + s.invalid.len()))
}
