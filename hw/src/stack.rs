//! The reconvergence stack unit: every warp's stack of (pc, rpc, mask, call)
//! entries, with the semantics of the golden model (`heddle_sim::warp`)
//! and `docs/isa.md` ("Divergence and reconvergence").
//!
//! Each warp's top entry and stack pointer are flip-flops, so the top of
//! the warp on the `warp` input is always on the `top_*` outputs (a
//! multiplexer, no memory read); `settled` is a flip-flop per warp written
//! with its top (`t_dead`). The entries below the top live in block
//! RAM (`warps` x `depth` rounded up to a power of two), read
//! synchronously: a push writes the old top into it, a pop reads the new
//! top out of it a cycle later. Commands (pulse `start` while `busy` is
//! low):
//!
//! | cmd | name      | operands             | cycles                      |
//! |-----|-----------|----------------------|-----------------------------|
//! | 0   | SETPC     | pc                   | 1                           |
//! | 1   | INIT      | pc, mask             | 1                           |
//! | 2   | TOP       |                      | 1 + 2 x entries popped      |
//! | 3   | BRANCH    | pc, target, rejoin, mask = taken lanes | 4 (5 when it pops the top and pushes nothing) |
//! | 4   | PUSHCALL  | target, mask         | 1                           |
//! | 5   | RET       | mask = lanes         | 1 + entries walked          |
//! | 6   | EXIT      | mask = lanes         | 1 + entries walked          |
//!
//! A push past `depth` entries is not written and raises `overflow` until
//! the next command. `no_frame` reports that a RET found no call frame and so
//! acted as EXIT (a kernel's `ret`).

use crate::ram::{SyncRam, ADDR_BITS};
use crate::reg::{Reg, Regs};
use heddle_isa::fields::RPC_NONE;
use rust_hdl::prelude::*;

pub const CMD_SETPC: u64 = 0;
pub const CMD_INIT: u64 = 1;
pub const CMD_TOP: u64 = 2;
pub const CMD_BRANCH: u64 = 3;
pub const CMD_PUSHCALL: u64 = 4;
pub const CMD_RET: u64 = 5;
pub const CMD_EXIT: u64 = 6;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum StackState {
    Idle,
    /// TOP: pop the top while it is finished.
    Pop,
    /// TOP: the entry below a popped top is read out: it becomes the top.
    Fill,
    Br0,
    Br1,
    Br2,
    /// BRANCH popped the top and pushed nothing: the entry below is read out.
    Refill,
    PushCall,
    /// RET/EXIT: the top entry.
    WalkTop,
    /// RET/EXIT: entry `walk`, read out of the RAM.
    Walk,
}

