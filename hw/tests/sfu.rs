//! The special-function unit's Verilog against the golden model's SFU
//! (`heddle_isa::scalar::sfu`), under Verilator: 1e5 operands per function
//! (rcp, rsqrt, lg2, ex2, sin, cos, sqrt, tanh), `.ftz` on half of them,
//! drawn from every binade, the ROM segment edges, each function's
//! interesting range and the special values.

use heddle_hw::cosim::{run_verilator, settle, Port};
use heddle_hw::sfu::{model, Sfu};
use heddle_hw::verilog::{lint, verilog_of};
use rust_hdl::prelude::*;

const SPECIAL: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0xffc0_1234,
    0x0000_0001,
    0x8000_0001,
    0x007f_ffff,
    0x0080_0000,
    0x7f7f_ffff,
    0xff7f_ffff,
    0x3f80_0000,
    0xbf80_0000,
    0x3f7f_ffff,
    0x3f80_0001,
    0x4049_0fdb,
    0xc049_0fdb,
    0x3fc9_0fdb,
    0x4300_0000,
    0xc300_0000,
    0x42fe_0000,
    0xc316_0000,
    0x3980_0000,
    0x3900_0000,
    0x4100_0000,
    0x40ff_ffff,
    0x4000_0000,
    0x4080_0000,
];

fn operand(rng: &mut fastrand::Rng, sfn: u32) -> u32 {
    let s = rng.u32(0..2) << 31;
    match rng.u8(0..6) {
        0 => SPECIAL[rng.usize(..SPECIAL.len())],
        1 => rng.u32(..0x0080_0000) | s,
        // The function's interesting range: |x| < 2^e.
        2 => {
            let top = match sfn {
                3 => 0x4380_0000,     // ex2: |x| < 256
                4 | 5 => 0x4080_0000, // sin, cos: |x| < 4
                7 => 0x4180_0000,     // tanh: |x| < 16
                _ => 0x4000_0000,
            };
            rng.u32(0x3000_0000..top) | s
        }
        // Segment edges: few low fraction bits.
        3 => (rng.u32(..) & 0xfff8_0000) | s,
        _ => rng.u32(..),
    }
}

#[test]
fn sfu_verilog_is_bit_exact_with_the_golden_sfu() {
    let mut rng = fastrand::Rng::with_seed(23);
    let mut vectors: Vec<Vec<u128>> = vec![];
    for sfn in 0..8u32 {
        for _ in 0..100_000 {
            let ftz = rng.u32(0..2);
            vectors.push(vec![(ftz << 2 | sfn << 3) as u128, operand(&mut rng, sfn) as u128]);
        }
    }
    let mut sfu = Sfu::default();
    sfu.connect_all();
    let verilog = verilog_of(&sfu);
    lint("sfu", &verilog).unwrap();
    let inputs: &[Port] = &[("modv", 6), ("a", 32)];
    let hw = run_verilator("sfu", &verilog, inputs, &[("d", 64)], false, &vectors).unwrap();
    assert_eq!(hw.len(), vectors.len());
    let mut bad = 0;
    for (i, (v, h)) in vectors.iter().zip(&hw).enumerate() {
        let want = model(v[0] as u32, v[1] as u32);
        if want as u128 != h[0] {
            bad += 1;
            if bad <= 20 {
                eprintln!("mod {:#x} a {:#010x}: golden {want:#010x} verilog {:#010x}", v[0], v[1], h[0]);
            }
        }
        if i % 97 == 0 {
            sfu.modv.next = (v[0] as u64).into();
            sfu.a.next = (v[1] as u64).into();
            assert!(settle(&mut sfu));
            assert_eq!(sfu.d.val().to_u64(), want as u64);
        }
    }
    assert_eq!(bad, 0, "{bad} of {} vectors differ", vectors.len());
}
