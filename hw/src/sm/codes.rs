//! The SM's codes: host registers, trap codes, memory request kinds,
//! the prefetch's states and the control states ([`SmState`]).

use rust_hdl::prelude::*;

/// Host control registers (`host_addr`).
pub mod host {
    pub const ENTRY: u64 = 0;
    pub const GRID_X: u64 = 1;
    pub const GRID_Y: u64 = 2;
    pub const GRID_Z: u64 = 3;
    pub const BLOCK_X: u64 = 4;
    pub const BLOCK_Y: u64 = 5;
    pub const BLOCK_Z: u64 = 6;
    pub const NTHREADS: u64 = 7;
    pub const NWARPS: u64 = 8;
    pub const DYN_SMEM: u64 = 9;
    pub const TOTAL_SMEM: u64 = 10;
    pub const GRIDID: u64 = 11;
    pub const CODE_LEN: u64 = 12;
    /// CTAs resident at once (1..=`SmConfig::ctas`): the launch's CTA slots.
    pub const CTA_SLOTS: u64 = 13;
    /// log2 of the warp slots each CTA slot owns: slot `s` runs warps
    /// `s << SLOT_SHIFT ..`; `CTA_SLOTS << SLOT_SHIFT` is at most `SmConfig::warps`.
    pub const SLOT_SHIFT: u64 = 14;
    /// Any write starts the launch.
    pub const START: u64 = 15;
}

/// `trap_code` values.
pub mod trap {
    pub const NONE: u64 = 0;
    pub const BAD_PC: u64 = 1;
    pub const UNIMPLEMENTED: u64 = 2;
    pub const STACK_OVERFLOW: u64 = 3;
    pub const DEADLOCK: u64 = 4;
    pub const RUNAWAY: u64 = 5;
    pub const USER: u64 = 6;
    pub const BREAKPOINT: u64 = 7;
    pub const MEMORY: u64 = 8;
    pub const DIVERGENT_UNIFORM: u64 = 9;
    pub const EPOCH: u64 = 10;
    pub const BAD_REGISTER: u64 = 11;
    /// A barrier id past the last barrier; `trap_value` is the id.
    pub const BAD_BARRIER: u64 = 12;
    /// A misaligned access (any space but an atomic's outside shared
    /// memory) or an out-of-bounds shared-memory access: the SM checks those
    /// itself; the bus's memory reports the others as `MEMORY`. `trap_lane`
    /// is the lane, `trap_value` the address operand.
    pub const MISALIGNED: u64 = 13;
    pub const SHARED_OUT_OF_BOUNDS: u64 = 14;
}

/// Wishbone transfers the SM's bus master keeps outstanding (a power of two).
pub const BUS_DEPTH: usize = 4;

/// `mem_kind` values.
pub mod mem {
    pub const LOAD: u64 = 0;
    pub const STORE: u64 = 1;
    pub const ATOMIC: u64 = 2;
    /// A system call, one thread per request on `mem_req`: `mem_atom_op` is the
    /// call number (`SysNo`), the argument words a..a+6 are `mem_wdata`,
    /// `mem_wdata_hi`, `mem_cdata` (two words each, low first) and
    /// `mem_xdata`; `mem_rdata` is the result. (Loads, stores and atomics go
    /// on the Wishbone bus, `Sm::wb_*`.)
    pub const SYSCALL: u64 = 3;
}

/// `pf_st` values: the prefetched instruction's progress (see
/// "Overlapped front end" above).
pub(super) mod pf {
    /// Not started.
    pub const IDLE: u64 = 0;
    /// Waiting for Top (the stack pops finished entries first).
    pub const TOP: u64 = 1;
    /// Aux's reads (the predicate operand).
    pub const AUX: u64 = 2;
    /// Ready to issue.
    pub const READY: u64 = 3;
    /// No warp was ready this time.
    pub const NONE: u64 = 4;
    /// The word is read out (and Aux's reads done with it when the
    /// instruction has no predicate operand).
    pub const WORD: u64 = 5;
}

/// Declares [`SmState`] and [`SM_STATES`] from one list of states.
macro_rules! sm_states {
    ($($state:ident),* $(,)?) => {
        #[derive(Copy, Clone, Debug, PartialEq, LogicState)]
        pub enum SmState {
            $($state),*
        }

        /// Every [`SmState`], in declaration order: a state's index here is its
        /// code in the exported Verilog (`localparam SmState$Name`).
        pub const SM_STATES: [SmState; [$(SmState::$state),*].len()] = [$(SmState::$state),*];
    };
}

sm_states! {
    Idle,
    InitWarp,
    InitFill,
    InitThread,
    Sched,
    Top,
    Fetch,
    Aux,
    Aux2,
    Dispatch,
    Exec,
    MemAddr,
    MemData,
    MemReq,
    MemWb,
    ShflGather,
    ShflSelect,
    CalliGather,
    CalliLead,
    CalliPush,
    CalliWait,
    BeatAddr,
    BeatData,
    BeatReq,
    BeatWb,
    FastDrain,
    FastHi,
    SmemAcc,
    BarArrive,
    BarCheck,
    BarRelease,
    BarWb,
    Ctl2,
    CtlWait,
    Commit,
    NextCta,
    Trapped,
}
