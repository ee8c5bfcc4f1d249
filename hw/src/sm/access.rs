//! Memory instructions: the thread-at-a-time loop of system calls
//! (`MemAddr` to `MemWb`), and the beats of loads, stores and atomics
//! (`BeatAddr` to `BeatWb`) through shared memory or the bus master.
//!
//! Parts of `Sm::update()` (`#[hdl_part]`): see the module doc of `sm`.

use super::*;

impl Sm {
    /// Shared memory: which lanes of the beat it serves, their checks
    /// (as the golden model's: alignment, then bounds), SharedMem's inputs.
    #[hdl_part]
    pub(super) fn smem_lanes(&mut self) {
        self.sm_passes.next = self.words.val();
        // SharedMem's mode (`smem::mode`: 0 load, 1 store, 2 atomic).
        self.smem.mode.next = 0.into();
        if self.cls.val() == class::ST {
            self.smem.mode.next = 1.into();
        }
        if self.cls.val() == class::ATOM {
            self.sm_passes.next = 1.into();
            self.smem.mode.next = 2.into();
        }
        self.smem.size.next = self.sm_size.val();
        self.smem.atom_op.next = self.f_mod.val().get_bits::<4>(0);
        self.smem.clear.next = false;
        self.sh_rows.next = (self.r_total.q.val() + self.consts.row_round.val()) >> self.consts.row_log.val();
        self.smem.clear_rows.next = self.sh_rows.val().get_bits::<16>(0);
        self.clr_from.next = bit_cast::<16, 8>(self.slot.q.val()) * self.sh_rows.val().get_bits::<16>(0);
        self.smem.clear_from.next = self.clr_from.val().get_bits::<16>(0);
        self.sh_base.next = (bit_cast::<16, 8>(self.cur_slot.val()) * self.sh_rows.val().get_bits::<16>(0)) << self.consts.row_log.val();
        self.sh_mask.next = 0.into();
        self.sh_found.next = false;
        self.sh_first.next = 0.into();
        self.sh_addr.next = 0.into();
        self.sh_mis.next = false;
        self.sh_below.next = self.consts.lanes_mask.val();
        self.in_beat.next = (self.state.q.val() == SmState::BeatReq) | (self.state.q.val() == SmState::SmemAcc);
        // A pipelined shared load's pass serves its own beat's lanes: the
        // lane mask is already the next beat's.
        self.sh_lanes.next = self.lane_mask.val();
        if self.spipe.q.val() & (self.state.q.val() == SmState::SmemAcc) {
            self.sh_lanes.next = self.sp_mask.q.val();
        }
        for l in 0..self._count.lanes {
            self.sp_word[l].next = bit_cast::<64, 32>(self.smem.rword[l].val());
            if (self.mwidth.val() == width::S8) & self.smem.rword[l].val().get_bit(7) {
                self.sp_word[l].next = bit_cast::<64, 32>(self.smem.rword[l].val()) | self.consts.sx8.val();
            }
            if (self.mwidth.val() == width::S16) & self.smem.rword[l].val().get_bit(15) {
                self.sp_word[l].next = bit_cast::<64, 32>(self.smem.rword[l].val()) | self.consts.sx16.val();
            }
            self.lsh[l].next = false;
            self.soff[l].next = 0.into();
            self.smem.addr[l].next = self.sadr.q[l].val();
            self.smem.paddr[l].next = 0.into();
            self.smem.wdata[l].next = 0.into();
            self.smem.b[l].next = 0.into();
            self.smem.c[l].next = 0.into();
            if self.in_beat.val() {
                self.lsh[l].next = self.m_space.val() == space::SHARED;
                self.soff[l].next = self.ladr.q[l].val().get_bits::<32>(0);
                if (self.m_space.val() == space::GEN)
                    & (self.soff[l].val() >= self.consts.sh_win.val())
                    & (self.soff[l].val() < self.consts.lo_win.val())
                {
                    self.lsh[l].next = true;
                    self.soff[l].next = self.soff[l].val() - self.consts.sh_win.val();
                }
                // In bounds: offset < total and total - offset >= size (no overflow).
                if self.lsh[l].val() & self.sh_lanes.val().get_bit(l) {
                    self.sh_mask.next = self.sh_mask.val() | self.consts.lane_bit[l].val();
                    if !self.sh_found.val()
                        & (((self.soff[l].val() & (self.asz.val() - 1)) != 0)
                            | (self.soff[l].val() >= self.r_total.q.val())
                            | ((self.r_total.q.val() - self.soff[l].val()) < self.asz.val()))
                    {
                        self.sh_found.next = true;
                        self.sh_first.next = self.consts.index[l].val();
                        self.sh_addr.next = self.ladr.q[l].val().get_bits::<32>(0);
                        self.sh_mis.next = (self.soff[l].val() & (self.asz.val() - 1)) != 0;
                        self.sh_below.next = self.consts.lane_bit[l].val() - 1;
                    }
                }
                // Other lanes (not atomics: the memory checks those) are checked
                // for alignment here, as they must not straddle bus words.
                if !self.lsh[l].val()
                    & self.sh_lanes.val().get_bit(l)
                    & !self.sh_found.val()
                    & (self.cls.val() != class::ATOM)
                    & ((self.soff[l].val() & (self.asz.val() - 1)) != 0)
                {
                    self.sh_found.next = true;
                    self.sh_first.next = self.consts.index[l].val();
                    self.sh_addr.next = self.ladr.q[l].val().get_bits::<32>(0);
                    self.sh_mis.next = true;
                    self.sh_below.next = self.consts.lane_bit[l].val() - 1;
                }
                // `SmemAcc`'s passes take their addresses from `sadr`, set in
                // `BeatReq`, where a pipelined load's pass starts from them (`paddr`).
                self.smem.paddr[l].next = self.soff[l].val() + self.sh_base.val();
                if self.state.q.val() == SmState::BeatReq {
                    self.sadr.d[l].next = self.soff[l].val() + self.sh_base.val();
                }
                match self.mk.q.val().index() {
                    0 => self.smem.wdata[l].next = self.lw0.q[l].val().get_bits::<32>(0),
                    1 => self.smem.wdata[l].next = self.lw1.q[l].val().get_bits::<32>(0),
                    2 => self.smem.wdata[l].next = self.lw2.q[l].val().get_bits::<32>(0),
                    _ => self.smem.wdata[l].next = self.lw3.q[l].val().get_bits::<32>(0),
                }
                self.smem.b[l].next = self.lw_lo[l].val();
                self.smem.c[l].next = self.lw_hi[l].val();
            }
        }
        // A pass's lanes: the beat's shared lanes, taken in `BeatReq` (`sm_lanes`).
        self.smem.mask.next = self.sm_lanes.q.val();
        self.smem.pmask.next = self.sh_mask.val();
        // The bus takes the other lanes, below the first lane the SM faults.
        self.port_mask.next = self.sh_lanes.val() & !self.sh_mask.val() & self.sh_below.val();
        self.coal.active.next = self.port_mask.val();
        // No bus transfer pending, in flight or unanswered, from the
        // registers: where `wm.fin` would say so after this cycle's answers,
        // without waiting for them. A pipelined shared load (no bus lanes)
        // ends its `BeatReq` on it, and its pass starts with it (`sp_start`;
        // `SmemAcc` starts one the memory's clearing held back).
        self.wm.quiet.next = self.port_mask.val() == 0;
        if self.wm_go.q.val() {
            self.wm.quiet.next = (self.wm_pend.q.val() == 0) & (self.wm_fly.q.val() == 0);
        }
        self.wm.quiet.next = self.wm.quiet.val() & !self.wm_drain.q.val() & (self.wm_cnt.q.val() == 0);
        self.smem.start.next = false;
        self.smem.pstart.next = (self.state.q.val() == SmState::BeatReq)
            & self.spipe.q.val()
            & self.wm.quiet.val()
            & !self.sh_found.val()
            & (self.sh_mask.val() != 0)
            & !self.smem.clearing.val();
        // A load commits in its last write-back cycle (`commit_wb`), a
        // pipelined shared load at its last pass's end.
        self.sp_end.next = self.spipe.q.val()
            & (self.state.q.val() == SmState::SmemAcc)
            & !self.smem.clearing.val()
            & !self.smem.left.val()
            & self.sp_fin.q.val();
        self.commit_ld.next = self.commit_wb.val() | self.sp_end.val();
    }

