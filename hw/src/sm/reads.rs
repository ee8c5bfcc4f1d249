//! The next cycle: its state registers, and the read address of every
//! memory that must have its word ready then (block RAM reads a cycle
//! after its address).
//!
//! Every memory reads synchronously (block RAM). The register files,
//! predicates, carry, exited and barrier RAMs and the fast accesses' RAMs
//! (`fa_adr`, `fa_hw`) are read where their word is needed, so their read
//! addresses of the next cycle are computed at the end of `update()` from
//! the next-state values (`n_*`, assigned wherever the registers' `d`
//! would be). The instruction memory takes the stack top's pc a cycle
//! before `Fetch` uses the word.
//!
//! Parts of `Sm::update()` (`#[hdl_part]`): see the module doc of `sm`.

use super::*;

impl Sm {
    /// Next-state registers, and the register files' read addresses
    /// for the next cycle: `rf_base` then, and the ports' register
    /// numbers: a, b, c of the instruction; `rz` for s2r (the one
    /// opcode of its class, which reads its lane's `tids` RAM instead, at
    /// the same warp and beat); the upper halves of 64-bit operands in
    /// phase 1; word mk of a memory access's data (the instruction only
    /// changes on the way to Aux or Exec, so a memory state's class is
    /// this cycle's).
    #[hdl_part]
    pub(super) fn next_cycle_reads(&mut self) {
        self.state.d.next = self.n_state.val();
        self.cur.d.next = self.n_cur.val();
        self.fq_warp.d.next = self.n_fq_warp.val();
        self.pf_st.d.next = self.n_pf_st.val();
        self.pf_cur.d.next = self.n_pf_cur.val();
        self.bw.d.next = self.n_bw.val();
        self.bar_id.d.next = self.n_bar_id.val();
        self.bk.d.next = self.n_bk.val();
        self.ir.d.next = self.n_ir.val();
        self.beat.d.next = self.n_beat.val();
        self.phase.d.next = self.n_phase.val();
        self.mt.d.next = self.n_mt.val();
        self.mk.d.next = self.n_mk.val();
        self.wm_qh.d.next = self.n_qh.val();
        // The fast RAMs' read addresses: the queue head's beat (a transfer
        // pushed this cycle into the head's entry, its beat), and the next beat.
        self.n_hbeat.next = 0.into();
        for i in 0..self._depth {
            if self.n_qh.val() == self.index[i].val() {
                self.n_hbeat.next = self.wm_qbeat.q[i].val();
            }
        }
        if (self.state.q.val() == SmState::BeatReq) & self.wm_issue.val() & !self.wb_stall.val() & (self.wm_qt.q.val() == self.n_qh.val()) {
            self.n_hbeat.next = self.beat.q.val();
        }
        for l in 0..self._lanes {
            self.fa_adr[l].raddr.next = bit_cast::<ADDR_BITS, 8>(self.n_hbeat.val());
            self.fa_hw[l].raddr.next = bit_cast::<ADDR_BITS, 8>(self.n_beat.val());
        }
        self.n_beat_sel.next = self.n_beat.val();
        if (self.n_state.val() == SmState::MemAddr)
            | (self.n_state.val() == SmState::MemData)
            | (self.n_state.val() == SmState::MemReq)
            | (self.n_state.val() == SmState::MemWb)
        {
            self.n_beat_sel.next = self.n_mt.val() >> self.log_l.val();
        }
        self.n_rf_base.next = (bit_cast::<ADDR_BITS, 6>(self.n_cur.val()) << self.rf_wshift.val())
            | (bit_cast::<ADDR_BITS, 8>(self.n_beat_sel.val()) << self.rbits.val());
        self.n_f_c.next = self.n_ir.val().get_bits::<7>(39);
        if self.n_ir.val().get_bit(7) {
            self.n_f_c.next = operand::RZ.into();
        }
        self.n_port_a.next = self.n_ir.val().get_bits::<7>(19);
        self.n_port_b.next = self.n_ir.val().get_bits::<7>(32);
        self.n_port_c.next = self.n_f_c.val();
        if self.n_ir.val().get_bits::<7>(0) == self.op_s2r.val() {
            self.n_port_a.next = operand::RZ.into();
        }
        if self.n_phase.val() == 1 {
            self.n_port_a.next = self.n_ir.val().get_bits::<7>(19) + 1;
            self.n_port_b.next = self.n_ir.val().get_bits::<7>(32) + 1;
            self.n_port_c.next = self.n_f_c.val() + 1;
        }
        if (self.n_state.val() == SmState::MemData) | (self.n_state.val() == SmState::BeatData) {
            self.n_port_b.next = self.n_ir.val().get_bits::<7>(32) + bit_cast::<7, 3>(self.n_mk.val());
            self.n_port_c.next = self.n_f_c.val() + bit_cast::<7, 3>(self.n_mk.val());
            if self.cls.val() == class::ST {
                self.n_port_c.next = self.n_ir.val().get_bits::<7>(12) + bit_cast::<7, 3>(self.n_mk.val());
            }
            if self.cls.val() == class::SYS {
                self.n_port_c.next = self.n_ir.val().get_bits::<7>(19) + bit_cast::<7, 3>(self.n_mk.val());
            }
        }
        // The small RAMs read a cycle ahead too (block RAM): carry flags and
        // exited lanes at the warp of the next cycle's Aux step (the
        // prefetch's, or the barrier write-back's warp), the barrier words
        // at the next cycle's barrier, the warps' barrier records at `bw`.
        self.n_ra_warp.next = self.n_cur.val();
        if (self.n_pf_st.val() == pf::WORD) | (self.n_pf_st.val() == pf::AUX) {
            self.n_ra_warp.next = self.n_pf_cur.val();
        }
        if self.n_state.val() == SmState::BarWb {
            self.n_ra_warp.next = self.n_bw.val().get_bits::<6>(0);
        }
        self.carry.raddr.next = bit_cast::<ADDR_BITS, 6>(self.n_ra_warp.val());
        self.exited.raddr.next = bit_cast::<ADDR_BITS, 6>(self.n_ra_warp.val());
        self.w_info.raddr.next = bit_cast::<ADDR_BITS, 8>(self.n_bw.val());
        self.n_b_sel.next = (bit_cast::<ADDR_BITS, 6>(self.n_cur.val()) >> self.r_slog.q.val()) << 4;
        if self.n_state.val() == SmState::BarArrive {
            self.n_b_sel.next = self.n_b_sel.val() | bit_cast::<ADDR_BITS, 32>(self.n_bar_id.val());
        } else {
            self.n_b_sel.next = self.n_b_sel.val() | bit_cast::<ADDR_BITS, 8>(self.n_bk.val());
        }
        self.n_pr_warp.next = self.n_cur.val();
        if (self.n_state.val() == SmState::Fetch) | (self.n_pf_st.val() == pf::WORD) {
            self.n_pr_warp.next = self.n_fq_warp.val();
        } else if self.n_pf_st.val() == pf::AUX {
            self.n_pr_warp.next = self.n_pf_cur.val();
        }
        for b in 0..7 {
            self.preds[b].raddr.next = bit_cast::<ADDR_BITS, 6>(self.n_pr_warp.val());
            self.preds[b].waddr.next = bit_cast::<ADDR_BITS, 8>(self.pw_warp.val());
            self.preds[b].wdata.next = self.pw_data.val();
            self.preds[b].we.next = self.pw_we.val() & ((self.pw_idx.val() == self.index[b].val()) | self.pw_all.val());
        }
        self.pcache.raddr.next = self.n_ir.val().get_bits::<32>(32);
        self.bar_ae.raddr.next = self.n_b_sel.val();
        self.bar_cr.raddr.next = self.n_b_sel.val();
        self.bar_tag.raddr.next = self.n_b_sel.val();
        self.port_a.d.next = self.n_port_a.val();
        self.port_b.d.next = self.n_port_b.val();
        self.port_c.d.next = self.n_port_c.val();
        for l in 0..self._lanes {
            self.rf[l].ra.next = self.n_rf_base.val() | bit_cast::<ADDR_BITS, 7>(self.n_port_a.val() & self.rmask.val());
            self.rf[l].rb.next = self.n_rf_base.val() | bit_cast::<ADDR_BITS, 7>(self.n_port_b.val() & self.rmask.val());
            self.rf[l].rc.next = self.n_rf_base.val() | bit_cast::<ADDR_BITS, 7>(self.n_port_c.val() & self.rmask.val());
            self.tids[l].raddr.next =
                (bit_cast::<ADDR_BITS, 6>(self.n_cur.val()) << self.beat_bits.val()) | bit_cast::<ADDR_BITS, 8>(self.n_beat_sel.val());
        }
    }
}
