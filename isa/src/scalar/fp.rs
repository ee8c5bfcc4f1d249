//! IEEE-754 binary16/32/64 semantics with PTX's rules: four rounding modes,
//! flush-to-zero, saturation, canonical NaNs, NaN-aware min/max and compares.
//!
//! Round-to-nearest-even uses the host's native operations (IEEE-correct in
//! Rust); the directed modes use `rustc_apfloat`, the soft-float library that
//! rustc and Miri use for constant evaluation (chosen because it implements
//! every IEEE rounding mode for add, mul, fma, conversions and
//! round-to-integral, and is maintained with the compiler).
//!
//! Rules (PTX ISA, sm_20 and later):
//! - a NaN result is the canonical NaN (`0x7fffffff`, binary64: `0x7fffffffffffffff`);
//! - `.ftz` treats subnormal inputs as sign-preserving zero and flushes a
//!   subnormal result (after rounding) to sign-preserving zero;
//! - `.sat` clamps to [+0.0, 1.0], with NaN and -0.0 giving +0.0.

use rustc_apfloat::ieee::{Double, Half, Quad, Single};
use rustc_apfloat::{Float, FloatConvert, Round};

/// Rounding direction, in the encoding of the `Rnd` modifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rnd {
    /// To nearest, ties to even.
    Rn = 0,
    /// Toward zero.
    Rz = 1,
    /// Toward negative infinity.
    Rm = 2,
    /// Toward positive infinity.
    Rp = 3,
}

impl Rnd {
    pub fn from_bits(v: u32) -> Rnd {
        match v & 3 {
            0 => Rnd::Rn,
            1 => Rnd::Rz,
            2 => Rnd::Rm,
            _ => Rnd::Rp,
        }
    }
    fn ap(self) -> Round {
        match self {
            Rnd::Rn => Round::NearestTiesToEven,
            Rnd::Rz => Round::TowardZero,
            Rnd::Rm => Round::TowardNegative,
            Rnd::Rp => Round::TowardPositive,
        }
    }
}

pub const NAN32: u32 = 0x7fff_ffff;
pub const NAN64: u64 = 0x7fff_ffff_ffff_ffff;
pub const NAN16: u16 = 0x7fff;

#[inline]
pub fn is_nan32(x: u32) -> bool {
    x & 0x7fff_ffff > 0x7f80_0000
}
#[inline]
pub fn is_nan64(x: u64) -> bool {
    x & 0x7fff_ffff_ffff_ffff > 0x7ff0_0000_0000_0000
}

