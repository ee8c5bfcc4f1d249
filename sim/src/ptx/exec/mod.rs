//! Executing prepared PTX: CTAs one at a time, warps round robin, the same
//! reconvergence stack as the golden model (branches reconverge at their
//! immediate post-dominator), one frame of registers and parameters per call.

use super::ir::{Base, Func, Opd, PInst, Prog, Special, FUNC_ADDR};
use super::ops::{self, Cvt};
use crate::launch::{Launch, Outcome, Tracer};
use crate::limits::Watch;
use crate::memory::GlobalMemory;
use crate::retire::{MemAccess, MemKind, Retire};
use crate::space;
use crate::stats::Stats;
use crate::syscall::{self, Regions};
use crate::trap::{Space as MSpace, Trap, TrapKind};
use crate::warp::{round_robin, Step, Warp};
use heddle_compiler::ptx::ast::{Space, Type, TypeKind};
use heddle_compiler::ptx::insts::{Mod, ModSet, Op};
use heddle_isa::fields::BARRIERS;
use heddle_isa::mem;
use heddle_isa::scalar::fp::{self, Rnd};
use heddle_isa::scalar::{int, sfu};

mod alu;
mod call;
mod memory;
mod warp;

use memory::memory_space;

struct Frame {
    func: usize,
    regs: Vec<u64>,
    params: Vec<u8>,
    local_base: u32,
    /// Where the return values go in the caller.
    ret_to: Vec<Opd>,
    /// The lanes that made this call (only their return values are copied back).
    lanes: u64,
    /// Index of the caller's frame (sibling frames of a divergent indirect call lie between).
    caller: usize,
}

struct Cta {
    id: [u32; 3],
    linear: u32,
    warps: Vec<Warp>,
    frames: Vec<Vec<Frame>>,
    shared: Vec<u8>,
    /// Per-thread local memory, grown on demand up to the configured bytes.
    local: Vec<Vec<u8>>,
    bars: [(u32, u32); BARRIERS],
    /// bar.red accumulators (and, or, popc) and the pending writes of waiting warps.
    red: [(u64, bool, bool); BARRIERS],
    red_dst: Vec<Option<(Opd, u8)>>,
}

pub(crate) struct Machine<'a> {
    prog: &'a Prog,
    global: &'a mut GlobalMemory,
    params: &'a [u8],
    ws: usize,
    grid: [u32; 3],
    block: [u32; 3],
    dynamic_shared: u32,
    local_cap: u32,
    stack_depth: usize,
    budget: u64,
    gridid: u32,
    stats: Stats,
    stdout: Vec<u8>,
    seq: u64,
    mem_log: Vec<MemAccess>,
    /// The launch's time limit and progress reports; CTAs started, of `ctas`.
    watch: Watch,
    ctas_started: u64,
    ctas: u64,
}

type Fault = TrapKind;

/// A fault with the lane and address it happened at, if known.
type Failure = Box<(Fault, Option<usize>, Option<u64>)>;

fn full(ws: usize) -> u64 {
    if ws == 64 {
        u64::MAX
    } else {
        (1u64 << ws) - 1
    }
}

