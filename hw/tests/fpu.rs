//! The FP units' Verilog against the golden model's semantics
//! (`heddle_isa::scalar::fp`), under Verilator. The `Fpu`: binary32, 1e5
//! operand sets per operation and rounding mode for add, subtract,
//! multiply, fused multiply-add, round-to-integral, the integer conversions
//! (all four integer types) and f2h (with `.ftz` and `.sat` on a quarter of
//! them each), 1e5 each for min, max, compare and h2f; binary64, 1e5 per
//! operation and rounding mode for add, subtract, multiply, fma,
//! round-to-integral, d2f, d2i and i2d, 1e5 each for min, max, compare and
//! f2d. The shared unit's rounding requests (`round_scaled`). The
//! iterative `FpDivSqrt`, rounding on the shared unit: division and square
//! root in both formats, cycle by cycle. Special values (signed zeros, infinities, NaNs
//! with payloads, subnormals, the largest finite value, values near 1) and
//! cancelling operands are mixed in.

use heddle_hw::cosim::{run_verilator, settle, Port};
use heddle_hw::fdivsqrt::FpDivSqrt;
use heddle_hw::fpu::{lane_ops, model, shared_ops, Fpu, CONVERSIONS32, RQ_MAG};
use heddle_hw::verilog::{lint, verilog_of};
use heddle_hw::SmConfig;
use heddle_isa::scalar::fp::{round_scaled, Rnd};
use heddle_isa::Opcode;

type Vector = Vec<u128>;
use rust_hdl::prelude::*;

const SPECIAL: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7f80_0001,
    0xffc0_1234,
    0x0000_0001,
    0x8000_0001,
    0x007f_ffff,
    0x0080_0000,
    0x8080_0000,
    0x7f7f_ffff,
    0xff7f_ffff,
    0x3f80_0000,
    0xbf80_0000,
    0x3f7f_ffff,
    0x3f80_0001,
    0x3f00_0000,
    0x4b00_0000,
    0x3400_0000,
    0x0040_0000,
    0x33ff_ffff,
    0x7f00_0000,
];

fn value(rng: &mut fastrand::Rng) -> u32 {
    match rng.u8(0..8) {
        0 => SPECIAL[rng.usize(..SPECIAL.len())],
        // Subnormals and tiny normals.
        1 => rng.u32(..0x0100_0000) | (rng.u32(0..2) << 31),
        // Around 1.0 and the same binade.
        2 => 0x3f00_0000 + rng.u32(..0x0100_0000) | (rng.u32(0..2) << 31),
        // Huge.
        3 => 0x7e00_0000 + rng.u32(..0x0180_0000) | (rng.u32(0..2) << 31),
        _ => rng.u32(..),
    }
}

/// Operand sets for `op`: (a, b, c) with cancellation and exponent gaps mixed in.
fn operands(rng: &mut fastrand::Rng, op: Opcode) -> (u32, u32, u32) {
    let (a, b, mut c) = (value(rng), value(rng), value(rng));
    match (op, rng.u8(0..4)) {
        // a + (-a ± a few ulps): massive cancellation.
        (Opcode::Fadd, 0) => (a, (a ^ 0x8000_0000).wrapping_add(rng.u32(0..4)).wrapping_sub(2), c),
        (Opcode::Fsub, 0) => (a, a.wrapping_add(rng.u32(0..4)).wrapping_sub(2), c),
        (Opcode::Ffma, 0) => {
            // c close to -(a*b): the fused result is the tiny rounding error.
            let p = f32::from_bits(a) * f32::from_bits(b);
            c = (-p).to_bits().wrapping_add(rng.u32(0..3)).wrapping_sub(1);
            (a, b, c)
        }
        (Opcode::Ffma, 1) => {
            // The addend's exponent at random, mostly far from the product's.
            let e = rng.u32(1..254);
            (a, b, (c & 0x807f_ffff) | e << 23)
        }
        (Opcode::Ffma, 2) => {
            // The addend's last bit around the window's edge below the
            // product's (26 places), or the product's below the addend's (50).
            let (ea, eb, ec) = window_edge(rng, 254, 150, [26, 50]);
            let e = |x: u32, e: u64| x & 0x807f_ffff | (e as u32) << 23;
            (e(a, ea), e(b, eb), e(c, ec))
        }
        _ => (a, b, c),
    }
}

