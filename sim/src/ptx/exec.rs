//! Executing prepared PTX: CTAs one at a time, warps round robin, the same
//! reconvergence stack as the golden model (branches reconverge at their
//! immediate post-dominator), one frame of registers and parameters per call.

use super::cfg::EXIT_JOIN;
use super::ops::{self, Cvt};
use super::prep::{Base, Func, Opd, PInst, Prog, FUNC_ADDR};
use crate::launch::{Launch, Outcome, Tracer};
use crate::limits::{progress, Watch};
use crate::memory::GlobalMemory;
use crate::retire::{MemAccess, MemKind, Retire};
use crate::space;
use crate::stats::Stats;
use crate::syscall::{self, Regions};
use crate::trap::{Space as MSpace, Trap, TrapKind};
use crate::warp::Warp;
use heddle_compiler::ptx::ast::{Space, Type, TypeKind};
use heddle_compiler::ptx::insts::{Mod, ModSet, Op};
use heddle_isa::mem;
use heddle_isa::scalar::fp::{self, Rnd};
use heddle_isa::scalar::{int, sfu};

use heddle_isa::fields::BARRIERS;
const QUANTUM: u32 = 64;

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

/// The memory space a PTX state space names (None: not one of memory's).
fn memory_space(s: Space) -> Option<MSpace> {
    Some(match s {
        Space::Global => MSpace::Global,
        Space::Shared => MSpace::Shared,
        Space::Local => MSpace::Local,
        Space::Const => MSpace::Const,
        Space::Param => MSpace::Param,
        _ => return None,
    })
}

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
    fn new_frame(&self, func: usize, local_base: u32) -> Frame {
        let f = &self.prog.funcs[func];
        Frame {
            func,
            regs: vec![0; f.reg_types.len() * self.ws],
            params: vec![0; f.param_area as usize * self.ws],
            local_base,
            ret_to: vec![],
            lanes: full(self.ws),
            caller: 0,
        }
    }

    fn trap(&self, cta: &Cta, w: usize, lane: Option<usize>, pc: u32, kind: TrapKind, addr: Option<u64>) -> Box<Trap> {
        // The pc in the module's numbering (`Prog::base`), which `Prog::locate` maps to source.
        let pc = pc + self.prog.base(cta.frames.get(w).and_then(|f| f.last()).map_or(0, |f| f.func));
        Box::new(Trap { kind, cta: cta.id, warp: w as u32, lane: lane.map(|l| l as u32), pc, addr })
    }

    fn run_cta<T: Tracer>(&mut self, cta: &mut Cta, tracer: &mut T) -> Result<(), Box<Trap>> {
        loop {
            let (mut progressed, mut live) = (false, false);
            for w in 0..cta.warps.len() {
                if cta.warps[w].finished {
                    continue;
                }
                live = true;
                if cta.warps[w].wait.is_some() {
                    continue;
                }
                for _ in 0..QUANTUM {
                    match self.step(cta, w, tracer)? {
                        0 => progressed = true,
                        1 => {
                            progressed = true;
                            break;
                        }
                        _ => break,
                    }
                }
            }
            if !live {
                return Ok(());
            }
            if !progressed {
                let w = cta.warps.iter().position(|w| w.wait.is_some()).unwrap_or(0);
                let pc = cta.warps[w].wait.map_or(0, |(_, pc)| pc);
                return Err(self.trap(cta, w, None, pc, TrapKind::BarrierDeadlock, None));
            }
        }
    }

    /// Pops the frames of call entries the stack popped, copying return values back.
    fn unwind_frames(&mut self, cta: &mut Cta, w: usize) {
        while cta.warps[w].popped_calls > 0 {
            cta.warps[w].popped_calls -= 1;
            let Some(done) = cta.frames[w].pop() else {
                return;
            };
            let callee = &self.prog.funcs[done.func];
            let Some(caller) = cta.frames[w].get_mut(done.caller) else {
                return;
            };
            let ws = self.ws;
            for (k, dst) in done.ret_to.iter().enumerate() {
                let Some(info) = callee.rets.get(k) else {
                    break;
                };
                if info.offset > u32::MAX / 2 {
                    // A PTX 1.x `.reg` return value: the callee's register.
                    let slot = (u32::MAX - info.offset) as usize;
                    for l in lanes(done.lanes) {
                        let v = done.regs[slot * ws + l];
                        store_param_value(caller, &self.prog.funcs[caller.func], dst, l, ws, &v.to_le_bytes()[..info.size.min(8) as usize]);
                    }
                    continue;
                }
                for l in lanes(done.lanes) {
                    let src = &done.params[l * callee.param_area as usize..];
                    let bytes = &src[info.offset as usize..(info.offset + info.size) as usize];
                    store_param_value(caller, &self.prog.funcs[caller.func], dst, l, ws, bytes);
                }
            }
        }
    }

    /// Runs one warp instruction. Returns 0 ran, 1 waiting at a barrier, 2 finished.
    fn step<T: Tracer>(&mut self, cta: &mut Cta, w: usize, tracer: &mut T) -> Result<u8, Box<Trap>> {
        let top = cta.warps[w].top();
        self.unwind_frames(cta, w);
        let Some(top) = top else { return Ok(2) };
        let func_idx = cta.frames[w].last().map_or(0, |f| f.func);
        let func = &self.prog.funcs[func_idx];
        let pc = top.pc;
        let Some(inst) = func.insts.get(pc as usize) else {
            let reason = format!("pc {pc} is past the end of function `{}`", func.name);
            return Err(self.trap(cta, w, None, pc, TrapKind::InvalidInstruction { reason }, None));
        };
        self.stats.warp_instructions += 1;
        if self.stats.warp_instructions > self.budget {
            return Err(self.trap(cta, w, None, pc, TrapKind::Runaway { budget: self.budget }, None));
        }
        let (done, ctas) = (self.ctas_started, self.ctas);
        if let Err(kind) = self.watch.poll(|| progress(self.stats.warp_instructions, None, done, ctas)) {
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
        let mut state = 0;
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

    fn special(&self, cta: &Cta, w: usize, l: usize, i: u8, k: u8) -> u64 {
        let t = (w * self.ws + l) as u32;
        let [bx, by, _] = self.block;
        let comp = |v: [u32; 3]| v[k as usize] as u64;
        let bit = 1u64 << l;
        let wm = full(self.ws);
        match super::prep::SPECIALS[i as usize] {
            "%tid" => comp([t % bx, t / bx % by, t / (bx * by)]),
            "%ntid" => comp(self.block),
            "%ctaid" => comp(cta.id),
            "%nctaid" => comp(self.grid),
            "%laneid" => l as u64,
            "%warpid" => w as u64,
            "%nwarpid" => cta.warps.len() as u64,
            "%smid" => 0,
            "%nsmid" => 1,
            "%gridid" => self.gridid as u64,
            "%clock" => cta.warps[w].retired & 0xffff_ffff,
            "%clock_hi" => cta.warps[w].retired >> 32,
            "%clock64" | "%globaltimer" => cta.warps[w].retired,
            "%globaltimer_lo" => cta.warps[w].retired & 0xffff_ffff,
            "%lanemask_eq" => bit,
            "%lanemask_le" => ((bit << 1).wrapping_sub(1)) & wm,
            "%lanemask_lt" => (bit - 1) & wm,
            "%lanemask_ge" => !(bit - 1) & wm,
            "%lanemask_gt" => !((bit << 1).wrapping_sub(1)) & wm,
            "%dynamic_smem_size" => self.dynamic_shared as u64,
            "%total_smem_size" => cta.shared.len() as u64,
            "WARP_SZ" => self.ws as u64,
            _ => 0,
        }
    }

    /// The address of a variable in its own space (local: in this thread's local space).
    fn base_addr(&self, f: &Frame, b: Base) -> u64 {
        match b {
            Base::Global(a) => a as u64,
            Base::Const(o) | Base::Shared(o) | Base::KParam(o) | Base::FParam(o) => {
                if b == Base::Shared(u32::MAX) {
                    self.prog.static_shared as u64
                } else {
                    o as u64
                }
            }
            Base::Local(o) => (f.local_base + o) as u64,
            Base::Reg(_) | Base::None => 0,
        }
    }

    /// Resolves a memory operand for one lane: (space, offset, value for the log).
    fn resolve(&self, cta: &Cta, w: usize, inst: &PInst, o: &Opd, l: usize) -> Result<(MSpace, u64, bool), Fault> {
        let Opd::Addr(base, off) = o else {
            return Err(TrapKind::InvalidInstruction { reason: "expected an address operand".into() });
        };
        let f = self.frame(cta, w);
        let (space, addr, fparam): (Option<Space>, u64, bool) = match base {
            Base::Reg(s) => (inst.space, f.regs[*s as usize * self.ws + l].wrapping_add(*off as u64), false),
            Base::None => (inst.space, *off as u64, false),
            Base::Global(a) => (Some(Space::Global), (*a as u64).wrapping_add(*off as u64), false),
            Base::Const(a) => (Some(Space::Const), (*a as u64).wrapping_add(*off as u64), false),
            Base::Shared(a) => {
                let a = if *a == u32::MAX { self.prog.static_shared } else { *a };
                (Some(Space::Shared), (a as u64).wrapping_add(*off as u64), false)
            }
            Base::Local(a) => (Some(Space::Local), ((f.local_base + a) as u64).wrapping_add(*off as u64), false),
            Base::KParam(a) => (Some(Space::Param), (*a as u64).wrapping_add(*off as u64), false),
            Base::FParam(a) => (Some(Space::Param), (*a as u64).wrapping_add(*off as u64), true),
        };
        let space = if let (Some(Space::Param), Base::Reg(_)) = (inst.space, base) {
            // A register-based .param address in a function means its own parameter area.
            let fun = &self.prog.funcs[f.func];
            return Ok((MSpace::Param, addr, !fun.entry));
        } else {
            space
        };
        Ok(match space {
            Some(Space::Global) => (MSpace::Global, addr, false),
            Some(Space::Shared) => (MSpace::Shared, addr, false),
            Some(Space::Local) => (MSpace::Local, addr, false),
            Some(Space::Const) => (MSpace::Const, addr, false),
            Some(Space::Param) => (MSpace::Param, addr, fparam),
            _ if addr > u32::MAX as u64 => (MSpace::Global, addr, false),
            _ => {
                let (space, off) = space::window(addr as u32);
                (space, off as u64, false)
            }
        })
    }

    /// Bytes of memory for one lane's access (checked).
    fn mem_slice<'c>(
        &'c mut self,
        cta: &'c mut Cta,
        w: usize,
        l: usize,
        space: MSpace,
        addr: u64,
        size: u32,
        fparam: bool,
    ) -> Result<&'c mut [u8], Fault> {
        if size > 1 && addr % (size.min(16) as u64) != 0 {
            return Err(TrapKind::Misaligned { space, size });
        }
        let oob = TrapKind::OutOfBounds { space, size };
        let end = addr.checked_add(size as u64).ok_or(oob.clone())?;
        let range = |len: usize| {
            if end <= len as u64 {
                Ok(addr as usize..end as usize)
            } else {
                Err(oob.clone())
            }
        };
        match space {
            MSpace::Global => {
                if addr < mem::NULL_LIMIT as u64 || addr > u32::MAX as u64 || !self.global.check(addr as u32, size) {
                    return Err(oob);
                }
                Ok(&mut self.global.bytes_mut()[addr as usize..end as usize])
            }
            MSpace::Shared => {
                let r = range(cta.shared.len())?;
                Ok(&mut cta.shared[r])
            }
            MSpace::Local => {
                if end > self.local_cap as u64 {
                    return Err(TrapKind::StackOverflow);
                }
                // Each thread's local memory grows on demand, zero-filled.
                let t = &mut cta.local[w * self.ws + l];
                if t.len() < end as usize {
                    t.resize(end as usize, 0);
                }
                Ok(&mut t[addr as usize..end as usize])
            }
            MSpace::Const => Err(TrapKind::ReadOnly { space }),
            MSpace::Param => {
                if fparam {
                    let f = cta.frames[w].last_mut().expect("frame");
                    let area = self.prog.funcs[f.func].param_area as usize;
                    if end > area as u64 {
                        return Err(oob);
                    }
                    Ok(&mut f.params[l * area + addr as usize..l * area + end as usize])
                } else {
                    Err(TrapKind::ReadOnly { space })
                }
            }
        }
    }

    /// Reads `size` bytes for one lane (read-only spaces included).
    fn load_bytes(&mut self, cta: &mut Cta, w: usize, l: usize, space: MSpace, addr: u64, size: u32, fparam: bool) -> Result<u128, Fault> {
        let ro: Option<&[u8]> = match (space, fparam) {
            (MSpace::Const, _) => Some(&self.prog.const_image),
            (MSpace::Param, false) => Some(self.params),
            _ => None,
        };
        let bytes: Vec<u8> = if let Some(src) = ro {
            if size > 1 && addr % (size.min(16) as u64) != 0 {
                return Err(TrapKind::Misaligned { space, size });
            }
            let end = addr + size as u64;
            if end > src.len() as u64 {
                return Err(TrapKind::OutOfBounds { space, size });
            }
            src[addr as usize..end as usize].to_vec()
        } else {
            self.mem_slice(cta, w, l, space, addr, size, fparam)?.to_vec()
        };
        let mut b = [0u8; 16];
        b[..bytes.len()].copy_from_slice(&bytes);
        Ok(u128::from_le_bytes(b))
    }

    fn count(&mut self, space: MSpace, kind: MemKind) {
        let c = match space {
            MSpace::Global => &mut self.stats.global,
            MSpace::Shared => &mut self.stats.shared,
            MSpace::Local => &mut self.stats.local,
            MSpace::Const => &mut self.stats.constant,
            MSpace::Param => &mut self.stats.param,
        };
        match kind {
            MemKind::Load => c.loads += 1,
            MemKind::Store => c.stores += 1,
            MemKind::Atomic => c.atomics += 1,
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
        state: &mut u8,
    ) -> Result<(), Box<(Fault, Option<usize>, Option<u64>)>> {
        let ws = self.ws;
        let func: &Func = &self.prog.funcs[func_idx];
        let ty = i.types.first().copied().unwrap_or(Type::B32);
        let lane_err = |k: Fault, l: usize, a: Option<u64>| Box::new((k, Some(l), a));
        let warp_err = |k: Fault| Box::new((k, None, None));
        match i.op {
            Op::Bra => {
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
                if join == EXIT_JOIN {
                    // Paths meet only at the function's end: nothing waits at the join.
                }
            }
            Op::Exit => {
                cta.warps[w].exit(exec);
                Self::check_barriers(self, cta);
            }
            Op::Ret => {
                if func.entry {
                    cta.warps[w].exit(exec);
                } else {
                    cta.warps[w].ret(exec);
                }
                Self::check_barriers(self, cta);
            }
            Op::Call => self.call(cta, w, pc, i, exec)?,
            Op::Trap if exec != 0 => return Err(Box::new((TrapKind::UserTrap, Some(exec.trailing_zeros() as usize), None))),
            Op::Brkpt if exec != 0 => return Err(Box::new((TrapKind::Breakpoint, Some(exec.trailing_zeros() as usize), None))),
            Op::Trap | Op::Brkpt | Op::Membar | Op::Fence | Op::Prefetch | Op::Prefetchu | Op::Pmevent | Op::Nanosleep => {}
            // __syncwarp: the warp runs in lockstep, its memory effects are already ordered.
            Op::Bar if i.mods.has(Mod::Warp) => {}
            Op::Bar | Op::Barrier => {
                if exec != 0 {
                    self.barrier(cta, w, pc, i, exec)?;
                    if cta.warps[w].wait.is_some() {
                        *state = 1;
                    }
                }
            }
            Op::Vote => {
                let mut v = 0u64;
                for l in lanes(exec) {
                    if self.read(cta, w, &i.args[1], Type::Pred, l) & 1 == 1 {
                        v |= 1 << l;
                    }
                }
                let r = if i.mods.has(Mod::Ballot) {
                    v
                } else {
                    let b = if i.mods.has(Mod::All) {
                        v == exec
                    } else if i.mods.has(Mod::Any) {
                        v != 0
                    } else {
                        v == 0 || v == exec
                    };
                    b as u64
                };
                let t = if i.mods.has(Mod::Ballot) { Type::B32 } else { Type::Pred };
                for l in lanes(exec) {
                    self.write(cta, w, &i.args[0], t, l, r);
                }
            }
            Op::Activemask => {
                for l in lanes(exec) {
                    self.write(cta, w, &i.args[0], Type::B32, l, active);
                }
            }
            Op::Shfl => self.shuffle(cta, w, i, exec, active),
            Op::Match => {
                let vals: Vec<u64> = (0..ws).map(|l| if exec >> l & 1 == 1 { self.read(cta, w, &i.args[1], ty, l) } else { 0 }).collect();
                for l in lanes(exec) {
                    let same: u64 = lanes(exec).filter(|&k| vals[k] == vals[l]).fold(0, |m, k| m | 1 << k);
                    let all = same == exec;
                    let r = if !i.mods.has(Mod::All) {
                        same
                    } else if all {
                        exec
                    } else {
                        0
                    };
                    self.write(cta, w, &i.args[0], Type::B32, l, r);
                    if let Opd::Pair(_, p) = i.args[0] {
                        self.write(cta, w, &Opd::Reg(p, Type::Pred), Type::Pred, l, all as u64);
                    }
                }
            }
            Op::Redux => {
                let vals: Vec<u64> = lanes(exec).map(|l| self.read(cta, w, &i.args[1], ty, l)).collect();
                let s = ops::signed(ty);
                let r = vals.iter().copied().reduce(|a, b| {
                    if i.mods.has(Mod::Add) {
                        a.wrapping_add(b)
                    } else if i.mods.has(Mod::And) {
                        a & b
                    } else if i.mods.has(Mod::Or) {
                        a | b
                    } else if i.mods.has(Mod::Xor) {
                        a ^ b
                    } else if i.mods.has(Mod::Min) {
                        if s {
                            (ops::sext(a, ty).min(ops::sext(b, ty))) as u64
                        } else {
                            a.min(b)
                        }
                    } else if s {
                        ops::sext(a, ty).max(ops::sext(b, ty)) as u64
                    } else {
                        a.max(b)
                    }
                });
                for l in lanes(exec) {
                    self.write(cta, w, &i.args[0], ty, l, r.unwrap_or(0));
                }
            }
            Op::Ld | Op::Ldu | Op::St => {
                let store = i.op == Op::St;
                let (data, addr) = if store { (&i.args[1], &i.args[0]) } else { (&i.args[0], &i.args[1]) };
                let n = i.vec.max(1);
                let esize = ty.size().max(1);
                for l in lanes(exec) {
                    let (space, a, fp) = self.resolve(cta, w, i, addr, l).map_err(|k| lane_err(k, l, None))?;
                    let size = esize * n;
                    let kind = if store { MemKind::Store } else { MemKind::Load };
                    self.count(space, kind);
                    let gaddr = Some(a);
                    if store {
                        let mut v = 0u128;
                        for k in 0..n {
                            let e = match data {
                                Opd::Vec(v) => &v[k as usize],
                                o => o,
                            };
                            v |= (self.read(cta, w, e, ty, l) as u128) << (8 * esize * k);
                        }
                        let s = self.mem_slice(cta, w, l, space, a, size, fp).map_err(|k| lane_err(k, l, gaddr))?;
                        s.copy_from_slice(&v.to_le_bytes()[..size as usize]);
                        self.mem_log.push(MemAccess { lane: l as u8, kind, space, addr: a as u32, size: size as u8, data: v });
                    } else {
                        let v = self.load_bytes(cta, w, l, space, a, size, fp).map_err(|k| lane_err(k, l, gaddr))?;
                        for k in 0..n {
                            let e = match data {
                                Opd::Vec(v) => &v[k as usize],
                                o => o,
                            };
                            let part = (v >> (8 * esize * k)) as u64;
                            self.write(cta, w, e, ty, l, ops::mask(part, ty));
                        }
                        self.mem_log.push(MemAccess { lane: l as u8, kind, space, addr: a as u32, size: size as u8, data: v });
                    }
                }
            }
            Op::Atom | Op::Red => {
                let red = i.op == Op::Red;
                let (addr, b, c) = if red { (&i.args[0], &i.args[1], None) } else { (&i.args[1], &i.args[2], i.args.get(3)) };
                for l in lanes(exec) {
                    let (space, a, _) = self.resolve(cta, w, i, addr, l).map_err(|k| lane_err(k, l, None))?;
                    if !matches!(space, MSpace::Global | MSpace::Shared) {
                        return Err(lane_err(TrapKind::InvalidInstruction { reason: format!("atomic on {space} memory") }, l, Some(a)));
                    }
                    let size = ty.size();
                    self.count(space, MemKind::Atomic);
                    let bv = self.read(cta, w, b, ty, l);
                    let cv = c.map_or(0, |c| self.read(cta, w, c, ty, l));
                    let s = self.mem_slice(cta, w, l, space, a, size, false).map_err(|k| lane_err(k, l, Some(a)))?;
                    let mut buf = [0u8; 8];
                    buf[..size as usize].copy_from_slice(s);
                    let old = u64::from_le_bytes(buf);
                    let new = atom_op(i, ty, old, bv, cv);
                    s.copy_from_slice(&new.to_le_bytes()[..size as usize]);
                    self.mem_log.push(MemAccess {
                        lane: l as u8,
                        kind: MemKind::Atomic,
                        space,
                        addr: a as u32,
                        size: size as u8,
                        data: new as u128,
                    });
                    if !red {
                        self.write(cta, w, &i.args[0], ty, l, old);
                    }
                }
            }
            _ => {
                // Per-lane ALU operations.
                for l in lanes(exec) {
                    self.alu(cta, w, i, l).map_err(|k| lane_err(k, l, None))?;
                }
            }
        }
        Ok(())
    }

    fn check_barriers(&self, cta: &mut Cta) {
        let live: u32 = cta.warps.iter().map(|w| w.live().count_ones()).sum();
        for b in 0..BARRIERS {
            let (arrived, expected) = cta.bars[b];
            if arrived == 0 {
                continue;
            }
            let need = if expected == 0 { live } else { expected };
            if arrived >= need {
                cta.bars[b] = (0, 0);
                let (acc, and, or) = cta.red[b];
                cta.red[b] = (0, true, false);
                for w in 0..cta.warps.len() {
                    if cta.warps[w].wait.is_some_and(|(id, _)| id as usize == b) {
                        cta.warps[w].wait = None;
                        if let Some((dst, kind)) = cta.red_dst[w].take() {
                            let v = match kind {
                                0 => acc,
                                1 => and as u64,
                                _ => or as u64,
                            };
                            let t = if kind == 0 { Type::U32 } else { Type::Pred };
                            for l in lanes(cta.warps[w].live()) {
                                self.write(cta, w, &dst, t, l, v);
                            }
                        }
                    }
                }
            }
        }
    }

    fn barrier(&mut self, cta: &mut Cta, w: usize, pc: u32, i: &PInst, exec: u64) -> Result<(), Box<(Fault, Option<usize>, Option<u64>)>> {
        self.stats.barriers += 1;
        let first = exec.trailing_zeros() as usize;
        let is_red = i.mods.has(Mod::Red);
        let off = if is_red { 1 } else { 0 };
        let id = self.read(cta, w, &i.args[off], Type::U32, first) as usize;
        let count = match i.args.get(off + 1) {
            Some(o) if !(is_red && i.args.len() == off + 2) => self.read(cta, w, o, Type::U32, first) as u32,
            _ => 0,
        };
        if id >= BARRIERS {
            return Err(Box::new((
                TrapKind::InvalidInstruction { reason: format!("barrier {id} does not exist (0..={})", BARRIERS - 1) },
                Some(first),
                None,
            )));
        }
        if is_red {
            let pred = i.args.last().expect("bar.red operand");
            let mut pc_count = 0u64;
            let (mut all, mut any) = (true, false);
            for l in lanes(cta.warps[w].live()) {
                let p = self.read(cta, w, pred, Type::Pred, l) & 1 == 1;
                pc_count += p as u64;
                all &= p;
                any |= p;
            }
            let r = &mut cta.red[id];
            r.0 += pc_count;
            r.1 &= all;
            r.2 |= any;
            let kind = if i.mods.has(Mod::Popc) {
                0
            } else if i.mods.has(Mod::And) {
                1
            } else {
                2
            };
            cta.red_dst[w] = Some((i.args[0].clone(), kind));
        }
        let warp = &mut cta.warps[w];
        cta.bars[id].0 += warp.live().count_ones();
        cta.bars[id].1 = count;
        if !i.mods.has(Mod::Arrive) {
            warp.wait = Some((id as u8, pc));
        }
        self.check_barriers(cta);
        Ok(())
    }

    fn shuffle(&mut self, cta: &mut Cta, w: usize, i: &PInst, exec: u64, active: u64) {
        let ws = self.ws;
        let lm = ws as u64 - 1;
        let src: Vec<u64> = (0..ws).map(|l| if active >> l & 1 == 1 { self.read(cta, w, &i.args[1], Type::B32, l) } else { 0 }).collect();
        for l in lanes(exec) {
            let lane = l as u64;
            let b = self.read(cta, w, &i.args[2], Type::U32, l);
            let c = self.read(cta, w, &i.args[3], Type::U32, l);
            let (clamp, seg) = (c & lm, (c >> 8) & lm);
            let max_lane = (lane & seg) | (clamp & !seg);
            let min_lane = lane & seg;
            let (j, inside) = if i.mods.has(Mod::Up) {
                let j = lane as i64 - b as i64;
                (j, j >= max_lane as i64)
            } else if i.mods.has(Mod::Down) {
                let j = (lane + b) as i64;
                (j, j <= max_lane as i64)
            } else if i.mods.has(Mod::Bfly) {
                let j = (lane ^ (b & lm)) as i64;
                (j, j <= max_lane as i64)
            } else {
                let j = (min_lane | (b & lm & !seg)) as i64;
                (j, j <= max_lane as i64)
            };
            let valid = inside && j >= 0 && (j as usize) < ws && active >> j & 1 == 1;
            let v = if valid { src[j as usize] } else { src[l] };
            match &i.args[0] {
                Opd::Pair(d, p) => {
                    self.write(cta, w, &Opd::Reg(*d, Type::B32), Type::B32, l, v);
                    self.set_pred(cta, w, *p, l, valid);
                }
                d => self.write(cta, w, d, Type::B32, l, v),
            }
        }
    }

    fn call(&mut self, cta: &mut Cta, w: usize, pc: u32, i: &PInst, exec: u64) -> Result<(), Box<(Fault, Option<usize>, Option<u64>)>> {
        if exec == 0 {
            return Ok(());
        }
        let mut it = i.args.iter().peekable();
        let mut rets: Vec<Opd> = vec![];
        if let (Some(Opd::List(r)), true) = (it.peek().copied(), i.args.len() > 1) {
            rets = r.clone();
            it.next();
        }
        let target = it.next().cloned().unwrap_or(Opd::Sink);
        let args: Vec<Opd> = match it.next() {
            Some(Opd::List(a)) => a.clone(),
            _ => vec![],
        };
        // Group lanes by callee.
        let mut groups: Vec<(usize, u64)> = vec![];
        for l in lanes(exec) {
            let f = match &target {
                Opd::Func(f) => *f,
                o => {
                    let v = self.read(cta, w, o, Type::U64, l);
                    if v < FUNC_ADDR || v - FUNC_ADDR >= self.prog.funcs.len() as u64 {
                        return Err(Box::new((
                            TrapKind::InvalidInstruction { reason: format!("indirect call to {v:#x}, which is not a function") },
                            Some(l),
                            Some(v),
                        )));
                    }
                    (v - FUNC_ADDR) as usize
                }
            };
            match groups.iter_mut().find(|g| g.0 == f) {
                Some(g) => g.1 |= 1 << l,
                None => groups.push((f, 1 << l)),
            }
        }
        let mut pushed: Vec<(u32, u64)> = vec![];
        let mut frames = vec![];
        for &(f, mask) in &groups {
            let callee = &self.prog.funcs[f];
            if callee.external {
                self.syscall(cta, w, i, &callee.name.clone(), &args, &rets, mask)?;
                continue;
            }
            let caller = cta.frames[w].last().expect("frame");
            let local_base = caller.local_base + self.prog.funcs[caller.func].local_frame;
            if local_base + callee.local_frame > self.local_cap {
                return Err(Box::new((TrapKind::StackOverflow, Some(mask.trailing_zeros() as usize), None)));
            }
            let mut frame = self.new_frame(f, local_base);
            frame.ret_to = rets.clone();
            frame.lanes = mask;
            frame.caller = cta.frames[w].len() - 1;
            // Arguments: the caller's values into the callee's parameters.
            for (k, a) in args.iter().enumerate() {
                let Some(info) = callee.params.get(k) else {
                    break;
                };
                for l in lanes(mask) {
                    let bytes = self.arg_bytes(cta, w, a, info.size, l);
                    store_param_value(&mut frame, callee, &Opd::Sym(Base::FParam(info.offset)), l, self.ws, &bytes);
                    if info.offset > u32::MAX / 2 {
                        // A `.reg` parameter.
                        let slot = u32::MAX - info.offset;
                        let mut b = [0u8; 8];
                        b[..bytes.len().min(8)].copy_from_slice(&bytes[..bytes.len().min(8)]);
                        frame.regs[slot as usize * self.ws + l] = u64::from_le_bytes(b);
                    }
                }
            }
            frames.push(frame);
            pushed.push((0, mask));
        }
        if pushed.is_empty() {
            return Ok(());
        }
        if cta.warps[w].call(pc + 1, &pushed, self.stack_depth).is_err() {
            return Err(Box::new((TrapKind::ReconvergenceStackOverflow { depth: self.stack_depth as u32 }, None, None)));
        }
        // Frames in stack order: the first group's frame ends on top.
        for f in frames.into_iter().rev() {
            cta.frames[w].push(f);
        }
        Ok(())
    }

    /// The bytes a call argument passes (size of the callee's parameter).
    fn arg_bytes(&self, cta: &Cta, w: usize, a: &Opd, size: u32, l: usize) -> Vec<u8> {
        let f = self.frame(cta, w);
        match a {
            Opd::Sym(Base::FParam(off)) => {
                let area = self.prog.funcs[f.func].param_area as usize;
                let start = l * area + *off as usize;
                f.params.get(start..start + size as usize).map(|s| s.to_vec()).unwrap_or_else(|| vec![0; size as usize])
            }
            o => {
                let t = match size {
                    1 => Type::B8,
                    2 => Type::B16,
                    4 => Type::B32,
                    _ => Type::B64,
                };
                self.read(cta, w, o, t, l).to_le_bytes()[..size.min(8) as usize].to_vec()
            }
        }
    }

    /// vprintf, malloc, free, __assertfail: serviced by the host, lane by lane.
    fn syscall(
        &mut self,
        cta: &mut Cta,
        w: usize,
        _i: &PInst,
        name: &str,
        args: &[Opd],
        rets: &[Opd],
        mask: u64,
    ) -> Result<(), Box<(Fault, Option<usize>, Option<u64>)>> {
        for l in lanes(mask) {
            self.stats.syscalls += 1;
            let arg = |m: &Self, k: usize, size: u32| -> u64 {
                let mut b = [0u8; 8];
                if let Some(a) = args.get(k) {
                    let v = m.arg_bytes(cta, w, a, size, l);
                    b[..v.len().min(8)].copy_from_slice(&v[..v.len().min(8)]);
                }
                u64::from_le_bytes(b)
            };
            let Some(call) = syscall::by_name(name) else {
                let reason = format!("call to `{name}`, which is declared but not defined");
                return Err(Box::new((TrapKind::InvalidInstruction { reason }, Some(l), None)));
            };
            // The PTX arguments as the ISA's argument registers (`syscall::service`).
            let mut regs = [0u32; 7];
            let words: &[(usize, u32)] = if call == syscall::ASSERTFAIL { &[(0, 8), (1, 8), (2, 4), (3, 8)] } else { &[(0, 8), (1, 8)] };
            let mut at = 0;
            for &(k, size) in words {
                let v = arg(self, k, size);
                regs[at] = v as u32;
                if size == 8 {
                    regs[at + 1] = (v >> 32) as u32;
                }
                at += size as usize / 4;
            }
            let regions =
                Regions { shared: &cta.shared, local: &cta.local[w * self.ws + l], consts: &self.prog.const_image, params: self.params };
            let v = syscall::service(call, &regs, self.global, regions, &mut self.stdout)
                .map_err(|(kind, addr)| Box::new((kind, Some(l), addr)))?;
            // vprintf returns an int, malloc a pointer; free returns nothing.
            let ret = match call {
                syscall::VPRINTF => Some((v, 4)),
                syscall::MALLOC => Some((v, 8)),
                _ => None,
            };
            if let (Some((v, size)), Some(dst)) = (ret, rets.first()) {
                let f = cta.frames[w].last_mut().expect("frame");
                let func = &self.prog.funcs[f.func];
                store_param_value(f, func, dst, l, self.ws, &v.to_le_bytes()[..size as usize]);
            }
        }
        Ok(())
    }

    fn alu(&mut self, cta: &mut Cta, w: usize, i: &PInst, l: usize) -> Result<(), Fault> {
        let ty = i.types.first().copied().unwrap_or(Type::B32);
        let m = i.mods;
        let a = &i.args;
        let legacy = self.prog.legacy;
        let ftz = m.has(Mod::Ftz) || (legacy && ty == Type::F32);
        let sat = m.has(Mod::Sat);
        let rnd = ops::rnd_of(m);
        let r = |s: &Self, k: usize, t: Type| s.read(cta, w, &a[k], t, l);
        let op = i.op;
        let is_f = ty.kind() == TypeKind::Float;
        let v: u64 = match op {
            // mov.v2/.v4: element by element.
            Op::Mov if i.vec > 1 => {
                let elems = |o: &Opd| -> Vec<Opd> {
                    match o {
                        Opd::Vec(v) => v.clone(),
                        other => vec![other.clone()],
                    }
                };
                let (ds, ss) = (elems(&a[0]), elems(&a[1]));
                let vals: Vec<u64> = ss.iter().map(|x| self.read(cta, w, x, ty, l)).collect();
                for (k, d) in ds.iter().enumerate() {
                    self.write(cta, w, d, ty, l, vals.get(k).copied().unwrap_or(0));
                }
                return Ok(());
            }
            Op::Mov => r(self, 1, ty),
            Op::Add | Op::Sub | Op::Addc | Op::Subc if !is_f => {
                let (x, y) = (r(self, 1, ty), r(self, 2, ty));
                let carry = cta.warps[w].carry >> l & 1 == 1;
                let cin = (op == Op::Addc || op == Op::Subc) && carry;
                let bitsz = ops::bits(ty);
                let (res, cout) = if matches!(op, Op::Add | Op::Addc) {
                    let wide = x as u128 + y as u128 + cin as u128;
                    (wide as u64, wide >> bitsz & 1 == 1)
                } else {
                    let sub = y as u128 + cin as u128;
                    ((x as u128).wrapping_sub(sub) as u64, (x as u128) < sub)
                };
                if m.has(Mod::Cc) {
                    let c = &mut cta.warps[w].carry;
                    *c = (*c & !(1 << l)) | (cout as u64) << l;
                }
                if sat && ty == Type::S32 {
                    let (sx, sy) = (ops::sext(x, ty) as i64, ops::sext(y, ty) as i64);
                    int::sat_s32(if op == Op::Add { sx + sy } else { sx - sy }) as u64
                } else {
                    res
                }
            }
            Op::Add | Op::Sub | Op::Mul | Op::Fma | Op::Mad if is_f => {
                let (x, y) = (r(self, 1, ty), r(self, 2, ty));
                let z = if matches!(op, Op::Fma | Op::Mad) { r(self, 3, ty) } else { 0 };
                match ty {
                    Type::F32 => {
                        let (x, y, z) = (x as u32, y as u32, z as u32);
                        (match op {
                            Op::Add => fp::add32(x, y, rnd, ftz, sat),
                            Op::Sub => fp::sub32(x, y, rnd, ftz, sat),
                            Op::Mul => fp::mul32(x, y, rnd, ftz, sat),
                            // FP-MAD32: with c = +-0 a separate mul then add.
                            _ if legacy && op == Op::Mad && z & 0x7fff_ffff == 0 => {
                                fp::add32(fp::mul32(x, y, Rnd::Rn, true, false), z, Rnd::Rn, true, sat)
                            }
                            _ if legacy && op == Op::Mad => legacy_mad32(x, y, z, sat),
                            _ => fp::fma32(x, y, z, rnd, ftz, sat),
                        }) as u64
                    }
                    Type::F64 => match op {
                        Op::Add => fp::add64(x, y, rnd),
                        Op::Sub => fp::sub64(x, y, rnd),
                        Op::Mul => fp::mul64(x, y, rnd),
                        _ => fp::fma64(x, y, z, rnd),
                    },
                    Type::F16 => {
                        let v = ops::f16_op(op, x, y, z, rnd);
                        if sat {
                            ops::float_sat(v, ty)
                        } else {
                            v
                        }
                    }
                    Type::F16x2 => {
                        let lo = ops::f16_op(op, x & 0xffff, y & 0xffff, z & 0xffff, rnd);
                        let hi = ops::f16_op(op, x >> 16, y >> 16, z >> 16, rnd);
                        lo | hi << 16
                    }
                    _ => return Err(TrapKind::InvalidInstruction { reason: format!("`{op}{}` is not supported", ty.name()) }),
                }
            }
            Op::Mul | Op::Mad | Op::Madc | Op::Mul24 | Op::Mad24 => {
                let (x, y) = (r(self, 1, ty), r(self, 2, ty));
                let s = ops::signed(ty);
                let bitsz = ops::bits(ty);
                let s24 = |v: u64| ((((v & 0xff_ffff) as u32) << 8) as i32 >> 8) as i128;
                let (xx, yy) = if matches!(op, Op::Mul24 | Op::Mad24) {
                    (if s { s24(x) } else { (x & 0xff_ffff) as i128 }, if s { s24(y) } else { (y & 0xff_ffff) as i128 })
                } else if s {
                    (ops::sext(x, ty) as i128, ops::sext(y, ty) as i128)
                } else {
                    (x as i128, y as i128)
                };
                let t = xx.wrapping_mul(yy) as u128;
                let wide = m.has(Mod::Wide);
                let part = if m.has(Mod::Hi) {
                    if matches!(op, Op::Mul24 | Op::Mad24) {
                        (t >> 16) as u64
                    } else {
                        (t >> bitsz) as u64
                    }
                } else {
                    t as u64
                };
                let dty = if wide {
                    match ty {
                        Type::U16 => Type::U32,
                        Type::S16 => Type::S32,
                        Type::U32 => Type::U64,
                        _ => Type::S64,
                    }
                } else {
                    ty
                };
                let res = if matches!(op, Op::Mad | Op::Madc | Op::Mad24) {
                    let c = r(self, 3, dty);
                    if sat && m.has(Mod::Hi) && ty == Type::S32 {
                        int::sat_s32(ops::sext(part, ty) + ops::sext(c, ty)) as u64
                    } else {
                        let carry = cta.warps[w].carry >> l & 1 == 1;
                        let cin = op == Op::Madc && carry;
                        let sum = ops::mask(part, dty) as u128 + ops::mask(c, dty) as u128 + cin as u128;
                        if m.has(Mod::Cc) {
                            let cc = &mut cta.warps[w].carry;
                            *cc = (*cc & !(1 << l)) | ((sum >> ops::bits(dty) & 1) as u64) << l;
                        }
                        sum as u64
                    }
                } else {
                    part
                };
                let d = &a[0];
                self.write(cta, w, d, dty, l, ops::mask(res, dty));
                return Ok(());
            }
            Op::Sad => {
                let (x, y, z) = (r(self, 1, ty), r(self, 2, ty), r(self, 3, ty));
                let lt = if ops::signed(ty) { ops::sext(x, ty) < ops::sext(y, ty) } else { x < y };
                z.wrapping_add(if lt { y.wrapping_sub(x) } else { x.wrapping_sub(y) })
            }
            Op::Div | Op::Rem if !is_f => int::div_rem(r(self, 1, ty), r(self, 2, ty), ops::bits(ty), ops::signed(ty), op == Op::Rem),
            Op::Div => {
                let (x, y) = (r(self, 1, ty), r(self, 2, ty));
                if ty == Type::F64 {
                    fp::div64(x, y, rnd)
                } else {
                    // div.approx and div.full are IEEE round-to-nearest division here: within both
                    // error bounds, and without a*(1/b)'s overflow for tiny divisors.
                    fp::div32(x as u32, y as u32, rnd, ftz) as u64
                }
            }
            Op::Abs | Op::Neg => {
                let x = r(self, 1, ty);
                match ty.kind() {
                    TypeKind::Float => {
                        let x = if ftz && ty == Type::F32 { fp::ftz32(x as u32) as u64 } else { x };
                        let sign = 1u64 << (ops::bits(ty) - 1);
                        let signs = if ty == Type::F16x2 { 0x8000_8000 } else { sign };
                        if op == Op::Abs {
                            x & !signs
                        } else {
                            x ^ signs
                        }
                    }
                    _ => {
                        let sx = ops::sext(x, ty);
                        (if op == Op::Abs { sx.wrapping_abs() } else { sx.wrapping_neg() }) as u64
                    }
                }
            }
            Op::Min | Op::Max => {
                let (x, y) = (r(self, 1, ty), r(self, 2, ty));
                let max = op == Op::Max;
                match ty {
                    Type::F32 => fp::minmax32(x as u32, y as u32, max, ftz) as u64,
                    Type::F64 => fp::minmax64(x, y, max),
                    _ if ops::signed(ty) => {
                        let (a2, b2) = (ops::sext(x, ty), ops::sext(y, ty));
                        (if (a2 < b2) != max { a2 } else { b2 }) as u64
                    }
                    _ => {
                        if (x < y) != max {
                            x
                        } else {
                            y
                        }
                    }
                }
            }
            Op::And | Op::Or | Op::Xor => {
                let (x, y) = (r(self, 1, ty), r(self, 2, ty));
                match op {
                    Op::And => x & y,
                    Op::Or => x | y,
                    _ => x ^ y,
                }
            }
            Op::Not => ops::mask(!r(self, 1, ty), ty),
            Op::Cnot => (r(self, 1, ty) == 0) as u64,
            Op::Shl | Op::Shr => {
                let x = r(self, 1, ty);
                let n = r(self, 2, Type::U32);
                let b = ops::bits(ty) as u64;
                if op == Op::Shl {
                    if n >= b {
                        0
                    } else {
                        x << n
                    }
                } else if ops::signed(ty) {
                    (ops::sext(x, ty) >> n.min(b - 1)) as u64
                } else if n >= b {
                    0
                } else {
                    x >> n
                }
            }
            Op::Shf => int::shf(
                r(self, 1, Type::B32) as u32,
                r(self, 3, Type::U32) as u32,
                r(self, 2, Type::B32) as u32,
                m.has(Mod::R),
                m.has(Mod::Clamp),
            ) as u64,
            Op::Popc => r(self, 1, ty).count_ones() as u64,
            Op::Clz => (r(self, 1, ty).leading_zeros() - (64 - ops::bits(ty))) as u64,
            Op::Brev => r(self, 1, ty).reverse_bits() >> (64 - ops::bits(ty)),
            Op::Bfind => {
                let x = r(self, 1, ty);
                let b = ops::bits(ty);
                let v = if ops::signed(ty) && ops::sext(x, ty) < 0 { ops::mask(!x, ty) } else { x };
                if v == 0 {
                    0xffff_ffff
                } else {
                    let pos = 63 - v.leading_zeros() as u64;
                    if m.has(Mod::Shiftamt) {
                        b as u64 - 1 - pos
                    } else {
                        pos
                    }
                }
            }
            Op::Bfe => {
                let x = r(self, 1, ty);
                let pos = r(self, 2, Type::U32) & 0xff;
                let len = r(self, 3, Type::U32) & 0xff;
                let msb = ops::bits(ty) as u64 - 1;
                let sbit = if !ops::signed(ty) || len == 0 { 0 } else { x >> (pos + len - 1).min(msb) & 1 };
                let mut d = 0u64;
                for k in 0..=msb {
                    let bit = if k < len && pos + k <= msb { x >> (pos + k) & 1 } else { sbit };
                    d |= bit << k;
                }
                d
            }
            Op::Bfi => {
                let (ins, base) = (r(self, 1, ty), r(self, 2, ty));
                let pos = r(self, 3, Type::U32) & 0xff;
                let len = r(self, 4, Type::U32) & 0xff;
                let msb = ops::bits(ty) as u64 - 1;
                let mut d = base;
                let mut k = 0;
                while k < len && pos + k <= msb {
                    d = (d & !(1 << (pos + k))) | ((ins >> k & 1) << (pos + k));
                    k += 1;
                }
                d
            }
            Op::Prmt => {
                let mode = [Mod::F4e, Mod::B4e, Mod::Rc8, Mod::Ecl, Mod::Ecr, Mod::Rc16]
                    .iter()
                    .position(|&n| m.has(n))
                    .map_or(0, |p| p as u32 + 1);
                int::prmt(r(self, 1, Type::B32) as u32, r(self, 3, Type::B32) as u32, r(self, 2, Type::B32) as u32, mode) as u64
            }
            Op::Lop3 => {
                let (x, y, z) = (r(self, 1, ty), r(self, 2, ty), r(self, 3, ty));
                let lut = r(self, 4, Type::U32) & 0xff;
                let mut d = 0u64;
                for k in 0..32 {
                    let idx = (x >> k & 1) << 2 | (y >> k & 1) << 1 | (z >> k & 1);
                    d |= (lut >> idx & 1) << k;
                }
                d
            }
            Op::Copysign => {
                let (x, y) = (r(self, 1, ty), r(self, 2, ty));
                let sign = 1u64 << (ops::bits(ty) - 1);
                (y & !sign) | (x & sign)
            }
            Op::Rcp | Op::Sqrt | Op::Rsqrt | Op::Sin | Op::Cos | Op::Lg2 | Op::Ex2 | Op::Tanh => {
                let x = r(self, 1, ty);
                if ty == Type::F64 {
                    match op {
                        Op::Rcp => fp::div64(1f64.to_bits(), x, rnd),
                        Op::Sqrt => fp::sqrt64(x, rnd),
                        // rsqrt.approx.f64: the correctly rounded 1/sqrt(x) of the rounded root.
                        Op::Rsqrt => fp::div64(1f64.to_bits(), fp::sqrt64(x, Rnd::Rn), Rnd::Rn),
                        _ => return Err(TrapKind::InvalidInstruction { reason: format!("`{op}.f64` is not supported") }),
                    }
                } else if ty == Type::F32 {
                    let x = x as u32;
                    let approx = m.has(Mod::Approx) || !(m.has(Mod::Rn) || m.has(Mod::Rz) || m.has(Mod::Rm) || m.has(Mod::Rp));
                    (match op {
                        Op::Rcp if !approx => fp::div32(1f32.to_bits(), x, rnd, ftz),
                        Op::Sqrt if !approx => fp::sqrt32(x, rnd, ftz),
                        Op::Rcp => sfu::rcp(x, ftz),
                        Op::Sqrt => sfu::sqrt(x, ftz),
                        Op::Rsqrt => sfu::rsqrt(x, ftz),
                        Op::Sin => sfu::sin(x, ftz),
                        Op::Cos => sfu::cos(x, ftz),
                        Op::Lg2 => sfu::lg2(x, ftz),
                        Op::Ex2 => sfu::ex2(x, ftz),
                        _ => sfu::tanh(x, ftz),
                    }) as u64
                } else {
                    // f16: through binary32 and the same SFU algorithms.
                    let f = fp::h2f(x as u32);
                    let y = match op {
                        Op::Ex2 => sfu::ex2(f, false),
                        _ => sfu::tanh(f, false),
                    };
                    fp::f2h(y, Rnd::Rn, false) as u64
                }
            }
            Op::Testp => {
                let x = ops::float_to_f64(r(self, 1, ty), ty, false);
                let res = if m.has(Mod::Finite) {
                    x.is_finite()
                } else if m.has(Mod::Infinite) {
                    x.is_infinite()
                } else if m.has(Mod::Number) {
                    !x.is_nan()
                } else if m.has(Mod::Notanumber) {
                    x.is_nan()
                } else if m.has(Mod::Normal) {
                    if ty == Type::F32 {
                        (x as f32).is_normal()
                    } else {
                        x.is_normal()
                    }
                } else if ty == Type::F32 {
                    (x as f32).is_subnormal()
                } else {
                    x.is_subnormal()
                };
                self.write(cta, w, &a[0], Type::Pred, l, res as u64);
                return Ok(());
            }
            Op::Setp | Op::Set => {
                let sty = if op == Op::Set { i.types.get(1).copied().unwrap_or(ty) } else { ty };
                let (x, y) = (r(self, 1, sty), r(self, 2, sty));
                let cmp = compare(m, sty, x, y, (m.has(Mod::Ftz) || legacy) && sty == Type::F32);
                let c = if a.len() > 3 { Some(r(self, 3, Type::Pred) & 1 == 1) } else { None };
                let comb = |v: bool| match c {
                    None => v,
                    Some(c) if m.has(Mod::And) => v && c,
                    Some(c) if m.has(Mod::Or) => v || c,
                    Some(c) => v ^ c,
                };
                if op == Op::Setp {
                    match &a[0] {
                        Opd::Pair(p, q) => {
                            self.set_pred(cta, w, *p, l, comb(cmp));
                            self.set_pred(cta, w, *q, l, comb(!cmp));
                        }
                        d => self.write(cta, w, d, Type::Pred, l, comb(cmp) as u64),
                    }
                    return Ok(());
                }
                let t = comb(cmp);
                if ty == Type::F32 {
                    (if t { 1f32.to_bits() } else { 0 }) as u64
                } else if t {
                    ops::mask(u64::MAX, ty)
                } else {
                    0
                }
            }
            Op::Selp => {
                if r(self, 3, Type::Pred) & 1 == 1 {
                    r(self, 1, ty)
                } else {
                    r(self, 2, ty)
                }
            }
            Op::Slct => {
                let cty = i.types.get(1).copied().unwrap_or(Type::S32);
                let c = r(self, 3, cty);
                let ge = if cty == Type::F32 {
                    let flush = m.has(Mod::Ftz) || legacy;
                    let cv = f32::from_bits(if flush { fp::ftz32(c as u32) } else { c as u32 });
                    cv >= 0.0
                } else {
                    ops::sext(c, cty) >= 0
                };
                if ge {
                    r(self, 1, ty)
                } else {
                    r(self, 2, ty)
                }
            }
            Op::Cvt => {
                let aty = i.types.get(1).copied().unwrap_or(ty);
                let x = r(self, 1, aty);
                let int_round = m.has(Mod::Rni) || m.has(Mod::Rzi) || m.has(Mod::Rmi) || m.has(Mod::Rpi);
                let rnd = if aty.kind() == TypeKind::Float && ty.kind() != TypeKind::Float && !int_round { Rnd::Rz } else { rnd };
                let c = Cvt {
                    rnd,
                    int_round,
                    // CVT-30: the sm_1x implicit flush skips .f64 and 64-bit integers.
                    ftz: m.has(Mod::Ftz)
                        || (legacy && (ty == Type::F32 || aty == Type::F32) && ty != Type::F64 && aty != Type::F64 && ty.size() < 8),
                    sat,
                    legacy,
                };
                ops::cvt(ty, aty, x, &c)
            }
            Op::Cvta => {
                let x = r(self, 1, ty);
                let win = i.space.and_then(memory_space).map_or(0, |s| space::window_base(s) as u64);
                if m.has(Mod::To) {
                    x.wrapping_sub(win)
                } else {
                    x.wrapping_add(win)
                }
            }
            Op::Isspacep => {
                let x = r(self, 1, Type::U64);
                let a32 = x as u32;
                let res = space::in_window(i.space.and_then(memory_space).unwrap_or(MSpace::Global), a32);
                self.write(cta, w, &a[0], Type::Pred, l, res as u64);
                return Ok(());
            }
            Op::Dp4a | Op::Dp2a => {
                let (aty, bty) = (ty, i.types.get(1).copied().unwrap_or(ty));
                let (x, y, z) = (r(self, 1, Type::B32), r(self, 2, Type::B32), r(self, 3, Type::B32));
                let lane8 = |v: u64, k: u32, s: bool| {
                    if s {
                        (v >> (8 * k)) as u8 as i8 as i64
                    } else {
                        (v >> (8 * k)) as u8 as i64
                    }
                };
                let lane16 = |v: u64, k: u32, s: bool| {
                    if s {
                        (v >> (16 * k)) as u16 as i16 as i64
                    } else {
                        (v >> (16 * k)) as u16 as i64
                    }
                };
                let mut acc = ops::sext(z, Type::S32);
                if op == Op::Dp4a {
                    for k in 0..4 {
                        acc += lane8(x, k, ops::signed(aty)) * lane8(y, k, ops::signed(bty));
                    }
                } else {
                    let off = if m.has(Mod::Hi) { 2 } else { 0 };
                    for k in 0..2 {
                        acc += lane16(x, k, ops::signed(aty)) * lane8(y, k + off, ops::signed(bty));
                    }
                }
                acc as u64
            }
            other => return Err(TrapKind::InvalidInstruction { reason: format!("`{other}` is not supported by the PTX interpreter") }),
        };
        let _ = i.line;
        self.write(cta, w, &a[0], ty, l, ops::mask(v, ty));
        Ok(())
    }
}