    /// The memory loop's next executing thread at or after mt (m_found: there is one).
    #[hdl_part]
    pub(super) fn mem_loop_next(&mut self) {
        self.m_next.next = 0.into();
        self.m_found.next = false;
        if self.state.q.val() == SmState::MemAddr {
            for e in 0..self._count.ws {
                if !self.m_found.val() & self.exec.q.val().get_bit(e) & (self.consts.index64[e].val() >= self.mt64.val()) {
                    self.m_next.next = self.consts.index64[e].val();
                    self.m_found.next = true;
                }
            }
        }
    }

    /// In state `MemAddr`.
    /// Thread mt (a system call's, or a barrier's first): skip it unless it
    /// executes; a barrier takes its id and count from it.
    #[hdl_part]
    pub(super) fn on_mem_addr(&mut self) {
        self.c_mem.d.next = self.c_mem.q.val() + 1;
        self.n.mk.next = 0.into();
        if ((self.exec.q.val() >> self.mt.q.val()) & 1) != 0 {
            self.n.state.next = SmState::MemData;
            if (self.cls.val() == class::BAR) | (self.cls.val() == class::BARRED) {
                self.n.bar_id.next = self.sel_b.val().get_bits::<32>(0);
                if self.f_i.val() {
                    self.n.bar_id.next = self.f_imm.val();
                }
                self.bar_count.d.next = self.sel_a.val().get_bits::<32>(0);
                self.n.state.next = SmState::BarArrive;
            }
        } else {
            // Skip to the next executing thread, or finish.
            self.n.mt.next = self.m_next.val().get_bits::<8>(0);
            if !self.m_found.val() {
                self.n.state.next = SmState::Commit;
            }
        }
    }

