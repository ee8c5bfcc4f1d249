//! Control that takes several cycles: warp shuffles, indirect calls
//! (`Calli*`), barriers (`Bar*`) and the reconvergence-stack commands of
//! branches, calls, returns and exits (`Ctl2`, `CtlWait`).
//!
//! Parts of `Sm::update()` (`#[hdl_part]`): see the module doc of `sm`.

use super::*;

namespace! {
    /// A shuffle, per lane: the source lane by the PTX rules (see
    /// `lanes`: `b`'s value, its low bits `bl`, whether the bits above are
    /// all zeros `bz` or ones `bo`; the borrow or carry `wrap`; whether the
    /// 32-bit `j` is a lane number, `word`; the segment mask `seg`; the
    /// lane `lane`, its `max`, its source `j`, whether `j` is in range and
    /// valid, `in_range` and `ok`; the source `src`), then in
    /// `ShflSelect` the registered source and value.
    pub(super) struct ShflLanes {
        b: Vec<Signal<Local, Bits<32>>>,
        bl: Vec<Signal<Local, Bits<8>>>,
        bz: Vec<Signal<Local, Bit>>,
        bo: Vec<Signal<Local, Bit>>,
        wrap: Vec<Signal<Local, Bit>>,
        word: Vec<Signal<Local, Bit>>,
        seg: Vec<Signal<Local, Bits<8>>>,
        lane: Vec<Signal<Local, Bits<8>>>,
        max: Vec<Signal<Local, Bits<8>>>,
        j: Vec<Signal<Local, Bits<8>>>,
        in_range: Vec<Signal<Local, Bit>>,
        ok: Vec<Signal<Local, Bit>>,
        src: Vec<Signal<Local, Bits<8>>>,
        /// In ShflSelect, this beat's thread's registered source and its validity.
        pick: Vec<Signal<Local, Bits<8>>>,
        pick_ok: Vec<Signal<Local, Bit>>,
        val: Vec<Signal<Local, Bits<32>>>,
        /// sbuf's entries of window `sh_k`, and whether a lane's source is among them.
        grp: Vec<Signal<Local, Bits<32>>>,
        hit: Vec<Signal<Local, Bit>>,
    }
}

impl ShflLanes {
    pub(super) fn new(lanes: usize, sh_win: usize) -> ShflLanes {
        fn v<T: Default>(n: usize) -> Vec<T> {
            (0..n).map(|_| T::default()).collect()
        }
        ShflLanes {
            b: v(lanes),
            bl: v(lanes),
            bz: v(lanes),
            bo: v(lanes),
            wrap: v(lanes),
            word: v(lanes),
            seg: v(lanes),
            lane: v(lanes),
            max: v(lanes),
            j: v(lanes),
            in_range: v(lanes),
            ok: v(lanes),
            src: v(lanes),
            pick: v(lanes),
            pick_ok: v(lanes),
            val: v(lanes),
            grp: v(sh_win),
            hit: v(lanes),
        }
    }
}

