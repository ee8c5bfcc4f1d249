//! Test bench: the reconvergence-stack unit (`heddle_hw::stack`) against the
//! golden model's `Warp` on long random command sequences, several warps
//! interleaved, overflow included.

use heddle_hw::stack::*;
use heddle_sim::warp::{Entry, Warp};
use rust_hdl::prelude::*;

struct Bench {
    uut: ReconvStack,
    cycles: u64,
}

impl Bench {
    fn new(warps: usize, depth: usize) -> Bench {
        let mut uut = ReconvStack::new(warps, depth, 64);
        uut.connect_all();
        simulate(&mut uut, 100);
        Bench { uut, cycles: 0 }
    }

    fn tick(&mut self) {
        self.uut.clock.next = true.into();
        assert!(simulate(&mut self.uut, 100), "did not settle");
        self.uut.clock.next = false.into();
        assert!(simulate(&mut self.uut, 100), "did not settle");
        self.cycles += 1;
    }

    /// Issue one command and clock until the unit is idle again.
    fn cmd(&mut self, warp: usize, cmd: u64, pc: u32, target: u32, rejoin: u32, mask: u64) {
        let u = &mut self.uut;
        u.warp.next = (warp as u64).into();
        u.cmd.next = cmd.into();
        u.pc.next = (pc as u64).into();
        u.target.next = (target as u64).into();
        u.rejoin.next = (rejoin as u64).into();
        u.mask.next = mask.into();
        u.start.next = true;
        simulate(u, 100);
        assert!(!u.busy.val());
        self.tick();
        self.uut.start.next = false;
        let mut n = 0;
        while self.uut.busy.val() {
            self.tick();
            n += 1;
            assert!(n < 1000, "command {cmd} never finished");
        }
    }

    /// The top entry and depth of `warp`, as the outputs show them.
    fn top(&mut self, warp: usize) -> (usize, Option<Entry>) {
        self.uut.warp.next = (warp as u64).into();
        simulate(&mut self.uut, 100);
        let u = &self.uut;
        let depth = u.depth_used.val().index();
        let top = (!u.empty.val()).then(|| Entry {
            pc: u.top_pc.val().to_u32(),
            rpc: u.top_rpc.val().to_u32(),
            mask: u.top_mask.val().to_u64(),
            call: u.top_call.val(),
        });
        (depth, top)
    }
}

fn check(b: &mut Bench, w: usize, g: &Warp, what: &str) {
    let (depth, top) = b.top(w);
    assert_eq!(depth, g.stack.len(), "{what}: depth of warp {w}");
    assert_eq!(top, g.stack.last().copied(), "{what}: top of warp {w}");
}

fn random_subset(rng: &mut fastrand::Rng, mask: u64) -> u64 {
    match rng.u8(0..4) {
        0 => 0,
        1 => mask,
        _ => mask & rng.u64(..),
    }
}