    /// In state `MemData`.
    /// A system call's argument words a+k.
    #[hdl_part]
    pub(super) fn on_mem_data(&mut self) {
        self.c_mem.d.next = self.c_mem.q.val() + 1;
        self.n.mk.next = self.mk.q.val() + 1;
        match self.mk.q.val().index() {
            0 => self.wb0.d.next = self.sel_c.val().get_bits::<32>(0),
            1 => self.wb1.d.next = self.sel_c.val().get_bits::<32>(0),
            2 => self.wb2.d.next = self.sel_c.val().get_bits::<32>(0),
            3 => self.wb3.d.next = self.sel_c.val().get_bits::<32>(0),
            4 => self.cb0.d.next = self.sel_c.val().get_bits::<32>(0),
            5 => self.cb1.d.next = self.sel_c.val().get_bits::<32>(0),
            _ => self.wb4.d.next = self.sel_c.val().get_bits::<32>(0),
        }
        if bit_cast::<3, 3>(self.mk.q.val() + 1) == self.words.val() {
            self.n.state.next = SmState::MemReq;
        }
    }

    /// In state `MemReq`.
    #[hdl_part]
    pub(super) fn on_mem_req(&mut self) {
        self.c_mem.d.next = self.c_mem.q.val() + 1;
        self.mem_req.next = true;
        self.n.mk.next = 0.into();
        self.rb_lo.d.next = self.mem_rdata.val();
        if self.mem_fault.val() {
            self.t_code.d.next = trap::MEMORY.into();
            self.t_pc.d.next = self.pc.q.val();
            self.t_lane.d.next = self.mt.q.val();
            self.n.state.next = SmState::Trapped;
        } else if (self.f_d.val() == operand::RZ) | self.f_mod.val().get_bit(1) {
            // No result (free, __assertfail) or no destination.
            self.n.state.next = SmState::MemAddr;
            self.n.mt.next = self.mt.q.val() + 1;
            if self.mt.q.val() == self.consts.ws.val() - 1 {
                self.n.state.next = SmState::Commit;
            }
        } else {
            self.n.state.next = SmState::MemWb;
        }
    }

