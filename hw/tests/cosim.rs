//! Custom blocks under rust-hdl and under Verilator, compared vector by
//! vector (see `heddle_hw::cosim`).

use heddle_hw::alu::{ops, word_model, IntAlu, BIT_OPS};
use heddle_hw::bits::{Gather, Popc64};
use heddle_hw::config::Units;
use heddle_hw::cosim::{run_verilator, settle, Port};
use heddle_hw::decode::DecodeRom;
use heddle_hw::ram::{BankRam, SyncRam};
use heddle_hw::verilog::verilog_of;
use rust_hdl::prelude::*;

const CORNERS: &[u64] = &[
    0,
    1,
    2,
    31,
    32,
    33,
    63,
    64,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0xffff_fffe,
    0x1f08,
    0x0820,
    0x2010,
    0xff00,
    0x8000_0000_0000_0000,
    0xffff_ffff_ffff_ffff,
];

/// One clock cycle of a clocked block under rust-hdl: a rising edge, then
/// the falling one, each settled.
fn tick<B: Block>(b: &mut B, clock: impl Fn(&mut B) -> &mut Signal<In, Clock>) {
    clock(b).next = true.into();
    settle(b);
    clock(b).next = false.into();
    settle(b);
}

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
    // The dividers' opcodes are the `Divider`'s (below), not the ALU's.
    for op in ops().filter(|o| !heddle_hw::alu::DIV_OPS.contains(o)) {
        let wide = matches!(
            op,
            heddle_isa::Opcode::Isetp64
                | heddle_isa::Opcode::Shl64
                | heddle_isa::Opcode::Shr64
                | heddle_isa::Opcode::Mul64
                | heddle_isa::Opcode::Div64
                | heddle_isa::Opcode::Rem64
        );
        for _ in 0..3000 {
            let modv = rng.u64(0..64);
            vectors.push(vec![
                op as u64,
                modv,
                operand(&mut rng, wide),
                operand(&mut rng, wide),
                operand(&mut rng, false),
                rng.u64(0..2),
                rng.u64(0..2),
                // The word of a 64-bit result (32-bit operations ignore it).
                rng.u64(0..2),
            ]);
        }
    }
    // Every opcode on each build: the whole ALU, a lane's (without the bit
    // group: those give 0) and the SM's bit unit (only those).
    let bits = |op: u8| BIT_OPS.iter().any(|&o| o as u8 == op);
    check_alu("int_alu", IntAlu::new(true, true), &vectors, &|_| true);
    check_alu("int_alu_lane", IntAlu::lane(true, true), &vectors, &|op| !bits(op));
    check_alu("int_alu_bits", IntAlu::bit_unit(), &vectors, &bits);
    // A lane without the 64-bit multiplier and shifters (the presets'): its
    // 32 x 32 product is one signed 33 x 33 multiply. Their opcodes never
    // reach it (they trap as not implemented).
    let wide_units = [heddle_isa::Opcode::Mul64 as u64, heddle_isa::Opcode::Shl64 as u64, heddle_isa::Opcode::Shr64 as u64];
    let lane32: Vec<Vec<u64>> = vectors.iter().filter(|v| !wide_units.contains(&v[0])).cloned().collect();
    check_alu("int_alu_lane32", IntAlu::lane(false, false), &lane32, &|op| !bits(op));
}

/// The ALU's rust-hdl model and its Verilog under Verilator against the
/// ISA's semantics for the opcodes it is `built` for, and 0 for the others.
fn check_alu(name: &str, mut alu: IntAlu, vectors: &[Vec<u64>], built: &dyn Fn(u8) -> bool) {
    let inputs: &[Port] = &[("op", 7), ("modv", 6), ("a", 64), ("b", 64), ("c", 32), ("cin", 1), ("pin", 1), ("half", 1)];
    let outputs: &[Port] = &[("d", 32), ("cout", 1), ("cc_we", 1), ("pout", 1)];
    alu.connect_all();
    let verilog = verilog_of(&alu);
    heddle_hw::verilog::lint(name, &verilog).unwrap();
    let v128: Vec<Vec<u128>> = vectors.iter().map(|v| v.iter().map(|&x| x as u128).collect()).collect();
    let hw = run_verilator(name, &verilog, inputs, outputs, false, &v128).unwrap();
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
        alu.half.next = v[7] == 1;
        assert!(settle(&mut alu));
        let sim = [alu.d.val().to_u64() as u128, alu.cout.val() as u128, alu.cc_we.val() as u128, alu.pout.val() as u128];
        let (d, cout, cc_we, pout) = if built(v[0] as u8) {
            word_model(v[0] as u8, v[1] as u32, v[2], v[3], v[4], v[5] == 1, v[6] == 1, v[7] == 1)
        } else {
            (0, false, false, false)
        };
        let want = [d as u128, cout as u128, cc_we as u128, pout as u128];
        if sim[..] != h[..] || sim != want {
            bad += 1;
            if bad < 20 {
                let op = heddle_isa::Opcode::from_code(v[0] as u8).unwrap();
                eprintln!(
                    "{op:?} mod {:#x} a {:#x} b {:#x} c {:#x} cin {} pin {} half {}: rust-hdl {sim:x?} verilog {h:x?} model {want:x?}",
                    v[1], v[2], v[3], v[4], v[5], v[6], v[7]
                );
            }
        }
    }
    assert_eq!(bad, 0, "{name}: {bad} of {} vectors differ", vectors.len());
}

