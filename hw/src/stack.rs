//! The reconvergence stack unit: every warp's stack of (pc, rpc, mask, call)
//! entries, with the semantics of the golden model (`heddle_sim::warp`)
//! and `docs/isa.md` ("Divergence and reconvergence").
//!
//! Entries live in RAM (`warps` x `depth` rounded up to a power of two);
//! the stack pointers in a second RAM. The top of the warp on the `warp`
//! input is always on the `top_*` outputs. Commands (pulse `start` while
//! `busy` is low):
//!
//! | cmd | name      | operands             | cycles                      |
//! |-----|-----------|----------------------|-----------------------------|
//! | 0   | SETPC     | pc                   | 1                           |
//! | 1   | INIT      | pc, mask             | 1                           |
//! | 2   | TOP       |                      | 1 + entries popped          |
//! | 3   | BRANCH    | pc, target, rejoin, mask = taken lanes | 4            |
//! | 4   | PUSHCALL  | target, mask         | 1                           |
//! | 5   | RET       | mask = lanes         | 1 + entries walked          |
//! | 6   | EXIT      | mask = lanes         | 1 + entries walked          |
//!
//! A push past `depth` entries is not written and raises `overflow` until
//! the next command. `no_frame` reports that a RET found no call frame and so
//! acted as EXIT (a kernel's `ret`).

use crate::ram::{Ram, ADDR_BITS};
use crate::reg::Reg;
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
    Pop,
    Br0,
    Br1,
    Br2,
    PushCall,
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
    cur_warp: Signal<Local, Bits<6>>,
    base: Signal<Local, Bits<ADDR_BITS>>,
    sp: Signal<Local, Bits<8>>,
    top_addr: Signal<Local, Bits<ADDR_BITS>>,
    push_addr: Signal<Local, Bits<ADDR_BITS>>,
    push: Signal<Local, Bit>,
    push_pc: Signal<Local, Bits<32>>,
    push_rpc: Signal<Local, Bits<32>>,
    push_mask: Signal<Local, Bits<64>>,
    push_call: Signal<Local, Bit>,
    top_live: Signal<Local, Bit>,
    sps: Ram<8>,
    pcrpc: Ram<64>,
    emask: Ram<64>,
    ecall: Ram<1>,
    depth: Constant<Bits<8>>,
    shift: Constant<Bits<ADDR_BITS>>,
    idx_mask: Constant<Bits<8>>,
    rpc_none: Constant<Bits<32>>,
    /// Planted bugs ([`crate::plant`]): `StackWalkShort`, `StackOverflowLate`.
    plant: Constant<Bits<32>>,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl ReconvStack {
    /// Stacks for `warps` warps of at most `depth` entries each.
    pub fn new(warps: usize, depth: usize) -> ReconvStack {
        assert!((1..=64).contains(&warps) && (2..=128).contains(&depth));
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
            cur_warp: Default::default(),
            base: Default::default(),
            sp: Default::default(),
            top_addr: Default::default(),
            push_addr: Default::default(),
            push: Default::default(),
            push_pc: Default::default(),
            push_rpc: Default::default(),
            push_mask: Default::default(),
            push_call: Default::default(),
            top_live: Default::default(),
            sps: Ram::new(warps),
            pcrpc: Ram::new(entries),
            emask: Ram::new(entries),
            ecall: Ram::new(entries),
            depth: Constant::new((depth as u64).into()),
            shift: Constant::new(shift.into()),
            idx_mask: Constant::new((slots as u64 - 1).into()),
            rpc_none: Constant::new((RPC_NONE as u64).into()),
            plant: Constant::new(crate::plant::mask().into()),
        }
    }
}