fn lanes(mask: u64) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(l)
    })
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn run<T: Tracer>(
    prog: &Prog,
    kernel: usize,
    global: &mut GlobalMemory,
    cfg: &heddle_hw::SmConfig,
    l: &Launch,
    gridid: u32,
    watch: Watch,
    tracer: &mut T,
) -> Outcome {
    let ws = cfg.warp_size as usize;
    let mut m = Machine {
        prog,
        global,
        params: &l.params,
        ws,
        grid: l.grid,
        block: l.block,
        dynamic_shared: l.dynamic_shared,
        local_cap: cfg.local_bytes,
        stack_depth: cfg.stack_depth as usize,
        budget: cfg.instruction_budget,
        gridid,
        stats: Stats::default(),
        stdout: vec![],
        seq: 0,
        mem_log: vec![],
        watch,
        ctas_started: 0,
        ctas: l.grid.iter().map(|&v| v as u64).product(),
    };
    let threads = (l.block[0] * l.block[1] * l.block[2]) as usize;
    let nwarps = threads.div_ceil(ws);
    let shared = (prog.static_shared + l.dynamic_shared) as usize;
    let mut trap = None;
    'grid: for z in 0..l.grid[2] {
        for y in 0..l.grid[1] {
            for x in 0..l.grid[0] {
                let mut cta = Cta {
                    id: [x, y, z],
                    linear: x + l.grid[0] * (y + l.grid[1] * z),
                    warps: (0..nwarps)
                        .map(|w| {
                            let n = threads.saturating_sub(w * ws).min(ws);
                            Warp::new(0, if n == 64 { u64::MAX } else { (1u64 << n) - 1 })
                        })
                        .collect(),
                    frames: (0..nwarps).map(|_| vec![m.new_frame(kernel, 0)]).collect(),
                    shared: vec![0; shared],
                    local: vec![vec![]; nwarps * ws],
                    bars: [(0, 0); BARRIERS],
                    red: [(0, true, false); BARRIERS],
                    red_dst: vec![None; nwarps],
                };
                if prog.funcs[kernel].local_frame > m.local_cap {
                    trap =
                        Some(Trap { kind: TrapKind::StackOverflow, cta: cta.id, warp: 0, lane: None, pc: prog.base(kernel), addr: None });
                    break 'grid;
                }
                m.ctas_started += 1;
                if let Err(t) = m.run_cta(&mut cta, tracer) {
                    trap = Some(*t);
                    break 'grid;
                }
            }
        }
    }
    Outcome { trap, stats: m.stats, stdout: m.stdout }
}

