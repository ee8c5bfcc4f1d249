//! The front end: predicate reads and combines, `Sched`, `Top`, `Fetch`,
//! `Aux`, the overlapped prefetch of the next warp's instruction,
//! `Commit`, and the dispatch of an instruction by its decode class.
//!
//! Overlapped front end: while an Exec instruction's beats run (or a
//! load's, store's or atomic's), Sched, fetch and Aux run for another ready
//! warp into the `pf_*` registers (`pf_st`, its progress: the `pf`
//! values). Exec commits in its last cycle (a memory instruction in
//! Commit) and goes on with the prefetched instruction: straight into its
//! first beat when Exec runs its class, else into Aux. With `warps` >= 2
//! and 4 beats per warp, back-to-back ALU instructions of different warps
//! issue every 4 cycles.
//!
//! Parts of `Sm::update()` (`#[hdl_part]`): see the module doc of `sm`.

use super::*;

namespace! {
    /// A predicate register write: warp, register, lanes.
    #[derive(Default)]
    pub(super) struct PredWrite {
        /// `InitWarp` writes every predicate RAM.
        all: Signal<Local, Bit>,
        /// A write, and its warp, register and lanes.
        we: Signal<Local, Bit>,
        warp: Signal<Local, Bits<8>>,
        idx: Signal<Local, Bits<8>>,
        data: Signal<Local, Bits<64>>,
    }
}