impl Sm {
    /// Barriers.
    #[hdl_part]
    pub(super) fn barriers(&mut self) {
        self.b_sel.next = (bit_cast::<64, 8>(self.cur_slot.val()) << 4) | bit_cast::<64, 8>(self.bk.q.val());
        if self.state.q.val() == SmState::BarArrive {
            self.b_sel.next = (bit_cast::<64, 8>(self.cur_slot.val()) << 4) | bit_cast::<64, 32>(self.bar_id.q.val());
        }
        self.bar_ae.clock.next = self.clock.val();
        self.bar_cr.clock.next = self.clock.val();
        self.bar_tag.clock.next = self.clock.val();
        self.bar_ae.waddr.next = bit_cast::<ADDR_BITS, 64>(self.b_sel.val());
        self.bar_cr.waddr.next = bit_cast::<ADDR_BITS, 64>(self.b_sel.val());
        self.bar_tag.waddr.next = bit_cast::<ADDR_BITS, 64>(self.b_sel.val());
        self.bar_ae.we.next = false;
        self.bar_cr.we.next = false;
        self.bar_tag.we.next = false;
        self.bar_tag.wdata.next = self.c_epoch.val();
        self.b_arr.next = 0.into();
        self.b_exp.next = 0.into();
        self.b_cnt.next = 0.into();
        self.b_rt.next = 0.into();
        if self.bar_phase.val() & (self.bar_tag.rdata.val() == self.c_epoch.val()) {
            self.b_arr.next = self.bar_ae.rdata.val().get_bits::<32>(0);
            self.b_exp.next = self.bar_ae.rdata.val().get_bits::<32>(32);
            self.b_cnt.next = self.bar_cr.rdata.val().get_bits::<32>(0);
            self.b_rt.next = self.bar_cr.rdata.val().get_bits::<32>(32);
        }
        // An arrival's new entry (BarArrive); BarCheck writes zeros.
        self.bar_ae.wdata.next =
            (bit_cast::<64, 32>(self.b_exp.val()) << 32) | bit_cast::<64, 32>(self.b_arr.val() + bit_cast::<32, 8>(self.popc.n.val()));
        self.bar_cr.wdata.next = (bit_cast::<64, 32>(self.b_rt.val()) << 32) | bit_cast::<64, 32>(self.b_cnt.val());
        if self.cls.val() == class::BAR {
            self.bar_ae.wdata.next = (bit_cast::<64, 32>(self.bar_count.q.val()) << 32)
                | bit_cast::<64, 32>(self.b_arr.val() + bit_cast::<32, 8>(self.popc.n.val()));
        } else {
            self.bar_cr.wdata.next = (bit_cast::<64, 32>(self.b_rt.val() + bit_cast::<32, 8>(self.popc.n.val())) << 32)
                | bit_cast::<64, 32>(self.b_cnt.val() + bit_cast::<32, 8>(self.popc2.n.val()));
        }
        self.b_done.next = (self.b_arr.val() != 0) & (self.b_arr.val() >= self.c_live.val());
        if self.b_exp.val() != 0 {
            self.b_done.next = (self.b_arr.val() != 0) & (self.b_arr.val() >= self.b_exp.val());
        } else if self.consts.plant.val().get_bit(3) {
            self.b_done.next = (self.b_arr.val() != 0) & ((self.b_arr.val() + 1) >= self.c_live.val());
        }
        self.bw64.next = bit_cast::<64, 8>(self.bw.q.val());
        self.w_info.clock.next = self.clock.val();
        self.w_info.waddr.next = bit_cast::<ADDR_BITS, 6>(self.cur.q.val());
        self.w_info.wdata.next = bit_cast::<13, 4>(self.bar_id.q.val().get_bits::<4>(0))
            | (bit_cast::<13, 7>(self.f_d.val()) << 4)
            | (bit_cast::<13, 2>(self.f_mod.val().get_bits::<2>(0)) << 11);
        self.w_info.we.next = false;
        self.bw_bar.next = 0.into();
        self.bw_rd.next = 0.into();
        self.bw_rop.next = 0.into();
        if self.bar_phase.val() {
            self.bw_bar.next = self.w_info.rdata.val().get_bits::<4>(0);
            self.bw_rd.next = self.w_info.rdata.val().get_bits::<7>(4);
            self.bw_rop.next = self.w_info.rdata.val().get_bits::<2>(11);
        }
        self.red_v.next = bit_cast::<64, 32>(self.r_cnt.q.val());
        if self.bw_rop.val() == red::AND {
            self.red_v.next = 0.into();
            if self.r_cnt.q.val() == self.r_thr.q.val() {
                self.red_v.next = 1.into();
            }
        }
        if self.bw_rop.val() == red::OR {
            self.red_v.next = 0.into();
            if self.r_cnt.q.val() != 0 {
                self.red_v.next = 1.into();
            }
        }
        self.last_w.next = self.c_base.val() + self.r_nwarps.q.val().get_bits::<8>(0) - 1;
        self.popc2.x.next = self.paux.q.val() & self.live_cur.val();
        self.bw_live.next = (!self.exited.rdata.val() & self.consts.full.val()) >> self.beat_base.val();
        self.ready.next = self.w_live.q.val() & !self.w_wait.q.val();
        if self.consts.plant.val().get_bit(2) {
            self.ready.next = self.w_live.q.val() & !(self.w_wait.q.val() & !bits::<64>(2));
        }
        self.sched.ready.next = self.ready.val();
        // The prefetch picks another warp: in the states where `pf_on` may
        // be true (`in_beats`, from the registered state).
        self.sched.skip.next = self.cur.q.val();
        self.sched.skip_on.next = self.in_beats.val();
        self.sched.last.next = self.last.q.val();
    }

