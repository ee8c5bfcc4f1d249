//! The golden model: a functional SIMT interpreter of the Heddle ISA, the
//! reference every other engine is held against.
//!
//! ```text
//! launch -> CTAs (one resident at a time, in linear order)
//!        -> warps (round robin, QUANTUM instructions each turn)
//!        -> step: pop finished stack entries, fetch the predecoded
//!           instruction at the top entry's pc, execute it across the
//!           lanes of the entry's mask where the guard holds
//! ```
//!
//! Speed: the program is decoded once per launch into [`Dec`] (register
//! fields turned into row indices, `rz` into a zero row for reads and a sink
//! row for writes); registers are stored lane-contiguous per register, so
//! an instruction is a tight loop over lanes; predicates and the carry flag
//! are lane bitmasks; nothing is allocated per instruction unless a tracer
//! asks for retire records. The golden model has no cycles.

pub(crate) mod exec;
pub(crate) mod syscall;

use crate::device::Device;
use crate::launch::{Launch, Outcome, Tracer};
use crate::limits::Watch;
use crate::memory::GlobalMemory;
use crate::retire::{MemAccess, Retire};
use crate::stats::Stats;
use crate::trap::{Trap, TrapKind};
pub use crate::warp::Entry;
use crate::warp::{round_robin, Step, Warp};
use heddle_isa::fields::RZ;
use heddle_isa::object::Kernel;
use heddle_isa::{Inst, Operand};

pub use heddle_isa::fields::BARRIERS;

/// A predecoded instruction.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dec {
    pub inst: Inst,
    /// Row written by `d`, row read by `d` (stores), rows read by a, b, c.
    pub dw: u32,
    pub dr: u32,
    pub a: u32,
    pub b: u32,
    pub c: u32,
    pub imm: Option<u32>,
    /// A register field names a register beyond the kernel's `.regs`.
    pub bad_reg: Option<u8>,
    /// The optional unit the instruction needs and the SM is built without
    /// (`heddle_hw::decode::missing_unit`): executing it traps as on the RTL.
    pub missing: Option<&'static str>,
    /// Every modifier's value, indexed by `ModKind`.
    pub m: [u8; heddle_isa::ModKind::COUNT],
}

/// Per-CTA state.
pub(crate) struct Cta {
    pub id: [u32; 3],
    pub linear: u32,
    pub warps: Vec<Warp>,
    pub regs: Vec<u32>,
    pub shared: Vec<u8>,
    pub local: Vec<u8>,
    pub bars: [Barrier; BARRIERS],
    /// Per warp: the `barred` destination row and reduction waiting for its barrier.
    pub red_dst: Vec<Option<(u32, u32)>>,
}

#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Barrier {
    /// Threads arrived so far.
    pub arrived: u32,
    /// Threads expected (0: every live thread of the CTA).
    pub expected: u32,
    /// `barred` reductions: threads whose predicate held, and threads arrived with it.
    pub count: u32,
    pub red_threads: u32,
}

/// Everything an executing launch needs besides the CTA.
pub(crate) struct Machine<'a> {
    /// Shared so a step can hold its instruction while mutating the machine.
    pub prog: std::rc::Rc<[Dec]>,
    pub ws: usize,
    /// Register rows per warp (kernel registers + 4 zero rows + 4 sink rows).
    pub rows: usize,
    pub nregs: u32,
    pub global: &'a mut GlobalMemory,
    pub consts: &'a [u8],
    pub params: &'a [u8],
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub local_bytes: u32,
    pub dynamic_shared: u32,
    pub stack_depth: usize,
    pub budget: u64,
    pub gridid: u32,
    pub stats: Stats,
    pub stdout: Vec<u8>,
    pub seq: u64,
    pub mem_log: Vec<MemAccess>,
    /// The launch's time limit and progress reports; CTAs started, of `ctas`.
    pub watch: Watch,
    pub ctas_started: u64,
    pub ctas: u64,
}

