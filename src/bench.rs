//! `heddle bench`: golden-model throughput in thread instructions per second
//! on a mix of kernels (integer ALU, FP32, streaming memory, divergent loops,
//! shared-memory reduction with barriers). A benchmark, not a test: it
//! prints figures and checks only that every launch ran without a trap.

use heddle_hw::SmConfig;
use heddle_isa::asm::assemble;
use heddle_sim::device::{Device, Launch};
use std::fmt::Write;
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
pub fn run(seconds: f64) -> Result<String, String> {
    let obj = assemble("bench_kernels.hasm", KERNELS).map_err(|d| d.to_string())?;
    let mut out = String::new();
    let _ = writeln!(out, "golden model, `default` SM config (warp 32), one core");
    let _ = writeln!(out, "{:<10} {:>14} {:>10} {:>16}", "kernel", "thread instr", "seconds", "thread instr/s");
    let (mut all_instr, mut all_time) = (0u64, 0f64);
    let mut log_sum = 0f64;
    for case in CASES {
        let mut dev = Device::new(SmConfig::default_config(), obj.clone()).map_err(|e| e.to_string())?;
        let threads = case.grid * case.block;
        let mut params = vec![];
        for b in 0..case.buffers {
            let p = dev.alloc(threads * 4).map_err(|e| e.to_string())?;
            let init: Vec<u8> = (0..threads).flat_map(|i| (i.wrapping_mul(2654435761).wrapping_add(b as u32)).to_le_bytes()).collect();
            dev.write(p, &init).map_err(|e| e.to_string())?;
            params.extend_from_slice(&p.to_le_bytes());
        }
        params.extend_from_slice(&case.iters.to_le_bytes());
        let kernel = obj.kernel(case.kernel).ok_or(format!("no kernel {}", case.kernel))?;
        params.resize(kernel.param_bytes as usize, 0);
        let launch = Launch { kernel: case.kernel.into(), grid: [case.grid, 1, 1], block: [case.block, 1, 1], params, dynamic_shared: 0 };
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

/// RTL workloads: (kernel, grid, block, iters) per configuration (`tiny`
/// caps the block at its 32 threads and has no FP32 unit, so no `fma`).
const RTL_CASES: &[(&str, u32, u32, u32)] =
    &[("alu", 1, 256, 20), ("fma", 1, 256, 20), ("istream", 2, 256, 0), ("diverge", 1, 256, 8), ("reduce", 2, 256, 0)];

/// `heddle bench --rtl`: RTL simulation speed (cycles per second through
/// rust-hdl) and the SM's IPC and lane utilisation, per kernel, for the
/// `tiny` and `default` configurations.
pub fn run_rtl() -> Result<String, String> {
    let obj = assemble("bench_kernels.hasm", KERNELS).map_err(|d| d.to_string())?;
    let mut out = String::new();
    let _ = writeln!(out, "RTL (rust-hdl, simulate() driven by hand), one core");
    let _ = writeln!(
        out,
        "{:<8} {:<8} {:>6} {:>9} {:>8} {:>11} {:>7} {:>8}",
        "config", "kernel", "block", "cycles", "seconds", "cycles/s", "IPC", "lane use"
    );
    for (name, cfg) in [("tiny", SmConfig::tiny()), ("default", SmConfig::default_config())] {
        for &(kernel, grid, block, iters) in RTL_CASES {
            if kernel == "fma" && !cfg.fp32 {
                continue;
            }
            let block = block.min(cfg.max_cta_threads());
            let mut dev = Device::new(cfg.clone(), obj.clone()).map_err(|e| e.to_string())?;
            let threads = grid * block;
            let k = obj.kernel(kernel).ok_or(format!("no kernel {kernel}"))?;
            let mut params = vec![];
            for b in 0..k.params.len().saturating_sub(1).max(1) {
                let p = dev.alloc(threads * 4).map_err(|e| e.to_string())?;
                let init: Vec<u8> = (0..threads).flat_map(|i| (i.wrapping_mul(2654435761).wrapping_add(b as u32)).to_le_bytes()).collect();
                dev.write(p, &init).map_err(|e| e.to_string())?;
                params.extend_from_slice(&p.to_le_bytes());
            }
            params.extend_from_slice(&iters.to_le_bytes());
            params.resize(k.param_bytes as usize, 0);
            let launch = Launch { kernel: kernel.into(), grid: [grid, 1, 1], block: [block, 1, 1], params, dynamic_shared: 0 };
            let start = Instant::now();
            let r = dev.launch_rtl(&launch, &Default::default(), &mut heddle_sim::device::NoTrace).map_err(|e| e.to_string())?;
            let t = start.elapsed().as_secs_f64();
            if let Some(trap) = r.outcome.trap {
                return Err(format!("RTL benchmark {kernel} on {name} trapped: {trap}"));
            }
            let c = r.rtl.cycles as f64;
            let _ = writeln!(
                out,
                "{name:<8} {kernel:<8} {block:>6} {:>9} {t:>8.2} {:>11.0} {:>7.3} {:>8.3}",
                r.rtl.cycles,
                c / t,
                r.outcome.stats.warp_instructions as f64 / c,
                r.outcome.stats.thread_instructions as f64 / c / cfg.lanes as f64
            );
        }
    }
    Ok(out)
}
