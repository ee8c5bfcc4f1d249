//! PTX scalar semantics by type: integer widths and signedness, binary16/32/64
//! arithmetic (through `heddle_isa::scalar`, the one shared implementation),
//! constants converted to instruction types, and the `cvt` matrix.

use heddle_compiler::ptx::ast::{Type, TypeKind};
use heddle_compiler::ptx::expr::Value;
use heddle_compiler::ptx::insts::{Mod, ModSet, Op};
use heddle_isa::scalar::fp::{self, IntTy, Rnd};
use rustc_apfloat::ieee::{Double, Half};
use rustc_apfloat::{Float, FloatConvert, Round};

pub fn bits(ty: Type) -> u32 {
    (ty.size() * 8).min(64)
}

/// The low `ty`-sized bits of `v`.
pub fn mask(v: u64, ty: Type) -> u64 {
    let b = bits(ty);
    if b >= 64 {
        v
    } else {
        v & ((1u64 << b) - 1)
    }
}

/// `v` (of `ty`'s width) sign-extended to 64 bits.
pub fn sext(v: u64, ty: Type) -> i64 {
    let b = bits(ty);
    if b >= 64 {
        v as i64
    } else {
        ((v << (64 - b)) as i64) >> (64 - b)
    }
}

pub fn signed(ty: Type) -> bool {
    ty.kind() == TypeKind::Signed
}

/// Extends a `ty` value to 64 bits by `ty`'s signedness (T19).
pub fn extend(v: u64, ty: Type) -> u64 {
    if signed(ty) {
        sext(v, ty) as u64
    } else {
        mask(v, ty)
    }
}

/// SYN-34/44/46: a constant used as an operand of type `ty`.
pub fn convert_const(v: Value, ty: Type) -> u64 {
    match (v, ty.kind()) {
        (Value::F64(f), TypeKind::Float) => float_from_f64(f, ty),
        (Value::F64(f), _) => mask(f.to_bits(), ty),
        (Value::S64(i), TypeKind::Float) => float_from_f64(i as f64, ty),
        (Value::U64(i), TypeKind::Float) => float_from_f64(i as f64, ty),
        (Value::S64(i), TypeKind::Pred) => (i != 0) as u64,
        (Value::U64(i), TypeKind::Pred) => (i != 0) as u64,
        (v, _) => mask(v.bits(), ty),
    }
}

fn float_from_f64(f: f64, ty: Type) -> u64 {
    match ty {
        Type::F32 => (f as f32).to_bits() as u64,
        Type::F16 => {
            let mut l = false;
            let h: Half = Double::from_bits(f.to_bits() as u128).convert_r(Round::NearestTiesToEven, &mut l).value;
            h.to_bits() as u64
        }
        _ => f.to_bits(),
    }
}

pub fn rnd_of(m: ModSet) -> Rnd {
    if m.has(Mod::Rz) || m.has(Mod::Rzi) {
        Rnd::Rz
    } else if m.has(Mod::Rm) || m.has(Mod::Rmi) {
        Rnd::Rm
    } else if m.has(Mod::Rp) || m.has(Mod::Rpi) {
        Rnd::Rp
    } else {
        Rnd::Rn
    }
}

fn ap(r: Rnd) -> Round {
    match r {
        Rnd::Rn => Round::NearestTiesToEven,
        Rnd::Rz => Round::TowardZero,
        Rnd::Rm => Round::TowardNegative,
        Rnd::Rp => Round::TowardPositive,
    }
}

/// binary16 arithmetic (IEEE, canonical NaN).
pub fn f16_op(op: Op, a: u64, b: u64, c: u64, r: Rnd) -> u64 {
    let h = |x: u64| Half::from_bits((x & 0xffff) as u128);
    let x = match op {
        Op::Add => h(a).add_r(h(b), ap(r)).value,
        Op::Sub => h(a).sub_r(h(b), ap(r)).value,
        Op::Mul => h(a).mul_r(h(b), ap(r)).value,
        _ => h(a).mul_add_r(h(b), h(c), ap(r)).value,
    };
    if x.is_nan() {
        fp::NAN16 as u64
    } else {
        x.to_bits() as u64
    }
}

fn int_ty(ty: Type) -> IntTy {
    match (signed(ty), ty.size() == 8) {
        (false, false) => IntTy::U32,
        (true, false) => IntTy::S32,
        (false, true) => IntTy::U64,
        (true, true) => IntTy::S64,
    }
}

/// Saturates a wide integer into `ty`'s range.
fn clamp_int(v: i128, ty: Type) -> u64 {
    let b = bits(ty);
    let (lo, hi) = if signed(ty) { (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1) } else { (0, (1i128 << b) - 1) };
    mask(v.clamp(lo, hi) as u64, ty)
}