    /// In state `MemWb`.
    /// The result's words (one, or two for malloc) into d+k of thread mt.
    #[hdl_part]
    pub(super) fn on_mem_wb(&mut self) {
        self.c_mem.d.next = self.c_mem.q.val() + 1;
        self.n.mk.next = self.mk.q.val() + 1;
        self.rd_word.next = self.rb_lo.q.val() & self.consts.lo32.val();
        if self.mk.q.val() != 0 {
            self.rd_word.next = self.rb_lo.q.val() >> 32;
        }
        for l in 0..self._count.lanes {
            if (self.m_lane.val() == self.consts.index[l].val()) & (self.f_d.val() + bit_cast::<7, 3>(self.mk.q.val()) != operand::RZ) {
                self.rf[l].we.next = true;
            }
            self.rf[l].waddr.next = self.rf_base.val()
                | bit_cast::<ADDR_BITS, 7>((self.f_d.val() + bit_cast::<7, 3>(self.mk.q.val())) & self.consts.rmask.val());
            self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.rd_word.val());
        }
        if bit_cast::<3, 3>(self.mk.q.val() + 1) == self.words.val() {
            self.n.state.next = SmState::MemAddr;
            self.n.mt.next = self.mt.q.val() + 1;
            if self.mt.q.val() == self.consts.ws.val() - 1 {
                self.n.state.next = SmState::Commit;
            }
        }
    }

    /// In state `BeatAddr`.
    /// Each lane's address (a + b or a + imm; atomics: a); a beat with no
    /// executing lane is skipped.
    #[hdl_part]
    pub(super) fn on_beat_addr(&mut self) {
        self.c_mem.d.next = self.c_mem.q.val() + 1;
        self.n.mk.next = 0.into();
        self.wm_go.d.next = false;
        self.wm_single.d.next = false;
        // A fast instruction's later beats keep the queue: the earlier
        // beats' transfers are still answered (`fast_queue`).
        if !self.fast.q.val() | (self.beat.q.val() == 0) {
            self.wm_drain.d.next = false;
            self.wm_cnt.d.next = 0.into();
            self.n.qh.next = 0.into();
            self.wm_qt.d.next = 0.into();
        }
        self.beat_lanes();
        for l in 0..self._count.lanes {
            if self.cls.val() == class::ATOM {
                self.ladr.d[l].next = self.va[l].val();
            }
            if self.fast.q.val() {
                self.fa_adr[l].we.next = true;
                self.fa_adr[l].waddr.next = bit_cast::<ADDR_BITS, 8>(self.cur_beat.val());
                self.fa_adr[l].wdata.next = bit_cast::<32, 64>(self.va[l].val() + self.lane_b[l].val());
            }
        }
        // (A fast instruction's last beat waits in BeatReq for the answers.)
        if (self.lane_mask.val() == 0) & !(self.fast.q.val() & self.beat_last.val()) {
            self.beat_end.next = true;
        } else if self.phit.q.val() {
            // A kept parameter: no transfer; the monitor hears of it as of
            // shared lanes (`smem_done`, in BeatWb's first cycle).
            for l in 0..self._count.lanes {
                self.lrd_lo.d[l].next = self.pcache.val.val();
            }
            self.sm_done.d.next = true;
            self.sm_lanes.d.next = self.lane_mask.val();
            self.n.state.next = SmState::BeatWb;
        } else if self.cls.val() == class::LD {
            self.n.state.next = SmState::BeatReq;
        } else {
            self.n.state.next = SmState::BeatData;
        }
    }

    /// A beat's lanes: each one's address (a + b or a + imm), its loaded
    /// data cleared.
    #[hdl_part]
    pub(super) fn beat_lanes(&mut self) {
        self.n.mt.next = self.beat_base.val();
        for l in 0..self._count.lanes {
            self.lrd_lo.d[l].next = 0.into();
            self.lrd_hi.d[l].next = 0.into();
            self.ladr.d[l].next = (self.va[l].val() + self.lane_b[l].val()) & self.consts.lo32.val();
        }
    }

    /// A pipelined shared load's next beat, in its last pass's last cycle:
    /// `BeatAddr`'s work for a load from shared memory (a beat with no
    /// executing lane is skipped).
    #[hdl_part]
    pub(super) fn sp_next_beat(&mut self) {
        self.wm_go.d.next = false;
        self.wm_single.d.next = false;
        self.beat_lanes();
        if self.lane_mask.val() == 0 {
            self.beat_end.next = true;
        } else {
            self.n.state.next = SmState::BeatReq;
        }
    }

    /// In state `BeatData`.
    /// Store data words d+k, or atomic operands b+k (or the immediate) and c+k.
    #[hdl_part]
    pub(super) fn on_beat_data(&mut self) {
        self.c_mem.d.next = self.c_mem.q.val() + 1;
        self.n.mk.next = self.mk.q.val() + 1;
        for l in 0..self._count.lanes {
            if self.cls.val() == class::ST {
                match self.mk.q.val().index() {
                    0 => self.lw0.d[l].next = self.vc[l].val(),
                    1 => self.lw1.d[l].next = self.vc[l].val(),
                    2 => self.lw2.d[l].next = self.vc[l].val(),
                    _ => self.lw3.d[l].next = self.vc[l].val(),
                }
            } else if self.mk.q.val() == 0 {
                self.lw0.d[l].next = self.lane_b[l].val() & self.consts.lo32.val();
                self.lw2.d[l].next = self.vc[l].val();
            } else {
                self.lw1.d[l].next = self.vb[l].val();
                self.lw3.d[l].next = self.vc[l].val();
            }
        }
        if bit_cast::<3, 3>(self.mk.q.val() + 1) == self.words.val() {
            self.n.state.next = SmState::BeatReq;
        }
    }

    /// In state `BeatReq`.
    /// The beat's bus lanes (the module doc of `bus`), then its shared lanes or write-back.
    #[hdl_part]
    pub(super) fn on_beat_req(&mut self) {
        self.c_mem.d.next = self.c_mem.q.val() + 1;
        self.n.mk.next = 0.into();
        self.sm_lanes.d.next = self.sh_mask.val();
        self.wm_go.d.next = true;
        self.wm_pend.d.next = self.wm.pend_now.val();
        self.wm_part.d.next = self.wm.part_now.val();
        self.wm_fly.d.next = self.wm.fly_now.val();
        self.wm_cnt.d.next = self.wm.cnt_now.val();
        if (self.wb_ack.val() | self.wb_err.val()) & (self.wm_cnt.q.val() != 0) {
            self.n.qh.next = (self.wm_qh.q.val() + 1) & self.consts.wm_qmask.val();
        }
        if self.wm_drain.q.val() & (self.wm_cnt.q.val() == 0) {
            // Drained: CYC is low this cycle; the retries start in the next.
            self.wm_drain.d.next = false;
        }
        if self.wm.issue.val() & !self.wb_stall.val() {
            for i in 0..self._count.depth {
                if self.wm_qt.q.val() == self.consts.index[i].val() {
                    self.wm_qrun.d[i].next = self.wm.runw.val();
                    self.wm_qpart.d[i].next = self.wm.part_now.val();
                    self.wm_qbeat.d[i].next = self.beat.q.val();
                }
            }
            self.wm_qt.d.next = (self.wm_qt.q.val() + 1) & self.consts.wm_qmask.val();
            self.wm_cnt.d.next = self.wm.cnt_now.val() + 1;
            self.wm_fly.d.next = self.wm.fly_now.val() | self.wm.runw.val();
            self.wm_part.d.next = self.wm.part_now.val() + 1;
            if (self.wm.part_now.val() + 1) == self.wm.nparts.val() {
                self.wm_pend.d.next = self.wm.pend_now.val() & !self.wm.runw.val();
                self.wm_part.d.next = 0.into();
            }
            self.c_txn.d.next = self.c_txn.q.val() + 1;
        }
        if self.wm.ack.val() {
            for l in 0..self._count.lanes {
                if self.wm.hrun.val().get_bit(l) {
                    self.lrd_lo.d[l].next = self.lrd_lo.q[l].val() | self.wbl.rlo[l].val();
                    self.lrd_hi.d[l].next = self.lrd_hi.q[l].val() | self.wbl.rhi[l].val();
                    if self.cls.val() == class::ATOM {
                        self.lrd_lo.d[l].next = self.wb_tgd_r.val();
                    }
                }
            }
        }
        // (A fast instruction's `ERR` starts it again: `fast_abort`.)
        if self.wm.err.val() & !self.fast.q.val() {
            if (self.wm.hrun.val() & (self.wm.hrun.val() - 1)) != 0 {
                // Drain the younger transfers (the memory refuses them), then
                // retry every lane not done, this transfer's a lane at a time.
                self.wm_drain.d.next = true;
                self.wm_single.d.next = true;
                self.wm_rep.d.next = self.wm.hrun.val();
                self.wm_pend.d.next = self.wm.pend_now.val() | self.wm.fly_now.val();
                self.wm_part.d.next = 0.into();
                self.wm_fly.d.next = 0.into();
            } else {
                self.t_code.d.next = trap::MEMORY.into();
                self.t_pc.d.next = self.pc.q.val();
                self.t_lane.d.next = self.mt.q.val() + self.wm.fli.val();
                self.n.state.next = SmState::Trapped;
            }
        } else if self.beat_fin.val() {
            if self.sh_found.val() {
                self.t_code.d.next = trap::SHARED_OUT_OF_BOUNDS.into();
                if self.sh_mis.val() {
                    self.t_code.d.next = trap::MISALIGNED.into();
                }
                self.t_val.d.next = self.sh_addr.val();
                self.t_pc.d.next = self.pc.q.val();
                self.t_lane.d.next = self.mt.q.val() + self.sh_first.val();
                self.n.state.next = SmState::Trapped;
            } else if self.sh_mask.val() != 0 {
                self.sm_pass.d.next = false;
                self.n.state.next = SmState::SmemAcc;
                if self.spipe.q.val() {
                    self.sp_start();
                }
            } else if (self.cls.val() == class::ST) | (self.f_d.val() == operand::RZ) | self.fa_one.val() {
                self.beat_end.next = true;
            } else if self.fast.q.val() {
                // A fast 64-bit load: its second words, a beat a cycle.
                self.n.beat.next = 0.into();
                self.n.state.next = SmState::FastHi;
            } else {
                self.n.state.next = SmState::BeatWb;
            }
        }
        // A fast beat other than the last goes on once its transfers are out.
        if self.fast.q.val() & self.fa_issued.val() & !self.sh_found.val() & !self.beat_last.val() & !self.wm.err.val() {
            self.beat_end.next = true;
        }
    }

    /// In state `FastDrain`.
    /// A fast instruction met an `ERR`: the memory refuses the transfers
    /// after it, and their answers are taken; then the instruction starts
    /// again from its first beat, waiting for each beat's answers, which
    /// makes its fault precise.
    #[hdl_part]
    pub(super) fn on_fast_drain(&mut self) {
        self.c_mem.d.next = self.c_mem.q.val() + 1;
        if self.wm.cnt_now.val() == 0 {
            self.wm_drain.d.next = false;
            self.fast.d.next = false;
            self.n.beat.next = 0.into();
            self.mem_redo.next = true;
            self.n.state.next = SmState::BeatAddr;
        }
    }

    /// In state `FastHi`.
    /// A fast 64-bit load's second words (kept in `fa_hw` as they came)
    /// into d+1 of the beat's executing lanes; it commits in the last beat.
    #[hdl_part]
    pub(super) fn on_fast_hi(&mut self) {
        self.c_mem.d.next = self.c_mem.q.val() + 1;
        for l in 0..self._count.lanes {
            self.fa_hi[l].next = self.fa_hw[l].rdata.val();
            self.rf[l].we.next = self.beat_exec.val().get_bit(l) & ((self.f_d.val() + 1) != operand::RZ);
            self.rf[l].waddr.next = self.rf_base.val() | bit_cast::<ADDR_BITS, 7>((self.f_d.val() + 1) & self.consts.rmask.val());
            self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 32>(self.fa_hi[l].val());
        }
        if self.beat_last.val() {
            self.beat_end.next = true;
        } else {
            self.n.beat.next = self.beat.q.val() + 1;
        }
    }

    /// A fast instruction: the queue's head and count move in every state of
    /// its beats (BeatReq moves them itself, after this); each answer of a
    /// load is written to its lanes' registers and reported to the
    /// monitor; a store's lanes are reported as their last transfer is
    /// issued.
    #[hdl_part]
    pub(super) fn fast_queue(&mut self) {
        self.fa_beats.next = (self.state.q.val() == SmState::BeatAddr)
            | (self.state.q.val() == SmState::BeatData)
            | (self.state.q.val() == SmState::BeatReq)
            | (self.state.q.val() == SmState::FastDrain);
        if self.fast.q.val() & self.fa_beats.val() {
            self.wm_cnt.d.next = self.wm.cnt_now.val();
            if (self.wb_ack.val() | self.wb_err.val()) & (self.wm_cnt.q.val() != 0) {
                self.n.qh.next = (self.wm_qh.q.val() + 1) & self.consts.wm_qmask.val();
            }
        }
        self.wm_hbeat.next = 0.into();
        for i in 0..self._count.depth {
            if self.wm_qh.q.val() == self.consts.index[i].val() {
                self.wm_hbeat.next = self.wm_qbeat.q[i].val();
            }
        }
        self.fa_hbase.next = self.wm_hbeat.val() << self.consts.log_l.val();
        self.fa_load.next = self.fast.q.val() & self.wm.ack.val() & (self.cls.val() == class::LD);
        if self.fast.q.val() {
            self.bus_done.next = false;
        }
        if self.fast.q.val()
            & (self.cls.val() == class::ST)
            & self.wm.issue.val()
            & !self.wb_stall.val()
            & ((self.wm.part_now.val() + 1) == self.wm.nparts.val())
        {
            self.bus_done.next = true;
            self.bus_mask.next = self.wm.runw.val();
        }
        // The answer to a parameter load the cache may keep: the same
        // value on every lane.
        if self.fa_load.val() & self.pk_look.val() {
            self.pcache.fill.next = true;
            for l in 0..self._count.lanes {
                if self.wm.hrun.val().get_bit(l) {
                    self.pcache.fdata.next = self.wbl.rlo[l].val();
                }
            }
        }
        if self.fa_load.val() {
            self.bus_done.next = true;
            self.bus_mask.next = self.wm.hrun.val();
            self.mem_thread.next = self.warp_t0.val() | bit_cast::<16, 8>(self.fa_hbase.val());
            self.mem_lane.next = self.fa_hbase.val();
        }
        for l in 0..self._count.lanes {
            self.fa_hi[l].next = 0.into();
            self.fa_ladr[l].next = 0.into();
            if self.fa_load.val() {
                self.fa_ladr[l].next = self.fa_adr[l].rdata.val();
            }
            // The answer's lanes read at their beat's addresses.
            if self.fa_load.val() {
                self.wbl.raddr[l].next = self.fa_ladr[l].val();
            }
            self.fa_word[l].next = self.wbl.rlo[l].val() & self.consts.lo32.val();
            if (self.mwidth.val() == width::S8) & self.wbl.rlo[l].val().get_bit(7) {
                self.fa_word[l].next = (self.wbl.rlo[l].val() & self.consts.lo32.val()) | self.consts.sx8.val();
            }
            if (self.mwidth.val() == width::S16) & self.wbl.rlo[l].val().get_bit(15) {
                self.fa_word[l].next = (self.wbl.rlo[l].val() & self.consts.lo32.val()) | self.consts.sx16.val();
            }
            if self.fa_load.val() & self.wm.hrun.val().get_bit(l) {
                self.mem_laddr[l].next = self.fa_ladr[l].val();
                self.mem_ldata[l].next = self.wbl.rlo[l].val();
                self.mem_ldata_hi[l].next = self.wbl.rhi[l].val();
                self.rf[l].we.next = self.f_d.val() != operand::RZ;
                self.rf[l].waddr.next = (bit_cast::<ADDR_BITS, 6>(self.cur.q.val()) << self.consts.rf_wshift.val())
                    | (bit_cast::<ADDR_BITS, 8>(self.wm_hbeat.val()) << self.consts.rbits.val())
                    | bit_cast::<ADDR_BITS, 7>(self.f_d.val() & self.consts.rmask.val());
                self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.fa_word[l].val());
                if self.words.val() == 2 {
                    self.fa_hw[l].we.next = true;
                    self.fa_hw[l].waddr.next = bit_cast::<ADDR_BITS, 8>(self.wm_hbeat.val());
                    self.fa_hw[l].wdata.next = bit_cast::<32, 64>(self.wbl.rlo[l].val() >> 32);
                }
            }
        }
    }

    /// A fast instruction's `ERR` (in any state of its beats): drain, then
    /// start again (`FastDrain`). It overrides the state the beat chose.
    #[hdl_part]
    pub(super) fn fast_abort(&mut self) {
        self.fa_abort.next = self.fast.q.val() & self.wm.err.val() & self.fa_beats.val();
        if self.fa_abort.val() {
            self.wm_drain.d.next = true;
            self.n.state.next = SmState::FastDrain;
        }
    }

    /// A pipelined shared load's beat starts its pass in `BeatReq` (unless
    /// the memory is clearing: then `SmemAcc` starts it), keeps what its
    /// write-back needs, and moves to the next beat, whose registers are
    /// read during the pass: its address is taken as the pass ends.
    #[hdl_part]
    pub(super) fn sp_start(&mut self) {
        self.sp_mask.d.next = self.sh_mask.val();
        self.sp_base.d.next = self.rf_base.val();
        self.sp_fin.d.next = self.beat_last.val();
        if !self.beat_last.val() {
            self.n.beat.next = self.beat.q.val() + 1;
        }
        if !self.smem.clearing.val() {
            self.sm_pass.d.next = true;
            if self.smem.waited.val() {
                self.c_conf.d.next = self.c_conf.q.val() + 1;
            }
        }
    }

    /// In state `SmemAcc`.
    /// The beat's shared lanes through SharedMem: one pass per 32-bit
    /// word (an atomic: one pass), each as many cycles as its bank
    /// conflicts need (a load's one more, an atomic's two per
    /// lane); the data goes where the bus's would.
    #[hdl_part]
    pub(super) fn on_smem_acc(&mut self) {
        self.c_mem.d.next = self.c_mem.q.val() + 1;
        if !self.smem.clearing.val() {
            self.smem.start.next = !self.sm_pass.q.val();
            self.sm_pass.d.next = true;
            for l in 0..self._count.lanes {
                if self.smem.grant.val().get_bit(l) {
                    if self.spipe.q.val() {
                        // Pipelined: the word goes to the register now.
                        self.mem_ldata[l].next = bit_cast::<64, 32>(self.smem.rword[l].val());
                        self.rf[l].we.next = self.f_d.val() != operand::RZ;
                        self.rf[l].waddr.next = self.sp_base.q.val() | bit_cast::<ADDR_BITS, 7>(self.f_d.val() & self.consts.rmask.val());
                        self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.sp_word[l].val());
                    }
                    if self.cls.val() == class::ATOM {
                        self.lrd_lo.d[l].next = self.smem.aold.val();
                        self.lw0.d[l].next = self.smem.anew.val() & self.consts.lo32.val();
                        self.lw1.d[l].next = self.smem.anew.val() >> 32;
                    } else {
                        match self.mk.q.val().index() {
                            0 => self.lrd_lo.d[l].next = bit_cast::<64, 32>(self.smem.rword[l].val()),
                            1 => self.lrd_lo.d[l].next = self.lrd_lo.q[l].val() | (bit_cast::<64, 32>(self.smem.rword[l].val()) << 32),
                            2 => self.lrd_hi.d[l].next = bit_cast::<64, 32>(self.smem.rword[l].val()),
                            _ => self.lrd_hi.d[l].next = self.lrd_hi.q[l].val() | (bit_cast::<64, 32>(self.smem.rword[l].val()) << 32),
                        }
                    }
                }
            }
            if self.smem.waited.val() {
                self.c_conf.d.next = self.c_conf.q.val() + 1;
            }
            if !self.smem.left.val() {
                self.sm_pass.d.next = false;
                // The next pass is the next 32-bit word of each lane's access.
                for l in 0..self._count.lanes {
                    self.sadr.d[l].next = self.sadr.q[l].val() + 4;
                }
                self.n.mk.next = self.mk.q.val() + 1;
                if bit_cast::<3, 3>(self.mk.q.val() + 1) == self.sm_passes.val() {
                    self.n.mk.next = 0.into();
                    if self.spipe.q.val() {
                        // The monitor hears of the beat now; the next beat's
                        // address is taken in this cycle (its registers were
                        // read in the last), or the instruction commits.
                        self.smem_done.next = true;
                        self.smem_mask.next = self.sp_mask.q.val();
                        if self.sp_fin.q.val() {
                            self.beat_end.next = true;
                        } else {
                            self.sp_next_beat();
                        }
                    } else {
                        self.sm_done.d.next = true;
                        if (self.cls.val() == class::ST) | (self.f_d.val() == operand::RZ) {
                            self.beat_end.next = true;
                        } else {
                            self.n.state.next = SmState::BeatWb;
                        }
                    }
                }
            }
        }
    }

    /// In state `BeatWb`.
    /// Loaded words (sign-extended s8/s16) into d+k of every executing lane.
    #[hdl_part]
    pub(super) fn on_beat_wb(&mut self) {
        self.c_mem.d.next = self.c_mem.q.val() + 1;
        self.n.mk.next = self.mk.q.val() + 1;
        for l in 0..self._count.lanes {
            match self.mk.q.val().index() {
                0 => self.lrd_word[l].next = self.lrd_lo.q[l].val() & self.consts.lo32.val(),
                1 => self.lrd_word[l].next = self.lrd_lo.q[l].val() >> 32,
                2 => self.lrd_word[l].next = self.lrd_hi.q[l].val() & self.consts.lo32.val(),
                _ => self.lrd_word[l].next = self.lrd_hi.q[l].val() >> 32,
            }
            if (self.mwidth.val() == width::S8) & self.lrd_lo.q[l].val().get_bit(7) {
                self.lrd_word[l].next = (self.lrd_lo.q[l].val() & self.consts.lo32.val()) | self.consts.sx8.val();
            }
            if (self.mwidth.val() == width::S16) & self.lrd_lo.q[l].val().get_bit(15) {
                self.lrd_word[l].next = (self.lrd_lo.q[l].val() & self.consts.lo32.val()) | self.consts.sx16.val();
            }
            self.rf[l].we.next = self.beat_exec.val().get_bit(l) & (self.f_d.val() + bit_cast::<7, 3>(self.mk.q.val()) != operand::RZ);
            self.rf[l].waddr.next = self.rf_base.val()
                | bit_cast::<ADDR_BITS, 7>((self.f_d.val() + bit_cast::<7, 3>(self.mk.q.val())) & self.consts.rmask.val());
            self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.lrd_word[l].val());
        }
        if bit_cast::<3, 3>(self.mk.q.val() + 1) == self.words.val() {
            self.beat_end.next = true;
        }
    }
}
