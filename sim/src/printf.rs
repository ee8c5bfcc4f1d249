//! Host-side formatting for CUDA device `printf` (`vprintf(const char *fmt, void *args)`).
//!
//! Device code lowers `printf(fmt, ...)` to a call of `vprintf` with a pointer to a packed
//! argument buffer.  The simulator intercepts that call, reads the format string and the
//! buffer out of device memory, and calls [`format`] to produce exactly the bytes CUDA would
//! print.  CUDA formats device printf output on the host with the host C library (CUDA
//! Programming Guide, "Formatted Output"), so on Linux the reference is glibc's `printf`; every
//! expected string in the tests below was produced by glibc.
//!
//! # Argument buffer layout
//! Arguments are packed in order, little-endian, each aligned to its own size:
//! * 4 bytes (4-aligned): `int`, `unsigned`, promoted `char`/`short`, i.e. `%d %i %u %x %X %o %c`
//!   without a length modifier or with `hh`/`h` (the value is then truncated to char/short as C
//!   does), plus every `*` width/precision (an `int`).
//! * 8 bytes (8-aligned): integers with `l ll z j t L q`, pointers (`%p`, `%s`), and every
//!   floating conversion (`float` is promoted to `double`; `L` is also read as a `double`, as
//!   device code has no wider `long double`).
//!
//! # Supported
//! `%d %i %u %x %X %o %c %s %f %F %e %E %g %G %a %A %p %%`, flags `- + space # 0`, width and
//! precision (digits or `*`; a negative `*` width means `-`, a negative `*` precision is
//! ignored), length modifiers `hh h l ll z j t L q`.  Floating output is correctly rounded
//! (round-half-even on exact ties, like glibc); `%e`/`%g` are built on Rust's correctly rounded
//! `{:.*e}` / `{:.*}` formatting.
//!
//! # glibc behaviours kept on purpose
//! * `%p` of NULL prints `(nil)` (space padded); other pointers print like `%#lx` (so `+`,
//!   space, `0` and precision apply, e.g. `%+p` gives `+0x10`).
//! * `%s` of NULL prints `(null)`, or nothing when a precision below 6 is given.
//! * A NaN with its sign bit set prints `-nan`; `0` padding never applies to inf/nan, `%c`, `%s`.
//! * `%a` rounds half-even and may print a leading `2` on carry (`%.0a` of 1.5 is `0x2p+0`);
//!   subnormals print as `0x0.<hex>p-1022`.
//!
//! # Deliberate deviations and limits
//! * `%n` is not supported: it is printed literally and consumes no argument (no device
//!   memory is written).  `%lc`/`%ls` are treated as `%c`/`%s` (bytes, no wide conversion).
//! * An unknown conversion (e.g. `%y`, `%5k`) is printed literally and consumes no argument;
//!   so is an incomplete specification at the end of the string (`"abc%"`, `"%5"`), which
//!   glibc silently drops.
//! * Width and precision are capped at [`MAX_WIDTH`] / [`MAX_PRECISION`] (4096) so a hostile
//!   format such as `%999999999d` cannot allocate unbounded memory.
//! * A too-short argument buffer yields [`PrintfError::ArgsTooShort`]; an unreadable `%s`
//!   address yields [`PrintfError::BadString`].  [`format`] never panics.

use std::fmt;

/// Largest field width honoured; larger widths (digits or `*`) are clamped to this.
pub const MAX_WIDTH: usize = 4096;
/// Largest precision honoured; larger precisions (digits or `*`) are clamped to this.
pub const MAX_PRECISION: usize = 4096;

/// Reads a NUL-terminated string from device memory at a (generic, 64-bit) address.
/// Returns the bytes without the terminating NUL, or `Err(message)` if the address is bad.
pub trait StringReader {
    fn read_cstr(&self, addr: u64) -> Result<Vec<u8>, String>;
}

/// Why a `vprintf` call could not be formatted.  `conversion_index` is the 0-based index of
/// the conversion specification in the format string (every `%` directive except `%%`
/// counts); `spec` is its text, e.g. `%lld`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrintfError {
    /// The argument buffer ends before the bytes this conversion needs.
    ArgsTooShort { conversion_index: usize, spec: String, needed_bytes: usize, available_bytes: usize },
    /// The `%s` argument points at memory the string reader rejected.
    BadString { conversion_index: usize, spec: String, addr: u64, message: String },
}

impl fmt::Display for PrintfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrintfError::ArgsTooShort { conversion_index: i, spec, needed_bytes: n, available_bytes: a } => {
                write!(f, "printf argument buffer too short: conversion #{i} (`{spec}`) needs ")?;
                write!(f, "{n} bytes but only {a} were provided")
            }
            PrintfError::BadString { conversion_index: i, spec, addr, message } => {
                write!(f, "printf conversion #{i} (`{spec}`): cannot read string at {addr:#x}: ")?;
                write!(f, "{message}")
            }
        }
    }
}

impl std::error::Error for PrintfError {}

/// Integer argument size selected by the length modifier.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
enum IntLen {
    Char,
    Short,
    #[default]
    Int,
    Long,
}