const SPECIAL64: &[u64] = &[
    0x0000_0000_0000_0000,
    0x8000_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0x7ff0_0000_0000_0001,
    0xfff8_0000_1234_0000,
    0x0000_0000_0000_0001,
    0x8000_0000_0000_0001,
    0x000f_ffff_ffff_ffff,
    0x0010_0000_0000_0000,
    0x8010_0000_0000_0000,
    0x7fef_ffff_ffff_ffff,
    0xffef_ffff_ffff_ffff,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x3fef_ffff_ffff_ffff,
    0x3ff0_0000_0000_0001,
    0x3fe0_0000_0000_0000,
    0x4330_0000_0000_0000,
    0x43e0_0000_0000_0000,
    0xc3e0_0000_0000_0000,
    0x41f0_0000_0000_0000,
    0x41e0_0000_0000_0000,
    0x47ef_ffff_e000_0000,
    0x3810_0000_0000_0000,
    0x36a0_0000_0000_0000,
];

fn value64(rng: &mut fastrand::Rng) -> u64 {
    let s = rng.u64(0..2) << 63;
    match rng.u8(0..9) {
        0 => SPECIAL64[rng.usize(..SPECIAL64.len())],
        1 => rng.u64(..1 << 53) | s,
        2 => (0x3fe0_0000_0000_0000 + rng.u64(..1 << 53)) | s,
        3 => (0x7fd0_0000_0000_0000 + rng.u64(..3 << 52)) | s,
        // Around the binary32 range edges (d2f) and integers (d2i, drnd).
        4 => (0x3680_0000_0000_0000 + rng.u64(..0x0100_0000_0000_0000)) | s,
        5 => (0x47e0_0000_0000_0000 + rng.u64(..1 << 53)) | s,
        6 => (0x4000_0000_0000_0000 + rng.u64(..0x0400_0000_0000_0000)) | s,
        _ => rng.u64(..),
    }
}

fn operands64(rng: &mut fastrand::Rng, op: Opcode) -> (u64, u64, u64) {
    let (a, b, c) = (value64(rng), value64(rng), value64(rng));
    match (op, rng.u8(0..4)) {
        (Opcode::Dadd, 0) => (a, (a ^ 1 << 63).wrapping_add(rng.u64(0..4)).wrapping_sub(2), c),
        (Opcode::Dsub, 0) => (a, a.wrapping_add(rng.u64(0..4)).wrapping_sub(2), c),
        (Opcode::Dfma, 0) => {
            let p = f64::from_bits(a) * f64::from_bits(b);
            (a, b, (-p).to_bits().wrapping_add(rng.u64(0..3)).wrapping_sub(1))
        }
        (Opcode::Dfma, 1) => {
            // The addend's exponent at random, mostly far from the product's.
            let e = rng.u64(1..2046);
            (a, b, (c & 0x800f_ffff_ffff_ffff) | e << 52)
        }
        (Opcode::Dfma, 2) => {
            // Around the windows' edges: 55 places, 108.
            let (ea, eb, ec) = window_edge(rng, 2046, 1075, [55, 108]);
            let e = |x: u64, e: u64| x & 0x800f_ffff_ffff_ffff | e << 52;
            (e(a, ea), e(b, eb), e(c, ec))
        }
        // Exact quotients and squares.
        (Opcode::Ddiv, 0) => (f64::from_bits(b).mul_add(f64::from_bits(c), 0.0).to_bits(), b, c),
        (Opcode::Dsqrt, 0) => ((f64::from_bits(a) * f64::from_bits(a)).to_bits(), b, c),
        _ => (a, b, c),
    }
}

