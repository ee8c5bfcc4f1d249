//! `heddle bench`: golden-model throughput in thread instructions per second
//! on a mix of kernels (integer ALU, FP32, streaming memory, divergent loops,
//! shared-memory reduction with barriers). A benchmark, not a test: it
//! prints figures and checks only that every launch ran without a trap.

use crate::manifest;
use crate::progress::Status;
use heddle_hw::SmConfig;
use heddle_isa::asm::assemble;
use heddle_isa::Object;
use heddle_sim::device::Device;
use heddle_sim::launch::Launch;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The benchmark kernels (also assembled by the test suite).
pub const KERNELS: &str = include_str!("bench_kernels.hasm");

struct Case {
    kernel: &'static str,
    grid: u32,
    block: u32,
    /// Scalar u32 parameter after the buffers.
    iters: u32,
    /// Buffers of u32 elements, one element per thread.
    buffers: usize,
}

const CASES: &[Case] = &[
    Case { kernel: "alu", grid: 8, block: 256, iters: 200, buffers: 1 },
    Case { kernel: "fma", grid: 8, block: 256, iters: 200, buffers: 1 },
    Case { kernel: "stream", grid: 64, block: 256, iters: 0, buffers: 3 },
    Case { kernel: "diverge", grid: 8, block: 256, iters: 64, buffers: 1 },
    Case { kernel: "reduce", grid: 32, block: 256, iters: 0, buffers: 2 },
];

/// Runs each case for about `seconds`; returns the report.
pub fn run(seconds: f64, status: &Status) -> Result<String, String> {
    let obj = assemble("bench_kernels.hasm", KERNELS).map_err(|d| d.to_string())?;
    let mut out = String::new();
    let _ = writeln!(out, "golden model, `default` SM config (warp 32), one core");
    let _ = writeln!(out, "{:<10} {:>14} {:>10} {:>16}", "kernel", "thread instr", "seconds", "thread instr/s");
    let (mut all_instr, mut all_time) = (0u64, 0f64);
    let mut log_sum = 0f64;
    for (i, case) in CASES.iter().enumerate() {
        status.say(format!("golden benchmark: {} ({} of {})", case.kernel, i + 1, CASES.len()));
        let (mut dev, launch) =
            bench_launch(&SmConfig::default_config(), &obj, case.kernel, [case.grid, case.block], case.buffers, case.iters)?;
        let (mut instr, start) = (0u64, Instant::now());
        loop {
            let o = dev.launch(&launch).map_err(|e| e.to_string())?;
            if let Some(t) = o.trap {
                return Err(format!("benchmark kernel {} trapped: {t}", case.kernel));
            }
            instr += o.stats.thread_instructions;
            if start.elapsed().as_secs_f64() >= seconds {
                break;
            }
        }
        let t = start.elapsed().as_secs_f64();
        let rate = instr as f64 / t;
        let _ = writeln!(out, "{:<10} {:>14} {:>10.3} {:>16.3e}", case.kernel, instr, t, rate);
        all_instr += instr;
        all_time += t;
        log_sum += rate.ln();
    }
    let _ = writeln!(out, "{:<10} {:>14} {:>10.3} {:>16.3e}", "total", all_instr, all_time, all_instr as f64 / all_time);
    let _ = writeln!(out, "geometric mean {:.3e} thread instructions/s", (log_sum / CASES.len() as f64).exp());
    Ok(out)
}

/// A fresh device and a benchmark kernel's launch on it: `buffers` global
/// buffers of one u32 per thread, each holding a hash of the thread index,
/// then the scalar `iters`.
fn bench_launch(
    cfg: &SmConfig,
    obj: &Object,
    kernel: &str,
    [grid, block]: [u32; 2],
    buffers: usize,
    iters: u32,
) -> Result<(Device, Launch), String> {
    let mut dev = Device::new(cfg.clone(), obj.clone()).map_err(|e| e.to_string())?;
    let threads = grid * block;
    let mut params = vec![];
    for b in 0..buffers {
        let p = dev.alloc(threads * 4).map_err(|e| e.to_string())?;
        let init: Vec<u8> = (0..threads).flat_map(|i| (i.wrapping_mul(2654435761).wrapping_add(b as u32)).to_le_bytes()).collect();
        dev.write(p, &init).map_err(|e| e.to_string())?;
        params.extend_from_slice(&p.to_le_bytes());
    }
    params.extend_from_slice(&iters.to_le_bytes());
    let k = obj.kernel(kernel).ok_or(format!("no kernel {kernel}"))?;
    params.resize(k.param_bytes as usize, 0);
    Ok((dev, Launch { kernel: kernel.into(), grid: [grid, 1, 1], block: [block, 1, 1], params, dynamic_shared: 0 }))
}

