//! Executing prepared PTX: Warp- and CTA-wide operations: barriers (with counts and reductions), vote, `activemask`, shuffle, `match`, `redux`.

use super::*;

impl Machine<'_> {
    pub(super) fn check_barriers(&self, cta: &mut Cta) {
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

    pub(super) fn barrier(&mut self, cta: &mut Cta, w: usize, pc: u32, i: &PInst, exec: u64) -> Result<(), Failure> {
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
            let Some(pred) = i.args.last() else {
                return Err(warp_err(TrapKind::InvalidInstruction { reason: "bar.red without its predicate operand".into() }));
            };
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

    pub(super) fn shuffle(&mut self, cta: &mut Cta, w: usize, i: &PInst, exec: u64, active: u64) {
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

    pub(super) fn exec_barrier(&mut self, cta: &mut Cta, w: usize, i: &PInst, pc: u32, exec: u64, state: &mut Step) -> Result<(), Failure> {
        if exec != 0 {
            self.barrier(cta, w, pc, i, exec)?;
            if cta.warps[w].wait.is_some() {
                *state = Step::Blocked;
            }
        }
        Ok(())
    }

    pub(super) fn exec_vote(&mut self, cta: &mut Cta, w: usize, i: &PInst, exec: u64) -> Result<(), Failure> {
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
        Ok(())
    }

    pub(super) fn exec_activemask(&mut self, cta: &mut Cta, w: usize, i: &PInst, active: u64, exec: u64) -> Result<(), Failure> {
        for l in lanes(exec) {
            self.write(cta, w, &i.args[0], Type::B32, l, active);
        }
        Ok(())
    }

    pub(super) fn exec_match(&mut self, cta: &mut Cta, w: usize, i: &PInst, exec: u64) -> Result<(), Failure> {
        let ws = self.ws;
        let ty = i.types.first().copied().unwrap_or(Type::B32);
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
        Ok(())
    }

    pub(super) fn exec_redux(&mut self, cta: &mut Cta, w: usize, i: &PInst, exec: u64) -> Result<(), Failure> {
        let ty = i.types.first().copied().unwrap_or(Type::B32);
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
        Ok(())
    }
}