impl Sm {
    /// Predicate combine for compares and plop: bits op pc (and, or, xor in mod[5:4]).
    #[hdl_part]
    pub(super) fn predicates(&mut self) {
        self.bool_v.next = self.rp_fin.val() & self.paux.q.val();
        if self.cls.val() == class::PLOP {
            self.bool_v.next = self.paux.q.val() & self.pauxb.q.val();
        }
        if self.f_mod.val().get_bits::<2>(4) == 1 {
            self.bool_v.next = self.rp_fin.val() | self.paux.q.val();
            if self.cls.val() == class::PLOP {
                self.bool_v.next = self.paux.q.val() | self.pauxb.q.val();
            }
        }
        if self.f_mod.val().get_bits::<2>(4) == 2 {
            self.bool_v.next = self.rp_fin.val() ^ self.paux.q.val();
            if self.cls.val() == class::PLOP {
                self.bool_v.next = self.paux.q.val() ^ self.pauxb.q.val();
            }
        }
        // vote.all / .any / .uni (mod[1:0]) over the executing threads.
        self.vote_r.next = (self.paux.q.val() & self.exec.q.val()) == self.exec.q.val();
        if self.f_mod.val().get_bits::<2>(0) == 1 {
            self.vote_r.next = (self.paux.q.val() & self.exec.q.val()) != 0;
            if self.consts.plant.val().get_bit(8) {
                self.vote_r.next = (self.paux.q.val() & self.consts.full.val()) != 0;
            }
        }
        if self.f_mod.val().get_bits::<2>(0) == 2 {
            self.vote_r.next =
                ((self.paux.q.val() & self.exec.q.val()) == 0) | ((self.paux.q.val() & self.exec.q.val()) == self.exec.q.val());
        }
        if self.is_shfl.val() {
            self.bool_v.next = self.rp_fin.val();
        }
        if self.cls.val() == class::VOTE {
            self.bool_v.next = 0.into();
            if self.vote_r.val() {
                self.bool_v.next = !bits::<64>(0);
            }
        }
        // Predicate read (p7 reads as all ones; the RAMs read the warp's
        // registers a cycle ahead, below): the guard of the instruction
        // being fetched (see Fetch below), or a predicate operand (Aux's,
        // Aux2's b, the prefetch's Aux step): packed number pop_code (p7
        // reads as all ones, bit 3 negates).
        self.pr_idx.next = 7.into();
        if self.fq_go.val() {
            self.pr_idx.next = bit_cast::<8, 3>(self.imem.rdata.val().get_bits::<3>(8));
        }
        self.pop_code.next = self.aux_code.val();
        if self.state.q.val() == SmState::Aux2 {
            self.pop_code.next = self.f_b.val().get_bits::<4>(0);
        }
        if (self.state.q.val() == SmState::Aux) | (self.state.q.val() == SmState::Aux2) | (self.pf_st.q.val() == pf::AUX) {
            self.pr_idx.next = bit_cast::<8, 3>(self.pop_code.val().get_bits::<3>(0));
        }
        // Commit, in Commit, in Exec's last cycle, or in a load's or store's
        // last one, reads the destination predicate (the threads that do not
        // execute keep their bits).
        self.committing.next = ((self.state.q.val() == SmState::Commit)
            | self.commit_now.val()
            | self.commit_ld.val()
            | (self.commit_st.val() & !self.sh_found.val() & (self.sh_mask.val() == 0)))
            & !self.pf_wait.val();
        if self.committing.val() {
            self.pr_idx.next = bit_cast::<8, 3>(self.pd.val());
        }
        self.pred_val.next = 0.into();
        for b in 0..7 {
            if self.pr_idx.val() == self.consts.index[b].val() {
                self.pred_val.next = self.preds[b].rdata.val() & self.consts.full.val();
            }
        }
        self.new_pred.next = (self.pred_val.val() & !self.exec.q.val()) | (self.bool_v.val() & self.exec.q.val());
        // Present lanes of the warp being initialised.
        self.present.next = self.consts.full.val();
        if self.rem.q.val() < bit_cast::<32, 8>(self.consts.ws.val()) {
            self.present.next = (bits::<64>(1) << self.rem.q.val()) - 1;
        }
        self.guard_val.next = self.pred_val.val();
        self.rd_word.next = self.mem_rdata.val() & self.consts.lo32.val();
        self.nc_x.next = self.nx_x.q.val() + 1;

        // Fetch (Top's work) from warp fe_warp's stack top: the instruction
        // word, its guard predicate and executing threads.
        self.fe_ok.next = !self.fq_empty.q.val()
            & (self.fq_pc.q.val() < self.r_code_len.q.val())
            & !self.ibad.rdata.val().any()
            & (self.icount.q.val() < self.consts.budget.val());
        self.fe_exec.next = 0.into();
        if self.fq_go.val() {
            if self.imem.rdata.val().get_bits::<3>(8) == 7 {
                self.guard_val.next = !bits::<64>(0);
            }
            if self.imem.rdata.val().get_bit(11) {
                self.fe_exec.next = self.fq_mask.q.val() & !self.guard_val.val();
            } else {
                self.fe_exec.next = self.fq_mask.q.val() & self.guard_val.val();
            }
        }
        self.pop_val.next = self.pred_val.val();
        if self.pop_code.val().get_bits::<3>(0) == 7 {
            self.pop_val.next = !bits::<64>(0);
            if self.pop_code.val().get_bit(3) {
                self.pop_val.next = 0.into();
            }
        } else if self.pop_code.val().get_bit(3) {
            self.pop_val.next = !self.pred_val.val();
        }
    }

    /// In state `Sched`.
    /// A free CTA slot takes the next CTA first; the launch is done when none remains and no warp lives.
    #[hdl_part]
    pub(super) fn on_sched(&mut self) {
        if self.more.q.val() & self.f_any.val() {
            self.slot.d.next = self.f_slot.val();
            self.n.state.next = SmState::NextCta;
        } else if self.w_live.q.val() == 0 {
            self.done_f.d.next = true;
            self.n.state.next = SmState::Idle;
        } else if !self.sched.any.val() {
            self.c_barrier.d.next = self.c_barrier.q.val() + 1;
            self.t_code.d.next = trap::DEADLOCK.into();
            self.n.state.next = SmState::Trapped;
        } else {
            self.c_front.d.next = self.c_front.q.val() + 1;
            self.n.cur.next = self.sched.pick.val();
            self.last.d.next = self.sched.pick.val();
            // A settled stack top is fetched in this cycle (below); else TOP pops first.
            if !self.stack.settled.val() {
                self.stack.cmd.next = stack::CMD_TOP.into();
                self.stack.start.next = true;
                self.n.state.next = SmState::Top;
            }
        }
    }