/// A width or precision: literal digits or `*` (read from the argument buffer).
#[derive(Clone, Copy)]
enum Count {
    Fixed(usize),
    Star,
}

/// One parsed conversion specification.
#[derive(Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: Option<Count>,
    prec: Option<Count>,
    len: IntLen,
    conv: u8,
}

/// Resolved field layout after `*` arguments have been read.
struct Field {
    width: usize,
    left: bool,
    prec: Option<usize>,
}

/// Parses the specification that starts right after a `%` at `fmt[i]`.  Returns the spec and
/// the index just past its conversion character, or `None` if the string ends first.
fn parse_spec(fmt: &[u8], mut i: usize) -> Option<(Spec, usize)> {
    let mut s = Spec::default();
    while let Some(&c) = fmt.get(i) {
        match c {
            b'-' => s.left = true,
            b'+' => s.plus = true,
            b' ' => s.space = true,
            b'#' => s.alt = true,
            b'0' => s.zero = true,
            _ => break,
        }
        i += 1;
    }
    let count = |i: &mut usize| -> Option<Count> {
        if fmt.get(*i) == Some(&b'*') {
            *i += 1;
            return Some(Count::Star);
        }
        let start = *i;
        let mut n = 0usize;
        while let Some(d) = fmt.get(*i).filter(|c| c.is_ascii_digit()) {
            n = n.saturating_mul(10).saturating_add(usize::from(d - b'0'));
            *i += 1;
        }
        (*i > start).then_some(Count::Fixed(n))
    };
    s.width = count(&mut i);
    if fmt.get(i) == Some(&b'.') {
        i += 1;
        s.prec = Some(count(&mut i).unwrap_or(Count::Fixed(0)));
    }
    match fmt.get(i) {
        Some(b'h') if fmt.get(i + 1) == Some(&b'h') => (s.len, i) = (IntLen::Char, i + 2),
        Some(b'h') => (s.len, i) = (IntLen::Short, i + 1),
        Some(b'l') if fmt.get(i + 1) == Some(&b'l') => (s.len, i) = (IntLen::Long, i + 2),
        Some(b'l' | b'z' | b'j' | b't' | b'L' | b'q') => (s.len, i) = (IntLen::Long, i + 1),
        _ => {}
    }
    s.conv = *fmt.get(i)?;
    Some((s, i + 1))
}

/// Sequential reader over the packed argument buffer.
struct Args<'a> {
    buf: &'a [u8],
    off: usize,
}

impl Args<'_> {
    /// Reads a `size`-byte (4 or 8) little-endian value at the next `size`-aligned offset.
    fn take(&mut self, size: usize, index: usize, spec: &[u8]) -> Result<u64, PrintfError> {
        let start = self.off.div_ceil(size) * size;
        let end = start + size;
        let bytes = self.buf.get(start..end).ok_or_else(|| PrintfError::ArgsTooShort {
            conversion_index: index,
            spec: String::from_utf8_lossy(spec).into_owned(),
            needed_bytes: end,
            available_bytes: self.buf.len(),
        })?;
        self.off = end;
        let mut v = [0u8; 8];
        v[..size].copy_from_slice(bytes);
        Ok(u64::from_le_bytes(v))
    }
}