#[derive(LogicBlock)]
pub struct ReconvStack {
    pub clock: Signal<In, Clock>,
    pub start: Signal<In, Bit>,
    pub cmd: Signal<In, Bits<3>>,
    pub warp: Signal<In, Bits<6>>,
    pub pc: Signal<In, Bits<32>>,
    pub target: Signal<In, Bits<32>>,
    pub rejoin: Signal<In, Bits<32>>,
    pub mask: Signal<In, Bits<64>>,
    pub busy: Signal<Out, Bit>,
    pub empty: Signal<Out, Bit>,
    pub top_pc: Signal<Out, Bits<32>>,
    pub top_rpc: Signal<Out, Bits<32>>,
    pub top_mask: Signal<Out, Bits<64>>,
    pub top_call: Signal<Out, Bit>,
    pub overflow: Signal<Out, Bit>,
    pub no_frame: Signal<Out, Bit>,
    /// Entries of the warp on `warp`.
    pub depth_used: Signal<Out, Bits<8>>,
    /// Idle, and TOP would pop nothing for the warp on `warp`: its `top_*`
    /// outputs are already what TOP would leave.
    pub settled: Signal<Out, Bit>,
    state: Reg<StackState>,
    l_warp: Reg<Bits<6>>,
    l_pc: Reg<Bits<32>>,
    l_target: Reg<Bits<32>>,
    l_rejoin: Reg<Bits<32>>,
    l_mask: Reg<Bits<64>>,
    old_mask: Reg<Bits<64>>,
    walk: Reg<Bits<8>>,
    stop_at_call: Reg<Bit>,
    fault: Reg<Bit>,
    frameless: Reg<Bit>,
    /// BRANCH popped the top: the top flip-flops hold nothing until a push
    /// or a refill.
    stale: Reg<Bit>,
    /// Per warp: entries, and the top entry.
    sps: Regs<Bits<8>>,
    /// Per warp: its top is not live (TOP would pop), kept with the top
    /// and the entry count, so that `settled` is one flip-flop of the
    /// warp on `warp`, not a compare behind its top's multiplexer.
    t_dead: Regs<Bit>,
    t_pc: Regs<Bits<32>>,
    t_rpc: Regs<Bits<32>>,
    t_mask: Regs<Bits<64>>,
    t_call: Regs<Bit>,
    cur_warp: Signal<Local, Bits<6>>,
    base: Signal<Local, Bits<ADDR_BITS>>,
    sp: Signal<Local, Bits<8>>,
    /// The warp's top entry (its flip-flops).
    tp_pc: Signal<Local, Bits<32>>,
    tp_rpc: Signal<Local, Bits<32>>,
    tp_mask: Signal<Local, Bits<64>>,
    tp_call: Signal<Local, Bit>,
    /// Writes of this cycle to the warp's stack pointer and top entry.
    sp_we: Signal<Local, Bit>,
    sp_new: Signal<Local, Bits<8>>,
    top_we: Signal<Local, Bit>,
    new_pc: Signal<Local, Bits<32>>,
    new_rpc: Signal<Local, Bits<32>>,
    new_mask: Signal<Local, Bits<64>>,
    new_call: Signal<Local, Bit>,
    /// The entry on the RAMs' read port (read at the last edge).
    rd_pc: Signal<Local, Bits<32>>,
    rd_rpc: Signal<Local, Bits<32>>,
    rd_mask: Signal<Local, Bits<64>>,
    rd_call: Signal<Local, Bit>,
    /// The entry on the read port becomes the top (Fill, Refill).
    load_top: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    push_pc: Signal<Local, Bits<32>>,
    push_rpc: Signal<Local, Bits<32>>,
    push_mask: Signal<Local, Bits<64>>,
    push_call: Signal<Local, Bit>,
    top_live: Signal<Local, Bit>,
    /// The top has threads and has not reached its rejoin pc.
    top_runs: Signal<Local, Bit>,
    /// The warp's `t_dead` bit, and what it becomes with this cycle's writes.
    tp_dead: Signal<Local, Bit>,
    new_dead: Signal<Local, Bit>,
    /// The RAMs' read and write addresses.
    raddr: Signal<Local, Bits<ADDR_BITS>>,
    waddr: Signal<Local, Bits<ADDR_BITS>>,
    pcrpc: SyncRam<64>,
    emask: SyncRam<64>,
    ecall: SyncRam<1>,
    index: Vec<Constant<Bits<6>>>,
    depth: Constant<Bits<8>>,
    shift: Constant<Bits<ADDR_BITS>>,
    idx_mask: Constant<Bits<8>>,
    /// A mask of every thread of a warp: masks are stored this wide.
    full: Constant<Bits<64>>,
    rpc_none: Constant<Bits<32>>,
    /// Planted bugs ([`crate::plant`]): `StackWalkShort`, `StackOverflowLate`.
    plant: Constant<Bits<32>>,
    _warps: usize,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl ReconvStack {
    /// Stacks for `warps` warps of `warp_size` threads, at most `depth`
    /// entries each.
    pub fn new(warps: usize, depth: usize, warp_size: usize) -> ReconvStack {
        assert!((1..=64).contains(&warps) && (2..=128).contains(&depth) && (1..=64).contains(&warp_size));
        let slots = depth.next_power_of_two();
        let shift = slots.trailing_zeros() as u64;
        let entries = warps * slots;
        ReconvStack {
            _ran: Gate::default(),
            clock: Default::default(),
            start: Default::default(),
            cmd: Default::default(),
            warp: Default::default(),
            pc: Default::default(),
            target: Default::default(),
            rejoin: Default::default(),
            mask: Default::default(),
            busy: Default::default(),
            empty: Default::default(),
            top_pc: Default::default(),
            top_rpc: Default::default(),
            top_mask: Default::default(),
            top_call: Default::default(),
            overflow: Default::default(),
            no_frame: Default::default(),
            depth_used: Default::default(),
            settled: Default::default(),
            state: Default::default(),
            l_warp: Default::default(),
            l_pc: Default::default(),
            l_target: Default::default(),
            l_rejoin: Default::default(),
            l_mask: Default::default(),
            old_mask: Default::default(),
            walk: Default::default(),
            stop_at_call: Default::default(),
            fault: Default::default(),
            frameless: Default::default(),
            stale: Default::default(),
            sps: Regs::new(warps),
            t_dead: Regs::new(warps),
            t_pc: Regs::new(warps),
            t_rpc: Regs::new(warps),
            t_mask: Regs::new(warps),
            t_call: Regs::new(warps),
            cur_warp: Default::default(),
            base: Default::default(),
            sp: Default::default(),
            tp_pc: Default::default(),
            tp_rpc: Default::default(),
            tp_mask: Default::default(),
            tp_call: Default::default(),
            sp_we: Default::default(),
            sp_new: Default::default(),
            top_we: Default::default(),
            new_pc: Default::default(),
            new_rpc: Default::default(),
            new_mask: Default::default(),
            new_call: Default::default(),
            rd_pc: Default::default(),
            rd_rpc: Default::default(),
            rd_mask: Default::default(),
            rd_call: Default::default(),
            load_top: Default::default(),
            push: Default::default(),
            push_pc: Default::default(),
            push_rpc: Default::default(),
            push_mask: Default::default(),
            push_call: Default::default(),
            top_live: Default::default(),
            top_runs: Default::default(),
            tp_dead: Default::default(),
            new_dead: Default::default(),
            raddr: Default::default(),
            waddr: Default::default(),
            pcrpc: SyncRam::new(entries),
            emask: SyncRam::new(entries).keep(warp_size),
            ecall: SyncRam::new(entries),
            index: (0..warps as u64).map(|w| Constant::new(w.into())).collect(),
            depth: Constant::new((depth as u64).into()),
            shift: Constant::new(shift.into()),
            idx_mask: Constant::new((slots as u64 - 1).into()),
            full: Constant::new(crate::bits::ones(warp_size as u32).into()),
            rpc_none: Constant::new((RPC_NONE as u64).into()),
            plant: Constant::new(crate::plant::mask().into()),
            _warps: warps,
        }
    }
}

impl Logic for ReconvStack {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, l_warp, l_pc, l_target, l_rejoin, l_mask, old_mask, walk, stop_at_call, fault, frameless, stale);
        self.sps.clock.next = self.clock.val();
        self.t_dead.clock.next = self.clock.val();
        self.t_pc.clock.next = self.clock.val();
        self.t_rpc.clock.next = self.clock.val();
        self.t_mask.clock.next = self.clock.val();
        self.t_call.clock.next = self.clock.val();
        #[hdl_hold]
        self.sps.hold();
        #[hdl_hold]
        self.t_dead.hold();
        #[hdl_hold]
        self.t_pc.hold();
        #[hdl_hold]
        self.t_rpc.hold();
        #[hdl_hold]
        self.t_mask.hold();
        #[hdl_hold]
        self.t_call.hold();
        self.pcrpc.clock.next = self.clock.val();
        self.emask.clock.next = self.clock.val();
        self.ecall.clock.next = self.clock.val();