    /// In state `Top`.
    #[hdl_part]
    pub(super) fn on_top(&mut self) {
        self.c_front.d.next = self.c_front.q.val() + 1;
    }

    /// In state `Fetch`.
    #[hdl_part]
    pub(super) fn on_fetch(&mut self) {
        self.c_front.d.next = self.c_front.q.val() + 1;
    }

    /// In state `Aux`.
    #[hdl_part]
    pub(super) fn on_aux(&mut self) {
        self.c_front.d.next = self.c_front.q.val() + 1;
        self.c_issued.d.next = self.c_issued.q.val() + 1;
        self.c_threads.d.next = self.c_threads.q.val() + bit_cast::<64, 8>(self.popc.n.val());
        self.paux.d.next = self.pop_val.val();
        self.carry_in.d.next = self.carry.rdata.val() & self.consts.full.val();
        self.exited_old.d.next = self.exited.rdata.val() & self.consts.full.val();
        self.n.state.next = SmState::Dispatch;
        if self.cls.val() == class::PLOP {
            self.n.state.next = SmState::Aux2;
        }
    }

    /// In state `Aux2`.
    #[hdl_part]
    pub(super) fn on_aux2(&mut self) {
        self.c_front.d.next = self.c_front.q.val() + 1;
        self.pauxb.d.next = self.pop_val.val();
        self.n.state.next = SmState::Dispatch;
    }

