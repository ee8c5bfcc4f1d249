//! Executing prepared PTX: Per-lane operations: integer, floating point, conversions, comparisons, selects.

use super::*;

impl Machine<'_> {
    pub(super) fn alu(&mut self, cta: &mut Cta, w: usize, i: &PInst, l: usize) -> Result<(), Fault> {
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
        self.write(cta, w, &a[0], ty, l, ops::mask(v, ty));
        Ok(())
    }
}

/// PTX 1.x `mad.f32` (FP-MAD32): the product's mantissa truncated to 23 bits, then an RN add, flushed.
pub(super) fn legacy_mad32(a: u32, b: u32, c: u32, sat: bool) -> u32 {
    let (a, b, c) = (fp::ftz32(a), fp::ftz32(b), fp::ftz32(c));
    let p = f32::from_bits(a) as f64 * f32::from_bits(b) as f64;
    let t = if p.is_finite() && p != 0.0 { f64::from_bits(p.to_bits() & !((1u64 << 29) - 1)) } else { p };
    let s = t + f32::from_bits(c) as f64;
    fp::finish32((s as f32).to_bits(), true, sat)
}

/// A PTX comparison (setp/set) on values of type `t`.
pub(super) fn compare(m: ModSet, t: Type, x: u64, y: u64, ftz: bool) -> bool {
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