/// The highest register an instruction names beyond a kernel's `nregs`
/// registers (register groups included), if any: executing it traps.
pub fn bad_register(inst: &Inst, nregs: u32) -> Option<u8> {
    let mut bad = None;
    for (field, count) in inst.reg_fields().iter().zip(inst.reg_counts()) {
        if let Some(r) = field.filter(|&r| r != RZ && r as u32 + count as u32 > nregs) {
            bad = Some(r + count - 1);
        }
    }
    if inst.op == heddle_isa::Opcode::Syscall {
        let sys = inst.modifier(heddle_isa::ModKind::SysNo);
        let groups = [(inst.a, crate::syscall::arg_regs(sys)), (inst.d, crate::syscall::result_regs(sys).unwrap_or(0))];
        for (r, n) in groups {
            if r != RZ && r as u32 + n as u32 > nregs {
                bad = Some(r + n - 1);
            }
        }
    }
    bad
}

/// Predecodes the program for a kernel with `nregs` registers.
fn predecode(code: &[u64], nregs: u32, units: heddle_hw::config::Units) -> Vec<Dec> {
    let zero = nregs;
    let sink = nregs + 4;
    code.iter()
        .map(|&w| {
            // The object loader validated every word; a failure here is a bug.
            let inst = Inst::decode(w).expect("object code was validated at load");
            let row = |r: u8, write: bool| -> u32 {
                match (r == RZ, write) {
                    (true, true) => sink,
                    (true, false) => zero,
                    // Out-of-range registers make the instruction invalid (`bad`), checked below.
                    _ => (r as u32).min(nregs.saturating_sub(1)),
                }
            };
            let f = inst.reg_fields();
            let bad = bad_register(&inst, nregs);
            let dw = f[0].map_or(sink, |r| row(r, true));
            let dr = f[0].map_or(zero, |r| row(r, false));
            let a = f[1].map_or(zero, |r| row(r, false));
            let b = f[2].map_or(zero, |r| row(r, false));
            let c = f[3].map_or(zero, |r| row(r, false));
            let imm = match inst.b {
                Operand::Imm(v) => Some(v),
                Operand::Reg(_) => None,
            };
            let mut m = [0u8; heddle_isa::ModKind::COUNT];
            for &k in inst.op.info().mods {
                m[k as usize] = inst.modifier(k) as u8;
            }
            let missing = heddle_hw::decode::missing_unit(&inst, units);
            Dec { inst, dw, dr, a, b, c, imm, bad_reg: bad, missing, m }
        })
        .collect()
}

/// The machine for a checked launch of `k` on `dev`.
fn machine<'a>(dev: &'a mut Device, k: &Kernel, l: &'a Launch) -> Machine<'a> {
    let nregs = k.regs as u32;
    Machine {
        prog: predecode(&dev.module.code, nregs, dev.config.units()).into(),
        ws: dev.config.warp_size as usize,
        rows: nregs as usize + 8,
        nregs,
        global: &mut dev.global,
        consts: &dev.module.const_data,
        params: &l.params,
        grid: l.grid,
        block: l.block,
        local_bytes: k.local_bytes,
        dynamic_shared: l.dynamic_shared,
        stack_depth: dev.config.stack_depth as usize,
        budget: dev.config.instruction_budget,
        gridid: dev.launches,
        stats: Stats::default(),
        stdout: vec![],
        seq: 0,
        mem_log: vec![],
        watch: Watch::new(&dev.limits, dev.progress.clone()),
        ctas_started: 0,
        ctas: l.grid.iter().map(|&v| v as u64).product(),
    }
}

/// CTA state for `k` launched as `l`, at linear CTA index `linear`.
fn new_cta(m: &Machine, k: &Kernel, l: &Launch, linear: u32) -> Cta {
    let ws = m.ws;
    let threads = (l.block[0] * l.block[1] * l.block[2]) as usize;
    let nwarps = threads.div_ceil(ws);
    let (gx, gy) = (l.grid[0], l.grid[1]);
    Cta {
        id: [linear % gx, linear / gx % gy, linear / (gx * gy)],
        linear,
        warps: (0..nwarps).map(|w| Warp::new(k.entry, lanes_present(threads, w, ws))).collect(),
        regs: vec![0; nwarps * m.rows * ws],
        shared: vec![0; (k.shared_bytes + l.dynamic_shared) as usize],
        local: vec![0; threads * k.local_bytes as usize],
        bars: [Barrier::default(); BARRIERS],
        red_dst: vec![None; nwarps],
    }
}