    /// Overlapped front end: Sched, Top and Aux for another warp while this
    /// instruction's beats run (an ALU instruction's last cycle commits, below).
    #[hdl_part]
    pub(super) fn front_end(&mut self) {
        if self.pf_on.val() & (self.pf_st.q.val() == pf::IDLE) {
            self.n.pf_st.next = pf::NONE.into();
            // Not while a CTA waits for a free slot: Sched starts it after this instruction.
            if self.sched.any.val() & !(self.more.q.val() & self.f_any.val()) {
                self.n.pf_cur.next = self.sched.pick.val();
                self.last.d.next = self.sched.pick.val();
                if !self.stack.settled.val() {
                    self.stack.cmd.next = stack::CMD_TOP.into();
                    self.stack.start.next = true;
                    self.n.pf_st.next = pf::TOP.into();
                }
            }
        }
        // The fetch (below) fills the prefetch; a warp that has finished or
        // would trap is left to Sched and Top.
        if self.fe_go.val() {
            // The instruction memory takes the stack top's pc at this edge.
            self.n.fq_warp.next = self.fe_warp.val();
            self.fq_pc.d.next = self.stack.top_pc.val();
            self.fq_mask.d.next = self.stack.top_mask.val() & self.consts.full.val();
            self.fq_empty.d.next = self.stack.empty.val();
            if !self.fe_main.val() {
                self.n.pf_st.next = pf::WORD.into();
            }
        }
        if self.pf_st.q.val() == pf::WORD {
            self.n.pf_st.next = pf::NONE.into();
            if self.fe_ok.val() {
                self.icount.d.next = self.icount.q.val() + 1;
                self.pf_ir.d.next = self.imem.rdata.val();
                self.pf_pc.d.next = self.fq_pc.q.val();
                self.pf_active.d.next = self.fq_mask.q.val();
                self.pf_exec.d.next = self.fe_exec.val();
                self.n.pf_st.next = pf::AUX.into();
            }
        }
        self.pf_aux.next =
            (self.pf_st.q.val() == pf::AUX) | ((self.pf_st.q.val() == pf::WORD) & self.fe_ok.val() & (self.auxsel.val() == aux::NONE));
        if self.pf_aux.val() {
            // Aux's reads for the prefetched instruction.
            self.pf_paux.d.next = self.pop_val.val();
            self.pf_carry.d.next = self.carry.rdata.val() & self.consts.full.val();
            self.pf_exited.d.next = self.exited.rdata.val() & self.consts.full.val();
            self.pf_fast.d.next = self.pf_fast_now.val();
            self.pf_cnt.d.next = self.pf_fast_now.val();
            self.n.pf_st.next = pf::READY.into();
        }
        if (self.pf_st.q.val() == pf::READY) & self.pf_cnt.q.val() {
            // Aux's counts for an instruction that skips Aux.
            self.pf_cnt.d.next = false;
            self.c_issued.d.next = self.c_issued.q.val() + 1;
            self.c_threads.d.next = self.c_threads.q.val() + bit_cast::<64, 8>(self.popc.n.val());
        }
        // Fetch in Sched and Top: Top's checks (a finished warp leaves the live set).
        if self.fe_go.val() & self.fe_main.val() {
            self.n.state.next = SmState::Fetch;
        }
        if self.state.q.val() == SmState::Fetch {
            if self.fq_empty.q.val() {
                self.w_live.d.next = self.w_live.q.val() & !(bits::<64>(1) << self.fq_warp.q.val()) & self.consts.all_warps.val();
                self.n.state.next = SmState::Sched;
            } else if self.fq_pc.q.val() >= self.r_code_len.q.val() {
                self.t_code.d.next = trap::BAD_PC.into();
                self.t_pc.d.next = self.fq_pc.q.val();
                self.n.state.next = SmState::Trapped;
            } else if self.ibad.rdata.val().any() {
                self.t_code.d.next = trap::BAD_REGISTER.into();
                self.t_pc.d.next = self.fq_pc.q.val();
                self.n.state.next = SmState::Trapped;
            } else if self.icount.q.val() >= self.consts.budget.val() {
                self.t_code.d.next = trap::RUNAWAY.into();
                self.t_pc.d.next = self.fq_pc.q.val();
                self.n.state.next = SmState::Trapped;
            } else {
                self.icount.d.next = self.icount.q.val() + 1;
                self.n.ir.next = self.imem.rdata.val();
                self.dw.d.next = self.pf_rom.word.val();
                self.pc.d.next = self.fq_pc.q.val();
                self.active.d.next = self.fq_mask.q.val();
                self.exec.d.next = self.fe_exec.val();
                self.n.state.next = SmState::Aux;
            }
        }
        // A memory beat is done: the next one, or Commit after the last.
        if self.beat_end.val() {
            self.n.beat.next = self.beat.q.val() + 1;
            self.n.state.next = SmState::BeatAddr;
            if self.beat_last.val() {
                self.n.state.next = SmState::Commit;
            }
        }
        // Commit (predicates, carry, pc, retire pulse; `committing`, above),
        // then the prefetched instruction, if there is one, else Sched.
        if self.committing.val() {
            self.retire.next = true;
            self.n.state.next = SmState::Sched;
            if (((self.cls.val() < 6) | (self.cls.val() > 9)) & (self.cls.val() != class::CALLI)) | self.br_uni.val() {
                self.stack.cmd.next = stack::CMD_SETPC.into();
                self.stack.start.next = true;
            }
            if self.br_uni.val() & (self.exec.q.val() != 0) {
                self.stack.pc.next = self.f_imm.val();
            }
            if (self.setp.val() | self.is_shfl.val() | (self.cls.val() == class::PLOP) | (self.cls.val() == class::VOTE))
                & (self.pd.val() != 7)
            {
                self.pw.we.next = true;
                self.pw.data.next = self.new_pred.val();
                self.ret_pred_we.next = true;
                self.ret_pred_val.next = self.new_pred.val() & self.exec.q.val();
            }
            if self.cc_fin.val() & (self.cls.val() == class::ALU) {
                self.carry.we.next = true;
            }
            self.n.pf_st.next = pf::IDLE.into();
            if self.pf_st.q.val() == pf::READY {
                self.n.cur.next = self.pf_cur.q.val();
                self.n.ir.next = self.pf_ir.q.val();
                self.dw.d.next = self.pf_rom.word.val();
                self.pc.d.next = self.pf_pc.q.val();
                self.active.d.next = self.pf_active.q.val();
                self.exec.d.next = self.pf_exec.q.val();
                self.n.state.next = SmState::Aux;
                if self.pf_fast.q.val() {
                    // Aux and Dispatch already done: straight to the first beat.
                    self.paux.d.next = self.pf_paux.q.val();
                    self.carry_in.d.next = self.pf_carry.q.val();
                    self.exited_old.d.next = self.pf_exited.q.val();
                    self.n.beat.next = 0.into();
                    self.n.phase.next = 0.into();
                    self.res_pred.d.next = 0.into();
                    self.res_carry.d.next = 0.into();
                    self.cc_we.d.next = false;
                    self.n.state.next = SmState::Exec;
                }
            }
        }
        // Dispatch by decode class, in Aux's cycle (Dispatch's after Aux2): resets the
        // per-instruction counters and picks the next state (it overrides Aux's).
        self.dispatching.next =
            ((self.state.q.val() == SmState::Aux) & (self.cls.val() != class::PLOP)) | (self.state.q.val() == SmState::Dispatch);
        if self.dispatching.val() {
            self.n.beat.next = 0.into();
            self.n.phase.next = 0.into();
            self.n.mt.next = 0.into();
            self.n.mk.next = 0.into();
            self.res_pred.d.next = 0.into();
            self.res_carry.d.next = 0.into();
            self.cc_we.d.next = false;
            self.fast.d.next = false;
            self.spipe.d.next = false;
            self.phit.d.next = false;
            self.n.state.next = SmState::Commit;
            if self.cls.val() == class::UNIMPL {
                self.t_code.d.next = trap::UNIMPLEMENTED.into();
                self.t_pc.d.next = self.pc.q.val();
                self.n.state.next = SmState::Trapped;
            }
            if (self.cls.val() == class::ALU) | (self.cls.val() == class::S2R) | (self.cls.val() == class::BALLOT) {
                self.n.state.next = SmState::Exec;
            }
            // ld, st, atom: a beat of lanes per request; syscalls: a thread per request.
            if (self.cls.val() == class::LD) | (self.cls.val() == class::ST) | (self.cls.val() == class::ATOM) {
                self.n.state.next = SmState::BeatAddr;
                self.fast.d.next = self.fa_ok.val() & !self.pcache.hit.val();
                self.spipe.d.next = self.sp_ok.val();
                self.phit.d.next = self.pcache.hit.val();
                // An FP atomic add without the unit of its width is
                // unimplemented (where a lane executes it).
                if (self.cls.val() == class::ATOM)
                    & (self.f_mod.val().get_bits::<4>(0) == 1)
                    & (((self.sm_size.val() == 3) & !self.consts.has_fp64.val())
                        | ((self.sm_size.val() != 3) & !self.consts.has_fp32.val()))
                    & (self.exec.q.val() != 0)
                {
                    self.t_code.d.next = trap::UNIMPLEMENTED.into();
                    self.t_pc.d.next = self.pc.q.val();
                    self.n.state.next = SmState::Trapped;
                }
            }
            if self.cls.val() == class::SYS {
                self.n.state.next = SmState::MemAddr;
            }
            if self.cls.val() == class::BRA {
                if (self.f_rpc.val() == self.consts.rpc_none.val()) & (self.exec.q.val() != 0) & (self.exec.q.val() != self.active.q.val())
                {
                    self.t_code.d.next = trap::DIVERGENT_UNIFORM.into();
                    self.t_pc.d.next = self.pc.q.val();
                    self.n.state.next = SmState::Trapped;
                } else if !self.br_uni.val() {
                    self.stack.cmd.next = stack::CMD_BRANCH.into();
                    self.stack.pc.next = self.pc.q.val();
                    self.stack.start.next = true;
                    self.n.state.next = SmState::CtlWait;
                }
            }
            if (self.cls.val() == class::CALL) | (self.cls.val() == class::RET) | (self.cls.val() == class::EXIT) {
                self.stack.cmd.next = stack::CMD_SETPC.into();
                self.stack.start.next = true;
                self.n.state.next = SmState::Ctl2;
            }
            // bar, barred: the first executing thread's id and count (MemAddr), then arrive.
            if ((self.cls.val() == class::BAR) | (self.cls.val() == class::BARRED)) & (self.exec.q.val() != 0) {
                self.n.state.next = SmState::MemAddr;
            }
            if (self.cls.val() == class::TRAP) & (self.exec.q.val() != 0) {
                self.t_code.d.next = trap::BREAKPOINT.into();
                if self.f_op.val() == self.consts.op_trap.val() {
                    self.t_code.d.next = trap::USER.into();
                }
                self.t_pc.d.next = self.pc.q.val();
                self.n.state.next = SmState::Trapped;
            }
            if self.is_shfl.val() {
                self.n.state.next = SmState::ShflGather;
            }
            if self.cls.val() == class::CALLI {
                // SETPC(pc + 1): the return address; then the targets.
                self.stack.cmd.next = stack::CMD_SETPC.into();
                self.stack.start.next = true;
                self.n.state.next = SmState::CalliGather;
            }
        }
    }