/// A subnormal becomes a zero of the same sign.
#[inline]
pub fn ftz32(x: u32) -> u32 {
    if x & 0x7f80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

#[inline]
fn sat32(x: u32) -> u32 {
    if is_nan32(x) || x >> 31 == 1 {
        0
    } else if x > 0x3f80_0000 {
        0x3f80_0000
    } else {
        x
    }
}

/// Canonical NaN, then ftz, then saturation, on a binary32 result.
#[inline]
pub fn finish32(r: u32, ftz: bool, sat: bool) -> u32 {
    let mut r = if is_nan32(r) { NAN32 } else { r };
    if ftz {
        r = ftz32(r);
    }
    if sat {
        r = sat32(r);
    }
    r
}

#[inline]
fn inputs32<const N: usize>(mut v: [u32; N], ftz: bool) -> [u32; N] {
    if ftz {
        for x in &mut v {
            *x = ftz32(*x);
        }
    }
    v
}

#[inline]
fn s(x: u32) -> Single {
    Single::from_bits(x as u128)
}
#[inline]
fn d(x: u64) -> Double {
    Double::from_bits(x as u128)
}
#[inline]
fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

#[inline]
pub fn add32(a: u32, b: u32, rnd: Rnd, ftz: bool, sat: bool) -> u32 {
    let [a, b] = inputs32([a, b], ftz);
    let r = match rnd {
        Rnd::Rn => (f(a) + f(b)).to_bits(),
        _ => s(a).add_r(s(b), rnd.ap()).value.to_bits() as u32,
    };
    finish32(r, ftz, sat)
}

#[inline]
pub fn sub32(a: u32, b: u32, rnd: Rnd, ftz: bool, sat: bool) -> u32 {
    add32(a, b ^ 0x8000_0000, rnd, ftz, sat)
}

#[inline]
pub fn mul32(a: u32, b: u32, rnd: Rnd, ftz: bool, sat: bool) -> u32 {
    let [a, b] = inputs32([a, b], ftz);
    let r = match rnd {
        Rnd::Rn => (f(a) * f(b)).to_bits(),
        _ => s(a).mul_r(s(b), rnd.ap()).value.to_bits() as u32,
    };
    finish32(r, ftz, sat)
}

#[inline]
pub fn fma32(a: u32, b: u32, c: u32, rnd: Rnd, ftz: bool, sat: bool) -> u32 {
    let [a, b, c] = inputs32([a, b, c], ftz);
    let r = match rnd {
        Rnd::Rn => f(a).mul_add(f(b), f(c)).to_bits(),
        _ => s(a).mul_add_r(s(b), s(c), rnd.ap()).value.to_bits() as u32,
    };
    finish32(r, ftz, sat)
}

/// Orders binary32 values as min/max see them: -0 below +0.
#[inline]
fn key32(x: u32) -> i64 {
    if x >> 31 == 1 {
        -((x & 0x7fff_ffff) as i64) - 1
    } else {
        x as i64
    }
}

/// min (or max): a NaN operand yields the other operand; two NaNs give the canonical NaN.
#[inline]
pub fn minmax32(a: u32, b: u32, max: bool, ftz: bool) -> u32 {
    let [a, b] = inputs32([a, b], ftz);
    match (is_nan32(a), is_nan32(b)) {
        (true, true) => NAN32,
        (true, false) => b,
        (false, true) => a,
        _ => {
            if (key32(a) < key32(b)) != max {
                a
            } else {
                b
            }
        }
    }
}

/// Comparison codes of the `FCmp` modifier.
#[inline]
pub fn compare(ord: Option<std::cmp::Ordering>, cmp: u32) -> bool {
    use std::cmp::Ordering::*;
    let unordered = ord.is_none();
    let base = |o: Option<std::cmp::Ordering>, code: u32| match (o, code) {
        (Some(o), 0) => o == Equal,
        (Some(o), 1) => o != Equal,
        (Some(o), 2) => o == Less,
        (Some(o), 3) => o != Greater,
        (Some(o), 4) => o == Greater,
        (Some(o), 5) => o != Less,
        _ => false,
    };
    match cmp {
        0..=5 => base(ord, cmp),
        6..=11 => unordered || base(ord, cmp - 6),
        12 => !unordered,
        13 => unordered,
        _ => false,
    }
}

#[inline]
pub fn setp32(a: u32, b: u32, cmp: u32, ftz: bool) -> bool {
    let [a, b] = inputs32([a, b], ftz);
    compare(f(a).partial_cmp(&f(b)), cmp)
}

/// Round to an integral value in the given direction.
#[inline]
pub fn rnd32(a: u32, rnd: Rnd, ftz: bool) -> u32 {
    let [a] = inputs32([a], ftz);
    let x = f(a);
    let r = match rnd {
        Rnd::Rn => x.round_ties_even(),
        Rnd::Rz => x.trunc(),
        Rnd::Rm => x.floor(),
        Rnd::Rp => x.ceil(),
    };
    finish32(r.to_bits(), ftz, false)
}

#[inline]
fn round_f64(x: f64, rnd: Rnd) -> f64 {
    match rnd {
        Rnd::Rn => x.round_ties_even(),
        Rnd::Rz => x.trunc(),
        Rnd::Rm => x.floor(),
        Rnd::Rp => x.ceil(),
    }
}

/// Integer type of a conversion, in the encoding of the `IntTy` modifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntTy {
    U32 = 0,
    S32 = 1,
    U64 = 2,
    S64 = 3,
}