    /// Indirect calls: `gcall` = the executing threads whose target is
    /// `cl_tgt`, the target of thread `cl_hot` (one-hot), both registered:
    /// each cycle loads them for the next from the selection `cl_top`. Lead
    /// pass: thread mt's target, so that the next cycle tests thread
    /// mt - 1 (it leads a group unless a thread below it is in the group).
    /// Wait and Push: the highest remaining leader's.
    #[hdl_part]
    pub(super) fn calli_targets(&mut self) {
        self.mt64.next = bit_cast::<64, 8>(self.mt.q.val());
        self.cl_val.next = 0.into();
        self.cl_ok.d.next = false;
        for e in 0..self._count.ws {
            self.gcall.bits[e].next = false;
        }
        // The highest remaining leader as a one-hot mask: res_pred's bits
        // smeared downwards, and the one bit with none above it.
        self.cl_top.next = 0.into();
        if self.calli_phase.val() {
            self.cl_top.next = self.res_pred.q.val();
            self.cl_top.next = self.cl_top.val() | (self.cl_top.val() >> 1);
            self.cl_top.next = self.cl_top.val() | (self.cl_top.val() >> 2);
            self.cl_top.next = self.cl_top.val() | (self.cl_top.val() >> 4);
            self.cl_top.next = self.cl_top.val() | (self.cl_top.val() >> 8);
            self.cl_top.next = self.cl_top.val() | (self.cl_top.val() >> 16);
            self.cl_top.next = self.cl_top.val() | (self.cl_top.val() >> 32);
            self.cl_top.next = self.res_pred.q.val() & !(self.cl_top.val() >> 1);
            if self.state.q.val() == SmState::CalliLead {
                self.cl_top.next = bits::<64>(1) << self.mt64.val();
            }
            // One entry is selected: an OR, as the shuffle's read in `lanes`.
            for e in 0..self._count.ws {
                if self.cl_top.val().get_bit(e) {
                    self.cl_val.next = self.cl_val.val() | self.sbuf.q[e].val();
                }
            }
            for e in 0..self._count.ws {
                self.gcall.bits[e].next = self.exec.q.val().get_bit(e) & (self.sbuf.q[e].val() == self.cl_tgt.q.val());
            }
        }
        self.cl_tgt.d.next = self.cl_val.val();
        self.cl_hot.d.next = self.cl_top.val();
        self.gcall.base.next = 0.into();
        self.cl_dup.next = ((self.gcall.placed.val() & self.consts.full.val()) & (self.cl_hot.q.val() - 1)) != 0;
    }

    /// In state `ShflGather`.
    /// Every thread's source value into sbuf, a beat per cycle.
    #[hdl_part]
    pub(super) fn on_shfl_gather(&mut self) {
        self.c_exec.d.next = self.c_exec.q.val() + 1;
        self.n.beat.next = self.beat.q.val() + 1;
        if self.beat.q.val() == self.consts.last_beat.val() {
            self.n.beat.next = 0.into();
            self.sh_k.d.next = 0.into();
            self.n.state.next = SmState::ShflSelect;
        }
    }

    /// In state `ShflSelect`: a cycle per window of sbuf for each beat; the
    /// last writes the beat's values (each lane's from the window that
    /// held it) and predicates.
    #[hdl_part]
    pub(super) fn on_shfl_select(&mut self) {
        self.c_exec.d.next = self.c_exec.q.val() + 1;
        self.sh_k.d.next = self.sh_k.q.val() + 1;
        for l in 0..self._count.lanes {
            if self.shfl.hit[l].val() {
                self.sh_acc.d[l].next = self.shfl.val[l].val();
            } else {
                self.shfl.val[l].next = self.sh_acc.q[l].val();
            }
            self.rf[l].we.next =
                (self.sh_k.q.val() == self.consts.last_win.val()) & self.beat_exec.val().get_bit(l) & (self.f_d.val() != operand::RZ);
            self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 32>(self.shfl.val[l].val());
        }
        if self.sh_k.q.val() == self.consts.last_win.val() {
            self.sh_k.d.next = 0.into();
            self.res_pred.d.next = self.res_pred.q.val() | (self.gp.placed.val() & self.consts.full.val());
            self.n.beat.next = self.beat.q.val() + 1;
            if self.beat.q.val() == self.consts.last_beat.val() {
                self.n.state.next = SmState::Commit;
            }
        }
    }

    /// In state `CalliGather`.
    #[hdl_part]
    pub(super) fn on_calli_gather(&mut self) {
        self.c_ctl.d.next = self.c_ctl.q.val() + 1;
        self.n.beat.next = self.beat.q.val() + 1;
        if self.beat.q.val() == self.consts.last_beat.val() {
            self.n.beat.next = 0.into();
            self.n.state.next = SmState::CalliLead;
        }
    }