/// Exponent fields (1..=`top`) of a, b and c for an fma whose addend's last
/// bit lies within 3 places of a window's edge: `windows[0]` below the
/// product's last bit, or the product's `windows[1]` below the addend's
/// (normal operands; `lsb` is the bias plus the fraction bits, so that a
/// field e's last bit is 2^(e - lsb)).
fn window_edge(rng: &mut fastrand::Rng, top: u64, lsb: u64, windows: [u64; 2]) -> (u64, u64, u64) {
    loop {
        let (ea, eb) = (rng.u64(1..=top), rng.u64(1..=top));
        let below = rng.usize(0..2);
        let t = windows[below] + rng.u64(0..7) - 3;
        // The product's last bit is 2^(ea + eb - 2 lsb), the addend's 2^(ec - lsb).
        let ec = if below == 0 { (ea + eb).checked_sub(lsb + t) } else { (ea + eb + t).checked_sub(lsb) };
        if let Some(ec) = ec.filter(|e| (1..=top).contains(e)) {
            return (ea, eb, ec);
        }
    }
}

/// Runs `vectors` (op, mod, ext0, a, b, c) through the Verilog of `fpu` under
/// Verilator and through the rust-hdl block (on a sample) and compares both
/// with the model.
fn check(name: &str, mut fpu: Fpu, vectors: &[Vector]) {
    fpu.connect_all();
    let verilog = verilog_of(&fpu);
    lint(name, &verilog).unwrap();
    let inputs: &[Port] = &[("op", 7), ("modv", 6), ("ext0", 1), ("a", 64), ("b", 64), ("c", 64)];
    let hw = run_verilator(name, &verilog, inputs, &[("d", 64), ("pout", 1)], false, vectors).unwrap();
    assert_eq!(hw.len(), vectors.len());
    let mut bad = 0;
    for (i, (v, h)) in vectors.iter().zip(&hw).enumerate() {
        let want = model(v[0] as u8, v[1] as u32, v[2] == 1, v[3] as u64, v[4] as u64, v[5] as u64);
        if (want.0 as u128, want.1 as u128) != (h[0], h[1]) {
            bad += 1;
            if bad <= 20 {
                let op = Opcode::from_code(v[0] as u8).unwrap();
                eprintln!(
                    "{op:?} mod {:#x} ext {} a {:#x} b {:#x} c {:#x}: golden {:#x}/{} verilog {:#x}/{}",
                    v[1], v[2], v[3], v[4], v[5], want.0, want.1 as u8, h[0], h[1]
                );
            }
        }
        if i % 97 == 0 {
            fpu.op.next = (v[0] as u64).into();
            fpu.modv.next = (v[1] as u64).into();
            fpu.ext0.next = v[2] == 1;
            fpu.a.next = (v[3] as u64).into();
            fpu.b.next = (v[4] as u64).into();
            fpu.c.next = (v[5] as u64).into();
            assert!(settle(&mut fpu));
            assert_eq!((fpu.d.val().to_u64(), fpu.pout.val()), want);
        }
    }
    assert_eq!(bad, 0, "{bad} of {} vectors differ", vectors.len());
}

/// An FP unit that only adds, in both formats.
const ADDER_OPS: [Opcode; 4] = [Opcode::Fadd, Opcode::Fsub, Opcode::Dadd, Opcode::Dsub];

/// The vectors of opcodes `ops`.
fn only(vectors: &[Vector], ops: &[Opcode]) -> Vec<Vector> {
    vectors.iter().filter(|v| ops.iter().any(|&o| v[0] == o as u128)).cloned().collect()
}

fn vector(op: Opcode, modv: u32, ext0: u32, a: u64, b: u64, c: u64) -> Vector {
    vec![op as u128, modv as u128, ext0 as u128, a as u128, b as u128, c as u128]
}

const N: usize = 100_000;