fn run(seed: u64, warps: usize, depth: usize, ops: usize) -> (u32, u32) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut b = Bench::new(warps, depth);
    let mut gold: Vec<Warp> = Vec::new();
    for w in 0..warps {
        let present = rng.u64(1..);
        gold.push(Warp::new(rng.u32(0..50), present));
        b.cmd(w, CMD_INIT, gold[w].stack[0].pc, 0, 0, present);
        check(&mut b, w, &gold[w], "init");
    }
    let (mut overflows, mut frameless) = (0, 0);
    for step in 0..ops {
        let w = rng.usize(..warps);
        let g = &mut gold[w];
        // TOP: pop finished entries.
        b.cmd(w, CMD_TOP, 0, 0, 0, 0);
        let top = g.top();
        check(&mut b, w, g, &format!("step {step} top"));
        let Some(top) = top else {
            let present = rng.u64(1..);
            *g = Warp::new(rng.u32(0..50), present);
            b.cmd(w, CMD_INIT, g.stack[0].pc, 0, 0, present);
            continue;
        };
        let pc = top.pc;
        let what = rng.u8(0..10);
        let overflow = match what {
            0..=3 => {
                let target = rng.u32(0..60);
                let rejoin = if rng.bool() { rng.u32(0..60) } else { pc + 1 };
                let taken = random_subset(&mut rng, top.mask);
                b.cmd(w, CMD_BRANCH, pc, target, rejoin, taken);
                g.branch(pc, target, rejoin, taken, depth).is_err()
            }
            4 | 5 => {
                let target = rng.u32(0..60);
                let lanes = if rng.bool() { top.mask } else { top.mask & rng.u64(..) | top.mask & top.mask.wrapping_neg() };
                b.cmd(w, CMD_SETPC, pc + 1, 0, 0, 0);
                b.cmd(w, CMD_PUSHCALL, 0, target, 0, lanes);
                g.call(pc + 1, &[(target, lanes)], depth).is_err()
            }
            6 => {
                let lanes = random_subset(&mut rng, top.mask);
                b.cmd(w, CMD_RET, 0, 0, 0, lanes);
                let had_frame = g.stack.iter().any(|e| e.call);
                g.ret(lanes);
                assert_eq!(b.uut.no_frame.val(), !had_frame, "step {step}: ret without a frame");
                frameless += !had_frame as u32;
                false
            }
            7 => {
                let lanes = random_subset(&mut rng, top.mask);
                b.cmd(w, CMD_EXIT, 0, 0, 0, lanes);
                g.exit(lanes);
                false
            }
            _ => {
                b.cmd(w, CMD_SETPC, pc + 1, 0, 0, 0);
                g.stack.last_mut().unwrap().pc = pc + 1;
                false
            }
        };
        assert_eq!(b.uut.overflow.val(), overflow, "step {step}: overflow flag (op {what})");
        check(&mut b, w, g, &format!("step {step} after op {what}"));
        if overflow {
            overflows += 1;
            let present = rng.u64(1..);
            *g = Warp::new(rng.u32(0..50), present);
            b.cmd(w, CMD_INIT, g.stack[0].pc, 0, 0, present);
        }
    }
    (overflows, frameless)
}

#[test]
fn matches_the_golden_stack_on_random_commands() {
    let (overflows, frameless) = run(1, 4, 8, 20_000);
    // The walk must reach the interesting cases, or the comparison proves little.
    assert!(overflows > 10, "only {overflows} overflows exercised");
    assert!(frameless > 10, "only {frameless} frameless rets exercised");
}

#[test]
fn overflow_at_the_configured_depth_not_the_storage_size() {
    // depth 5 is stored in 8 slots: the sixth entry must still overflow.
    let mut b = Bench::new(1, 5);
    let mut g = Warp::new(0, 0b11);
    b.cmd(0, CMD_INIT, 0, 0, 0, 0b11);
    for i in 0..4 {
        b.cmd(0, CMD_SETPC, 0, 0, 0, 0);
        b.cmd(0, CMD_PUSHCALL, 0, 10 * i, 0, 0b11);
        assert!(g.call(0, &[(10 * i, 0b11)], 5).is_ok());
        assert!(!b.uut.overflow.val());
    }
    // Five entries now fill depth 5 (stored in 8 slots): the next push overflows.
    b.cmd(0, CMD_SETPC, 0, 0, 0, 0);
    b.cmd(0, CMD_PUSHCALL, 0, 200, 0, 0b11);
    assert!(b.uut.overflow.val());
    assert!(g.call(0, &[(200, 0b11)], 5).is_err());
    check(&mut b, 0, &g, "after overflow");
}

#[test]
fn verilog_lints_clean() {
    let mut uut = ReconvStack::new(4, 8, 64);
    uut.connect_all();
    heddle_hw::verilog::lint("reconv_stack", &heddle_hw::verilog::verilog_of(&uut)).unwrap();
}
