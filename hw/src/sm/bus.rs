//! The Wishbone bus master: external memory through a Wishbone B4
//! pipelined master port, `SmConfig::bus_bits` wide (`wb_dat_w`,
//! `wb_dat_r`: 32-bit words, low first; `wb_sel`: a bit per byte), with
//! the byte steering (`WbLanes`) and the coalescer. It issues a transfer
//! per cycle in `BeatReq` (unless `STALL`), keeps up to [`BUS_DEPTH`]
//! outstanding, and takes their answers in order. A
//! beat's lanes go in lane order, consecutive lanes in one aligned bus
//! word sharing a transfer (`coalesce`). Tags name the access:
//!
//! - `wb_tga_space`: the `Space` modifier of the address (0 generic);
//! - `wb_tga_size`: bytes per lane access (every lane of a beat alike);
//!   an access wider than the word takes several transfers, and
//!   `wb_tga_first` marks its first;
//! - `wb_tga_thread`, `wb_tga_lane`: the transfer's first lane's thread
//!   in the CTA and lane in the warp (a local access is per thread, so
//!   alone in its transfer);
//! - `wb_tgc_atom`, `wb_tgc_op`: an atomic (`AtomOp` code), performed by
//!   the memory: one lane per transfer, at its exact address, operands
//!   b and c on `wb_tgd_b`, `wb_tgd_c`; the old value returns on
//!   `wb_tgd_r` with `ACK`.
//!
//! `ERR` means the transfer did nothing, and the memory must answer the
//! transfers after it in the same bus cycle (`CYC` high) with `ERR` and
//! do nothing for them either. A transfer of one lane that ends in `ERR`
//! faults at that lane; after one of several lanes, the master takes the
//! remaining answers, drops `CYC` for a cycle, and issues again every
//! lane not done, that transfer's one at a time: the fault is the lowest
//! faulting lane's, and the lanes below it (and only those) have done
//! their accesses, as the golden model's lane order has it.
//!
//! Parts of `Sm::update()` (`#[hdl_part]`): see the module doc of `sm`.

use super::*;

namespace! {
    /// The bus master's values of a cycle.
    #[derive(Default)]
    pub(super) struct BusCycle {
        /// This cycle's answer to the oldest outstanding transfer (`ACK`; a new
        /// `ERR`; it completes its lanes' accesses), that transfer's lanes and
        /// part; the lanes to issue, the part, the lanes in flight and the
        /// transfers outstanding after it; the transfer to issue (its first
        /// lane, the next transfer's, its lanes; that lane's index and address;
        /// the lanes alone in their transfers; transfer starts); whether one
        /// goes out, and whether the beat's bus work ends this cycle; parts per
        /// lane access; the lane of a one-lane transfer.
        ack: Signal<Local, Bit>,
        err: Signal<Local, Bit>,
        pdone: Signal<Local, Bit>,
        hrun: Signal<Local, Bits<32>>,
        hpart: Signal<Local, Bits<32>>,
        pend_now: Signal<Local, Bits<32>>,
        part_now: Signal<Local, Bits<32>>,
        fly_now: Signal<Local, Bits<32>>,
        cnt_now: Signal<Local, Bits<8>>,
        single_now: Signal<Local, Bit>,
        lead: Signal<Local, Bits<32>>,
        nxt: Signal<Local, Bits<32>>,
        nxt1: Signal<Local, Bits<32>>,
        runw: Signal<Local, Bits<32>>,
        li: Signal<Local, Bits<8>>,
        adr: Signal<Local, Bits<32>>,
        solo: Signal<Local, Bits<32>>,
        leaders: Signal<Local, Bits<32>>,
        issue: Signal<Local, Bit>,
        fin: Signal<Local, Bit>,
        /// `fin` from the registers alone (see `smem_lanes`).
        quiet: Signal<Local, Bit>,
        nparts: Signal<Local, Bits<32>>,
        fli: Signal<Local, Bits<8>>,
        /// The store data of the transfer's first lane (its two 64-bit halves).
        tb: Signal<Local, Bits<64>>,
        tc: Signal<Local, Bits<64>>,
    }
}