#[test]
fn binary32_verilog_is_bit_exact_with_the_golden_semantics() {
    let mut rng = fastrand::Rng::with_seed(17);
    let mut vectors = vec![];
    for op in [Opcode::Fadd, Opcode::Fsub, Opcode::Fmul, Opcode::Ffma, Opcode::F2h] {
        for rnd in 0..4u32 {
            for _ in 0..N {
                let (a, b, c) = operands(&mut rng, op);
                let (a, b) = match (op, rng.u8(0..4)) {
                    // f2h's overflow and subnormal edges.
                    (Opcode::F2h, 0) => ((0x3300_0000 + rng.u32(..0x1500_0000)) | rng.u32(0..2) << 31, b),
                    _ => (a, b),
                };
                let ftz = (rng.u8(0..4) == 0) as u32;
                let sat = (rng.u8(0..4) == 0 && op != Opcode::F2h) as u32;
                vectors.push(vector(op, rnd | ftz << 2 | sat << 3, 0, a as u64, b as u64, c as u64));
            }
        }
    }
    for op in [Opcode::Frnd, Opcode::F2i, Opcode::I2f] {
        for rnd in 0..4u32 {
            for _ in 0..N {
                let (a, _, _) = operands(&mut rng, op);
                let ty = rng.u32(0..4); // u32, s32, u64, s64
                                        // Integers of every magnitude for i2f; floats near integers and the type limits for f2i.
                let a = match (op, rng.u8(0..4)) {
                    (Opcode::I2f, 0) => {
                        let bits = rng.u32(1..64);
                        rng.u64(..1 << bits)
                    }
                    (Opcode::I2f, _) => rng.u64(..),
                    (_, 1) => (f32::from_bits(a).trunc() + [0.5, -0.5, 0.25, 0.75][rng.usize(..4)]).to_bits() as u64,
                    (Opcode::F2i, 2) => [
                        0x4f00_0000u64,
                        0xcf00_0000,
                        0x4f80_0000,
                        0x4eff_ffff,
                        0xcf00_0001,
                        0x4f7f_ffff,
                        0x5f00_0000,
                        0xdf00_0000,
                        0x5f80_0000,
                        0x5eff_ffff,
                        0xdf00_0001,
                    ][rng.usize(..11)],
                    _ => a as u64,
                };
                let ftz = if op == Opcode::I2f { 0 } else { (rng.u8(0..4) == 0) as u32 };
                vectors.push(vector(op, rnd | ftz << 2 | ty << 4, 0, a, 0, 0));
            }
        }
    }
    for op in [Opcode::Fmin, Opcode::Fmax, Opcode::Fsetp, Opcode::H2f] {
        for _ in 0..N {
            let (a, b, _) = operands(&mut rng, op);
            let b = if rng.u8(0..8) == 0 { a } else { b };
            let a = if op == Opcode::H2f { rng.u32(..) } else { a };
            let modv = if op == Opcode::Fsetp { rng.u32(0..14) | rng.u32(0..4) << 4 } else { rng.u32(0..2) << 2 };
            vectors.push(vector(op, modv, rng.u32(0..2), a as u64, b as u64, 0));
        }
    }
    // The FP unit of each lane of `default`, and its shared unit (binary32's
    // conversions).
    let units = SmConfig::default_config().units();
    check("fpu32", Fpu::new(lane_ops(units)), &only(&vectors, &lane_ops(units).collect::<Vec<_>>()));
    check("fpu32-shared", Fpu::new(shared_ops(units)), &only(&vectors, &CONVERSIONS32));
    // A unit with binary64 too: binary32's fma and conversions round in
    // binary64's library.
    check("fpu32-in-64", Fpu::default(), &vectors);
    // An adder (the atomic unit's): its own narrower library.
    check("fpu32-adder", Fpu::new(ADDER_OPS), &only(&vectors, &ADDER_OPS));
}