/// Flags of a `cvt`.
pub struct Cvt {
    pub rnd: Rnd,
    /// An integer rounding (`.rni` ...) was given.
    pub int_round: bool,
    pub ftz: bool,
    pub sat: bool,
    /// sm_1x flush rules (CVT-30).
    pub legacy: bool,
}

/// `cvt.dty.aty` of the value `a` (`aty`'s bits, zero-extended).
pub fn cvt(dty: Type, aty: Type, a: u64, c: &Cvt) -> u64 {
    use TypeKind::*;
    let (dk, ak) = (dty.kind(), aty.kind());
    let sat_float = |v: u64, t: Type| if c.sat { float_sat(v, t) } else { v };
    match (dk == Float, ak == Float) {
        // int -> int: sign or zero extension by the source, then truncation or saturation.
        (false, false) => {
            let v = if signed(aty) { sext(a, aty) as i128 } else { mask(a, aty) as i128 };
            if c.sat {
                clamp_int(v, dty)
            } else {
                mask(v as u64, dty)
            }
        }
        // float -> int: round, saturate, NaN -> 0.
        (false, true) => {
            let x = float_to_f64(a, aty, c.ftz && aty == Type::F32);
            if x.is_nan() {
                return 0;
            }
            let r = match c.rnd {
                Rnd::Rn => x.round_ties_even(),
                Rnd::Rz => x.trunc(),
                Rnd::Rm => x.floor(),
                Rnd::Rp => x.ceil(),
            };
            let b = bits(dty);
            let (lo, hi) =
                if signed(dty) { (-(2f64.powi(b as i32 - 1)), 2f64.powi(b as i32 - 1) - 1.0) } else { (0.0, 2f64.powi(b as i32) - 1.0) };
            let v = if r <= lo {
                lo as i128
            } else if r >= hi {
                if b == 64 && !signed(dty) {
                    u64::MAX as i128
                } else if b == 64 {
                    i64::MAX as i128
                } else {
                    hi as i128
                }
            } else {
                r as i128
            };
            mask(v as u64, dty)
        }
        // int -> float: rounded.
        (true, false) => {
            let v = if signed(aty) { sext(a, aty) as i128 } else { mask(a, aty) as i128 };
            let out = match dty {
                Type::F32 => fp::i2f(v as u64, c.rnd, if v < 0 { IntTy::S64 } else { IntTy::U64 }) as u64,
                Type::F64 => fp::i2d(v as u64, c.rnd, if v < 0 { IntTy::S64 } else { IntTy::U64 }),
                _ => Half::from_i128_r(v, ap(c.rnd)).value.to_bits() as u64,
            };
            let out = if c.ftz && dty == Type::F32 { fp::ftz32(out as u32) as u64 } else { out };
            sat_float(out, dty)
        }
        // float -> float.
        (true, true) => {
            let out = if dty == aty {
                if c.int_round {
                    match dty {
                        Type::F32 => fp::rnd32(a as u32, c.rnd, c.ftz) as u64,
                        Type::F64 => fp::rnd64(a, c.rnd),
                        _ => {
                            let h = Half::from_bits((a & 0xffff) as u128).round_to_integral(ap(c.rnd)).value;
                            h.to_bits() as u64
                        }
                    }
                } else {
                    match dty {
                        Type::F32 => fp::finish32(a as u32, c.ftz, false) as u64,
                        Type::F64 => a,
                        _ => a & 0xffff,
                    }
                }
            } else {
                match (dty, aty) {
                    (Type::F32, Type::F64) => fp::d2f(a, c.rnd, c.ftz, false) as u64,
                    (Type::F64, Type::F32) => fp::f2d(a as u32, c.ftz),
                    (Type::F16, Type::F32) => fp::f2h(a as u32, c.rnd, c.ftz) as u64,
                    (Type::F32, Type::F16) => {
                        let v = fp::h2f(a as u32);
                        (if c.ftz { fp::ftz32(v) } else { v }) as u64
                    }
                    (Type::F16, Type::F64) => {
                        let mut l = false;
                        let h: Half = Double::from_bits(a as u128).convert_r(ap(c.rnd), &mut l).value;
                        if h.is_nan() {
                            fp::NAN16 as u64
                        } else {
                            h.to_bits() as u64
                        }
                    }
                    (Type::F64, Type::F16) => fp::f2d(fp::h2f(a as u32), false),
                    _ => a,
                }
            };
            sat_float(out, dty)
        }
    }
}