impl Sm {
    /// The bus master (the module doc). It acts in BeatReq: up to BUS_DEPTH
    /// transfers outstanding, one issued per cycle, answered in order.
    #[hdl_part]
    pub(super) fn bus_master(&mut self) {
        self.wm.hrun.next = 0.into();
        self.wm.hpart.next = 0.into();
        for i in 0..self._count.depth {
            if self.wm_qh.q.val() == self.consts.index[i].val() {
                self.wm.hrun.next = self.wm_qrun.q[i].val();
                self.wm.hpart.next = self.wm_qpart.q[i].val();
            }
        }
        self.wm.ack.next = self.wb_ack.val() & (self.wm_cnt.q.val() != 0) & !self.wm_drain.q.val();
        self.wm.err.next = self.wb_err.val() & (self.wm_cnt.q.val() != 0) & !self.wm_drain.q.val();
        // An access wider than a bus word takes one transfer per word; an
        // atomic is one transfer (its operands and old value travel in tags).
        self.wm.nparts.next = 1.into();
        if (self.asz.val() > self.consts.wbytes.val()) & (self.cls.val() != class::ATOM) {
            self.wm.nparts.next = self.asz.val() >> self.consts.wlog.val();
        }
        self.wm.pdone.next = self.wm.ack.val() & ((self.wm.hpart.val() + 1) == self.wm.nparts.val());
        self.wm.pend_now.next = self.port_mask.val();
        self.wm.part_now.next = 0.into();
        self.wm.fly_now.next = 0.into();
        // (The count is the queue's, across a fast instruction's beats.)
        self.wm.cnt_now.next = self.wm_cnt.q.val();
        if self.wm_go.q.val() {
            self.wm.pend_now.next = self.wm_pend.q.val();
            self.wm.part_now.next = self.wm_part.q.val();
            self.wm.fly_now.next = self.wm_fly.q.val();
        }
        if self.wm.pdone.val() {
            self.wm.fly_now.next = self.wm.fly_now.val() & !self.wm.hrun.val();
        }
        if (self.wb_ack.val() | self.wb_err.val()) & (self.wm_cnt.q.val() != 0) {
            self.wm.cnt_now.next = self.wm_cnt.q.val() - 1;
        }
        self.wm.single_now.next = self.wm_single.q.val() & (((self.wm.pend_now.val() | self.wm.fly_now.val()) & self.wm_rep.q.val()) != 0);
        // Lanes that need a transfer of their own (the coalescer's `solo`):
        // per-thread local addresses (explicit, or in the generic window),
        // and every lane of an atomic or of an access wider than a bus word.
        self.wm.solo.next = 0.into();
        if self.in_beat.val() {
            for l in 0..self._count.lanes {
                if (self.m_space.val() == space::GEN) & (self.soff[l].val() >= self.consts.lo_win.val()) {
                    self.wm.solo.next = self.wm.solo.val() | self.consts.lane_bit[l].val();
                }
            }
            if (self.cls.val() == class::ATOM) | (self.m_space.val() == space::LOCAL) | (self.asz.val() > self.consts.wbytes.val()) {
                self.wm.solo.next = self.consts.lanes_mask.val();
            }
        }
        self.coal.solo.next = self.wm.solo.val();
        #[hdl_skip]
        settle!(self.coal);
        self.wm.leaders.next = self.coal.leaders.val();
        if self.wm.single_now.val() {
            self.wm.leaders.next = self.consts.lanes_mask.val();
        }
        // The transfer: from the first pending lane up to the next transfer's first.
        self.wm.lead.next = self.wm.pend_now.val() & (!self.wm.pend_now.val() + 1);
        self.wm.nxt.next = self.wm.pend_now.val() & self.wm.leaders.val() & !self.wm.lead.val();
        self.wm.nxt1.next = self.wm.nxt.val() & (!self.wm.nxt.val() + 1);
        self.wm.runw.next = self.wm.pend_now.val() & (self.wm.nxt1.val() - 1);
        self.wm.issue.next = self.in_beat.val()
            & (self.state.q.val() == SmState::BeatReq)
            & !self.wm_drain.q.val()
            & !self.wm.err.val()
            & (self.wm.cnt_now.val() < self.consts.wm_depth.val())
            & (self.wm.pend_now.val() != 0);
        // All of this beat's transfers are out (after this cycle's issue).
        self.fa_issued.next = (self.wm.pend_now.val() == 0)
            | (self.wm.issue.val()
                & !self.wb_stall.val()
                & ((self.wm.pend_now.val() & !self.wm.runw.val()) == 0)
                & ((self.wm.part_now.val() + 1) == self.wm.nparts.val()));
        self.wm.fin.next = (self.state.q.val() == SmState::BeatReq)
            & !self.wm_drain.q.val()
            & !self.wm.err.val()
            & (self.wm.pend_now.val() == 0)
            & (self.wm.fly_now.val() == 0)
            & (self.wm.cnt_now.val() == 0);
        self.beat_fin.next = self.wm.fin.val();
        if self.spipe.q.val() {
            self.beat_fin.next = self.wm.quiet.val();
        }
        self.wm.li.next = 0.into();
        self.wm.adr.next = 0.into();
        self.wm.fli.next = 0.into();
        self.wm.tb.next = 0.into();
        self.wm.tc.next = 0.into();
        if self.in_beat.val() {
            for l in 0..self._count.lanes {
                if self.wm.lead.val().get_bit(l) {
                    self.wm.li.next = self.consts.index[l].val();
                    self.wm.adr.next = self.ladr.q[l].val().get_bits::<32>(0);
                    self.wm.tb.next = self.lw_lo[l].val();
                    self.wm.tc.next = self.lw_hi[l].val();
                }
                if self.wm.hrun.val().get_bit(l) {
                    self.wm.fli.next = self.consts.index[l].val();
                }
            }
        }
        self.wbl.wrun.next = 0.into();
        self.wbl.rrun.next = 0.into();
        if self.wm.issue.val() {
            self.wbl.wrun.next = self.wm.runw.val();
        }
        if self.wm.ack.val() {
            self.wbl.rrun.next = self.wm.hrun.val();
        }
        self.wbl.wpart.next = self.wm.part_now.val().get_bits::<3>(0);
        self.wbl.rpart.next = self.wm.hpart.val().get_bits::<3>(0);
        if self.consts.plant.val().get_bit(5) {
            self.wbl.rpart.next = self.wm.part_now.val().get_bits::<3>(0);
        }
        self.wbl.size.next = self.asz.val().get_bits::<5>(0);
        self.wb_cyc.next = self.wm.issue.val() | (self.wm_cnt.q.val() != 0);
        self.wb_stb.next = self.wm.issue.val();
        self.wb_we.next = self.cls.val() == class::ST;
        self.wb_adr.next = (self.wm.adr.val() & self.consts.walign.val()) + (self.wm.part_now.val() << self.consts.wlog.val());
        if self.cls.val() == class::ATOM {
            self.wb_adr.next = self.wm.adr.val();
        }
        self.wb_sel.next = self.wbl.sel.val();
        self.wb_tga_space.next = self.m_space.val();
        self.wb_tga_size.next = self.asz.val().get_bits::<5>(0);
        self.wb_tga_first.next = self.wm.part_now.val() == 0;
        self.wb_tga_lane.next = self.mt.q.val() + self.wm.li.val();
        self.wb_tga_thread.next = self.warp_t0.val() | bit_cast::<16, 8>(self.mt.q.val() + self.wm.li.val());
        self.wb_tgc_atom.next = self.cls.val() == class::ATOM;
        self.wb_tgc_op.next = self.f_mod.val().get_bits::<4>(0);
        self.wb_tgd_b.next = self.wm.tb.val();
        self.wb_tgd_c.next = self.wm.tc.val();
        for i in 0..self._count.words {
            self.wb_dat_w[i].next = self.wbl.dat_o[i].val();
            self.wbl.dat_i[i].next = self.wb_dat_r[i].val();
        }
        self.fa_one.next = self.fast.q.val() & (self.words.val() == 1);
        // A store (or an atomic into rz, or a fast load of a word) commits
        // in its last beat's request, when the bus serves it all.
        self.st_last.next = self.beat_last.val() & ((self.cls.val() == class::ST) | (self.f_d.val() == operand::RZ) | self.fa_one.val());
        self.commit_st.next = (self.state.q.val() == SmState::BeatReq) & self.st_last.val() & self.wm.fin.val();
        // The prefetch starts during an ALU instruction's beats or a memory
        // instruction's (`in_beats`), not in a cycle that may commit; it
        // holds the stack or the predicate read port in pf_st 1 and 2, when
        // a commit waits for it. Whether a cycle may commit comes from the
        // registered state: a store's last request and a pipelined shared
        // load's last pass, which wait for the bus or the banks, start no
        // prefetch.
        self.in_beats.next = (self.state.q.val() == SmState::Exec)
            | (self.state.q.val() == SmState::BeatAddr)
            | (self.state.q.val() == SmState::BeatData)
            | (self.state.q.val() == SmState::BeatReq)
            | (self.state.q.val() == SmState::SmemAcc)
            | (self.state.q.val() == SmState::BeatWb)
            | (self.state.q.val() == SmState::FastHi);
        self.pf_on.next = self.in_beats.val()
            & !(((self.state.q.val() == SmState::Exec) & self.commit_now.val())
                | ((self.state.q.val() == SmState::BeatReq) & self.st_last.val())
                | ((self.state.q.val() == SmState::SmemAcc) & self.spipe.q.val() & self.sp_fin.q.val())
                | self.commit_wb.val());
        self.pf_wait.next = (self.pf_st.q.val() == pf::TOP) | (self.pf_st.q.val() == pf::AUX) | (self.pf_st.q.val() == pf::WORD);
        self.ex_stall.next = self.commit_now.val() & self.pf_wait.val();
        // The warp whose stack top is fetched from: Top's, Sched's pick (fe_main),
        // or the prefetch's.
        self.fe_warp.next = self.cur.q.val();
        self.fe_main.next = true;
        self.fe_go.next = (self.state.q.val() == SmState::Top) & !self.stack.busy.val();
        if self.state.q.val() == SmState::Sched {
            self.fe_warp.next = self.sched.pick.val();
            self.fe_go.next =
                (self.w_live.q.val() != 0) & self.sched.any.val() & self.stack.settled.val() & !(self.more.q.val() & self.f_any.val());
        }
        if self.pf_on.val() & (self.pf_st.q.val() == pf::IDLE) {
            self.fe_warp.next = self.sched.pick.val();
            self.fe_main.next = false;
            self.fe_go.next = self.sched.any.val() & self.stack.settled.val();
        }
        if self.pf_st.q.val() == pf::TOP {
            self.fe_warp.next = self.pf_cur.q.val();
            self.fe_main.next = false;
            self.fe_go.next = !self.stack.busy.val();
        }
        self.fq_go.next = (self.state.q.val() == SmState::Fetch) | (self.pf_st.q.val() == pf::WORD);
        self.beat_carry.next = self.carry_in.q.val() >> self.beat_base.val();
        self.beat_paux.next = self.paux.q.val() >> self.beat_base.val();
        self.gp.base.next = self.beat_base.val();
        self.gc.base.next = self.beat_base.val();
    }
}