        // The warp being worked on: the input while idle, the latched one during a command.
        self.cur_warp.next = self.l_warp.q.val();
        if self.state.q.val() == StackState::Idle {
            self.cur_warp.next = self.warp.val();
        }
        self.sp.next = 0.into();
        self.tp_pc.next = 0.into();
        self.tp_rpc.next = 0.into();
        self.tp_mask.next = 0.into();
        self.tp_call.next = false;
        self.tp_dead.next = false;
        for w in 0..self._warps {
            if self.cur_warp.val() == self.index[w].val() {
                self.sp.next = self.sps.q[w].val();
                self.tp_dead.next = self.t_dead.q[w].val();
                self.tp_pc.next = self.t_pc.q[w].val();
                self.tp_rpc.next = self.t_rpc.q[w].val();
                self.tp_mask.next = self.t_mask.q[w].val();
                self.tp_call.next = self.t_call.q[w].val();
            }
        }
        self.base.next = bit_cast::<ADDR_BITS, 6>(self.cur_warp.val()) << self.shift.val();
        self.rd_pc.next = self.pcrpc.rdata.val().get_bits::<32>(0);
        self.rd_rpc.next = self.pcrpc.rdata.val().get_bits::<32>(32);
        self.rd_mask.next = self.emask.rdata.val() & self.full.val();
        self.rd_call.next = self.ecall.rdata.val().any();