/// RTL workloads: (kernel, grid, block, iters) per configuration (`tiny`
/// caps the block at its 32 threads and has no FP32 unit, so no `fma`).
const RTL_CASES: &[(&str, u32, u32, u32)] =
    &[("alu", 1, 256, 20), ("fma", 1, 256, 20), ("istream", 2, 256, 0), ("diverge", 1, 256, 8), ("reduce", 2, 256, 0)];

const RTL_HEADER: &str = "config   kernel                  block    cycles  seconds    cycles/s     IPC lane use  bank conflicts";

/// One RTL launch's figures: cycles, wall-clock seconds, warp and thread
/// instructions, lanes, shared-memory bank-conflict cycles.
struct RtlRun {
    cycles: u64,
    secs: f64,
    warp: u64,
    thread: u64,
    lanes: u32,
    conflicts: u64,
}

fn rtl_row(out: &mut String, config: &str, kernel: &str, block: u32, r: &RtlRun) {
    let c = r.cycles.max(1) as f64;
    let _ = writeln!(
        out,
        "{config:<8} {kernel:<22} {block:>6} {:>9} {:>8.3} {:>11.0} {:>7.3} {:>8.3} {:>15}",
        r.cycles,
        r.secs,
        c / r.secs,
        r.warp as f64 / c,
        r.thread as f64 / c / r.lanes as f64,
        r.conflicts
    );
}

/// `heddle bench --rtl --corpus PATH`: every launch manifest under PATH (a
/// case directory, or a directory of them) on the RTL for `tiny` and
/// `default`: cycles per second, IPC, lane utilisation and shared-memory
/// bank conflicts per kernel. A case
/// a configuration cannot run (too few threads or registers, a missing
/// unit) prints why.
pub fn run_rtl_corpus(path: &Path, mem_latency: Option<u32>, status: &Status) -> Result<String, String> {
    let cases = manifests(path)?;
    let latency = mem_latency.map_or(String::new(), |n| format!(", memory latency {n} cycles"));
    let mut out = format!("RTL (rust-hdl, simulate() driven by hand), one core, corpus {}{latency}\n{RTL_HEADER}\n", path.display());
    for (name, cfg) in [("tiny", SmConfig::tiny()), ("default", SmConfig::default_config())] {
        for (i, case) in cases.iter().enumerate() {
            let kernel = case.parent().and_then(|d| d.file_name()).map_or("?".into(), |n| n.to_string_lossy().to_string());
            status.say(format!("RTL benchmark on {name}: {kernel} ({} of {})", i + 1, cases.len()));
            let mut opt = engine_options(heddle_sim::Engine::Rtl, &cfg)?;
            opt.rtl.mem_latency = mem_latency;
            let start = Instant::now();
            let r = manifest::run(case, &opt);
            let secs = start.elapsed().as_secs_f64();
            match r {
                Ok(r) if r.code == 0 => {
                    let block = block_threads(case).unwrap_or(0);
                    let run = RtlRun {
                        cycles: r.cycles.unwrap_or(0),
                        secs,
                        warp: r.warp_instructions,
                        thread: r.thread_instructions,
                        lanes: cfg.lanes,
                        conflicts: r.bank_conflicts.unwrap_or(0),
                    };
                    rtl_row(&mut out, name, &kernel, block, &run)
                }
                Ok(r) => {
                    let why = r.text.lines().find(|l| l.contains("trap") || l.contains("FAIL")).unwrap_or("failed").trim().to_string();
                    let _ = writeln!(out, "{name:<8} {kernel:<22} n/a: {why}");
                }
                Err(e) => {
                    let _ = writeln!(out, "{name:<8} {kernel:<22} n/a: {}", e.lines().next().unwrap_or(""));
                }
            }
        }
    }
    Ok(out)
}

