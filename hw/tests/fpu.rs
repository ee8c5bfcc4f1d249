//! The FP32 unit's Verilog against the golden model's semantics
//! (`heddle_isa::scalar::fp`), under Verilator: 1e5 operand sets per
//! operation and rounding mode for add, subtract, multiply, fused
//! multiply-add, round-to-integral and the 32-bit conversions (with `.ftz` and `.sat` on a quarter of them each), and 1e5
//! each for min, max and compare; special values (signed zeros, infinities,
//! NaNs with payloads, subnormals, the largest finite value, values near 1)
//! and cancelling operands are mixed in.

use heddle_hw::cosim::{run_verilator, settle, Port};
use heddle_hw::fpu::{model, Fpu};
use heddle_hw::verilog::{lint, verilog_of};
use heddle_isa::Opcode;
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
            // Exponent gaps around the 80-place window edge.
            let e = rng.u32(1..254);
            (a, b, (c & 0x807f_ffff) | e << 23)
        }
        _ => (a, b, c),
    }
}

#[test]
fn fpu_verilog_is_bit_exact_with_the_golden_semantics() {
    let mut rng = fastrand::Rng::with_seed(17);
    let mut vectors: Vec<Vec<u128>> = vec![];
    for op in [Opcode::Fadd, Opcode::Fsub, Opcode::Fmul, Opcode::Ffma] {
        for rnd in 0..4u32 {
            for _ in 0..100_000 {
                let (a, b, c) = operands(&mut rng, op);
                let ftz = (rng.u8(0..4) == 0) as u32;
                let sat = (rng.u8(0..4) == 0) as u32;
                vectors.push(vec![op as u128, (rnd | ftz << 2 | sat << 3) as u128, 0, a as u128, b as u128, c as u128]);
            }
        }
    }
    for op in [Opcode::Frnd, Opcode::F2i, Opcode::I2f] {
        for rnd in 0..4u32 {
            for _ in 0..100_000 {
                let (a, _, _) = operands(&mut rng, op);
                // Integers of every magnitude for i2f; floats near integers and the s32/u32 limits for f2i.
                let a = match (op, rng.u8(0..4)) {
                    (Opcode::I2f, 0) => {
                        let bits = rng.u32(1..32);
                        rng.u32(..1 << bits)
                    }
                    (_, 1) => (f32::from_bits(a).trunc() + [0.5, -0.5, 0.25, 0.75][rng.usize(..4)]).to_bits(),
                    (Opcode::F2i, 2) => [0x4f00_0000u32, 0xcf00_0000, 0x4f80_0000, 0x4effffff, 0xcf000001, 0x4f7fffff][rng.usize(..6)],
                    _ => a,
                };
                let ftz = if op == Opcode::I2f { 0 } else { (rng.u8(0..4) == 0) as u32 };
                let ty = rng.u32(0..2); // u32, s32
                vectors.push(vec![op as u128, (rnd | ftz << 2 | ty << 4) as u128, 0, a as u128, 0, 0]);
            }
        }
    }
    for op in [Opcode::Fmin, Opcode::Fmax, Opcode::Fsetp] {
        for _ in 0..100_000 {
            let (a, b, _) = operands(&mut rng, op);
            let b = if rng.u8(0..8) == 0 { a } else { b };
            let modv = if op == Opcode::Fsetp { rng.u32(0..14) | rng.u32(0..4) << 4 } else { rng.u32(0..2) << 2 };
            vectors.push(vec![op as u128, modv as u128, rng.u128(0..2), a as u128, b as u128, 0]);
        }
    }
    let mut fpu = Fpu::default();
    fpu.connect_all();
    let verilog = verilog_of(&fpu);
    lint("fpu", &verilog).unwrap();
    let inputs: &[Port] = &[("op", 7), ("modv", 6), ("ext0", 1), ("a", 32), ("b", 32), ("c", 32)];
    let hw = run_verilator("fpu", &verilog, inputs, &[("d", 64), ("pout", 1)], false, &vectors).unwrap();
    assert_eq!(hw.len(), vectors.len());
    let mut bad = 0;
    for (i, (v, h)) in vectors.iter().zip(&hw).enumerate() {
        let want = model(v[0] as u8, v[1] as u32, v[2] == 1, v[3] as u32, v[4] as u32, v[5] as u32);
        if (want.0 as u128, want.1 as u128) != (h[0], h[1]) {
            bad += 1;
            if bad <= 20 {
                let op = Opcode::from_code(v[0] as u8).unwrap();
                eprintln!(
                    "{op:?} mod {:#x} ext {} a {:#010x} b {:#010x} c {:#010x}: golden {:#010x}/{} verilog {:#010x}/{}",
                    v[1], v[2], v[3], v[4], v[5], want.0, want.1 as u8, h[0], h[1]
                );
            }
        }
        // The rust-hdl block itself, on a sample.
        if i % 97 == 0 {
            fpu.op.next = (v[0] as u64).into();
            fpu.modv.next = (v[1] as u64).into();
            fpu.ext0.next = v[2] == 1;
            fpu.a.next = (v[3] as u64).into();
            fpu.b.next = (v[4] as u64).into();
            fpu.c.next = (v[5] as u64).into();
            assert!(settle(&mut fpu));
            assert_eq!((fpu.d.val().to_u64() as u32, fpu.pout.val()), want);
        }
    }
    assert_eq!(bad, 0, "{bad} of {} vectors differ", vectors.len());
}
