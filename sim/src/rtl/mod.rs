//! The RTL engine: compiled kernels on the rust-hdl streaming
//! multiprocessor (`heddle_hw::sm::Sm`), simulated cycle by cycle.
//!
//! The engine is the SM's test bench and its host: it decides how many
//! CTAs the SM holds at once ([`Residency`]), loads the code and launch
//! registers through the host interface, answers the SM's Wishbone bus
//! ([`wishbone::Slave`], over [`bus::Bus`]) and its system calls, watches the register-file write ports and the retire port
//! to build [`Retire`] records, optionally writes a VCD ([`vcd`]), and in
//! lockstep mode steps the golden model ([`crate::golden::Stepper`]) on
//! every retired warp instruction, in the RTL's order, and stops at the
//! first difference.
//!
//! The loop is written once over [`ports::SmPorts`]: the rust-hdl [`Sm`]
//! (`--engine rtl`) and the Verilator model of its exported Verilog
//! (`--engine verilator`, [`crate::verilator`]) both implement it, so the
//! two engines share the memory model, the checks, system calls, lockstep
//! and trap decoding, and must agree cycle for cycle.

pub mod bus;
pub mod ports;
pub mod vcd;
pub mod wishbone;

use crate::device::Device;
use crate::golden::{bad_register, Stepper, BARRIERS};
use crate::launch::{Cause, Cycle, Launch, LaunchError, Outcome, Tracer};
use crate::retire::{MemAccess, PredWrite, RegWrite, Retire};
use crate::stats::Stats;
use crate::trap::{Trap, TrapKind};
use bus::{Bus, Request};
use heddle_hw::sm::{host, trap, LaneWrite, Sm, SmState};
use heddle_hw::SmConfig;
use heddle_isa::object::Kernel;
use heddle_isa::sreg::SReg;
use heddle_isa::{Inst, Opcode};
use ports::{SmPorts, I, L, O};
use rust_hdl::prelude::*;
use std::io::BufWriter;

/// How to run the RTL.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RtlOptions {
    pub vcd: Option<vcd::VcdOptions>,
    /// Run the SM's exported Verilog under Verilator (`crate::verilator`)
    /// instead of the rust-hdl SM.
    pub verilator: bool,
    /// Compare every retired instruction with the golden model.
    pub lockstep: bool,
    /// Wait states: the memory stalls (`STALL`) and delays its answers at
    /// random, seeded with this, instead of answering every transfer in the
    /// next cycle. Results are the same; cycles are not.
    pub bus_waits: Option<u64>,
    /// The memory's latency: cycles from a transfer to its answer, at the
    /// least (`None`: 1, the next cycle). The memory is pipelined: it takes
    /// a transfer in every cycle whatever its latency.
    pub mem_latency: Option<u32>,
    /// Do not replay a lockstep difference for a VCD window (the fuzzer's
    /// shrinker runs many failing cases and needs only the report).
    pub no_mismatch_vcd: bool,
    /// Test hook: flip bit 0 of the first register write of this retired
    /// instruction (counted from 0) before the comparison, to exercise the
    /// mismatch report.
    #[doc(hidden)]
    pub corrupt_retire: Option<u64>,
}

/// Cycles of VCD kept before and after a lockstep difference.
pub const MISMATCH_WINDOW: (u64, u64) = (200, 20);

/// RTL statistics beyond [`Stats`]: where the cycles went.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct RtlStats {
    pub cycles: u64,
    /// Cycles spent in the lanes' execute beats.
    pub exec_cycles: u64,
    /// Cycles spent on memory instructions (a beat of lanes per request;
    /// system calls a thread per request).
    pub mem_cycles: u64,
    /// Wishbone transfers (each one bus word; see `heddle_hw::coalesce`).
    pub bus_transactions: u64,
    /// Cycles shared-memory loads and stores waited on a bank another lane
    /// of the same beat held.
    pub bank_conflicts: u64,
    /// Functional coverage: the deepest reconvergence stack (entries), the
    /// CTA slots used, transfers the bus stalled, `ERR` answers (each
    /// followed by the SM's lane-at-a-time retry), and loads or stores
    /// whose beats went without waiting and started again after one.
    pub max_stack_depth: u64,
    pub cta_slots_used: u64,
    pub bus_stalls: u64,
    pub bus_errors: u64,
    pub mem_redos: u64,
    /// Cycles spent on branch, call, return and exit stack commands.
    pub ctl_cycles: u64,
    /// Cycles spent picking a warp, popping its stack and reading predicates.
    pub front_cycles: u64,
    pub lanes: u32,
}