/// Random reads and writes (some beyond the depth) of a `SyncRam`, read
/// before each clock edge, against its Verilog under Verilator: whole
/// words, and words kept to their low 20 bits (`SyncRam::keep`).
#[test]
fn sync_ram_verilog_matches_its_model() {
    check_sync_ram("sync_ram", SyncRam::<32>::new(37));
    check_sync_ram("sync_ram_keep", SyncRam::<32>::new(37).keep(20));
}

fn check_sync_ram(name: &str, mut ram: SyncRam<32>) {
    let mut rng = fastrand::Rng::with_seed(9);
    ram.connect_all();
    let verilog = verilog_of(&ram);
    heddle_hw::verilog::lint(name, &verilog).unwrap();
    // raddr, waddr, wdata, we.
    let vectors: Vec<Vec<u128>> = (0..4000).map(|_| vec![rng.u128(0..40), rng.u128(0..40), rng.u32(..) as u128, rng.u128(0..2)]).collect();
    let inputs: &[Port] = &[("raddr", 16), ("waddr", 16), ("wdata", 32), ("we", 1)];
    let hw = run_verilator(name, &verilog, inputs, &[("rdata", 32)], true, &vectors).unwrap();
    for (i, (v, h)) in vectors.iter().zip(&hw).enumerate() {
        ram.raddr.next = (v[0] as u64).into();
        ram.waddr.next = (v[1] as u64).into();
        ram.wdata.next = (v[2] as u64).into();
        ram.we.next = v[3] == 1;
        assert!(settle(&mut ram));
        assert_eq!(ram.rdata.val().to_u64() as u128, h[0], "{name}, vector {i}: {v:x?}");
        tick(&mut ram, |b| &mut b.clock);
    }
}

/// Random byte-enabled writes and reads (some beyond the depth) of a
/// shared-memory bank against its Verilog under Verilator: the word at the
/// address of the last edge, as written.
#[test]
fn bank_ram_verilog_matches_its_model() {
    let mut rng = fastrand::Rng::with_seed(10);
    let mut ram = BankRam::new(37);
    ram.connect_all();
    let verilog = verilog_of(&ram);
    heddle_hw::verilog::lint("bank_ram", &verilog).unwrap();
    // addr, wdata, we, be.
    let vectors: Vec<Vec<u128>> = (0..4000).map(|_| vec![rng.u128(0..40), rng.u32(..) as u128, rng.u128(0..2), rng.u128(0..16)]).collect();
    let inputs: &[Port] = &[("addr", 16), ("wdata", 32), ("we", 1), ("be", 4)];
    let hw = run_verilator("bank_ram", &verilog, inputs, &[("rdata", 32)], true, &vectors).unwrap();
    for (i, (v, h)) in vectors.iter().zip(&hw).enumerate() {
        ram.addr.next = (v[0] as u64).into();
        ram.wdata.next = (v[1] as u64).into();
        ram.we.next = v[2] == 1;
        ram.be.next = (v[3] as u64).into();
        assert!(settle(&mut ram));
        assert_eq!(ram.rdata.val().to_u64() as u128, h[0], "vector {i}: {v:x?}");
        tick(&mut ram, |b| &mut b.clock);
    }
}

#[test]
fn decode_rom_verilog_matches_its_model() {
    let mut rom = DecodeRom::new(Units::ALL);
    rom.connect_all();
    let verilog = verilog_of(&rom);
    heddle_hw::verilog::lint("decode_rom", &verilog).unwrap();
    let vectors: Vec<Vec<u128>> = (0..128).map(|op| vec![op]).collect();
    let hw = run_verilator("decode_rom", &verilog, &[("op", 7)], &[("word", heddle_hw::decode::WORD_BITS)], false, &vectors).unwrap();
    for (v, h) in vectors.iter().zip(&hw) {
        rom.op.next = (v[0] as u64).into();
        assert!(settle(&mut rom));
        assert_eq!(rom.word.val().to_u64() as u128, h[0], "opcode {:#x}", v[0]);
    }
}

