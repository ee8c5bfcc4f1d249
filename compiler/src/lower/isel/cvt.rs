//! Instruction selection: `cvt`: conversions between integer and floating-point types of every width.

use super::*;

impl Sel<'_> {
    pub(super) fn cvt(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
        let dty = Self::ty(i, 0).ok_or("cvt needs two types")?;
        let aty = Self::ty(i, 1).ok_or("cvt needs two types")?;
        let (d, dt) = self.dst(&a[0])?;
        let rnd = rnd_of(i);
        let int_round = i.has(Mod::Rni) || i.has(Mod::Rzi) || i.has(Mod::Rmi) || i.has(Mod::Rpi);
        let ftz = i.has(Mod::Ftz) as u32;
        let sat = i.has(Mod::Sat);
        let (dk, ak) = (dty.kind() == TypeKind::Float, aty.kind() == TypeKind::Float);
        let intty = |t: Type| match (t.kind() == TypeKind::Signed, is64(t)) {
            (false, false) => IntTy::U32,
            (true, false) => IntTy::S32,
            (false, true) => IntTy::U64,
            (true, true) => IntTy::S64,
        };
        match (dk, ak) {
            (false, false) => {
                // int -> int: extend by the source, then truncate or saturate to the destination.
                if is64(aty) || is64(dty) {
                    let x = self.src64(&a[1], aty)?;
                    let Loc::R(x) = x else { unreachable!() };
                    if sat {
                        return Err("cvt.sat with 64-bit integers is not supported by the compiler yet".into());
                    }
                    if is64(dty) {
                        // Source narrower than 64: src64 already widened by the source type... re-widen
                        // from the source's own width.
                        self.define(d);
                        if aty.size() < 8 {
                            let lo = self.norm(Src::Loc(Loc::Half(x, 0)), aty);
                            self.mov(Loc::Half(d, 0), Src::Loc(lo));
                            if aty.kind() == TypeKind::Signed {
                                self.op(Opcode::Shr, &[Sign::S.pair()], Loc::Half(d, 1), lo, Src::Imm(31), Loc::None);
                            } else {
                                self.mov(Loc::Half(d, 1), Src::Imm(0));
                            }
                        } else {
                            self.mov(Loc::Half(d, 0), Src::Loc(Loc::Half(x, 0)));
                            self.mov(Loc::Half(d, 1), Src::Loc(Loc::Half(x, 1)));
                        }
                    } else {
                        let lo = self.norm(Src::Loc(Loc::Half(x, 0)), dty);
                        self.put32(d, dt, lo, dty);
                    }
                    return Ok(());
                }
                let x = self.src32(&a[1], aty)?;
                let x = self.norm(x, aty);
                let v = if sat {
                    // Clamp the (source-typed) value into the destination range.
                    let (lo, hi): (i64, i64) = match (dty.size(), dty.kind() == TypeKind::Signed) {
                        (1, true) => (-128, 127),
                        (1, false) => (0, 255),
                        (2, true) => (-32768, 32767),
                        (2, false) => (0, 65535),
                        (_, true) => (i32::MIN as i64, i32::MAX as i64),
                        (_, false) => (0, u32::MAX as i64),
                    };
                    let s = aty.kind() == TypeKind::Signed;
                    let t = self.v1();
                    let lo_ok = if s { lo } else { lo.max(0) };
                    let hi_ok = if s { hi.min(i32::MAX as i64) } else { hi };
                    self.op(Opcode::Max, &[(ModKind::Sign, s as u32)], Loc::R(t), x, Src::Imm(lo_ok as u32), Loc::None);
                    let u = self.v1();
                    self.op(Opcode::Min, &[(ModKind::Sign, s as u32)], Loc::R(u), Loc::R(t), Src::Imm(hi_ok as u32), Loc::None);
                    if s && dty.kind() == TypeKind::Unsigned && dty.size() == 4 {
                        // Negative signed into unsigned: clamp at 0 (done by max with 0).
                    }
                    Loc::R(u)
                } else {
                    self.norm(Src::Loc(x), dty)
                };
                self.put32(d, dt, v, dty);
                Ok(())
            }
            (false, true) => {
                // float -> int (saturating, NaN -> 0).
                let r = if int_round { rnd } else { Rnd::Rz };
                let mods = [
                    r.pair(),
                    (ModKind::Ftz, ftz),
                    intty(if dty.size() < 4 {
                        if dty.kind() == TypeKind::Signed {
                            Type::S32
                        } else {
                            Type::U32
                        }
                    } else {
                        dty
                    })
                    .pair(),
                ];
                let x = if aty == Type::F64 { self.src64(&a[1], aty)? } else { self.reg32(&a[1], aty)? };
                let x = if aty == Type::F16 { self.h2f(x) } else { x };
                let o = if aty == Type::F64 { Opcode::D2i } else { Opcode::F2i };
                let mods: Vec<(ModKind, u32)> = if aty == Type::F64 { vec![mods[0], mods[2]] } else { mods.to_vec() };
                if is64(dty) {
                    self.define(d);
                    self.op(o, &mods, Loc::R(d), x, Src::Loc(Loc::None), Loc::None);
                } else {
                    let t = self.v1();
                    self.op(o, &mods, Loc::R(t), x, Src::Loc(Loc::None), Loc::None);
                    let v = if dty.size() < 4 {
                        // Saturate into the narrow range.
                        let (lo, hi): (i32, i32) = match (dty.size(), dty.kind() == TypeKind::Signed) {
                            (1, true) => (-128, 127),
                            (1, false) => (0, 255),
                            (2, true) => (-32768, 32767),
                            _ => (0, 65535),
                        };
                        let s = dty.kind() == TypeKind::Signed;
                        let u = self.v1();
                        self.op(Opcode::Max, &[(ModKind::Sign, s as u32)], Loc::R(u), Loc::R(t), Src::Imm(lo as u32), Loc::None);
                        let w = self.v1();
                        self.op(Opcode::Min, &[(ModKind::Sign, s as u32)], Loc::R(w), Loc::R(u), Src::Imm(hi as u32), Loc::None);
                        Loc::R(w)
                    } else {
                        Loc::R(t)
                    };
                    self.put32(d, dt, v, dty);
                }
                Ok(())
            }
            (true, false) => {
                // int -> float.
                let s = aty.kind() == TypeKind::Signed;
                let (x, it) = if is64(aty) {
                    (self.src64(&a[1], aty)?, intty(aty))
                } else {
                    let v = self.src32(&a[1], aty)?;
                    (self.norm(v, aty), if s { IntTy::S32 } else { IntTy::U32 })
                };
                let mods = [rnd.pair(), it.pair()];
                match dty {
                    Type::F64 => {
                        self.define(d);
                        self.op(Opcode::I2d, &mods, Loc::R(d), x, Src::Loc(Loc::None), Loc::None);
                    }
                    Type::F32 => self.op(Opcode::I2f, &mods, Loc::R(d), x, Src::Loc(Loc::None), Loc::None),
                    _ => {
                        // int -> f16 through f32 is exact only for small values; round once through f64.
                        let t = self.v2();
                        self.op(Opcode::I2d, &[Rnd::Rn.pair(), it.pair()], Loc::R(t), x, Src::Loc(Loc::None), Loc::None);
                        let u = self.v1();
                        self.op(Opcode::D2f, &[rnd.pair()], Loc::R(u), Loc::R(t), Src::Loc(Loc::None), Loc::None);
                        self.op(Opcode::F2h, &[rnd.pair()], Loc::R(d), Loc::R(u), Src::Loc(Loc::None), Loc::None);
                    }
                }
                if sat && dty == Type::F32 {
                    self.op(Opcode::Fadd, &[(ModKind::Sat, 1)], Loc::R(d), Loc::R(d), Src::Imm(0x8000_0000), Loc::None);
                }
                Ok(())
            }
            (true, true) => {
                let sm = [(ModKind::Sat, sat as u32)];
                match (dty, aty) {
                    (Type::F32, Type::F32) => {
                        let x = self.reg32(&a[1], aty)?;
                        if int_round {
                            self.op(Opcode::Frnd, &[rnd.pair(), (ModKind::Ftz, ftz)], Loc::R(d), x, Src::Loc(Loc::None), Loc::None);
                            if sat {
                                self.op(Opcode::Fadd, &sm, Loc::R(d), Loc::R(d), Src::Imm(0x8000_0000), Loc::None);
                            }
                        } else {
                            // x + (-0) is x exactly; ftz and sat apply.
                            self.op(
                                Opcode::Fadd,
                                &[(ModKind::Ftz, ftz), (ModKind::Sat, sat as u32)],
                                Loc::R(d),
                                x,
                                Src::Imm(0x8000_0000),
                                Loc::None,
                            );
                        }
                    }
                    (Type::F64, Type::F64) => {
                        let x = self.src64(&a[1], aty)?;
                        self.define(d);
                        if int_round {
                            self.op(Opcode::Drnd, &[rnd.pair()], Loc::R(d), x, Src::Loc(Loc::None), Loc::None);
                        } else {
                            let Loc::R(xv) = x else { unreachable!() };
                            self.mov(Loc::Half(d, 0), Src::Loc(Loc::Half(xv, 0)));
                            self.mov(Loc::Half(d, 1), Src::Loc(Loc::Half(xv, 1)));
                        }
                        if sat {
                            return Err("cvt.sat.f64 is not supported by the compiler yet".into());
                        }
                    }
                    (Type::F32, Type::F64) => {
                        let x = self.src64(&a[1], aty)?;
                        self.op(
                            Opcode::D2f,
                            &[rnd.pair(), (ModKind::Ftz, ftz), (ModKind::Sat, sat as u32)],
                            Loc::R(d),
                            x,
                            Src::Loc(Loc::None),
                            Loc::None,
                        );
                    }
                    (Type::F64, Type::F32) => {
                        let x = self.reg32(&a[1], aty)?;
                        self.define(d);
                        self.op(Opcode::F2d, &[(ModKind::Ftz, ftz)], Loc::R(d), x, Src::Loc(Loc::None), Loc::None);
                    }
                    (Type::F16, Type::F32) => {
                        let x = self.reg32(&a[1], aty)?;
                        self.op(Opcode::F2h, &[rnd.pair(), (ModKind::Ftz, ftz)], Loc::R(d), x, Src::Loc(Loc::None), Loc::None);
                    }
                    (Type::F32, Type::F16) => {
                        let x = self.reg32(&a[1], aty)?;
                        self.op(Opcode::H2f, &[], Loc::R(d), x, Src::Loc(Loc::None), Loc::None);
                        if ftz == 1 || sat {
                            self.op(
                                Opcode::Fadd,
                                &[(ModKind::Ftz, ftz), (ModKind::Sat, sat as u32)],
                                Loc::R(d),
                                Loc::R(d),
                                Src::Imm(0x8000_0000),
                                Loc::None,
                            );
                        }
                    }
                    (Type::F16, Type::F64) => {
                        // Round to odd into binary32 (truncate, then set the last bit if inexact),
                        // then once to binary16: one correct rounding overall.
                        let x = self.src64(&a[1], aty)?;
                        let (t, back) = (self.v1(), self.v2());
                        self.op(Opcode::D2f, &[Rnd::Rz.pair()], Loc::R(t), x, Src::Loc(Loc::None), Loc::None);
                        self.op(Opcode::F2d, &[], Loc::R(back), Loc::R(t), Src::Loc(Loc::None), Loc::None);
                        let mut m = MI::new(Opcode::Dsetp);
                        m.inst.set(FCmp::Ne);
                        m.inst.d = PRED | (7 << 3);
                        m.a = Loc::R(back);
                        m.b = Src::Loc(x);
                        self.push(m);
                        let odd = self.v1();
                        self.op(Opcode::Or, &[], Loc::R(odd), Loc::R(t), Src::Imm(1), Loc::None);
                        let j = self.v1();
                        let mut s = MI::new(Opcode::Sel);
                        s.inst.mods = PRED;
                        s.d = Loc::R(j);
                        s.a = Loc::R(odd);
                        s.b = Src::Loc(Loc::R(t));
                        self.push(s);
                        self.op(Opcode::F2h, &[rnd.pair()], Loc::R(d), Loc::R(j), Src::Loc(Loc::None), Loc::None);
                    }
                    (Type::F64, Type::F16) => {
                        let x = self.reg32(&a[1], aty)?;
                        let t = self.v1();
                        self.op(Opcode::H2f, &[], Loc::R(t), x, Src::Loc(Loc::None), Loc::None);
                        self.define(d);
                        self.op(Opcode::F2d, &[], Loc::R(d), Loc::R(t), Src::Loc(Loc::None), Loc::None);
                    }
                    (Type::F16, Type::F16) => {
                        let x = self.reg32(&a[1], aty)?;
                        self.op(Opcode::And, &[], Loc::R(d), x, Src::Imm(0xffff), Loc::None);
                    }
                    _ => return Err(format!("cvt{}{} is not supported by the compiler yet", dty.name(), aty.name())),
                }
                Ok(())
            }
        }
    }
}