/// The SM's cycle counters, to tell which one counted a cycle.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Counters([u64; 6]);

impl Counters {
    fn read<P: SmPorts>(sm: &P) -> Counters {
        Counters([sm.o(O::PerfExec), sm.o(O::PerfMem), sm.o(O::PerfConflicts), sm.o(O::PerfCtl), sm.o(O::PerfFront), sm.o(O::PerfBarrier)])
    }

    /// The cause of the cycle spent in `state` between two readings. (The
    /// SM counts a barrier's arrive, check and release as control cycles:
    /// here they are the barrier's.)
    fn cause(self, after: Counters, state: SmState) -> Cause {
        let d = |i: usize| after.0[i] != self.0[i];
        let barrier = matches!(state, SmState::BarArrive | SmState::BarCheck | SmState::BarRelease | SmState::BarWb);
        if barrier && !d(0) && !d(1) && !d(2) {
            Cause::Barrier
        } else if d(2) {
            Cause::BankConflict
        } else if d(0) {
            Cause::Exec
        } else if d(1) {
            Cause::Memory
        } else if d(3) {
            Cause::Control
        } else if d(4) {
            Cause::FrontEnd
        } else if d(5) {
            Cause::Barrier
        } else {
            match state {
                SmState::InitWarp | SmState::InitThread | SmState::NextCta => Cause::CtaSetup,
                _ => Cause::Other,
            }
        }
    }
}

/// A launch's outcome on the RTL.
pub struct RtlOutcome {
    pub outcome: Outcome,
    pub rtl: RtlStats,
    /// Retired warp instructions compared with the golden model (lockstep).
    pub compared: u64,
}

impl std::fmt::Display for RtlOutcome {
    /// The RTL's figures: cycles, IPC, lane utilisation, bus and bank
    /// conflicts, cycles by cause, and the lockstep comparison if it ran.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (s, st) = (&self.rtl, &self.outcome.stats);
        let cycles = s.cycles.max(1) as f64;
        writeln!(
            f,
            "rtl: {} cycles, IPC {:.3} warp instructions/cycle, lane utilisation {:.3}, {} bus transactions, {} shared-memory bank-conflict cycles",
            s.cycles,
            st.warp_instructions as f64 / cycles,
            st.thread_instructions as f64 / cycles / s.lanes as f64,
            s.bus_transactions,
            s.bank_conflicts
        )?;
        writeln!(f, "rtl cycles: exec {} memory {} control {} front end {}", s.exec_cycles, s.mem_cycles, s.ctl_cycles, s.front_cycles)?;
        if self.compared > 0 {
            writeln!(f, "lockstep: {} warp instructions identical to the golden model", self.compared)?;
        }
        Ok(())
    }
}

fn host_write<P: SmPorts>(sm: &mut P, reg: u64, value: u32) -> Result<(), String> {
    sm.set(I::HostWe, 1);
    sm.set(I::HostAddr, reg);
    sm.set(I::HostWdata, value as u64);
    sm.settle()?;
    sm.tick()?;
    sm.set(I::HostWe, 0);
    sm.settle()
}

/// One write through the SM's host interface: an instruction word (and
/// whether it names a register beyond the kernel's count), or a launch
/// register (`heddle_hw::sm::host`).
#[derive(Debug, Clone, Copy)]
pub enum HostWrite {
    Code { addr: u32, word: u64, bad: bool },
    Reg { reg: u64, value: u32 },
}

/// How many CTAs of a launch the SM holds at once, and where: the driver's
/// occupancy decision, written to the SM as `CTA_SLOTS` and `SLOT_SHIFT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Residency {
    /// CTA slots (resident CTAs).
    pub slots: u32,
    /// log2 of the warp slots per CTA slot (the CTA's warps, rounded up to a power of two).
    pub shift: u32,
    /// Shared-memory bytes per CTA slot (the CTA's, rounded up to whole rows of banks).
    pub shared_stride: u32,
}

impl Residency {
    /// As many CTAs as `SmConfig::ctas`, the warp slots and shared memory
    /// allow, and no more than the grid has.
    pub fn of(cfg: &SmConfig, k: &Kernel, l: &Launch) -> Residency {
        let threads = l.block.iter().product::<u32>();
        let shift = threads.div_ceil(cfg.warp_size).max(1).next_power_of_two().trailing_zeros();
        let row = 4 * cfg.shared_banks;
        let shared_stride = (k.shared_bytes + l.dynamic_shared).div_ceil(row) * row;
        let grid = l.grid.iter().map(|&g| g as u64).product::<u64>().min(u32::MAX as u64) as u32;
        let by_shared = cfg.shared_bytes.checked_div(shared_stride).unwrap_or(u32::MAX);
        let slots = cfg.ctas.min(cfg.warps >> shift).min(by_shared).min(grid).max(1);
        Residency { slots, shift, shared_stride }
    }

