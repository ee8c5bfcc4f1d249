//! One warp instruction: the semantics of every opcode.

// The lane helpers take every row index they touch; bundling them would only rename them.
#![allow(clippy::too_many_arguments)]

use super::{Cta, Dec, Machine, BARRIERS};
use crate::launch::Tracer;

use crate::retire::{MemAccess, MemKind, PredWrite, RegWrite, Retire};
use crate::space::{resolve, MemFault, Spaces};
use crate::stats::MemCounts;
use crate::trap::{Space, Trap, TrapKind};
use crate::warp::Step;
use heddle_isa::fields::{PT, RPC_NONE, RZ};
use heddle_isa::mem;
use heddle_isa::scalar::fp::{self, IntTy, Rnd};
use heddle_isa::scalar::{int, sfu};
use heddle_isa::sreg::SReg;
use heddle_isa::table::{Format, ModKind};
use heddle_isa::values::ICmp;
use heddle_isa::Opcode;

fn full(ws: usize) -> u64 {
    if ws == 64 {
        u64::MAX
    } else {
        (1u64 << ws) - 1
    }
}

/// Runs `$body` for each lane `$l` in `$mask` (a plain loop when every lane runs).
macro_rules! lanes {
    ($mask:expr, $ws:expr, $l:ident => $body:block) => {{
        let m: u64 = $mask;
        if m == full($ws) {
            for $l in 0..$ws $body
        } else {
            let mut mm = m;
            while mm != 0 {
                let $l = mm.trailing_zeros() as usize;
                mm &= mm - 1;
                $body
            }
        }
    }};
}

/// A warp of the fixed size `N`: fixed-size rows let the compiler unroll and
/// vectorize. Results go to a scratch row first, because the destination may
/// also be a source.
#[inline(always)]
fn map3_n<const N: usize>(
    regs: &mut [u32],
    exec: u64,
    d: usize,
    a: usize,
    b: usize,
    c: usize,
    imm: Option<u32>,
    f: impl Fn(u32, u32, u32) -> u32,
) {
    let mut out: [u32; N] = regs[d..d + N].try_into().expect("row");
    let av: &[u32; N] = regs[a..a + N].try_into().expect("row");
    let cv: &[u32; N] = regs[c..c + N].try_into().expect("row");
    let bv: [u32; N] = match imm {
        Some(v) => [v; N],
        None => regs[b..b + N].try_into().expect("row"),
    };
    if exec == full(N) {
        for l in 0..N {
            out[l] = f(av[l], bv[l], cv[l]);
        }
    } else {
        // Pure operations: compute every lane, keep the old value where inactive.
        for l in 0..N {
            let r = f(av[l], bv[l], cv[l]);
            out[l] = if exec >> l & 1 == 1 { r } else { out[l] };
        }
    }
    regs[d..d + N].copy_from_slice(&out);
}

/// d = f(a, b, c) on the lanes of `exec`; `b` is the immediate where given
/// (`c` reads the zero row when unused).
#[inline(always)]
fn map3(
    regs: &mut [u32],
    ws: usize,
    exec: u64,
    d: usize,
    a: usize,
    b: usize,
    c: usize,
    imm: Option<u32>,
    f: impl Fn(u32, u32, u32) -> u32,
) {
    match ws {
        32 => return map3_n::<32>(regs, exec, d, a, b, c, imm, f),
        8 => return map3_n::<8>(regs, exec, d, a, b, c, imm, f),
        _ => {}
    }
    lanes!(exec, ws, l => {
        regs[d + l] = f(regs[a + l], imm.unwrap_or(regs[b + l]), regs[c + l]);
    });
}

#[inline(always)]
fn map2(regs: &mut [u32], ws: usize, exec: u64, d: usize, a: usize, b: usize, imm: Option<u32>, f: impl Fn(u32, u32) -> u32) {
    // The `c` operand is the `a` row, ignored.
    map3(regs, ws, exec, d, a, b, a, imm, |x, y, _| f(x, y))
}

/// Lanes of `exec` where f(a, b) holds, as a mask.
#[inline(always)]
fn test2(regs: &[u32], ws: usize, exec: u64, a: usize, b: usize, imm: Option<u32>, f: impl Fn(u32, u32) -> bool) -> u64 {
    let mut bits = 0u64;
    if exec == full(ws) && ws == 32 {
        let av: &[u32; 32] = regs[a..a + 32].try_into().expect("row");
        let bv: [u32; 32] = match imm {
            Some(v) => [v; 32],
            None => regs[b..b + 32].try_into().expect("row"),
        };
        for l in 0..32 {
            bits |= (f(av[l], bv[l]) as u64) << l;
        }
        return bits;
    }
    lanes!(exec, ws, l => {
        bits |= (f(regs[a + l], imm.unwrap_or(regs[b + l])) as u64) << l;
    });
    bits
}

#[inline(always)]
fn map1(regs: &mut [u32], ws: usize, exec: u64, d: usize, a: usize, f: impl Fn(u32) -> u32) {
    map2(regs, ws, exec, d, a, a, Some(0), |x, _| f(x))
}