impl IntTy {
    pub fn from_bits(v: u32) -> IntTy {
        match v & 3 {
            0 => IntTy::U32,
            1 => IntTy::S32,
            2 => IntTy::U64,
            _ => IntTy::S64,
        }
    }
    pub fn is_64(self) -> bool {
        matches!(self, IntTy::U64 | IntTy::S64)
    }
    /// Interprets raw bits (low 32 for 32-bit types) as this type's value.
    pub fn value(self, bits: u64) -> i128 {
        match self {
            IntTy::U32 => bits as u32 as i128,
            IntTy::S32 => bits as u32 as i32 as i128,
            IntTy::U64 => bits as i128,
            IntTy::S64 => bits as i64 as i128,
        }
    }
}

/// Float (as f64, exact for binary32 inputs) to integer: rounds, saturates, NaN gives 0.
#[inline]
fn f64_to_int(x: f64, rnd: Rnd, ty: IntTy) -> u64 {
    if x.is_nan() {
        return 0;
    }
    let r = round_f64(x, rnd);
    match ty {
        IntTy::U32 => r as u32 as u64,
        IntTy::S32 => r as i32 as u32 as u64,
        IntTy::U64 => r as u64,
        IntTy::S64 => r as i64 as u64,
    }
}

#[inline]
pub fn f2i(a: u32, rnd: Rnd, ftz: bool, ty: IntTy) -> u64 {
    let [a] = inputs32([a], ftz);
    f64_to_int(f(a) as f64, rnd, ty)
}

#[inline]
pub fn i2f(bits: u64, rnd: Rnd, ty: IntTy) -> u32 {
    let v = ty.value(bits);
    Single::from_i128_r(v, rnd.ap()).value.to_bits() as u32
}

#[inline]
pub fn f2h(a: u32, rnd: Rnd, ftz: bool) -> u32 {
    let [a] = inputs32([a], ftz);
    if is_nan32(a) {
        return NAN16 as u32;
    }
    let mut loses = false;
    let h: Half = s(a).convert_r(rnd.ap(), &mut loses).value;
    h.to_bits() as u32 & 0xffff
}

#[inline]
pub fn h2f(a: u32) -> u32 {
    let h = Half::from_bits((a & 0xffff) as u128);
    if h.is_nan() {
        return NAN32;
    }
    let mut loses = false;
    let r: Single = h.convert(&mut loses).value;
    r.to_bits() as u32
}

// binary64.

#[inline]
fn finish64(r: u64) -> u64 {
    if is_nan64(r) {
        NAN64
    } else {
        r
    }
}

#[inline]
fn g(x: u64) -> f64 {
    f64::from_bits(x)
}

#[inline]
pub fn add64(a: u64, b: u64, rnd: Rnd) -> u64 {
    finish64(match rnd {
        Rnd::Rn => (g(a) + g(b)).to_bits(),
        _ => d(a).add_r(d(b), rnd.ap()).value.to_bits() as u64,
    })
}

#[inline]
pub fn sub64(a: u64, b: u64, rnd: Rnd) -> u64 {
    add64(a, b ^ (1 << 63), rnd)
}

#[inline]
pub fn mul64(a: u64, b: u64, rnd: Rnd) -> u64 {
    finish64(match rnd {
        Rnd::Rn => (g(a) * g(b)).to_bits(),
        _ => d(a).mul_r(d(b), rnd.ap()).value.to_bits() as u64,
    })
}

#[inline]
pub fn fma64(a: u64, b: u64, c: u64, rnd: Rnd) -> u64 {
    finish64(match rnd {
        Rnd::Rn => g(a).mul_add(g(b), g(c)).to_bits(),
        _ => d(a).mul_add_r(d(b), d(c), rnd.ap()).value.to_bits() as u64,
    })
}

#[inline]
fn key64(x: u64) -> i128 {
    if x >> 63 == 1 {
        -((x & !(1 << 63)) as i128) - 1
    } else {
        x as i128
    }
}

#[inline]
pub fn minmax64(a: u64, b: u64, max: bool) -> u64 {
    match (is_nan64(a), is_nan64(b)) {
        (true, true) => NAN64,
        (true, false) => b,
        (false, true) => a,
        _ => {
            if (key64(a) < key64(b)) != max {
                a
            } else {
                b
            }
        }
    }
}

#[inline]
pub fn setp64(a: u64, b: u64, cmp: u32) -> bool {
    compare(g(a).partial_cmp(&g(b)), cmp)
}