#[test]
fn popc_and_gather_verilog_match_their_models() {
    let mut rng = fastrand::Rng::with_seed(11);
    let mut popc = Popc64::default();
    popc.connect_all();
    let verilog = verilog_of(&popc);
    heddle_hw::verilog::lint("popc64", &verilog).unwrap();
    let vectors: Vec<Vec<u128>> = (0..2000).map(|i| vec![if i < 2 { [0, u64::MAX][i] as u128 } else { rng.u64(..) as u128 }]).collect();
    let hw = run_verilator("popc64", &verilog, &[("x", 64)], &[("n", 8)], false, &vectors).unwrap();
    for (v, h) in vectors.iter().zip(&hw) {
        popc.x.next = (v[0] as u64).into();
        assert!(settle(&mut popc));
        assert_eq!(popc.n.val().to_u64() as u128, h[0]);
    }
    for lanes in [4usize, 8] {
        let mut g = Gather::new(lanes);
        g.connect_all();
        let verilog = verilog_of(&g);
        heddle_hw::verilog::lint("gather", &verilog).unwrap();
        let mut inputs: Vec<(&'static str, usize)> = vec![("base", 8)];
        let names: Vec<&'static str> = (0..lanes).map(|l| &*Box::leak(format!("bits${l}").into_boxed_str())).collect();
        inputs.extend(names.iter().map(|n| (*n, 1)));
        let vectors: Vec<Vec<u128>> =
            (0..1000).map(|_| std::iter::once(rng.u128(0..70)).chain((0..lanes).map(|_| rng.u128(0..2))).collect()).collect();
        let hw = run_verilator("gather", &verilog, &inputs, &[("placed", 64)], false, &vectors).unwrap();
        for (v, h) in vectors.iter().zip(&hw) {
            g.base.next = (v[0] as u64).into();
            for l in 0..lanes {
                g.bits[l].next = v[1 + l] == 1;
            }
            assert!(settle(&mut g));
            assert_eq!(g.placed.val().to_u64() as u128, h[0], "{v:?}");
        }
    }
}

/// The iterative divider under rust-hdl and under Verilator, cycle by
/// cycle: each operation starts, then runs to `done` with other operands
/// on the (ignored) inputs, `done` and `d` compared before every edge (so
/// the latency too); one start in eight comes before the previous one is
/// done, and restarts it. Every division opcode, signed and unsigned
/// (random `modv`), corner operands and zero divisors included.
#[test]
fn divider_verilog_matches_its_model() {
    use heddle_hw::div::Divider;
    use heddle_isa::Opcode;
    let mut rng = fastrand::Rng::with_seed(12);
    let ops = [Opcode::Div, Opcode::Rem, Opcode::Div64, Opcode::Rem64];
    // start, op, modv, a, b.
    let mut vectors: Vec<Vec<u128>> = vec![];
    for _ in 0..1200 {
        let op = ops[rng.usize(..ops.len())];
        let wide = matches!(op, Opcode::Div64 | Opcode::Rem64);
        let b = if rng.u8(0..8) == 0 { 0 } else { operand(&mut rng, wide) };
        vectors.push(vec![1, op as u128, rng.u128(0..64), operand(&mut rng, wide) as u128, b as u128]);
        let run = if rng.u8(0..8) == 0 { rng.u32(1..30) } else { Divider::latency(op as u8) + rng.u32(0..3) };
        for _ in 0..run {
            vectors.push(vec![0, ops[rng.usize(..4)] as u128, rng.u128(0..64), rng.u64(..) as u128, rng.u64(..) as u128]);
        }
    }
    let inputs: &[Port] = &[("start", 1), ("op", 7), ("modv", 6), ("a", 64), ("b", 64)];
    let mut div = Divider::default();
    div.connect_all();
    let verilog = verilog_of(&div);
    heddle_hw::verilog::lint("divider", &verilog).unwrap();
    let hw = run_verilator("divider", &verilog, inputs, &[("done", 1), ("d", 64)], true, &vectors).unwrap();
    let mut bad = 0;
    for (i, (v, h)) in vectors.iter().zip(&hw).enumerate() {
        div.start.next = v[0] == 1;
        div.op.next = (v[1] as u64).into();
        div.modv.next = (v[2] as u64).into();
        div.a.next = (v[3] as u64).into();
        div.b.next = (v[4] as u64).into();
        assert!(settle(&mut div));
        let sim = [div.done.val() as u128, div.d.val().to_u64() as u128];
        if sim[..] != h[..] {
            bad += 1;
            if bad < 20 {
                eprintln!("vector {i} {v:x?}: rust-hdl {sim:x?} verilog {h:x?}");
            }
        }
        tick(&mut div, |b| &mut b.clock);
    }
    assert_eq!(bad, 0, "{bad} of {} vectors differ", vectors.len());
    // The model's results are the ISA's: spot-check the rules on the hardware's answers.
    assert!(hw.iter().any(|h| h[0] == 1), "some operation completes");
}