    /// The CTA slot a warp slot belongs to, and the warp's index in its CTA.
    pub fn split(&self, warp: u32) -> (usize, u32) {
        ((warp >> self.shift) as usize, warp & ((1 << self.shift) - 1))
    }

    /// The SM's thread slots (`warp << log2(warp size) | lane`) of CTA slot `slot`.
    pub fn threads(&self, slot: usize, warp_size: u32) -> std::ops::Range<usize> {
        let per = (warp_size << self.shift) as usize;
        slot * per..(slot + 1) * per
    }
}

/// What the host writes to launch `l` of kernel `k`: the code, then the
/// launch registers, `START` last.
pub fn host_script(dev: &Device, k: &Kernel, l: &Launch) -> Vec<HostWrite> {
    let threads = l.block.iter().product::<u32>();
    let res = Residency::of(&dev.config, k, l);
    let code = dev.module.code.iter().enumerate().map(|(i, &w)| HostWrite::Code {
        addr: i as u32,
        word: w,
        bad: Inst::decode(w).ok().and_then(|inst| bad_register(&inst, k.regs as u32)).is_some(),
    });
    let regs = [
        (host::ENTRY, k.entry),
        (host::GRID_X, l.grid[0]),
        (host::GRID_Y, l.grid[1]),
        (host::GRID_Z, l.grid[2]),
        (host::BLOCK_X, l.block[0]),
        (host::BLOCK_Y, l.block[1]),
        (host::BLOCK_Z, l.block[2]),
        (host::NTHREADS, threads),
        (host::NWARPS, threads.div_ceil(dev.config.warp_size)),
        (host::DYN_SMEM, l.dynamic_shared),
        (host::TOTAL_SMEM, k.shared_bytes + l.dynamic_shared),
        (host::GRIDID, dev.launches),
        (host::CODE_LEN, dev.module.code.len() as u32),
        (host::CTA_SLOTS, res.slots),
        (host::SLOT_SHIFT, res.shift),
        (host::START, 1),
    ];
    code.chain(regs.into_iter().map(|(reg, value)| HostWrite::Reg { reg, value })).collect()
}

/// The rust-hdl SM of `cfg`, connected and settled.
pub fn rust_hdl_sm(cfg: &SmConfig) -> Result<Sm, String> {
    let mut sm = Sm::new(cfg).map_err(|e| e.to_string())?;
    sm.connect_all();
    sm.settle()?;
    Ok(sm)
}

/// Runs a checked launch of `k` on the rust-hdl RTL.
pub fn run<T: Tracer>(dev: &mut Device, k: &Kernel, l: &Launch, opts: &RtlOptions, tracer: &mut T) -> Result<RtlOutcome, LaunchError> {
    run_on(&rust_hdl_sm, dev, k, l, opts, tracer)
}