#[test]
fn binary64_verilog_is_bit_exact_with_the_golden_semantics() {
    let mut rng = fastrand::Rng::with_seed(64);
    let mut vectors = vec![];
    let ops = [Opcode::Dadd, Opcode::Dsub, Opcode::Dmul, Opcode::Dfma, Opcode::Drnd, Opcode::D2f];
    for op in ops {
        for rnd in 0..4u32 {
            for _ in 0..N {
                let (a, b, c) = operands64(&mut rng, op);
                let a = match (op, rng.u8(0..4)) {
                    (Opcode::Drnd, 0) => (f64::from_bits(a).trunc() + [0.5, -0.5, 0.25, 0.75][rng.usize(..4)]).to_bits(),
                    _ => a,
                };
                // d2f's .ftz and .sat.
                let extra = if op == Opcode::D2f { ((rng.u8(0..4) == 0) as u32) << 2 | ((rng.u8(0..4) == 0) as u32) << 3 } else { 0 };
                vectors.push(vector(op, rnd | extra, 0, a, b, c));
            }
        }
    }
    for op in [Opcode::D2i, Opcode::I2d] {
        for rnd in 0..4u32 {
            for _ in 0..N {
                let ty = rng.u32(0..4);
                let a = match (op, rng.u8(0..4)) {
                    (Opcode::I2d, 0) => {
                        let bits = rng.u32(1..64);
                        rng.u64(..1 << bits)
                    }
                    (Opcode::I2d, _) => rng.u64(..),
                    (_, 1) => (f64::from_bits(value64(&mut rng)).trunc() + [0.5, -0.5, 0.25, 0.75][rng.usize(..4)]).to_bits(),
                    (_, 2) => [
                        0x41e0_0000_0000_0000u64,
                        0xc1e0_0000_0000_0000,
                        0x41f0_0000_0000_0000,
                        0x41df_ffff_ffc0_0000,
                        0x43e0_0000_0000_0000,
                        0xc3e0_0000_0000_0000,
                        0x43f0_0000_0000_0000,
                        0x43ef_ffff_ffff_ffff,
                        0xc3e0_0000_0000_0001,
                    ][rng.usize(..9)],
                    _ => value64(&mut rng),
                };
                vectors.push(vector(op, rnd | ty << 4, 0, a, 0, 0));
            }
        }
    }
    for op in [Opcode::Dmin, Opcode::Dmax, Opcode::Dsetp, Opcode::F2d] {
        for _ in 0..N {
            let (a, b, _) = operands64(&mut rng, op);
            let b = if rng.u8(0..8) == 0 { a } else { b };
            let (a, modv) = match op {
                Opcode::Dsetp => (a, rng.u32(0..14)),
                Opcode::F2d => (value(&mut rng) as u64, rng.u32(0..2) << 2),
                _ => (a, 0),
            };
            vectors.push(vector(op, modv, 0, a, b, 0));
        }
    }
    // The shared binary64 unit of `default`.
    check("fpu64", Fpu::new(shared_ops(SmConfig::default_config().units())), &vectors);
    check("fpu64-adder", Fpu::new(ADDER_OPS), &only(&vectors, &ADDER_OPS));
}