/// The launch manifests under `path`: its own `case.json`, or those of the
/// directories in it, sorted.
fn manifests(path: &Path) -> Result<Vec<PathBuf>, String> {
    let mut cases: Vec<PathBuf> = if path.join("case.json").is_file() {
        vec![path.join("case.json")]
    } else {
        std::fs::read_dir(path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .filter_map(|e| Some(e.ok()?.path().join("case.json")))
            .filter(|p| p.is_file())
            .collect()
    };
    cases.sort();
    Ok(cases)
}

/// Options that run a manifest on `engine` for `cfg`, quietly.
fn engine_options(engine: heddle_sim::Engine, cfg: &SmConfig) -> Result<manifest::Options, String> {
    Ok(manifest::Options {
        engine,
        ptx_variant: None,
        dump: None,
        json: false,
        config: cfg.clone(),
        compile: crate::cli::compile_options(cfg, None)?,
        rtl: Default::default(),
        trace: false,
        limits: Default::default(),
        progress: None,
        pictures: Default::default(),
    })
}

/// `heddle bench --ptx`: the PTX reference interpreter's speed on every
/// launch manifest under `path`, in thread instructions per second. Each
/// case is run again (parse, check, prepare, interpret, compare) until its
/// runs have taken `seconds`; every run must pass.
pub fn run_ptx_corpus(path: &Path, seconds: f64, status: &Status) -> Result<String, String> {
    let cases = manifests(path)?;
    let opt = engine_options(heddle_sim::Engine::Ptx, &SmConfig::default_config())?;
    let mut out = format!(
        "PTX interpreter, one core, corpus {}; each run parses, prepares and interprets
",
        path.display()
    );
    let _ = writeln!(out, "{:<26} {:>6} {:>14} {:>10} {:>16}", "kernel", "runs", "thread instr", "seconds", "thread instr/s");
    let (mut all_instr, mut all_time, mut log_sum) = (0u64, 0f64, 0f64);
    for (i, case) in cases.iter().enumerate() {
        let kernel = case.parent().and_then(|d| d.file_name()).map_or("?".into(), |n| n.to_string_lossy().to_string());
        status.say(format!("PTX interpreter benchmark: {kernel} ({} of {})", i + 1, cases.len()));
        let (mut runs, mut instr, start) = (0u32, 0u64, Instant::now());
        while runs == 0 || start.elapsed().as_secs_f64() < seconds {
            let r = manifest::run(case, &opt)?;
            if r.code != 0 {
                return Err(format!("PTX interpreter benchmark {kernel}: the case failed:\n{}", r.text));
            }
            instr += r.thread_instructions;
            runs += 1;
        }
        let t = start.elapsed().as_secs_f64();
        let rate = instr as f64 / t;
        let _ = writeln!(out, "{kernel:<26} {runs:>6} {instr:>14} {t:>10.3} {rate:>16.3e}");
        all_instr += instr;
        all_time += t;
        log_sum += rate.ln();
    }
    let _ = writeln!(out, "{:<26} {:>6} {:>14} {:>10.3} {:>16.3e}", "total", "", all_instr, all_time, all_instr as f64 / all_time);
    let _ = writeln!(out, "geometric mean {:.3e} thread instructions/s", (log_sum / cases.len().max(1) as f64).exp());
    Ok(out)
}

/// Threads per CTA of a manifest.
fn block_threads(case: &Path) -> Option<u32> {
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(case).ok()?).ok()?;
    Some(v.get("block")?.as_array()?.iter().filter_map(|x| x.as_u64()).product::<u64>() as u32)
}

/// `heddle bench --rtl`: RTL simulation speed (cycles per second through
/// rust-hdl) and the SM's IPC and lane utilisation, per kernel, for the
/// `tiny` and `default` configurations. Each kernel is launched again, on a
/// fresh device, until the launches have taken `seconds` (one launch takes
/// a few hundredths of a second, too short to time alone); every launch
/// must take the same number of cycles.
pub fn run_rtl(seconds: f64, status: &Status) -> Result<String, String> {
    let obj = assemble("bench_kernels.hasm", KERNELS).map_err(|d| d.to_string())?;
    let mut out = String::new();
    let _ = writeln!(out, "RTL (rust-hdl, simulate() driven by hand), one core; cycles and seconds are per launch\n{RTL_HEADER}");
    for (name, cfg) in [("tiny", SmConfig::tiny()), ("default", SmConfig::default_config())] {
        for &(kernel, grid, block, iters) in RTL_CASES {
            if kernel == "fma" && !cfg.fp32 {
                continue;
            }
            let block = block.min(cfg.max_cta_threads());
            status.say(format!("RTL benchmark on {name}: {kernel}"));
            let (mut first, mut launches, mut secs) = (None::<RtlRun>, 0u32, 0f64);
            while secs < seconds || launches == 0 {
                let run =
                    rtl_launch(&cfg, &obj, kernel, [grid, block], iters).map_err(|e| format!("RTL benchmark {kernel} on {name}: {e}"))?;
                secs += run.secs;
                launches += 1;
                match &first {
                    None => first = Some(run),
                    Some(f) if f.cycles != run.cycles => {
                        return Err(format!(
                            "RTL benchmark {kernel} on {name}: launch {launches} took {} cycles, the first {}",
                            run.cycles, f.cycles
                        ))
                    }
                    Some(_) => {}
                }
            }
            let run = RtlRun { secs: secs / launches as f64, ..first.expect("at least one launch") };
            rtl_row(&mut out, name, kernel, block, &run);
        }
    }
    Ok(out)
}

