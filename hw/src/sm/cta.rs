//! CTA slots and the launch: the host registers (`Idle`), a grid's next
//! CTA into a free slot (`NextCta`), and the set-up of its warps
//! (`InitWarp`, `InitFill`, `InitThread`).
//!
//! CTA slots: up to `SmConfig::ctas` CTAs are resident at once
//! (`host::CTA_SLOTS`, which the host picks from the warp slots and shared
//! memory a CTA needs). Slot `s` owns warps `s << SLOT_SHIFT ..`, its own
//! window of shared memory (the CTA's bytes rounded up to whole rows, at
//! `s` times that), its 16 barriers, CTA coordinates, live-thread count and
//! epoch. Warps of all slots are scheduled together; when a slot's warps
//! have all finished, Sched starts the grid's next CTA in it.
//!
//! Parts of `Sm::update()` (`#[hdl_part]`): see the module doc of `sm`.

use super::*;

impl Sm {
    /// CTA slots: slot s owns warps s << r_slog and up.
    #[hdl_part]
    pub(super) fn cta_slots(&mut self) {
        self.cur_slot.next = bit_cast::<8, 6>(self.cur.q.val()) >> self.r_slog.q.val();
        self.warp_t0.next = bit_cast::<16, 6>(self.cur.q.val()) << self.consts.log_ws.val();
        self.c_base.next = self.cur_slot.val() << self.r_slog.q.val();
        self.i_base.next = self.slot.q.val() << self.r_slog.q.val();
        self.e_slot.next = self.cur_slot.val();
        if self.state.q.val() == SmState::InitThread {
            self.e_slot.next = self.slot.q.val();
        }
        // A slot is busy while any of its warps is live.
        self.slot_busy.next = 0.into();
        for s in 0..self._count.ctas {
            for w in 0..self._count.warps {
                if self.w_live.q.val().get_bit(w) & ((self.consts.index[w].val() >> self.r_slog.q.val()) == self.consts.index[s].val()) {
                    self.slot_busy.next = self.slot_busy.val() | (bits::<64>(1) << self.consts.index64[s].val());
                }
            }
        }
        // Set in one state only: a default everywhere else, so that it is wiring and not a latch.
        for l in 0..self._count.lanes {
            self.lrd_word[l].next = 0.into();
        }
        self.c_x.next = 0.into();
        self.c_y.next = 0.into();
        self.c_z.next = 0.into();
        self.c_live.next = 0.into();
        self.c_epoch.next = 0.into();
        self.f_any.next = false;
        self.f_slot.next = 0.into();
        for s in 0..self._count.ctas {
            if self.consts.index[s].val() == self.cur_slot.val() {
                self.c_x.next = self.s_x.q[s].val();
                self.c_y.next = self.s_y.q[s].val();
                self.c_z.next = self.s_z.q[s].val();
                self.c_live.next = self.s_live.q[s].val();
            }
            if self.consts.index[s].val() == self.e_slot.val() {
                self.c_epoch.next = self.s_epoch.q[s].val();
            }
            if !self.f_any.val() & (self.consts.index[s].val() < self.r_slots.q.val()) & !self.slot_busy.val().get_bit(s) {
                self.f_any.next = true;
                self.f_slot.next = self.consts.index[s].val();
            }
        }
        self.smem.clock.next = self.clock.val();
        for l in 0..self._count.lanes {
            self.rf[l].clock.next = self.clock.val();
            self.tids[l].clock.next = self.clock.val();
            self.fa_adr[l].clock.next = self.clock.val();
            self.fa_hw[l].clock.next = self.clock.val();
        }
        self.imem.clock.next = self.clock.val();
        // Every flip-flop bank holds its value unless assigned below.
        #[hdl_hold]
        self.wm_qrun.hold();
        #[hdl_hold]
        self.wm_qpart.hold();
        #[hdl_hold]
        self.wm_qbeat.hold();
        #[hdl_hold]
        self.s_x.hold();
        #[hdl_hold]
        self.s_y.hold();
        #[hdl_hold]
        self.s_z.hold();
        #[hdl_hold]
        self.s_epoch.hold();
        #[hdl_hold]
        self.s_live.hold();
        #[hdl_hold]
        self.w_epoch.hold();
        #[hdl_hold]
        self.alo.hold();
        #[hdl_hold]
        self.ahi.hold();
        #[hdl_hold]
        self.blo.hold();
        #[hdl_hold]
        self.bhi.hold();
        #[hdl_hold]
        self.clo.hold();
        #[hdl_hold]
        self.chi.hold();
        #[hdl_hold]
        self.rhi.hold();
        #[hdl_hold]
        self.su_res.hold();
        #[hdl_hold]
        self.su_pres.hold();
        #[hdl_hold]
        self.sbuf.hold();
        #[hdl_hold]
        self.sh_from.hold();
        #[hdl_hold]
        self.sh_from_ok.hold();
        #[hdl_hold]
        self.sh_acc.hold();
        #[hdl_hold]
        self.ladr.hold();
        #[hdl_hold]
        self.sadr.hold();
        #[hdl_hold]
        self.lw0.hold();
        #[hdl_hold]
        self.lw1.hold();
        #[hdl_hold]
        self.lw2.hold();
        #[hdl_hold]
        self.lw3.hold();
        #[hdl_hold]
        self.lrd_lo.hold();
        #[hdl_hold]
        self.lrd_hi.hold();
        self.ahi.clock.next = self.clock.val();
        self.alo.clock.next = self.clock.val();
        self.bhi.clock.next = self.clock.val();
        self.blo.clock.next = self.clock.val();
        self.chi.clock.next = self.clock.val();
        self.clo.clock.next = self.clock.val();
        self.ladr.clock.next = self.clock.val();
        self.sadr.clock.next = self.clock.val();
        self.lrd_hi.clock.next = self.clock.val();
        self.lrd_lo.clock.next = self.clock.val();
        self.lw0.clock.next = self.clock.val();
        self.lw1.clock.next = self.clock.val();
        self.lw2.clock.next = self.clock.val();
        self.lw3.clock.next = self.clock.val();
        self.rhi.clock.next = self.clock.val();
        self.su_res.clock.next = self.clock.val();
        self.su_pres.clock.next = self.clock.val();
        self.s_epoch.clock.next = self.clock.val();
        self.w_epoch.clock.next = self.clock.val();
        self.s_live.clock.next = self.clock.val();
        self.s_x.clock.next = self.clock.val();
        self.s_y.clock.next = self.clock.val();
        self.s_z.clock.next = self.clock.val();
        self.sbuf.clock.next = self.clock.val();
        self.sh_from.clock.next = self.clock.val();
        self.sh_from_ok.clock.next = self.clock.val();
        self.sh_acc.clock.next = self.clock.val();
        self.wm_qpart.clock.next = self.clock.val();
        self.wm_qrun.clock.next = self.clock.val();
        self.wm_qbeat.clock.next = self.clock.val();
        self.pcache.clock.next = self.clock.val();
        self.ibad.clock.next = self.clock.val();
        self.stack.clock.next = self.clock.val();
        for b in 0..7 {
            self.preds[b].clock.next = self.clock.val();
        }
        self.carry.clock.next = self.clock.val();
        self.exited.clock.next = self.clock.val();
        self.cycles.d.next = self.cycles.q.val() + 1;
        self.init_tids();
    }