impl Machine<'_> {
    fn trap(&self, cta: &Cta, w: usize, lane: Option<usize>, pc: u32, kind: TrapKind, addr: Option<u64>) -> Box<Trap> {
        // The pc in the module's numbering (`Prog::base`), which `Prog::locate` maps to source.
        let pc = pc + self.prog.base(cta.frames.get(w).and_then(|f| f.last()).map_or(0, |f| f.func));
        Box::new(Trap { kind, cta: cta.id, warp: w as u32, lane: lane.map(|l| l as u32), pc, addr })
    }

    fn run_cta<T: Tracer>(&mut self, cta: &mut Cta, tracer: &mut T) -> Result<(), Box<Trap>> {
        match round_robin(cta, |c| &c.warps, |c, w| self.step(c, w, tracer))? {
            None => Ok(()),
            Some((w, pc)) => Err(self.trap(cta, w, None, pc, TrapKind::BarrierDeadlock, None)),
        }
    }

    /// Runs one warp instruction.
    fn step<T: Tracer>(&mut self, cta: &mut Cta, w: usize, tracer: &mut T) -> Result<Step, Box<Trap>> {
        let top = cta.warps[w].top();
        self.unwind_frames(cta, w);
        let Some(top) = top else { return Ok(Step::Finished) };
        let func_idx = cta.frames[w].last().map_or(0, |f| f.func);
        let func = &self.prog.funcs[func_idx];
        let pc = top.pc;
        let Some(inst) = func.insts.get(pc as usize) else {
            let reason = format!("pc {pc} is past the end of function `{}`", func.name);
            return Err(self.trap(cta, w, None, pc, TrapKind::InvalidInstruction { reason }, None));
        };
        if let Err(kind) = self.watch.count(&mut self.stats.warp_instructions, self.budget, self.ctas_started, self.ctas) {
            return Err(self.trap(cta, w, None, pc, kind, None));
        }
        cta.warps[w].retired += 1;
        let exec = match inst.guard {
            Some((slot, neg)) => {
                let f = cta.frames[w].last().expect("frame");
                let mut g = 0u64;
                for l in lanes(top.mask) {
                    if (f.regs[slot as usize * self.ws + l] & 1 == 1) != neg {
                        g |= 1 << l;
                    }
                }
                g
            }
            None => top.mask,
        };
        self.stats.thread_instructions += exec.count_ones() as u64;
        cta.warps[w].stack.last_mut().expect("top").pc = pc + 1;
        if T::ON {
            self.mem_log.clear();
        }
        let mut state = Step::Ran;
        let res = self.exec(cta, w, func_idx, pc, inst, top.mask, exec, &mut state);
        if let Err(k) = res {
            let (kind, lane, addr) = *k;
            return Err(self.trap(cta, w, lane, pc, kind, addr));
        }
        if T::ON {
            self.seq += 1;
            tracer.retire(Retire {
                seq: self.seq,
                sm: 0,
                cta: cta.linear,
                warp: w as u32,
                pc,
                active: top.mask,
                exec,
                regs: vec![],
                preds: vec![],
                mem: self.mem_log.clone(),
            });
        }
        // An instruction ran (even one that ended the warp): that is progress.
        if cta.warps[w].live() == 0 {
            cta.warps[w].finished = true;
        }
        Ok(state)
    }

    fn frame<'c>(&self, cta: &'c Cta, w: usize) -> &'c Frame {
        cta.frames[w].last().expect("a running warp has a frame")
    }

    /// Reads an operand as `ty` for one lane.
    fn read(&self, cta: &Cta, w: usize, o: &Opd, ty: Type, l: usize) -> u64 {
        let f = self.frame(cta, w);
        match o {
            Opd::Reg(s, _) => ops::mask(f.regs[*s as usize * self.ws + l], ty),
            Opd::Const(v) => ops::convert_const(*v, ty),
            Opd::F32(b) => match ty {
                Type::F64 => (f32::from_bits(*b) as f64).to_bits(),
                _ => *b as u64,
            },
            Opd::Not(s) => (f.regs[*s as usize * self.ws + l] & 1) ^ 1,
            Opd::Special(i, k) => ops::mask(self.special(cta, w, l, *i, *k), ty),
            Opd::Sym(b) => self.base_addr(f, *b),
            Opd::Func(i) => FUNC_ADDR + *i as u64,
            Opd::Label(pc) => *pc as u64,
            Opd::Vec(v) => {
                // Packing (`mov.b64 d, {a, b}`): elements low first.
                let n = v.len() as u32;
                let eb = (ops::bits(ty) / n).max(1);
                let et = match eb {
                    8 => Type::B8,
                    16 => Type::B16,
                    32 => Type::B32,
                    _ => Type::B64,
                };
                v.iter().enumerate().fold(0u64, |acc, (k, e)| acc | self.read(cta, w, e, et, l) << (eb * k as u32).min(63))
            }
            _ => 0,
        }
    }

    /// Writes `v` (an instruction-type `ty` value) to a destination operand for one lane.
    fn write(&self, cta: &mut Cta, w: usize, o: &Opd, ty: Type, l: usize, v: u64) {
        let ws = self.ws;
        let f = cta.frames[w].last_mut().expect("frame");
        match o {
            Opd::Reg(s, rty) => {
                let ext = ops::extend(v, ty);
                f.regs[*s as usize * ws + l] = if *rty == Type::Pred { v & 1 } else { ops::mask(ext, *rty) };
            }
            Opd::Pair(a, _) => {
                f.regs[*a as usize * ws + l] = ops::mask(v, ty);
            }
            Opd::Vec(v2) => {
                // Unpacking (`mov.b64 {a, b}, d`).
                let n = v2.len() as u32;
                let eb = ops::bits(ty) / n.max(1);
                let et = match eb {
                    8 => Type::B8,
                    16 => Type::B16,
                    32 => Type::B32,
                    _ => Type::B64,
                };
                for (k, e) in v2.iter().enumerate() {
                    let part = if eb >= 64 { v } else { (v >> (eb * k as u32)) & ((1u64 << eb) - 1) };
                    self.write(cta, w, e, et, l, part);
                }
            }
            _ => {}
        }
    }

    fn set_pred(&self, cta: &mut Cta, w: usize, slot: u32, l: usize, v: bool) {
        let f = cta.frames[w].last_mut().expect("frame");
        f.regs[slot as usize * self.ws + l] = v as u64;
    }

    fn special(&self, cta: &Cta, w: usize, l: usize, sr: Special, k: u8) -> u64 {
        let t = (w * self.ws + l) as u32;
        let [bx, by, _] = self.block;
        let comp = |v: [u32; 3]| v[k as usize] as u64;
        let bit = 1u64 << l;
        let wm = full(self.ws);
        match sr {
            Special::Tid => comp([t % bx, t / bx % by, t / (bx * by)]),
            Special::Ntid => comp(self.block),
            Special::Ctaid => comp(cta.id),
            Special::Nctaid => comp(self.grid),
            Special::Laneid => l as u64,
            Special::Warpid => w as u64,
            Special::Nwarpid => cta.warps.len() as u64,
            Special::Smid => 0,
            Special::Nsmid => 1,
            Special::Gridid => self.gridid as u64,
            Special::Clock => cta.warps[w].retired & 0xffff_ffff,
            Special::ClockHi => cta.warps[w].retired >> 32,
            Special::Clock64 | Special::Globaltimer => cta.warps[w].retired,
            Special::GlobaltimerLo => cta.warps[w].retired & 0xffff_ffff,
            Special::LanemaskEq => bit,
            Special::LanemaskLe => ((bit << 1).wrapping_sub(1)) & wm,
            Special::LanemaskLt => (bit - 1) & wm,
            Special::LanemaskGe => !(bit - 1) & wm,
            Special::LanemaskGt => !((bit << 1).wrapping_sub(1)) & wm,
            Special::DynamicSmemSize => self.dynamic_shared as u64,
            Special::TotalSmemSize => cta.shared.len() as u64,
            Special::WarpSz => self.ws as u64,
            Special::GlobaltimerHi | Special::Pm0 | Special::Pm1 | Special::Pm2 | Special::Pm3 => 0,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn exec(
        &mut self,
        cta: &mut Cta,
        w: usize,
        func_idx: usize,
        pc: u32,
        i: &PInst,
        active: u64,
        exec: u64,
        state: &mut Step,
    ) -> Result<(), Failure> {
        match i.op {
            Op::Bra => self.exec_bra(cta, w, i, func_idx, pc, active, exec)?,
            Op::Exit => self.exec_exit(cta, w, exec),
            Op::Ret => self.exec_ret(cta, w, func_idx, exec),
            Op::Call => self.call(cta, w, pc, i, exec)?,
            Op::Trap if exec != 0 => return Err(Box::new((TrapKind::UserTrap, Some(exec.trailing_zeros() as usize), None))),
            Op::Brkpt if exec != 0 => return Err(Box::new((TrapKind::Breakpoint, Some(exec.trailing_zeros() as usize), None))),
            Op::Trap | Op::Brkpt | Op::Membar | Op::Fence | Op::Prefetch | Op::Prefetchu | Op::Pmevent | Op::Nanosleep => {}
            // __syncwarp: the warp runs in lockstep, its memory effects are already ordered.
            Op::Bar if i.mods.has(Mod::Warp) => {}
            Op::Bar | Op::Barrier => self.exec_barrier(cta, w, i, pc, exec, state)?,
            Op::Vote => self.exec_vote(cta, w, i, exec)?,
            Op::Activemask => self.exec_activemask(cta, w, i, active, exec)?,
            Op::Shfl => self.shuffle(cta, w, i, exec, active),
            Op::Match => self.exec_match(cta, w, i, exec)?,
            Op::Redux => self.exec_redux(cta, w, i, exec)?,
            Op::Ld | Op::Ldu | Op::St => self.exec_ld_st(cta, w, i, exec)?,
            Op::Atom | Op::Red => self.exec_atom(cta, w, i, exec)?,
            _ => {
                // Per-lane ALU operations.
                for l in lanes(exec) {
                    self.alu(cta, w, i, l).map_err(|k| lane_err(k, l, None))?;
                }
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn exec_bra(&mut self, cta: &mut Cta, w: usize, i: &PInst, func_idx: usize, pc: u32, active: u64, exec: u64) -> Result<(), Failure> {
        let func: &Func = &self.prog.funcs[func_idx];
        self.stats.branches += 1;
        let target = match i.args.first() {
            Some(Opd::Label(t)) => *t,
            _ => return Err(warp_err(TrapKind::InvalidInstruction { reason: "bra without a label".into() })),
        };
        let join = func.rpc[pc as usize];
        if exec != 0 && exec != active && i.mods.has(Mod::Uni) {
            return Err(warp_err(TrapKind::DivergentUniformBranch));
        }
        match cta.warps[w].branch(pc, target, join, exec, self.stack_depth) {
            Ok(true) => self.stats.divergent_branches += 1,
            Ok(false) => {}
            Err(_) => return Err(warp_err(TrapKind::ReconvergenceStackOverflow { depth: self.stack_depth as u32 })),
        }
        Ok(())
    }

    fn exec_exit(&mut self, cta: &mut Cta, w: usize, exec: u64) {
        cta.warps[w].exit(exec);
        self.check_barriers(cta);
    }
}

/// A fault of lane `l`, at address `a` if known.
fn lane_err(k: Fault, l: usize, a: Option<u64>) -> Failure {
    Box::new((k, Some(l), a))
}

/// A fault of the whole warp.
fn warp_err(k: Fault) -> Failure {
    Box::new((k, None, None))
}