/// `heddle bench --verilator`: simulation speed of the SM's Verilog under
/// Verilator beside the rust-hdl simulation's, on the built-in kernels of
/// `heddle bench --rtl`, `tiny` and `default`. Each engine repeats each
/// kernel until its launches have taken `seconds`; both must take the same
/// cycles. The Verilator models are built (or found in the cache) first.
pub fn run_verilator(seconds: f64, status: &Status) -> Result<String, String> {
    let obj = assemble("bench_kernels.hasm", KERNELS).map_err(|d| d.to_string())?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Verilator ({}) and rust-hdl, one core each; cycles per launch\nconfig   kernel                  block    cycles  rust-hdl cycles/s  verilator cycles/s  speedup",
        heddle_sim::verilator::verilator_version()?
    );
    let vl = heddle_sim::rtl::RtlOptions { verilator: true, ..Default::default() };
    for (name, cfg) in [("tiny", SmConfig::tiny()), ("default", SmConfig::default_config())] {
        status.say(format!("building the Verilator model of {name}"));
        heddle_sim::verilator::prepare(&cfg)?;
        for &(kernel, grid, block, iters) in RTL_CASES {
            if kernel == "fma" && !cfg.fp32 {
                continue;
            }
            let block = block.min(cfg.max_cta_threads());
            let mut rates = vec![];
            let mut cycles = None;
            for opts in [Default::default(), vl.clone()] {
                status.say(format!("Verilator benchmark on {name}: {kernel}"));
                let (mut launches, mut secs) = (0u32, 0f64);
                while secs < seconds || launches == 0 {
                    let run = engine_launch(&cfg, &obj, kernel, [grid, block], iters, &opts)
                        .map_err(|e| format!("Verilator benchmark {kernel} on {name}: {e}"))?;
                    secs += run.secs;
                    launches += 1;
                    if *cycles.get_or_insert(run.cycles) != run.cycles {
                        return Err(format!("Verilator benchmark {kernel} on {name}: {} cycles, not {cycles:?}", run.cycles));
                    }
                }
                rates.push(cycles.unwrap_or(0) as f64 * launches as f64 / secs.max(1e-9));
            }
            let _ = writeln!(
                out,
                "{name:<8} {kernel:<22} {block:>6} {:>9} {:>18.0} {:>19.0} {:>7.1}x",
                cycles.unwrap_or(0),
                rates[0],
                rates[1],
                rates[1] / rates[0]
            );
        }
    }
    Ok(out)
}

/// One launch of a benchmark kernel on a fresh device (`bench_launch`);
/// only the RTL launch itself is timed.
fn rtl_launch(cfg: &SmConfig, obj: &Object, kernel: &str, [grid, block]: [u32; 2], iters: u32) -> Result<RtlRun, String> {
    engine_launch(cfg, obj, kernel, [grid, block], iters, &Default::default())
}

/// [`rtl_launch`] with RTL options (the Verilator engine with `opts.verilator`).
fn engine_launch(
    cfg: &SmConfig,
    obj: &Object,
    kernel: &str,
    [grid, block]: [u32; 2],
    iters: u32,
    opts: &heddle_sim::rtl::RtlOptions,
) -> Result<RtlRun, String> {
    let buffers = obj.kernel(kernel).ok_or(format!("no kernel {kernel}"))?.params.len().saturating_sub(1).max(1);
    let (mut dev, launch) = bench_launch(cfg, obj, kernel, [grid, block], buffers, iters)?;
    let start = Instant::now();
    let r = dev.launch_rtl(&launch, opts, &mut heddle_sim::launch::NoTrace).map_err(|e| e.to_string())?;
    let secs = start.elapsed().as_secs_f64();
    if let Some(trap) = r.outcome.trap {
        return Err(format!("trapped: {trap}"));
    }
    let s = &r.outcome.stats;
    Ok(RtlRun {
        cycles: r.rtl.cycles,
        secs,
        warp: s.warp_instructions,
        thread: s.thread_instructions,
        lanes: cfg.lanes,
        conflicts: r.rtl.bank_conflicts,
    })
}
