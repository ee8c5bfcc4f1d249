//! Integer semantics with PTX's rules: shift clamping, bit-field extract and
//! insert, byte permute, bit find, funnel shifts, saturating and carrying
//! arithmetic, integer compares.

use crate::values::ICmp;
use num_traits::{PrimInt, Unsigned};

/// Bits of an integer type.
fn bits<T: PrimInt>() -> u32 {
    T::zero().count_zeros()
}

/// `shl` on 32 or 64 bits (`u32`, `u64`): amounts past the width give 0.
#[inline]
pub fn shl<T: PrimInt + Unsigned>(a: T, n: u32) -> T {
    if n >= bits::<T>() {
        T::zero()
    } else {
        a << n as usize
    }
}

/// `shr` on 32 or 64 bits: logical or arithmetic; amounts past the width
/// give 0 or the sign fill.
#[inline]
pub fn shr<T: PrimInt + Unsigned>(a: T, n: u32, signed: bool) -> T {
    if signed {
        a.signed_shr(n.min(bits::<T>() - 1))
    } else if n >= bits::<T>() {
        T::zero()
    } else {
        a.unsigned_shr(n)
    }
}

/// `shf`: funnel shift of hi:lo; left gives the high word, right the low word.
#[inline]
pub fn shf(lo: u32, n: u32, hi: u32, right: bool, clamp: bool) -> u32 {
    let n = if clamp { n.min(32) } else { n & 31 };
    let v = (hi as u64) << 32 | lo as u64;
    if right {
        (v >> n) as u32
    } else {
        ((v << n) >> 32) as u32
    }
}

/// `bfe`: extract `len` bits at `pos` (both 8-bit fields of `posl`), PTX rules.
#[inline]
pub fn bfe(a: u32, posl: u32, signed: bool) -> u32 {
    let pos = posl & 0xff;
    let len = (posl >> 8) & 0xff;
    let sbit = if !signed || len == 0 { 0 } else { (a >> (pos + len - 1).min(31)) & 1 };
    let mut d = 0u32;
    for i in 0..32 {
        let bit = if i < len && pos + i <= 31 { (a >> (pos + i)) & 1 } else { sbit };
        d |= bit << i;
    }
    d
}

/// `bfi`: `base` with `len` bits at `pos` replaced by the low bits of `ins`.
#[inline]
pub fn bfi(ins: u32, posl: u32, base: u32) -> u32 {
    let pos = posl & 0xff;
    let len = (posl >> 8) & 0xff;
    let mut d = base;
    let mut i = 0;
    while i < len && pos + i <= 31 {
        d = (d & !(1 << (pos + i))) | (((ins >> i) & 1) << (pos + i));
        i += 1;
    }
    d
}

/// `prmt`: select bytes of hi:lo (lo = bytes 0-3) by `sel`, with the PTX modes
/// (0 generic, 1 f4e, 2 b4e, 3 rc8, 4 ecl, 5 ecr, 6 rc16).
#[inline]
pub fn prmt(lo: u32, sel: u32, hi: u32, mode: u32) -> u32 {
    let src = (hi as u64) << 32 | lo as u64;
    let byte = |i: u32| ((src >> (8 * (i & 7))) & 0xff) as u32;
    let mut d = 0;
    if mode == 0 {
        for k in 0..4 {
            let nib = (sel >> (4 * k)) & 0xf;
            let mut b = byte(nib & 7);
            if nib & 8 != 0 {
                b = if b & 0x80 != 0 { 0xff } else { 0 };
            }
            d |= b << (8 * k);
        }
        return d;
    }
    let c = sel & 3;
    // Source byte for d.b0..d.b3.
    let idx: [u32; 4] = match mode {
        1 => [c, c + 1, c + 2, c + 3],
        2 => [c, c + 7, c + 6, c + 5],
        3 => [c; 4],
        4 => [c, c.max(1), c.max(2), 3],
        5 => [0, c.min(1), c.min(2), c.min(3)],
        _ => {
            let h = if c & 1 == 0 { [0, 1] } else { [2, 3] };
            [h[0], h[1], h[0], h[1]]
        }
    };
    for (k, &i) in idx.iter().enumerate() {
        d |= byte(i) << (8 * k);
    }
    d
}

