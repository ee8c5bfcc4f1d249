//! The lanes: register-file addressing, each lane's operands and its ALU,
//! FPU and shared-unit results, and `Exec`, the beats of an ALU
//! instruction.
//!
//! Register files: per lane, three copies of one RAM (three read ports, one
//! write port), addressed `warp | beat | register`, the register number
//! masked to the bits `regs_per_thread` needs (`tiny`'s 16 registers: 4
//! bits, 16 words per thread instead of 128); `rz` reads as zero and its
//! writes are dropped. Each word carries its warp slot's epoch when it was
//! written (`w_epoch`, stepped at each CTA start in the slot), so a CTA in
//! a reused slot reads zeros without clearing the RAM, but for the start
//! that would wrap the epoch: that one zeroes the warp's words first
//! (`InitFill`). Each thread's packed `tid` is in its lane's `tids` RAM.
//!
//! Parts of `Sm::update()` (`#[hdl_part]`): see the module doc of `sm`.

use super::*;

impl Sm {
    /// Register-file addressing: warp | beat | register.
    #[hdl_part]
    pub(super) fn rf_addressing(&mut self) {
        self.cur_beat.next = self.beat.q.val();
        if (self.state.q.val() == SmState::MemAddr)
            | (self.state.q.val() == SmState::MemData)
            | (self.state.q.val() == SmState::MemReq)
            | (self.state.q.val() == SmState::MemWb)
        {
            self.cur_beat.next = self.mt.q.val() >> self.consts.log_l.val();
        }
        self.m_lane.next = self.mt.q.val() & (self.consts.lanes.val() - 1);
        self.beat_base.next = self.cur_beat.val() << self.consts.log_l.val();
        self.rf_base.next = (bit_cast::<ADDR_BITS, 6>(self.cur.q.val()) << self.consts.rf_wshift.val())
            | (bit_cast::<ADDR_BITS, 8>(self.cur_beat.val()) << self.consts.rbits.val());
        self.beat_exec.next = self.exec.q.val() >> self.beat_base.val();
        self.lane_mask.next = self.beat_exec.val().get_bits::<32>(0) & self.consts.lanes_mask.val();
        self.beat_last.next = self.beat.q.val() == self.consts.last_beat.val();
        // Exec commits in its last cycle, unless the prefetch still holds the
        // stack or the predicate read port (then it waits a cycle).
        // A beat of a shared unit's instruction waits for it: from the
        // cycle its operands are there (for a 64-bit one, phase 2) the unit
        // takes lane 0's, then each lane's as the one before is done, and
        // the beat goes on when its last lane is done. The combinational
        // unit takes a cycle a lane, the iterative ones 8 to 33 (the SFU 9 to
        // 26).
        self.su_done.next = true;
        for k in 0..self._count.divs {
            if self.is_div.val() {
                self.su_done.next = self.divs[k].done.val();
            }
        }
        for k in 0..self._count.fds {
            if self.is_iter.val() & self.is_fp.val() {
                self.su_done.next = self.fds[k].done.val();
            }
        }
        for k in 0..self._count.sfus {
            if self.is_sfu.val() {
                self.su_done.next = self.sfus[k].done.val();
            }
        }
        self.su_next.next = 0.into();
        if self.su_on.q.val() {
            self.su_next.next = self.su_lane.q.val() + 1;
        }
        self.su_wait.next = (self.state.q.val() == SmState::Exec)
            & self.is_shared.val()
            & (!self.wide.val() | (self.phase.q.val() == 2))
            & !(self.su_on.q.val() & self.su_done.val() & (self.su_lane.q.val() == self.consts.lanes.val() - 1));
        self.commit_now.next = (self.state.q.val() == SmState::Exec)
            & self.beat_last.val()
            & (!self.wide.val() | (self.phase.q.val() == 3))
            & !self.su_wait.val();
        self.commit_wb.next =
            ((self.state.q.val() == SmState::BeatWb) & self.beat_last.val() & (bit_cast::<3, 3>(self.mk.q.val() + 1) == self.words.val()))
                | ((self.state.q.val() == SmState::FastHi) & self.beat_last.val());
        self.beat_end.next = false;
        self.br_uni.next = (self.cls.val() == class::BRA) & ((self.exec.q.val() == 0) | (self.exec.q.val() == self.active.q.val()));
        for l in 0..self._count.lanes {
            self.mem_laddr[l].next = self.ladr.q[l].val().get_bits::<32>(0);
            self.lw_lo[l].next = (self.lw1.q[l].val() << 32) | self.lw0.q[l].val();
            self.lw_hi[l].next = (self.lw3.q[l].val() << 32) | self.lw2.q[l].val();
            self.mem_lwdata[l].next = self.lw_lo[l].val();
            self.mem_lwdata_hi[l].next = self.lw_hi[l].val();
            self.coal.addr[l].next = self.ladr.q[l].val().get_bits::<32>(0);
            self.wbl.addr[l].next = self.ladr.q[l].val().get_bits::<32>(0);
            self.wbl.raddr[l].next = self.ladr.q[l].val().get_bits::<32>(0);
            self.wbl.wlo[l].next = self.lw_lo[l].val();
            self.wbl.whi[l].next = self.lw_hi[l].val();
            self.mem_ldata[l].next = self.lrd_lo.q[l].val() | self.wbl.rlo[l].val();
            self.mem_ldata_hi[l].next = self.lrd_hi.q[l].val() | self.wbl.rhi[l].val();
        }
    }

