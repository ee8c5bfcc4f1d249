//! The SM's ports, as the engine loop sees them: one trait, [`SmPorts`],
//! implemented by the rust-hdl [`Sm`] (its signals) and by the Verilator
//! model of its exported Verilog (`crate::verilator`, port values that a
//! C++ harness copies in and out of the model each evaluation). The loop in
//! `rtl::simulate_launch` (host writes, the Wishbone slave, system calls,
//! the retire monitor, lockstep, trap decoding) is written once over it.
//!
//! Ports are named once, in the tables of the `ports!` invocation below:
//! the enums [`O`] (outputs), [`L`] (per-lane monitor outputs) and [`I`]
//! (inputs), their Verilog names (which the Verilator harness is generated
//! from) and the rust-hdl accessors all come from them. Besides ports, the
//! engine reads a few of the SM's internals (its state, the instruction in
//! flight, the register-file write ports, shared memory): [`SmPorts`] has a
//! method for each, which the Verilator harness answers through
//! hierarchical references from a wrapper module.

use heddle_hw::sm::{LaneWrite, Sm, SmState};
use heddle_hw::SmConfig;
use rust_hdl::prelude::*;

/// A port value as a `u64` (a bit or a bit vector of at most 64 bits).
pub trait PortValue: Copy {
    fn to_port(self) -> u64;
    fn from_port(v: u64) -> Self;
}

impl PortValue for bool {
    fn to_port(self) -> u64 {
        self as u64
    }
    fn from_port(v: u64) -> bool {
        v != 0
    }
}

impl PortValue for Clock {
    fn to_port(self) -> u64 {
        self.clk as u64
    }
    fn from_port(v: u64) -> Clock {
        (v != 0).into()
    }
}

impl<const N: usize> PortValue for Bits<N> {
    fn to_port(self) -> u64 {
        self.to_u64()
    }
    fn from_port(v: u64) -> Bits<N> {
        v.into()
    }
}

macro_rules! ports {
    (outs { $($o:ident = $of:ident),* $(,)? }
     lanes { $($l:ident = $lf:ident),* $(,)? }
     ins { $($i:ident = $if:ident),* $(,)? }) => {
        /// The SM's scalar outputs.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum O { $($o),* }
        impl O {
            pub const ALL: &'static [O] = &[$(O::$o),*];
            /// The Verilog port names, in [`O::ALL`] order.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($of)),*];
        }
        /// The SM's per-lane monitor outputs (`name$lane` in the Verilog).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum L { $($l),* }
        impl L {
            pub const ALL: &'static [L] = &[$(L::$l),*];
            pub const NAMES: &'static [&'static str] = &[$(stringify!($lf)),*];
        }
        /// The SM's scalar inputs.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum I { $($i),* }
        impl I {
            pub const ALL: &'static [I] = &[$(I::$i),*];
            pub const NAMES: &'static [&'static str] = &[$(stringify!($if)),*];
        }
        #[inline(always)]
        fn sm_out(sm: &Sm, o: O) -> u64 {
            match o { $(O::$o => sm.$of.val().to_port()),* }
        }
        #[inline(always)]
        fn sm_lane(sm: &Sm, l: L, lane: usize) -> u64 {
            match l { $(L::$l => sm.$lf[lane].val().to_port()),* }
        }
        #[inline(always)]
        fn sm_in(sm: &Sm, i: I) -> u64 {
            match i { $(I::$i => sm.$if.val().to_port()),* }
        }
        #[inline(always)]
        fn sm_set(sm: &mut Sm, i: I, v: u64) {
            match i { $(I::$i => sm.$if.next = PortValue::from_port(v)),* }
        }
    };
}

ports! {
    outs {
        Done = done, TrapCode = trap_code, TrapWarp = trap_warp, TrapPc = trap_pc, TrapLane = trap_lane, TrapValue = trap_value,
        MemReq = mem_req, MemKind = mem_kind, MemSpace = mem_space, MemWidth = mem_width, MemWdata = mem_wdata,
        MemWdataHi = mem_wdata_hi, MemCdata = mem_cdata, MemXdata = mem_xdata, MemAtomOp = mem_atom_op,
        MemThread = mem_thread, MemLane = mem_lane,
        WbCyc = wb_cyc, WbStb = wb_stb, WbWe = wb_we, WbAdr = wb_adr, WbSel = wb_sel, WbTgaSpace = wb_tga_space,
        WbTgaSize = wb_tga_size, WbTgaFirst = wb_tga_first, WbTgaThread = wb_tga_thread, WbTgaLane = wb_tga_lane,
        WbTgcAtom = wb_tgc_atom, WbTgcOp = wb_tgc_op, WbTgdB = wb_tgd_b, WbTgdC = wb_tgd_c,
        BusDone = bus_done, BusMask = bus_mask, SmemDone = smem_done, SmemMask = smem_mask, MemRedo = mem_redo,
        CtaStart = cta_start, CtaLinear = cta_linear, CtaSlot = cta_slot,
        Retire = retire, RetWarp = ret_warp, RetPc = ret_pc, RetActive = ret_active, RetExec = ret_exec,
        RetPredWe = ret_pred_we, RetPred = ret_pred, RetPredVal = ret_pred_val, Waiting = waiting,
        PerfCycles = perf_cycles, PerfIssued = perf_issued, PerfThreads = perf_threads, PerfExec = perf_exec,
        PerfMem = perf_mem, PerfTxn = perf_txn, PerfCtl = perf_ctl, PerfFront = perf_front,
        PerfBarrier = perf_barrier, PerfConflicts = perf_conflicts, PerfDepth = perf_depth,
    }
    lanes {
        Laddr = mem_laddr, Lwdata = mem_lwdata, LwdataHi = mem_lwdata_hi, Ldata = mem_ldata, LdataHi = mem_ldata_hi,
    }
    ins {
        Clock = clock, HostWe = host_we, HostAddr = host_addr, HostWdata = host_wdata, ImemWe = imem_we,
        ImemAddr = imem_addr, ImemData = imem_data, ImemBad = imem_bad, MemRdata = mem_rdata, MemFault = mem_fault,
        WbTgdR = wb_tgd_r, WbAck = wb_ack, WbErr = wb_err, WbStall = wb_stall,
    }
}