#[inline]
pub fn rnd64(a: u64, rnd: Rnd) -> u64 {
    finish64(round_f64(g(a), rnd).to_bits())
}

#[inline]
pub fn f2d(a: u32, ftz: bool) -> u64 {
    let [a] = inputs32([a], ftz);
    finish64((f(a) as f64).to_bits())
}

#[inline]
pub fn d2f(a: u64, rnd: Rnd, ftz: bool, sat: bool) -> u32 {
    let mut loses = false;
    let r: Single = d(a).convert_r(rnd.ap(), &mut loses).value;
    finish32(r.to_bits() as u32, ftz, sat)
}

#[inline]
pub fn d2i(a: u64, rnd: Rnd, ty: IntTy) -> u64 {
    f64_to_int(g(a), rnd, ty)
}

#[inline]
pub fn i2d(bits: u64, rnd: Rnd, ty: IntTy) -> u64 {
    Double::from_i128_r(ty.value(bits), rnd.ap()).value.to_bits() as u64
}

/// IEEE division with a rounding mode (binary32), canonical NaN, ftz.
pub fn div32(a: u32, b: u32, r: Rnd, ftz: bool) -> u32 {
    let (a, b) = if ftz { (ftz32(a), ftz32(b)) } else { (a, b) };
    let v = match r {
        Rnd::Rn => (f32::from_bits(a) / f32::from_bits(b)).to_bits(),
        _ => Single::from_bits(a as u128).div_r(Single::from_bits(b as u128), r.ap()).value.to_bits() as u32,
    };
    finish32(v, ftz, false)
}

pub fn div64(a: u64, b: u64, r: Rnd) -> u64 {
    let v = match r {
        Rnd::Rn => (f64::from_bits(a) / f64::from_bits(b)).to_bits(),
        _ => Double::from_bits(a as u128).div_r(Double::from_bits(b as u128), r.ap()).value.to_bits() as u64,
    };
    if is_nan64(v) {
        NAN64
    } else {
        v
    }
}

/// Correctly rounded square root in any rounding mode (binary32).
pub fn sqrt32(a: u32, r: Rnd, ftz: bool) -> u32 {
    let a = if ftz { ftz32(a) } else { a };
    let x = f32::from_bits(a);
    let c = x.sqrt();
    if !c.is_finite() || c == 0.0 || r == Rnd::Rn {
        return finish32(c.to_bits(), ftz, false);
    }
    // c is within half an ulp; c*c is exact in f64, so compare it with x.
    let sq = c as f64 * c as f64;
    let v = if sq == x as f64 {
        c
    } else if sq > x as f64 {
        if r == Rnd::Rp {
            c
        } else {
            f32::from_bits(c.to_bits() - 1)
        }
    } else if r == Rnd::Rp {
        f32::from_bits(c.to_bits() + 1)
    } else {
        c
    };
    finish32(v.to_bits(), ftz, false)
}

pub fn sqrt64(a: u64, r: Rnd) -> u64 {
    let x = f64::from_bits(a);
    // Tiny inputs: scale by an even power of two so that the residual c*c - x below
    // cannot underflow (sqrt of the scaled value is exact times 2^300).
    if x > 0.0 && x < f64::from_bits(0x2000_0000_0000_0000) {
        let scaled = sqrt64((x * 2f64.powi(600)).to_bits(), r);
        return (f64::from_bits(scaled) * 2f64.powi(-300)).to_bits();
    }
    let c = x.sqrt();
    if !c.is_finite() || c == 0.0 || r == Rnd::Rn {
        return if c.is_nan() { NAN64 } else { c.to_bits() };
    }
    // The sign of c*c - x, exactly, from one fused multiply-add.
    let e = c.mul_add(c, -x);
    let v = if e == 0.0 {
        c
    } else if e > 0.0 {
        if r == Rnd::Rp {
            c
        } else {
            f64::from_bits(c.to_bits() - 1)
        }
    } else if r == Rnd::Rp {
        f64::from_bits(c.to_bits() + 1)
    } else {
        c
    };
    v.to_bits()
}