impl Logic for ReconvStack {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, l_warp, l_pc, l_target, l_rejoin, l_mask, old_mask, walk, stop_at_call, fault, frameless);
        self.sps.clock.next = self.clock.val();
        self.pcrpc.clock.next = self.clock.val();
        self.emask.clock.next = self.clock.val();
        self.ecall.clock.next = self.clock.val();

        // The warp being worked on: the input while idle, the latched one during a command.
        self.cur_warp.next = self.l_warp.q.val();
        if self.state.q.val() == StackState::Idle {
            self.cur_warp.next = self.warp.val();
        }
        self.sps.raddr.next = bit_cast::<ADDR_BITS, 6>(self.cur_warp.val());
        self.sp.next = self.sps.rdata.val();
        self.base.next = bit_cast::<ADDR_BITS, 6>(self.cur_warp.val()) << self.shift.val();
        self.top_addr.next = self.base.val() | bit_cast::<ADDR_BITS, 8>((self.sp.val() - 1) & self.idx_mask.val());
        self.push_addr.next = self.base.val() | bit_cast::<ADDR_BITS, 8>(self.sp.val() & self.idx_mask.val());

        self.pcrpc.raddr.next = self.top_addr.val();
        self.emask.raddr.next = self.top_addr.val();
        self.ecall.raddr.next = self.top_addr.val();
        if self.state.q.val() == StackState::Walk {
            self.pcrpc.raddr.next = self.base.val() | bit_cast::<ADDR_BITS, 8>(self.walk.q.val());
            self.emask.raddr.next = self.base.val() | bit_cast::<ADDR_BITS, 8>(self.walk.q.val());
            self.ecall.raddr.next = self.base.val() | bit_cast::<ADDR_BITS, 8>(self.walk.q.val());
        }

        self.top_pc.next = self.pcrpc.rdata.val().get_bits::<32>(0);
        self.top_rpc.next = self.pcrpc.rdata.val().get_bits::<32>(32);
        self.top_mask.next = self.emask.rdata.val();
        self.top_call.next = self.ecall.rdata.val().any();
        self.empty.next = self.sp.val() == 0;
        self.depth_used.next = self.sp.val();
        // The top entry is live (or there is none): TOP stops popping.
        self.top_live.next = (self.sp.val() == 0) | ((self.emask.rdata.val() != 0) & (self.top_pc.val() != self.top_rpc.val()));
        self.settled.next = (self.state.q.val() == StackState::Idle) & self.top_live.val();
        self.busy.next = self.state.q.val() != StackState::Idle;
        self.overflow.next = self.fault.q.val();
        self.no_frame.next = self.frameless.q.val();

        // Default: no writes; entry writes go to the top and keep its other fields.
        self.sps.we.next = false;
        self.sps.waddr.next = bit_cast::<ADDR_BITS, 6>(self.cur_warp.val());
        self.sps.wdata.next = self.sp.val();
        self.pcrpc.we.next = false;
        self.emask.we.next = false;
        self.ecall.we.next = false;
        self.pcrpc.waddr.next = self.top_addr.val();
        self.emask.waddr.next = self.top_addr.val();
        self.ecall.waddr.next = self.top_addr.val();
        self.pcrpc.wdata.next = self.pcrpc.rdata.val();
        self.emask.wdata.next = self.emask.rdata.val();
        self.ecall.wdata.next = self.ecall.rdata.val();

        // A push: the states below choose the entry (default: target, rejoin, mask, no call).
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
                    self.l_mask.d.next = self.mask.val();
                    self.fault.d.next = false;
                    self.frameless.d.next = false;
                    if self.cmd.val() == 0 {
                        self.pcrpc.we.next = true;
                        self.pcrpc.wdata.next = (bit_cast::<64, 32>(self.top_rpc.val()) << 32) | bit_cast::<64, 32>(self.pc.val());
                    }
                    if self.cmd.val() == 1 {
                        self.sps.we.next = true;
                        self.sps.wdata.next = 1.into();
                        self.pcrpc.we.next = true;
                        self.emask.we.next = true;
                        self.ecall.we.next = true;
                        self.pcrpc.waddr.next = self.base.val();
                        self.emask.waddr.next = self.base.val();
                        self.ecall.waddr.next = self.base.val();
                        self.pcrpc.wdata.next = (bit_cast::<64, 32>(self.rpc_none.val()) << 32) | bit_cast::<64, 32>(self.pc.val());
                        self.emask.wdata.next = self.mask.val();
                        self.ecall.wdata.next = 0.into();
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
                        self.walk.d.next = self.sp.val() - 1;
                        self.state.d.next = StackState::Walk;
                        if self.sp.val() == 0 {
                            self.frameless.d.next = self.cmd.val() == 5;
                            self.state.d.next = StackState::Idle;
                        }
                    }
                }
            }
            StackState::Pop => {
                if self.top_live.val() {
                    self.state.d.next = StackState::Idle;
                } else {
                    self.sps.we.next = true;
                    self.sps.wdata.next = self.sp.val() - 1;
                }
            }
            StackState::Br0 => {
                self.old_mask.d.next = self.emask.rdata.val();
                self.pcrpc.we.next = true;
                self.state.d.next = StackState::Idle;
                if self.l_mask.q.val() == 0 {
                    self.pcrpc.wdata.next = (bit_cast::<64, 32>(self.top_rpc.val()) << 32) | bit_cast::<64, 32>(self.l_pc.q.val() + 1);
                } else if self.l_mask.q.val() == self.emask.rdata.val() {
                    self.pcrpc.wdata.next = (bit_cast::<64, 32>(self.top_rpc.val()) << 32) | bit_cast::<64, 32>(self.l_target.q.val());
                } else {
                    self.pcrpc.wdata.next = (bit_cast::<64, 32>(self.top_rpc.val()) << 32) | bit_cast::<64, 32>(self.l_rejoin.q.val());
                    if self.l_rejoin.q.val() == self.top_rpc.val() {
                        self.sps.we.next = true;
                        self.sps.wdata.next = self.sp.val() - 1;
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
            }
            StackState::PushCall => {
                self.state.d.next = StackState::Idle;
                self.push.next = true;
                self.push_rpc.next = self.rpc_none.val();
                self.push_call.next = true;
            }
            StackState::Walk => {
                self.pcrpc.waddr.next = self.base.val() | bit_cast::<ADDR_BITS, 8>(self.walk.q.val());
                self.emask.waddr.next = self.base.val() | bit_cast::<ADDR_BITS, 8>(self.walk.q.val());
                self.emask.we.next = true;
                self.emask.wdata.next = self.emask.rdata.val() & !self.l_mask.q.val();
                self.walk.d.next = self.walk.q.val() - 1;
                if self.stop_at_call.q.val() & self.ecall.rdata.val().any() {
                    self.state.d.next = StackState::Idle;
                } else if (self.walk.q.val() == 0) | (self.plant.val().get_bit(0) & (self.walk.q.val() == 1)) {
                    self.frameless.d.next = self.stop_at_call.q.val();
                    self.state.d.next = StackState::Idle;
                }
            }
            _ => {
                self.state.d.next = StackState::Idle;
            }
        }
        if self.push.val() {
            if (self.sp.val() >= self.depth.val()) & !(self.plant.val().get_bit(1) & (self.sp.val() == self.depth.val())) {
                // Overflow: nothing is written and a branch's second push is skipped.
                self.fault.d.next = true;
                self.state.d.next = StackState::Idle;
            } else {
                self.sps.we.next = true;
                self.sps.wdata.next = self.sp.val() + 1;
                self.pcrpc.we.next = true;
                self.emask.we.next = true;
                self.ecall.we.next = true;
                self.pcrpc.waddr.next = self.push_addr.val();
                self.emask.waddr.next = self.push_addr.val();
                self.ecall.waddr.next = self.push_addr.val();
                self.pcrpc.wdata.next = (bit_cast::<64, 32>(self.push_rpc.val()) << 32) | bit_cast::<64, 32>(self.push_pc.val());
                self.emask.wdata.next = self.push_mask.val();
                self.ecall.wdata.next = 0.into();
                if self.push_call.val() {
                    self.ecall.wdata.next = 1.into();
                }
            }
        }
    }
}
