//! The special-function unit's Verilog against the golden model's SFU
//! (`heddle_isa::scalar::sfu`), under Verilator, cycle by cycle: operands
//! per function (rcp, rsqrt, lg2, ex2, sin, cos, sqrt, tanh), `.ftz` on
//! half of them, drawn from every binade, the ROM segment edges, each function's
//! interesting range and the special values.

use heddle_hw::cosim::{run_verilator, settle, Port};
use heddle_hw::fpu::{shared_ops, Fpu};
use heddle_hw::sfu::Sfu;
use heddle_hw::verilog::{lint, verilog_of};
use heddle_hw::SmConfig;
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
    // Results at the smallest normal and just below it (rcp of just over
    // 2^126, ex2 near -126), where `.ftz` keeps or flushes.
    0x7e80_0001,
    0x7e80_0002,
    0xfe80_0003,
    0x7e7f_ffff,
    0xc2fc_0000,
    0xc2fc_0001,
    0xc2fb_ffff,
    0xc315_0000,
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

/// The SFU as the SM builds it: rounding on the shared FP unit
/// (`sm/lanes.rs` wires them the same way).
#[derive(LogicBlock)]
struct Special {
    clock: Signal<In, Clock>,
    start: Signal<In, Bit>,
    modv: Signal<In, Bits<6>>,
    a: Signal<In, Bits<32>>,
    done: Signal<Out, Bit>,
    d: Signal<Out, Bits<64>>,
    sfu: Sfu,
    fpu: Fpu,
}

impl Logic for Special {
    #[hdl_gen]
    fn update(&mut self) {
        self.sfu.clock.next = self.clock.val();
        self.sfu.start.next = self.start.val();
        self.sfu.modv.next = self.modv.val();
        self.sfu.a.next = self.a.val();
        self.fpu.op.next = 0.into();
        self.fpu.modv.next = 0.into();
        self.fpu.ext0.next = false;
        self.fpu.a.next = 0.into();
        self.fpu.b.next = 0.into();
        self.fpu.c.next = 0.into();
        self.fpu.rq_on.next = self.sfu.rq_on.val();
        self.fpu.rq_s.next = self.sfu.rq_s.val();
        self.fpu.rq_mag.next = self.sfu.rq_mag.val();
        self.fpu.rq_e.next = self.sfu.rq_e.val();
        self.fpu.rq_rm.next = self.sfu.rq_rm.val();
        self.fpu.rq_f.next = self.sfu.rq_f.val();
        self.sfu.rounded.next = self.fpu.rounded.val();
        self.done.next = self.sfu.done.val();
        self.d.next = self.sfu.d.val();
    }
}

/// One clock cycle under rust-hdl: a rising edge, then the falling one.
fn tick(u: &mut Special) {
    u.clock.next = true.into();
    settle(u);
    u.clock.next = false.into();
    settle(u);
}

/// The iterative SFU, rounding on the shared FP unit, under rust-hdl (the
/// golden model, delivered at its latency) and under Verilator, cycle by
/// cycle: each operation starts,
/// then runs to `done` with other operands on the (ignored) inputs, `done`
/// and `d` compared before every edge (so the latency too). 12,000
/// operations per function, `.ftz` on half; one start in eight comes before
/// the previous one is done, and restarts it.
#[test]
fn sfu_verilog_matches_the_golden_sfu_cycle_by_cycle() {
    let mut rng = fastrand::Rng::with_seed(23);
    // start, modv, a.
    let mut vectors: Vec<Vec<u128>> = vec![];
    for sfn in 0..8u32 {
        for _ in 0..12_000 {
            let ftz = rng.u32(0..2);
            vectors.push(vec![1, (ftz << 2 | sfn << 3) as u128, operand(&mut rng, sfn) as u128]);
            let run = if rng.u8(0..8) == 0 { rng.u32(1..20) } else { Sfu::latency(sfn) + rng.u32(0..3) };
            for _ in 0..run {
                vectors.push(vec![0, rng.u128(0..64), rng.u32(..) as u128]);
            }
        }
    }
    let mut sfu = Special {
        clock: Default::default(),
        start: Default::default(),
        modv: Default::default(),
        a: Default::default(),
        done: Default::default(),
        d: Default::default(),
        sfu: Default::default(),
        fpu: Fpu::new(shared_ops(SmConfig::default_config().units())).with_requests(),
    };
    sfu.connect_all();
    let verilog = verilog_of(&sfu);
    lint("sfu", &verilog).unwrap();
    let inputs: &[Port] = &[("start", 1), ("modv", 6), ("a", 32)];
    let hw = run_verilator("sfu", &verilog, inputs, &[("done", 1), ("d", 64)], true, &vectors).unwrap();
    assert_eq!(hw.len(), vectors.len());
    let mut bad = 0;
    for (i, (v, h)) in vectors.iter().zip(&hw).enumerate() {
        sfu.start.next = v[0] == 1;
        sfu.modv.next = (v[1] as u64).into();
        sfu.a.next = (v[2] as u64).into();
        assert!(settle(&mut sfu));
        let sim = [sfu.done.val() as u128, sfu.d.val().to_u64() as u128];
        if sim[..] != h[..] {
            bad += 1;
            if bad <= 20 {
                eprintln!("vector {i} {v:x?}: golden {sim:x?} verilog {h:x?}");
            }
        }
        tick(&mut sfu);
    }
    assert_eq!(bad, 0, "{bad} of {} vectors differ", vectors.len());
    assert!(hw.iter().filter(|h| h[0] == 1).count() > 80_000, "operations complete");
}