/// The SM as the engine drives it: its ports, its clock, and the
/// internals its monitors read.
pub trait SmPorts {
    /// An output's value (after the last settle).
    fn o(&self, o: O) -> u64;
    /// Lane `lane`'s value of a per-lane monitor output.
    fn lane(&self, l: L, lane: usize) -> u64;
    /// The bus words (`wb_dat_w`, `wb_dat_r`: 32 bits each).
    fn bus_words(&self) -> usize;
    /// Word `w` of the write data (`wb_dat_w`).
    fn dat_w(&self, w: usize) -> u32;
    /// An input's value as last driven.
    fn i(&self, i: I) -> u64;
    /// Drives an input (it takes effect at the next settle or tick).
    fn set(&mut self, i: I, v: u64);
    /// Word `w` of the read data (`wb_dat_r`) as last driven.
    fn dat_r(&self, w: usize) -> u32;
    fn set_dat_r(&mut self, w: usize, v: u32);
    /// Evaluates the logic after inputs changed.
    fn settle(&mut self) -> Result<(), String>;
    /// One clock cycle: the rising edge, then `after_edge` drives the
    /// inputs that change with the edge (from what was sampled before it),
    /// then the SM settles.
    fn tick_then(&mut self, after_edge: impl FnOnce(&mut Self)) -> Result<(), String>;
    /// The SM's state.
    fn state(&self) -> SmState;
    /// The warp slot whose instruction is in flight (or was last) and its pc.
    fn in_flight(&self) -> (u32, u32);
    /// The executing-lane mask of the instruction in flight.
    fn exec_mask(&self) -> u64;
    /// `len` bytes of shared memory from byte `from`.
    fn shared_bytes(&self, from: usize, len: usize) -> Vec<u8>;
    /// Register writes the lanes make at the coming clock edge.
    fn lane_writes(&self, cfg: &SmConfig) -> Vec<LaneWrite>;
    /// The rust-hdl SM, for what only it has (VCD traces).
    fn rust_hdl(&self) -> Option<&Sm> {
        None
    }

    fn tick(&mut self) -> Result<(), String>
    where
        Self: Sized,
    {
        self.tick_then(|_| ())
    }
}

/// Settle passes until nothing inside the SM is left to change (the
/// vendored `Block::pending`: the SM's own outputs changing needs no
/// further pass, so the pass that would only find that out is not run).
fn settle(sm: &mut Sm) -> Result<(), String> {
    for _ in 0..400 {
        sm.update_all();
        if !sm.pending() {
            return Ok(());
        }
    }
    Err("the RTL did not settle (combinational loop)".into())
}

impl SmPorts for Sm {
    #[inline(always)]
    fn o(&self, o: O) -> u64 {
        sm_out(self, o)
    }
    #[inline(always)]
    fn lane(&self, l: L, lane: usize) -> u64 {
        sm_lane(self, l, lane)
    }
    fn bus_words(&self) -> usize {
        self.wb_dat_w.len()
    }
    fn dat_w(&self, w: usize) -> u32 {
        self.wb_dat_w[w].val().to_u32()
    }
    #[inline(always)]
    fn i(&self, i: I) -> u64 {
        sm_in(self, i)
    }
    #[inline(always)]
    fn set(&mut self, i: I, v: u64) {
        sm_set(self, i, v)
    }
    fn dat_r(&self, w: usize) -> u32 {
        self.wb_dat_r[w].val().to_u32()
    }
    fn set_dat_r(&mut self, w: usize, v: u32) {
        self.wb_dat_r[w].next = (v as u64).into();
    }
    fn settle(&mut self) -> Result<(), String> {
        settle(self)
    }
    /// A rising-edge pass (the flip-flops take their inputs first, then
    /// the SM's logic runs on their new values and the new inputs, see the
    /// vendored derive's gated evaluation), then the clock falls and the SM
    /// settles. The falling edge changes nothing but the clocks, so it rides
    /// along with the settle passes instead of costing a pass of its own.
    fn tick_then(&mut self, after_edge: impl FnOnce(&mut Sm)) -> Result<(), String> {
        self.clock.next = true.into();
        after_edge(self);
        self.update_all();
        self.clock.next = false.into();
        settle(self)
    }
    fn state(&self) -> SmState {
        Sm::state(self)
    }
    fn in_flight(&self) -> (u32, u32) {
        Sm::in_flight(self)
    }
    fn exec_mask(&self) -> u64 {
        Sm::exec_mask(self)
    }
    fn shared_bytes(&self, from: usize, len: usize) -> Vec<u8> {
        Sm::shared_bytes(self, from, len)
    }
    fn lane_writes(&self, cfg: &SmConfig) -> Vec<LaneWrite> {
        Sm::lane_writes(self, cfg)
    }
    fn rust_hdl(&self) -> Option<&Sm> {
        Some(self)
    }
}