    /// In state `Idle`.
    #[hdl_part]
    pub(super) fn on_idle(&mut self) {
        if self.host_we.val() {
            match self.host_addr.val().index() {
                0 => self.r_entry.d.next = self.host_wdata.val(),
                1 => self.r_grid_x.d.next = self.host_wdata.val(),
                2 => self.r_grid_y.d.next = self.host_wdata.val(),
                3 => self.r_grid_z.d.next = self.host_wdata.val(),
                4 => self.r_block_x.d.next = self.host_wdata.val(),
                5 => self.r_block_y.d.next = self.host_wdata.val(),
                6 => self.r_block_z.d.next = self.host_wdata.val(),
                7 => self.r_nthreads.d.next = self.host_wdata.val(),
                8 => self.r_nwarps.d.next = self.host_wdata.val(),
                9 => self.r_dyn.d.next = self.host_wdata.val(),
                10 => self.r_total.d.next = self.host_wdata.val(),
                11 => self.r_gridid.d.next = self.host_wdata.val(),
                12 => self.r_code_len.d.next = self.host_wdata.val(),
                13 => self.r_slots.d.next = self.host_wdata.val().get_bits::<8>(0),
                14 => self.r_slog.d.next = self.host_wdata.val().get_bits::<8>(0),
                15 => {
                    self.pcache.clear.next = true;
                    self.nx_x.d.next = 0.into();
                    self.nx_y.d.next = 0.into();
                    self.nx_z.d.next = 0.into();
                    self.nx_lin.d.next = 0.into();
                    self.more.d.next = true;
                    self.w_live.d.next = 0.into();
                    self.w_wait.d.next = 0.into();
                    self.w_red.d.next = 0.into();
                    self.icount.d.next = 0.into();
                    self.n.pf_st.next = pf::IDLE.into();
                    self.t_code.d.next = trap::NONE.into();
                    self.done_f.d.next = false;
                    self.n.state.next = SmState::Sched;
                }
                _ => {}
            }
        }
    }