/// The rounding request port (what the division and the SFU use): `rounded` against
/// [`round_scaled`] for random magnitudes of every width up to 64 bits,
/// exponents that put the result anywhere from below the smallest
/// subnormal to past overflow, both signs, every mode, all three formats,
/// with an unrelated instruction on the unit's other inputs; on the shared
/// units of `default` (binary64's library) and of a binary32-only SM.
#[test]
fn rounding_requests_round_once_like_the_golden_semantics() {
    let mut rng = fastrand::Rng::with_seed(58);
    let mut vectors: Vec<Vector> = vec![];
    let ops: Vec<Opcode> = shared_ops(SmConfig::default_config().units()).collect();
    for _ in 0..N * 3 {
        let bits = rng.u32(1..=RQ_MAG as u32);
        let mag = (1u64 << (bits - 1)) | rng.u64(..1u64 << (bits - 1));
        // The format's range around the magnitude's leading bit: (emin, emax).
        let f = rng.u32(0..3);
        let (lo, hi) = [(-40, 20), (-170, 135), (-1100, 1030)][f as usize];
        let e = rng.i32(lo..hi) - bits as i32 + 1;
        let other = ops[rng.usize(..ops.len())];
        vectors.push(vec![
            1,
            rng.bool() as u128,
            mag as u128,
            (e as i16 as u16) as u128,
            rng.u128(0..4),
            f as u128,
            other as u128,
            rng.u64(..) as u128,
            rng.u64(..) as u128,
        ]);
    }
    let inputs: &[Port] =
        &[("rq_on", 1), ("rq_s", 1), ("rq_mag", RQ_MAG), ("rq_e", 16), ("rq_rm", 2), ("rq_f", 2), ("op", 7), ("a", 64), ("b", 64)];
    let mut fp32 = SmConfig::default_config();
    fp32.fp64 = false;
    for (name, mut fpu) in
        [("rq-default", Fpu::new(ops.iter().copied()).with_requests()), ("rq-fp32", Fpu::new(shared_ops(fp32.units())).with_requests())]
    {
        fpu.connect_all();
        let verilog = verilog_of(&fpu);
        let hw = run_verilator(name, &verilog, inputs, &[("rounded", 64)], false, &vectors).unwrap();
        let mut bad = 0;
        for (i, (v, h)) in vectors.iter().zip(&hw).enumerate() {
            let want = round_scaled(v[1] == 1, v[2] as u64, v[3] as u16 as i16, Rnd::from_bits(v[4] as u32), v[5] as u32);
            if want as u128 != h[0] {
                bad += 1;
                if bad <= 20 {
                    eprintln!("{name}: request {v:x?}: golden {want:#x} verilog {:#x}", h[0]);
                }
            }
            if i % 97 == 0 {
                fpu.rq_on.next = true;
                fpu.rq_s.next = v[1] == 1;
                fpu.rq_mag.next = (v[2] as u64).into();
                fpu.rq_e.next = (v[3] as u64).into();
                fpu.rq_rm.next = (v[4] as u64).into();
                fpu.rq_f.next = (v[5] as u64).into();
                assert!(settle(&mut fpu));
                assert_eq!(fpu.rounded.val().to_u64(), want);
            }
        }
        assert_eq!(bad, 0, "{name}: {bad} of {} requests differ", vectors.len());
    }
}

/// The division and square root as the SM builds them: rounding on the
/// shared FP unit (`sm/lanes.rs` wires them the same way).
#[derive(LogicBlock)]
struct Division {
    clock: Signal<In, Clock>,
    start: Signal<In, Bit>,
    op: Signal<In, Bits<7>>,
    modv: Signal<In, Bits<6>>,
    a: Signal<In, Bits<64>>,
    b: Signal<In, Bits<64>>,
    done: Signal<Out, Bit>,
    d: Signal<Out, Bits<64>>,
    fds: FpDivSqrt,
    fpu: Fpu,
}

impl Logic for Division {
    #[hdl_gen]
    fn update(&mut self) {
        self.fds.clock.next = self.clock.val();
        self.fds.start.next = self.start.val();
        self.fds.op.next = self.op.val();
        self.fds.modv.next = self.modv.val();
        self.fds.a.next = self.a.val();
        self.fds.b.next = self.b.val();
        self.fpu.op.next = 0.into();
        self.fpu.modv.next = 0.into();
        self.fpu.ext0.next = false;
        self.fpu.a.next = 0.into();
        self.fpu.b.next = 0.into();
        self.fpu.c.next = 0.into();
        self.fpu.rq_on.next = self.fds.rq_on.val();
        self.fpu.rq_s.next = self.fds.rq_s.val();
        self.fpu.rq_mag.next = self.fds.rq_mag.val();
        self.fpu.rq_e.next = self.fds.rq_e.val();
        self.fpu.rq_rm.next = self.fds.rq_rm.val();
        self.fpu.rq_f.next = self.fds.rq_f.val();
        self.fds.rounded.next = self.fpu.rounded.val();
        self.done.next = self.fds.done.val();
        self.d.next = self.fds.d.val();
    }
}