/// Formats `fmt` (bytes, without the NUL) with the packed argument buffer `args`, reading
/// `%s` strings through `strings`.  See the module documentation for the exact semantics.
pub fn format(fmt: &[u8], args: &[u8], strings: &dyn StringReader) -> Result<Vec<u8>, PrintfError> {
    let mut out = Vec::with_capacity(fmt.len() + 16);
    let mut args = Args { buf: args, off: 0 };
    let mut index = 0;
    let mut i = 0;
    while i < fmt.len() {
        let Some(pct) = fmt[i..].iter().position(|&c| c == b'%').map(|p| p + i) else {
            out.extend_from_slice(&fmt[i..]);
            break;
        };
        out.extend_from_slice(&fmt[i..pct]);
        let Some((spec, end)) = parse_spec(fmt, pct + 1) else {
            out.extend_from_slice(&fmt[pct..]); // incomplete spec at the end: literal
            break;
        };
        i = end;
        let text = &fmt[pct..end];
        if spec.conv == b'%' {
            out.push(b'%');
            continue;
        }
        let this = index;
        index += 1;
        if !b"diuxXocspfFeEgGaA".contains(&spec.conv) {
            out.extend_from_slice(text); // %n and unknown conversions: literal, no argument
            continue;
        }
        let mut field = Field { width: 0, left: spec.left, prec: None };
        match spec.width {
            Some(Count::Fixed(w)) => field.width = w.min(MAX_WIDTH),
            Some(Count::Star) => {
                let w = args.take(4, this, text)? as u32 as i32;
                field.left |= w < 0;
                field.width = (w.unsigned_abs() as usize).min(MAX_WIDTH);
            }
            None => {}
        }
        field.prec = match spec.prec {
            Some(Count::Fixed(p)) => Some(p.min(MAX_PRECISION)),
            Some(Count::Star) => {
                let p = args.take(4, this, text)? as u32 as i32;
                usize::try_from(p).ok().map(|p| p.min(MAX_PRECISION))
            }
            None => None,
        };
        let int_size = if spec.len == IntLen::Long { 8 } else { 4 };
        match spec.conv {
            b'd' | b'i' => {
                let raw = args.take(int_size, this, text)?;
                let v: i64 = match spec.len {
                    IntLen::Char => raw as i8 as i64,
                    IntLen::Short => raw as i16 as i64,
                    IntLen::Int => raw as u32 as i32 as i64,
                    IntLen::Long => raw as i64,
                };
                let sign: &[u8] = if v < 0 { b"-" } else { sign_flag(&spec) };
                fmt_int(&mut out, &spec, &field, sign, v.unsigned_abs(), 10);
            }
            b'u' | b'x' | b'X' | b'o' => {
                let raw = args.take(int_size, this, text)?;
                let v = match spec.len {
                    IntLen::Char => raw as u8 as u64,
                    IntLen::Short => raw as u16 as u64,
                    _ => raw,
                };
                let base = match spec.conv {
                    b'u' => 10,
                    b'o' => 8,
                    _ => 16,
                };
                fmt_int(&mut out, &spec, &field, b"", v, base);
            }
            b'p' => {
                let v = args.take(8, this, text)?;
                if v == 0 {
                    pad(&mut out, b"", b"(nil)", &field, false);
                } else {
                    let p = Spec { alt: true, conv: b'x', ..spec };
                    fmt_int(&mut out, &p, &field, sign_flag(&p), v, 16);
                }
            }
            b'c' => {
                let v = args.take(4, this, text)?;
                pad(&mut out, b"", &[v as u8], &field, false);
            }
            b's' => {
                let addr = args.take(8, this, text)?;
                let mut s = if addr == 0 {
                    let null: &[u8] = if field.prec.is_some_and(|p| p < 6) { b"" } else { b"(null)" };
                    null.to_vec()
                } else {
                    strings.read_cstr(addr).map_err(|message| PrintfError::BadString {
                        conversion_index: this,
                        spec: String::from_utf8_lossy(text).into_owned(),
                        addr,
                        message,
                    })?
                };
                if let Some(nul) = s.iter().position(|&c| c == 0) {
                    s.truncate(nul);
                }
                if let Some(p) = field.prec {
                    s.truncate(p);
                }
                pad(&mut out, b"", &s, &field, false);
            }
            _ => {
                let x = f64::from_bits(args.take(8, this, text)?);
                fmt_float(&mut out, &spec, &field, x);
            }
        }
    }
    Ok(out)
}

/// The sign prefix a non-negative signed value gets from the `+` / space flags.
fn sign_flag(spec: &Spec) -> &'static [u8] {
    if spec.plus {
        b"+"
    } else if spec.space {
        b" "
    } else {
        b""
    }
}

/// Writes `prefix` and `body` padded to the field width.  Zero padding goes between them and
/// is used only when `zero` is set and the field is not left-justified.
fn pad(out: &mut Vec<u8>, prefix: &[u8], body: &[u8], field: &Field, zero: bool) {
    let fill = field.width.saturating_sub(prefix.len() + body.len());
    if field.left {
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
        out.resize(out.len() + fill, b' ');
    } else if zero {
        out.extend_from_slice(prefix);
        out.resize(out.len() + fill, b'0');
        out.extend_from_slice(body);
    } else {
        out.resize(out.len() + fill, b' ');
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
    }
}

/// Integer conversions: `mag` is the magnitude, `sign` the already chosen sign prefix.
fn fmt_int(out: &mut Vec<u8>, spec: &Spec, field: &Field, sign: &[u8], mag: u64, base: u64) {
    let mut digits = match (base, field.prec, mag) {
        (_, Some(0), 0) => String::new(),
        (8, ..) => format!("{mag:o}"),
        (16, ..) => format!("{mag:x}"),
        _ => mag.to_string(),
    };
    if let Some(p) = field.prec.filter(|&p| p > digits.len()) {
        digits.insert_str(0, &"0".repeat(p - digits.len()));
    }
    let mut prefix = sign.to_vec();
    if spec.alt && base == 8 && !digits.starts_with('0') {
        digits.insert(0, '0');
    }
    if spec.alt && base == 16 && mag != 0 {
        prefix.extend_from_slice(b"0x");
    }
    if spec.conv == b'X' {
        digits.make_ascii_uppercase();
        prefix.make_ascii_uppercase();
    }
    pad(out, &prefix, digits.as_bytes(), field, spec.zero && field.prec.is_none());
}

/// Floating conversions `%f %F %e %E %g %G %a %A`.
fn fmt_float(out: &mut Vec<u8>, spec: &Spec, field: &Field, x: f64) {
    let upper = spec.conv.is_ascii_uppercase();
    let mut prefix = if x.is_sign_negative() { b"-".to_vec() } else { sign_flag(spec).to_vec() };
    let (a, prec, alt) = (x.abs(), field.prec.unwrap_or(6), spec.alt);
    let mut body = if x.is_nan() {
        "nan".to_string()
    } else if x.is_infinite() {
        "inf".to_string()
    } else {
        match spec.conv.to_ascii_lowercase() {
            b'f' => fixed(a, prec, alt),
            b'e' => exponent(a, prec, alt),
            b'g' => general(a, prec, alt),
            _ => {
                prefix.extend_from_slice(b"0x");
                hex_float(a, field.prec, alt)
            }
        }
    };
    if upper {
        body.make_ascii_uppercase();
        prefix.make_ascii_uppercase();
    }
    pad(out, &prefix, body.as_bytes(), field, spec.zero && x.is_finite());
}

