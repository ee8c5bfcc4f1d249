//! `Sm::update()`: the registers' clocking, the next-state defaults, the
//! parts every state runs, and the dispatch on the control state to the
//! part of each (the parts are in this module's other files; see the module
//! doc of `sm`).

use super::*;

impl Logic for Sm {
    #[hdl_gen(
        parts(
            "src/sm/access.rs",
            "src/sm/bus.rs",
            "src/sm/cta.rs",
            "src/sm/ctl.rs",
            "src/sm/front.rs",
            "src/sm/instr.rs",
            "src/sm/lanes.rs",
            "src/sm/ports.rs",
            "src/sm/reads.rs"
        ),
        locals(n, pw, shfl, wm)
    )]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, r_entry, r_grid_x, r_grid_y, r_grid_z, r_block_x, r_block_y, r_block_z, r_nthreads, r_nwarps, r_dyn,
            r_total, r_gridid, r_code_len, r_slots, r_slog, nx_x, nx_y, nx_z, nx_lin, more, epoch, slot, init_w, rd_epoch, init_k, rem,
            init_t, tid_x, tid_y, tid_z, w_live, w_wait, last, cur, pc, ir, dw, active, exec, paux, pauxb, carry_in, exited_old, pf_st,
            pf_cur, pf_ir, pf_pc, pf_active, pf_exec, pf_paux, pf_carry, pf_exited, pf_fast, fq_warp, fq_pc, fq_mask, fq_empty, pf_cnt,
            beat, phase, res_pred, su_on, su_lane, res_carry, cc_we, mt, mk, wb0, wb1, wb2, wb3, wb4, cb0, cb1, rb_lo, w_red, bar_id,
            bar_count, bk, bw, r_cnt, r_thr, t_val, icount, cycles, c_issued, c_threads, c_exec, c_mem, c_txn, c_ctl, c_front, c_barrier,
            c_depth, t_code, t_warp, t_pc, t_lane, done_f, sm_pass, sm_done, sm_lanes, c_conf, wm_go, wm_pend, wm_part, wm_fly, wm_cnt,
            wm_qh, wm_qt, wm_drain, wm_single, wm_rep, sh_k, cl_tgt, cl_hot, cl_ok, port_a, port_b, port_c, fast, spipe, sp_mask, sp_base,
            sp_fin, phit
        );
        self.n.state.next = self.state.q.val();
        self.n.cur.next = self.cur.q.val();
        self.n.fq_warp.next = self.fq_warp.q.val();
        self.n.pf_st.next = self.pf_st.q.val();
        self.n.pf_cur.next = self.pf_cur.q.val();
        self.n.bw.next = self.bw.q.val();
        self.n.bar_id.next = self.bar_id.q.val();
        self.n.bk.next = self.bk.q.val();
        self.n.ir.next = self.ir.q.val();
        self.n.beat.next = self.beat.q.val();
        self.n.phase.next = self.phase.q.val();
        self.n.mt.next = self.mt.q.val();
        self.n.qh.next = self.wm_qh.q.val();
        self.n.mk.next = self.mk.q.val();
        self.sm_done.d.next = false;
        self.cta_slots();
        self.decode_instruction();
        self.rf_addressing();
        self.smem_lanes();
        self.bus_master();
        self.lanes();
        self.defaults();
        self.barriers();
        self.calli_targets();
        self.mem_loop_next();
        self.output_ports();
        self.fast_queue();
        self.predicates();
        match self.state.q.val() {
            SmState::Idle => self.on_idle(),
            SmState::NextCta => self.on_next_cta(),
            SmState::InitWarp => self.on_init_warp(),
            SmState::InitFill => self.on_init_fill(),
            SmState::InitThread => self.on_init_thread(),
            SmState::Sched => self.on_sched(),
            // Top: waits for TOP; the fetch is below.
            SmState::Top => self.on_top(),
            // Fetch: the instruction word is read; its checks are below.
            SmState::Fetch => self.on_fetch(),
            SmState::Aux => self.on_aux(),
            SmState::Aux2 => self.on_aux2(),
            // Dispatch: see below (it also runs in Aux's cycle).
            SmState::Dispatch => {}
            SmState::Exec => self.on_exec(),
            SmState::MemAddr => self.on_mem_addr(),
            SmState::MemData => self.on_mem_data(),
            SmState::MemReq => self.on_mem_req(),
            SmState::MemWb => self.on_mem_wb(),
            SmState::ShflGather => self.on_shfl_gather(),
            SmState::ShflSelect => self.on_shfl_select(),
            SmState::CalliGather => self.on_calli_gather(),
            SmState::CalliLead => self.on_calli_lead(),
            SmState::CalliPush => self.on_calli_push(),
            SmState::CalliWait => self.on_calli_wait(),
            SmState::BeatAddr => self.on_beat_addr(),
            SmState::BeatData => self.on_beat_data(),
            SmState::BeatReq => self.on_beat_req(),
            SmState::SmemAcc => self.on_smem_acc(),
            SmState::BeatWb => self.on_beat_wb(),
            SmState::FastDrain => self.on_fast_drain(),
            SmState::FastHi => self.on_fast_hi(),
            SmState::BarArrive => self.on_bar_arrive(),
            SmState::BarCheck => self.on_bar_check(),
            SmState::BarRelease => self.on_bar_release(),
            SmState::BarWb => self.on_bar_wb(),
            SmState::Ctl2 => self.on_ctl2(),
            SmState::CtlWait => self.on_ctl_wait(),
            // Commit: see below (it also runs in Exec's last cycle).
            SmState::Commit => {}
            SmState::Trapped => {
                self.n.pf_st.next = pf::IDLE.into();
                self.t_warp.d.next = self.cur.q.val();
                self.done_f.d.next = true;
                self.n.state.next = SmState::Idle;
            }
            _ => {
                self.n.state.next = SmState::Idle;
            }
        }
        self.front_end();
        self.fast_abort();
        self.next_cycle_reads();
    }
}