        self.top_pc.next = self.tp_pc.val();
        self.top_rpc.next = self.tp_rpc.val();
        self.top_mask.next = self.tp_mask.val();
        self.top_call.next = self.tp_call.val();
        self.empty.next = self.sp.val() == 0;
        self.depth_used.next = self.sp.val();
        // The top entry is live (or there is none): TOP stops popping.
        self.top_runs.next = (self.tp_mask.val() != 0) & (self.tp_pc.val() != self.tp_rpc.val());
        self.top_live.next = (self.sp.val() == 0) | self.top_runs.val();
        self.settled.next = (self.state.q.val() == StackState::Idle) & !self.tp_dead.val();
        self.busy.next = self.state.q.val() != StackState::Idle;
        self.overflow.next = self.fault.q.val();
        self.no_frame.next = self.frameless.q.val();

        // Default: no writes; a write of the top keeps its other fields. The
        // RAMs read the entry below the top.
        self.sp_we.next = false;
        self.sp_new.next = self.sp.val();
        self.top_we.next = false;
        self.new_pc.next = self.tp_pc.val();
        self.new_rpc.next = self.tp_rpc.val();
        self.new_mask.next = self.tp_mask.val();
        self.new_call.next = self.tp_call.val();
        self.raddr.next = self.base.val() | bit_cast::<ADDR_BITS, 8>((self.sp.val() - 2) & self.idx_mask.val());
        self.pcrpc.we.next = false;
        self.emask.we.next = false;
        self.ecall.we.next = false;
        self.waddr.next = self.base.val() | bit_cast::<ADDR_BITS, 8>((self.sp.val() - 1) & self.idx_mask.val());
        self.pcrpc.wdata.next = (bit_cast::<64, 32>(self.tp_rpc.val()) << 32) | bit_cast::<64, 32>(self.tp_pc.val());
        self.emask.wdata.next = self.tp_mask.val();
        self.ecall.wdata.next = 0.into();
        if self.tp_call.val() {
            self.ecall.wdata.next = 1.into();
        }

        // A push: the states below choose the entry (default: target, rejoin, mask, no call).
        self.load_top.next = false;
        self.push.next = false;
        self.push_pc.next = self.l_target.q.val();
        self.push_rpc.next = self.l_rejoin.q.val();
        self.push_mask.next = self.l_mask.q.val();
        self.push_call.next = false;