    /// In state `NextCta`.
    /// Starts the CTA at (nx_x, nx_y, nx_z) in slot `slot`, and steps to the next one.
    #[hdl_part]
    pub(super) fn on_next_cta(&mut self) {
        self.epoch.d.next = self.epoch.q.val() + 1;
        if self.epoch.q.val() == 0xffff {
            self.t_code.d.next = trap::EPOCH.into();
            self.n.state.next = SmState::Trapped;
        } else {
            self.cta_start.next = true;
            self.smem.clear.next = true;
            self.init_w.d.next = self.i_base.val();
            self.init_k.d.next = 0.into();
            self.rem.d.next = self.r_nthreads.q.val();
            for s in 0..self._count.ctas {
                if self.consts.index[s].val() == self.slot.q.val() {
                    self.s_x.d[s].next = self.nx_x.q.val();
                    self.s_y.d[s].next = self.nx_y.q.val();
                    self.s_z.d[s].next = self.nx_z.q.val();
                    self.s_epoch.d[s].next = self.epoch.q.val() + 1;
                    self.s_live.d[s].next = self.r_nthreads.q.val();
                }
            }
            self.nx_lin.d.next = self.nx_lin.q.val() + 1;
            self.nx_x.d.next = self.nc_x.val();
            if self.nc_x.val() == self.r_grid_x.q.val() {
                self.nx_x.d.next = 0.into();
                self.nx_y.d.next = self.nx_y.q.val() + 1;
                if self.nx_y.q.val() + 1 == self.r_grid_y.q.val() {
                    self.nx_y.d.next = 0.into();
                    self.nx_z.d.next = self.nx_z.q.val() + 1;
                    if self.nx_z.q.val() + 1 == self.r_grid_z.q.val() {
                        self.more.d.next = false;
                    }
                }
            }
            self.n.state.next = SmState::InitWarp;
        }
    }