/// `bfind`: position of the most significant non-sign bit, or 0xffffffff.
#[inline]
pub fn bfind(a: u32, signed: bool, shiftamt: bool) -> u32 {
    let v = if signed && (a as i32) < 0 { !a } else { a };
    if v == 0 {
        return u32::MAX;
    }
    let pos = 31 - v.leading_zeros();
    if shiftamt {
        31 - pos
    } else {
        pos
    }
}

#[inline]
pub fn sat_s32(v: i64) -> u32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32
}

/// `add` with optional carry-in; returns (sum, carry-out).
#[inline]
pub fn add(a: u32, b: u32, cin: bool, sat: bool) -> (u32, bool) {
    let wide = a as u64 + b as u64 + cin as u64;
    let sum = if sat { sat_s32(a as i32 as i64 + b as i32 as i64 + cin as i64) } else { wide as u32 };
    (sum, wide >> 32 != 0)
}

/// `sub` with optional borrow-in; returns (difference, borrow-out).
#[inline]
pub fn sub(a: u32, b: u32, bin: bool, sat: bool) -> (u32, bool) {
    let sub = b as u64 + bin as u64;
    let diff = if sat { sat_s32(a as i32 as i64 - b as i32 as i64 - bin as i64) } else { (a as u64).wrapping_sub(sub) as u32 };
    (diff, (a as u64) < sub)
}

/// Low or high 32 bits of the 64-bit product.
#[inline]
pub fn mul(a: u32, b: u32, hi: bool, signed: bool) -> u32 {
    let p = if signed { (a as i32 as i64 * b as i32 as i64) as u64 } else { a as u64 * b as u64 };
    if hi {
        (p >> 32) as u32
    } else {
        p as u32
    }
}

/// `mad`: (low or high product) + c (+ carry); returns (result, carry-out).
#[inline]
pub fn mad(a: u32, b: u32, c: u32, hi: bool, signed: bool, cin: bool, sat: bool) -> (u32, bool) {
    let t = mul(a, b, hi, signed);
    if sat {
        let tv = if signed { t as i32 as i64 } else { t as i64 };
        return (sat_s32(tv + c as i32 as i64 + cin as i64), false);
    }
    add(t, c, cin, false)
}

#[inline]
pub fn min_max(a: u32, b: u32, max: bool, signed: bool) -> u32 {
    let lt = if signed { (a as i32) < (b as i32) } else { a < b };
    if lt != max {
        a
    } else {
        b
    }
}

/// `div`/`rem` on 32 or 64 bits (`bits`), PTX's total rules: x / 0 is all ones
/// (unsigned) or -1 (signed), x rem 0 is x, MIN / -1 wraps to MIN.
#[inline]
pub fn div_rem(a: u64, b: u64, bits: u32, signed: bool, rem: bool) -> u64 {
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let sx = |v: u64| ((v << (64 - bits)) as i64) >> (64 - bits);
    let r = if signed {
        // In 64-bit arithmetic a 32-bit MIN / -1 is 2^31, which the mask wraps back to MIN.
        let (x, y) = (sx(a), sx(b));
        match (y, rem) {
            (0, false) => u64::MAX,
            (0, true) => x as u64,
            (_, false) => x.wrapping_div(y) as u64,
            (_, true) => x.wrapping_rem(y) as u64,
        }
    } else {
        let (x, y) = (a & mask, b & mask);
        match (y, rem) {
            (0, false) => u64::MAX,
            (0, true) => x,
            (_, false) => x / y,
            (_, true) => x % y,
        }
    };
    r & mask
}

