//! Instruction selection: Integer arithmetic, logic, shifts, bit fields, byte permutes, comparisons and selects.

use super::*;
use heddle_isa::values::{BoolOp, ShfDir, Sign};

impl Sel<'_> {
    pub(super) fn sel01(&mut self, d: VReg, p: u8) {
        let mut m = MI::new(Opcode::Sel);
        m.inst.mods = p | 8; // !p: d = (!p) ? 0 : 1
        m.d = Loc::R(d);
        m.a = Loc::Phys(RZ);
        m.b = Src::Imm(1);
        self.push(m);
    }

    /// d = (x cmp y) as 0/1.
    pub(super) fn set_from_cmp(&mut self, d: VReg, x: Loc, y: Src, cmp: ICmp) {
        let mut m = MI::new(Opcode::Isetp);
        m.inst.set(cmp);
        m.inst.d = PRED | (7 << 3);
        m.a = x;
        m.b = y;
        self.push(m);
        self.sel01(d, PRED);
    }

    /// Shifts of 32 or more (or past a narrow type's width) give 0 or the sign fill.
    pub(super) fn clamp_shift(&mut self, d: VReg, t: VReg, n: Loc, ty: Type, signed: bool) {
        let width = (ty.size() * 8).min(32);
        if width == 32 {
            self.mov(Loc::R(d), Src::Loc(Loc::R(t)));
            return;
        }
        // Narrow types: amounts >= width give 0 / sign (shr of the normalized value does that
        // for shr.s; shl and shr.u need it explicitly).
        let mut m = MI::new(Opcode::Isetp);
        m.inst.set(ICmp::Hs);
        m.inst.d = PRED2 | (7 << 3);
        m.a = n;
        m.b = Src::Imm(width);
        self.push(m);
        let fill = if signed {
            let f = self.v1();
            self.op(Opcode::Shr, &[Sign::S.pair()], Loc::R(f), Loc::R(t), Src::Imm(31), Loc::None);
            Loc::R(f)
        } else {
            Loc::Phys(RZ)
        };
        let mut s = MI::new(Opcode::Sel);
        s.inst.mods = PRED2;
        s.d = Loc::R(d);
        s.a = fill;
        s.b = Src::Loc(Loc::R(t));
        self.push(s);
    }

    /// d = x << n or x >> n on 64-bit pairs, as `shl64`/`shr64` do (amounts
    /// past 63 give 0, or the sign fill): the instruction on an SM with
    /// `shift64`, else 32-bit shifts of each word, a funnel shift for the
    /// word bits cross into, and a select between the two cases n < 32 and
    /// n >= 32.
    pub(super) fn shift64(&mut self, d: VReg, left: bool, signed: bool, x: Loc, n: Src) {
        if self.shift64 {
            let (o, mods) = if left { (Opcode::Shl64, vec![]) } else { (Opcode::Shr64, vec![Sign::of(signed).pair()]) };
            self.op(o, &mods, Loc::R(d), x, n, Loc::None);
            return;
        }
        let Loc::R(x) = x else { unreachable!("64-bit operands are register pairs") };
        let (x0, x1) = (Loc::Half(x, 0), Loc::Half(x, 1));
        let n = self.in_reg(n);
        let (n32, near, far, whole, cross) = (self.v1(), self.v1(), self.v1(), self.v1(), self.v1());
        self.op(Opcode::Sub, &[], Loc::R(n32), n, Src::Imm(32), Loc::None);
        let dir = if left { ShfDir::L } else { ShfDir::R };
        // The word bits cross into: a funnel shift for n < 32, the other word shifted by n - 32 past it.
        self.op(Opcode::Shf, &[dir.pair(), (ModKind::Clamp, 1)], Loc::R(near), x0, Src::Loc(n), x1);
        // The word shifted on its own: 0 (or the sign fill) from n = 32 on.
        if left {
            self.op(Opcode::Shl, &[], Loc::R(far), x0, Src::Loc(Loc::R(n32)), Loc::None);
            self.op(Opcode::Shl, &[], Loc::R(whole), x0, Src::Loc(n), Loc::None);
        } else {
            let sg = Sign::of(signed).pair();
            self.op(Opcode::Shr, &[sg], Loc::R(far), x1, Src::Loc(Loc::R(n32)), Loc::None);
            self.op(Opcode::Shr, &[sg], Loc::R(whole), x1, Src::Loc(n), Loc::None);
        }
        let mut m = MI::new(Opcode::Isetp);
        m.inst.set(ICmp::Lo);
        m.inst.d = PRED2 | (7 << 3);
        m.a = n;
        m.b = Src::Imm(32);
        self.push(m);
        let mut s = MI::new(Opcode::Sel);
        s.inst.mods = PRED2;
        s.d = Loc::R(cross);
        s.a = Loc::R(near);
        s.b = Src::Loc(Loc::R(far));
        self.push(s);
        let (lo, hi) = if left { (whole, cross) } else { (cross, whole) };
        self.define(d);
        self.mov(Loc::Half(d, 0), Src::Loc(Loc::R(lo)));
        self.mov(Loc::Half(d, 1), Src::Loc(Loc::R(hi)));
    }

    /// The low 8 bits of a value (bfe/bfi positions and lengths).
    pub(super) fn byte8(&mut self, s: Src) -> Src {
        match s {
            Src::Imm(v) => Src::Imm(v & 0xff),
            other => {
                let l = self.in_reg(other);
                let t = self.v1();
                self.op(Opcode::And, &[], Loc::R(t), l, Src::Imm(0xff), Loc::None);
                Src::Loc(Loc::R(t))
            }
        }
    }

    /// (1 << len) - 1 as a pair; len >= 64 gives all ones.
    pub(super) fn low_mask64(&mut self, len: Src) -> VReg {
        let one = self.v2();
        self.mov(Loc::Half(one, 0), Src::Imm(1));
        self.mov(Loc::Half(one, 1), Src::Imm(0));
        let p = self.v2();
        self.shift64(p, true, false, Loc::R(one), len);
        let m = self.v2();
        self.op(Opcode::Sub, &[(ModKind::Cc, 1)], Loc::Half(m, 0), Loc::Half(p, 0), Src::Imm(1), Loc::None);
        self.op(Opcode::Sub, &[(ModKind::X, 1)], Loc::Half(m, 1), Loc::Half(p, 1), Src::Imm(0), Loc::None);
        m
    }

    /// `dp4a`/`dp2a`: c plus the products of sign- or zero-extended byte and
    /// half-word lanes, as a chain of bit-field extracts and 32-bit mads.
    pub(super) fn dot(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
        let (d, _) = self.dst(&a[0])?;
        let sign = |k: usize| (ModKind::Sign, Self::ty(i, k).is_some_and(|t| t.kind() == TypeKind::Signed) as u32);
        let x = self.reg32(&a[1], Type::B32)?;
        let y = self.reg32(&a[2], Type::B32)?;
        let mut acc = self.reg32(&a[3], Type::B32)?;
        let lanes: Vec<(u32, u32, u32)> = if i.is(Op::Dp4a) {
            (0..4).map(|k| (8 * k, 8, 8 * k)).collect()
        } else {
            let off = if i.has(Mod::Hi) { 16 } else { 0 };
            (0..2).map(|k| (16 * k, 16, off + 8 * k)).collect()
        };
        for (n, &(apos, alen, bpos)) in lanes.iter().enumerate() {
            let (ea, eb) = (self.v1(), self.v1());
            self.op(Opcode::Bfe, &[sign(0)], Loc::R(ea), x, Src::Imm(apos | alen << 8), Loc::None);
            self.op(Opcode::Bfe, &[sign(1)], Loc::R(eb), y, Src::Imm(bpos | 8 << 8), Loc::None);
            let out = if n + 1 == lanes.len() { d } else { self.v1() };
            self.op(Opcode::Mad, &[], Loc::R(out), Loc::R(ea), Src::Loc(Loc::R(eb)), acc);
            acc = Loc::R(out);
        }
        Ok(())
    }

    /// `lop3`: the truth table as a sum of products, one `and` chain per set
    /// minterm (bit k of the table is the result for a, b, c bits = k[2], k[1], k[0]).
    pub(super) fn lop3(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
        let (d, _) = self.dst(&a[0])?;
        let Src::Imm(lut) = self.src32(&a[4], Type::B32)? else {
            return Err("lop3's truth table must be a constant".into());
        };
        let lut = lut & 0xff;
        if lut == 0 || lut == 0xff {
            self.mov(Loc::R(d), Src::Imm(if lut == 0 { 0 } else { u32::MAX }));
            return Ok(());
        }
        let mut ins = vec![];
        for k in 1..4 {
            let x = self.reg32(&a[k], Type::B32)?;
            let nx = self.v1();
            self.op(Opcode::Xor, &[], Loc::R(nx), x, Src::Imm(u32::MAX), Loc::None);
            ins.push((x, Loc::R(nx)));
        }
        let mut acc: Option<Loc> = None;
        for m in (0..8).filter(|m| lut >> m & 1 == 1) {
            let pick = |k: usize| if m >> (2 - k) & 1 == 1 { ins[k].0 } else { ins[k].1 };
            let (t, u) = (self.v1(), self.v1());
            self.op(Opcode::And, &[], Loc::R(t), pick(0), Src::Loc(pick(1)), Loc::None);
            self.op(Opcode::And, &[], Loc::R(u), Loc::R(t), Src::Loc(pick(2)), Loc::None);
            acc = Some(match acc {
                None => Loc::R(u),
                Some(p) => {
                    let o = self.v1();
                    self.op(Opcode::Or, &[], Loc::R(o), p, Src::Loc(Loc::R(u)), Loc::None);
                    Loc::R(o)
                }
            });
        }
        self.mov(Loc::R(d), Src::Loc(acc.expect("a table other than 0 has a set minterm")));
        Ok(())
    }

    pub(super) fn pack_pos_len(&mut self, pos: Src, len: Src) -> Src {
        match (pos, len) {
            (Src::Imm(p), Src::Imm(l)) => Src::Imm((p & 0xff) | (l & 0xff) << 8),
            _ => {
                let p = self.in_reg(pos);
                let l = self.in_reg(len);
                let t = self.v1();
                self.op(Opcode::And, &[], Loc::R(t), p, Src::Imm(0xff), Loc::None);
                let u = self.v1();
                self.op(Opcode::And, &[], Loc::R(u), l, Src::Imm(0xff), Loc::None);
                let w = self.v1();
                self.op(Opcode::Shl, &[], Loc::R(w), Loc::R(u), Src::Imm(8), Loc::None);
                let r = self.v1();
                self.op(Opcode::Or, &[], Loc::R(r), Loc::R(t), Src::Loc(Loc::R(w)), Loc::None);
                Src::Loc(Loc::R(r))
            }
        }
    }

    /// d = count of leading zeros of the 64-bit pair p: hi != 0 ? clz(hi) : 32 + clz(lo).
    pub(super) fn clz64(&mut self, d: VReg, p: VReg) {
        let (x, y, z) = (self.v1(), self.v1(), self.v1());
        self.op(Opcode::Clz, &[], Loc::R(x), Loc::Half(p, 1), Src::Loc(Loc::None), Loc::None);
        self.op(Opcode::Clz, &[], Loc::R(y), Loc::Half(p, 0), Src::Loc(Loc::None), Loc::None);
        self.op(Opcode::Add, &[], Loc::R(z), Loc::R(y), Src::Imm(32), Loc::None);
        let mut m = MI::new(Opcode::Isetp);
        m.inst.set(ICmp::Ne);
        m.inst.d = PRED | (7 << 3);
        m.a = Loc::Half(p, 1);
        m.b = Src::Imm(0);
        self.push(m);
        let mut s = MI::new(Opcode::Sel);
        s.inst.mods = PRED;
        s.d = Loc::R(d);
        s.a = Loc::R(x);
        s.b = Src::Loc(Loc::R(z));
        self.push(s);
    }

    pub(super) fn bits64(&mut self, i: &Inst, ty: Type, d: VReg) -> R<()> {
        let p = self.src64(&i.args[1], ty)?;
        let Loc::R(p) = p else { unreachable!() };
        match Self::op_of(i)? {
            Op::Popc => {
                let (x, y) = (self.v1(), self.v1());
                self.op(Opcode::Popc, &[], Loc::R(x), Loc::Half(p, 0), Src::Loc(Loc::None), Loc::None);
                self.op(Opcode::Popc, &[], Loc::R(y), Loc::Half(p, 1), Src::Loc(Loc::None), Loc::None);
                self.op(Opcode::Add, &[], Loc::R(d), Loc::R(x), Src::Loc(Loc::R(y)), Loc::None);
            }
            Op::Clz => self.clz64(d, p),
            Op::Bfind => {
                // The highest bit differing from the sign (s64) or set (u64) is 63 - clz of the
                // sign-folded value; clz = 64 (no such bit) gives 0xffffffff either way.
                let src = if ty.kind() == TypeKind::Signed {
                    let (sign, f) = (self.v1(), self.v2());
                    self.op(Opcode::Shr, &[Sign::S.pair()], Loc::R(sign), Loc::Half(p, 1), Src::Imm(31), Loc::None);
                    self.define(f);
                    for h in 0..2 {
                        self.op(Opcode::Xor, &[], Loc::Half(f, h), Loc::Half(p, h), Src::Loc(Loc::R(sign)), Loc::None);
                    }
                    f
                } else {
                    p
                };
                let c = self.v1();
                self.clz64(c, src);
                if i.has(Mod::Shiftamt) {
                    let mut m = MI::new(Opcode::Isetp);
                    m.inst.set(ICmp::Eq);
                    m.inst.d = PRED | (7 << 3);
                    m.a = Loc::R(c);
                    m.b = Src::Imm(64);
                    self.push(m);
                    let none = self.v1();
                    self.mov(Loc::R(none), Src::Imm(u32::MAX));
                    let mut s = MI::new(Opcode::Sel);
                    s.inst.mods = PRED;
                    s.d = Loc::R(d);
                    s.a = Loc::R(none);
                    s.b = Src::Loc(Loc::R(c));
                    self.push(s);
                } else {
                    let n = self.v1();
                    self.mov(Loc::R(n), Src::Imm(63));
                    self.op(Opcode::Sub, &[], Loc::R(d), Loc::R(n), Src::Loc(Loc::R(c)), Loc::None);
                }
            }
            Op::Brev => {
                // The halves swap: both are read before d is written (d may be p).
                let (lo, hi) = (self.v1(), self.v1());
                self.op(Opcode::Brev, &[], Loc::R(lo), Loc::Half(p, 1), Src::Loc(Loc::None), Loc::None);
                self.op(Opcode::Brev, &[], Loc::R(hi), Loc::Half(p, 0), Src::Loc(Loc::None), Loc::None);
                self.define(d);
                self.mov(Loc::Half(d, 0), Src::Loc(Loc::R(lo)));
                self.mov(Loc::Half(d, 1), Src::Loc(Loc::R(hi)));
            }
            _ => return Err(format!("`{}.b64` is not supported by the compiler yet", i.opcode.name)),
        }
        Ok(())
    }

    pub(super) fn int_misc(&mut self, i: &Inst, ty: Type) -> R<()> {
        let a = &i.args;
        let (d, _) = self.dst(&a[0])?;
        let op = Self::op_of(i)?;
        let signed = ty.kind() == TypeKind::Signed;
        if is64(ty) {
            let x = self.src64(&a[1], ty)?;
            let Loc::R(x) = x else { unreachable!() };
            match op {
                Op::Min | Op::Max => {
                    let y = self.src64(&a[2], ty)?;
                    let Loc::R(y) = y else { unreachable!() };
                    let cmp = if signed { ICmp::Lt } else { ICmp::Lo };
                    let mut m = MI::new(Opcode::Isetp64);
                    m.inst.set(cmp);
                    m.inst.d = PRED | (7 << 3);
                    m.a = Loc::R(x);
                    m.b = Src::Loc(Loc::R(y));
                    self.push(m);
                    let (first, second) = if op == Op::Min { (x, y) } else { (y, x) };
                    self.define(d);
                    for k in 0..2 {
                        let mut s = MI::new(Opcode::Sel);
                        s.inst.mods = PRED;
                        s.d = Loc::Half(d, k);
                        s.a = Loc::Half(first, k);
                        s.b = Src::Loc(Loc::Half(second, k));
                        self.push(s);
                    }
                }
                _ => {
                    // neg: 0 - x; abs: x < 0 ? -x : x.
                    let n = self.v2();
                    self.op(Opcode::Sub, &[(ModKind::Cc, 1)], Loc::Half(n, 0), Loc::Phys(RZ), Src::Loc(Loc::Half(x, 0)), Loc::None);
                    self.op(Opcode::Sub, &[(ModKind::X, 1)], Loc::Half(n, 1), Loc::Phys(RZ), Src::Loc(Loc::Half(x, 1)), Loc::None);
                    self.define(d);
                    if op == Op::Neg {
                        self.mov(Loc::Half(d, 0), Src::Loc(Loc::Half(n, 0)));
                        self.mov(Loc::Half(d, 1), Src::Loc(Loc::Half(n, 1)));
                    } else {
                        let mut m = MI::new(Opcode::Isetp);
                        m.inst.set(ICmp::Lt);
                        m.inst.d = PRED | (7 << 3);
                        m.a = Loc::Half(x, 1);
                        m.b = Src::Imm(0);
                        self.push(m);
                        for k in 0..2 {
                            let mut s = MI::new(Opcode::Sel);
                            s.inst.mods = PRED;
                            s.d = Loc::Half(d, k);
                            s.a = Loc::Half(n, k);
                            s.b = Src::Loc(Loc::Half(x, k));
                            self.push(s);
                        }
                    }
                }
            }
            return Ok(());
        }
        let x = self.src32(&a[1], ty)?;
        let x = self.norm(x, ty);
        match op {
            Op::Min | Op::Max => {
                let y = self.src32(&a[2], ty)?;
                let y = self.norm(y, ty);
                let o = if op == Op::Min { Opcode::Min } else { Opcode::Max };
                self.op(o, &[(ModKind::Sign, signed as u32)], Loc::R(d), x, Src::Loc(y), Loc::None);
            }
            Op::Neg => self.op(Opcode::Sub, &[], Loc::R(d), Loc::Phys(RZ), Src::Loc(x), Loc::None),
            _ => self.op(Opcode::Abs, &[], Loc::R(d), x, Src::Loc(Loc::None), Loc::None),
        }
        Ok(())
    }

    pub(super) fn mul_mad(&mut self, i: &Inst, ty: Type) -> R<()> {
        let a = &i.args;
        let (d, _) = self.dst(&a[0])?;
        let op = Self::op_of(i)?;
        let signed = ty.kind() == TypeKind::Signed;
        let hi = i.has(Mod::Hi);
        let wide = i.has(Mod::Wide);
        let mad = op == Op::Mad || op == Op::Madc;
        if is64(ty) {
            let (x, y) = (self.src64(&a[1], ty)?, self.src64(&a[2], ty)?);
            let p = if mad { self.v2() } else { d };
            if self.mul64 {
                if !mad {
                    self.define(d);
                }
                self.op(Opcode::Mul64, &[(ModKind::Hi, hi as u32), Sign::of(signed).pair()], Loc::R(p), x, Src::Loc(y), Loc::None);
            } else if hi {
                let (lo, high) = self.mulhi64_from_32(x, y, signed);
                self.define(p);
                self.mov(Loc::Half(p, 0), Src::Loc(lo));
                self.mov(Loc::Half(p, 1), Src::Loc(high));
            } else {
                let (lo, high) = self.mul64_from_32(x, y);
                self.define(p);
                self.mov(Loc::Half(p, 0), Src::Loc(lo));
                self.mov(Loc::Half(p, 1), Src::Loc(high));
            }
            if mad {
                let c = self.src64(&a[3], ty)?;
                let Loc::R(c) = c else { unreachable!() };
                self.define(d);
                self.op(Opcode::Add, &[(ModKind::Cc, 1)], Loc::Half(d, 0), Loc::Half(p, 0), Src::Loc(Loc::Half(c, 0)), Loc::None);
                self.op(Opcode::Add, &[(ModKind::X, 1)], Loc::Half(d, 1), Loc::Half(p, 1), Src::Loc(Loc::Half(c, 1)), Loc::None);
            }
            return Ok(());
        }
        let xs = self.src32(&a[1], ty)?;
        let ys = self.src32(&a[2], ty)?;
        let narrow = ty.size() < 4;
        let (x, y) = if narrow || wide { (self.norm(xs, ty), Src::Loc(self.norm(ys, ty))) } else { (self.in_reg(xs), ys) };
        if wide {
            if narrow {
                // 16 x 16 -> 32: the normalized product fits in 32 bits.
                let t = self.v1();
                self.op(Opcode::Mul, &[(ModKind::Sign, signed as u32)], Loc::R(t), x, y, Loc::None);
                if mad {
                    let c = self.src32(&a[3], Type::U32)?;
                    self.op(Opcode::Add, &[], Loc::R(d), Loc::R(t), c, Loc::None);
                } else {
                    self.mov(Loc::R(d), Src::Loc(Loc::R(t)));
                }
                return Ok(());
            }
            let p = if mad { self.v2() } else { d };
            self.define(p);
            let sg = (ModKind::Sign, signed as u32);
            self.op(Opcode::Mul, &[sg], Loc::Half(p, 0), x, y, Loc::None);
            self.op(Opcode::Mul, &[sg, (ModKind::Hi, 1)], Loc::Half(p, 1), x, y, Loc::None);
            if mad {
                let c = self.src64(&a[3], if signed { Type::S64 } else { Type::U64 })?;
                let Loc::R(c) = c else { unreachable!() };
                self.define(d);
                self.op(Opcode::Add, &[(ModKind::Cc, 1)], Loc::Half(d, 0), Loc::Half(p, 0), Src::Loc(Loc::Half(c, 0)), Loc::None);
                self.op(Opcode::Add, &[(ModKind::X, 1)], Loc::Half(d, 1), Loc::Half(p, 1), Src::Loc(Loc::Half(c, 1)), Loc::None);
            }
            return Ok(());
        }
        if narrow && hi {
            // The high half of a 16x16 product: bits 16..31 of the 32-bit product.
            let t = self.v1();
            self.op(Opcode::Mul, &[(ModKind::Sign, signed as u32)], Loc::R(t), x, y, Loc::None);
            let u = self.v1();
            self.op(Opcode::Shr, &[(ModKind::Sign, signed as u32)], Loc::R(u), Loc::R(t), Src::Imm(16), Loc::None);
            if mad {
                let c = self.src32(&a[3], ty)?;
                self.op(Opcode::Add, &[], Loc::R(d), Loc::R(u), c, Loc::None);
            } else {
                self.mov(Loc::R(d), Src::Loc(Loc::R(u)));
            }
            return Ok(());
        }
        let mods = [
            (ModKind::Hi, hi as u32),
            (ModKind::Sign, signed as u32),
            (ModKind::Sat, (i.has(Mod::Sat) && ty == Type::S32) as u32),
            (ModKind::Cc, i.has(Mod::Cc) as u32),
            (ModKind::X, (op == Op::Madc) as u32),
        ];
        if mad {
            let c = self.reg32(&a[3], ty)?;
            let y = Src::Loc(self.in_reg(y));
            self.op(Opcode::Mad, &mods, Loc::R(d), x, y, c);
        } else {
            self.op(Opcode::Mul, &mods[..2], Loc::R(d), x, y, Loc::None);
        }
        Ok(())
    }

    /// The low 64 bits of x * y (register pairs) from 32-bit multiplies, for
    /// an SM without `mul64`: x0*y0 in full, plus the low halves of x0*y1 and
    /// x1*y0 into the high word (signedness does not matter to these bits).
    /// Returns the (low, high) words, in new registers.
    fn mul64_from_32(&mut self, x: Loc, y: Loc) -> (Loc, Loc) {
        let (Loc::R(x), Loc::R(y)) = (x, y) else { unreachable!("src64 gives register pairs") };
        let (x0, x1, y0, y1) = (Loc::Half(x, 0), Loc::Half(x, 1), Loc::Half(y, 0), Loc::Half(y, 1));
        let (t, u, lo, high) = (self.v1(), self.v1(), self.v1(), self.v1());
        self.op(Opcode::Mul, &[(ModKind::Hi, 1)], Loc::R(t), x0, Src::Loc(y0), Loc::None);
        self.op(Opcode::Mad, &[], Loc::R(u), x0, Src::Loc(y1), Loc::R(t));
        self.op(Opcode::Mad, &[], Loc::R(high), x1, Src::Loc(y0), Loc::R(u));
        self.op(Opcode::Mul, &[], Loc::R(lo), x0, Src::Loc(y0), Loc::None);
        (Loc::R(lo), Loc::R(high))
    }

    /// The high 64 bits of the 128-bit x * y (register pairs) from 32-bit
    /// multiplies, for an SM without `mul64`: the four partial products'
    /// words summed with carries (word 1's carries into word 2, word 2's
    /// into word 3); signed, less y where x is negative and less x where y
    /// is (the two's-complement correction of an unsigned product). Returns
    /// the (low, high) words, in new registers.
    fn mulhi64_from_32(&mut self, x: Loc, y: Loc, signed: bool) -> (Loc, Loc) {
        let (Loc::R(x), Loc::R(y)) = (x, y) else { unreachable!("src64 gives register pairs") };
        let (x0, x1, y0, y1) = (Loc::Half(x, 0), Loc::Half(x, 1), Loc::Half(y, 0), Loc::Half(y, 1));
        let hi = [(ModKind::Hi, 1)];
        let prod = |s: &mut Self, m: &[(ModKind, u32)], a: Loc, b: Loc| {
            let t = s.v1();
            s.op(Opcode::Mul, m, Loc::R(t), a, Src::Loc(b), Loc::None);
            Loc::R(t)
        };
        let p00h = prod(self, &hi, x0, y0);
        let p01l = prod(self, &[], x0, y1);
        let p10l = prod(self, &[], x1, y0);
        let p01h = prod(self, &hi, x0, y1);
        let p10h = prod(self, &hi, x1, y0);
        let p11l = prod(self, &[], x1, y1);
        let p11h = prod(self, &hi, x1, y1);
        let (cc, x_cc, x_only) = ([(ModKind::Cc, 1)], [(ModKind::Cc, 1), (ModKind::X, 1)], [(ModKind::X, 1)]);
        // Word 1 is p00h + p01l + p10l; each of its two carries goes up.
        let (w1, w2, w3) = (self.v1(), self.v1(), self.v1());
        self.op(Opcode::Add, &cc, Loc::R(w1), p00h, Src::Loc(p01l), Loc::None);
        self.op(Opcode::Add, &x_cc, Loc::R(w2), p11l, Src::Loc(p01h), Loc::None);
        self.op(Opcode::Add, &x_only, Loc::R(w3), p11h, Src::Imm(0), Loc::None);
        let (v1, v2, v3) = (self.v1(), self.v1(), self.v1());
        self.op(Opcode::Add, &cc, Loc::R(v1), Loc::R(w1), Src::Loc(p10l), Loc::None);
        self.op(Opcode::Add, &x_cc, Loc::R(v2), Loc::R(w2), Src::Loc(p10h), Loc::None);
        self.op(Opcode::Add, &x_only, Loc::R(v3), Loc::R(w3), Src::Imm(0), Loc::None);
        let (mut lo, mut high) = (Loc::R(v2), Loc::R(v3));
        if signed {
            for ((s0, s1), sign) in [((y0, y1), x1), ((x0, x1), y1)] {
                let m = self.v1();
                self.op(Opcode::Shr, &[(ModKind::Sign, 1)], Loc::R(m), sign, Src::Imm(31), Loc::None);
                let (a0, a1, d0, d1) = (self.v1(), self.v1(), self.v1(), self.v1());
                self.op(Opcode::And, &[], Loc::R(a0), s0, Src::Loc(Loc::R(m)), Loc::None);
                self.op(Opcode::And, &[], Loc::R(a1), s1, Src::Loc(Loc::R(m)), Loc::None);
                self.op(Opcode::Sub, &cc, Loc::R(d0), lo, Src::Loc(Loc::R(a0)), Loc::None);
                self.op(Opcode::Sub, &x_only, Loc::R(d1), high, Src::Loc(Loc::R(a1)), Loc::None);
                (lo, high) = (Loc::R(d0), Loc::R(d1));
            }
        }
        (lo, high)
    }

    pub(super) fn setp(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
        let is_set = i.is(Op::Set);
        let sty = if is_set { Self::ty(i, 1).unwrap_or(Type::B32) } else { Self::ty(i, 0).unwrap_or(Type::B32) };
        let cmp = group::COMPARISON.iter().copied().find(|&m| i.has(m)).ok_or("a comparison is required")?;
        let bop = if i.has(Mod::And) {
            Some(BoolOp::And)
        } else if i.has(Mod::Or) {
            Some(BoolOp::Or)
        } else if i.has(Mod::Xor) {
            Some(BoolOp::Xor)
        } else {
            None
        };
        // The combining predicate goes to p5 first.
        let pc = match (bop, a.get(3)) {
            (Some(_), Some(c)) => {
                let c = self.reg32(c, Type::Pred)?;
                self.test_pred(c, PRED2);
                PRED2
            }
            _ => 7,
        };
        let mut m;
        match sty.kind() {
            TypeKind::Float => {
                let cmp = fcmp(cmp).ok_or(format!("`.{}` is not a float comparison", cmp.name()))?;
                if is64(sty) {
                    let (x, y) = (self.src64(&a[1], sty)?, self.src64(&a[2], sty)?);
                    m = MI::new(Opcode::Dsetp);
                    m.inst.set(cmp);
                    m.a = x;
                    m.b = Src::Loc(y);
                } else {
                    let (mut x, mut y) = (self.reg32(&a[1], sty)?, self.src32(&a[2], sty)?);
                    if sty == Type::F16 {
                        x = self.h2f(x);
                        let yl = self.in_reg(y);
                        y = Src::Loc(self.h2f(yl));
                    }
                    m = MI::new(Opcode::Fsetp);
                    m.inst.set(cmp);
                    if i.has(Mod::Ftz) {
                        m.inst.set_modifier(ModKind::FtzExt, 1);
                        y = Src::Loc(self.in_reg(y));
                    }
                    m.a = x;
                    m.b = y;
                }
            }
            _ => {
                let signed = sty.kind() == TypeKind::Signed;
                let cmp = icmp(cmp, signed).ok_or(format!("`.{}` is not an integer comparison", cmp.name()))?;
                if is64(sty) {
                    let (x, y) = (self.src64(&a[1], sty)?, self.src64(&a[2], sty)?);
                    m = MI::new(Opcode::Isetp64);
                    m.inst.set(cmp);
                    m.a = x;
                    m.b = Src::Loc(y);
                } else {
                    let x = self.src32(&a[1], sty)?;
                    let x = self.norm(x, sty);
                    let y = self.src32(&a[2], sty)?;
                    let y = if sty.size() < 4 { Src::Loc(self.norm(y, sty)) } else { y };
                    m = MI::new(Opcode::Isetp);
                    m.inst.set(cmp);
                    m.a = x;
                    m.b = y;
                }
            }
        }
        m.inst.set(bop.unwrap_or(BoolOp::And));
        m.inst.d = PRED | (pc << 3);
        self.push(m.clone());
        if is_set {
            let (d, _) = self.dst(&a[0])?;
            let dty = Self::ty(i, 0).unwrap_or(Type::U32);
            let one = if dty == Type::F32 { 0x3f80_0000 } else { u32::MAX };
            let mut s = MI::new(Opcode::Sel);
            s.inst.mods = PRED | 8;
            s.d = Loc::R(d);
            s.a = Loc::Phys(RZ);
            s.b = Src::Imm(one);
            self.push(s);
            return Ok(());
        }
        match &a[0] {
            Operand::Pair(p, q) => {
                let (pv, _) = self.dst(&Operand::Name(p.clone()))?;
                let (qv, _) = self.dst(&Operand::Name(q.clone()))?;
                self.sel01(pv, PRED);
                // q = (!cmp) op c: recompute with the negated comparison through p6 again.
                let mut mq = m;
                mq.inst.d = PRED | (pc << 3);
                if matches!(mq.inst.op, Opcode::Fsetp | Opcode::Dsetp) {
                    let cmp = FCmp::from_bits(mq.inst.modifier(ModKind::FCmp)).ok_or("a compare without a comparison")?;
                    mq.inst.set(cmp.negate());
                } else {
                    let cmp = ICmp::from_bits(mq.inst.modifier(ModKind::ICmp)).ok_or("a compare without a comparison")?;
                    mq.inst.set(cmp.negate());
                }
                self.push(mq);
                self.sel01(qv, PRED);
            }
            o => {
                let (d, _) = self.dst(o)?;
                self.sel01(d, PRED);
            }
        }
        Ok(())
    }

    /// Integer `add`, `sub`, `addc`, `subc` (carry in and out, `.sat`; 64-bit as a carry pair).
    pub(super) fn int_add(&mut self, i: &Inst, ty: Type) -> R<()> {
        let op = Self::op_of(i)?;
        let a = &i.args;
        let (d, _) = self.dst(&a[0])?;
        let is_add = matches!(op, Op::Add | Op::Addc);
        let o = if is_add { Opcode::Add } else { Opcode::Sub };
        let x = (op == Op::Addc || op == Op::Subc) as u32;
        let cc = i.has(Mod::Cc) as u32;
        if is64(ty) {
            let (p, q) = (self.src64(&a[1], ty)?, self.src64(&a[2], ty)?);
            let (Loc::R(p), Loc::R(q)) = (p, q) else { unreachable!() };
            self.define(d);
            self.op(o, &[(ModKind::Cc, 1)], Loc::Half(d, 0), Loc::Half(p, 0), Src::Loc(Loc::Half(q, 0)), Loc::None);
            self.op(o, &[(ModKind::X, 1)], Loc::Half(d, 1), Loc::Half(p, 1), Src::Loc(Loc::Half(q, 1)), Loc::None);
        } else {
            let p = self.reg32(&a[1], ty)?;
            let q = self.src32(&a[2], ty)?;
            let sat = (i.has(Mod::Sat) && ty == Type::S32) as u32;
            self.op(o, &[(ModKind::Cc, cc), (ModKind::X, x), (ModKind::Sat, sat)], Loc::R(d), p, q, Loc::None);
        }
        Ok(())
    }

    /// `sad`: c + |a - b|.
    pub(super) fn sad(&mut self, i: &Inst, ty: Type) -> R<()> {
        let a = &i.args;
        let signed = ty.kind() == TypeKind::Signed;
        let sg = (ModKind::Sign, signed as u32);
        // d = c + |a - b| (compare by the type's signedness, arithmetic wrapping).
        let (d, _) = self.dst(&a[0])?;
        if is64(ty) {
            return Err("sad.64 is not supported by the compiler yet".into());
        }
        let x = self.src32(&a[1], ty)?;
        let x = self.norm(x, ty);
        let y = self.src32(&a[2], ty)?;
        let y = self.norm(y, ty);
        let (hi, lo, diff) = (self.v1(), self.v1(), self.v1());
        self.op(Opcode::Max, &[sg], Loc::R(hi), x, Src::Loc(y), Loc::None);
        self.op(Opcode::Min, &[sg], Loc::R(lo), x, Src::Loc(y), Loc::None);
        self.op(Opcode::Sub, &[], Loc::R(diff), Loc::R(hi), Src::Loc(Loc::R(lo)), Loc::None);
        let c = self.src32(&a[3], ty)?;
        let cl = self.in_reg(c);
        self.op(Opcode::Add, &[], Loc::R(d), cl, Src::Loc(Loc::R(diff)), Loc::None);
        Ok(())
    }

    /// Integer `div` and `rem` (32- and 64-bit).
    pub(super) fn int_div(&mut self, i: &Inst, ty: Type) -> R<()> {
        let op = Self::op_of(i)?;
        let a = &i.args;
        let signed = ty.kind() == TypeKind::Signed;
        let sg = (ModKind::Sign, signed as u32);
        let (d, _) = self.dst(&a[0])?;
        let rem = op == Op::Rem;
        if is64(ty) {
            let (p, q) = (self.src64(&a[1], ty)?, self.src64(&a[2], ty)?);
            self.define(d);
            self.op(if rem { Opcode::Rem64 } else { Opcode::Div64 }, &[sg], Loc::R(d), p, Src::Loc(q), Loc::None);
        } else {
            let p = self.src32(&a[1], ty)?;
            let p = self.norm(p, ty);
            let q = self.src32(&a[2], ty)?;
            let q = self.norm(q, ty);
            self.op(if rem { Opcode::Rem } else { Opcode::Div }, &[sg], Loc::R(d), p, Src::Loc(q), Loc::None);
        }
        Ok(())
    }

    /// `and`, `or`, `xor`, `not`, `cnot` on predicates and 16- to 64-bit values.
    pub(super) fn logic(&mut self, i: &Inst, ty: Type) -> R<()> {
        let op = Self::op_of(i)?;
        let a = &i.args;
        let (d, _) = self.dst(&a[0])?;
        let o = match op {
            Op::And => Opcode::And,
            Op::Or => Opcode::Or,
            _ => Opcode::Xor,
        };
        if is64(ty) {
            let p = self.src64(&a[1], ty)?;
            let Loc::R(p) = p else { unreachable!() };
            let q = if op == Op::Not || op == Op::Cnot { None } else { Some(self.src64(&a[2], ty)?) };
            self.define(d);
            for k in 0..2 {
                match (op, q) {
                    (Op::Not, _) => self.op(Opcode::Xor, &[], Loc::Half(d, k), Loc::Half(p, k), Src::Imm(u32::MAX), Loc::None),
                    (_, Some(Loc::R(q))) => self.op(o, &[], Loc::Half(d, k), Loc::Half(p, k), Src::Loc(Loc::Half(q, k)), Loc::None),
                    _ => return Err("cnot.b64 is not supported".into()),
                }
            }
            return Ok(());
        }
        let p = self.reg32(&a[1], ty)?;
        match op {
            Op::Not if ty == Type::Pred => self.op(Opcode::Xor, &[], Loc::R(d), p, Src::Imm(1), Loc::None),
            Op::Not => self.op(Opcode::Xor, &[], Loc::R(d), p, Src::Imm(u32::MAX), Loc::None),
            Op::Cnot => {
                let n = self.norm(Src::Loc(p), ty);
                self.set_from_cmp(d, n, Src::Imm(0), ICmp::Eq);
            }
            _ => {
                let q = self.src32(&a[2], ty)?;
                self.op(o, &[], Loc::R(d), p, q, Loc::None);
            }
        }
        Ok(())
    }

    /// `shl` and `shr` (amounts past the width clamp, as PTX says).
    pub(super) fn shift(&mut self, i: &Inst, ty: Type) -> R<()> {
        let op = Self::op_of(i)?;
        let a = &i.args;
        let signed = ty.kind() == TypeKind::Signed;
        let sg = (ModKind::Sign, signed as u32);
        let (d, _) = self.dst(&a[0])?;
        let n = self.src32(&a[2], Type::U32)?;
        if is64(ty) {
            let p = self.src64(&a[1], ty)?;
            if self.shift64 {
                self.define(d);
            }
            self.shift64(d, op == Op::Shl, signed, p, n);
        } else {
            let p = self.src32(&a[1], ty)?;
            let nn = self.in_reg(n);
            if op == Op::Shl {
                let pl = self.in_reg(p);
                // Amounts at or past the type's width give 0 (narrow types too).
                let t = self.v1();
                self.op(Opcode::Shl, &[], Loc::R(t), pl, Src::Loc(nn), Loc::None);
                self.clamp_shift(d, t, nn, ty, false);
            } else {
                let pl = self.norm(p, ty);
                let t = self.v1();
                self.op(Opcode::Shr, &[sg], Loc::R(t), pl, Src::Loc(nn), Loc::None);
                self.clamp_shift(d, t, nn, ty, signed);
            }
        }
        Ok(())
    }

    /// `shf.l`/`shf.r`, wrapping or clamping the amount.
    pub(super) fn funnel_shift(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
        let (d, _) = self.dst(&a[0])?;
        let lo = self.reg32(&a[1], Type::B32)?;
        let hi = self.reg32(&a[2], Type::B32)?;
        let n = self.reg32(&a[3], Type::U32)?;
        self.op(
            Opcode::Shf,
            &[if i.has(Mod::R) { ShfDir::R } else { ShfDir::L }.pair(), (ModKind::Clamp, i.has(Mod::Clamp) as u32)],
            Loc::R(d),
            lo,
            Src::Loc(n),
            hi,
        );
        Ok(())
    }

    /// `popc`, `clz`, `brev`, `bfind`.
    pub(super) fn bit_count(&mut self, i: &Inst, ty: Type) -> R<()> {
        let op = Self::op_of(i)?;
        let a = &i.args;
        let signed = ty.kind() == TypeKind::Signed;
        let sg = (ModKind::Sign, signed as u32);
        let (d, _) = self.dst(&a[0])?;
        if is64(ty) {
            return self.bits64(i, ty, d);
        }
        let p = self.reg32(&a[1], ty)?;
        match op {
            Op::Popc => self.op(Opcode::Popc, &[], Loc::R(d), p, Src::Loc(Loc::None), Loc::None),
            Op::Clz => self.op(Opcode::Clz, &[], Loc::R(d), p, Src::Loc(Loc::None), Loc::None),
            Op::Brev => self.op(Opcode::Brev, &[], Loc::R(d), p, Src::Loc(Loc::None), Loc::None),
            _ => self.op(
                Opcode::Bfind,
                &[sg, (ModKind::ShiftAmt, i.has(Mod::Shiftamt) as u32)],
                Loc::R(d),
                p,
                Src::Loc(Loc::None),
                Loc::None,
            ),
        }
        Ok(())
    }

    /// `bfe`: bit-field extract, sign-extending for signed types.
    pub(super) fn bfe(&mut self, i: &Inst, ty: Type) -> R<()> {
        let a = &i.args;
        let signed = ty.kind() == TypeKind::Signed;
        let sg = (ModKind::Sign, signed as u32);
        let (d, _) = self.dst(&a[0])?;
        if is64(ty) && signed {
            // msb = min(pos + len - 1, 63); (a << (63 - msb)) >>s (63 - msb + pos) puts bit
            // pos at 0 and fills from bit msb (everything from bit 63 when pos > 63); len 0 gives 0.
            let x = self.src64(&a[1], ty)?;
            let pos = self.src32(&a[2], Type::U32)?;
            let len = self.src32(&a[3], Type::U32)?;
            let (pos, len) = (self.byte8(pos), self.byte8(len));
            let (pos, len) = (self.in_reg(pos), self.in_reg(len));
            let (m, msb, n, k, sh) = (self.v1(), self.v1(), self.v1(), self.v1(), self.v1());
            self.op(Opcode::Add, &[], Loc::R(m), pos, Src::Loc(len), Loc::None);
            self.op(Opcode::Sub, &[], Loc::R(m), Loc::R(m), Src::Imm(1), Loc::None);
            self.op(Opcode::Min, &[Sign::S.pair()], Loc::R(msb), Loc::R(m), Src::Imm(63), Loc::None);
            self.mov(Loc::R(n), Src::Imm(63));
            self.op(Opcode::Sub, &[], Loc::R(k), Loc::R(n), Src::Loc(Loc::R(msb)), Loc::None);
            self.op(Opcode::Add, &[], Loc::R(sh), Loc::R(k), Src::Loc(pos), Loc::None);
            let (y, z) = (self.v2(), self.v2());
            self.shift64(y, true, false, x, Src::Loc(Loc::R(k)));
            self.shift64(z, false, true, Loc::R(y), Src::Loc(Loc::R(sh)));
            let mut t = MI::new(Opcode::Isetp);
            t.inst.set(ICmp::Eq);
            t.inst.d = PRED | (7 << 3);
            t.a = len;
            t.b = Src::Imm(0);
            self.push(t);
            self.define(d);
            for h in 0..2 {
                let mut s = MI::new(Opcode::Sel);
                s.inst.mods = PRED;
                s.d = Loc::Half(d, h);
                s.a = Loc::Phys(RZ);
                s.b = Src::Loc(Loc::Half(z, h));
                self.push(s);
            }
            return Ok(());
        }
        if is64(ty) {
            // (a >> pos) & ((1 << len) - 1), with len >= 64 keeping everything.
            let x = self.src64(&a[1], ty)?;
            let pos = self.src32(&a[2], Type::U32)?;
            let len = self.src32(&a[3], Type::U32)?;
            let pos = self.byte8(pos);
            let len = self.byte8(len);
            let t = self.v2();
            self.shift64(t, false, false, x, pos);
            let m = self.low_mask64(len);
            self.define(d);
            self.op(Opcode::And, &[], Loc::Half(d, 0), Loc::Half(t, 0), Src::Loc(Loc::Half(m, 0)), Loc::None);
            self.op(Opcode::And, &[], Loc::Half(d, 1), Loc::Half(t, 1), Src::Loc(Loc::Half(m, 1)), Loc::None);
            return Ok(());
        }
        let x = self.reg32(&a[1], ty)?;
        let pos = self.src32(&a[2], Type::U32)?;
        let len = self.src32(&a[3], Type::U32)?;
        let pl = self.pack_pos_len(pos, len);
        self.op(Opcode::Bfe, &[sg], Loc::R(d), x, pl, Loc::None);
        Ok(())
    }

    /// `bfi`: bit-field insert.
    pub(super) fn bfi(&mut self, i: &Inst, ty: Type) -> R<()> {
        let a = &i.args;
        let (d, _) = self.dst(&a[0])?;
        if is64(ty) {
            // mask = ((1 << len) - 1) << pos; d = (base & ~mask) | ((ins << pos) & mask).
            let ins = self.src64(&a[1], ty)?;
            let Loc::R(base) = self.src64(&a[2], ty)? else { unreachable!() };
            let pos = self.src32(&a[3], Type::U32)?;
            let len = self.src32(&a[4], Type::U32)?;
            let pos = self.byte8(pos);
            let len = self.byte8(len);
            let m0 = self.low_mask64(len);
            let m = self.v2();
            self.shift64(m, true, false, Loc::R(m0), pos);
            let sh = self.v2();
            self.shift64(sh, true, false, ins, pos);
            self.define(d);
            for k in 0..2 {
                let (t, u, nm) = (self.v1(), self.v1(), self.v1());
                self.op(Opcode::And, &[], Loc::R(t), Loc::Half(sh, k), Src::Loc(Loc::Half(m, k)), Loc::None);
                self.op(Opcode::Xor, &[], Loc::R(nm), Loc::Half(m, k), Src::Imm(u32::MAX), Loc::None);
                self.op(Opcode::And, &[], Loc::R(u), Loc::Half(base, k), Src::Loc(Loc::R(nm)), Loc::None);
                self.op(Opcode::Or, &[], Loc::Half(d, k), Loc::R(t), Src::Loc(Loc::R(u)), Loc::None);
            }
            return Ok(());
        }
        let ins = self.reg32(&a[1], ty)?;
        let base = self.reg32(&a[2], ty)?;
        let pos = self.src32(&a[3], Type::U32)?;
        let len = self.src32(&a[4], Type::U32)?;
        let pl = self.pack_pos_len(pos, len);
        let pl = self.in_reg(pl);
        self.op(Opcode::Bfi, &[], Loc::R(d), ins, Src::Loc(pl), base);
        Ok(())
    }

    /// `prmt`: byte permute, in each of its modes.
    pub(super) fn prmt(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
        let (d, _) = self.dst(&a[0])?;
        let x = self.reg32(&a[1], Type::B32)?;
        let y = self.reg32(&a[2], Type::B32)?;
        let sel = self.src32(&a[3], Type::B32)?;
        let mode = i
            .flags
            .first_of(&[
                (Mod::F4e, PrmtMode::F4e),
                (Mod::B4e, PrmtMode::B4e),
                (Mod::Rc8, PrmtMode::Rc8),
                (Mod::Ecl, PrmtMode::Ecl),
                (Mod::Ecr, PrmtMode::Ecr),
                (Mod::Rc16, PrmtMode::Rc16),
            ])
            .unwrap_or(PrmtMode::Gen);
        let sl = self.in_reg(sel);
        self.op(Opcode::Prmt, &[mode.pair()], Loc::R(d), x, Src::Loc(sl), y);
        Ok(())
    }

    /// `selp`: d = p ? a : b.
    pub(super) fn selp(&mut self, i: &Inst, ty: Type) -> R<()> {
        let a = &i.args;
        let (d, _) = self.dst(&a[0])?;
        let p = self.reg32(&a[3], Type::Pred)?;
        self.test_pred(p, PRED);
        if is64(ty) {
            let (x, y) = (self.src64(&a[1], ty)?, self.src64(&a[2], ty)?);
            let (Loc::R(x), Loc::R(y)) = (x, y) else { unreachable!() };
            self.define(d);
            for k in 0..2 {
                let mut m = MI::new(Opcode::Sel);
                m.inst.mods = PRED;
                m.d = Loc::Half(d, k);
                m.a = Loc::Half(x, k);
                m.b = Src::Loc(Loc::Half(y, k));
                self.push(m);
            }
        } else {
            let x = self.reg32(&a[1], ty)?;
            let y = self.src32(&a[2], ty)?;
            let mut m = MI::new(Opcode::Sel);
            m.inst.mods = PRED;
            m.d = Loc::R(d);
            m.a = x;
            m.b = y;
            self.push(m);
        }
        Ok(())
    }
}
