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

namespace! {
    /// Next-state values of the registers that the next cycle's memory
    /// reads depend on (`n.x` is register `x`'s, assigned wherever its `d`
    /// is), and the read addresses they give: the memories read
    /// synchronously, so the next cycle's addresses are set in this one.
    #[derive(Default)]
    pub(super) struct NextState {
        /// The queue's head in the next cycle, and its beat (`wm_qh`'s input).
        qh: Signal<Local, Bits<8>>,
        hbeat: Signal<Local, Bits<8>>,
        state: Signal<Local, SmState>,
        cur: Signal<Local, Bits<6>>,
        pf_st: Signal<Local, Bits<3>>,
        pf_cur: Signal<Local, Bits<6>>,
        bw: Signal<Local, Bits<8>>,
        bar_id: Signal<Local, Bits<32>>,
        bk: Signal<Local, Bits<8>>,
        /// The warp whose carry flags and exited lanes the next cycle reads (read a cycle ahead).
        ra_warp: Signal<Local, Bits<6>>,
        fq_warp: Signal<Local, Bits<6>>,
        /// The warp whose predicates the next cycle reads.
        pr_warp: Signal<Local, Bits<6>>,
        /// The barrier word the next cycle reads.
        b_sel: Signal<Local, Bits<ADDR_BITS>>,
        ir: Signal<Local, Bits<64>>,
        beat: Signal<Local, Bits<8>>,
        phase: Signal<Local, Bits<2>>,
        mt: Signal<Local, Bits<8>>,
        mk: Signal<Local, Bits<3>>,
        beat_sel: Signal<Local, Bits<8>>,
        rf_base: Signal<Local, Bits<ADDR_BITS>>,
        f_c: Signal<Local, Bits<7>>,
        port_a: Signal<Local, Bits<7>>,
        port_b: Signal<Local, Bits<7>>,
        port_c: Signal<Local, Bits<7>>,
    }
}

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
        self.state.d.next = self.n.state.val();
        self.cur.d.next = self.n.cur.val();
        self.fq_warp.d.next = self.n.fq_warp.val();
        self.pf_st.d.next = self.n.pf_st.val();
        self.pf_cur.d.next = self.n.pf_cur.val();
        self.bw.d.next = self.n.bw.val();
        self.bar_id.d.next = self.n.bar_id.val();
        self.bk.d.next = self.n.bk.val();
        self.ir.d.next = self.n.ir.val();
        self.beat.d.next = self.n.beat.val();
        self.phase.d.next = self.n.phase.val();
        self.mt.d.next = self.n.mt.val();
        self.mk.d.next = self.n.mk.val();
        self.wm_qh.d.next = self.n.qh.val();
        // The fast RAMs' read addresses: the queue head's beat (a transfer
        // pushed this cycle into the head's entry, its beat), and the next beat.
        self.n.hbeat.next = 0.into();
        for i in 0..self._count.depth {
            if self.n.qh.val() == self.consts.index[i].val() {
                self.n.hbeat.next = self.wm_qbeat.q[i].val();
            }
        }
        if (self.state.q.val() == SmState::BeatReq) & self.wm.issue.val() & !self.wb_stall.val() & (self.wm_qt.q.val() == self.n.qh.val()) {
            self.n.hbeat.next = self.beat.q.val();
        }
        for l in 0..self._count.lanes {
            self.fa_adr[l].raddr.next = bit_cast::<ADDR_BITS, 8>(self.n.hbeat.val());
            self.fa_hw[l].raddr.next = bit_cast::<ADDR_BITS, 8>(self.n.beat.val());
        }
        self.n.beat_sel.next = self.n.beat.val();
        if (self.n.state.val() == SmState::MemAddr)
            | (self.n.state.val() == SmState::MemData)
            | (self.n.state.val() == SmState::MemReq)
            | (self.n.state.val() == SmState::MemWb)
        {
            self.n.beat_sel.next = self.n.mt.val() >> self.consts.log_l.val();
        }
        self.n.rf_base.next = (bit_cast::<ADDR_BITS, 6>(self.n.cur.val()) << self.consts.rf_wshift.val())
            | (bit_cast::<ADDR_BITS, 8>(self.n.beat_sel.val()) << self.consts.rbits.val());
        // The epoch the next cycle's words are compared with: `n.cur`'s, as
        // `w_epoch` will hold it (`InitWarp` steps `init_w`'s, the warp it
        // makes `cur`).
        self.rd_epoch.d.next = 0.into();
        for w in 0..self._count.warps {
            if self.consts.index[w].val() == bit_cast::<8, 6>(self.n.cur.val()) {
                self.rd_epoch.d.next = self.w_epoch.q[w].val();
            }
        }
        if self.ep_step.val() {
            self.rd_epoch.d.next = self.c_rf_epoch.val() + 1;
        }
        self.n.f_c.next = self.n.ir.val().get_bits::<7>(39);
        if self.n.ir.val().get_bit(7) {
            self.n.f_c.next = operand::RZ.into();
        }
        self.n.port_a.next = self.n.ir.val().get_bits::<7>(19);
        self.n.port_b.next = self.n.ir.val().get_bits::<7>(32);
        self.n.port_c.next = self.n.f_c.val();
        if self.n.ir.val().get_bits::<7>(0) == self.consts.op_s2r.val() {
            self.n.port_a.next = operand::RZ.into();
        }
        if self.n.phase.val() == 1 {
            self.n.port_a.next = self.n.ir.val().get_bits::<7>(19) + 1;
            self.n.port_b.next = self.n.ir.val().get_bits::<7>(32) + 1;
            self.n.port_c.next = self.n.f_c.val() + 1;
        }
        if (self.n.state.val() == SmState::MemData) | (self.n.state.val() == SmState::BeatData) {
            self.n.port_b.next = self.n.ir.val().get_bits::<7>(32) + bit_cast::<7, 3>(self.n.mk.val());
            self.n.port_c.next = self.n.f_c.val() + bit_cast::<7, 3>(self.n.mk.val());
            if self.cls.val() == class::ST {
                self.n.port_c.next = self.n.ir.val().get_bits::<7>(12) + bit_cast::<7, 3>(self.n.mk.val());
            }
            if self.cls.val() == class::SYS {
                self.n.port_c.next = self.n.ir.val().get_bits::<7>(19) + bit_cast::<7, 3>(self.n.mk.val());
            }
        }
        // The small RAMs read a cycle ahead too (block RAM): carry flags and
        // exited lanes at the warp of the next cycle's Aux step (the
        // prefetch's, or the barrier write-back's warp), the barrier words
        // at the next cycle's barrier, the warps' barrier records at `bw`.
        self.n.ra_warp.next = self.n.cur.val();
        if (self.n.pf_st.val() == pf::WORD) | (self.n.pf_st.val() == pf::AUX) {
            self.n.ra_warp.next = self.n.pf_cur.val();
        }
        if self.n.state.val() == SmState::BarWb {
            self.n.ra_warp.next = self.n.bw.val().get_bits::<6>(0);
        }
        self.carry.raddr.next = bit_cast::<ADDR_BITS, 6>(self.n.ra_warp.val());
        self.exited.raddr.next = bit_cast::<ADDR_BITS, 6>(self.n.ra_warp.val());
        self.w_info.raddr.next = bit_cast::<ADDR_BITS, 8>(self.n.bw.val());
        self.n.b_sel.next = (bit_cast::<ADDR_BITS, 6>(self.n.cur.val()) >> self.r_slog.q.val()) << 4;
        if self.n.state.val() == SmState::BarArrive {
            self.n.b_sel.next = self.n.b_sel.val() | bit_cast::<ADDR_BITS, 32>(self.n.bar_id.val());
        } else {
            self.n.b_sel.next = self.n.b_sel.val() | bit_cast::<ADDR_BITS, 8>(self.n.bk.val());
        }
        self.n.pr_warp.next = self.n.cur.val();
        if (self.n.state.val() == SmState::Fetch) | (self.n.pf_st.val() == pf::WORD) {
            self.n.pr_warp.next = self.n.fq_warp.val();
        } else if self.n.pf_st.val() == pf::AUX {
            self.n.pr_warp.next = self.n.pf_cur.val();
        }
        for b in 0..7 {
            self.preds[b].raddr.next = bit_cast::<ADDR_BITS, 6>(self.n.pr_warp.val());
            self.preds[b].waddr.next = bit_cast::<ADDR_BITS, 8>(self.pw.warp.val());
            self.preds[b].wdata.next = self.pw.data.val();
            self.preds[b].we.next = self.pw.we.val() & ((self.pw.idx.val() == self.consts.index[b].val()) | self.pw.all.val());
        }
        self.pcache.raddr.next = self.n.ir.val().get_bits::<32>(32);
        self.bar_ae.raddr.next = self.n.b_sel.val();
        self.bar_cr.raddr.next = self.n.b_sel.val();
        self.bar_tag.raddr.next = self.n.b_sel.val();
        self.port_a.d.next = self.n.port_a.val();
        self.port_b.d.next = self.n.port_b.val();
        self.port_c.d.next = self.n.port_c.val();
        for l in 0..self._count.lanes {
            self.rf[l].ra.next = self.n.rf_base.val() | bit_cast::<ADDR_BITS, 7>(self.n.port_a.val() & self.consts.rmask.val());
            self.rf[l].rb.next = self.n.rf_base.val() | bit_cast::<ADDR_BITS, 7>(self.n.port_b.val() & self.consts.rmask.val());
            self.rf[l].rc.next = self.n.rf_base.val() | bit_cast::<ADDR_BITS, 7>(self.n.port_c.val() & self.consts.rmask.val());
            self.tids[l].raddr.next = (bit_cast::<ADDR_BITS, 6>(self.n.cur.val()) << self.consts.beat_bits.val())
                | bit_cast::<ADDR_BITS, 8>(self.n.beat_sel.val());
        }
    }
}