    /// Defaults for every other driven signal.
    #[hdl_part]
    pub(super) fn defaults(&mut self) {
        self.stack.start.next = false;
        self.stack.cmd.next = stack::CMD_SETPC.into();
        self.stack.warp.next = self.fe_warp.val();
        self.stack.pc.next = self.pc.q.val() + 1;
        self.stack.target.next = self.f_imm.val();
        self.stack.rejoin.next = self.f_rpc.val();
        self.stack.mask.next = self.exec.q.val();
        self.imem.raddr.next = self.stack.top_pc.val().get_bits::<ADDR_BITS>(0);
        self.imem.we.next = self.imem_we.val() & (self.state.q.val() == SmState::Idle);
        self.imem.waddr.next = self.imem_addr.val();
        self.imem.wdata.next = self.imem_data.val();
        self.ibad.raddr.next = self.stack.top_pc.val().get_bits::<ADDR_BITS>(0);
        self.ibad.we.next = self.imem_we.val() & (self.state.q.val() == SmState::Idle);
        self.ibad.waddr.next = self.imem_addr.val();
        self.ibad.wdata.next = 0.into();
        if self.imem_bad.val() {
            self.ibad.wdata.next = 1.into();
        }
        self.pw.we.next = false;
        self.pw.all.next = false;
        self.pw.warp.next = bit_cast::<8, 6>(self.cur.q.val());
        self.pw.idx.next = bit_cast::<8, 3>(self.pd.val());
        self.pw.data.next = 0.into();
        self.carry.we.next = false;
        self.carry.waddr.next = bit_cast::<ADDR_BITS, 6>(self.cur.q.val());
        self.carry.wdata.next = (self.carry_in.q.val() & !self.exec.q.val()) | (self.rc_fin.val() & self.exec.q.val());
        self.exited.we.next = false;
        self.exited.waddr.next = bit_cast::<ADDR_BITS, 6>(self.cur.q.val());
        self.exited.wdata.next = self.exited_old.q.val() | self.exec.q.val();
        self.live_cur.next = !self.exited_old.q.val() & self.consts.full.val();
        // The thread counter: the live threads of warp cur (barriers), else
        // the executing threads Aux counts (the prefetch's Aux step counts its
        // instruction's, for the classes that go straight to Exec), the
        // threads a control instruction ends in CtlWait.
        self.pf_fast_now.next = ((self.pf_cls.val() == class::ALU) & !self.pf_rom.word.val().get_bit(14))
            | (self.pf_cls.val() == class::S2R)
            | (self.pf_cls.val() == class::BALLOT);
        self.popc.x.next = self.live_cur.val();
        if self.state.q.val() == SmState::Aux {
            self.popc.x.next = self.exec.q.val();
        }
        if self.state.q.val() == SmState::CtlWait {
            self.popc.x.next = self.exec.q.val() & !self.exited_old.q.val();
        }
        if (self.pf_st.q.val() == pf::READY) & self.pf_cnt.q.val() {
            self.popc.x.next = self.pf_exec.q.val();
        }
        #[hdl_skip]
        settle!(self.popc);
    }
}
