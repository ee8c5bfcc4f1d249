//! Executing prepared PTX: Memory: resolving address operands to a space and offset, bounds and alignment checks, loads, stores and atomics.

use super::*;

impl Machine<'_> {
    /// The address of a variable in its own space (local: in this thread's local space).
    pub(super) fn base_addr(&self, f: &Frame, b: Base) -> u64 {
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
    pub(super) fn resolve(&self, cta: &Cta, w: usize, inst: &PInst, o: &Opd, l: usize) -> Result<(MSpace, u64, bool), Fault> {
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
    pub(super) fn mem_slice<'c>(
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
    pub(super) fn load_bytes(
        &mut self,
        cta: &mut Cta,
        w: usize,
        l: usize,
        space: MSpace,
        addr: u64,
        size: u32,
        fparam: bool,
    ) -> Result<u128, Fault> {
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

    pub(super) fn count(&mut self, space: MSpace, kind: MemKind) {
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

    pub(super) fn exec_ld_st(&mut self, cta: &mut Cta, w: usize, i: &PInst, exec: u64) -> Result<(), Failure> {
        let ty = i.types.first().copied().unwrap_or(Type::B32);
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
        Ok(())
    }

    pub(super) fn exec_atom(&mut self, cta: &mut Cta, w: usize, i: &PInst, exec: u64) -> Result<(), Failure> {
        let ty = i.types.first().copied().unwrap_or(Type::B32);
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
        Ok(())
    }
}

/// The new memory value of an atomic.
pub(super) fn atom_op(i: &PInst, ty: Type, old: u64, b: u64, c: u64) -> u64 {
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

/// The memory space a PTX state space names (None: not one of memory's).
pub(super) fn memory_space(s: Space) -> Option<MSpace> {
    Some(match s {
        Space::Global => MSpace::Global,
        Space::Shared => MSpace::Shared,
        Space::Local => MSpace::Local,
        Space::Const => MSpace::Const,
        Space::Param => MSpace::Param,
        _ => return None,
    })
}