/// One clock cycle under rust-hdl: a rising edge, then the falling one.
fn tick(u: &mut Division) {
    u.clock.next = true.into();
    settle(u);
    u.clock.next = false.into();
    settle(u);
}

/// The iterative division and square root (`FpDivSqrt`, rounding on the
/// shared FP unit) under rust-hdl and under Verilator, cycle by cycle: each operation starts, then runs to
/// `done` with other operands on the (ignored) inputs, `done` and `d`
/// compared before every edge (so the latency too), the rust-hdl model
/// being the golden semantics. 6,000 operations per opcode and rounding
/// mode (`.ftz` on a quarter of the binary32 ones), a third with exact
/// quotients or squares, special values and subnormals mixed in; one start
/// in eight comes before the previous one is done, and restarts it.
#[test]
fn division_and_square_root_match_the_golden_semantics_cycle_by_cycle() {
    let mut rng = fastrand::Rng::with_seed(29);
    // start, op, modv, a, b.
    let mut vectors: Vec<Vector> = vec![];
    for op in FpDivSqrt::OPS {
        for rnd in 0..4u32 {
            for _ in 0..6000 {
                let (a, b, ftz) = if matches!(op, Opcode::Fdiv | Opcode::Fsqrt) {
                    let (a, b, c) = operands(&mut rng, op);
                    let a = match (op, rng.u8(0..3)) {
                        (Opcode::Fdiv, 0) => (f32::from_bits(b) * f32::from_bits(c)).to_bits(),
                        (Opcode::Fsqrt, 0) => (f32::from_bits(b) * f32::from_bits(b)).to_bits(),
                        _ => a,
                    };
                    (a as u64, b as u64, (rng.u8(0..4) == 0) as u32)
                } else {
                    let (a, b, _) = operands64(&mut rng, op);
                    (a, b, 0)
                };
                vectors.push(vec![1, op as u128, (rnd | ftz << 2) as u128, a as u128, b as u128]);
                let run = if rng.u8(0..8) == 0 { rng.u32(1..20) } else { FpDivSqrt::latency(op as u8) + rng.u32(0..3) };
                for _ in 0..run {
                    let other = FpDivSqrt::OPS[rng.usize(..4)];
                    vectors.push(vec![0, other as u128, rng.u128(0..64), rng.u64(..) as u128, rng.u64(..) as u128]);
                }
            }
        }
    }
    let inputs: &[Port] = &[("start", 1), ("op", 7), ("modv", 6), ("a", 64), ("b", 64)];
    let mut u = Division {
        clock: Default::default(),
        start: Default::default(),
        op: Default::default(),
        modv: Default::default(),
        a: Default::default(),
        b: Default::default(),
        done: Default::default(),
        d: Default::default(),
        fds: Default::default(),
        fpu: Fpu::new(shared_ops(SmConfig::default_config().units())).with_requests(),
    };
    u.connect_all();
    let verilog = verilog_of(&u);
    lint("fdivsqrt", &verilog).unwrap();
    let hw = run_verilator("fdivsqrt", &verilog, inputs, &[("done", 1), ("d", 64)], true, &vectors).unwrap();
    let mut bad = 0;
    for (i, (v, h)) in vectors.iter().zip(&hw).enumerate() {
        u.start.next = v[0] == 1;
        u.op.next = (v[1] as u64).into();
        u.modv.next = (v[2] as u64).into();
        u.a.next = (v[3] as u64).into();
        u.b.next = (v[4] as u64).into();
        assert!(settle(&mut u));
        let sim = [u.done.val() as u128, u.d.val().to_u64() as u128];
        if sim[..] != h[..] {
            bad += 1;
            if bad < 20 {
                eprintln!("vector {i} {v:x?}: golden {sim:x?} verilog {h:x?}");
            }
        }
        tick(&mut u);
    }
    assert_eq!(bad, 0, "{bad} of {} vectors differ", vectors.len());
    assert!(hw.iter().filter(|h| h[0] == 1).count() > 80_000, "operations complete");
}