/// Integer compare on 32 or 64 bits (`u32`, `u64`): eq ne lt le gt ge
/// (signed) lo ls hi hs (unsigned).
#[inline]
pub fn compare<T: PrimInt + Unsigned>(a: T, b: T, cmp: ICmp) -> bool {
    // Flipping the sign bit orders two's-complement values as unsigned ones.
    let sign = T::one() << (bits::<T>() as usize - 1);
    let (sa, sb) = (a ^ sign, b ^ sign);
    match cmp {
        ICmp::Eq => a == b,
        ICmp::Ne => a != b,
        ICmp::Lt => sa < sb,
        ICmp::Le => sa <= sb,
        ICmp::Gt => sa > sb,
        ICmp::Ge => sa >= sb,
        ICmp::Lo => a < b,
        ICmp::Ls => a <= b,
        ICmp::Hi => a > b,
        ICmp::Hs => a >= b,
    }
}

/// Low or high 64 bits of the 128-bit product.
#[inline]
pub fn mul64(a: u64, b: u64, hi: bool, signed: bool) -> u64 {
    let p = if signed { (a as i64 as i128).wrapping_mul(b as i64 as i128) as u128 } else { a as u128 * b as u128 };
    if hi {
        (p >> 64) as u64
    } else {
        p as u64
    }
}