/// binary64 operations on register pairs (rows r and r+1).
#[inline(always)]
fn get64(regs: &[u32], ws: usize, r: usize, l: usize) -> u64 {
    regs[r + l] as u64 | (regs[r + ws + l] as u64) << 32
}

#[inline(always)]
fn set64(regs: &mut [u32], ws: usize, r: usize, l: usize, v: u64) {
    regs[r + l] = v as u32;
    regs[r + ws + l] = (v >> 32) as u32;
}

fn bit(mask: u64, l: usize) -> bool {
    mask >> l & 1 == 1
}

/// A predicate operand packed as 3 bits and a negation bit, as a lane mask.
fn pred_mask(preds: &[u64; 8], packed: u8) -> u64 {
    let p = preds[(packed & 7) as usize];
    if packed & 8 != 0 {
        !p
    } else {
        p
    }
}

fn write_pred(preds: &mut [u64; 8], p: u8, value: u64, exec: u64) {
    if p != PT {
        preds[p as usize] = (preds[p as usize] & !exec) | (value & exec);
    }
}

/// Why an access failed (kept small: it is returned on the hot path).
impl MemCounts {
    fn count(&mut self, kind: MemKind) {
        match kind {
            MemKind::Load => self.loads += 1,
            MemKind::Store => self.stores += 1,
            MemKind::Atomic => self.atomics += 1,
        }
    }
}

