//! Custom blocks under rust-hdl and under Verilator, compared vector by
//! vector (see `heddle_hw::cosim`).

use heddle_hw::alu::{IntAlu, OPS};
use heddle_hw::cosim::{run_verilator, settle, Port};
use heddle_hw::ram::Ram;
use heddle_hw::verilog::verilog_of;
use rust_hdl::prelude::*;

const CORNERS: &[u64] = &[0, 1, 2, 31, 32, 33, 63, 64, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0xffff_fffe, 0x1f08, 0x0820, 0x2010, 0xff00];

fn operand(rng: &mut fastrand::Rng, wide: bool) -> u64 {
    let v = match rng.u8(0..4) {
        0 => CORNERS[rng.usize(..CORNERS.len())],
        1 => rng.u64(0..80),
        2 => rng.u64(..) as u32 as u64 | if rng.bool() { 0xffff_ffff_0000_0000 } else { 0 },
        _ => rng.u64(..),
    };
    if wide {
        v
    } else {
        v & 0xffff_ffff
    }
}

#[test]
fn int_alu_verilog_matches_its_model() {
    let mut rng = fastrand::Rng::with_seed(5);
    let mut vectors = vec![];
    for &op in OPS {
        let wide = matches!(op, heddle_isa::Opcode::Isetp64 | heddle_isa::Opcode::Shl64 | heddle_isa::Opcode::Shr64 | heddle_isa::Opcode::Mul64);
        for _ in 0..3000 {
            let modv = rng.u64(0..64);
            vectors.push(vec![op as u64, modv, operand(&mut rng, wide), operand(&mut rng, wide), operand(&mut rng, false), rng.u64(0..2), rng.u64(0..2)]);
        }
    }
    let inputs: &[Port] = &[("op", 7), ("modv", 6), ("a", 64), ("b", 64), ("c", 32), ("cin", 1), ("pin", 1)];
    let outputs: &[Port] = &[("d", 64), ("cout", 1), ("cc_we", 1), ("pout", 1)];
    let mut alu = IntAlu::default();
    alu.connect_all();
    let verilog = verilog_of(&alu);
    heddle_hw::verilog::lint("int_alu", &verilog).unwrap();
    let v128: Vec<Vec<u128>> = vectors.iter().map(|v| v.iter().map(|&x| x as u128).collect()).collect();
    let hw = run_verilator("int_alu", &verilog, inputs, outputs, false, &v128).unwrap();
    assert_eq!(hw.len(), vectors.len());
    let mut bad = 0;
    for (v, h) in vectors.iter().zip(&hw) {
        alu.op.next = v[0].into();
        alu.modv.next = v[1].into();
        alu.a.next = v[2].into();
        alu.b.next = v[3].into();
        alu.c.next = v[4].into();
        alu.cin.next = v[5] == 1;
        alu.pin.next = v[6] == 1;
        assert!(settle(&mut alu));
        let sim = [alu.d.val().to_u64() as u128, alu.cout.val() as u128, alu.cc_we.val() as u128, alu.pout.val() as u128];
        if sim[..] != h[..] {
            bad += 1;
            if bad < 20 {
                let op = heddle_isa::Opcode::from_code(v[0] as u8).unwrap();
                eprintln!("{op:?} mod {:#x} a {:#x} b {:#x} c {:#x} cin {} pin {}: rust-hdl {sim:x?} verilog {h:x?}", v[1], v[2], v[3], v[4], v[5], v[6]);
            }
        }
    }
    assert_eq!(bad, 0, "{bad} of {} vectors differ", vectors.len());
}

#[test]
fn ram_verilog_matches_its_model() {
    let mut rng = fastrand::Rng::with_seed(9);
    let depth = 37;
    let mut ram = Ram::<32>::new(depth);
    ram.connect_all();
    let verilog = verilog_of(&ram);
    heddle_hw::verilog::lint("ram", &verilog).unwrap();
    // raddr, waddr (some beyond the depth), wdata, we.
    let vectors: Vec<Vec<u128>> = (0..4000).map(|_| vec![rng.u128(0..40), rng.u128(0..40), rng.u32(..) as u128, rng.u128(0..2)]).collect();
    let inputs: &[Port] = &[("raddr", 16), ("waddr", 16), ("wdata", 32), ("we", 1)];
    let hw = run_verilator("ram", &verilog, inputs, &[("rdata", 32)], true, &vectors).unwrap();
    for (i, (v, h)) in vectors.iter().zip(&hw).enumerate() {
        ram.raddr.next = (v[0] as u64).into();
        ram.waddr.next = (v[1] as u64).into();
        ram.wdata.next = (v[2] as u64).into();
        ram.we.next = v[3] == 1;
        assert!(settle(&mut ram));
        assert_eq!(ram.rdata.val().to_u64() as u128, h[0], "vector {i}: {v:x?}");
        ram.clock.next = true.into();
        settle(&mut ram);
        ram.clock.next = false.into();
        settle(&mut ram);
    }
}
