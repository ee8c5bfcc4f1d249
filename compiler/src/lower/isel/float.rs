//! Instruction selection: Floating-point arithmetic (f16, f32, f64), the special functions and `testp`.

use super::*;
use heddle_isa::values::BoolOp;

impl Sel<'_> {
    /// `testp`: integer tests on the magnitude bits (for f64 the high word `e`
    /// and the low word `lo`), each an `isetp` chained through the boolean combine.
    pub(super) fn testp(&mut self, i: &Inst, ty: Type, d: VReg) -> R<()> {
        use ICmp::{Eq as EQ, Hi as HI, Lo as LO, Ls as LS, Ne as NE};
        let (wide, inf, min_normal, normal_span) =
            if ty == Type::F64 { (true, 0x7ff0_0000, 0x0010_0000, 0x7fe0_0000) } else { (false, 0x7f80_0000, 0x0080_0000, 0x7f00_0000) };
        let (hi_word, lo_word) = if wide {
            let Loc::R(v) = self.src64(&i.args[1], ty)? else { unreachable!("src64 gives a register pair") };
            (Loc::Half(v, 1), Some(Loc::Half(v, 0)))
        } else {
            (self.reg32(&i.args[1], Type::B32)?, None)
        };
        let e = self.v1();
        self.op(Opcode::And, &[], Loc::R(e), hi_word, Src::Imm(0x7fff_ffff), Loc::None);
        // (cmp, a, b, combine with the previous result: None, Some(false) = and, Some(true) = or)
        let mut tests: Vec<(ICmp, Loc, Src, Option<bool>)> = vec![];
        let test = [Mod::Finite, Mod::Infinite, Mod::Number, Mod::Notanumber, Mod::Normal, Mod::Subnormal].into_iter().find(|&m| i.has(m));
        match (test, lo_word) {
            (Some(Mod::Finite), _) => tests.push((LO, Loc::R(e), Src::Imm(inf), None)),
            (Some(Mod::Infinite), None) => tests.push((EQ, Loc::R(e), Src::Imm(inf), None)),
            (Some(Mod::Infinite), Some(lo)) => {
                tests.push((EQ, Loc::R(e), Src::Imm(inf), None));
                tests.push((EQ, lo, Src::Imm(0), Some(false)));
            }
            (Some(Mod::Number), None) => tests.push((LS, Loc::R(e), Src::Imm(inf), None)),
            (Some(Mod::Notanumber), None) => tests.push((HI, Loc::R(e), Src::Imm(inf), None)),
            (Some(m @ (Mod::Number | Mod::Notanumber)), Some(lo)) => {
                // NaN: e > inf, or e == inf with a nonzero low word; e | (lo != 0) > inf says both.
                let (t, f) = (self.v1(), self.v1());
                self.set_from_cmp(t, lo, Src::Imm(0), NE);
                self.op(Opcode::Or, &[], Loc::R(f), Loc::R(e), Src::Loc(Loc::R(t)), Loc::None);
                tests.push((if m == Mod::Number { LS } else { HI }, Loc::R(f), Src::Imm(inf), None));
            }
            (Some(Mod::Normal), _) => {
                let t = self.v1();
                self.op(Opcode::Sub, &[], Loc::R(t), Loc::R(e), Src::Imm(min_normal), Loc::None);
                tests.push((LO, Loc::R(t), Src::Imm(normal_span), None));
            }
            (Some(Mod::Subnormal), None) => {
                let t = self.v1();
                self.op(Opcode::Sub, &[], Loc::R(t), Loc::R(e), Src::Imm(1), Loc::None);
                tests.push((LO, Loc::R(t), Src::Imm(min_normal - 1), None));
            }
            (Some(Mod::Subnormal), Some(lo)) => {
                let t = self.v1();
                self.op(Opcode::Or, &[], Loc::R(t), Loc::R(e), Src::Loc(lo), Loc::None);
                tests.push((LO, Loc::R(e), Src::Imm(min_normal), None));
                tests.push((NE, Loc::R(t), Src::Imm(0), Some(false)));
            }
            (_, _) => return Err("testp needs a test (.finite .infinite .number .notanumber .normal .subnormal)".into()),
        }
        for (cmp, x, y, combine) in tests {
            let mut m = MI::new(Opcode::Isetp);
            m.inst.set(cmp);
            m.inst.set(if combine == Some(true) { BoolOp::Or } else { BoolOp::And });
            m.inst.d = PRED | (if combine.is_some() { PRED } else { 7 }) << 3;
            m.a = x;
            m.b = y;
            self.push(m);
        }
        self.sel01(d, PRED);
        Ok(())
    }

    pub(super) fn h2f(&mut self, x: Loc) -> Loc {
        let t = self.v1();
        self.op(Opcode::H2f, &[], Loc::R(t), x, Src::Loc(Loc::None), Loc::None);
        Loc::R(t)
    }

    pub(super) fn float(&mut self, i: &Inst, ty: Type) -> R<()> {
        let a = &i.args;
        let op = Self::op_of(i)?;
        let (d, _) = self.dst(&a[0])?;
        let rnd = rnd_of(i);
        let ftz = i.has(Mod::Ftz) as u32;
        let sat = i.has(Mod::Sat) as u32;
        if op == Op::Testp {
            return self.testp(i, ty, d);
        }
        if ty == Type::F64 {
            let x = self.src64(&a[1], ty)?;
            let pair = |s: &mut Self, k: usize| s.src64(&a[k], ty);
            self.define(d);
            let r = [rnd.pair()];
            match op {
                Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Min | Op::Max => {
                    let y = pair(self, 2)?;
                    let o = match op {
                        Op::Add => Opcode::Dadd,
                        Op::Sub => Opcode::Dsub,
                        Op::Mul => Opcode::Dmul,
                        Op::Div => Opcode::Ddiv,
                        Op::Min => Opcode::Dmin,
                        _ => Opcode::Dmax,
                    };
                    let mods: &[(ModKind, u32)] = if matches!(op, Op::Min | Op::Max) { &[] } else { &r };
                    self.op(o, mods, Loc::R(d), x, Src::Loc(y), Loc::None);
                }
                Op::Fma | Op::Mad => {
                    let (y, z) = (pair(self, 2)?, pair(self, 3)?);
                    self.op(Opcode::Dfma, &r, Loc::R(d), x, Src::Loc(y), z);
                }
                Op::Sqrt => self.op(Opcode::Dsqrt, &r, Loc::R(d), x, Src::Loc(Loc::None), Loc::None),
                Op::Rcp => {
                    let one = self.src64(&Operand::Expr(Expr { kind: ExprKind::Float(1.0), span: Default::default() }), ty)?;
                    self.op(Opcode::Ddiv, &r, Loc::R(d), one, Src::Loc(x), Loc::None);
                }
                Op::Rsqrt => {
                    let s = self.v2();
                    self.op(Opcode::Dsqrt, &[], Loc::R(s), x, Src::Loc(Loc::None), Loc::None);
                    let one = self.src64(&Operand::Expr(Expr { kind: ExprKind::Float(1.0), span: Default::default() }), ty)?;
                    self.op(Opcode::Ddiv, &[], Loc::R(d), one, Src::Loc(Loc::R(s)), Loc::None);
                }
                Op::Abs | Op::Neg | Op::Copysign => {
                    let Loc::R(xv) = x else { unreachable!() };
                    if op == Op::Copysign {
                        let y = pair(self, 2)?;
                        let Loc::R(yv) = y else { unreachable!() };
                        let t = self.v1();
                        self.op(Opcode::And, &[], Loc::R(t), Loc::Half(xv, 1), Src::Imm(0x8000_0000), Loc::None);
                        let u = self.v1();
                        self.op(Opcode::And, &[], Loc::R(u), Loc::Half(yv, 1), Src::Imm(0x7fff_ffff), Loc::None);
                        self.mov(Loc::Half(d, 0), Src::Loc(Loc::Half(yv, 0)));
                        self.op(Opcode::Or, &[], Loc::Half(d, 1), Loc::R(t), Src::Loc(Loc::R(u)), Loc::None);
                    } else {
                        self.mov(Loc::Half(d, 0), Src::Loc(Loc::Half(xv, 0)));
                        let (o, imm) = if op == Op::Abs { (Opcode::And, 0x7fff_ffff) } else { (Opcode::Xor, 0x8000_0000) };
                        self.op(o, &[], Loc::Half(d, 1), Loc::Half(xv, 1), Src::Imm(imm), Loc::None);
                    }
                }
                _ => return Err(format!("`{op}.f64` is not supported by the compiler yet")),
            }
            return Ok(());
        }
        if matches!(ty, Type::F16 | Type::F16x2) && matches!(op, Op::Neg | Op::Abs) {
            // Sign-bit operations on the binary16 bits, NaN payloads kept (as the PTX interpreter does).
            let signs = if ty == Type::F16 { 0x8000 } else { 0x8000_8000 };
            let x = self.reg32(&a[1], Type::B32)?;
            let (o, imm) = if op == Op::Abs { (Opcode::And, !signs) } else { (Opcode::Xor, signs) };
            self.op(o, &[], Loc::R(d), x, Src::Imm(imm), Loc::None);
            return Ok(());
        }
        if ty == Type::F16x2 && matches!(op, Op::Add | Op::Sub | Op::Mul | Op::Fma) {
            // Two binary16 lanes: each through binary32 (exact for add, sub, mul).
            let srcs: Vec<Loc> = (1..a.len()).map(|k| self.reg32(&a[k], Type::B32)).collect::<R<_>>()?;
            let mut halves = vec![];
            for part in 0..2 {
                let vals: Vec<Loc> = srcs
                    .iter()
                    .map(|&x| {
                        let h = if part == 0 {
                            x
                        } else {
                            let t = self.v1();
                            self.op(Opcode::Shr, &[Sign::U.pair()], Loc::R(t), x, Src::Imm(16), Loc::None);
                            Loc::R(t)
                        };
                        self.h2f(h)
                    })
                    .collect();
                let r = self.v1();
                let rf = [rnd.pair(), (ModKind::Ftz, 0), (ModKind::Sat, sat)];
                match op {
                    Op::Add => self.op(Opcode::Fadd, &rf, Loc::R(r), vals[0], Src::Loc(vals[1]), Loc::None),
                    Op::Sub => self.op(Opcode::Fsub, &rf, Loc::R(r), vals[0], Src::Loc(vals[1]), Loc::None),
                    Op::Mul => self.op(Opcode::Fmul, &rf, Loc::R(r), vals[0], Src::Loc(vals[1]), Loc::None),
                    _ => self.op(Opcode::Ffma, &rf, Loc::R(r), vals[0], Src::Loc(vals[1]), vals[2]),
                }
                let h = self.v1();
                self.op(Opcode::F2h, &[rnd.pair()], Loc::R(h), Loc::R(r), Src::Loc(Loc::None), Loc::None);
                halves.push(h);
            }
            let t = self.v1();
            self.op(Opcode::Shl, &[], Loc::R(t), Loc::R(halves[1]), Src::Imm(16), Loc::None);
            self.op(Opcode::Or, &[], Loc::R(d), Loc::R(halves[0]), Src::Loc(Loc::R(t)), Loc::None);
            return Ok(());
        }
        let half = ty == Type::F16;
        if ty != Type::F32 && !half {
            return Err(format!("`{op}{}` is not supported by the compiler yet", ty.name()));
        }
        let mut x = self.reg32(&a[1], ty)?;
        if half {
            x = self.h2f(x);
        }
        let src = |s: &mut Self, k: usize| -> R<Src> {
            let v = s.src32(&a[k], ty)?;
            if half {
                let l = s.in_reg(v);
                return Ok(Src::Loc(s.h2f(l)));
            }
            Ok(v)
        };
        let out = if half { self.v1() } else { d };
        let rf = [rnd.pair(), (ModKind::Ftz, ftz), (ModKind::Sat, sat)];
        let approx_default = !(i.has(Mod::Rn) || i.has(Mod::Rz) || i.has(Mod::Rm) || i.has(Mod::Rp));
        match op {
            Op::Add | Op::Sub | Op::Mul => {
                let y = src(self, 2)?;
                let o = match op {
                    Op::Add => Opcode::Fadd,
                    Op::Sub => Opcode::Fsub,
                    _ => Opcode::Fmul,
                };
                self.op(o, &rf, Loc::R(out), x, y, Loc::None);
            }
            Op::Fma | Op::Mad => {
                let y = src(self, 2)?;
                let y = Src::Loc(self.in_reg(y));
                let z = src(self, 3)?;
                let z = self.in_reg(z);
                self.op(Opcode::Ffma, &rf, Loc::R(out), x, y, z);
            }
            Op::Div => {
                let y = src(self, 2)?;
                // div.approx and div.full: IEEE division, as the PTX interpreter defines them.
                self.op(Opcode::Fdiv, &[rnd.pair(), (ModKind::Ftz, ftz)], Loc::R(out), x, y, Loc::None);
            }
            Op::Min | Op::Max => {
                let y = src(self, 2)?;
                self.op(if op == Op::Min { Opcode::Fmin } else { Opcode::Fmax }, &[(ModKind::Ftz, ftz)], Loc::R(out), x, y, Loc::None);
            }
            Op::Abs | Op::Neg => {
                let xf = if ftz == 1 {
                    // Flush a subnormal to its signed zero on the bits (NaN payloads kept), then the sign operation.
                    let (e, z, t) = (self.v1(), self.v1(), self.v1());
                    self.op(Opcode::And, &[], Loc::R(e), x, Src::Imm(0x7f80_0000), Loc::None);
                    self.op(Opcode::And, &[], Loc::R(z), x, Src::Imm(0x8000_0000), Loc::None);
                    let mut m = MI::new(Opcode::Isetp);
                    m.inst.set(ICmp::Eq);
                    m.inst.d = PRED | (7 << 3);
                    m.a = Loc::R(e);
                    m.b = Src::Imm(0);
                    self.push(m);
                    let mut m = MI::new(Opcode::Sel);
                    m.inst.mods = PRED;
                    m.d = Loc::R(t);
                    m.a = Loc::R(z);
                    m.b = Src::Loc(x);
                    self.push(m);
                    Loc::R(t)
                } else {
                    x
                };
                let (o, imm) = if op == Op::Abs { (Opcode::And, 0x7fff_ffff) } else { (Opcode::Xor, 0x8000_0000) };
                self.op(o, &[], Loc::R(out), xf, Src::Imm(imm), Loc::None);
            }
            Op::Copysign => {
                let y = src(self, 2)?;
                let yl = self.in_reg(y);
                let (t, u) = (self.v1(), self.v1());
                self.op(Opcode::And, &[], Loc::R(t), x, Src::Imm(0x8000_0000), Loc::None);
                self.op(Opcode::And, &[], Loc::R(u), yl, Src::Imm(0x7fff_ffff), Loc::None);
                self.op(Opcode::Or, &[], Loc::R(out), Loc::R(t), Src::Loc(Loc::R(u)), Loc::None);
            }
            Op::Rcp | Op::Sqrt if !approx_default => {
                if op == Op::Rcp {
                    let one = self.in_reg(Src::Imm(0x3f80_0000));
                    self.op(Opcode::Fdiv, &[rnd.pair(), (ModKind::Ftz, ftz)], Loc::R(out), one, Src::Loc(x), Loc::None);
                } else {
                    self.op(Opcode::Fsqrt, &[rnd.pair(), (ModKind::Ftz, ftz)], Loc::R(out), x, Src::Loc(Loc::None), Loc::None);
                }
            }
            Op::Rcp | Op::Sqrt | Op::Rsqrt | Op::Sin | Op::Cos | Op::Lg2 | Op::Ex2 | Op::Tanh => {
                let f = match op {
                    Op::Rcp => SfuFn::Rcp,
                    Op::Rsqrt => SfuFn::Rsqrt,
                    Op::Lg2 => SfuFn::Lg2,
                    Op::Ex2 => SfuFn::Ex2,
                    Op::Sin => SfuFn::Sin,
                    Op::Cos => SfuFn::Cos,
                    Op::Sqrt => SfuFn::Sqrt,
                    _ => SfuFn::Tanh,
                };
                self.op(Opcode::Mufu, &[f.pair(), (ModKind::Ftz, ftz)], Loc::R(out), x, Src::Loc(Loc::None), Loc::None);
            }
            _ => return Err(format!("`{op}.f32` is not supported by the compiler yet")),
        }
        if half {
            self.op(Opcode::F2h, &[], Loc::R(d), Loc::R(out), Src::Loc(Loc::None), Loc::None);
        }
        Ok(())
    }
}