    /// In state `CalliLead`.
    /// Thread cl_hot (from the second cycle on) leads a group unless an
    /// executing thread below it has its target; the pass ends once the
    /// last thread is tested.
    #[hdl_part]
    pub(super) fn on_calli_lead(&mut self) {
        self.c_ctl.d.next = self.c_ctl.q.val() + 1;
        self.cl_ok.d.next = true;
        if self.cl_ok.q.val() & ((self.exec.q.val() & self.cl_hot.q.val()) != 0) & !self.cl_dup.val() {
            self.res_pred.d.next = self.res_pred.q.val() | self.cl_hot.q.val();
        }
        if self.mt.q.val() != self.consts.ws.val() - 1 {
            self.n.mt.next = self.mt.q.val() + 1;
        }
        // cl_hot is cl_top only once mt has stayed at the last thread.
        if self.cl_ok.q.val() & (self.cl_hot.q.val() == self.cl_top.val()) {
            self.n.state.next = SmState::CalliWait;
        }
    }

    /// In state `CalliPush`.
    /// One call frame per group, the last leader's first, so the
    /// first group runs first (the golden model's order).
    #[hdl_part]
    pub(super) fn on_calli_push(&mut self) {
        self.c_ctl.d.next = self.c_ctl.q.val() + 1;
        if !self.stack.busy.val() {
            if self.stack.overflow.val() {
                self.t_code.d.next = trap::STACK_OVERFLOW.into();
                self.t_pc.d.next = self.pc.q.val();
                self.n.state.next = SmState::Trapped;
            } else if self.res_pred.q.val() == 0 {
                self.n.state.next = SmState::Commit;
            } else {
                self.stack.cmd.next = stack::CMD_PUSHCALL.into();
                self.stack.target.next = self.cl_tgt.q.val();
                self.stack.mask.next = self.gcall.placed.val() & self.consts.full.val();
                self.stack.start.next = true;
                self.res_pred.d.next = self.res_pred.q.val() & !self.cl_hot.q.val();
                self.n.state.next = SmState::CalliWait;
            }
        }
    }

    /// In state `CalliWait`: cl_tgt and cl_hot load the next leader's.
    #[hdl_part]
    pub(super) fn on_calli_wait(&mut self) {
        self.c_ctl.d.next = self.c_ctl.q.val() + 1;
        self.n.state.next = SmState::CalliPush;
    }

    /// In state `BarArrive`.
    /// The warp's live threads arrive at barrier bar_id; sync and barred wait.
    #[hdl_part]
    pub(super) fn on_bar_arrive(&mut self) {
        self.c_ctl.d.next = self.c_ctl.q.val() + 1;
        if self.bar_id.q.val() >= self.consts.n_bars.val() {
            self.t_code.d.next = trap::BAD_BARRIER.into();
            self.t_val.d.next = self.bar_id.q.val();
            self.t_pc.d.next = self.pc.q.val();
            self.t_lane.d.next = self.mt.q.val();
            self.n.state.next = SmState::Trapped;
        } else {
            self.bar_ae.we.next = true;
            self.bar_cr.we.next = true;
            self.bar_tag.we.next = true;
            if (self.cls.val() == class::BARRED) | !self.f_mod.val().get_bit(0) {
                self.w_wait.d.next = (self.w_wait.q.val() | (bits::<64>(1) << self.cur.q.val())) & self.consts.all_warps.val();
            }
            // (A plain `bar` writes rd and rop too: they are read
            // only for a warp with a pending reduction.)
            self.w_info.we.next = true;
            if self.cls.val() == class::BARRED {
                self.w_red.d.next = (self.w_red.q.val() | (bits::<64>(1) << self.cur.q.val())) & self.consts.all_warps.val();
            }
            self.n.bk.next = 0.into();
            self.n.state.next = SmState::BarCheck;
        }
    }

    /// In state `BarCheck`.
    /// Barrier bk: complete? Then reset it and release its warps.
    #[hdl_part]
    pub(super) fn on_bar_check(&mut self) {
        self.c_ctl.d.next = self.c_ctl.q.val() + 1;
        if self.b_done.val() {
            self.r_cnt.d.next = self.b_cnt.val();
            self.r_thr.d.next = self.b_rt.val();
            self.bar_ae.we.next = true;
            self.bar_ae.wdata.next = 0.into();
            self.bar_cr.we.next = true;
            self.bar_cr.wdata.next = 0.into();
            self.bar_tag.we.next = true;
            self.n.bw.next = self.c_base.val();
            self.n.state.next = SmState::BarRelease;
        } else {
            self.n.bk.next = self.bk.q.val() + 1;
            if self.bk.q.val() == self.consts.last_bar.val() {
                self.n.state.next = SmState::Commit;
            }
        }
    }