/// PTX 1.x `mad.f32` (FP-MAD32): the product's mantissa truncated to 23 bits, then an RN add, flushed.
fn legacy_mad32(a: u32, b: u32, c: u32, sat: bool) -> u32 {
    let (a, b, c) = (fp::ftz32(a), fp::ftz32(b), fp::ftz32(c));
    let p = f32::from_bits(a) as f64 * f32::from_bits(b) as f64;
    let t = if p.is_finite() && p != 0.0 { f64::from_bits(p.to_bits() & !((1u64 << 29) - 1)) } else { p };
    let s = t + f32::from_bits(c) as f64;
    fp::finish32((s as f32).to_bits(), true, sat)
}

/// A PTX comparison (setp/set) on values of type `t`.
fn compare(m: ModSet, t: Type, x: u64, y: u64, ftz: bool) -> bool {
    use Mod::*;
    if t.kind() == TypeKind::Float {
        let code = [Eq, Ne, Lt, Le, Gt, Ge, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan].iter().position(|&n| m.has(n)).unwrap_or(0) as u32;
        let (a, b) = (ops::float_to_f64(x, t, ftz), ops::float_to_f64(y, t, ftz));
        return fp::compare(a.partial_cmp(&b), code);
    }
    let s = ops::signed(t);
    let (a, b) = (ops::sext(x, t), ops::sext(y, t));
    let (ua, ub) = (ops::mask(x, t), ops::mask(y, t));
    if m.has(Mod::Eq) {
        ua == ub
    } else if m.has(Mod::Ne) {
        ua != ub
    } else if m.has(Mod::Lt) {
        if s {
            a < b
        } else {
            ua < ub
        }
    } else if m.has(Mod::Le) {
        if s {
            a <= b
        } else {
            ua <= ub
        }
    } else if m.has(Mod::Gt) {
        if s {
            a > b
        } else {
            ua > ub
        }
    } else if m.has(Mod::Ge) {
        if s {
            a >= b
        } else {
            ua >= ub
        }
    } else if m.has(Mod::Lo) {
        ua < ub
    } else if m.has(Mod::Ls) {
        ua <= ub
    } else if m.has(Mod::Hi) {
        ua > ub
    } else {
        ua >= ub
    }
}