/// Runs a checked launch of `k` on an SM that `new_sm` makes (the rust-hdl
/// one or the Verilator model of its Verilog). A lockstep difference is
/// replayed on the rust-hdl SM for a VCD around it.
pub fn run_on<T: Tracer, P: SmPorts>(
    new_sm: &impl Fn(&SmConfig) -> Result<P, String>,
    dev: &mut Device,
    k: &Kernel,
    l: &Launch,
    opts: &RtlOptions,
    tracer: &mut T,
) -> Result<RtlOutcome, LaunchError> {
    let cfg = dev.config.clone();
    let code = dev.module.code.clone();
    let res = |what: &'static str, need: u64, have: u64| {
        if need > have {
            Err(LaunchError::Resources { kernel: k.name.clone(), what, need, have })
        } else {
            Ok(())
        }
    };
    res("instruction words", code.len() as u64, cfg.imem_words as u64)?;
    res("threads in x (tid fields)", l.block[0] as u64, 1024)?;
    res("threads in y (tid fields)", l.block[1] as u64, 1024)?;
    res("threads in z (tid fields)", l.block[2] as u64, 64)?;
    if opts.lockstep {
        let before = dev.global.clone();
        let mut reference =
            // The reference has no limits of its own: it steps as the RTL retires.
            Device {
                global: before.clone(),
                module: dev.module.clone(),
                ptx: None,
                config: cfg.clone(),
                launches: dev.launches,
                limits: Default::default(),
                progress: None,
            };
        let (kk, ll) = (k.clone(), l.clone());
        let result = Stepper::with(&mut reference, &kk, &ll, |s| simulate_launch(new_sm, dev, k, l, &cfg, opts, tracer, Some(s)));
        return match result {
            // The simulation is deterministic: replay it to write the VCD window around the difference.
            Err(Failure::Mismatch { cycle, report }) if opts.vcd.is_none() && !opts.no_mismatch_vcd => {
                dev.global = before;
                let path = std::env::temp_dir().join(format!("heddle-lockstep-{}-{}.vcd", k.name, std::process::id()));
                let (from, to) = (cycle.saturating_sub(MISMATCH_WINDOW.0), cycle + MISMATCH_WINDOW.1);
                let replay = RtlOptions {
                    vcd: Some(vcd::VcdOptions { path: path.clone(), from, to, scopes: vec![] }),
                    lockstep: false,
                    verilator: false,
                    bus_waits: opts.bus_waits,
                    mem_latency: opts.mem_latency,
                    no_mismatch_vcd: true,
                    corrupt_retire: None,
                };
                let written = match simulate_launch(&rust_hdl_sm, dev, k, l, &cfg, &replay, &mut crate::launch::NoTrace, None) {
                    Ok(_) => format!("; the VCD {} covers cycles {from}..{to}", path.display()),
                    Err(e) => format!("; replaying it for a VCD failed: {}", e.text()),
                };
                Err(LaunchError::Rtl(format!("{report}{written}")))
            }
            other => other.map_err(|e| LaunchError::Rtl(e.text())),
        };
    }
    simulate_launch(new_sm, dev, k, l, &cfg, opts, tracer, None).map_err(|e| LaunchError::Rtl(e.text()))
}

/// Why a simulation stopped short.
enum Failure {
    /// Lockstep found a difference at this cycle.
    Mismatch {
        cycle: u64,
        report: String,
    },
    Other(String),
}

impl Failure {
    fn text(self) -> String {
        match self {
            Failure::Mismatch { report, .. } | Failure::Other(report) => report,
        }
    }
}

impl From<String> for Failure {
    fn from(s: String) -> Failure {
        Failure::Other(s)
    }
}

/// The retire record being assembled for the instruction in flight.
#[derive(Default)]
struct Pending {
    regs: Vec<RegWrite>,
    mem: Vec<MemAccess>,
}