/// The value (-1)^s mag 2^e rounded once to binary16, binary32 or
/// binary64 (`format` 0, 1, 2) in mode `rnd`: IEEE overflow and subnormal
/// results, no flushing (the bits in the low 16, 32 or 64). It is what the
/// FP units' rounding step computes for a request (the division and square
/// root's quotient or root and its remainder as sticky); binary128 holds
/// the value exactly first, since a 64-bit magnitude and any exponent
/// within 16 bits fit it.
pub fn round_scaled(s: bool, mag: u64, e: i16, rnd: Rnd, format: u32) -> u64 {
    let exact = Quad::from_u128(mag as u128).value.scalbn(e as i32);
    let x = if s { -exact } else { exact };
    let mut loses = false;
    match format {
        0 => FloatConvert::<Half>::convert_r(x, rnd.ap(), &mut loses).value.to_bits() as u64,
        1 => FloatConvert::<Single>::convert_r(x, rnd.ap(), &mut loses).value.to_bits() as u64,
        _ => FloatConvert::<Double>::convert_r(x, rnd.ap(), &mut loses).value.to_bits() as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: u32 = 0x3f80_0000;
    const MIN_SUB: u32 = 1;

    #[test]
    fn round_scaled_rounds_once_with_subnormals_and_overflow() {
        // 3 * 2^-1 = 1.5 exactly; 2^24 + 1 is a tie in binary32 (to even, or up toward +inf).
        assert_eq!(round_scaled(false, 3, -1, Rnd::Rn, 1), 1.5f32.to_bits() as u64);
        assert_eq!(round_scaled(false, (1 << 24) + 1, 0, Rnd::Rn, 1), 16777216f32.to_bits() as u64);
        assert_eq!(round_scaled(false, (1 << 24) + 1, 0, Rnd::Rp, 1), 16777218f32.to_bits() as u64);
        assert_eq!(round_scaled(true, (1 << 24) + 1, 0, Rnd::Rm, 1), (-16777218f32).to_bits() as u64);
        // Below the smallest subnormal: once to it (toward +inf), not twice.
        assert_eq!(round_scaled(false, 3, -151, Rnd::Rp, 1), MIN_SUB as u64);
        assert_eq!(round_scaled(false, 3, -151, Rnd::Rn, 1), MIN_SUB as u64);
        assert_eq!(round_scaled(false, 1, -151, Rnd::Rn, 1), 0);
        // Overflow: infinity, or the largest finite value toward zero.
        assert_eq!(round_scaled(false, 1, 1024, Rnd::Rn, 2), f64::INFINITY.to_bits());
        assert_eq!(round_scaled(false, 1, 1024, Rnd::Rz, 2), f64::MAX.to_bits());
        assert_eq!(round_scaled(true, 0, 0, Rnd::Rn, 2), (-0.0f64).to_bits());
        // binary16: 15,361 * 2^-13 to 11 bits is 1.875.
        assert_eq!(round_scaled(false, 0x3c01, -13, Rnd::Rn, 0), 0x3f80);
    }

    #[test]
    fn rounding_modes_differ_on_inexact_sums() {
        // ADD-F32 rounding: 1 + 2^-24 is a tie (RN: even = 1), RZ/RM keep 1, RP rounds up.
        let tiny = 0x3380_0000; // 2^-24
        assert_eq!(add32(ONE, tiny, Rnd::Rn, false, false), ONE);
        assert_eq!(add32(ONE, tiny, Rnd::Rz, false, false), ONE);
        assert_eq!(add32(ONE, tiny, Rnd::Rm, false, false), ONE);
        assert_eq!(add32(ONE, tiny, Rnd::Rp, false, false), ONE + 1);
        // Negative: RM moves away from zero.
        assert_eq!(add32(ONE | 1 << 31, tiny | 1 << 31, Rnd::Rm, false, false), (ONE + 1) | 1 << 31);
    }

    #[test]
    fn ftz_and_sat() {
        assert_eq!(add32(MIN_SUB, 0, Rnd::Rn, false, false), MIN_SUB);
        assert_eq!(add32(MIN_SUB, 0, Rnd::Rn, true, false), 0);
        assert_eq!(mul32(MIN_SUB | 1 << 31, ONE, Rnd::Rn, true, false), 1 << 31);
        assert_eq!(add32(0x4000_0000, 0, Rnd::Rn, false, true), ONE); // 2.0 -> 1.0
        assert_eq!(add32(0xbf80_0000, 0, Rnd::Rn, false, true), 0); // -1 -> +0
        assert_eq!(add32(0x7f80_0000, 0xff80_0000, Rnd::Rn, false, true), 0); // NaN -> +0
        assert_eq!(add32(0x7f80_0000, 0xff80_0000, Rnd::Rn, false, false), NAN32);
    }

    #[test]
    fn fma_is_fused() {
        // (1 + 2^-23)^2 - 1 needs the unrounded product.
        let a = ONE + 1;
        let r = fma32(a, a, 0xbf80_0000, Rnd::Rn, false, false);
        assert_eq!(f32::from_bits(r), 2f32.powi(-22) + 2f32.powi(-46));
    }

    #[test]
    fn min_max_nan_and_zero() {
        assert_eq!(minmax32(NAN32 - 5, ONE, false, false), ONE);
        assert_eq!(minmax32(0, 1 << 31, false, false), 1 << 31);
        assert_eq!(minmax32(0, 1 << 31, true, false), 0);
        assert_eq!(minmax32(0x7fc0_0000, 0xffc0_0000, true, false), NAN32);
    }

    #[test]
    fn compares() {
        let nan = 0x7fc0_0000;
        assert!(!setp32(nan, ONE, 0, false)); // eq
        assert!(setp32(nan, ONE, 6, false)); // equ
        assert!(setp32(nan, ONE, 13, false)); // nan
        assert!(setp32(ONE, 0, 4, false)); // gt
        assert!(setp32(MIN_SUB, 0, 0, true)); // subnormal == 0 under ftz
        assert!(!setp32(MIN_SUB, 0, 0, false));
    }

    #[test]
    fn conversions_saturate() {
        // CVT: NaN -> 0, out of range saturates, rounding modes.
        assert_eq!(f2i(NAN32, Rnd::Rz, false, IntTy::S32), 0);
        assert_eq!(f2i(0x7f80_0000, Rnd::Rz, false, IntTy::S32), i32::MAX as u32 as u64);
        assert_eq!(f2i(0xbf80_0000, Rnd::Rz, false, IntTy::U32), 0);
        assert_eq!(f2i(0x3fc0_0000, Rnd::Rn, false, IntTy::S32), 2); // 1.5 -> 2
        assert_eq!(f2i(0x4020_0000, Rnd::Rn, false, IntTy::S32), 2); // 2.5 -> 2
        assert_eq!(f2i(0xbfc0_0000, Rnd::Rm, false, IntTy::S64), (-2i64) as u64);
        assert_eq!(i2f(16_777_217, Rnd::Rn, IntTy::U32), 0x4b80_0000);
        assert_eq!(i2f(16_777_217, Rnd::Rp, IntTy::U32), 0x4b80_0001);
        assert_eq!(i2f(u64::MAX, Rnd::Rz, IntTy::S64), 0xbf80_0000); // -1
        assert_eq!(f2h(0x3f80_0000, Rnd::Rn, false), 0x3c00);
        assert_eq!(f2h(0x4780_0000, Rnd::Rn, false), 0x7c00); // 65536 -> inf
        assert_eq!(f2h(0x4780_0000, Rnd::Rz, false), 0x7bff); // RZ -> max finite
        assert_eq!(h2f(0x3c00), ONE);
        assert_eq!(h2f(0x0001), 0x3380_0000); // smallest f16 subnormal = 2^-24
        assert_eq!(d2f(0x3ff0_0000_1000_0000, Rnd::Rp, false, false), ONE + 1);
        assert_eq!(d2f(0x3ff0_0000_1000_0000, Rnd::Rn, false, false), ONE);
    }

    #[test]
    fn round_to_integral() {
        assert_eq!(rnd32(0x3fc0_0000, Rnd::Rn, false), 0x4000_0000);
        assert_eq!(rnd32(0xbfc0_0000, Rnd::Rz, false), 0xbf80_0000);
        assert_eq!(rnd32(0xbfc0_0000, Rnd::Rm, false), 0xc000_0000);
        assert_eq!(rnd32(0x3f00_0000, Rnd::Rp, false), ONE);
    }
}