        match self.state.q.val() {
            StackState::Idle => {
                if self.start.val() {
                    self.l_warp.d.next = self.warp.val();
                    self.l_pc.d.next = self.pc.val();
                    self.l_target.d.next = self.target.val();
                    self.l_rejoin.d.next = self.rejoin.val();
                    self.l_mask.d.next = self.mask.val() & self.full.val();
                    self.fault.d.next = false;
                    self.frameless.d.next = false;
                    self.stale.d.next = false;
                    if self.cmd.val() == 0 {
                        self.top_we.next = true;
                        self.new_pc.next = self.pc.val();
                    }
                    if self.cmd.val() == 1 {
                        self.sp_we.next = true;
                        self.sp_new.next = 1.into();
                        self.top_we.next = true;
                        self.new_pc.next = self.pc.val();
                        self.new_rpc.next = self.rpc_none.val();
                        self.new_mask.next = self.mask.val() & self.full.val();
                        self.new_call.next = false;
                    }
                    if self.cmd.val() == 2 {
                        self.state.d.next = StackState::Pop;
                    }
                    if self.cmd.val() == 3 {
                        self.state.d.next = StackState::Br0;
                    }
                    if self.cmd.val() == 4 {
                        self.state.d.next = StackState::PushCall;
                    }
                    if (self.cmd.val() == 5) | (self.cmd.val() == 6) {
                        self.stop_at_call.d.next = self.cmd.val() == 5;
                        self.state.d.next = StackState::WalkTop;
                        if self.sp.val() == 0 {
                            self.frameless.d.next = self.cmd.val() == 5;
                            self.state.d.next = StackState::Idle;
                        }
                    }
                }
            }
            StackState::Pop => {
                // Pop a finished top; the entry below comes out of the RAM next cycle.
                if self.top_live.val() {
                    self.state.d.next = StackState::Idle;
                } else {
                    self.sp_we.next = true;
                    self.sp_new.next = self.sp.val() - 1;
                    if self.sp.val() > 1 {
                        self.state.d.next = StackState::Fill;
                    }
                }
            }
            StackState::Fill => {
                self.load_top.next = true;
                self.state.d.next = StackState::Pop;
            }
            StackState::Br0 => {
                self.old_mask.d.next = self.tp_mask.val();
                self.top_we.next = true;
                self.state.d.next = StackState::Idle;
                if self.l_mask.q.val() == 0 {
                    self.new_pc.next = self.l_pc.q.val() + 1;
                } else if self.l_mask.q.val() == self.tp_mask.val() {
                    self.new_pc.next = self.l_target.q.val();
                } else {
                    self.new_pc.next = self.l_rejoin.q.val();
                    if self.l_rejoin.q.val() == self.tp_rpc.val() {
                        self.sp_we.next = true;
                        self.sp_new.next = self.sp.val() - 1;
                        self.stale.d.next = true;
                    }
                    self.state.d.next = StackState::Br1;
                }
            }
            StackState::Br1 => {
                self.state.d.next = StackState::Br2;
                if self.l_pc.q.val() + 1 != self.l_rejoin.q.val() {
                    self.push.next = true;
                    self.push_pc.next = self.l_pc.q.val() + 1;
                    self.push_mask.next = self.old_mask.q.val() & !self.l_mask.q.val();
                }
            }
            StackState::Br2 => {
                self.state.d.next = StackState::Idle;
                self.push.next = self.l_target.q.val() != self.l_rejoin.q.val();
                // Popped and nothing pushed: the new top comes out of the RAM.
                if self.stale.q.val() & !self.push.val() & (self.sp.val() != 0) {
                    self.raddr.next = self.base.val() | bit_cast::<ADDR_BITS, 8>((self.sp.val() - 1) & self.idx_mask.val());
                    self.state.d.next = StackState::Refill;
                }
            }
            StackState::Refill => {
                self.load_top.next = true;
                self.stale.d.next = false;
                self.state.d.next = StackState::Idle;
            }
            StackState::PushCall => {
                self.state.d.next = StackState::Idle;
                self.push.next = true;
                self.push_rpc.next = self.rpc_none.val();
                self.push_call.next = true;
            }
            StackState::WalkTop => {
                // The top entry (index sp - 1) loses the lanes; the RAM reads the next one down.
                self.top_we.next = true;
                self.new_mask.next = self.tp_mask.val() & !self.l_mask.q.val();
                self.walk.d.next = self.sp.val() - 2;
                self.state.d.next = StackState::Walk;
                if self.stop_at_call.q.val() & self.tp_call.val() {
                    self.state.d.next = StackState::Idle;
                } else if (self.sp.val() == 1) | (self.plant.val().get_bit(0) & (self.sp.val() == 2)) {
                    self.frameless.d.next = self.stop_at_call.q.val();
                    self.state.d.next = StackState::Idle;
                }
            }
            StackState::Walk => {
                // Entry `walk` is on the read port: write it back without the
                // lanes, and read the next one down.
                self.raddr.next = self.base.val() | bit_cast::<ADDR_BITS, 8>((self.walk.q.val() - 1) & self.idx_mask.val());
                self.waddr.next = self.base.val() | bit_cast::<ADDR_BITS, 8>(self.walk.q.val());
                self.emask.we.next = true;
                self.emask.wdata.next = self.rd_mask.val() & !self.l_mask.q.val();
                self.walk.d.next = self.walk.q.val() - 1;
                if self.stop_at_call.q.val() & self.rd_call.val() {
                    self.state.d.next = StackState::Idle;
                } else if (self.walk.q.val() == 0) | (self.plant.val().get_bit(0) & (self.walk.q.val() == 1)) {
                    self.frameless.d.next = self.stop_at_call.q.val();
                    self.state.d.next = StackState::Idle;
                }
            }
        }
        if self.load_top.val() {
            self.top_we.next = true;
            self.new_pc.next = self.rd_pc.val();
            self.new_rpc.next = self.rd_rpc.val();
            self.new_mask.next = self.rd_mask.val();
            self.new_call.next = self.rd_call.val();
        }
        if self.push.val() {
            if (self.sp.val() >= self.depth.val()) & !(self.plant.val().get_bit(1) & (self.sp.val() == self.depth.val())) {
                // Overflow: nothing is written and a branch's second push is skipped.
                self.fault.d.next = true;
                self.state.d.next = StackState::Idle;
            } else {
                // The old top goes into the RAM (unless popped, or there is
                // none); the pushed entry is the top.
                self.sp_we.next = true;
                self.sp_new.next = self.sp.val() + 1;
                if !self.stale.q.val() & (self.sp.val() != 0) {
                    self.pcrpc.we.next = true;
                    self.emask.we.next = true;
                    self.ecall.we.next = true;
                }
                self.stale.d.next = false;
                self.top_we.next = true;
                self.new_pc.next = self.push_pc.val();
                self.new_rpc.next = self.push_rpc.val();
                self.new_mask.next = self.push_mask.val();
                self.new_call.next = self.push_call.val();
            }
        }
        // t_dead: the warp's top is not live after this cycle's writes (top_live of
        // its new entry count and top).
        self.new_dead.next = self.sp.val() != 0;
        if self.sp_we.val() {
            self.new_dead.next = self.sp_new.val() != 0;
        }
        if self.top_we.val() {
            self.new_dead.next =
                self.new_dead.val() & (((self.new_mask.val() & self.full.val()) == 0) | (self.new_pc.val() == self.new_rpc.val()));
        } else {
            self.new_dead.next = self.new_dead.val() & !self.top_runs.val();
        }
        self.pcrpc.raddr.next = self.raddr.val();
        self.emask.raddr.next = self.raddr.val();
        self.ecall.raddr.next = self.raddr.val();
        self.pcrpc.waddr.next = self.waddr.val();
        self.emask.waddr.next = self.waddr.val();
        self.ecall.waddr.next = self.waddr.val();
        for w in 0..self._warps {
            if self.cur_warp.val() == self.index[w].val() {
                if self.sp_we.val() {
                    self.sps.d[w].next = self.sp_new.val();
                }
                if self.sp_we.val() | self.top_we.val() {
                    self.t_dead.d[w].next = self.new_dead.val();
                }
                if self.top_we.val() {
                    self.t_pc.d[w].next = self.new_pc.val();
                    self.t_rpc.d[w].next = self.new_rpc.val();
                    self.t_mask.d[w].next = self.new_mask.val() & self.full.val();
                    self.t_call.d[w].next = self.new_call.val();
                }
            }
        }
    }
}
