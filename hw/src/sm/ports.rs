//! The SM's output ports, from its registers: the system-call port,
//! launch progress, the retire port, the trap, the performance counters
//! and the memory monitor's completion flags.
//!
//! Parts of `Sm::update()` (`#[hdl_part]`): see the module doc of `sm`.

use super::*;

impl Sm {
    #[hdl_part]
    pub(super) fn output_ports(&mut self) {
        self.mem_req.next = false;
        self.mem_kind.next = mem::LOAD.into();
        if self.cls.val() == class::ST {
            self.mem_kind.next = mem::STORE.into();
        }
        if self.cls.val() == class::ATOM {
            self.mem_kind.next = mem::ATOMIC.into();
        }
        if self.cls.val() == class::SYS {
            self.mem_kind.next = mem::SYSCALL.into();
        }
        self.mem_space.next = self.m_space.val();
        self.mem_atom_op.next = 0.into();
        if self.cls.val() == class::ATOM {
            self.mem_atom_op.next = self.f_mod.val().get_bits::<4>(0);
        }
        if self.cls.val() == class::SYS {
            // The call number (`SysNo`).
            self.mem_atom_op.next = bit_cast::<4, 2>(self.f_mod.val().get_bits::<2>(0));
        }
        self.mem_width.next = self.mwidth.val();
        self.mem_wdata.next = (bit_cast::<64, 32>(self.wb1.q.val()) << 32) | bit_cast::<64, 32>(self.wb0.q.val());
        self.mem_wdata_hi.next = (bit_cast::<64, 32>(self.wb3.q.val()) << 32) | bit_cast::<64, 32>(self.wb2.q.val());
        self.mem_cdata.next = (bit_cast::<64, 32>(self.cb1.q.val()) << 32) | bit_cast::<64, 32>(self.cb0.q.val());
        self.mem_xdata.next = self.wb4.q.val();
        self.mem_thread.next = self.warp_t0.val() | bit_cast::<16, 8>(self.mt.q.val());
        self.mem_lane.next = self.mt.q.val();
        self.cta_start.next = false;
        self.cta_linear.next = self.nx_lin.q.val();
        self.cta_slot.next = self.slot.q.val();
        self.retire.next = false;
        self.ret_warp.next = self.cur.q.val();
        self.ret_pc.next = self.pc.q.val();
        self.ret_active.next = self.active.q.val();
        self.ret_exec.next = self.exec.q.val();
        self.ret_pred_we.next = false;
        self.ret_pred.next = self.pd.val();
        self.ret_pred_val.next = 0.into();
        self.waiting.next = self.w_wait.q.val();
        self.busy.next = self.state.q.val() != SmState::Idle;
        self.done.next = self.done_f.q.val();
        self.trap_code.next = self.t_code.q.val();
        self.trap_warp.next = self.t_warp.q.val();
        self.trap_pc.next = self.t_pc.q.val();
        self.trap_lane.next = self.t_lane.q.val();
        self.trap_value.next = self.t_val.q.val();
        self.perf_cycles.next = self.cycles.q.val();
        self.perf_issued.next = self.c_issued.q.val();
        self.perf_threads.next = self.c_threads.q.val();
        self.perf_exec.next = self.c_exec.q.val();
        self.perf_mem.next = self.c_mem.q.val();
        self.perf_txn.next = self.c_txn.q.val();
        self.perf_ctl.next = self.c_ctl.q.val();
        self.perf_front.next = self.c_front.q.val();
        self.perf_barrier.next = self.c_barrier.q.val();
        self.perf_depth.next = self.c_depth.q.val();
        if self.stack.depth_used.val() > self.c_depth.q.val() {
            self.c_depth.d.next = self.stack.depth_used.val();
        }
        self.perf_conflicts.next = self.c_conf.q.val();
        self.mem_redo.next = false;
        self.bus_done.next = self.wm.fin.val() & (self.port_mask.val() != 0) & (self.cls.val() != class::ATOM);
        self.bus_mask.next = self.port_mask.val();
        self.smem_done.next = self.sm_done.q.val();
        self.smem_mask.next = self.sm_lanes.q.val();
    }
}