/// `%f` of a non-negative finite value.
fn fixed(a: f64, prec: usize, alt: bool) -> String {
    let mut s = format!("{a:.prec$}");
    if alt && prec == 0 {
        s.push('.');
    }
    s
}

/// Correctly rounded mantissa digits and decimal exponent with `prec` fraction digits.
fn sci_parts(a: f64, prec: usize) -> (String, i32) {
    let s = format!("{a:.prec$e}");
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    (m.to_string(), e.parse().unwrap_or(0))
}

/// `%e` of a non-negative finite value: exponent has a sign and at least two digits.
fn exponent(a: f64, prec: usize, alt: bool) -> String {
    let (mut m, e) = sci_parts(a, prec);
    if alt && prec == 0 {
        m.push('.');
    }
    let sign = if e < 0 { '-' } else { '+' };
    format!("{m}e{sign}{:02}", e.unsigned_abs())
}

/// `%g`: style chosen from the exponent `%e` would print (after rounding), then trailing
/// zeros (and a bare decimal point) are removed unless `#` is given.
fn general(a: f64, prec: usize, alt: bool) -> String {
    let p = prec.max(1);
    let (_, x) = sci_parts(a, p - 1);
    let mut s = if x >= -4 && (x as i64) < p as i64 { fixed(a, (p as i64 - 1 - x as i64) as usize, alt) } else { exponent(a, p - 1, alt) };
    if !alt {
        let mant_end = s.find('e').unwrap_or(s.len());
        if s[..mant_end].contains('.') {
            let trimmed = s[..mant_end].trim_end_matches('0').trim_end_matches('.').len();
            s.replace_range(trimmed..mant_end, "");
        }
    }
    s
}