    /// Lanes: register reads, ALU operands, default writes (none).
    #[hdl_part]
    pub(super) fn lanes(&mut self) {
        self.sel_a.next = 0.into();
        self.sel_b.next = 0.into();
        self.sel_c.next = 0.into();
        self.gathering.next = (self.state.q.val() == SmState::ShflGather) | (self.state.q.val() == SmState::CalliGather);
        self.warp_phase.next = self.gathering.val() | (self.state.q.val() == SmState::ShflSelect);
        self.calli_phase.next = (self.state.q.val() == SmState::CalliLead)
            | (self.state.q.val() == SmState::CalliWait)
            | (self.state.q.val() == SmState::CalliPush);
        self.bar_phase.next = (self.state.q.val() == SmState::BarArrive)
            | (self.state.q.val() == SmState::BarCheck)
            | (self.state.q.val() == SmState::BarRelease)
            | (self.state.q.val() == SmState::BarWb);
        for l in 0..self._count.lanes {
            self.va[l].next = 0.into();
            self.vb[l].next = 0.into();
            self.vc[l].next = 0.into();
            if (self.rf[l].da.val().get_bits::<EPOCH_BITS>(DATA_BITS) == self.rd_epoch.q.val()) & (self.port_a.q.val() != operand::RZ) {
                self.va[l].next = bit_cast::<64, WORD_BITS>(self.rf[l].da.val()) & self.consts.lo32.val();
            }
            if (self.cls.val() == class::S2R) & (self.port_a.q.val() == operand::RZ) {
                self.va[l].next = bit_cast::<64, 32>(self.tids[l].rdata.val());
            }
            if (self.rf[l].db.val().get_bits::<EPOCH_BITS>(DATA_BITS) == self.rd_epoch.q.val()) & (self.port_b.q.val() != operand::RZ) {
                self.vb[l].next = bit_cast::<64, WORD_BITS>(self.rf[l].db.val()) & self.consts.lo32.val();
            }
            if (self.rf[l].dc.val().get_bits::<EPOCH_BITS>(DATA_BITS) == self.rd_epoch.q.val()) & (self.port_c.q.val() != operand::RZ) {
                self.vc[l].next = bit_cast::<64, WORD_BITS>(self.rf[l].dc.val()) & self.consts.lo32.val();
            }
            if self.m_lane.val() == self.consts.index[l].val() {
                self.sel_a.next = self.va[l].val();
                self.sel_b.next = self.vb[l].val();
                self.sel_c.next = self.vc[l].val();
            }
            self.lane_a[l].next = self.va[l].val();
            self.lane_b[l].next = self.vb[l].val();
            self.lane_c[l].next = self.vc[l].val();
            if self.f_i.val() {
                self.lane_b[l].next = self.imm64.val();
            }
            if self.wide.val() {
                self.lane_a[l].next = self.alo.q[l].val();
                if self.wide_a.val() {
                    self.lane_a[l].next = (self.ahi.q[l].val() << 32) | self.alo.q[l].val();
                }
                self.lane_b[l].next = self.blo.q[l].val();
                if self.wide_b.val() {
                    self.lane_b[l].next = (self.bhi.q[l].val() << 32) | self.blo.q[l].val();
                    self.lane_c[l].next = (self.chi.q[l].val() << 32) | self.clo.q[l].val();
                }
            }
            self.alus[l].op.next = self.f_op.val();
            self.alus[l].modv.next = self.f_mod.val();
            self.alus[l].a.next = self.lane_a[l].val();
            self.alus[l].b.next = self.lane_b[l].val();
            self.alus[l].c.next = self.vc[l].val().get_bits::<32>(0);
            self.alus[l].cin.next = self.beat_carry.val().get_bit(l);
            self.alus[l].pin.next = self.beat_paux.val().get_bit(l);
            // A 64-bit result's high word is computed in phase 3 (see Exec).
            self.alus[l].half.next = self.wide.val() & (self.phase.q.val() == 3);
            #[hdl_skip]
            settle!(self.alus[l]);
            self.lane_d[l].next = bit_cast::<64, 32>(self.alus[l].d.val());
            self.gp.bits[l].next = self.alus[l].pout.val();
            self.gc.bits[l].next = self.alus[l].cout.val();
        }
        // The lanes' FP units, where the configuration has them. Their
        // inputs, and the shared units', are held at zero unless their
        // instructions execute (operand isolation: they do not switch for
        // other instructions, and their simulation does not run for them).
        self.smem.fsum.next = 0.into();
        for l in 0..self._count.fpus {
            self.fpus[l].op.next = 0.into();
            self.fpus[l].modv.next = 0.into();
            self.fpus[l].ext0.next = false;
            self.fpus[l].a.next = 0.into();
            self.fpus[l].b.next = 0.into();
            self.fpus[l].c.next = 0.into();
            self.fpus[l].rq_on.next = false;
            self.fpus[l].rq_s.next = false;
            self.fpus[l].rq_mag.next = 0.into();
            self.fpus[l].rq_e.next = 0.into();
            self.fpus[l].rq_rm.next = 0.into();
            self.fpus[l].rq_f.next = 0.into();
            if self.is_fp.val() & !self.is_shared.val() {
                self.fpus[l].op.next = self.f_op.val();
                self.fpus[l].modv.next = self.f_mod.val();
                self.fpus[l].ext0.next = self.ir.q.val().get_bit(46) & !self.f_i.val();
                self.fpus[l].a.next = self.lane_a[l].val();
                self.fpus[l].b.next = self.lane_b[l].val();
                self.fpus[l].c.next = self.lane_c[l].val();
                #[hdl_skip]
                settle!(self.fpus[l]);
                self.lane_d[l].next = self.fpus[l].d.val();
                self.gp.bits[l].next = self.fpus[l].pout.val();
            }
            // A shared atomic's binary32 add, on lane 0's unit (idle while an atomic runs).
            if self.smem.fadd.val() & !self.smem.fwide.val() & (self.consts.index[l].val() == 0) {
                self.fpus[l].op.next = self.consts.op_fadd.val();
                self.fpus[l].modv.next = self.consts.mod_ftz.val();
                self.fpus[l].a.next = self.smem.fa.val();
                self.fpus[l].b.next = self.smem.fb.val();
                #[hdl_skip]
                settle!(self.fpus[l]);
                self.smem.fsum.next = self.fpus[l].d.val();
            }
        }
        // The shared units: one lane's operands at a time.
        self.su_start.next = self.su_wait.val() & (!self.su_on.q.val() | self.su_done.val());
        if self.su_start.val() {
            self.su_on.d.next = true;
            self.su_lane.d.next = self.su_next.val();
        }
        self.su_sel.next = self.su_lane.q.val();
        if self.is_iter.val() {
            self.su_sel.next = self.su_next.val();
        }
        self.su_a.next = 0.into();
        self.su_b.next = 0.into();
        self.su_c.next = 0.into();
        for l in 0..self._count.lanes {
            if self.is_shared.val() & (self.su_sel.val() == self.consts.index[l].val()) {
                self.su_a.next = self.lane_a[l].val();
                self.su_b.next = self.lane_b[l].val();
                self.su_c.next = self.lane_c[l].val();
            }
        }
        self.su_d.next = 0.into();
        self.su_p.next = false;
        for k in 0..self._count.divs {
            self.divs[k].clock.next = self.clock.val();
            self.divs[k].start.next = self.su_start.val() & self.is_div.val();
            self.divs[k].op.next = self.f_op.val();
            self.divs[k].modv.next = self.f_mod.val();
            self.divs[k].a.next = self.su_a.val();
            self.divs[k].b.next = self.su_b.val();
            if self.is_div.val() {
                self.su_d.next = self.divs[k].d.val();
            }
        }
        for k in 0..self._count.fds {
            self.fds[k].clock.next = self.clock.val();
            self.fds[k].start.next = self.su_start.val() & self.is_iter.val() & self.is_fp.val();
            self.fds[k].op.next = self.f_op.val();
            self.fds[k].modv.next = self.f_mod.val();
            self.fds[k].a.next = self.su_a.val();
            self.fds[k].b.next = self.su_b.val();
            if self.is_iter.val() & self.is_fp.val() {
                self.su_d.next = self.fds[k].d.val();
            }
        }
        for k in 0..self._count.fp_shared {
            self.fp_shared[k].op.next = 0.into();
            self.fp_shared[k].modv.next = 0.into();
            self.fp_shared[k].ext0.next = false;
            self.fp_shared[k].a.next = 0.into();
            self.fp_shared[k].b.next = 0.into();
            self.fp_shared[k].c.next = 0.into();
            // The division's rounding request, in its last cycle (the unit is
            // idle then: the division is the instruction that executes); the
            // SFU's, below.
            self.fp_shared[k].rq_on.next = self.fds[k].rq_on.val();
            self.fp_shared[k].rq_s.next = self.fds[k].rq_s.val();
            self.fp_shared[k].rq_mag.next = self.fds[k].rq_mag.val();
            self.fp_shared[k].rq_e.next = self.fds[k].rq_e.val();
            self.fp_shared[k].rq_rm.next = self.fds[k].rq_rm.val();
            self.fp_shared[k].rq_f.next = self.fds[k].rq_f.val();
            if self.is_fp.val() & self.is_shared.val() & !self.is_iter.val() {
                self.fp_shared[k].op.next = self.f_op.val();
                self.fp_shared[k].modv.next = self.f_mod.val();
                self.fp_shared[k].ext0.next = self.ir.q.val().get_bit(46) & !self.f_i.val();
                self.fp_shared[k].a.next = self.su_a.val();
                self.fp_shared[k].b.next = self.su_b.val();
                self.fp_shared[k].c.next = self.su_c.val();
                #[hdl_skip]
                settle!(self.fp_shared[k]);
                self.su_d.next = self.fp_shared[k].d.val();
                self.su_p.next = self.fp_shared[k].pout.val();
            }
            // A shared atomic's binary64 add.
            if self.smem.fadd.val() & self.smem.fwide.val() {
                self.fp_shared[k].op.next = self.consts.op_dadd.val();
                self.fp_shared[k].a.next = self.smem.fa.val();
                self.fp_shared[k].b.next = self.smem.fb.val();
                #[hdl_skip]
                settle!(self.fp_shared[k]);
                self.smem.fsum.next = self.fp_shared[k].d.val();
            }
            // Not settled for this read: in simulation the division's
            // request stays low (its model computes the whole result).
            self.fds[k].rounded.next = self.fp_shared[k].rounded.val();
        }
        // The bit unit: the shared instructions that are neither FP nor iterative.
        self.bitu.op.next = 0.into();
        self.bitu.modv.next = 0.into();
        self.bitu.a.next = 0.into();
        self.bitu.b.next = 0.into();
        self.bitu.c.next = 0.into();
        self.bitu.cin.next = false;
        self.bitu.pin.next = false;
        self.bitu.half.next = false;
        if self.is_shared.val() & !self.is_fp.val() & !self.is_iter.val() {
            self.bitu.op.next = self.f_op.val();
            self.bitu.modv.next = self.f_mod.val();
            self.bitu.a.next = self.su_a.val();
            self.bitu.b.next = self.su_b.val();
            self.bitu.c.next = self.su_c.val().get_bits::<32>(0);
            #[hdl_skip]
            settle!(self.bitu);
            self.su_d.next = bit_cast::<64, 32>(self.bitu.d.val());
        }
        for k in 0..self._count.sfus {
            self.sfus[k].clock.next = self.clock.val();
            self.sfus[k].start.next = self.su_start.val() & self.is_sfu.val();
            self.sfus[k].modv.next = self.f_mod.val();
            self.sfus[k].a.next = self.su_a.val().get_bits::<32>(0);
            if self.is_sfu.val() {
                self.su_d.next = self.sfus[k].d.val();
                // Its rounding request, as the division's (the shared unit
                // is idle: `mufu` is the instruction that executes).
                self.fp_shared[k].rq_on.next = self.sfus[k].rq_on.val();
                self.fp_shared[k].rq_s.next = self.sfus[k].rq_s.val();
                self.fp_shared[k].rq_mag.next = self.sfus[k].rq_mag.val();
                self.fp_shared[k].rq_e.next = self.sfus[k].rq_e.val();
                self.fp_shared[k].rq_rm.next = self.sfus[k].rq_rm.val();
                self.fp_shared[k].rq_f.next = self.sfus[k].rq_f.val();
            }
            self.sfus[k].rounded.next = self.fp_shared[k].rounded.val();
        }
        // A finished lane's result is kept; the last one's is on `su_d`.
        for l in 0..self._count.lanes {
            if self.su_on.q.val() & self.su_done.val() & (self.su_lane.q.val() == self.consts.index[l].val()) {
                self.su_res.d[l].next = self.su_d.val();
                self.su_pres.d[l].next = self.su_p.val();
            }
            if self.is_shared.val() {
                self.lane_d[l].next = self.su_res.q[l].val();
                self.gp.bits[l].next = self.su_pres.q[l].val();
                if self.su_lane.q.val() == self.consts.index[l].val() {
                    self.lane_d[l].next = self.su_d.val();
                    self.gp.bits[l].next = self.su_p.val();
                }
            }
        }
        // Special registers the warp shares (per-thread ones in the loop below).
        self.s2u.next = 0.into();
        if self.cls.val() == class::S2R {
            match self.f_a.val().index() {
                3 => self.s2u.next = self.r_block_x.q.val(),
                4 => self.s2u.next = self.r_block_y.q.val(),
                5 => self.s2u.next = self.r_block_z.q.val(),
                6 => self.s2u.next = self.c_x.val(),
                7 => self.s2u.next = self.c_y.val(),
                8 => self.s2u.next = self.c_z.val(),
                9 => self.s2u.next = self.r_grid_x.q.val(),
                10 => self.s2u.next = self.r_grid_y.q.val(),
                11 => self.s2u.next = self.r_grid_z.q.val(),
                13 => self.s2u.next = bit_cast::<32, 8>(bit_cast::<8, 6>(self.cur.q.val()) - self.c_base.val()),
                14 => self.s2u.next = self.r_nwarps.q.val(),
                16 => self.s2u.next = 1.into(),
                17 => self.s2u.next = self.r_gridid.q.val(),
                18 => self.s2u.next = self.cycles.q.val().get_bits::<32>(0),
                19 => self.s2u.next = self.cycles.q.val().get_bits::<32>(32),
                25 => self.s2u.next = self.active.q.val().get_bits::<32>(0),
                26 => self.s2u.next = bit_cast::<32, 8>(self.consts.ws.val()),
                27 => self.s2u.next = self.r_dyn.q.val(),
                28 => self.s2u.next = self.r_total.q.val(),
                _ => {}
            }
        }
        // (`n` in the loops that index sbuf is the lane count: a
        // one-pass loop, so that the Verilog's index arithmetic has it.)
        // ShflSelect's window: sbuf's entries sh_k * _sh_win + i, held at
        // zero in other states (quiet in simulation). A single whole-warp
        // window is not held: with that gate ABC mapped one lane's control
        // 3,500 LUTs larger (docs/fpga.md).
        for i in 0..self._count.sh_win {
            self.shfl.grp[i].next = 0.into();
            if (self.state.q.val() == SmState::ShflSelect) | self.consts.sh_whole.val() {
                for n in self._count.sh_win..(self._count.sh_win + 1) {
                    for k in 0..(self._count.ws / self._count.sh_win) {
                        if self.sh_k.q.val() == self.consts.index[k].val() {
                            self.shfl.grp[i].next = self.sbuf.q[k * n + i].val();
                        }
                    }
                }
            }
        }
        for l in 0..self._count.lanes {
            // Shuffle: source lane j by the PTX rules (c = clamp | segment
            // mask << 8), which compute in 32 bits. Lane numbers are below
            // the warp size, so the arithmetic is on 8 bits: b's low bits
            // (`shfl.bl`), and whether its bits above them are all zeros
            // (`shfl.bz`) or all ones (`shfl.bo`). up's and down's 32-bit j is
            // a lane number (`shfl.word`) exactly when those bits and the low
            // bits' borrow or carry (`shfl.wrap`) cancel: zeros without one,
            // or ones with one.
            self.shfl.lane[l].next = self.beat_base.val() | self.consts.index[l].val();
            // (Only a shuffle uses the rest: skipping it elsewhere saves simulation time.)
            self.shfl.b[l].next = 0.into();
            self.shfl.bl[l].next = 0.into();
            self.shfl.bz[l].next = false;
            self.shfl.bo[l].next = false;
            self.shfl.wrap[l].next = false;
            self.shfl.word[l].next = false;
            self.shfl.seg[l].next = 0.into();
            self.shfl.max[l].next = 0.into();
            self.shfl.j[l].next = 0.into();
            self.shfl.in_range[l].next = false;
            self.shfl.ok[l].next = false;
            self.shfl.src[l].next = self.shfl.lane[l].val();
            if self.is_shfl.val() {
                self.shfl.b[l].next = self.vb[l].val().get_bits::<32>(0);
                if self.f_i.val() {
                    self.shfl.b[l].next = self.imm64.val().get_bits::<32>(0);
                }
                self.shfl.bl[l].next = bit_cast::<8, 32>(self.shfl.b[l].val() & self.consts.lm32.val());
                self.shfl.bz[l].next = (self.shfl.b[l].val() & !self.consts.lm32.val()) == 0;
                self.shfl.bo[l].next = !(self.shfl.b[l].val() | self.consts.lm32.val()) == 0;
                self.shfl.seg[l].next = bit_cast::<8, 32>(self.vc[l].val().get_bits::<32>(8) & self.consts.lm32.val());
                self.shfl.max[l].next = (self.shfl.lane[l].val() & self.shfl.seg[l].val())
                    | (bit_cast::<8, 32>(self.vc[l].val().get_bits::<32>(0) & self.consts.lm32.val()) & !self.shfl.seg[l].val());
                self.shfl.j[l].next =
                    (self.shfl.lane[l].val() & self.shfl.seg[l].val()) | (self.shfl.bl[l].val() & !self.shfl.seg[l].val());
                self.shfl.in_range[l].next = self.shfl.j[l].val() <= self.shfl.max[l].val();
                if self.f_mod.val().get_bits::<2>(0) == 1 {
                    self.shfl.wrap[l].next = self.shfl.bl[l].val() > self.shfl.lane[l].val();
                    self.shfl.j[l].next = (self.shfl.lane[l].val() - self.shfl.bl[l].val()) & self.consts.lm8.val();
                    self.shfl.in_range[l].next = self.shfl.j[l].val() >= self.shfl.max[l].val();
                    if self.consts.plant.val().get_bit(7) {
                        self.shfl.in_range[l].next = self.shfl.j[l].val() > self.shfl.max[l].val();
                    }
                }
                // (down and bfly test their own source lane against maxLane.)
                if self.f_mod.val().get_bits::<2>(0) == 2 {
                    self.shfl.wrap[l].next = (self.shfl.lane[l].val() + self.shfl.bl[l].val()) > self.consts.lm8.val();
                    self.shfl.j[l].next = (self.shfl.lane[l].val() + self.shfl.bl[l].val()) & self.consts.lm8.val();
                    self.shfl.in_range[l].next = self.shfl.j[l].val() <= self.shfl.max[l].val();
                }
                if self.f_mod.val().get_bits::<2>(0) == 3 {
                    self.shfl.j[l].next = self.shfl.lane[l].val() ^ self.shfl.bl[l].val();
                    self.shfl.in_range[l].next = self.shfl.j[l].val() <= self.shfl.max[l].val();
                }
                // (idx's and bfly's j is a lane number by construction.)
                self.shfl.word[l].next =
                    (self.shfl.bz[l].val() & !self.shfl.wrap[l].val()) | (self.shfl.bo[l].val() & self.shfl.wrap[l].val());
                if (self.f_mod.val().get_bits::<2>(0) == 0) | (self.f_mod.val().get_bits::<2>(0) == 3) {
                    self.shfl.word[l].next = true;
                }
                self.shfl.ok[l].next =
                    self.shfl.in_range[l].val() & self.shfl.word[l].val() & (((self.active.q.val() >> self.shfl.j[l].val()) & 1) != 0);
                self.shfl.src[l].next = self.shfl.lane[l].val();
                if self.shfl.ok[l].val() {
                    self.shfl.src[l].next = self.shfl.j[l].val();
                }
            }
            self.shfl.val[l].next = 0.into();
            self.shfl.hit[l].next = false;
            self.shfl.pick[l].next = 0.into();
            self.shfl.pick_ok[l].next = false;
            // (The warp-wide buffer is only used in these states; skipping the
            // loops elsewhere saves most of the simulation's time.)
            if self.warp_phase.val() {
                // This beat's threads (the lane's own entry in each beat) into
                // sbuf, and a shuffle's source threads into sh_from: each
                // thread's source is computed as its value is gathered, so
                // ShflSelect reads sbuf at a registered index. The operands
                // it depends on are the same in both states.
                for n in self._count.lanes..(self._count.lanes + 1) {
                    for b in 0..self._count.beats {
                        if self.cur_beat.val() == self.consts.index[b].val() {
                            if self.gathering.val() {
                                self.sbuf.d[b * n + l].next = self.va[l].val().get_bits::<32>(0);
                                self.sh_from.d[b * n + l].next = self.shfl.src[l].val();
                                self.sh_from_ok.d[b * n + l].next = self.shfl.ok[l].val();
                            }
                            self.shfl.pick[l].next = self.sh_from.q[b * n + l].val();
                            self.shfl.pick_ok[l].next = self.sh_from_ok.q[b * n + l].val();
                        }
                    }
                }
                // Entry shfl.pick of sbuf when window sh_k holds it (its high
                // bits equal sh_k): the window's entry of its low bits, as
                // an OR of the entries ANDed with their selects.
                self.shfl.hit[l].next = (self.shfl.pick[l].val() >> self.consts.log_win.val()) == self.sh_k.q.val();
                for i in 0..self._count.sh_win {
                    if (self.shfl.pick[l].val() & self.consts.lm_win.val()) == self.consts.index[i].val() {
                        self.shfl.val[l].next = self.shfl.val[l].val() | self.shfl.grp[i].val();
                    }
                }
            }
            // Special registers: the warp's value, or this thread's own.
            self.s_eq[l].next = (bits::<32>(1) << (self.beat_base.val() | self.consts.index[l].val())) & self.consts.full32.val();
            self.s_lt[l].next = (self.s_eq[l].val() - 1) & self.consts.full32.val();
            self.s2r[l].next = self.s2u.val();
            if self.cls.val() == class::S2R {
                match self.f_a.val().index() {
                    0 => self.s2r[l].next = self.va[l].val().get_bits::<32>(0) & 0x7ff,
                    1 => self.s2r[l].next = self.va[l].val().get_bits::<32>(11) & 0x7ff,
                    2 => self.s2r[l].next = self.va[l].val().get_bits::<32>(22) & 0x7f,
                    12 => self.s2r[l].next = bit_cast::<32, 8>(self.beat_base.val() | self.consts.index[l].val()),
                    20 => self.s2r[l].next = self.s_eq[l].val(),
                    21 => self.s2r[l].next = self.s_lt[l].val() | self.s_eq[l].val(),
                    22 => self.s2r[l].next = self.s_lt[l].val(),
                    23 => self.s2r[l].next = !self.s_lt[l].val() & self.consts.full32.val(),
                    24 => self.s2r[l].next = !(self.s_lt[l].val() | self.s_eq[l].val()) & self.consts.full32.val(),
                    _ => {}
                }
            }
            // Default: no register write.
            self.rf[l].we.next = false;
            self.rf[l].waddr.next = self.rf_base.val() | bit_cast::<ADDR_BITS, 7>(self.f_d.val() & self.consts.rmask.val());
            self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.lane_d[l].val() & self.consts.lo32.val());
            self.tids[l].we.next = false;
            self.tids[l].waddr.next = 0.into();
            self.tids[l].wdata.next = 0.into();
            self.fa_adr[l].we.next = false;
            self.fa_adr[l].waddr.next = 0.into();
            self.fa_adr[l].wdata.next = 0.into();
            self.fa_hw[l].we.next = false;
            self.fa_hw[l].waddr.next = 0.into();
            self.fa_hw[l].wdata.next = 0.into();
        }