/// Runs a checked launch to completion or the first trap.
pub(crate) fn run<T: Tracer>(dev: &mut Device, k: &Kernel, l: &Launch, tracer: &mut T) -> Outcome {
    let mut m = machine(dev, k, l);
    let ctas = l.grid[0] * l.grid[1] * l.grid[2];
    let mut trap = None;
    for linear in 0..ctas {
        // Each CTA starts from fresh state (memory zeroed).
        let mut cta = new_cta(&m, k, l, linear);
        m.ctas_started += 1;
        if let Err(t) = m.run_cta(&mut cta, tracer) {
            trap = Some(*t);
            break;
        }
    }
    Outcome { trap, stats: m.stats, stdout: m.stdout }
}

/// The golden model stepped one warp instruction at a time, in the order
/// another engine retires them: the reference side of lockstep comparison.
/// CTAs run in slots, as on an SM with several resident CTAs: each slot holds
/// the CTA the other engine last started in it.
pub struct Stepper<'a> {
    m: Machine<'a>,
    k: &'a Kernel,
    l: &'a Launch,
    slots: Vec<Cta>,
}

impl<'a> Stepper<'a> {
    /// Runs `f` with a stepper over a checked launch on `dev` (a copy of the
    /// device the other engine runs on).
    pub fn with<R>(dev: &'a mut Device, k: &'a Kernel, l: &'a Launch, f: impl FnOnce(&mut Stepper<'a>) -> R) -> R {
        let m = machine(dev, k, l);
        let slots = vec![new_cta(&m, k, l, 0)];
        f(&mut Stepper { m, k, l, slots })
    }

    /// Starts CTA `linear` from fresh state in slot `slot`.
    pub fn start_cta(&mut self, slot: usize, linear: u32) {
        let cta = new_cta(&self.m, self.k, self.l, linear);
        if slot >= self.slots.len() {
            self.slots.resize_with(slot + 1, || new_cta(&self.m, self.k, self.l, 0));
        }
        self.slots[slot] = cta;
    }

    /// Steps warp `w` of slot `slot`'s CTA once: its retire record, None if
    /// the warp had finished (or the slot was never started), or its trap.
    pub fn step(&mut self, slot: usize, w: usize) -> Result<Option<Retire>, Box<Trap>> {
        let Some(cta) = self.slots.get_mut(slot) else { return Ok(None) };
        let mut got = None;
        match self.m.step(cta, w, &mut |r: Retire| got = Some(r))? {
            Step::Finished if got.is_none() => Ok(None),
            _ => Ok(got),
        }
    }

    /// Sets a thread's register: lockstep copies values the engines may
    /// legitimately disagree on (the `clock` special registers) from the other engine.
    pub fn write_reg(&mut self, slot: usize, w: usize, lane: usize, reg: u8, value: u32) {
        let i = self.m.ri(w, reg as u32) + lane;
        if let Some(r) = self.slots.get_mut(slot).and_then(|c| c.regs.get_mut(i)).filter(|_| (reg as u32) < self.m.nregs) {
            *r = value;
        }
    }
}

/// Mask of the lanes of warp `w` that hold threads.
fn lanes_present(threads: usize, w: usize, ws: usize) -> u64 {
    let n = threads.saturating_sub(w * ws).min(ws);
    if n == 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

impl Machine<'_> {
    fn run_cta<T: Tracer>(&mut self, cta: &mut Cta, tracer: &mut T) -> Result<(), Box<Trap>> {
        match round_robin(cta, |c| &c.warps, |c, w| self.step(c, w, tracer))? {
            None => Ok(()),
            Some((w, pc)) => Err(self.trap(cta, w, None, pc, TrapKind::BarrierDeadlock, None)),
        }
    }

    /// A trap record (boxed: it travels on the error path of the hot step function).
    pub(crate) fn trap(&self, cta: &Cta, w: usize, lane: Option<usize>, pc: u32, kind: TrapKind, addr: Option<u64>) -> Box<Trap> {
        Box::new(Trap { kind, cta: cta.id, warp: w as u32, lane: lane.map(|l| l as u32), pc, addr })
    }

    /// Index of register `row`, lane 0, of warp `w`.
    #[inline(always)]
    pub(crate) fn ri(&self, w: usize, row: u32) -> usize {
        (w * self.rows + row as usize) * self.ws
    }
}