/// A float of type `t` (f16/f32/f64 bits) as f64; `ftz` flushes a binary32 subnormal.
pub fn float_to_f64(a: u64, t: Type, ftz: bool) -> f64 {
    match t {
        Type::F32 => f32::from_bits(if ftz { fp::ftz32(a as u32) } else { a as u32 }) as f64,
        Type::F16 => f32::from_bits(fp::h2f(a as u32)) as f64,
        _ => f64::from_bits(a),
    }
}

/// `.sat` on a float: clamp to [0, 1], NaN and -0 give +0.
pub fn float_sat(v: u64, t: Type) -> u64 {
    match t {
        Type::F32 => fp::finish32(v as u32, false, true) as u64,
        Type::F64 => {
            let x = f64::from_bits(v);
            if x.is_nan() || x <= 0.0 {
                0
            } else if x > 1.0 {
                1f64.to_bits()
            } else {
                v
            }
        }
        _ => {
            let x = f32::from_bits(fp::h2f(v as u32));
            if x.is_nan() || x <= 0.0 {
                0
            } else if x > 1.0 {
                0x3c00
            } else {
                v
            }
        }
    }
}

/// Integer type of a 32/64-bit conversion helper.
pub fn int_ty_of(ty: Type) -> IntTy {
    int_ty(ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(rnd: Rnd, sat: bool) -> Cvt {
        Cvt { rnd, int_round: false, ftz: false, sat, legacy: false }
    }

    #[test]
    fn cvt_rules() {
        // CVT-01: the source's signedness decides widening.
        assert_eq!(cvt(Type::U32, Type::S8, 0x80, &c(Rnd::Rn, false)), 0xffff_ff80);
        assert_eq!(cvt(Type::S32, Type::U8, 0x80, &c(Rnd::Rn, false)), 0x80);
        // CVT-20: .sat on int -> int.
        assert_eq!(cvt(Type::U32, Type::S16, 0xffff, &c(Rnd::Rn, true)), 0);
        assert_eq!(cvt(Type::S8, Type::S32, 1000, &c(Rnd::Rn, true)), 127);
        // CVT-21/22: float -> int saturates, NaN -> 0.
        assert_eq!(cvt(Type::S32, Type::F32, f32::INFINITY.to_bits() as u64, &c(Rnd::Rz, false)), 0x7fff_ffff);
        assert_eq!(cvt(Type::U32, Type::F32, (-1.0f32).to_bits() as u64, &c(Rnd::Rz, false)), 0);
        assert_eq!(cvt(Type::S32, Type::F32, 0x7fc0_0000, &c(Rnd::Rn, false)), 0);
        assert_eq!(cvt(Type::U64, Type::F64, 1e30f64.to_bits(), &c(Rnd::Rz, false)), u64::MAX);
        assert_eq!(cvt(Type::S32, Type::F32, 2.5f32.to_bits() as u64, &c(Rnd::Rn, false)), 2);
        assert_eq!(cvt(Type::S32, Type::F32, (-2.5f32).to_bits() as u64, &c(Rnd::Rm, false)), (-3i32) as u32 as u64);
        // CVT-23: .sat on a float destination.
        assert_eq!(cvt(Type::F32, Type::F32, 0x7fc0_0000, &c(Rnd::Rn, true)), 0);
        assert_eq!(cvt(Type::F32, Type::S32, 5, &c(Rnd::Rn, true)), 1f32.to_bits() as u64);
        // int -> float rounding.
        assert_eq!(cvt(Type::F32, Type::U32, 16_777_217, &c(Rnd::Rp, false)), 0x4b80_0001);
    }

    #[test]
    fn directed_sqrt_and_div() {
        let two = 2f32.to_bits();
        let rn = fp::sqrt32(two, Rnd::Rn, false);
        let rz = fp::sqrt32(two, Rnd::Rz, false);
        let rp = fp::sqrt32(two, Rnd::Rp, false);
        assert_eq!(rn, 2f32.sqrt().to_bits());
        assert_eq!(rp, rz + 1);
        assert!(rz == rn || rp == rn);
        assert_eq!(fp::sqrt32(4f32.to_bits(), Rnd::Rm, false), 2f32.to_bits());
        assert_eq!(
            fp::div32(1f32.to_bits(), 3f32.to_bits(), Rnd::Rz, false) + 1,
            fp::div32(1f32.to_bits(), 3f32.to_bits(), Rnd::Rp, false)
        );
        let s = fp::sqrt64(2f64.to_bits(), Rnd::Rz);
        assert!(f64::from_bits(s) * f64::from_bits(s) < 2.0);
    }
}