    /// In state `BarRelease`.
    /// Warp bw waits at barrier bk: it goes on; a pending reduction is written first.
    #[hdl_part]
    pub(super) fn on_bar_release(&mut self) {
        self.c_ctl.d.next = self.c_ctl.q.val() + 1;
        self.n.beat.next = 0.into();
        self.n.bw.next = self.bw.q.val() + 1;
        if self.bw.q.val() == self.last_w.val() {
            self.n.bk.next = self.bk.q.val() + 1;
            self.n.state.next = SmState::BarCheck;
            if self.bk.q.val() == self.consts.last_bar.val() {
                self.n.state.next = SmState::Commit;
            }
        }
        if (((self.w_wait.q.val() >> self.bw64.val()) & 1) != 0) & (bit_cast::<8, 4>(self.bw_bar.val()) == self.bk.q.val()) {
            self.w_wait.d.next = self.w_wait.q.val() & !(bits::<64>(1) << self.bw64.val()) & self.consts.all_warps.val();
            if ((self.w_red.q.val() >> self.bw64.val()) & 1) != 0 {
                self.w_red.d.next = self.w_red.q.val() & !(bits::<64>(1) << self.bw64.val()) & self.consts.all_warps.val();
                self.n.bw.next = self.bw.q.val();
                self.n.bk.next = self.bk.q.val();
                self.n.state.next = SmState::BarWb;
            }
        }
    }

    /// In state `BarWb`.
    /// The reduction into d of warp bw's live threads, a beat per cycle; then the next warp.
    #[hdl_part]
    pub(super) fn on_bar_wb(&mut self) {
        self.c_ctl.d.next = self.c_ctl.q.val() + 1;
        for l in 0..self._count.lanes {
            self.rf[l].waddr.next = (bit_cast::<ADDR_BITS, 8>(self.bw.q.val()) << self.consts.rf_wshift.val())
                | (bit_cast::<ADDR_BITS, 8>(self.beat.q.val()) << self.consts.rbits.val())
                | bit_cast::<ADDR_BITS, 7>(self.bw_rd.val() & self.consts.rmask.val());
            self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.red_v.val());
            self.rf[l].we.next = self.bw_live.val().get_bit(l) & (self.bw_rd.val() != operand::RZ);
        }
        self.n.beat.next = self.beat.q.val() + 1;
        if self.beat.q.val() == self.consts.last_beat.val() {
            self.n.beat.next = 0.into();
            self.n.bw.next = self.bw.q.val() + 1;
            self.n.state.next = SmState::BarRelease;
            if self.bw.q.val() == self.last_w.val() {
                self.n.bk.next = self.bk.q.val() + 1;
                self.n.state.next = SmState::BarCheck;
                if self.bk.q.val() == self.consts.last_bar.val() {
                    self.n.state.next = SmState::Commit;
                }
            }
        }
    }

    /// In state `Ctl2`.
    /// After SETPC(pc + 1): call pushes a frame, ret and exit walk the stack.
    #[hdl_part]
    pub(super) fn on_ctl2(&mut self) {
        self.c_ctl.d.next = self.c_ctl.q.val() + 1;
        self.n.state.next = SmState::CtlWait;
        if self.cls.val() == class::CALL {
            self.stack.cmd.next = stack::CMD_PUSHCALL.into();
            self.stack.start.next = self.exec.q.val() != 0;
        }
        if self.cls.val() == class::RET {
            self.stack.cmd.next = stack::CMD_RET.into();
            self.stack.start.next = true;
        }
        if self.cls.val() == class::EXIT {
            self.stack.cmd.next = stack::CMD_EXIT.into();
            self.stack.start.next = true;
        }
    }

    /// In state `CtlWait`.
    #[hdl_part]
    pub(super) fn on_ctl_wait(&mut self) {
        self.c_ctl.d.next = self.c_ctl.q.val() + 1;
        if !self.stack.busy.val() {
            self.n.state.next = SmState::Commit;
            if self.stack.overflow.val() {
                self.t_code.d.next = trap::STACK_OVERFLOW.into();
                self.t_pc.d.next = self.pc.q.val();
                self.n.state.next = SmState::Trapped;
            } else if (self.cls.val() == class::EXIT) | ((self.cls.val() == class::RET) & self.stack.no_frame.val()) {
                self.exited.we.next = true;
                for s in 0..self._count.ctas {
                    if self.consts.index[s].val() == self.cur_slot.val() {
                        self.s_live.d[s].next = self.c_live.val() - bit_cast::<32, 8>(self.popc.n.val());
                    }
                }
                // Fewer live threads may complete a barrier.
                if self.w_wait.q.val() != 0 {
                    self.n.bk.next = 0.into();
                    self.n.state.next = SmState::BarCheck;
                }
            }
        }
    }
}