/// `%a` of a non-negative finite value, without the `0x` prefix.
fn hex_float(a: f64, prec: Option<usize>, alt: bool) -> String {
    let bits = a.to_bits();
    let (biased, frac) = ((bits >> 52) as i32, bits & ((1u64 << 52) - 1));
    let (lead, exp) = match (biased, frac) {
        (0, 0) => (0u64, 0),
        (0, _) => (0, -1022),
        _ => (1, biased - 1023),
    };
    let (lead, mut digits) = match prec {
        None => (lead, format!("{frac:013x}").trim_end_matches('0').to_string()),
        Some(p) if p < 13 => {
            // Round the 53-bit significand to `p` hex digits, half to even.
            let shift = 4 * (13 - p as u32);
            let v = (lead << 52) | frac;
            let (mut q, rem, half) = (v >> shift, v & ((1u64 << shift) - 1), 1u64 << (shift - 1));
            if rem > half || (rem == half && q & 1 == 1) {
                q += 1;
            }
            let kept = q & ((1u64 << (4 * p as u32)) - 1);
            let digits = if p == 0 { String::new() } else { format!("{kept:0p$x}") };
            (q >> (4 * p as u32), digits)
        }
        Some(p) => (lead, format!("{frac:013x}{}", "0".repeat(p - 13))),
    };
    if !digits.is_empty() || alt {
        digits.insert(0, '.');
    }
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{lead:x}{digits}p{sign}{}", exp.unsigned_abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// One argument as device code would pass it.
    #[derive(Clone, Copy)]
    enum A {
        I(i32),
        L(i64),
        D(f64),
        P(u64),
    }
    use A::*;

    /// Packs arguments with the vprintf layout: each aligned to its own size.
    fn pack(args: &[A]) -> Vec<u8> {
        let mut buf = Vec::new();
        for a in args {
            let bytes = match *a {
                I(v) => v.to_le_bytes().to_vec(),
                L(v) => v.to_le_bytes().to_vec(),
                D(v) => v.to_le_bytes().to_vec(),
                P(v) => v.to_le_bytes().to_vec(),
            };
            while buf.len() % bytes.len() != 0 {
                buf.push(0xAA); // padding garbage must be skipped
            }
            buf.extend_from_slice(&bytes);
        }
        buf
    }

    struct Mem(HashMap<u64, &'static str>);
    impl StringReader for Mem {
        fn read_cstr(&self, addr: u64) -> Result<Vec<u8>, String> {
            self.0.get(&addr).map(|s| s.as_bytes().to_vec()).ok_or_else(|| format!("unmapped address {addr:#x}"))
        }
    }
    fn mem() -> Mem {
        Mem(HashMap::from([(0x1000, "hello"), (0x2000, ""), (0x3000, "abcdefghij")]))
    }

    fn run(fmt: &str, args: &[A]) -> Result<String, PrintfError> {
        format(fmt.as_bytes(), &pack(args), &mem()).map(|v| String::from_utf8(v).unwrap())
    }

    /// Expected strings were printed by glibc 2.36 (Debian 12, gcc 12): a throwaway C program
    /// ran `snprintf(buf, sizeof buf, fmt, c_args...)` for each case and printed this table.
    #[rustfmt::skip]
    const GLIBC: &[(&str, &[A], &str)] = &[
        ("%d", &[I(42)], "42"), ("%d", &[I(-42)], "-42"), ("%i", &[I(123)], "123"),
        ("%d", &[I(i32::MIN)], "-2147483648"), ("[%5d]", &[I(42)], "[   42]"),
        ("[%-5d]", &[I(42)], "[42   ]"), ("%05d", &[I(-42)], "-0042"), ("%+d", &[I(42)], "+42"),
        ("% d", &[I(42)], " 42"), ("%+ d", &[I(42)], "+42"), ("%.3d", &[I(7)], "007"),
        ("[%.0d]", &[I(0)], "[]"), ("[%5.0d]", &[I(0)], "[     ]"),
        ("%08.3d", &[I(42)], "     042"), ("[%-08d]", &[I(42)], "[42      ]"),
        ("%u", &[I(-1)], "4294967295"), ("%x", &[I(255)], "ff"), ("%X", &[I(255)], "FF"),
        ("%#x", &[I(255)], "0xff"), ("%#X", &[I(255)], "0XFF"), ("%#x", &[I(0)], "0"),
        ("%o", &[I(8)], "10"), ("%#o", &[I(8)], "010"), ("%#o", &[I(0)], "0"),
        ("[%#.0o]", &[I(0)], "[0]"), ("%#08x", &[I(255)], "0x0000ff"), ("%#.3x", &[I(1)], "0x001"),
        ("[%#5.3o]", &[I(1)], "[  001]"), ("%+u", &[I(5)], "5"),
        ("%ld", &[L(i64::MIN)], "-9223372036854775808"), ("%lld", &[L(-1)], "-1"),
        ("%llu", &[L(-1)], "18446744073709551615"), ("%lx", &[L(0xdead_beef_cafe)], "deadbeefcafe"),
        ("%zu", &[L(1 << 40)], "1099511627776"), ("%jd", &[L(-5_000_000_000)], "-5000000000"),
        ("%td", &[L(-7)], "-7"), ("%llX", &[L(0x0123_4567_89ab_cdef)], "123456789ABCDEF"),
        ("%lo", &[L(-1)], "1777777777777777777777"), ("%hhd", &[I(300)], "44"),
        ("%hhd", &[I(200)], "-56"), ("%hd", &[I(70000)], "4464"), ("%hu", &[I(-1)], "65535"),
        ("%hhx", &[I(0x1ff)], "ff"), ("%hhu", &[I(-1)], "255"), ("%hi", &[I(-32769)], "32767"),
        ("[%*d]", &[I(6), I(42)], "[    42]"), ("[%-*d]", &[I(6), I(42)], "[42    ]"),
        ("[%*d]", &[I(-6), I(42)], "[42    ]"), ("%.*d", &[I(5), I(42)], "00042"),
        ("%.*d", &[I(-1), I(42)], "42"), ("[%*.*d]", &[I(8), I(4), I(42)], "[    0042]"),
        ("[%*.*f]", &[I(10), I(2), D(1.23456)], "[      1.23]"),
        ("%.*e", &[I(3), D(1234.5)], "1.234e+03"), ("%c", &[I(65)], "A"),
        ("[%3c]", &[I(120)], "[  x]"), ("[%-3c]", &[I(120)], "[x  ]"), ("%c", &[I(0x141)], "A"),
        ("[%05c]", &[I(97)], "[    a]"), ("%c%c%c", &[I(97), I(98), I(99)], "abc"),
        ("%s", &[P(0x1000)], "hello"), ("[%10s]", &[P(0x1000)], "[     hello]"),
        ("[%-10s]", &[P(0x1000)], "[hello     ]"), ("%.3s", &[P(0x1000)], "hel"),
        ("%.*s", &[I(2), P(0x3000)], "ab"), ("[%s]", &[P(0x2000)], "[]"),
        ("[%5s]", &[P(0x2000)], "[     ]"), ("[%-12.4s]", &[P(0x3000)], "[abcd        ]"),
        ("[%05s]", &[P(0x1000)], "[hello]"), ("%s", &[P(0)], "(null)"), ("[%.3s]", &[P(0)], "[]"),
        ("[%10s]", &[P(0)], "[    (null)]"), ("[%.6s]", &[P(0)], "[(null)]"),
        ("%p", &[P(0x1234)], "0x1234"), ("%p", &[P(0x7fff_dead_beef)], "0x7fffdeadbeef"),
        ("%p", &[P(0)], "(nil)"), ("[%20p]", &[P(0x1234)], "[              0x1234]"),
        ("[%-20p]", &[P(0x1234)], "[0x1234              ]"),
        ("[%010p]", &[P(0x10)], "[0x00000010]"), ("[%10p]", &[P(0)], "[     (nil)]"),
        ("[%-8p]", &[P(0)], "[(nil)   ]"), ("%+p", &[P(0x10)], "+0x10"),
        ("%.6p", &[P(0x10)], "0x000010"), ("100%%", &[], "100%"), ("[%5%]", &[], "[%]"),
        ("no conversions", &[], "no conversions"), ("", &[], ""), ("%f", &[D(1.23456)], "1.234560"),
        ("%.2f", &[D(2.675)], "2.67"), ("%.0f", &[D(0.5)], "0"), ("%.0f", &[D(1.5)], "2"),
        ("%.0f", &[D(2.5)], "2"), ("%.1f", &[D(0.25)], "0.2"), ("%.1f", &[D(0.35)], "0.3"),
        ("%.20f", &[D(0.1)], "0.10000000000000000555"),
        ("%f", &[D(1e308)], "100000000000000001097906362944045541740492309677311846336810682903157585404911491537163328978494688899061249669721172515611590283743140088328307009198146046031271664502933027185697489699588559043338384466165001178426897626212945177628091195786707458122783970171784415105291802893207873272974885715430223118336.000000"),
        ("%f", &[D(-0.0)], "-0.000000"), ("%f", &[D(0.0)], "0.000000"),
        ("%+f", &[D(1.0)], "+1.000000"), ("% f", &[D(1.0)], " 1.000000"),
        ("%010.3f", &[D(-1.23456)], "-00001.235"), ("[%-10.2f]", &[D(1.23456)], "[1.23      ]"),
        ("%#.0f", &[D(3.0)], "3."), ("%.0f", &[D(3.0)], "3"), ("%F", &[D(f64::INFINITY)], "INF"),
        ("%f", &[D(f64::NEG_INFINITY)], "-inf"), ("%f", &[D(f64::NAN)], "nan"),
        ("%F", &[D(f64::NAN)], "NAN"), ("%+f", &[D(f64::INFINITY)], "+inf"),
        ("[%010f]", &[D(f64::INFINITY)], "[       inf]"),
        ("[%-8f]", &[D(f64::NEG_INFINITY)], "[-inf    ]"), ("% F", &[D(f64::INFINITY)], " INF"),
        ("%f", &[D(5e-324)], "0.000000"), ("%.3f", &[D(999.9996)], "1000.000"),
        ("%f", &[D(1e15)], "1000000000000000.000000"), ("%.10f", &[D(1.0 / 3.0)], "0.3333333333"),
        ("%.f", &[D(2.5)], "2"),
        ("%.60f", &[D(5e-324)], "0.000000000000000000000000000000000000000000000000000000000000"),
        ("%lf", &[D(1.5)], "1.500000"), ("%Lf", &[D(1.5)], "1.500000"),
        ("%f", &[D(f32::MAX as f64)], "340282346638528859811704183484516925440.000000"),
        ("%.3f", &[D(-0.0004)], "-0.000"), ("%e", &[D(12345.6789)], "1.234568e+04"),
        ("%E", &[D(12345.6789)], "1.234568E+04"), ("%.2e", &[D(9.999)], "1.00e+01"),
        ("%.0e", &[D(2.5)], "2e+00"), ("%#.0e", &[D(2.0)], "2.e+00"),
        ("%e", &[D(0.0)], "0.000000e+00"), ("%e", &[D(-0.0)], "-0.000000e+00"),
        ("%e", &[D(1e-300)], "1.000000e-300"), ("%e", &[D(1e100)], "1.000000e+100"),
        ("%e", &[D(5e-324)], "4.940656e-324"), ("%.3e", &[D(1e308)], "1.000e+308"),
        ("[%12.3e]", &[D(1.23456)], "[   1.235e+00]"),
        ("[%-12.3e]", &[D(1.23456)], "[1.235e+00   ]"), ("%012.3e", &[D(-1.5)], "-001.500e+00"),
        ("%+e", &[D(1.0)], "+1.000000e+00"), ("%E", &[D(f64::INFINITY)], "INF"),
        ("%.3e", &[D(9.9996)], "1.000e+01"), ("%.0e", &[D(9.5)], "1e+01"),
        ("%e", &[D(f64::MAX)], "1.797693e+308"), ("%.17e", &[D(0.1)], "1.00000000000000006e-01"),
        ("%g", &[D(100000.0)], "100000"), ("%g", &[D(1000000.0)], "1e+06"),
        ("%g", &[D(0.0001)], "0.0001"), ("%g", &[D(0.00001)], "1e-05"),
        ("%g", &[D(123456789.0)], "1.23457e+08"), ("%g", &[D(0.0)], "0"), ("%g", &[D(-0.0)], "-0"),
        ("%.3g", &[D(1.23456)], "1.23"), ("%.0g", &[D(3.7)], "4"), ("%.1g", &[D(0.95)], "0.9"),
        ("%g", &[D(999999.5)], "1e+06"), ("%g", &[D(9.9999995)], "10"),
        ("%#g", &[D(1.0)], "1.00000"), ("%#g", &[D(100000.0)], "100000."),
        ("%#.3g", &[D(1e10)], "1.00e+10"), ("%G", &[D(1e-10)], "1E-10"),
        ("%G", &[D(f64::INFINITY)], "INF"), ("%g", &[D(1e308)], "1e+308"),
        ("%g", &[D(5e-324)], "4.94066e-324"), ("[%10.4g]", &[D(1.23456)], "[     1.235]"),
        ("[%-10g]", &[D(0.5)], "[0.5       ]"), ("%010g", &[D(-1.5)], "-0000001.5"),
        ("%g", &[D(1.5e-5)], "1.5e-05"), ("%.20g", &[D(0.1)], "0.10000000000000000555"),
        ("%g", &[D(2.5)], "2.5"), ("%.1g", &[D(2.5)], "2"), ("%.2g", &[D(0.000125)], "0.00013"),
        ("%g", &[D(0.000099999996)], "0.0001"), ("%g", &[D(f64::NAN)], "nan"),
        ("%#.0g", &[D(1.0)], "1."), ("%+g", &[D(12.0)], "+12"), ("%.15g", &[D(0.3)], "0.3"),
        ("%a", &[D(1.0)], "0x1p+0"), ("%a", &[D(0.1)], "0x1.999999999999ap-4"),
        ("%A", &[D(0.1)], "0X1.999999999999AP-4"), ("%a", &[D(0.0)], "0x0p+0"),
        ("%a", &[D(-0.0)], "-0x0p+0"), ("%a", &[D(5e-324)], "0x0.0000000000001p-1022"),
        ("%a", &[D(f64::MIN_POSITIVE)], "0x1p-1022"),
        ("%a", &[D(1e-310)], "0x0.012688b70e62bp-1022"), ("%.0a", &[D(1.5)], "0x2p+0"),
        ("%.0a", &[D(2.5)], "0x1p+1"), ("%.1a", &[D(1.96875)], "0x2.0p+0"),
        ("%.1a", &[D(1.03125)], "0x1.0p+0"), ("%.1a", &[D(1.09375)], "0x1.2p+0"),
        ("%.2a", &[D(0.1)], "0x1.9ap-4"), ("%.3a", &[D(1.0)], "0x1.000p+0"),
        ("%#.0a", &[D(1.0)], "0x1.p+0"), ("%#a", &[D(1.0)], "0x1.p+0"),
        ("[%15a]", &[D(1.0)], "[         0x1p+0]"), ("[%-15a]", &[D(1.0)], "[0x1p+0         ]"),
        ("%015a", &[D(-1.0)], "-0x000000001p+0"), ("%+a", &[D(1.0)], "+0x1p+0"),
        ("%a", &[D(f64::INFINITY)], "inf"), ("%A", &[D(f64::NEG_INFINITY)], "-INF"),
        ("%a", &[D(f64::MAX)], "0x1.fffffffffffffp+1023"), ("%.3a", &[D(0.0)], "0x0.000p+0"),
        ("%.0a", &[D(1e-310)], "0x0p-1022"),
        ("%.1a", &[D(f64::from_bits(0x000f_ffff_ffff_ffff))], "0x1.0p-1022"),
        ("%.15a", &[D(-3.0)], "-0x1.800000000000000p+1"), ("%A", &[D(255.5)], "0X1.FFP+7"),
        ("%la", &[D(-2.0)], "-0x1p+1"),
        ("%d %f %d %lld", &[I(1), D(2.5), I(3), L(4)], "1 2.500000 3 4"),
        ("%d %p", &[I(7), P(0xabc)], "7 0xabc"),
        ("%hhd %lld %hd %f", &[I(-1), L(1 << 40), I(-2), D(0.5)], "-1 1099511627776 -2 0.500000"),
        ("%s=%d", &[P(0x1000), I(5)], "hello=5"), ("%d %ld %d", &[I(1), L(2), I(3)], "1 2 3"),
        ("%f %d %f", &[D(1.0), I(2), D(3.0)], "1.000000 2 3.000000"),
        ("%c%d%s%x", &[I(65), I(-1), P(0x3000), I(255)], "A-1abcdefghijff"),
        ("x=%d, y=%d\n", &[I(10), I(20)], "x=10, y=20\n"),
        ("%*d|%.*f|%-*s|", &[I(4), I(1), I(3), D(1.25), I(6), P(0x1000)], "   1|1.250|hello |"),
        ("%u %lu %e %c", &[I(1), L(2), D(3.0), I(52)], "1 2 3.000000e+00 4"),
    ];

    #[test]
    fn matches_glibc() {
        let mut bad = 0;
        for (fmt, args, want) in GLIBC {
            let got = run(fmt, args);
            if got.as_deref() != Ok(*want) {
                bad += 1;
                println!("MISMATCH {fmt:?}: got {got:?}, want {want:?}");
            }
        }
        println!("{} glibc cases, {bad} mismatches", GLIBC.len());
        assert_eq!(bad, 0);
    }

    /// Cases where we deliberately print literally (glibc drops or mis-handles them).
    #[test]
    fn literal_and_malformed() {
        let cases: &[(&str, &[A], &str)] = &[
            ("abc%", &[], "abc%"),
            ("abc%5", &[], "abc%5"),
            ("%-0#", &[], "%-0#"),
            ("%y|%5y", &[], "%y|%5y"),
            ("%d %n %d", &[I(1), I(2)], "1 %n 2"),
            ("%5.2n%d", &[I(3)], "%5.2n3"),
            ("%lc%ls", &[I(65), P(0x1000)], "Ahello"),
        ];
        for (fmt, args, want) in cases {
            assert_eq!(run(fmt, args).as_deref(), Ok(*want), "{fmt:?}");
        }
    }

    #[test]
    fn caps_huge_width_and_precision() {
        assert_eq!(run("%999999999999999999999d", &[I(1)]).unwrap().len(), MAX_WIDTH);
        assert_eq!(run("%*d", &[I(i32::MIN), I(1)]).unwrap().len(), MAX_WIDTH);
        assert_eq!(run("%.99999f", &[D(1.0)]).unwrap().len(), 2 + MAX_PRECISION);
        assert_eq!(run("%.*s", &[I(-1), P(0x3000)]).unwrap(), "abcdefghij");
        assert_eq!(run("%.5000e", &[D(f64::MAX)]).unwrap().len(), 2 + MAX_PRECISION + 5);
        assert_eq!(run("%.5000a", &[D(1.0)]).unwrap().len(), 7 + MAX_PRECISION);
    }

    #[test]
    fn errors() {
        let m = mem();
        let short = |fmt: &str, args: &[u8], idx: usize, spec: &str, needed: usize| {
            let err = format(fmt.as_bytes(), args, &m).unwrap_err();
            let want =
                PrintfError::ArgsTooShort { conversion_index: idx, spec: spec.into(), needed_bytes: needed, available_bytes: args.len() };
            assert_eq!(err, want, "{fmt:?}");
            assert!(err.to_string().contains(&format!("needs {needed} bytes")), "{err}");
        };
        short("%d", &[], 0, "%d", 4);
        short("%d %lld", &pack(&[I(1)]), 1, "%lld", 16);
        short("%%%d %s", &pack(&[I(1), I(2)]), 1, "%s", 16);
        short("%y %f", &[0; 7], 1, "%f", 8);
        short("%*d", &pack(&[I(5)]), 0, "%*d", 8);
        short("%c", &[1, 2, 3], 0, "%c", 4);
        let err = format(b"x %d %s", &pack(&[I(1), P(0xdead)]), &m).unwrap_err();
        assert_eq!(
            err,
            PrintfError::BadString { conversion_index: 1, spec: "%s".into(), addr: 0xdead, message: "unmapped address 0xdead".into() }
        );
        assert!(err.to_string().contains("0xdead"), "{err}");
        // No conversions: a NULL (empty) argument buffer is fine; extra arguments are ignored.
        assert_eq!(format(b"plain %% text", &[], &m).unwrap(), b"plain % text");
        assert_eq!(run("%d", &[I(1), I(2)]).unwrap(), "1");
    }

    #[test]
    fn float_roundtrip_against_rust() {
        // %.17g must round-trip every finite double; %f with huge precision stays exact.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = f64::from_bits(state);
            if !x.is_finite() {
                continue;
            }
            for conv in ["%.17g", "%.16e", "%a"] {
                let s = run(conv, &[D(x)]).unwrap();
                let parsed = if conv == "%a" { parse_hex(&s) } else { s.parse::<f64>().unwrap() };
                assert_eq!(parsed.to_bits(), x.to_bits(), "{conv} {x:e} -> {s}");
            }
        }
    }

    /// Parses our own `%a` output back into bits (test helper for `[-]0xL.HHHp±E`).
    fn parse_hex(s: &str) -> f64 {
        let (neg, s) = s.strip_prefix('-').map_or((false, s), |r| (true, r));
        let (mant, exp) = s.strip_prefix("0x").unwrap().split_once('p').unwrap();
        let (lead, frac) = mant.split_once('.').unwrap_or((mant, ""));
        let frac = u64::from_str_radix(&format!("{frac:0<13}"), 16).unwrap();
        let biased = if lead == "1" { (exp.parse::<i64>().unwrap() + 1023) as u64 } else { 0 };
        f64::from_bits((neg as u64) << 63 | biased << 52 | frac)
    }

    #[test]
    fn fuzz_no_panic() {
        let m = mem();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let alphabet = b"%%%%-+ #0123456789*.hlzjtLqdiuxXocspfFeEgGaAn%yk";
        for round in 0..20_000 {
            let flen = (next() % 24) as usize;
            let fmt: Vec<u8> = (0..flen)
                .map(|_| {
                    let r = next();
                    if round % 4 == 0 {
                        r as u8
                    } else {
                        alphabet[(r % alphabet.len() as u64) as usize]
                    }
                })
                .collect();
            let alen = (next() % 64) as usize;
            let mut args: Vec<u8> = (0..alen).map(|_| next() as u8).collect();
            // Make some pointers hit mapped strings and some widths stay small.
            if alen >= 8 && next() % 2 == 0 {
                args[..8].copy_from_slice(&0x1000u64.to_le_bytes());
            }
            let _ = format(&fmt, &args, &m);
        }
    }
}
