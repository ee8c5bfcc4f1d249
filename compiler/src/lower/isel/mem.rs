//! Instruction selection: Moves, loads, stores, atomics, `cvta` and address operands.

use super::*;

impl Sel<'_> {
    pub(super) fn mov_inst(&mut self, i: &Inst, ty: Type) -> R<()> {
        let a = &i.args;
        match (&a[0], &a[1]) {
            (Operand::Vector(v, _), src) if !is64(ty) => {
                // Unpack: mov.b32 {lo16, hi16}, x.
                let x = self.reg32(src, Type::B32)?;
                if v.len() != 2 {
                    return Err("only 2-element vector unpacking is supported".into());
                }
                for (k, e) in v.iter().enumerate() {
                    if let Operand::Sink(_) = e {
                        continue;
                    }
                    let (d, _) = self.dst(e)?;
                    if k == 0 {
                        self.op(Opcode::And, &[], Loc::R(d), x, Src::Imm(0xffff), Loc::None);
                    } else {
                        self.op(Opcode::Shr, &[Sign::U.pair()], Loc::R(d), x, Src::Imm(16), Loc::None);
                    }
                }
                Ok(())
            }
            (Operand::Vector(v, _), src) => {
                // Unpack: mov.b64 {lo, hi}, x.
                let x = self.src64(src, Type::B64)?;
                let Loc::R(x) = x else { unreachable!() };
                if v.len() != 2 {
                    return Err("only 2-element vector unpacking is supported".into());
                }
                for (k, e) in v.iter().enumerate() {
                    if let Operand::Sink(_) = e {
                        continue;
                    }
                    let (d, _) = self.dst(e)?;
                    self.mov(Loc::R(d), Src::Loc(Loc::Half(x, k as u8)));
                }
                Ok(())
            }
            (d, Operand::Vector(v, _)) => {
                let (d, dt) = self.dst(d)?;
                if v.len() != 2 {
                    return Err("only 2-element vector packing is supported".into());
                }
                if is64(dt) {
                    let lo = self.src32(&v[0], Type::B32)?;
                    let hi = self.src32(&v[1], Type::B32)?;
                    self.define(d);
                    self.mov(Loc::Half(d, 0), lo);
                    self.mov(Loc::Half(d, 1), hi);
                } else {
                    // Two 16-bit halves into 32 bits.
                    let lo = self.src32(&v[0], Type::B16)?;
                    let lo = self.norm(lo, Type::U16);
                    let hi = self.reg32(&v[1], Type::B16)?;
                    let t = self.v1();
                    self.op(Opcode::Shl, &[], Loc::R(t), hi, Src::Imm(16), Loc::None);
                    self.op(Opcode::Or, &[], Loc::R(d), lo, Src::Loc(Loc::R(t)), Loc::None);
                }
                Ok(())
            }
            (d, s) => {
                let (d, dt) = self.dst(d)?;
                if is64(dt) || is64(ty) {
                    let x = self.src64(s, ty)?;
                    let Loc::R(x) = x else { unreachable!() };
                    if is64(dt) {
                        self.define(d);
                        self.mov(Loc::Half(d, 0), Src::Loc(Loc::Half(x, 0)));
                        self.mov(Loc::Half(d, 1), Src::Loc(Loc::Half(x, 1)));
                    } else {
                        self.mov(Loc::R(d), Src::Loc(Loc::Half(x, 0)));
                    }
                } else {
                    let x = self.src32(s, ty)?;
                    self.mov(Loc::R(d), x);
                }
                Ok(())
            }
        }
    }

    /// Address of a memory operand: (base register, offset, space override for named variables).
    pub(super) fn address(&mut self, o: &Operand) -> R<(Loc, u32, Option<values::Space>)> {
        let Operand::Addr(a) = o else { return Err("expected an address".into()) };
        let off = match &a.offset {
            Some(e) => expr::eval(e, &|_| None).map_err(|(_, m)| m)?.bits() as u32,
            None => 0,
        };
        match &a.base {
            None => Ok((Loc::Phys(RZ), off, None)),
            Some(b) => match self.lookup(&b.name) {
                Some(Name::Reg(v, t)) => Ok((if is64(t) { Loc::Half(v, 0) } else { Loc::R(v) }, off, None)),
                Some(Name::Frame(fo)) => Ok((Loc::Phys(SP), fo.wrapping_add(off), Some(values::Space::Local))),
                Some(Name::KParam(ko)) => Ok((Loc::Phys(RZ), ko.wrapping_add(off), Some(values::Space::Param))),
                None => {
                    let s = self.layout.sym(&b.name).ok_or(format!("`{}` is undefined", b.name))?;
                    let space = match s {
                        Sym::Global(_) => values::Space::Global,
                        Sym::Const(_) => values::Space::Const,
                        Sym::Shared(_) => values::Space::Shared,
                    };
                    Ok((Loc::Phys(RZ), (s.addr() as u32).wrapping_add(off), Some(space)))
                }
            },
        }
    }

    pub(super) fn space_of(i: &Inst, over: Option<values::Space>) -> values::Space {
        use values::Space as S;
        over.or_else(|| {
            i.flags.first_of(&[
                (Mod::Global, S::Global),
                (Mod::Shared, S::Shared),
                (Mod::Local, S::Local),
                (Mod::Const, S::Const),
                (Mod::Param, S::Param),
            ])
        })
        .unwrap_or(S::Gen)
    }

    /// The access width of an element type.
    pub(super) fn width(ty: Type) -> Width {
        match (ty.size(), ty.kind() == TypeKind::Signed) {
            (1, false) => Width::U8,
            (1, true) => Width::S8,
            (2, false) => Width::U16,
            (2, true) => Width::S16,
            (4, _) => Width::B32,
            (8, _) => Width::B64,
            _ => Width::B128,
        }
    }

    pub(super) fn load(&mut self, i: &Inst, ty: Type) -> R<()> {
        let (base, off, over) = self.address(&i.args[1])?;
        let space = Self::space_of(i, over);
        let elems: Vec<&Operand> = match &i.args[0] {
            Operand::Vector(v, _) => v.iter().collect(),
            o => vec![o],
        };
        let esize = ty.size();
        for (k, e) in elems.into_iter().enumerate() {
            let eoff = off.wrapping_add(esize * k as u32);
            if let Operand::Sink(_) = e {
                continue;
            }
            let (d, dt) = self.dst(e)?;
            let mut m = MI::new(Opcode::Ld);
            m.inst.set(space);
            m.a = base;
            m.b = Src::Imm(eoff);
            if is64(ty) {
                m.inst.set(Width::B64);
                if is64(dt) {
                    self.define(d);
                    m.d = Loc::R(d);
                    self.push(m);
                } else {
                    let t = self.v2();
                    m.d = Loc::R(t);
                    self.push(m);
                    self.mov(Loc::R(d), Src::Loc(Loc::Half(t, 0)));
                }
            } else {
                m.inst.set(Self::width(ty));
                if is64(dt) {
                    let t = self.v1();
                    m.d = Loc::R(t);
                    self.push(m);
                    // T19: widen by the instruction type's signedness.
                    self.define(d);
                    self.mov(Loc::Half(d, 0), Src::Loc(Loc::R(t)));
                    if ty.kind() == TypeKind::Signed {
                        self.op(Opcode::Shr, &[Sign::S.pair()], Loc::Half(d, 1), Loc::R(t), Src::Imm(31), Loc::None);
                    } else {
                        self.mov(Loc::Half(d, 1), Src::Imm(0));
                    }
                } else {
                    m.d = Loc::R(d);
                    self.push(m);
                }
            }
        }
        Ok(())
    }

    pub(super) fn store(&mut self, i: &Inst, ty: Type) -> R<()> {
        let (base, off, over) = self.address(&i.args[0])?;
        let space = Self::space_of(i, over);
        let elems: Vec<&Operand> = match &i.args[1] {
            Operand::Vector(v, _) => v.iter().collect(),
            o => vec![o],
        };
        let esize = ty.size();
        for (k, e) in elems.into_iter().enumerate() {
            let eoff = off.wrapping_add(esize * k as u32);
            let mut m = MI::new(Opcode::St);
            m.inst.set(space);
            m.a = base;
            m.b = Src::Imm(eoff);
            if is64(ty) {
                let v = self.src64(e, ty)?;
                m.inst.set(Width::B64);
                m.d = v;
            } else {
                let v = self.reg32(e, ty)?;
                m.inst.set(Self::width(ty).unsigned());
                m.d = v;
            }
            self.push(m);
        }
        Ok(())
    }

    pub(super) fn atomic(&mut self, i: &Inst, ty: Type) -> R<()> {
        let red = i.is(Op::Red);
        let a = &i.args;
        let (addr, bi, ci) = if red { (&a[0], 1, None) } else { (&a[1], 2, a.get(3)) };
        let (base, off, over) = self.address(addr)?;
        let space = match Self::space_of(i, over) {
            values::Space::Global => AtomSpace::Global,
            values::Space::Shared => AtomSpace::Shared,
            _ => AtomSpace::Gen,
        };
        let base = if off != 0 {
            let t = self.v1();
            self.op(Opcode::Add, &[], Loc::R(t), base, Src::Imm(off), Loc::None);
            Loc::R(t)
        } else {
            base
        };
        let signed = ty.kind() == TypeKind::Signed;
        let code = match () {
            _ if i.has(Mod::Add) && ty.kind() == TypeKind::Float => AtomOp::Fadd,
            _ if i.has(Mod::Add) => AtomOp::Add,
            _ if i.has(Mod::Min) => [AtomOp::Umin, AtomOp::Smin][signed as usize],
            _ if i.has(Mod::Max) => [AtomOp::Umax, AtomOp::Smax][signed as usize],
            _ if i.has(Mod::Inc) => AtomOp::Inc,
            _ if i.has(Mod::Dec) => AtomOp::Dec,
            _ if i.has(Mod::And) => AtomOp::And,
            _ if i.has(Mod::Or) => AtomOp::Or,
            _ if i.has(Mod::Xor) => AtomOp::Xor,
            _ if i.has(Mod::Exch) => AtomOp::Exch,
            _ if i.has(Mod::Cas) => AtomOp::Cas,
            _ => return Err("unknown atomic operation".into()),
        };
        let mut m = MI::new(Opcode::Atom);
        m.inst.set(space);
        m.inst.set(code);
        m.a = base;
        if is64(ty) {
            m.inst.set_modifier(ModKind::B64, 1);
            m.b = Src::Loc(self.src64(&a[bi], ty)?);
            m.c = match ci {
                Some(c) => self.src64(c, ty)?,
                None => Loc::Phys(RZ),
            };
            let d = if red { self.v2() } else { self.dst(&a[0])?.0 };
            self.define(d);
            m.d = Loc::R(d);
        } else {
            let b = self.src32(&a[bi], ty)?;
            m.b = if ci.is_some() { Src::Loc(self.in_reg(b)) } else { b };
            m.c = match ci {
                Some(c) => self.reg32(c, ty)?,
                None => Loc::Phys(RZ),
            };
            m.d = if red { Loc::Phys(RZ) } else { Loc::R(self.dst(&a[0])?.0) };
        }
        self.push(m);
        Ok(())
    }

    /// `cvta`: a generic address from a window offset, or back with `.to`.
    pub(super) fn cvta(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
        let (d, dt) = self.dst(&a[0])?;
        let x = self.src32(&a[1], Type::U32)?;
        let win = match () {
            _ if i.has(Mod::Shared) => heddle_isa::mem::SHARED_WINDOW,
            _ if i.has(Mod::Local) => heddle_isa::mem::LOCAL_WINDOW,
            _ if i.has(Mod::Const) => heddle_isa::mem::CONST_WINDOW,
            _ if i.has(Mod::Param) => heddle_isa::mem::PARAM_WINDOW,
            _ => 0,
        };
        let t = self.v1();
        let xl = self.in_reg(x);
        if i.has(Mod::To) {
            self.op(Opcode::Sub, &[], Loc::R(t), xl, Src::Imm(win), Loc::None);
        } else {
            self.op(Opcode::Add, &[], Loc::R(t), xl, Src::Imm(win), Loc::None);
        }
        self.put32(d, dt, Loc::R(t), Type::U32);
        Ok(())
    }
}