/// Boolean combine by the `BoolOp` code: and, or, xor.
#[inline]
pub fn bool_op(x: bool, y: bool, op: u32) -> bool {
    match op {
        0 => x & y,
        1 => x | y,
        _ => x ^ y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_clamp() {
        // SHL/SHR: shift amounts larger than the width clamp.
        assert_eq!(shl(1u32, 31), 1 << 31);
        assert_eq!(shl(1u32, 32), 0);
        assert_eq!(shl(1u32, u32::MAX), 0);
        assert_eq!(shr(0x8000_0000u32, 40, true), u32::MAX);
        assert_eq!(shr(0x8000_0000u32, 40, false), 0);
        assert_eq!(shr(0x8000_0000u32, 4, true), 0xf800_0000);
    }

    #[test]
    fn funnel() {
        assert_eq!(shf(0x8000_0000, 1, 0x1, false, false), 0x3);
        assert_eq!(shf(0x0000_0001, 1, 0x1, true, false), 0x8000_0000);
        assert_eq!(shf(0x1234_5678, 33, 0x9abc_def0, false, false), shf(0x1234_5678, 1, 0x9abc_def0, false, false));
        assert_eq!(shf(0x1234_5678, 40, 0x9abc_def0, false, true), 0x1234_5678);
        assert_eq!(shf(0x1234_5678, 40, 0x9abc_def0, true, true), 0x9abc_def0);
    }

    #[test]
    fn bit_fields() {
        assert_eq!(bfe(0xf0, 4 | 4 << 8, false), 0xf);
        assert_eq!(bfe(0xf0, 4 | 4 << 8, true), 0xffff_ffff);
        assert_eq!(bfe(0x8000_0000, 28 | 8 << 8, true), 0xffff_fff8); // field runs past bit 31: sign from bit 31
        assert_eq!(bfe(0x1234, 0, true), 0); // len 0
        assert_eq!(bfi(0xff, 8 | 4 << 8, 0), 0xf00);
        assert_eq!(bfi(0xff, 30 | 8 << 8, 0), 0xc000_0000);
    }

    #[test]
    fn permute() {
        let (a, b) = (0x3322_1100, 0x7766_5544);
        assert_eq!(prmt(a, 0x3210, b, 0), a);
        assert_eq!(prmt(a, 0x7654, b, 0), b);
        assert_eq!(prmt(0x0000_0080, 0x4448, 0, 0), 0x0000_00ff); // sign replicate
        assert_eq!(prmt(a, 1, b, 1), 0x4433_2211); // f4e
        assert_eq!(prmt(a, 1, b, 2), 0x6677_0011); // b4e: 6 7 0 1
        assert_eq!(prmt(a, 2, b, 3), 0x2222_2222); // rc8
        assert_eq!(prmt(a, 1, b, 4), 0x3322_1111); // ecl: 3 2 1 1
        assert_eq!(prmt(a, 2, b, 5), 0x2222_1100); // ecr: 2 2 1 0
        assert_eq!(prmt(a, 1, b, 6), 0x3322_3322); // rc16: 3 2 3 2
    }

    #[test]
    fn division_is_total() {
        // INT-DIV, INT-REM: by zero gives all ones / the dividend; MIN / -1 wraps.
        assert_eq!(div_rem(7, 0, 32, false, false), 0xffff_ffff);
        assert_eq!(div_rem(7, 0, 32, true, false), 0xffff_ffff);
        assert_eq!(div_rem(7, 0, 32, false, true), 7);
        assert_eq!(div_rem(0x8000_0000, 0xffff_ffff, 32, true, false), 0x8000_0000);
        assert_eq!(div_rem((-7i32) as u32 as u64, 2, 32, true, false), (-3i32) as u32 as u64);
        assert_eq!(div_rem((-7i32) as u32 as u64, 2, 32, true, true), (-1i32) as u32 as u64);
        assert_eq!(div_rem(u64::MAX, 3, 64, false, false), u64::MAX / 3);
        assert_eq!(div_rem(i64::MIN as u64, u64::MAX, 64, true, false), i64::MIN as u64);
    }

    #[test]
    fn find_and_arith() {
        assert_eq!(bfind(0, false, false), u32::MAX);
        assert_eq!(bfind(1, false, false), 0);
        assert_eq!(bfind(0xffff_ffff, true, false), u32::MAX);
        assert_eq!(bfind(0xffff_fffe, true, false), 0);
        assert_eq!(bfind(0x10, false, true), 27);
        assert_eq!(add(u32::MAX, 1, false, false), (0, true));
        assert_eq!(add(i32::MAX as u32, 1, false, true).0, i32::MAX as u32);
        assert_eq!(sub(0, 1, false, false), (u32::MAX, true));
        assert_eq!(sub(5, 4, true, false), (0, false));
        assert_eq!(mul(0xffff_ffff, 0xffff_ffff, true, true), 0);
        assert_eq!(mul(0xffff_ffff, 0xffff_ffff, true, false), 0xffff_fffe);
        assert_eq!(mad(0x8000_0000, 2, 0, true, true, false, true).0, u32::MAX); // -1 hi
        assert!(compare(1, u32::MAX, ICmp::Gt)); // 1 > -1 signed
        assert!(compare(1, u32::MAX, ICmp::Lo)); // 1 <u 0xffffffff
        assert!(compare(1u64, u64::MAX, ICmp::Gt));
        assert!(!compare(i64::MIN as u64, 0, ICmp::Ge));
        assert!(compare(i32::MIN as u32, i32::MAX as u32, ICmp::Lt));
        assert_eq!(shr(0x8000_0000_0000_0000u64, 70, true), u64::MAX);
        assert_eq!(shr(0x8000_0000u32, 31, false), 1);
        assert_eq!(shl(1u64, 64), 0);
        assert_eq!(shl(1u32, 31), 0x8000_0000);
    }
}

/// The new memory value of an atomic (`AtomOp` code) on `old` with operands
/// `b` and `c` (`cas`), 32 or 64 bits wide (`wide`); `f32` adds are `.rn.ftz`.
pub fn atomic(op: u32, wide: bool, old: u64, b: u64, c: u64) -> u64 {
    let (so, sb) = if wide { (old as i64, b as i64) } else { (old as u32 as i32 as i64, b as u32 as i32 as i64) };
    let mask = if wide { u64::MAX } else { u32::MAX as u64 };
    let r = match op {
        0 => old.wrapping_add(b),
        1 => {
            if wide {
                super::fp::add64(old, b, super::fp::Rnd::Rn)
            } else {
                super::fp::add32(old as u32, b as u32, super::fp::Rnd::Rn, true, false) as u64
            }
        }
        2 => old.min(b),
        3 => so.min(sb) as u64,
        4 => old.max(b),
        5 => so.max(sb) as u64,
        6 => {
            if old >= b {
                0
            } else {
                old + 1
            }
        }
        7 => {
            if old == 0 || old > b {
                b
            } else {
                old - 1
            }
        }
        8 => old & b,
        9 => old | b,
        10 => old ^ b,
        11 => b,
        _ => {
            if old == b {
                c
            } else {
                old
            }
        }
    };
    r & mask
}