fn simulate_launch<T: Tracer, P: SmPorts>(
    new_sm: &impl Fn(&SmConfig) -> Result<P, String>,
    dev: &mut Device,
    k: &Kernel,
    l: &Launch,
    cfg: &SmConfig,
    opts: &RtlOptions,
    tracer: &mut T,
    mut gold: Option<&mut Stepper<'_>>,
) -> Result<RtlOutcome, Failure> {
    let res = Residency::of(cfg, k, l);
    let code = dev.module.code.clone();
    let mut sm = new_sm(cfg)?;
    let mut vcd = match (&opts.vcd, sm.rust_hdl()) {
        (Some(o), Some(hdl)) => {
            vcd::check(hdl, o)?;
            let f = std::fs::File::create(&o.path).map_err(|e| format!("cannot write {}: {e}", o.path.display()))?;
            Some(vcd::VcdWriter::new(BufWriter::new(f), hdl, o.clone()).map_err(|e| e.to_string())?)
        }
        (Some(_), None) => return Err("VCD traces are written by the rust-hdl engine (--engine rtl)".to_string().into()),
        (None, _) => None,
    };
    // Code and launch registers through the host interface, one write per cycle.
    for w in host_script(dev, k, l) {
        match w {
            HostWrite::Code { addr, word, bad } => {
                sm.set(I::ImemWe, true as u64);
                sm.set(I::ImemAddr, addr as u64);
                sm.set(I::ImemData, word);
                sm.set(I::ImemBad, bad as u64);
                sm.settle()?;
                sm.tick()?;
                sm.set(I::ImemWe, false as u64);
            }
            HostWrite::Reg { reg, value } => host_write(&mut sm, reg, value)?,
        }
    }
    let start_cycle = sm.o(O::PerfCycles);
    let mut bus = Bus {
        global: &mut dev.global,
        consts: &dev.module.const_data,
        params: &l.params,
        shared: vec![0; (k.shared_bytes + l.dynamic_shared) as usize],
        local: vec![0; res.threads(res.slots as usize, cfg.warp_size).start * k.local_bytes as usize],
        local_bytes: k.local_bytes,
    };
    let dev_code = code.clone();
    let mut stats = Stats::default();
    let mut pending = Pending::default();
    let mut mem_redos = 0u64;
    let mut fault: Option<(TrapKind, Option<u64>, u32)> = None;
    let mut stdout = vec![];
    let mut last_pc = vec![0u32; cfg.warps as usize];
    let mut compared = 0u64;
    // The CTA each slot runs.
    let mut slot_cta = vec![0u32; res.slots as usize];
    let max_cycles = dev.limits.max_cycles.unwrap_or(cfg.instruction_budget.saturating_mul(64).max(1 << 20));
    let mut watch = crate::limits::Watch::new(&dev.limits, dev.progress.clone());
    let ctas = l.grid.iter().map(|&v| v as u64).product::<u64>();
    // A limit the host imposes (cycles, time): it stops the simulation as a trap.
    let mut limit: Option<TrapKind> = None;
    let mut last_warp = 0u32;
    let mut ctas_started = 0u64;
    let mut slots_used = 0u64;
    let mut slave = wishbone::Slave::new(opts.bus_waits, opts.mem_latency.unwrap_or(1));
    if slave.respond(&mut sm) {
        sm.settle()?;
    }
    // The last cycle's sample, waiting for the counters to say what it was.
    let mut sampled: Option<(Cycle, SmState, Counters)> = None;
    let trap = loop {
        let cycle = sm.o(O::PerfCycles);
        if cycle - start_cycle >= max_cycles {
            limit = Some(TrapKind::CycleLimit { cycles: max_cycles });
            break trap::NONE;
        }
        let progress = || crate::limits::progress(sm.o(O::PerfIssued), Some(cycle - start_cycle), ctas_started, ctas);
        if let Err(kind) = watch.poll(progress) {
            limit = Some(kind);
            break trap::NONE;
        }
        if T::CYCLES {
            let now = Counters::read(&sm);
            if let Some((mut c, state, before)) = sampled.take() {
                c.cause = before.cause(now, state);
                tracer.cycle(&c);
            }
            let (warp, pc) = sm.in_flight();
            let c = Cycle {
                cycle: cycle - start_cycle,
                cause: Cause::Other,
                warp,
                pc,
                waiting: sm.o(O::Waiting),
                cta_start: (sm.o(O::CtaStart) != 0).then(|| (sm.o(O::CtaSlot) as u32, sm.o(O::CtaLinear) as u32)),
                slot_shift: res.shift,
            };
            sampled = Some((c, sm.state(), now));
        }
        if sm.o(O::CtaStart) != 0 {
            let (slot, cta) = (sm.o(O::CtaSlot) as usize, sm.o(O::CtaLinear) as u32);
            ctas_started += 1;
            slots_used |= 1u64 << (slot & 63);
            *slot_cta.get_mut(slot).ok_or_else(|| format!("the RTL started a CTA in slot {slot} of {}", res.slots))? = cta;
            bus.start_cta(res.threads(slot, cfg.warp_size));
            if let Some(g) = gold.as_deref_mut() {
                g.start_cta(slot, cta);
            }
        }
        if sm.o(O::MemReq) != 0 {
            // A system call, the only per-thread request.
            let (w, h, c) = (sm.o(O::MemWdata), sm.o(O::MemWdataHi), sm.o(O::MemCdata));
            let args = [w as u32, (w >> 32) as u32, h as u32, (h >> 32) as u32, c as u32, (c >> 32) as u32, sm.o(O::MemXdata) as u32];
            let (call, thread) = (sm.o(O::MemAtomOp) as u32, sm.o(O::MemThread) as u32);
            let (slot, _) = res.split(thread >> cfg.warp_size.trailing_zeros());
            bus.shared = sm.shared_bytes(slot * res.shared_stride as usize, bus.shared.len());
            match bus.syscall(call, thread, &args, &mut stdout, &mut stats) {
                Ok(result) => {
                    sm.set(I::MemRdata, result);
                    sm.set(I::MemFault, false as u64);
                }
                Err((kind, addr)) => {
                    sm.set(I::MemFault, true as u64);
                    fault = Some((kind, addr, sm.o(O::MemLane) as u32));
                }
            }
            sm.settle()?;
        } else if sm.i(I::MemFault) != 0 {
            sm.set(I::MemFault, false as u64);
            sm.settle()?;
        }
        if sm.o(O::MemRedo) != 0 {
            // A load or store that went without waiting met an error and
            // starts again: what it reported so far is void.
            pending.regs.clear();
            pending.mem.clear();
            mem_redos += 1;
        }
        match slave.transfer(&sm, &mut bus, &mut stats) {
            Some(wishbone::Event::Atomic(access)) => pending.mem.push(access),
            Some(wishbone::Event::Fault((kind, addr), lane)) => fault = Some((kind, addr, lane)),
            None => {}
        }
        // Loads and stores done over the bus, and accesses done in shared memory: the SM's monitor.
        for (done, mask) in [(sm.o(O::BusDone) != 0, sm.o(O::BusMask)), (sm.o(O::SmemDone) != 0, sm.o(O::SmemMask))] {
            if !done {
                continue;
            }
            let mask = mask as u32;
            let (thread, lane) = (sm.o(O::MemThread) as u32, sm.o(O::MemLane) as u32);
            let kind = sm.o(O::MemKind);
            for l in (0..cfg.lanes as usize).filter(|&l| mask >> l & 1 == 1) {
                let (lo, hi) = if kind == heddle_hw::sm::mem::LOAD {
                    (sm.lane(L::Ldata, l), sm.lane(L::LdataHi, l))
                } else {
                    (sm.lane(L::Lwdata, l), sm.lane(L::LwdataHi, l))
                };
                let req = Request {
                    kind,
                    space: sm.o(O::MemSpace) as u32,
                    width: sm.o(O::MemWidth) as u32,
                    addr: (sm.lane(L::Laddr, l) as u32),
                    wdata: lo as u128 | (hi as u128) << 64,
                    cdata: 0,
                    atom_op: 0,
                    thread: thread + l as u32,
                    lane: lane + l as u32,
                };
                pending.mem.push(bus::monitored_access(&req, &mut stats));
            }
        }
        // A completed `barred` writes its result into the waiting warps' registers:
        // no instruction's retire record lists that (the golden model's neither);
        // nor does a CTA start that zeroes a warp's register words.
        let silent = matches!(sm.state(), SmState::BarWb | SmState::InitFill);
        for LaneWrite { thread, reg, value, .. } in sm.lane_writes(cfg).into_iter().filter(|_| !silent) {
            pending.regs.push(RegWrite { lane: thread as u8, reg: reg as u8, value });
        }
        if let (Some(v), Some(hdl)) = (vcd.as_mut(), sm.rust_hdl()) {
            v.sample(hdl, cycle - start_cycle).map_err(|e| e.to_string())?;
        }
        if sm.o(O::Retire) != 0 {
            let mut regs = std::mem::take(&mut pending.regs);
            regs.sort_by_key(|w| (w.lane, w.reg));
            let slot_warp = sm.o(O::RetWarp) as u32;
            let (slot, warp) = res.split(slot_warp);
            let r = Retire {
                seq: cycle - start_cycle,
                sm: 0,
                cta: slot_cta[slot],
                warp,
                pc: sm.o(O::RetPc) as u32,
                active: sm.o(O::RetActive),
                exec: sm.o(O::RetExec),
                regs,
                preds: if sm.o(O::RetPredWe) != 0 {
                    vec![PredWrite { pred: sm.o(O::RetPred) as u32 as u8, mask: sm.o(O::RetPredVal) }]
                } else {
                    vec![]
                },
                mem: {
                    // A beat's bus lanes come before its shared ones: lane order, as the golden model.
                    let mut mem = std::mem::take(&mut pending.mem);
                    mem.sort_by_key(|m| m.lane);
                    mem
                },
            };
            last_pc[slot_warp as usize] = r.pc;
            last_warp = slot_warp;
            if let Some(i) = dev_code.get(r.pc as usize).and_then(|&w| heddle_isa::Inst::decode(w).ok()) {
                stats.count_control(i.op, r.active, r.exec);
            }
            if let Some(g) = gold.as_deref_mut() {
                let mut r = r.clone();
                if opts.corrupt_retire == Some(compared) {
                    if let Some(w) = r.regs.first_mut() {
                        w.value ^= 1;
                    }
                }
                compare(g, slot, &r, &dev_code, opts).map_err(|report| Failure::Mismatch { cycle: r.seq, report })?;
                compared += 1;
            }
            if T::ON {
                tracer.retire(r);
            }
        }
        if sm.o(O::Done) != 0 {
            break sm.o(O::TrapCode);
        }
        // The slave answers with the edge.
        sm.tick_then(|sm| {
            slave.respond(sm);
        })?;
    };
    let cycles = sm.o(O::PerfCycles) - start_cycle;
    stats.warp_instructions = sm.o(O::PerfIssued);
    stats.thread_instructions = sm.o(O::PerfThreads);
    stats.cycles = Some(cycles);
    let rtl = RtlStats {
        cycles,
        exec_cycles: sm.o(O::PerfExec),
        mem_cycles: sm.o(O::PerfMem),
        ctl_cycles: sm.o(O::PerfCtl),
        front_cycles: sm.o(O::PerfFront),
        bus_transactions: sm.o(O::PerfTxn),
        bank_conflicts: sm.o(O::PerfConflicts),
        max_stack_depth: sm.o(O::PerfDepth),
        cta_slots_used: slots_used.count_ones() as u64,
        bus_stalls: slave.stalls,
        bus_errors: slave.errors,
        mem_redos,
        lanes: cfg.lanes,
    };
    let trap = if let Some(kind) = limit {
        // Where the SM last retired an instruction.
        let (slot, warp) = res.split(last_warp);
        let (gx, gy, cta) = (l.grid[0], l.grid[1], slot_cta.get(slot).copied().unwrap_or(0));
        let cta = [cta % gx, cta / gx % gy, cta / (gx * gy)];
        Some(Trap { kind, cta, warp, lane: None, pc: last_pc[last_warp as usize], addr: None })
    } else if trap == trap::NONE {
        None
    } else {
        let mut slot_warp = sm.o(O::TrapWarp) as u32;
        if trap == trap::DEADLOCK {
            slot_warp = sm.o(O::Waiting).trailing_zeros().min(cfg.warps - 1);
        }
        let (slot, warp) = res.split(slot_warp);
        let pc = sm.o(O::TrapPc) as u32;
        let exec = sm.exec_mask();
        let (gx, gy) = (l.grid[0], l.grid[1]);
        let cta = slot_cta.get(slot).copied().unwrap_or(0);
        let mut t = Trap { kind: TrapKind::UserTrap, cta: [cta % gx, cta / gx % gy, cta / (gx * gy)], warp, lane: None, pc, addr: None };
        t.kind = match trap {
            trap::BAD_PC => {
                TrapKind::InvalidInstruction { reason: format!("pc {pc} is outside the program ({} instructions)", dev.module.code.len()) }
            }
            trap::UNIMPLEMENTED => match dev.module.code.get(pc as usize).and_then(|&w| Inst::decode(w).ok()) {
                Some(i) => match heddle_hw::decode::missing_unit(&i, cfg.units()) {
                    Some(unit) => TrapKind::not_built(&i, unit),
                    None => TrapKind::Unimplemented { what: format!("`{}` in the RTL SM", heddle_isa::asm::print::opname(&i)) },
                },
                None => TrapKind::Unimplemented { what: format!("the instruction at pc {pc} in the RTL SM") },
            },
            trap::STACK_OVERFLOW => TrapKind::ReconvergenceStackOverflow { depth: cfg.stack_depth },
            trap::DEADLOCK => {
                t.pc = last_pc[slot_warp as usize];
                TrapKind::BarrierDeadlock
            }
            trap::RUNAWAY => TrapKind::Runaway { budget: cfg.instruction_budget },
            trap::USER | trap::BREAKPOINT => {
                t.lane = Some(exec.trailing_zeros());
                if trap == trap::USER {
                    TrapKind::UserTrap
                } else {
                    TrapKind::Breakpoint
                }
            }
            trap::MEMORY => {
                let (kind, addr, lane) = fault.clone().ok_or_else(|| "memory trap without a fault".to_string())?;
                t.lane = Some(lane);
                t.addr = addr;
                kind
            }
            trap::MISALIGNED | trap::SHARED_OUT_OF_BOUNDS => {
                t.lane = Some(sm.o(O::TrapLane) as u32);
                t.addr = Some(sm.o(O::TrapValue));
                let space = crate::space::resolve(sm.o(O::MemSpace) as u32, sm.o(O::TrapValue) as u32).0;
                let size = Request { kind: sm.o(O::MemKind), width: sm.o(O::MemWidth) as u32, ..Request::default() }.size();
                if trap == trap::MISALIGNED {
                    TrapKind::Misaligned { space, size }
                } else {
                    TrapKind::OutOfBounds { space, size }
                }
            }
            trap::DIVERGENT_UNIFORM => TrapKind::DivergentUniformBranch,
            trap::BAD_REGISTER => {
                let r = dev.module.code.get(pc as usize).and_then(|&w| Inst::decode(w).ok()).and_then(|i| bad_register(&i, k.regs as u32));
                TrapKind::InvalidInstruction { reason: format!("r{} is beyond the kernel's {} registers", r.unwrap_or(0), k.regs) }
            }
            trap::BAD_BARRIER => {
                t.lane = Some(sm.o(O::TrapLane) as u32);
                let id = sm.o(O::TrapValue) as u32;
                TrapKind::InvalidInstruction { reason: format!("barrier {id} does not exist (0..={})", BARRIERS - 1) }
            }
            trap::EPOCH => TrapKind::Unimplemented { what: "more than 65534 CTAs in one launch on the RTL SM".into() },
            other => return Err(format!("the RTL reported unknown trap code {other}").into()),
        };
        if let Some(g) = gold.as_deref_mut() {
            compare_trap(g, slot, &t)?;
        }
        Some(t)
    };
    Ok(RtlOutcome { outcome: Outcome { trap, stats, stdout }, rtl, compared })
}