    /// In state `InitWarp`.
    #[hdl_part]
    pub(super) fn on_init_warp(&mut self) {
        self.n.cur.next = self.init_w.q.val().get_bits::<6>(0);
        self.pw.warp.next = self.init_w.q.val();
        self.pw.idx.next = bit_cast::<8, 4>(self.init_k.q.val());
        self.init_k.d.next = self.init_k.q.val() + 1;
        if (self.init_k.q.val() == 0) & (self.c_rf_epoch.val() == self.consts.epoch_last.val()) {
            // The warp's epoch is about to wrap: zero its words first.
            self.init_t.d.next = 0.into();
            self.n.state.next = SmState::InitFill;
        }
        if self.init_k.q.val() < 7 {
            // Every predicate RAM at once: then the warp's other state.
            self.pw.we.next = true;
            self.pw.all.next = true;
            self.pw.data.next = 0.into();
            self.init_k.d.next = 7.into();
        } else {
            self.ep_step.next = true;
            for w in 0..self._count.warps {
                if self.consts.index[w].val() == self.init_w.q.val() {
                    self.w_epoch.d[w].next = self.c_rf_epoch.val() + 1;
                }
            }
            self.stack.warp.next = self.init_w.q.val().get_bits::<6>(0);
            self.stack.cmd.next = stack::CMD_INIT.into();
            self.stack.pc.next = self.r_entry.q.val();
            self.stack.mask.next = self.present.val();
            self.stack.start.next = true;
            self.exited.waddr.next = bit_cast::<ADDR_BITS, 8>(self.init_w.q.val());
            self.exited.we.next = true;
            self.exited.wdata.next = !self.present.val() & self.consts.full.val();
            self.carry.waddr.next = bit_cast::<ADDR_BITS, 8>(self.init_w.q.val());
            self.carry.we.next = true;
            self.carry.wdata.next = 0.into();
            self.w_live.d.next = (self.w_live.q.val() | (bits::<64>(1) << self.init_w.q.val())) & self.consts.all_warps.val();
            self.rem.d.next = 0.into();
            if self.rem.q.val() > bit_cast::<32, 8>(self.consts.ws.val()) {
                self.rem.d.next = self.rem.q.val() - bit_cast::<32, 8>(self.consts.ws.val());
            }
            self.init_k.d.next = 0.into();
            self.init_w.d.next = self.init_w.q.val() + 1;
            if bit_cast::<32, 8>(self.init_w.q.val() + 1 - self.i_base.val()) == self.r_nwarps.q.val() {
                self.init_t.d.next = 0.into();
                self.tid_x.d.next = 0.into();
                self.tid_y.d.next = 0.into();
                self.tid_z.d.next = 0.into();
                self.n.state.next = SmState::InitThread;
            }
        }
    }

    /// In state `InitFill`.
    /// Word init_t of warp init_w's registers, in every lane: zero.
    #[hdl_part]
    pub(super) fn on_init_fill(&mut self) {
        for l in 0..self._count.lanes {
            self.rf[l].we.next = true;
            self.rf[l].waddr.next = (bit_cast::<ADDR_BITS, 8>(self.init_w.q.val()) << self.consts.rf_wshift.val())
                | bit_cast::<ADDR_BITS, 16>(self.init_t.q.val());
            self.rf[l].wdata.next = 0.into();
        }
        self.init_t.d.next = self.init_t.q.val() + 1;
        if self.init_t.q.val() == self.consts.rf_warp_last.val() {
            self.n.state.next = SmState::InitWarp;
        }
    }

    /// In state `InitThread`.
    /// Thread init_t: warp init_t / ws, thread in warp mt, its packed tid.
    /// A CTA at least `lanes` threads wide in x does a beat of threads a
    /// cycle: the x of each lane's thread wraps at most once.
    #[hdl_part]
    pub(super) fn on_init_thread(&mut self) {
        self.n.cur.next = bit_cast::<6, 8>(self.i_base.val()) + bit_cast::<6, 16>(self.init_t.q.val() >> self.consts.log_ws.val());
        if self.it_beat.val() {
            self.on_init_beat();
        } else {
            self.on_init_one();
        }
    }

