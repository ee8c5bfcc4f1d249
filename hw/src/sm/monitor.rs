//! What the engines' monitors read of the SM besides its ports: the
//! register-file writes of the coming edge.

use super::*;

/// One lane's register-file write in the current cycle (monitors).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneWrite {
    /// Thread index within the warp.
    pub thread: u32,
    pub warp: u32,
    pub reg: u32,
    pub value: u32,
}

impl Sm {
    pub fn state(&self) -> SmState {
        self.state.q.val()
    }

    /// The warp slot whose instruction is in flight (or was last) and that
    /// instruction's pc (monitors: the RTL engine's per-cycle samples).
    pub fn in_flight(&self) -> (u32, u32) {
        (self.cur.q.val().to_u32(), self.pc.q.val().to_u32())
    }

    /// The executing-lane mask of the instruction in flight.
    pub fn exec_mask(&self) -> u64 {
        self.exec.q.val().to_u64()
    }

    /// `len` bytes of shared memory from byte `from` (a backdoor for the
    /// host side of system calls, which may read a CTA's window:
    /// `printf("%s")` of a shared string).
    pub fn shared_bytes(&self, from: usize, len: usize) -> Vec<u8> {
        (from..from + len).map(|at| self.smem.peek_byte(at)).collect()
    }

    /// Register writes the lanes make at the coming clock edge, from the
    /// write ports' `next` (`RegFile` never commits its inputs). In
    /// `InitFill` and `BarWb` they belong to no retiring instruction.
    pub fn lane_writes(&self, cfg: &SmConfig) -> Vec<LaneWrite> {
        let ports = self.rf.iter().enumerate().filter(|(_, rf)| rf.we.next);
        lane_writes(cfg, ports.map(|(l, rf)| (l as u32, rf.waddr.next.index() as u32, rf.wdata.next.to_u64() as u32)))
    }
}

/// The architectural register writes among the register-file write ports
/// that write (lane, address, data), as [`Sm::lane_writes`] reports them
/// (the Verilator engine reads the same ports from the Verilog).
pub fn lane_writes(cfg: &SmConfig, ports: impl Iterator<Item = (u32, u32, u32)>) -> Vec<LaneWrite> {
    let rbits = cfg.reg_bits();
    let shift = cfg.beats().trailing_zeros() + rbits;
    let mut out = vec![];
    for (l, addr, value) in ports {
        let reg = addr & ((1 << rbits) - 1);
        let beat = (addr >> rbits) & (cfg.beats() - 1);
        out.push(LaneWrite { thread: beat * cfg.lanes + l, warp: addr >> shift, reg, value });
    }
    out
}