impl Machine<'_> {
    /// Bounds- and alignment-checks an access; returns where its bytes start in the
    /// backing store of `space`. The error is small (hot path); see [`MemFault::kind`].
    #[inline]
    pub(crate) fn locate(
        &self,
        cta: &Cta,
        w: usize,
        lane: usize,
        space: Space,
        off: u32,
        size: u32,
        write: bool,
    ) -> Result<usize, MemFault> {
        let spaces = Spaces {
            global: self.global,
            shared_len: cta.shared.len(),
            local_bytes: self.local_bytes,
            consts_len: self.consts.len(),
            params_len: self.params.len(),
        };
        spaces.locate(w * self.ws + lane, space, off, size, write)
    }

    #[inline]
    fn backing<'s>(&'s self, cta: &'s Cta, space: Space) -> &'s [u8] {
        match space {
            Space::Global => self.global.bytes(),
            Space::Shared => &cta.shared,
            Space::Local => &cta.local,
            Space::Const => self.consts,
            Space::Param => self.params,
        }
    }

    #[inline]
    fn backing_mut<'s>(&'s mut self, cta: &'s mut Cta, space: Space) -> &'s mut [u8] {
        match space {
            Space::Global => self.global.bytes_mut(),
            Space::Shared => &mut cta.shared,
            Space::Local => &mut cta.local,
            Space::Const | Space::Param => {
                unreachable!("locate refuses writes to read-only spaces")
            }
        }
    }

    #[inline]
    fn count_mem(&mut self, space: Space, kind: MemKind) {
        let s = &mut self.stats;
        match space {
            Space::Global => s.global.count(kind),
            Space::Shared => s.shared.count(kind),
            Space::Local => s.local.count(kind),
            Space::Const => s.constant.count(kind),
            Space::Param => s.param.count(kind),
        }
    }

    fn special(&self, cta: &Cta, w: usize, l: usize, sr: u8, active: u64) -> u32 {
        let t = (w * self.ws + l) as u32;
        let [bx, by, _] = self.block;
        let lane_bit = 1u64 << l;
        let lm = |m: u64| (m & full(self.ws)) as u32;
        match SReg::from_code(sr) {
            Some(SReg::TidX) => t % bx,
            Some(SReg::TidY) => t / bx % by,
            Some(SReg::TidZ) => t / (bx * by),
            Some(SReg::NtidX) => self.block[0],
            Some(SReg::NtidY) => self.block[1],
            Some(SReg::NtidZ) => self.block[2],
            Some(SReg::CtaidX) => cta.id[0],
            Some(SReg::CtaidY) => cta.id[1],
            Some(SReg::CtaidZ) => cta.id[2],
            Some(SReg::NctaidX) => self.grid[0],
            Some(SReg::NctaidY) => self.grid[1],
            Some(SReg::NctaidZ) => self.grid[2],
            Some(SReg::LaneId) => l as u32,
            Some(SReg::WarpId) => w as u32,
            Some(SReg::NWarpId) => cta.warps.len() as u32,
            Some(SReg::SmId) => 0,
            Some(SReg::NSmId) => 1,
            Some(SReg::GridId) => self.gridid,
            Some(SReg::Clock) => cta.warps[w].retired as u32,
            Some(SReg::ClockHi) => (cta.warps[w].retired >> 32) as u32,
            Some(SReg::LanemaskEq) => lm(lane_bit),
            Some(SReg::LanemaskLe) => lm((lane_bit << 1).wrapping_sub(1)),
            Some(SReg::LanemaskLt) => lm(lane_bit - 1),
            Some(SReg::LanemaskGe) => lm(!(lane_bit - 1)),
            Some(SReg::LanemaskGt) => lm(!((lane_bit << 1).wrapping_sub(1))),
            Some(SReg::ActiveMask) => active as u32,
            Some(SReg::WarpSize) => self.ws as u32,
            Some(SReg::DynSmem) => self.dynamic_shared,
            Some(SReg::TotalSmem) => cta.shared.len() as u32,
            None => 0,
        }
    }

    /// Threads of the CTA still running.
    fn live_threads(cta: &Cta) -> u32 {
        cta.warps.iter().map(|w| w.live().count_ones()).sum()
    }

    /// Completes every barrier whose expected threads have all arrived, writing
    /// `barred` results to the waiting warps.
    pub(crate) fn check_barriers(&self, cta: &mut Cta) {
        let live = Self::live_threads(cta);
        for b in 0..BARRIERS {
            let bar = cta.bars[b];
            if bar.arrived == 0 {
                continue;
            }
            let expected = if bar.expected == 0 { live } else { bar.expected };
            if bar.arrived >= expected {
                cta.bars[b] = Default::default();
                for w in 0..cta.warps.len() {
                    if !cta.warps[w].wait.is_some_and(|(id, _)| id as usize == b) {
                        continue;
                    }
                    cta.warps[w].wait = None;
                    if let Some((row, op)) = cta.red_dst[w].take() {
                        let v = match op {
                            0 => bar.count,
                            1 => (bar.count == bar.red_threads) as u32,
                            _ => (bar.count > 0) as u32,
                        };
                        let base = self.ri(w, row);
                        let mut m = cta.warps[w].live();
                        while m != 0 {
                            let l = m.trailing_zeros() as usize;
                            m &= m - 1;
                            cta.regs[base + l] = v;
                        }
                    }
                }
            }
        }
    }

    pub(crate) fn step<T: Tracer>(&mut self, cta: &mut Cta, w: usize, tracer: &mut T) -> Result<Step, Box<Trap>> {
        let Some(top) = cta.warps[w].top() else {
            return Ok(Step::Finished);
        };
        let pc = top.pc;
        let prog = std::rc::Rc::clone(&self.prog);
        let Some(dec) = prog.get(pc as usize) else {
            let reason = format!("pc {pc} is outside the program ({} instructions)", self.prog.len());
            return Err(self.trap(cta, w, None, pc, TrapKind::InvalidInstruction { reason }, None));
        };
        if let Some(r) = dec.bad_reg {
            let reason = format!("r{r} is beyond the kernel's {} registers", self.nregs);
            return Err(self.trap(cta, w, None, pc, TrapKind::InvalidInstruction { reason }, None));
        }
        if let Err(kind) = self.watch.count(&mut self.stats.warp_instructions, self.budget, self.ctas_started, self.ctas) {
            return Err(self.trap(cta, w, None, pc, kind, None));
        }
        let i = dec.inst;
        let ws = self.ws;
        let warp = &mut cta.warps[w];
        warp.retired += 1;
        let guard = warp.preds[i.guard.pred as usize];
        let exec = top.mask & if i.guard.neg { !guard } else { guard };
        self.stats.thread_instructions += exec.count_ones() as u64;
        self.stats.count_control(i.op, top.mask, exec);
        // As the SM decodes it: not implemented; an FP atomic add only where a lane executes it.
        if let Some(unit) = dec.missing.filter(|_| i.op != Opcode::Atom || exec != 0) {
            return Err(self.trap(cta, w, None, pc, TrapKind::not_built(&i, unit), None));
        }
        warp.stack.last_mut().expect("top exists").pc = pc + 1;
        if T::ON {
            self.mem_log.clear();
        }
        let (d, a, b, c) = (self.ri(w, dec.dw), self.ri(w, dec.a), self.ri(w, dec.b), self.ri(w, dec.c));
        let imm = dec.imm;
        let m = |k: ModKind| dec.m[k as usize] as u32;
        let rnd = Rnd::from_bits(m(ModKind::Rnd));
        let ftz = m(ModKind::Ftz) == 1;
        let sat = m(ModKind::Sat) == 1;
        let signed = m(ModKind::Sign) == 1;
        let mut step = Step::Ran;
        let regs = &mut cta.regs;
        match i.op {
            Opcode::Nop | Opcode::Fence => {}
            Opcode::Mov => map2(regs, ws, exec, d, a, b, imm, |_, b| b),
            Opcode::Add | Opcode::Sub | Opcode::Mad => {
                let (cc, x) = (m(ModKind::Cc) == 1, m(ModKind::X) == 1);
                let (hi, is_add) = (m(ModKind::Hi) == 1, i.op == Opcode::Add);
                if !cc && !x && !sat {
                    match i.op {
                        Opcode::Add => map2(regs, ws, exec, d, a, b, imm, u32::wrapping_add),
                        Opcode::Sub => map2(regs, ws, exec, d, a, b, imm, u32::wrapping_sub),
                        _ => map3(regs, ws, exec, d, a, b, c, imm, |a, b, c| int::mul(a, b, hi, signed).wrapping_add(c)),
                    }
                } else {
                    let cin_mask = cta.warps[w].carry;
                    let mut cout = cin_mask;
                    lanes!(exec, ws, l => {
                        let bv = imm.unwrap_or(regs[b + l]);
                        let cin = x && bit(cin_mask, l);
                        let (r, co) = match i.op {
                            Opcode::Mad => int::mad(regs[a + l], bv, regs[c + l], hi, signed, cin, sat),
                            _ if is_add => int::add(regs[a + l], bv, cin, sat),
                            _ => int::sub(regs[a + l], bv, cin, sat),
                        };
                        regs[d + l] = r;
                        cout = (cout & !(1 << l)) | (co as u64) << l;
                    });
                    if cc {
                        cta.warps[w].carry = cout;
                    }
                }
            }
            Opcode::Mul => {
                let hi = m(ModKind::Hi) == 1;
                map2(regs, ws, exec, d, a, b, imm, |a, b| int::mul(a, b, hi, signed))
            }
            Opcode::Min | Opcode::Max => {
                let max = i.op == Opcode::Max;
                map2(regs, ws, exec, d, a, b, imm, |a, b| int::min_max(a, b, max, signed))
            }
            Opcode::Abs => map1(regs, ws, exec, d, a, |a| (a as i32).wrapping_abs() as u32),
            Opcode::And => map2(regs, ws, exec, d, a, b, imm, |a, b| a & b),
            Opcode::Or => map2(regs, ws, exec, d, a, b, imm, |a, b| a | b),
            Opcode::Xor => map2(regs, ws, exec, d, a, b, imm, |a, b| a ^ b),
            Opcode::Shl => map2(regs, ws, exec, d, a, b, imm, int::shl),
            Opcode::Shr => map2(regs, ws, exec, d, a, b, imm, |a, b| int::shr(a, b, signed)),
            Opcode::Shf => {
                let (right, clamp) = (m(ModKind::ShfDir) == 1, m(ModKind::Clamp) == 1);
                map3(regs, ws, exec, d, a, b, c, imm, |a, b, c| int::shf(a, b, c, right, clamp))
            }
            Opcode::Popc => map1(regs, ws, exec, d, a, u32::count_ones),
            Opcode::Clz => map1(regs, ws, exec, d, a, u32::leading_zeros),
            Opcode::Brev => map1(regs, ws, exec, d, a, u32::reverse_bits),
            Opcode::Bfind => {
                let shiftamt = m(ModKind::ShiftAmt) == 1;
                map1(regs, ws, exec, d, a, |a| int::bfind(a, signed, shiftamt))
            }
            Opcode::Bfe => map2(regs, ws, exec, d, a, b, imm, |a, b| int::bfe(a, b, signed)),
            Opcode::Bfi => map3(regs, ws, exec, d, a, b, c, imm, int::bfi),
            Opcode::Prmt => {
                let mode = m(ModKind::PrmtMode);
                map3(regs, ws, exec, d, a, b, c, imm, |a, b, c| int::prmt(a, b, c, mode))
            }
            Opcode::Isetp | Opcode::Fsetp | Opcode::Dsetp | Opcode::Isetp64 => {
                let cmp = if matches!(i.op, Opcode::Isetp | Opcode::Isetp64) { m(ModKind::ICmp) } else { m(ModKind::FCmp) };
                let fz = m(ModKind::FtzExt) == 1;
                let bits = match i.op {
                    Opcode::Isetp => test2(regs, ws, exec, a, b, imm, |x, y| int::compare(x, y, ICmp::decode(cmp))),
                    Opcode::Fsetp => test2(regs, ws, exec, a, b, imm, |x, y| fp::setp32(x, y, cmp, fz)),
                    _ => {
                        let mut bits = 0u64;
                        lanes!(exec, ws, l => {
                            let (x, y) = (get64(regs, ws, a, l), get64(regs, ws, b, l));
                            let r = if i.op == Opcode::Isetp64 { int::compare(x, y, ICmp::decode(cmp)) } else { fp::setp64(x, y, cmp) };
                            bits |= (r as u64) << l;
                        });
                        bits
                    }
                };
                let preds = &mut cta.warps[w].preds;
                let pc_mask = pred_mask(preds, (i.d >> 3) & 0xf);
                let v = match m(ModKind::BoolOp) {
                    0 => bits & pc_mask,
                    1 => bits | pc_mask,
                    _ => bits ^ pc_mask,
                };
                write_pred(preds, i.d & 7, v, exec);
            }
            Opcode::Sel => {
                let p = pred_mask(&cta.warps[w].preds, i.mods & 0xf);
                map3(regs, ws, exec & p, d, a, b, c, imm, |a, _, _| a);
                map3(regs, ws, exec & !p, d, a, b, c, imm, |_, b, _| b);
            }
            Opcode::Plop => {
                let preds = &mut cta.warps[w].preds;
                let pb = match i.b {
                    heddle_isa::Operand::Reg(r) => r,
                    heddle_isa::Operand::Imm(_) => 0,
                };
                let (x, y) = (pred_mask(preds, i.a), pred_mask(preds, pb));
                let v = match m(ModKind::BoolOp) {
                    0 => x & y,
                    1 => x | y,
                    _ => x ^ y,
                };
                write_pred(preds, i.d & 7, v, exec);
            }
            Opcode::S2r => {
                lanes!(exec, ws, l => {
                    let v = self.special(cta, w, l, i.a, top.mask);
                    cta.regs[d + l] = v;
                });
            }
            // Round-to-nearest without ftz/sat: native arithmetic, vectorizable.
            Opcode::Fadd | Opcode::Fsub | Opcode::Fmul if rnd == Rnd::Rn && !ftz && !sat => {
                let g = f32::from_bits;
                match i.op {
                    Opcode::Fadd => map2(regs, ws, exec, d, a, b, imm, |a, b| fp::finish32((g(a) + g(b)).to_bits(), false, false)),
                    Opcode::Fsub => map2(regs, ws, exec, d, a, b, imm, |a, b| fp::finish32((g(a) - g(b)).to_bits(), false, false)),
                    _ => map2(regs, ws, exec, d, a, b, imm, |a, b| fp::finish32((g(a) * g(b)).to_bits(), false, false)),
                }
            }
            Opcode::Fadd => map2(regs, ws, exec, d, a, b, imm, |a, b| fp::add32(a, b, rnd, ftz, sat)),
            Opcode::Fsub => map2(regs, ws, exec, d, a, b, imm, |a, b| fp::sub32(a, b, rnd, ftz, sat)),
            Opcode::Fmul => map2(regs, ws, exec, d, a, b, imm, |a, b| fp::mul32(a, b, rnd, ftz, sat)),
            Opcode::Ffma => map3(regs, ws, exec, d, a, b, c, imm, |a, b, c| fp::fma32(a, b, c, rnd, ftz, sat)),
            Opcode::Fmin => map2(regs, ws, exec, d, a, b, imm, |a, b| fp::minmax32(a, b, false, ftz)),
            Opcode::Fmax => map2(regs, ws, exec, d, a, b, imm, |a, b| fp::minmax32(a, b, true, ftz)),
            Opcode::Frnd => map1(regs, ws, exec, d, a, |a| fp::rnd32(a, rnd, ftz)),
            Opcode::F2i => {
                let ty = IntTy::from_bits(m(ModKind::IntTy));
                lanes!(exec, ws, l => {
                    let v = fp::f2i(regs[a + l], rnd, ftz, ty);
                    if ty.is_64() { set64(regs, ws, d, l, v) } else { regs[d + l] = v as u32 }
                });
            }
            Opcode::I2f => {
                let ty = IntTy::from_bits(m(ModKind::IntTy));
                lanes!(exec, ws, l => {
                    let v = if ty.is_64() { get64(regs, ws, a, l) } else { regs[a + l] as u64 };
                    regs[d + l] = fp::i2f(v, rnd, ty);
                });
            }
            Opcode::F2h => map1(regs, ws, exec, d, a, |a| fp::f2h(a, rnd, ftz)),
            Opcode::H2f => map1(regs, ws, exec, d, a, fp::h2f),
            Opcode::Mufu => {
                let sfn = m(ModKind::SfuFn);
                map1(regs, ws, exec, d, a, |a| sfu::mufu(sfn, a, ftz))
            }
            Opcode::Dadd | Opcode::Dsub | Opcode::Dmul | Opcode::Dmin | Opcode::Dmax => {
                lanes!(exec, ws, l => {
                    let (x, y) = (get64(regs, ws, a, l), get64(regs, ws, b, l));
                    let v = match i.op {
                        Opcode::Dadd => fp::add64(x, y, rnd),
                        Opcode::Dsub => fp::sub64(x, y, rnd),
                        Opcode::Dmul => fp::mul64(x, y, rnd),
                        Opcode::Dmin => fp::minmax64(x, y, false),
                        _ => fp::minmax64(x, y, true),
                    };
                    set64(regs, ws, d, l, v);
                });
            }
            Opcode::Dfma => lanes!(exec, ws, l => {
                let v = fp::fma64(get64(regs, ws, a, l), get64(regs, ws, b, l), get64(regs, ws, c, l), rnd);
                set64(regs, ws, d, l, v);
            }),
            Opcode::Drnd => lanes!(exec, ws, l => {
                let v = fp::rnd64(get64(regs, ws, a, l), rnd);
                set64(regs, ws, d, l, v);
            }),
            Opcode::F2d => lanes!(exec, ws, l => {
                let v = fp::f2d(regs[a + l], ftz);
                set64(regs, ws, d, l, v);
            }),
            Opcode::D2f => lanes!(exec, ws, l => {
                regs[d + l] = fp::d2f(get64(regs, ws, a, l), rnd, ftz, sat);
            }),
            Opcode::D2i => {
                let ty = IntTy::from_bits(m(ModKind::IntTy));
                lanes!(exec, ws, l => {
                    let v = fp::d2i(get64(regs, ws, a, l), rnd, ty);
                    if ty.is_64() { set64(regs, ws, d, l, v) } else { regs[d + l] = v as u32 }
                });
            }
            Opcode::I2d => {
                let ty = IntTy::from_bits(m(ModKind::IntTy));
                lanes!(exec, ws, l => {
                    let v = if ty.is_64() { get64(regs, ws, a, l) } else { regs[a + l] as u64 };
                    set64(regs, ws, d, l, fp::i2d(v, rnd, ty));
                });
            }
            Opcode::Div | Opcode::Rem => {
                let rem = i.op == Opcode::Rem;
                map2(regs, ws, exec, d, a, b, imm, |x, y| int::div_rem(x as u64, y as u64, 32, signed, rem) as u32)
            }
            Opcode::Div64 | Opcode::Rem64 | Opcode::Mul64 | Opcode::Ddiv => lanes!(exec, ws, l => {
                let (x, y) = (get64(regs, ws, a, l), get64(regs, ws, b, l));
                let v = match i.op {
                    Opcode::Div64 => int::div_rem(x, y, 64, signed, false),
                    Opcode::Rem64 => int::div_rem(x, y, 64, signed, true),
                    Opcode::Ddiv => fp::div64(x, y, rnd),
                    _ => int::mul64(x, y, m(ModKind::Hi) == 1, signed),
                };
                set64(regs, ws, d, l, v);
            }),
            Opcode::Shl64 | Opcode::Shr64 => lanes!(exec, ws, l => {
                let x = get64(regs, ws, a, l);
                let n = imm.unwrap_or(regs[b + l]);
                let v = if i.op == Opcode::Shl64 { int::shl(x, n) } else { int::shr(x, n, signed) };
                set64(regs, ws, d, l, v);
            }),
            Opcode::Fdiv => map2(regs, ws, exec, d, a, b, imm, |x, y| fp::div32(x, y, rnd, ftz)),
            Opcode::Fsqrt => map1(regs, ws, exec, d, a, |x| fp::sqrt32(x, rnd, ftz)),
            Opcode::Dsqrt => lanes!(exec, ws, l => {
                let v = fp::sqrt64(get64(regs, ws, a, l), rnd);
                set64(regs, ws, d, l, v);
            }),
            Opcode::Ld | Opcode::St => self.load_store::<T>(cta, w, pc, dec, exec)?,
            Opcode::Atom => self.atomic::<T>(cta, w, pc, dec, exec)?,
            Opcode::Bra => {
                let (target, join) = (imm.unwrap_or(0), i.rpc());
                let warp = &mut cta.warps[w];
                if join == RPC_NONE && exec != 0 && exec != top.mask {
                    return Err(self.trap(cta, w, None, pc, TrapKind::DivergentUniformBranch, None));
                }
                if warp.branch(pc, target, join, exec, self.stack_depth).is_err() {
                    return Err(self.overflow(cta, w, pc));
                }
            }
            Opcode::Call | Opcode::Calli => {
                let mut groups: Vec<(u32, u64)> = vec![];
                if i.op == Opcode::Call {
                    if exec != 0 {
                        groups.push((imm.unwrap_or(0), exec));
                    }
                } else {
                    lanes!(exec, ws, l => {
                        let t = regs[a + l];
                        match groups.iter_mut().find(|g| g.0 == t) {
                            Some(g) => g.1 |= 1 << l,
                            None => groups.push((t, 1 << l)),
                        }
                    });
                }
                if cta.warps[w].call(pc + 1, &groups, self.stack_depth).is_err() {
                    return Err(self.overflow(cta, w, pc));
                }
            }
            Opcode::Ret => {
                cta.warps[w].ret(exec);
                if cta.warps[w].exited & exec != 0 {
                    self.check_barriers(cta);
                }
            }
            Opcode::Exit => {
                cta.warps[w].exit(exec);
                self.check_barriers(cta);
            }
            Opcode::Bar => {
                if exec != 0 {
                    let first = exec.trailing_zeros() as usize;
                    let id = imm.unwrap_or(regs[b + first]);
                    let count = regs[a + first];
                    if id as usize >= BARRIERS {
                        let reason = format!("barrier {id} does not exist (0..={})", BARRIERS - 1);
                        return Err(self.trap(cta, w, Some(first), pc, TrapKind::InvalidInstruction { reason }, None));
                    }
                    let warp = &mut cta.warps[w];
                    let bar = &mut cta.bars[id as usize];
                    bar.arrived += warp.live().count_ones();
                    bar.expected = count;
                    if m(ModKind::BarMode) == 0 {
                        warp.wait = Some((id as u8, pc));
                    }
                    self.check_barriers(cta);
                    if cta.warps[w].wait.is_some() {
                        step = Step::Blocked;
                    }
                }
            }
            Opcode::Barred => {
                if exec != 0 {
                    let first = exec.trailing_zeros() as usize;
                    let id = imm.unwrap_or(regs[b + first]);
                    if id as usize >= BARRIERS {
                        let reason = format!("barrier {id} does not exist (0..={})", BARRIERS - 1);
                        return Err(self.trap(cta, w, Some(first), pc, TrapKind::InvalidInstruction { reason }, None));
                    }
                    let warp = &mut cta.warps[w];
                    let live = warp.live();
                    let p = pred_mask(&warp.preds, i.a) & live;
                    let bar = &mut cta.bars[id as usize];
                    bar.arrived += live.count_ones();
                    bar.count += p.count_ones();
                    bar.red_threads += live.count_ones();
                    warp.wait = Some((id as u8, pc));
                    cta.red_dst[w] = Some((dec.dw, m(ModKind::RedOp)));
                    self.check_barriers(cta);
                    if cta.warps[w].wait.is_some() {
                        step = Step::Blocked;
                    }
                }
            }
            Opcode::Vote => {
                let preds = &mut cta.warps[w].preds;
                let v = pred_mask(preds, i.a) & exec;
                let r = match m(ModKind::VoteMode) {
                    0 => v == exec,
                    1 => v != 0,
                    _ => v == 0 || v == exec,
                };
                write_pred(preds, i.d & 7, if r { u64::MAX } else { 0 }, exec);
            }
            Opcode::Ballot => {
                let v = (pred_mask(&cta.warps[w].preds, i.a) & exec) as u32;
                map1(regs, ws, exec, d, a, |_| v);
            }
            Opcode::Shfl => self.shuffle(cta, w, dec, exec, top.mask),
            Opcode::Syscall => self.syscall(cta, w, pc, dec, exec)?,
            Opcode::Trap | Opcode::Brkpt => {
                if exec != 0 {
                    let kind = if i.op == Opcode::Trap { TrapKind::UserTrap } else { TrapKind::Breakpoint };
                    return Err(self.trap(cta, w, Some(exec.trailing_zeros() as usize), pc, kind, None));
                }
            }
        }
        if T::ON {
            self.seq += 1;
            let r = self.retire_record(cta, w, pc, dec, top.mask, exec);
            tracer.retire(r);
        }
        // An instruction ran (even one that ended the warp): that is progress.
        if cta.warps[w].live() == 0 {
            cta.warps[w].finished = true;
        }
        Ok(step)
    }

    fn overflow(&self, cta: &Cta, w: usize, pc: u32) -> Box<Trap> {
        self.trap(cta, w, None, pc, TrapKind::ReconvergenceStackOverflow { depth: self.stack_depth as u32 }, None)
    }

    fn load_store<T: Tracer>(&mut self, cta: &mut Cta, w: usize, pc: u32, dec: &Dec, exec: u64) -> Result<(), Box<Trap>> {
        let i = dec.inst;
        let ws = self.ws;
        let width = dec.m[ModKind::Width as usize] as u32;
        let size = mem::WIDTH_BYTES[width as usize];
        let space_mod = dec.m[ModKind::Space as usize] as u32;
        let store = i.op == Opcode::St;
        let kind = if store { MemKind::Store } else { MemKind::Load };
        let (a, b) = (self.ri(w, dec.a), self.ri(w, dec.b));
        let (d, dr) = (self.ri(w, dec.dw), self.ri(w, dec.dr));
        let nregs = (size / 4).max(1) as usize;
        let mut mm = exec;
        while mm != 0 {
            let l = mm.trailing_zeros() as usize;
            mm &= mm - 1;
            let addr = cta.regs[a + l].wrapping_add(dec.imm.unwrap_or(cta.regs[b + l]));
            let (space, off) = resolve(space_mod, addr);
            let at = match self.locate(cta, w, l, space, off, size, store) {
                Ok(at) => at,
                Err(f) => return Err(self.trap(cta, w, Some(l), pc, f.kind(space, size), Some(addr as u64))),
            };
            self.count_mem(space, kind);
            let value: u128;
            if size == 4 {
                // The common case, without the 16-byte staging buffer.
                if store {
                    let v = cta.regs[dr + l];
                    self.backing_mut(cta, space)[at..at + 4].copy_from_slice(&v.to_le_bytes());
                    value = v as u128;
                } else {
                    let src = &self.backing(cta, space)[at..at + 4];
                    let v = u32::from_le_bytes([src[0], src[1], src[2], src[3]]);
                    cta.regs[d + l] = v;
                    value = v as u128;
                }
            } else if store {
                let mut v = 0u128;
                for k in 0..nregs {
                    v |= (cta.regs[dr + k * ws + l] as u128) << (32 * k);
                }
                let bytes = v.to_le_bytes();
                self.backing_mut(cta, space)[at..at + size as usize].copy_from_slice(&bytes[..size as usize]);
                value = v & (u128::MAX >> (128 - 8 * size));
            } else {
                let src = &self.backing(cta, space)[at..at + size as usize];
                let mut buf = [0u8; 16];
                buf[..size as usize].copy_from_slice(src);
                let raw = u128::from_le_bytes(buf);
                let v = match width {
                    1 => raw as u8 as i8 as i32 as u32 as u128,
                    3 => raw as u16 as i16 as i32 as u32 as u128,
                    _ => raw,
                };
                for k in 0..nregs {
                    cta.regs[d + k * ws + l] = (v >> (32 * k)) as u32;
                }
                value = raw;
            }
            if T::ON {
                self.mem_log.push(MemAccess { lane: l as u8, kind, space, addr: off, size: size as u8, data: value });
            }
        }
        Ok(())
    }

    fn atomic<T: Tracer>(&mut self, cta: &mut Cta, w: usize, pc: u32, dec: &Dec, exec: u64) -> Result<(), Box<Trap>> {
        let ws = self.ws;
        let wide = dec.m[ModKind::B64 as usize] as u32 == 1;
        let size: u32 = if wide { 8 } else { 4 };
        let op = dec.m[ModKind::AtomOp as usize] as u32;
        let (a, b, c, d) = (self.ri(w, dec.a), self.ri(w, dec.b), self.ri(w, dec.c), self.ri(w, dec.dw));
        let mut mm = exec;
        while mm != 0 {
            let l = mm.trailing_zeros() as usize;
            mm &= mm - 1;
            let addr = cta.regs[a + l];
            let (space, off) = resolve(dec.m[ModKind::AtomSpace as usize] as u32, addr);
            let fault = |s: &Self, cta: &Cta, k| s.trap(cta, w, Some(l), pc, k, Some(addr as u64));
            if !matches!(space, Space::Global | Space::Shared) {
                let reason = format!("atomic on {space} memory");
                return Err(fault(self, cta, TrapKind::InvalidInstruction { reason }));
            }
            let at = self.locate(cta, w, l, space, off, size, true).map_err(|f| fault(self, cta, f.kind(space, size)))?;
            self.count_mem(space, MemKind::Atomic);
            let (bv, cv) = if wide {
                (get64(&cta.regs, ws, b, l), get64(&cta.regs, ws, c, l))
            } else {
                (dec.imm.unwrap_or(cta.regs[b + l]) as u64, cta.regs[c + l] as u64)
            };
            let mem = self.backing_mut(cta, space);
            let mut buf = [0u8; 8];
            buf[..size as usize].copy_from_slice(&mem[at..at + size as usize]);
            let old = u64::from_le_bytes(buf);
            let new = int::atomic(op, wide, old, bv, cv);
            mem[at..at + size as usize].copy_from_slice(&new.to_le_bytes()[..size as usize]);
            if wide {
                set64(&mut cta.regs, ws, d, l, old);
            } else {
                cta.regs[d + l] = old as u32;
            }
            if T::ON {
                self.mem_log.push(MemAccess {
                    lane: l as u8,
                    kind: MemKind::Atomic,
                    space,
                    addr: off,
                    size: size as u8,
                    data: new as u128,
                });
            }
        }
        Ok(())
    }

    /// `shfl` with PTX's lane rules, generalized to the warp size: lane fields are
    /// masked with warp_size - 1; c = clamp | segment mask << 8.
    fn shuffle(&mut self, cta: &mut Cta, w: usize, dec: &Dec, exec: u64, active: u64) {
        let ws = self.ws;
        let lm = ws as u32 - 1;
        let (a, b, c, d) = (self.ri(w, dec.a), self.ri(w, dec.b), self.ri(w, dec.c), self.ri(w, dec.dw));
        let mode = dec.m[ModKind::ShflMode as usize] as u32;
        let i = dec.inst;
        let regs = &mut cta.regs;
        let src: Vec<u32> = regs[a..a + ws].to_vec();
        let mut ok = 0u64;
        lanes!(exec, ws, l => {
            let lane = l as u32;
            let bv = dec.imm.unwrap_or(regs[b + l]);
            let cv = regs[c + l];
            let (clamp, seg) = (cv & lm, (cv >> 8) & lm);
            let max_lane = (lane & seg) | (clamp & !seg);
            let min_lane = lane & seg;
            let (j, inside) = match mode {
                0 => {
                    let j = min_lane | (bv & lm & !seg);
                    (j, j <= max_lane)
                }
                1 => {
                    let j = lane.wrapping_sub(bv);
                    (j, (j as i32) >= max_lane as i32)
                }
                2 => {
                    let j = lane.wrapping_add(bv);
                    (j, j <= max_lane)
                }
                _ => {
                    let j = lane ^ (bv & lm);
                    (j, j <= max_lane)
                }
            };
            let valid = inside && (j as usize) < ws && bit(active, j as usize);
            let jj = if valid { j as usize } else { l };
            regs[d + l] = src[jj];
            ok |= (valid as u64) << l;
        });
        let p = (i.mods >> 2) & 7;
        write_pred(&mut cta.warps[w].preds, p, ok, exec);
    }

    fn retire_record(&self, cta: &Cta, w: usize, pc: u32, dec: &Dec, active: u64, exec: u64) -> Retire {
        let i = dec.inst;
        let mut regs = vec![];
        let mut preds = vec![];
        if let Some(n) = i.retire_writes().filter(|_| i.d != RZ) {
            let mut mm = exec;
            while mm != 0 {
                let l = mm.trailing_zeros() as usize;
                mm &= mm - 1;
                for k in 0..n as u32 {
                    let value = cta.regs[self.ri(w, dec.dw + k) + l];
                    regs.push(RegWrite { lane: l as u8, reg: i.d + k as u8, value });
                }
            }
        }
        let pred_dst = match i.op.info().format {
            Format::SetP | Format::Plop | Format::Vote => Some(i.d & 7),
            Format::Shfl => Some((i.mods >> 2) & 7),
            _ => None,
        };
        if let Some(p) = pred_dst.filter(|&p| p != PT) {
            preds.push(PredWrite { pred: p, mask: cta.warps[w].preds[p as usize] & exec });
        }
        Retire { seq: self.seq, sm: 0, cta: cta.linear, warp: w as u32, pc, active, exec, regs, preds, mem: self.mem_log.clone() }
    }
}