/// The new memory value of an atomic.
fn atom_op(i: &PInst, ty: Type, old: u64, b: u64, c: u64) -> u64 {
    let m = i.mods;
    let s = ops::signed(ty);
    let v = if m.has(Mod::Add) {
        match ty {
            Type::F32 => fp::add32(old as u32, b as u32, Rnd::Rn, !m.has(Mod::Noftz), false) as u64,
            Type::F64 => fp::add64(old, b, Rnd::Rn),
            _ => old.wrapping_add(b),
        }
    } else if m.has(Mod::Cas) {
        if old == b {
            c
        } else {
            old
        }
    } else if m.has(Mod::Exch) {
        b
    } else if m.has(Mod::And) {
        old & b
    } else if m.has(Mod::Or) {
        old | b
    } else if m.has(Mod::Xor) {
        old ^ b
    } else if m.has(Mod::Inc) {
        if old >= b {
            0
        } else {
            old + 1
        }
    } else if m.has(Mod::Dec) {
        if old == 0 || old > b {
            b
        } else {
            old - 1
        }
    } else if m.has(Mod::Min) {
        if s {
            ops::sext(old, ty).min(ops::sext(b, ty)) as u64
        } else {
            old.min(b)
        }
    } else if s {
        ops::sext(old, ty).max(ops::sext(b, ty)) as u64
    } else {
        old.max(b)
    };
    ops::mask(v, ty)
}

/// Stores a parameter value for one lane into a frame: a `.param` location or a register.
fn store_param_value(f: &mut Frame, func: &Func, dst: &Opd, l: usize, ws: usize, bytes: &[u8]) {
    match dst {
        Opd::Sym(Base::FParam(off)) | Opd::Addr(Base::FParam(off), _) => {
            let area = func.param_area as usize;
            let start = l * area + *off as usize;
            if let Some(s) = f.params.get_mut(start..start + bytes.len()) {
                s.copy_from_slice(bytes);
            }
        }
        Opd::Reg(slot, ty) => {
            let mut b = [0u8; 8];
            b[..bytes.len().min(8)].copy_from_slice(&bytes[..bytes.len().min(8)]);
            f.regs[*slot as usize * ws + l] = ops::mask(u64::from_le_bytes(b), *ty);
        }
        _ => {}
    }
}