        // The lanes' predicate outputs (a shuffle's in ShflSelect) and carry
        // outputs, gathered into place: the results of an instruction that
        // commits in this cycle.
        if self.state.q.val() == SmState::ShflSelect {
            for l in 0..self._count.lanes {
                self.gp.bits[l].next = self.shfl.pick_ok[l].val();
            }
        }
        #[hdl_skip]
        settle!(self.gp);
        #[hdl_skip]
        settle!(self.gc);
        self.rp_fin.next = self.res_pred.q.val();
        self.rc_fin.next = self.res_carry.q.val();
        self.cc_fin.next = self.cc_we.q.val();
        if self.commit_now.val() & !self.wide.val() {
            self.rp_fin.next = self.res_pred.q.val() | (self.gp.placed.val() & self.consts.full.val());
            self.rc_fin.next = self.res_carry.q.val() | (self.gc.placed.val() & self.consts.full.val());
            self.cc_fin.next = self.alus[0].cc_we.val();
        }
    }

    /// In state `Exec`.
    #[hdl_part]
    pub(super) fn on_exec(&mut self) {
        if self.ex_stall.val() {
            self.c_front.d.next = self.c_front.q.val() + 1;
        } else if self.su_wait.val() {
            self.c_exec.d.next = self.c_exec.q.val() + 1;
            self.su_on.d.next = true;
        } else {
            self.c_exec.d.next = self.c_exec.q.val() + 1;
            self.su_on.d.next = false;
            if self.wide.val() {
                self.n.phase.next = self.phase.q.val() + 1;
            }
            for l in 0..self._count.lanes {
                if !self.wide.val() {
                    self.rf[l].we.next = self.beat_exec.val().get_bit(l) & (self.dwords.val() != 0) & (self.f_d.val() != operand::RZ);
                    if self.cls.val() == class::S2R {
                        self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 32>(self.s2r[l].val());
                        self.rf[l].we.next = self.beat_exec.val().get_bit(l) & (self.f_d.val() != operand::RZ);
                    }
                    if self.cls.val() == class::BALLOT {
                        self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.ballot.val());
                        self.rf[l].we.next = self.beat_exec.val().get_bit(l) & (self.f_d.val() != operand::RZ);
                    }
                } else {
                    if self.phase.q.val() == 0 {
                        self.alo.d[l].next = self.va[l].val();
                        self.clo.d[l].next = self.vc[l].val();
                        self.blo.d[l].next = self.vb[l].val();
                        if self.f_i.val() {
                            self.blo.d[l].next = self.imm64.val();
                        }
                    }
                    if self.phase.q.val() == 1 {
                        self.ahi.d[l].next = self.va[l].val();
                        self.bhi.d[l].next = self.vb[l].val();
                        self.chi.d[l].next = self.vc[l].val();
                    }
                    if self.phase.q.val() == 2 {
                        self.rf[l].we.next = self.beat_exec.val().get_bit(l) & (self.dwords.val() != 0) & (self.f_d.val() != operand::RZ);
                        self.rhi.d[l].next = self.lane_d[l].val() >> 32;
                    }
                    if self.phase.q.val() == 3 {
                        self.rf[l].waddr.next =
                            self.rf_base.val() | bit_cast::<ADDR_BITS, 7>((self.f_d.val() + 1) & self.consts.rmask.val());
                        // The ALU computes the high word now; the other units' is from phase 2.
                        self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.lane_d[l].val());
                        if self.is_fp.val() | self.is_sfu.val() | self.is_shared.val() {
                            self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.rhi.q[l].val());
                        }
                        self.rf[l].we.next = self.beat_exec.val().get_bit(l) & (self.dwords.val() == 2) & (self.f_d.val() != operand::RZ);
                    }
                }
            }
            if !self.wide.val() | (self.phase.q.val() == 2) {
                self.res_pred.d.next = self.res_pred.q.val() | (self.gp.placed.val() & self.consts.full.val());
                self.res_carry.d.next = self.res_carry.q.val() | (self.gc.placed.val() & self.consts.full.val());
                self.cc_we.d.next = self.alus[0].cc_we.val();
            }
            if !self.wide.val() | (self.phase.q.val() == 3) {
                self.n.beat.next = self.beat.q.val() + 1;
            }
        }
    }
}