/// Reads the cycle counter: its value is the engine's own (the golden
/// model counts instructions), so lockstep hands the RTL's value over.
fn reads_clock(code: &[u64], pc: u32) -> bool {
    let clock = [SReg::Clock as u8, SReg::ClockHi as u8];
    code.get(pc as usize).and_then(|&w| Inst::decode(w).ok()).is_some_and(|i| i.op == Opcode::S2r && clock.contains(&i.a))
}

/// Steps the golden model on the warp the RTL retired and compares.
fn compare(g: &mut Stepper<'_>, slot: usize, r: &Retire, code: &[u64], opts: &RtlOptions) -> Result<(), String> {
    let here = |what: String| {
        let window = match &opts.vcd {
            Some(v) => format!("; the VCD {} covers cycles {}..{}", v.path.display(), v.from, v.to),
            None => String::new(),
        };
        format!("lockstep: cycle {} CTA {} warp {} pc {}: {what}{window}", r.seq, r.cta, r.warp, r.pc)
    };
    let gold = match g.step(slot, r.warp as usize) {
        Ok(Some(gr)) => gr,
        Ok(None) => return Err(here("the golden model has finished this warp".into())),
        Err(t) => return Err(here(format!("the golden model traps here ({t})"))),
    };
    let mut gold = gold;
    if reads_clock(code, r.pc) {
        for w in &r.regs {
            g.write_reg(slot, r.warp as usize, w.lane as usize, w.reg, w.value);
        }
        gold.regs.clone_from(&r.regs);
    }
    if gold.same_effect(r) {
        return Ok(());
    }
    let diff = if gold.pc != r.pc {
        format!("golden is at pc {}", gold.pc)
    } else if (gold.active, gold.exec) != (r.active, r.exec) {
        format!("active/exec {:#x}/{:#x}, golden {:#x}/{:#x}", r.active, r.exec, gold.active, gold.exec)
    } else if gold.regs != r.regs {
        match gold.regs.iter().zip(&r.regs).find(|(a, b)| a != b) {
            Some((a, b)) => format!("lane {} r{} = {:#x}, golden lane {} r{} = {:#x}", b.lane, b.reg, b.value, a.lane, a.reg, a.value),
            None => format!("{} register writes, golden {}", r.regs.len(), gold.regs.len()),
        }
    } else if gold.preds != r.preds {
        format!("predicates {:?}, golden {:?}", r.preds, gold.preds)
    } else {
        match gold.mem.iter().zip(&r.mem).find(|(a, b)| a != b) {
            Some((a, b)) => format!("memory {b:?}, golden {a:?}"),
            None => format!("{} memory accesses, golden {}", r.mem.len(), gold.mem.len()),
        }
    };
    Err(here(diff))
}

/// The RTL trapped: the golden model must trap the same way on that warp.
fn compare_trap(g: &mut Stepper<'_>, slot: usize, t: &Trap) -> Result<(), String> {
    if matches!(t.kind, TrapKind::Unimplemented { .. } | TrapKind::BarrierDeadlock | TrapKind::Runaway { .. }) {
        return Ok(());
    }
    match g.step(slot, t.warp as usize) {
        // Everything: a bus retry that blames the wrong lane is a bug (the
        // lane-at-a-time retry makes the fault the lowest faulting lane's).
        Err(gt) if (&gt.kind, gt.pc, gt.lane, gt.addr) == (&t.kind, t.pc, t.lane, t.addr) => Ok(()),
        Err(gt) => Err(format!("lockstep: the RTL traps with `{t}`, the golden model with `{gt}`")),
        Ok(_) => Err(format!("lockstep: the RTL traps with `{t}`, the golden model runs on")),
    }
}