    /// `InitThread`'s `tids` word (`it_addr`), and the tids of a beat of
    /// threads from lane 0's (`tid_x`, `tid_y`, `tid_z`): lane l's x is
    /// lane 0's + l, wrapped once (a CTA at least `lanes` threads wide in
    /// x, `it_beat`).
    #[hdl_part]
    pub(super) fn init_tids(&mut self) {
        // Thread init_t's word: its warp's, at its beat.
        self.it_addr.next = ((bit_cast::<ADDR_BITS, 16>(self.init_t.q.val() >> self.consts.log_ws.val())
            + bit_cast::<ADDR_BITS, 8>(self.i_base.val()))
            << self.consts.beat_bits.val())
            | bit_cast::<ADDR_BITS, 8>((self.init_t.q.val().get_bits::<8>(0) & (self.consts.ws.val() - 1)) >> self.consts.log_l.val());
        self.it_beat.next = self.r_block_x.q.val() >= bit_cast::<32, 8>(self.consts.lanes.val());
        self.it_y.next = self.tid_y.q.val() + 1;
        self.it_z.next = self.tid_z.q.val();
        if bit_cast::<32, 11>(self.tid_y.q.val() + 1) == self.r_block_y.q.val() {
            self.it_y.next = 0.into();
            self.it_z.next = self.tid_z.q.val() + 1;
        }
        for l in 0..self._count.lanes {
            self.it_x[l].next = self.tid_x.q.val() + bit_cast::<11, 8>(self.consts.index[l].val());
            self.it_tid[l].next = (bit_cast::<32, 7>(self.tid_z.q.val()) << 22)
                | (bit_cast::<32, 11>(self.tid_y.q.val()) << 11)
                | bit_cast::<32, 11>(self.it_x[l].val());
            if bit_cast::<32, 11>(self.it_x[l].val()) >= self.r_block_x.q.val() {
                self.it_tid[l].next = (bit_cast::<32, 7>(self.it_z.val()) << 22)
                    | (bit_cast::<32, 11>(self.it_y.val()) << 11)
                    | bit_cast::<32, 11>(self.it_x[l].val() - self.r_block_x.q.val().get_bits::<11>(0));
            }
        }
    }

    /// `InitThread` a beat at a time: each lane's thread's tid, then lane 0's
    /// of the next beat.
    #[hdl_part]
    pub(super) fn on_init_beat(&mut self) {
        for l in 0..self._count.lanes {
            self.tids[l].we.next = true;
            self.tids[l].waddr.next = self.it_addr.val();
            self.tids[l].wdata.next = self.it_tid[l].val();
        }
        self.init_t.d.next = self.init_t.q.val() + bit_cast::<16, 8>(self.consts.lanes.val());
        self.tid_x.d.next = self.tid_x.q.val() + bit_cast::<11, 8>(self.consts.lanes.val());
        if bit_cast::<32, 11>(self.tid_x.q.val() + bit_cast::<11, 8>(self.consts.lanes.val())) >= self.r_block_x.q.val() {
            self.tid_x.d.next = self.tid_x.q.val() + bit_cast::<11, 8>(self.consts.lanes.val()) - self.r_block_x.q.val().get_bits::<11>(0);
            self.tid_y.d.next = self.it_y.val();
            self.tid_z.d.next = self.it_z.val();
        }
        if bit_cast::<32, 16>(self.init_t.q.val() + bit_cast::<16, 8>(self.consts.lanes.val())) >= self.r_nthreads.q.val() {
            self.n.state.next = SmState::Sched;
        }
    }

    /// `InitThread` a thread at a time.
    #[hdl_part]
    pub(super) fn on_init_one(&mut self) {
        for l in 0..self._count.lanes {
            if ((self.init_t.q.val().get_bits::<8>(0) & (self.consts.ws.val() - 1)) & (self.consts.lanes.val() - 1))
                == self.consts.index[l].val()
            {
                self.tids[l].we.next = true;
            }
            self.tids[l].waddr.next = self.it_addr.val();
            self.tids[l].wdata.next = (bit_cast::<32, 7>(self.tid_z.q.val()) << 22)
                | (bit_cast::<32, 11>(self.tid_y.q.val()) << 11)
                | bit_cast::<32, 11>(self.tid_x.q.val());
        }
        self.init_t.d.next = self.init_t.q.val() + 1;
        self.tid_x.d.next = self.tid_x.q.val() + 1;
        if bit_cast::<32, 11>(self.tid_x.q.val() + 1) == self.r_block_x.q.val() {
            self.tid_x.d.next = 0.into();
            self.tid_y.d.next = self.tid_y.q.val() + 1;
            if bit_cast::<32, 11>(self.tid_y.q.val() + 1) == self.r_block_y.q.val() {
                self.tid_y.d.next = 0.into();
                self.tid_z.d.next = self.tid_z.q.val() + 1;
            }
        }
        if bit_cast::<32, 16>(self.init_t.q.val() + 1) == self.r_nthreads.q.val() {
            self.n.state.next = SmState::Sched;
        }
    }
}
