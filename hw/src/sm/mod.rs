//! `Sm`: the streaming multiprocessor, one rust-hdl block driven by a
//! control state machine.
//!
//! ```text
//! host regs ──> CTA init into a free slot (stacks, predicates, exited
//!              masks, tid registers), until the slots are full
//!          ──> Sched (a free slot takes the next CTA first; else
//!              round-robin WarpPick over live, non-waiting warps)
//!          ──> Top (only when the stack top has finished entries to pop)
//!          ──> the instruction memory takes the stack top's pc (in
//!              Sched's cycle when nothing is popped, else in Top's)
//!          ──> Fetch (the word; its checks and guard predicate)
//!          ──> Aux (predicate operands)
//!          ──> Dispatch by decode class (DecodeRom, from the ISA table):
//!                ALU/S2R/BALLOT: Exec, one beat of `lanes` threads per cycle
//!                  through the lanes' ALU or FPU (64-bit operands: four
//!                  cycles per beat), or lane by lane through a shared
//!                  unit (divider, FP division and square root, binary64
//!                  FPU, SFU)
//!                LD/ST/ATOM: a beat of lanes per request, to the on-chip
//!                  shared memory or over the Wishbone bus
//!                SYS: one thread per request on the system-call port
//!                BRA/CALL/RET/EXIT: reconvergence-stack commands (a
//!                  uniform branch is a SETPC at Commit)
//!                CALLI: gather targets, one call frame per distinct target
//!                BAR/BARRED: arrive at one of 16 barriers; a completed
//!                  barrier releases its warps and writes `barred` results
//!          ──> Commit (predicates, carry, pc, retire pulse) ──> Sched
//! ```
//!
//! Overlapped front end: while an Exec instruction's beats run (or a
//! load's, store's or atomic's), Sched, fetch and Aux run for another ready
//! warp into the `pf_*` registers (`pf_st`, its progress: the `pf`
//! values). Exec commits in its last cycle (a memory instruction in
//! Commit) and goes on with the prefetched instruction: straight into its
//! first beat when Exec runs its class, else into Aux. With `warps` >= 2 and 4 beats per warp, back-to-back
//! ALU instructions of different warps issue every 4 cycles.
//!
//! CTA slots: up to `SmConfig::ctas` CTAs are resident at once
//! (`host::CTA_SLOTS`, which the host picks from the warp slots and shared
//! memory a CTA needs). Slot `s` owns warps `s << SLOT_SHIFT ..`, its own
//! window of shared memory (the CTA's bytes rounded up to whole rows, at
//! `s` times that), its 16 barriers, CTA coordinates, live-thread count and
//! epoch. Warps of all slots are scheduled together; when a slot's warps
//! have all finished, Sched starts the grid's next CTA in it.
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
//! Every memory reads synchronously (block RAM). The register files,
//! predicates, carry, exited and barrier RAMs are read where their word is
//! needed, so their read addresses of the next cycle are computed at the
//! end of `update()` from the next-state values (`n_*`, assigned wherever
//! the registers' `d` would be). The instruction memory takes the stack
//! top's pc a cycle before `Fetch` uses the word.
//!
//! External memory is behind a Wishbone B4 pipelined bus (`wb_*`, see
//! `wb_cyc`); system calls go on a request/response port (`mem_req`)
//! serviced within the cycle. The RTL engine in `heddle-sim` implements
//! both (the memory model sits behind them). Opcodes whose decode class is
//! `UNIMPL` (FP32 and SFU opcodes without `SmConfig::fp32`, binary64 ones
//! without `SmConfig::fp64`) end the launch with trap code
//! [`trap::UNIMPLEMENTED`], as does an FP atomic add (`atom.fadd`) with
//! neither: such an SM has no FP units at all, not even the shared-memory
//! atomic unit's adder.
//!
//! Writing `update()`: a `Signal<Local, _>` reads back what was last
//! assigned in this same call (rust-hdl's `val()` of a local is its `next`,
//! like a blocking assignment in the Verilog it becomes). A value computed
//! in a loop must be complete before another loop compares against it.
//! A combinational child whose outputs the logic reads (a lane's units,
//! the gatherers, the popcount, the coalescer, the predicate RAM) is
//! settled in place (`settle!`) after the last assignment to its inputs
//! and before the first read of its outputs: settling it while an input
//! still changes later in the same run would make the simulation
//! oscillate between passes.

mod new;

use crate::alu::IntAlu;
use crate::bits::{Gather, Popc64};
use crate::coalesce::Coalescer;
use crate::decode::modv::{red, space, width};
use crate::decode::{aux, class, operand, DecodeRom};
use crate::div::Divider;
use crate::fdivsqrt::FpDivSqrt;
use crate::fpu::Fpu;
use crate::ram::{SyncRam, ADDR_BITS};
use crate::reg::{Reg, Regs};
use crate::regfile::{RegFile, DATA_BITS, EPOCH_BITS, WORD_BITS};
use crate::sched::WarpPick;
use crate::sfu::Sfu;
use crate::smem::SharedMem;
use crate::stack::{self, ReconvStack};
use crate::wblanes::WbLanes;
use crate::{ConfigError, SmConfig};
use heddle_isa::fields::{BARRIERS, RPC_NONE};
use heddle_isa::mem::{LOCAL_WINDOW, SHARED_WINDOW};
use heddle_isa::Opcode;
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
mod pf {
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

#[derive(LogicBlock)]
pub struct Sm {
    pub clock: Signal<In, Clock>,
    // Host control interface.
    pub host_we: Signal<In, Bit>,
    pub host_addr: Signal<In, Bits<5>>,
    pub host_wdata: Signal<In, Bits<32>>,
    pub imem_we: Signal<In, Bit>,
    pub imem_addr: Signal<In, Bits<ADDR_BITS>>,
    pub imem_data: Signal<In, Bits<64>>,
    /// The loader's predecode bit: this word names a register beyond the kernel's count.
    pub imem_bad: Signal<In, Bit>,
    pub busy: Signal<Out, Bit>,
    pub done: Signal<Out, Bit>,
    pub trap_code: Signal<Out, Bits<4>>,
    pub trap_warp: Signal<Out, Bits<6>>,
    pub trap_pc: Signal<Out, Bits<32>>,
    pub trap_lane: Signal<Out, Bits<8>>,
    pub trap_value: Signal<Out, Bits<32>>,
    // System calls on `mem_req` (one thread at a time).
    pub mem_req: Signal<Out, Bit>,
    pub mem_kind: Signal<Out, Bits<2>>,
    pub mem_space: Signal<Out, Bits<3>>,
    pub mem_width: Signal<Out, Bits<3>>,
    pub mem_wdata: Signal<Out, Bits<64>>,
    pub mem_wdata_hi: Signal<Out, Bits<64>>,
    pub mem_cdata: Signal<Out, Bits<64>>,
    /// A system call's seventh argument word (`a+6`).
    pub mem_xdata: Signal<Out, Bits<32>>,
    pub mem_atom_op: Signal<Out, Bits<4>>,
    pub mem_thread: Signal<Out, Bits<16>>,
    pub mem_lane: Signal<Out, Bits<8>>,
    pub mem_rdata: Signal<In, Bits<64>>,
    pub mem_fault: Signal<In, Bit>,
    /// External memory: a Wishbone B4 pipelined master, `SmConfig::bus_bits`
    /// wide (`wb_dat_w`, `wb_dat_r`: 32-bit words, low first; `wb_sel`: a bit
    /// per byte). It issues a transfer per cycle (unless `STALL`), keeps up
    /// to [`BUS_DEPTH`] outstanding, and takes their answers in order. A
    /// beat's lanes go in lane order, consecutive lanes in one aligned bus
    /// word sharing a transfer (`coalesce`). Tags name the access:
    ///
    /// - `wb_tga_space`: the `Space` modifier of the address (0 generic);
    /// - `wb_tga_size`: bytes per lane access (every lane of a beat alike);
    ///   an access wider than the word takes several transfers, and
    ///   `wb_tga_first` marks its first;
    /// - `wb_tga_thread`, `wb_tga_lane`: the transfer's first lane's thread
    ///   in the CTA and lane in the warp (a local access is per thread, so
    ///   alone in its transfer);
    /// - `wb_tgc_atom`, `wb_tgc_op`: an atomic (`AtomOp` code), performed by
    ///   the memory: one lane per transfer, at its exact address, operands
    ///   b and c on `wb_tgd_b`, `wb_tgd_c`; the old value returns on
    ///   `wb_tgd_r` with `ACK`.
    ///
    /// `ERR` means the transfer did nothing, and the memory must answer the
    /// transfers after it in the same bus cycle (`CYC` high) with `ERR` and
    /// do nothing for them either. A transfer of one lane that ends in `ERR`
    /// faults at that lane; after one of several lanes, the master takes the
    /// remaining answers, drops `CYC` for a cycle, and issues again every
    /// lane not done, that transfer's one at a time: the fault is the lowest
    /// faulting lane's, and the lanes below it (and only those) have done
    /// their accesses, as the golden model's lane order has it.
    pub wb_cyc: Signal<Out, Bit>,
    pub wb_stb: Signal<Out, Bit>,
    pub wb_we: Signal<Out, Bit>,
    pub wb_adr: Signal<Out, Bits<32>>,
    pub wb_dat_w: Vec<Signal<Out, Bits<32>>>,
    pub wb_sel: Signal<Out, Bits<32>>,
    pub wb_tga_space: Signal<Out, Bits<3>>,
    pub wb_tga_size: Signal<Out, Bits<5>>,
    pub wb_tga_first: Signal<Out, Bit>,
    pub wb_tga_thread: Signal<Out, Bits<16>>,
    pub wb_tga_lane: Signal<Out, Bits<8>>,
    pub wb_tgc_atom: Signal<Out, Bit>,
    pub wb_tgc_op: Signal<Out, Bits<4>>,
    pub wb_tgd_b: Signal<Out, Bits<64>>,
    pub wb_tgd_c: Signal<Out, Bits<64>>,
    pub wb_dat_r: Vec<Signal<In, Bits<32>>>,
    pub wb_tgd_r: Signal<In, Bits<64>>,
    pub wb_ack: Signal<In, Bit>,
    pub wb_err: Signal<In, Bit>,
    pub wb_stall: Signal<In, Bit>,
    /// The memory monitor (for lockstep and statistics). Lane `l` of a beat
    /// is thread `mem_thread + l` (lane `mem_lane + l` of the warp) and
    /// accesses `mem_laddr[l]`, with store data `mem_lwdata(_hi)` (atomics:
    /// b, c; on chip: the new value) and loaded data `mem_ldata(_hi)`
    /// (atomics: the old value). `bus_done` says the lanes in `bus_mask`
    /// complete their loads or stores over the bus this cycle (the memory
    /// reports bus atomics itself); `smem_done` says the lanes in
    /// `smem_mask` completed their accesses in the on-chip shared memory
    /// in the last cycle.
    pub mem_laddr: Vec<Signal<Out, Bits<32>>>,
    pub mem_lwdata: Vec<Signal<Out, Bits<64>>>,
    pub mem_lwdata_hi: Vec<Signal<Out, Bits<64>>>,
    pub bus_done: Signal<Out, Bit>,
    pub bus_mask: Signal<Out, Bits<32>>,
    pub smem_done: Signal<Out, Bit>,
    pub smem_mask: Signal<Out, Bits<32>>,
    pub mem_ldata: Vec<Signal<Out, Bits<64>>>,
    pub mem_ldata_hi: Vec<Signal<Out, Bits<64>>>,
    // Launch progress and the retire port (for monitors).
    pub cta_start: Signal<Out, Bit>,
    pub cta_linear: Signal<Out, Bits<32>>,
    /// The CTA slot `cta_start` starts `cta_linear` in.
    pub cta_slot: Signal<Out, Bits<8>>,
    pub retire: Signal<Out, Bit>,
    pub ret_warp: Signal<Out, Bits<6>>,
    pub ret_pc: Signal<Out, Bits<32>>,
    pub ret_active: Signal<Out, Bits<64>>,
    pub ret_exec: Signal<Out, Bits<64>>,
    pub ret_pred_we: Signal<Out, Bit>,
    pub ret_pred: Signal<Out, Bits<3>>,
    pub ret_pred_val: Signal<Out, Bits<64>>,
    pub waiting: Signal<Out, Bits<64>>,
    // Performance counters.
    pub perf_cycles: Signal<Out, Bits<64>>,
    pub perf_issued: Signal<Out, Bits<64>>,
    pub perf_threads: Signal<Out, Bits<64>>,
    pub perf_exec: Signal<Out, Bits<64>>,
    pub perf_mem: Signal<Out, Bits<64>>,
    /// Bus transactions: the coalescer's segments per beat-wide request.
    pub perf_txn: Signal<Out, Bits<64>>,
    pub perf_ctl: Signal<Out, Bits<64>>,
    pub perf_front: Signal<Out, Bits<64>>,
    pub perf_barrier: Signal<Out, Bits<64>>,
    /// Cycles a shared-memory load or store pass waited on a bank another
    /// lane of it held (bank conflicts).
    pub perf_conflicts: Signal<Out, Bits<64>>,
    /// The deepest reconvergence stack the stack unit reported (entries of
    /// the warp it served), for functional coverage.
    pub perf_depth: Signal<Out, Bits<8>>,

    state: Reg<SmState>,
    r_entry: Reg<Bits<32>>,
    r_grid_x: Reg<Bits<32>>,
    r_grid_y: Reg<Bits<32>>,
    r_grid_z: Reg<Bits<32>>,
    r_block_x: Reg<Bits<32>>,
    r_block_y: Reg<Bits<32>>,
    r_block_z: Reg<Bits<32>>,
    r_nthreads: Reg<Bits<32>>,
    r_nwarps: Reg<Bits<32>>,
    r_dyn: Reg<Bits<32>>,
    r_total: Reg<Bits<32>>,
    r_gridid: Reg<Bits<32>>,
    r_code_len: Reg<Bits<32>>,
    r_slots: Reg<Bits<8>>,
    r_slog: Reg<Bits<8>>,
    /// The next CTA to start, and whether one remains.
    nx_x: Reg<Bits<32>>,
    nx_y: Reg<Bits<32>>,
    nx_z: Reg<Bits<32>>,
    nx_lin: Reg<Bits<32>>,
    more: Reg<Bit>,
    /// Counts CTA starts: each start's barrier records carry its own value.
    epoch: Reg<Bits<16>>,
    /// The CTA slot being started.
    slot: Reg<Bits<8>>,
    /// Per CTA slot: its CTA, epoch and live threads.
    s_x: Regs<Bits<32>>,
    s_y: Regs<Bits<32>>,
    s_z: Regs<Bits<32>>,
    s_epoch: Regs<Bits<16>>,
    s_live: Regs<Bits<32>>,
    /// Per warp slot: the epoch its register words are written with (a
    /// word of another epoch reads as zero). It steps each time a CTA start
    /// takes the warp slot; before it wraps, `InitFill` zeroes the warp's
    /// words, so an old word never reads as live.
    w_epoch: Regs<Bits<EPOCH_BITS>>,
    init_w: Reg<Bits<8>>,
    init_k: Reg<Bits<4>>,
    rem: Reg<Bits<32>>,
    init_t: Reg<Bits<16>>,
    tid_x: Reg<Bits<11>>,
    tid_y: Reg<Bits<11>>,
    tid_z: Reg<Bits<7>>,
    w_live: Reg<Bits<64>>,
    w_wait: Reg<Bits<64>>,
    last: Reg<Bits<6>>,
    cur: Reg<Bits<6>>,
    pc: Reg<Bits<32>>,
    ir: Reg<Bits<64>>,
    active: Reg<Bits<64>>,
    exec: Reg<Bits<64>>,
    paux: Reg<Bits<64>>,
    pauxb: Reg<Bits<64>>,
    carry_in: Reg<Bits<64>>,
    exited_old: Reg<Bits<64>>,
    /// The prefetched instruction of the next warp (see "Overlapped front
    /// end" above): `pf_st` is its progress; the rest mirror cur, ir, pc,
    /// active, exec, paux, carry_in and exited_old.
    pf_st: Reg<Bits<3>>,
    pf_cur: Reg<Bits<6>>,
    pf_ir: Reg<Bits<64>>,
    pf_pc: Reg<Bits<32>>,
    pf_active: Reg<Bits<64>>,
    pf_exec: Reg<Bits<64>>,
    pf_paux: Reg<Bits<64>>,
    pf_carry: Reg<Bits<64>>,
    pf_exited: Reg<Bits<64>>,
    /// The prefetched instruction goes straight to Exec (its class is one Exec runs).
    pf_fast: Reg<Bit>,
    /// The fetch in flight (see "Fetch" above): the warp and its stack top
    /// (pc, mask, empty) as they were when the instruction memory took the
    /// address.
    fq_warp: Reg<Bits<6>>,
    fq_pc: Reg<Bits<32>>,
    fq_mask: Reg<Bits<64>>,
    fq_empty: Reg<Bit>,
    /// The prefetched instruction goes straight to Exec and its issue is
    /// not counted yet (counted in a cycle of `pf_st` 3, when the
    /// popcount is free).
    pf_cnt: Reg<Bit>,
    beat: Reg<Bits<8>>,
    phase: Reg<Bits<2>>,
    res_pred: Reg<Bits<64>>,
    /// A shared unit (the divider, the FP division and square root, the
    /// shared FP unit, the SFU) computes, or holds, a lane's result of the
    /// current beat.
    su_on: Reg<Bit>,
    /// That lane (a shared unit serves a beat's lanes in turn, lane 0 first).
    su_lane: Reg<Bits<8>>,
    res_carry: Reg<Bits<64>>,
    cc_we: Reg<Bit>,
    mt: Reg<Bits<8>>,
    mk: Reg<Bits<3>>,
    wb0: Reg<Bits<32>>,
    wb1: Reg<Bits<32>>,
    wb2: Reg<Bits<32>>,
    wb3: Reg<Bits<32>>,
    /// A system call's seventh argument word.
    wb4: Reg<Bits<32>>,
    cb0: Reg<Bits<32>>,
    cb1: Reg<Bits<32>>,
    rb_lo: Reg<Bits<64>>,
    /// The CTA barriers, BARRIERS per CTA slot, in RAMs addressed
    /// `slot << 4 | id`: `bar_ae` = threads expected (0: every live thread)
    /// << 32 | threads arrived; for `barred`, `bar_cr` = threads that arrived
    /// << 32 | threads whose predicate held; `bar_tag` = the epoch of the CTA
    /// that wrote the entry (an entry of an earlier CTA reads as zeros).
    bar_ae: SyncRam<64>,
    bar_cr: SyncRam<64>,
    bar_tag: SyncRam<16>,
    /// Per warp, a word `rop[12:11] | rd[10:4] | barrier[3:0]`: the barrier
    /// it waits at, and for `barred` its destination register and
    /// reduction (`w_red`: one is pending). Written at arrival, read for
    /// warp `bw` in the barrier states.
    w_info: SyncRam<13>,
    w_red: Reg<Bits<64>>,
    /// The barrier instruction's id and count, the barrier and warp being
    /// checked or released, and the completed barrier's reduction counts.
    bar_id: Reg<Bits<32>>,
    bar_count: Reg<Bits<32>>,
    bk: Reg<Bits<8>>,
    bw: Reg<Bits<8>>,
    r_cnt: Reg<Bits<32>>,
    r_thr: Reg<Bits<32>>,
    t_val: Reg<Bits<32>>,
    icount: Reg<Bits<64>>,
    cycles: Reg<Bits<64>>,
    c_issued: Reg<Bits<64>>,
    c_threads: Reg<Bits<64>>,
    c_exec: Reg<Bits<64>>,
    c_mem: Reg<Bits<64>>,
    c_txn: Reg<Bits<64>>,
    /// Beat-wide memory: per lane the address, four data words and the loaded data.
    /// (64 bits wide, zero-extended: hdl_gen cannot `bit_cast` in a lane loop.)
    ladr: Regs<Bits<64>>,
    lw0: Regs<Bits<64>>,
    lw1: Regs<Bits<64>>,
    lw2: Regs<Bits<64>>,
    lw3: Regs<Bits<64>>,
    lrd_lo: Regs<Bits<64>>,
    lrd_hi: Regs<Bits<64>>,
    c_ctl: Reg<Bits<64>>,
    c_front: Reg<Bits<64>>,
    c_barrier: Reg<Bits<64>>,
    c_depth: Reg<Bits<8>>,
    t_code: Reg<Bits<4>>,
    t_warp: Reg<Bits<6>>,
    t_pc: Reg<Bits<32>>,
    t_lane: Reg<Bits<8>>,
    done_f: Reg<Bit>,
    alo: Regs<Bits<64>>,
    ahi: Regs<Bits<64>>,
    blo: Regs<Bits<64>>,
    bhi: Regs<Bits<64>>,
    clo: Regs<Bits<64>>,
    chi: Regs<Bits<64>>,
    rhi: Regs<Bits<64>>,
    /// The current beat's results from a shared unit, per lane, as it
    /// finishes each: the value, and a compare's predicate.
    su_res: Regs<Bits<64>>,
    su_pres: Regs<Bit>,
    /// The warp's shuffle source values, one per thread.
    sbuf: Regs<Bits<64>>,
    /// Shared memory; in SmemAcc, whether the current word pass has
    /// started; the beat's shared lanes and a pulse when they are done (the
    /// monitor); the bank-conflict counter.
    smem: SharedMem,
    sm_pass: Reg<Bit>,
    sm_done: Reg<Bit>,
    sm_lanes: Reg<Bits<32>>,
    c_conf: Reg<Bits<64>>,
    /// The bus master, in BeatReq: started this beat; the lanes with
    /// transfers still to issue, and the part to issue next; the lanes in
    /// flight; the transfers outstanding, their lanes and parts in a queue
    /// (head, tail); draining the transfers after an `ERR`; lanes retried
    /// one at a time after it (`wm_single`, `wm_rep`).
    wm_go: Reg<Bit>,
    wm_pend: Reg<Bits<32>>,
    wm_part: Reg<Bits<32>>,
    wm_fly: Reg<Bits<32>>,
    wm_cnt: Reg<Bits<8>>,
    wm_qh: Reg<Bits<8>>,
    wm_qt: Reg<Bits<8>>,
    wm_qrun: Regs<Bits<32>>,
    wm_qpart: Regs<Bits<32>>,
    wm_drain: Reg<Bit>,
    wm_single: Reg<Bit>,
    wm_rep: Reg<Bits<32>>,
    wbl: WbLanes,
    /// This cycle's answer to the oldest outstanding transfer (`ACK`; a new
    /// `ERR`; it completes its lanes' accesses), that transfer's lanes and
    /// part; the lanes to issue, the part, the lanes in flight and the
    /// transfers outstanding after it; the transfer to issue (its first
    /// lane, the next transfer's, its lanes; that lane's index and address;
    /// the lanes alone in their transfers; transfer starts); whether one
    /// goes out, and whether the beat's bus work ends this cycle; parts per
    /// lane access; the lane of a one-lane transfer.
    wm_ack: Signal<Local, Bit>,
    wm_err: Signal<Local, Bit>,
    wm_pdone: Signal<Local, Bit>,
    wm_hrun: Signal<Local, Bits<32>>,
    wm_hpart: Signal<Local, Bits<32>>,
    pend_now: Signal<Local, Bits<32>>,
    part_now: Signal<Local, Bits<32>>,
    fly_now: Signal<Local, Bits<32>>,
    cnt_now: Signal<Local, Bits<8>>,
    single_now: Signal<Local, Bit>,
    wm_lead: Signal<Local, Bits<32>>,
    wm_nxt: Signal<Local, Bits<32>>,
    wm_nxt1: Signal<Local, Bits<32>>,
    wm_runw: Signal<Local, Bits<32>>,
    wm_li: Signal<Local, Bits<8>>,
    wm_adr: Signal<Local, Bits<32>>,
    wm_solo: Signal<Local, Bits<32>>,
    wm_leaders: Signal<Local, Bits<32>>,
    wm_issue: Signal<Local, Bit>,
    wm_fin: Signal<Local, Bit>,
    wm_nparts: Signal<Local, Bits<32>>,
    wm_fli: Signal<Local, Bits<8>>,
    wm_tb: Signal<Local, Bits<64>>,
    wm_tc: Signal<Local, Bits<64>>,

    // Decoded fields of `ir` and other combinational values.
    f_op: Signal<Local, Bits<7>>,
    f_i: Signal<Local, Bit>,
    f_d: Signal<Local, Bits<7>>,
    f_a: Signal<Local, Bits<7>>,
    f_b: Signal<Local, Bits<7>>,
    f_c: Signal<Local, Bits<7>>,
    f_mod: Signal<Local, Bits<6>>,
    f_imm: Signal<Local, Bits<32>>,
    f_rpc: Signal<Local, Bits<32>>,
    cls: Signal<Local, Bits<5>>,
    wide_a: Signal<Local, Bit>,
    wide_b: Signal<Local, Bit>,
    wide: Signal<Local, Bit>,
    dwords: Signal<Local, Bits<2>>,
    setp: Signal<Local, Bit>,
    is_fp: Signal<Local, Bit>,
    is_sfu: Signal<Local, Bit>,
    /// A shared unit computes the result: the divider (an integer
    /// division), the FP division and square root (`is_fp` and `is_iter`),
    /// the shared FP unit (`is_fp`) or the SFU (`is_sfu`).
    is_shared: Signal<Local, Bit>,
    /// That unit is iterative (the divider, the FP division and square
    /// root, the SFU).
    is_iter: Signal<Local, Bit>,
    /// That unit is the integer divider (iterative, neither FP nor SFU).
    is_div: Signal<Local, Bit>,
    /// The shared unit is done (an iterative one when it says so, the
    /// shared FP unit, combinational, always).
    su_done: Signal<Local, Bit>,
    /// The lane a shared unit starts on when it starts: 0, or the next one.
    su_next: Signal<Local, Bits<8>>,
    /// Exec waits for a shared unit this cycle.
    su_wait: Signal<Local, Bit>,
    /// A shared unit starts on lane `su_next` at this cycle's edge.
    su_start: Signal<Local, Bit>,
    /// The lane whose operands go to the shared units: an iterative one
    /// takes `su_next`'s at its start, the others compute `su_lane`'s.
    su_sel: Signal<Local, Bits<8>>,
    su_a: Signal<Local, Bits<64>>,
    su_b: Signal<Local, Bits<64>>,
    su_c: Signal<Local, Bits<64>>,
    /// The shared unit's result and predicate (zero without one).
    su_d: Signal<Local, Bits<64>>,
    su_p: Signal<Local, Bit>,
    is_shfl: Signal<Local, Bit>,
    /// A 64-bit `IntTy` (`mod[5]`): conversions whose `d` or `a` it widens.
    ity64: Signal<Local, Bit>,
    /// Each lane's operands for its ALU and FPU (pairs assembled, immediate applied).
    lane_a: Vec<Signal<Local, Bits<64>>>,
    lane_b: Vec<Signal<Local, Bits<64>>>,
    lane_c: Vec<Signal<Local, Bits<64>>>,
    pd: Signal<Local, Bits<3>>,
    sh_b: Vec<Signal<Local, Bits<64>>>,
    sh_seg: Vec<Signal<Local, Bits<64>>>,
    sh_lane: Vec<Signal<Local, Bits<64>>>,
    sh_max: Vec<Signal<Local, Bits<64>>>,
    sh_j: Vec<Signal<Local, Bits<64>>>,
    sh_in: Vec<Signal<Local, Bit>>,
    sh_ok: Vec<Signal<Local, Bit>>,
    sh_src: Vec<Signal<Local, Bits<64>>>,
    sh_val: Vec<Signal<Local, Bits<64>>>,
    lane_d: Vec<Signal<Local, Bits<64>>>,
    auxsel: Signal<Local, Bits<2>>,
    aux_code: Signal<Local, Bits<4>>,
    aux_ir: Signal<Local, Bits<64>>,
    pred_val: Signal<Local, Bits<64>>,
    guard_val: Signal<Local, Bits<64>>,
    cur_beat: Signal<Local, Bits<8>>,
    beat_base: Signal<Local, Bits<8>>,
    rf_base: Signal<Local, Bits<ADDR_BITS>>,
    /// The register numbers the register files' read ports a, b, c read
    /// in this cycle (registered with the read addresses: `n_port_a..c`).
    port_a: Reg<Bits<7>>,
    port_b: Reg<Bits<7>>,
    port_c: Reg<Bits<7>>,
    /// `pf_fast`'s next value.
    pf_fast_now: Signal<Local, Bit>,
    // Next-state values of the registers the register-file read addresses
    // depend on (assigned wherever their `d` was), and the addresses they
    // give: the register files read synchronously, so the next cycle's
    // addresses are set in this one.
    n_state: Signal<Local, SmState>,
    n_cur: Signal<Local, Bits<6>>,
    n_pf_st: Signal<Local, Bits<3>>,
    n_pf_cur: Signal<Local, Bits<6>>,
    n_bw: Signal<Local, Bits<8>>,
    n_bar_id: Signal<Local, Bits<32>>,
    n_bk: Signal<Local, Bits<8>>,
    /// The warp whose carry flags and exited lanes the next cycle reads (read a cycle ahead).
    n_ra_warp: Signal<Local, Bits<6>>,
    n_fq_warp: Signal<Local, Bits<6>>,
    /// The warp whose predicates the next cycle reads.
    n_pr_warp: Signal<Local, Bits<6>>,
    /// The predicate register read this cycle (7: none; p7 reads as all ones).
    pr_idx: Signal<Local, Bits<8>>,
    /// A predicate register write: warp, register, lanes.
    pw_we: Signal<Local, Bit>,
    pw_warp: Signal<Local, Bits<8>>,
    pw_idx: Signal<Local, Bits<8>>,
    pw_data: Signal<Local, Bits<64>>,
    /// The barrier word the next cycle reads.
    n_b_sel: Signal<Local, Bits<ADDR_BITS>>,
    n_ir: Signal<Local, Bits<64>>,
    n_beat: Signal<Local, Bits<8>>,
    n_phase: Signal<Local, Bits<2>>,
    n_mt: Signal<Local, Bits<8>>,
    n_mk: Signal<Local, Bits<3>>,
    n_beat_sel: Signal<Local, Bits<8>>,
    n_rf_base: Signal<Local, Bits<ADDR_BITS>>,
    n_f_c: Signal<Local, Bits<7>>,
    n_port_a: Signal<Local, Bits<7>>,
    n_port_b: Signal<Local, Bits<7>>,
    n_port_c: Signal<Local, Bits<7>>,
    beat_exec: Signal<Local, Bits<64>>,
    beat_carry: Signal<Local, Bits<64>>,
    beat_paux: Signal<Local, Bits<64>>,
    va: Vec<Signal<Local, Bits<64>>>,
    /// A lane's store data as two 64-bit halves: words 1:0 and 3:2.
    lw_lo: Vec<Signal<Local, Bits<64>>>,
    lw_hi: Vec<Signal<Local, Bits<64>>>,
    vb: Vec<Signal<Local, Bits<64>>>,
    vc: Vec<Signal<Local, Bits<64>>>,
    s2r: Vec<Signal<Local, Bits<64>>>,
    imm64: Signal<Local, Bits<64>>,
    beat_base64: Signal<Local, Bits<64>>,
    m_lane: Signal<Local, Bits<8>>,
    sel_a: Signal<Local, Bits<64>>,
    sel_b: Signal<Local, Bits<64>>,
    sel_c: Signal<Local, Bits<64>>,
    words: Signal<Local, Bits<3>>,
    mwidth: Signal<Local, Bits<3>>,
    ballot: Signal<Local, Bits<64>>,
    live_cur: Signal<Local, Bits<64>>,
    present: Signal<Local, Bits<64>>,
    bool_v: Signal<Local, Bits<64>>,
    new_pred: Signal<Local, Bits<64>>,
    vote_r: Signal<Local, Bit>,
    /// The barrier `bk` (or `bar_id` in BarArrive): its counters and whether it is complete.
    b_arr: Signal<Local, Bits<32>>,
    b_exp: Signal<Local, Bits<32>>,
    b_cnt: Signal<Local, Bits<32>>,
    b_rt: Signal<Local, Bits<32>>,
    b_sel: Signal<Local, Bits<64>>,
    b_done: Signal<Local, Bit>,
    /// The warp `bw`: the barrier it waits at, its `barred` destination and
    /// reduction, its live threads (this beat), and the reduction's value.
    bw64: Signal<Local, Bits<64>>,
    bw_bar: Signal<Local, Bits<4>>,
    bw_rd: Signal<Local, Bits<7>>,
    bw_rop: Signal<Local, Bits<2>>,
    bw_live: Signal<Local, Bits<64>>,
    red_v: Signal<Local, Bits<64>>,
    /// The last warp index of the launch's CTAs.
    last_w: Signal<Local, Bits<8>>,
    rd_word: Signal<Local, Bits<64>>,
    ready: Signal<Local, Bits<64>>,
    nc_x: Signal<Local, Bits<32>>,
    /// The warp `cur`'s CTA slot and its first warp; the first warp of the
    /// slot being started; the slot whose epoch register words carry.
    cur_slot: Signal<Local, Bits<8>>,
    c_base: Signal<Local, Bits<8>>,
    i_base: Signal<Local, Bits<8>>,
    e_slot: Signal<Local, Bits<8>>,
    /// The SM's thread slot of `cur`'s lane 0 (`mem_thread`, `wb_tga_thread`).
    warp_t0: Signal<Local, Bits<16>>,
    /// `cur`'s slot's CTA coordinates and live threads; `e_slot`'s epoch.
    c_x: Signal<Local, Bits<32>>,
    c_y: Signal<Local, Bits<32>>,
    c_z: Signal<Local, Bits<32>>,
    c_live: Signal<Local, Bits<32>>,
    c_epoch: Signal<Local, Bits<16>>,
    /// The warp whose register words this cycle reads or writes (`cur`;
    /// the warp being started in `InitWarp` and `InitFill`; `bw` in
    /// `BarWb`), its epoch, and that epoch in a word's place.
    e_warp: Signal<Local, Bits<8>>,
    c_rf_epoch: Signal<Local, Bits<EPOCH_BITS>>,
    rf_tag: Signal<Local, Bits<WORD_BITS>>,
    /// The warps of slot 0 (a slot's warp mask, shifted to slot 0).
    slot_w: Signal<Local, Bits<64>>,
    /// The lowest CTA slot without live warps, if any.
    f_any: Signal<Local, Bit>,
    f_slot: Signal<Local, Bits<8>>,
    /// Shared-memory byte offset of `cur`'s slot's window, and the first row of `slot`'s.
    sh_base: Signal<Local, Bits<32>>,
    clr_from: Signal<Local, Bits<32>>,

    imem: SyncRam<64>,
    ibad: SyncRam<1>,
    stack: ReconvStack,
    /// The predicate registers p0-p6, a RAM each (a word per warp, a bit per thread).
    preds: Vec<SyncRam<64>>,
    carry: SyncRam<64>,
    exited: SyncRam<64>,
    rf: Vec<RegFile>,
    /// Per lane: each thread's packed `tid` (a word per warp and beat),
    /// written at CTA start and read by `s2r`.
    tids: Vec<SyncRam<32>>,
    alus: Vec<IntAlu>,
    /// With `SmConfig::int_div`: the iterative divider, one for the lanes.
    divs: Vec<Divider>,
    /// Per lane (with `fp32`): the FP unit for binary32 except division
    /// and square root ([`crate::fpu::lane_ops`]).
    fpus: Vec<Fpu>,
    /// With `fp64`: an FP unit, one for the lanes, for the rest
    /// ([`crate::fpu::shared_ops`]).
    fp_shared: Vec<Fpu>,
    /// With `fp32` or `fp64`: the iterative FP division and square root,
    /// one for the lanes.
    fds: Vec<FpDivSqrt>,
    /// With `fp32`: the special-function unit, one for the lanes.
    sfus: Vec<Sfu>,
    sched: WarpPick,
    rom: DecodeRom,
    /// The prefetched instruction's decode.
    pf_rom: DecodeRom,
    popc: Popc64,
    coal: Coalescer,
    /// `barred`: the live threads whose predicate holds.
    popc2: Popc64,
    gp: Gather,
    gc: Gather,
    /// An indirect call's group: the executing threads whose target is `cl_hval`.
    gcall: Gather,
    mt64: Signal<Local, Bits<64>>,
    /// Per lane of a memory beat: its address is in shared memory (an
    /// explicit `.shared` space, or a generic address in the shared window),
    /// and its offset there. The beat's shared lanes; the first lane whose
    /// access faults in the SM's own checks (shared: misaligned or out of
    /// bounds; others: misaligned), its lane, address, and whether it is
    /// misaligned, and the lanes below it; the lanes for the bus; the access
    /// size in bytes; the instruction's state space.
    lsh: Vec<Signal<Local, Bit>>,
    soff: Vec<Signal<Local, Bits<32>>>,
    /// The rows a CTA's shared memory spans (hdl_gen cannot slice an expression).
    sh_rows: Signal<Local, Bits<32>>,
    sh_mask: Signal<Local, Bits<32>>,
    sh_found: Signal<Local, Bit>,
    sh_first: Signal<Local, Bits<8>>,
    sh_addr: Signal<Local, Bits<32>>,
    sh_mis: Signal<Local, Bit>,
    sh_below: Signal<Local, Bits<32>>,
    port_mask: Signal<Local, Bits<32>>,
    asz: Signal<Local, Bits<32>>,
    mk4: Signal<Local, Bits<32>>,
    /// A memory beat's request or shared-memory cycle: the shared-lane logic runs.
    in_beat: Signal<Local, Bit>,
    m_space: Signal<Local, Bits<3>>,
    /// SharedMem's size code and word passes for this instruction.
    sm_size: Signal<Local, Bits<2>>,
    sm_passes: Signal<Local, Bits<3>>,
    /// Beat-wide memory: the word each lane writes back, the beat's executing
    /// lanes, and whether this is the warp's last beat.
    lrd_word: Vec<Signal<Local, Bits<64>>>,
    lane_mask: Signal<Local, Bits<32>>,
    beat_last: Signal<Local, Bit>,
    m_next: Signal<Local, Bits<64>>,
    m_found: Signal<Local, Bit>,
    /// Every thread's `a` operand goes into `sbuf` this cycle (shuffle, indirect call).
    gathering: Signal<Local, Bit>,
    /// States that use the warp-wide buffer, the indirect-call groups, the barriers.
    warp_phase: Signal<Local, Bit>,
    dispatching: Signal<Local, Bit>,
    /// Exec's last cycle of the instruction (it commits there), a cycle Exec
    /// waits for the prefetch, and a cycle that commits (Exec's last or Commit).
    commit_now: Signal<Local, Bit>,
    ex_stall: Signal<Local, Bit>,
    committing: Signal<Local, Bit>,
    /// A load's last write-back cycle; a store's last request.
    commit_ld: Signal<Local, Bit>,
    /// A memory instruction's beat is done (see the block after the state match).
    beat_end: Signal<Local, Bit>,
    commit_st: Signal<Local, Bit>,
    /// The instruction's compare and carry results with the committing beat's included.
    rp_fin: Signal<Local, Bits<64>>,
    rc_fin: Signal<Local, Bits<64>>,
    cc_fin: Signal<Local, Bit>,
    /// The prefetched instruction's decode class.
    pf_cls: Signal<Local, Bits<5>>,
    /// A fetch (Top's work) this cycle, for Sched and Top (`fe_main`) or for
    /// the prefetch.
    fe_go: Signal<Local, Bit>,
    /// The fetched word is on the instruction memory's read port (the cycle after `fe_go`).
    fq_go: Signal<Local, Bit>,
    /// The prefetched instruction's word: `pf_ir`, or the one being read (`pf_st` 5).
    pf_word: Signal<Local, Bits<64>>,
    /// The prefetch's Aux step runs this cycle: in `pf_st` 2, or with the
    /// fetch (`pf_st` 5) when the instruction has no predicate operand.
    pf_aux: Signal<Local, Bit>,
    fe_main: Signal<Local, Bit>,
    /// The prefetch may start; it holds the stack or the predicate port.
    pf_on: Signal<Local, Bit>,
    pf_wait: Signal<Local, Bit>,
    /// The warp fetched from (the one on the stack's input), whether Top's
    /// checks pass for it, and its executing threads.
    fe_warp: Signal<Local, Bits<6>>,
    fe_ok: Signal<Local, Bit>,
    fe_exec: Signal<Local, Bits<64>>,
    /// A branch that every active thread takes, or none: a SETPC.
    br_uni: Signal<Local, Bit>,
    /// A predicate operand: its packed number and value.
    pop_code: Signal<Local, Bits<4>>,
    pop_val: Signal<Local, Bits<64>>,
    calli_phase: Signal<Local, Bit>,
    bar_phase: Signal<Local, Bit>,
    cl_val: Signal<Local, Bits<64>>,
    cl_dup: Signal<Local, Bit>,
    cl_h: Signal<Local, Bits<64>>,

    lanes: Constant<Bits<8>>,
    ws: Constant<Bits<8>>,
    log_l: Constant<Bits<8>>,
    log_ws: Constant<Bits<8>>,
    last_beat: Constant<Bits<8>>,
    rf_wshift: Constant<Bits<8>>,
    /// Register-number bits a register-file address keeps, and their mask
    /// (a register's slot in its thread's block; `rz` masks to a register,
    /// so the control reads it as zero and drops writes to it).
    rbits: Constant<Bits<8>>,
    rmask: Constant<Bits<7>>,
    /// log2 of the beats; a warp's last register-file word (`InitFill`);
    /// the last epoch before a warp's wraps.
    beat_bits: Constant<Bits<8>>,
    rf_warp_last: Constant<Bits<16>>,
    epoch_last: Constant<Bits<EPOCH_BITS>>,
    /// Where a register-file word's epoch starts.
    data_bits: Constant<Bits<8>>,
    n_bars: Constant<Bits<32>>,
    w64: Constant<Bits<64>>,
    last_bar: Constant<Bits<8>>,
    full: Constant<Bits<64>>,
    lane_ones: Constant<Bits<64>>,
    budget: Constant<Bits<64>>,
    rpc_none: Constant<Bits<32>>,
    op_trap: Constant<Bits<7>>,
    op_s2r: Constant<Bits<7>>,
    index: Vec<Constant<Bits<8>>>,
    index64: Vec<Constant<Bits<64>>>,
    lo32: Constant<Bits<64>>,
    sx31: Constant<Bits<64>>,
    /// Planted bugs ([`crate::plant`]): bit `Plant::bit()` set when planted.
    plant: Constant<Bits<32>>,
    lm64: Constant<Bits<64>>,
    /// All lanes of a beat.
    lanes_mask: Constant<Bits<32>>,
    /// Bus word bytes, its log2, and the mask that aligns an address to it.
    wbytes: Constant<Bits<32>>,
    wlog: Constant<Bits<32>>,
    walign: Constant<Bits<32>>,
    /// Transfers the bus master keeps outstanding ([`BUS_DEPTH`]), and the
    /// mask that wraps its queue indices.
    wm_depth: Constant<Bits<8>>,
    wm_qmask: Constant<Bits<8>>,
    ws64: Constant<Bits<64>>,
    sx8: Constant<Bits<64>>,
    sx16: Constant<Bits<64>>,
    /// `1 << l` per lane; the shared window's bounds; log2 of a shared-memory
    /// row's bytes, and that many bytes less one.
    lane_bit: Vec<Constant<Bits<32>>>,
    sh_win: Constant<Bits<32>>,
    lo_win: Constant<Bits<32>>,
    row_log: Constant<Bits<8>>,
    row_round: Constant<Bits<32>>,
    /// The SM has FP units (`fp32` or `fp64`); without, an FP atomic add traps.
    has_fp: Constant<Bit>,
    _lanes: usize,
    /// Lanes with an FP unit: all of them with `fp32`, else none.
    _fpus: usize,
    /// Shared FP units: one with `fp64`, else none.
    _fp_shared: usize,
    /// FP division and square root units: one with `fp32` or `fp64`, else none.
    _fds: usize,
    /// Special-function units: one with `fp32`, else none.
    _sfus: usize,
    /// Dividers: one with `int_div`, else none.
    _divs: usize,
    _words: usize,
    _depth: usize,
    _ws: usize,
    _ctas: usize,
    _warps: usize,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl Logic for Sm {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, r_entry, r_grid_x, r_grid_y, r_grid_z, r_block_x, r_block_y, r_block_z, r_nthreads, r_nwarps, r_dyn,
            r_total, r_gridid, r_code_len, r_slots, r_slog, nx_x, nx_y, nx_z, nx_lin, more, epoch, slot, init_w, init_k, rem, init_t,
            tid_x, tid_y, tid_z, w_live, w_wait, last, cur, pc, ir, active, exec, paux, pauxb, carry_in, exited_old, pf_st, pf_cur, pf_ir,
            pf_pc, pf_active, pf_exec, pf_paux, pf_carry, pf_exited, pf_fast, fq_warp, fq_pc, fq_mask, fq_empty, pf_cnt, beat, phase,
            res_pred, su_on, su_lane, res_carry, cc_we, mt, mk, wb0, wb1, wb2, wb3, wb4, cb0, cb1, rb_lo, w_red, bar_id, bar_count, bk, bw,
            r_cnt, r_thr, t_val, icount, cycles, c_issued, c_threads, c_exec, c_mem, c_txn, c_ctl, c_front, c_barrier, c_depth, t_code,
            t_warp, t_pc, t_lane, done_f, sm_pass, sm_done, sm_lanes, c_conf, wm_go, wm_pend, wm_part, wm_fly, wm_cnt, wm_qh, wm_qt,
            wm_drain, wm_single, wm_rep, port_a, port_b, port_c
        );
        self.n_state.next = self.state.q.val();
        self.n_cur.next = self.cur.q.val();
        self.n_fq_warp.next = self.fq_warp.q.val();
        self.n_pf_st.next = self.pf_st.q.val();
        self.n_pf_cur.next = self.pf_cur.q.val();
        self.n_bw.next = self.bw.q.val();
        self.n_bar_id.next = self.bar_id.q.val();
        self.n_bk.next = self.bk.q.val();
        self.n_ir.next = self.ir.q.val();
        self.n_beat.next = self.beat.q.val();
        self.n_phase.next = self.phase.q.val();
        self.n_mt.next = self.mt.q.val();
        self.n_mk.next = self.mk.q.val();
        self.sm_done.d.next = false;
        // ---- CTA slots: slot s owns warps s << r_slog and up.
        self.cur_slot.next = bit_cast::<8, 6>(self.cur.q.val()) >> self.r_slog.q.val();
        self.warp_t0.next = bit_cast::<16, 6>(self.cur.q.val()) << self.log_ws.val();
        self.c_base.next = self.cur_slot.val() << self.r_slog.q.val();
        self.i_base.next = self.slot.q.val() << self.r_slog.q.val();
        self.e_slot.next = self.cur_slot.val();
        if self.state.q.val() == SmState::InitThread {
            self.e_slot.next = self.slot.q.val();
        }
        self.slot_w.next = !bits::<64>(0) >> (self.w64.val() - (bits::<64>(1) << self.r_slog.q.val()));
        // Set in one state only: a default everywhere else, so that it is wiring and not a latch.
        for l in 0..self._lanes {
            self.lrd_word[l].next = 0.into();
        }
        self.c_x.next = 0.into();
        self.c_y.next = 0.into();
        self.c_z.next = 0.into();
        self.c_live.next = 0.into();
        self.c_epoch.next = 0.into();
        self.f_any.next = false;
        self.f_slot.next = 0.into();
        for s in 0..self._ctas {
            if self.index[s].val() == self.cur_slot.val() {
                self.c_x.next = self.s_x.q[s].val();
                self.c_y.next = self.s_y.q[s].val();
                self.c_z.next = self.s_z.q[s].val();
                self.c_live.next = self.s_live.q[s].val();
            }
            if self.index[s].val() == self.e_slot.val() {
                self.c_epoch.next = self.s_epoch.q[s].val();
            }
            if !self.f_any.val()
                & (self.index[s].val() < self.r_slots.q.val())
                & ((self.w_live.q.val() & (self.slot_w.val() << (self.index[s].val() << self.r_slog.q.val()))) == 0)
            {
                self.f_any.next = true;
                self.f_slot.next = self.index[s].val();
            }
        }
        self.smem.clock.next = self.clock.val();
        for l in 0..self._lanes {
            self.rf[l].clock.next = self.clock.val();
            self.tids[l].clock.next = self.clock.val();
        }
        self.imem.clock.next = self.clock.val();
        // Every flip-flop bank holds its value unless assigned below.
        #[hdl_hold]
        self.wm_qrun.hold();
        #[hdl_hold]
        self.wm_qpart.hold();
        #[hdl_hold]
        self.s_x.hold();
        #[hdl_hold]
        self.s_y.hold();
        #[hdl_hold]
        self.s_z.hold();
        #[hdl_hold]
        self.s_epoch.hold();
        #[hdl_hold]
        self.s_live.hold();
        #[hdl_hold]
        self.w_epoch.hold();
        #[hdl_hold]
        self.alo.hold();
        #[hdl_hold]
        self.ahi.hold();
        #[hdl_hold]
        self.blo.hold();
        #[hdl_hold]
        self.bhi.hold();
        #[hdl_hold]
        self.clo.hold();
        #[hdl_hold]
        self.chi.hold();
        #[hdl_hold]
        self.rhi.hold();
        #[hdl_hold]
        self.su_res.hold();
        #[hdl_hold]
        self.su_pres.hold();
        #[hdl_hold]
        self.sbuf.hold();
        #[hdl_hold]
        self.ladr.hold();
        #[hdl_hold]
        self.lw0.hold();
        #[hdl_hold]
        self.lw1.hold();
        #[hdl_hold]
        self.lw2.hold();
        #[hdl_hold]
        self.lw3.hold();
        #[hdl_hold]
        self.lrd_lo.hold();
        #[hdl_hold]
        self.lrd_hi.hold();
        self.ahi.clock.next = self.clock.val();
        self.alo.clock.next = self.clock.val();
        self.bhi.clock.next = self.clock.val();
        self.blo.clock.next = self.clock.val();
        self.chi.clock.next = self.clock.val();
        self.clo.clock.next = self.clock.val();
        self.ladr.clock.next = self.clock.val();
        self.lrd_hi.clock.next = self.clock.val();
        self.lrd_lo.clock.next = self.clock.val();
        self.lw0.clock.next = self.clock.val();
        self.lw1.clock.next = self.clock.val();
        self.lw2.clock.next = self.clock.val();
        self.lw3.clock.next = self.clock.val();
        self.rhi.clock.next = self.clock.val();
        self.su_res.clock.next = self.clock.val();
        self.su_pres.clock.next = self.clock.val();
        self.s_epoch.clock.next = self.clock.val();
        self.w_epoch.clock.next = self.clock.val();
        self.s_live.clock.next = self.clock.val();
        self.s_x.clock.next = self.clock.val();
        self.s_y.clock.next = self.clock.val();
        self.s_z.clock.next = self.clock.val();
        self.sbuf.clock.next = self.clock.val();
        self.wm_qpart.clock.next = self.clock.val();
        self.wm_qrun.clock.next = self.clock.val();
        self.ibad.clock.next = self.clock.val();
        self.stack.clock.next = self.clock.val();
        for b in 0..7 {
            self.preds[b].clock.next = self.clock.val();
        }
        self.carry.clock.next = self.clock.val();
        self.exited.clock.next = self.clock.val();
        self.cycles.d.next = self.cycles.q.val() + 1;

        // ---- Decode of the latched instruction.
        self.f_op.next = self.ir.q.val().get_bits::<7>(0);
        self.f_i.next = self.ir.q.val().get_bit(7);
        self.f_d.next = self.ir.q.val().get_bits::<7>(12);
        self.f_a.next = self.ir.q.val().get_bits::<7>(19);
        self.f_mod.next = self.ir.q.val().get_bits::<6>(26);
        self.f_imm.next = self.ir.q.val().get_bits::<32>(32);
        self.f_b.next = self.ir.q.val().get_bits::<7>(32);
        self.f_c.next = self.ir.q.val().get_bits::<7>(39);
        if self.f_i.val() {
            self.f_c.next = operand::RZ.into();
        }
        self.f_rpc.next = bit_cast::<32, 20>(self.ir.q.val().get_bits::<20>(12));
        self.rom.op.next = self.f_op.val();
        // The prefetched instruction's class.
        self.pf_word.next = self.pf_ir.q.val();
        if self.pf_st.q.val() == pf::WORD {
            self.pf_word.next = self.imem.rdata.val();
        }
        self.pf_rom.op.next = self.pf_word.val().get_bits::<7>(0);
        self.pf_cls.next = self.pf_rom.word.val().get_bits::<5>(0);
        self.cls.next = self.rom.word.val().get_bits::<5>(0);
        self.ity64.next = self.f_mod.val().get_bit(5);
        self.wide_a.next = self.rom.word.val().get_bit(5) | (self.rom.word.val().get_bit(15) & self.ity64.val());
        self.wide_b.next = self.rom.word.val().get_bit(6);
        self.dwords.next = self.rom.word.val().get_bits::<2>(7);
        if self.rom.word.val().get_bit(13) & self.ity64.val() {
            self.dwords.next = 2.into();
        }
        self.setp.next = self.rom.word.val().get_bit(9);
        self.is_fp.next = self.rom.word.val().get_bit(12);
        self.is_sfu.next = self.rom.word.val().get_bit(16);
        self.is_shared.next = self.rom.word.val().get_bit(17);
        self.is_iter.next = self.rom.word.val().get_bit(18);
        self.is_div.next = self.is_iter.val() & !self.is_fp.val() & !self.is_sfu.val();
        self.is_shfl.next = self.rom.word.val().get_bit(14);
        // Predicate destination: d[2:0], or mod[4:2] for shfl's in-range predicate.
        self.pd.next = self.f_d.val().get_bits::<3>(0);
        if self.is_shfl.val() {
            self.pd.next = self.f_mod.val().get_bits::<3>(2);
        }
        self.wide.next = self.wide_a.val() | self.wide_b.val() | (self.dwords.val() == 2);
        // Packed predicate operand (3-bit number, negation bit 3) of the
        // instruction in Aux, or of the prefetched one in its Aux step:
        // d[6:3], mod[3:0] or a[3:0] by the ROM's operand selector.
        self.aux_ir.next = self.ir.q.val();
        self.auxsel.next = self.rom.word.val().get_bits::<2>(10);
        if (self.pf_st.q.val() == pf::AUX) | (self.pf_st.q.val() == pf::WORD) {
            self.aux_ir.next = self.pf_word.val();
            self.auxsel.next = self.pf_rom.word.val().get_bits::<2>(10);
        }
        self.aux_code.next = 7.into();
        if self.auxsel.val() == aux::D {
            self.aux_code.next = self.aux_ir.val().get_bits::<4>(15);
        }
        if self.auxsel.val() == aux::MOD {
            self.aux_code.next = self.aux_ir.val().get_bits::<4>(26);
        }
        if self.auxsel.val() == aux::A {
            self.aux_code.next = self.aux_ir.val().get_bits::<4>(19);
        }
        // Memory width: words per thread.
        self.mwidth.next = self.f_mod.val().get_bits::<3>(0);
        if self.cls.val() == class::ATOM {
            self.mwidth.next = width::B32.into();
            if self.ir.q.val().get_bit(46) & !self.f_i.val() {
                self.mwidth.next = width::B64.into();
            }
        }
        if self.cls.val() == class::SYS {
            self.mwidth.next = width::B32.into();
        }
        // Shared memory: access bytes, SharedMem's size code and passes.
        self.asz.next = 4.into();
        self.sm_size.next = 2.into();
        if self.mwidth.val() < width::U16 {
            self.asz.next = 1.into();
            self.sm_size.next = 0.into();
        } else if self.mwidth.val() < width::B32 {
            self.asz.next = 2.into();
            self.sm_size.next = 1.into();
        } else if self.mwidth.val() == width::B64 {
            self.asz.next = 8.into();
            if self.cls.val() == class::ATOM {
                self.sm_size.next = 3.into();
            }
        } else if self.mwidth.val() == width::B128 {
            self.asz.next = 16.into();
        }
        self.m_space.next = self.f_mod.val().get_bits::<3>(3);
        if self.cls.val() == class::ATOM {
            self.m_space.next = bit_cast::<3, 2>(self.f_mod.val().get_bits::<2>(4));
        }
        self.words.next = 1.into();
        if self.mwidth.val() == width::B64 {
            self.words.next = 2.into();
        }
        if self.mwidth.val() == width::B128 {
            self.words.next = 4.into();
        }
        // A system call reads seven argument words (a..a+6) and writes its
        // result to d (printf), or d and d+1 (malloc).
        if self.cls.val() == class::SYS {
            self.words.next = 7.into();
            if self.state.q.val() == SmState::MemWb {
                self.words.next = 1.into();
                if self.f_mod.val().get_bits::<2>(0) == 1 {
                    self.words.next = 2.into();
                }
            }
        }
        self.ballot.next = self.paux.q.val() & self.exec.q.val() & self.lo32.val();
        self.e_warp.next = bit_cast::<8, 6>(self.cur.q.val());
        if (self.state.q.val() == SmState::InitWarp) | (self.state.q.val() == SmState::InitFill) {
            self.e_warp.next = self.init_w.q.val();
        }
        if self.state.q.val() == SmState::BarWb {
            self.e_warp.next = self.bw.q.val();
        }
        self.c_rf_epoch.next = 0.into();
        for w in 0..self._warps {
            if self.index[w].val() == self.e_warp.val() {
                self.c_rf_epoch.next = self.w_epoch.q[w].val();
            }
        }
        self.rf_tag.next = bit_cast::<WORD_BITS, EPOCH_BITS>(self.c_rf_epoch.val()) << self.data_bits.val();
        self.imm64.next = bit_cast::<64, 32>(self.f_imm.val());

        // ---- Register-file addressing: warp | beat | register.
        self.cur_beat.next = self.beat.q.val();
        if (self.state.q.val() == SmState::MemAddr)
            | (self.state.q.val() == SmState::MemData)
            | (self.state.q.val() == SmState::MemReq)
            | (self.state.q.val() == SmState::MemWb)
        {
            self.cur_beat.next = self.mt.q.val() >> self.log_l.val();
        }
        self.m_lane.next = self.mt.q.val() & (self.lanes.val() - 1);
        self.beat_base.next = self.cur_beat.val() << self.log_l.val();
        self.rf_base.next = (bit_cast::<ADDR_BITS, 6>(self.cur.q.val()) << self.rf_wshift.val())
            | (bit_cast::<ADDR_BITS, 8>(self.cur_beat.val()) << self.rbits.val());
        self.beat_exec.next = self.exec.q.val() >> self.beat_base.val();
        self.lane_mask.next = self.beat_exec.val().get_bits::<32>(0) & self.lanes_mask.val();
        self.beat_last.next = self.beat.q.val() == self.last_beat.val();
        // Exec commits in its last cycle, unless the prefetch still holds the
        // stack or the predicate read port (then it waits a cycle).
        // A beat of a shared unit's instruction waits for it: from the
        // cycle its operands are there (for a 64-bit one, phase 2) the unit
        // takes lane 0's, then each lane's as the one before is done, and
        // the beat goes on when its last lane is done. The combinational
        // unit takes a cycle a lane, the iterative ones 8 to 33 (the SFU 9 to
        // 26).
        self.su_done.next = true;
        for k in 0..self._divs {
            if self.is_div.val() {
                self.su_done.next = self.divs[k].done.val();
            }
        }
        for k in 0..self._fds {
            if self.is_iter.val() & self.is_fp.val() {
                self.su_done.next = self.fds[k].done.val();
            }
        }
        for k in 0..self._sfus {
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
            & !(self.su_on.q.val() & self.su_done.val() & (self.su_lane.q.val() == self.lanes.val() - 1));
        self.commit_now.next = (self.state.q.val() == SmState::Exec)
            & self.beat_last.val()
            & (!self.wide.val() | (self.phase.q.val() == 3))
            & !self.su_wait.val();
        // A load commits in its last write-back cycle; a store (or an atomic
        // into rz) in its last beat's request, when the bus serves it
        // all (see `committing`).
        self.commit_ld.next =
            (self.state.q.val() == SmState::BeatWb) & self.beat_last.val() & (bit_cast::<3, 3>(self.mk.q.val() + 1) == self.words.val());
        self.beat_end.next = false;
        self.br_uni.next = (self.cls.val() == class::BRA) & ((self.exec.q.val() == 0) | (self.exec.q.val() == self.active.q.val()));
        for l in 0..self._lanes {
            self.mem_laddr[l].next = self.ladr.q[l].val().get_bits::<32>(0);
            self.lw_lo[l].next = (self.lw1.q[l].val() << 32) | self.lw0.q[l].val();
            self.lw_hi[l].next = (self.lw3.q[l].val() << 32) | self.lw2.q[l].val();
            self.mem_lwdata[l].next = self.lw_lo[l].val();
            self.mem_lwdata_hi[l].next = self.lw_hi[l].val();
            self.coal.addr[l].next = self.ladr.q[l].val().get_bits::<32>(0);
            self.wbl.addr[l].next = self.ladr.q[l].val().get_bits::<32>(0);
            self.wbl.wlo[l].next = self.lw_lo[l].val();
            self.wbl.whi[l].next = self.lw_hi[l].val();
            self.mem_ldata[l].next = self.lrd_lo.q[l].val() | self.wbl.rlo[l].val();
            self.mem_ldata_hi[l].next = self.lrd_hi.q[l].val() | self.wbl.rhi[l].val();
        }
        // ---- Shared memory: which lanes of the beat it serves, their checks
        // (as the golden model's: alignment, then bounds), SharedMem's inputs.
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
        self.smem.start.next = false;
        self.smem.clear.next = false;
        self.sh_rows.next = (self.r_total.q.val() + self.row_round.val()) >> self.row_log.val();
        self.smem.clear_rows.next = self.sh_rows.val().get_bits::<16>(0);
        self.clr_from.next = bit_cast::<16, 8>(self.slot.q.val()) * self.sh_rows.val().get_bits::<16>(0);
        self.smem.clear_from.next = self.clr_from.val().get_bits::<16>(0);
        self.sh_base.next = (bit_cast::<16, 8>(self.cur_slot.val()) * self.sh_rows.val().get_bits::<16>(0)) << self.row_log.val();
        self.mk4.next = bit_cast::<32, 3>(self.mk.q.val()) << 2;
        self.sh_mask.next = 0.into();
        self.sh_found.next = false;
        self.sh_first.next = 0.into();
        self.sh_addr.next = 0.into();
        self.sh_mis.next = false;
        self.sh_below.next = self.lanes_mask.val();
        self.in_beat.next = (self.state.q.val() == SmState::BeatReq) | (self.state.q.val() == SmState::SmemAcc);
        for l in 0..self._lanes {
            self.lsh[l].next = false;
            self.soff[l].next = 0.into();
            self.smem.addr[l].next = 0.into();
            self.smem.wdata[l].next = 0.into();
            self.smem.b[l].next = 0.into();
            self.smem.c[l].next = 0.into();
            if self.in_beat.val() {
                self.lsh[l].next = self.m_space.val() == space::SHARED;
                self.soff[l].next = self.ladr.q[l].val().get_bits::<32>(0);
                if (self.m_space.val() == space::GEN) & (self.soff[l].val() >= self.sh_win.val()) & (self.soff[l].val() < self.lo_win.val())
                {
                    self.lsh[l].next = true;
                    self.soff[l].next = self.soff[l].val() - self.sh_win.val();
                }
                // In bounds: offset < total and total - offset >= size (no overflow).
                if self.lsh[l].val() & self.lane_mask.val().get_bit(l) {
                    self.sh_mask.next = self.sh_mask.val() | self.lane_bit[l].val();
                    if !self.sh_found.val()
                        & (((self.soff[l].val() & (self.asz.val() - 1)) != 0)
                            | (self.soff[l].val() >= self.r_total.q.val())
                            | ((self.r_total.q.val() - self.soff[l].val()) < self.asz.val()))
                    {
                        self.sh_found.next = true;
                        self.sh_first.next = self.index[l].val();
                        self.sh_addr.next = self.ladr.q[l].val().get_bits::<32>(0);
                        self.sh_mis.next = (self.soff[l].val() & (self.asz.val() - 1)) != 0;
                        self.sh_below.next = self.lane_bit[l].val() - 1;
                    }
                }
                // Other lanes (not atomics: the memory checks those) are checked
                // for alignment here, as they must not straddle bus words.
                if !self.lsh[l].val()
                    & self.lane_mask.val().get_bit(l)
                    & !self.sh_found.val()
                    & (self.cls.val() != class::ATOM)
                    & ((self.soff[l].val() & (self.asz.val() - 1)) != 0)
                {
                    self.sh_found.next = true;
                    self.sh_first.next = self.index[l].val();
                    self.sh_addr.next = self.ladr.q[l].val().get_bits::<32>(0);
                    self.sh_mis.next = true;
                    self.sh_below.next = self.lane_bit[l].val() - 1;
                }
                self.smem.addr[l].next = self.soff[l].val() + self.mk4.val() + self.sh_base.val();
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
        self.smem.mask.next = self.sh_mask.val();
        // The bus takes the other lanes, below the first lane the SM faults.
        self.port_mask.next = self.lane_mask.val() & !self.sh_mask.val() & self.sh_below.val();
        self.coal.active.next = self.port_mask.val();
        // ---- The bus master (see `wb_cyc`). It acts in BeatReq: up to BUS_DEPTH
        // transfers outstanding, one issued per cycle, answered in order.
        self.wm_hrun.next = 0.into();
        self.wm_hpart.next = 0.into();
        for i in 0..self._depth {
            if self.wm_qh.q.val() == self.index[i].val() {
                self.wm_hrun.next = self.wm_qrun.q[i].val();
                self.wm_hpart.next = self.wm_qpart.q[i].val();
            }
        }
        self.wm_ack.next = self.wb_ack.val() & (self.wm_cnt.q.val() != 0) & !self.wm_drain.q.val();
        self.wm_err.next = self.wb_err.val() & (self.wm_cnt.q.val() != 0) & !self.wm_drain.q.val();
        // An access wider than a bus word takes one transfer per word; an
        // atomic is one transfer (its operands and old value travel in tags).
        self.wm_nparts.next = 1.into();
        if (self.asz.val() > self.wbytes.val()) & (self.cls.val() != class::ATOM) {
            self.wm_nparts.next = self.asz.val() >> self.wlog.val();
        }
        self.wm_pdone.next = self.wm_ack.val() & ((self.wm_hpart.val() + 1) == self.wm_nparts.val());
        self.pend_now.next = self.port_mask.val();
        self.part_now.next = 0.into();
        self.fly_now.next = 0.into();
        self.cnt_now.next = 0.into();
        if self.wm_go.q.val() {
            self.pend_now.next = self.wm_pend.q.val();
            self.part_now.next = self.wm_part.q.val();
            self.fly_now.next = self.wm_fly.q.val();
            self.cnt_now.next = self.wm_cnt.q.val();
        }
        if self.wm_pdone.val() {
            self.fly_now.next = self.wm_fly.q.val() & !self.wm_hrun.val();
        }
        if (self.wb_ack.val() | self.wb_err.val()) & (self.wm_cnt.q.val() != 0) {
            self.cnt_now.next = self.wm_cnt.q.val() - 1;
        }
        self.single_now.next = self.wm_single.q.val() & (((self.pend_now.val() | self.fly_now.val()) & self.wm_rep.q.val()) != 0);
        // Lanes that need a transfer of their own (the coalescer's `solo`):
        // per-thread local addresses (explicit, or in the generic window),
        // and every lane of an atomic or of an access wider than a bus word.
        self.wm_solo.next = 0.into();
        if self.in_beat.val() {
            for l in 0..self._lanes {
                if (self.m_space.val() == space::GEN) & (self.soff[l].val() >= self.lo_win.val()) {
                    self.wm_solo.next = self.wm_solo.val() | self.lane_bit[l].val();
                }
            }
            if (self.cls.val() == class::ATOM) | (self.m_space.val() == space::LOCAL) | (self.asz.val() > self.wbytes.val()) {
                self.wm_solo.next = self.lanes_mask.val();
            }
        }
        self.coal.solo.next = self.wm_solo.val();
        #[hdl_skip]
        settle!(self.coal);
        self.wm_leaders.next = self.coal.leaders.val();
        if self.single_now.val() {
            self.wm_leaders.next = self.lanes_mask.val();
        }
        // The transfer: from the first pending lane up to the next transfer's first.
        self.wm_lead.next = self.pend_now.val() & (!self.pend_now.val() + 1);
        self.wm_nxt.next = self.pend_now.val() & self.wm_leaders.val() & !self.wm_lead.val();
        self.wm_nxt1.next = self.wm_nxt.val() & (!self.wm_nxt.val() + 1);
        self.wm_runw.next = self.pend_now.val() & (self.wm_nxt1.val() - 1);
        self.wm_issue.next = self.in_beat.val()
            & (self.state.q.val() == SmState::BeatReq)
            & !self.wm_drain.q.val()
            & !self.wm_err.val()
            & (self.cnt_now.val() < self.wm_depth.val())
            & (self.pend_now.val() != 0);
        self.wm_fin.next = (self.state.q.val() == SmState::BeatReq)
            & !self.wm_drain.q.val()
            & !self.wm_err.val()
            & (self.pend_now.val() == 0)
            & (self.fly_now.val() == 0)
            & (self.cnt_now.val() == 0);
        self.wm_li.next = 0.into();
        self.wm_adr.next = 0.into();
        self.wm_fli.next = 0.into();
        self.wm_tb.next = 0.into();
        self.wm_tc.next = 0.into();
        if self.in_beat.val() {
            for l in 0..self._lanes {
                if self.wm_lead.val().get_bit(l) {
                    self.wm_li.next = self.index[l].val();
                    self.wm_adr.next = self.ladr.q[l].val().get_bits::<32>(0);
                    self.wm_tb.next = self.lw_lo[l].val();
                    self.wm_tc.next = self.lw_hi[l].val();
                }
                if self.wm_hrun.val().get_bit(l) {
                    self.wm_fli.next = self.index[l].val();
                }
            }
        }
        self.wbl.wrun.next = 0.into();
        self.wbl.rrun.next = 0.into();
        if self.wm_issue.val() {
            self.wbl.wrun.next = self.wm_runw.val();
        }
        if self.wm_ack.val() {
            self.wbl.rrun.next = self.wm_hrun.val();
        }
        self.wbl.wpart.next = self.part_now.val().get_bits::<3>(0);
        self.wbl.rpart.next = self.wm_hpart.val().get_bits::<3>(0);
        if self.plant.val().get_bit(5) {
            self.wbl.rpart.next = self.part_now.val().get_bits::<3>(0);
        }
        self.wbl.size.next = self.asz.val().get_bits::<5>(0);
        self.wb_cyc.next = self.wm_issue.val() | (self.wm_cnt.q.val() != 0);
        self.wb_stb.next = self.wm_issue.val();
        self.wb_we.next = self.cls.val() == class::ST;
        self.wb_adr.next = (self.wm_adr.val() & self.walign.val()) + (self.part_now.val() << self.wlog.val());
        if self.cls.val() == class::ATOM {
            self.wb_adr.next = self.wm_adr.val();
        }
        self.wb_sel.next = self.wbl.sel.val();
        self.wb_tga_space.next = self.m_space.val();
        self.wb_tga_size.next = self.asz.val().get_bits::<5>(0);
        self.wb_tga_first.next = self.part_now.val() == 0;
        self.wb_tga_lane.next = self.mt.q.val() + self.wm_li.val();
        self.wb_tga_thread.next = self.warp_t0.val() | bit_cast::<16, 8>(self.mt.q.val() + self.wm_li.val());
        self.wb_tgc_atom.next = self.cls.val() == class::ATOM;
        self.wb_tgc_op.next = self.f_mod.val().get_bits::<4>(0);
        self.wb_tgd_b.next = self.wm_tb.val();
        self.wb_tgd_c.next = self.wm_tc.val();
        for i in 0..self._words {
            self.wb_dat_w[i].next = self.wbl.dat_o[i].val();
            self.wbl.dat_i[i].next = self.wb_dat_r[i].val();
        }
        self.commit_st.next = (self.state.q.val() == SmState::BeatReq)
            & self.beat_last.val()
            & ((self.cls.val() == class::ST) | (self.f_d.val() == operand::RZ))
            & self.wm_fin.val();
        // The prefetch starts during an ALU instruction's beats or a memory
        // instruction's (not a cycle that may commit); it holds the stack or
        // the predicate read port in pf_st 1 and 2, when a commit waits for it.
        self.pf_on.next = ((self.state.q.val() == SmState::Exec) & !self.commit_now.val())
            | (self.state.q.val() == SmState::BeatAddr)
            | (self.state.q.val() == SmState::BeatData)
            | ((self.state.q.val() == SmState::BeatReq) & !self.commit_st.val())
            | (self.state.q.val() == SmState::SmemAcc)
            | ((self.state.q.val() == SmState::BeatWb) & !self.commit_ld.val());
        self.pf_wait.next = (self.pf_st.q.val() == pf::TOP) | (self.pf_st.q.val() == pf::AUX) | (self.pf_st.q.val() == pf::WORD);
        self.ex_stall.next = self.commit_now.val() & self.pf_wait.val();
        // The warp whose stack top is fetched from: Top's, Sched's pick (fe_main),
        // or the prefetch's.
        self.fe_warp.next = self.cur.q.val();
        self.fe_main.next = true;
        self.fe_go.next = (self.state.q.val() == SmState::Top) & !self.stack.busy.val();
        if self.state.q.val() == SmState::Sched {
            self.fe_warp.next = self.sched.pick.val();
            self.fe_go.next =
                (self.w_live.q.val() != 0) & self.sched.any.val() & self.stack.settled.val() & !(self.more.q.val() & self.f_any.val());
        }
        if self.pf_on.val() & (self.pf_st.q.val() == pf::IDLE) {
            self.fe_warp.next = self.sched.pick.val();
            self.fe_main.next = false;
            self.fe_go.next = self.sched.any.val() & self.stack.settled.val();
        }
        if self.pf_st.q.val() == pf::TOP {
            self.fe_warp.next = self.pf_cur.q.val();
            self.fe_main.next = false;
            self.fe_go.next = !self.stack.busy.val();
        }
        self.fq_go.next = (self.state.q.val() == SmState::Fetch) | (self.pf_st.q.val() == pf::WORD);
        self.beat_carry.next = self.carry_in.q.val() >> self.beat_base.val();
        self.beat_paux.next = self.paux.q.val() >> self.beat_base.val();
        self.gp.base.next = self.beat_base.val();
        self.beat_base64.next = bit_cast::<64, 8>(self.beat_base.val());
        self.gc.base.next = self.beat_base.val();

        // ---- Lanes: register reads, ALU operands, default writes (none).
        self.sel_a.next = 0.into();
        self.sel_b.next = 0.into();
        self.sel_c.next = 0.into();
        self.gathering.next = (self.state.q.val() == SmState::ShflGather) | (self.state.q.val() == SmState::CalliGather);
        self.warp_phase.next = self.gathering.val() | (self.state.q.val() == SmState::ShflSelect);
        self.calli_phase.next = (self.state.q.val() == SmState::CalliLead) | (self.state.q.val() == SmState::CalliPush);
        self.bar_phase.next = (self.state.q.val() == SmState::BarArrive)
            | (self.state.q.val() == SmState::BarCheck)
            | (self.state.q.val() == SmState::BarRelease)
            | (self.state.q.val() == SmState::BarWb);
        for l in 0..self._lanes {
            self.va[l].next = 0.into();
            self.vb[l].next = 0.into();
            self.vc[l].next = 0.into();
            if (self.rf[l].da.val().get_bits::<EPOCH_BITS>(DATA_BITS) == self.c_rf_epoch.val()) & (self.port_a.q.val() != operand::RZ) {
                self.va[l].next = bit_cast::<64, WORD_BITS>(self.rf[l].da.val()) & self.lo32.val();
            }
            if (self.cls.val() == class::S2R) & (self.port_a.q.val() == operand::RZ) {
                self.va[l].next = bit_cast::<64, 32>(self.tids[l].rdata.val());
            }
            if (self.rf[l].db.val().get_bits::<EPOCH_BITS>(DATA_BITS) == self.c_rf_epoch.val()) & (self.port_b.q.val() != operand::RZ) {
                self.vb[l].next = bit_cast::<64, WORD_BITS>(self.rf[l].db.val()) & self.lo32.val();
            }
            if (self.rf[l].dc.val().get_bits::<EPOCH_BITS>(DATA_BITS) == self.c_rf_epoch.val()) & (self.port_c.q.val() != operand::RZ) {
                self.vc[l].next = bit_cast::<64, WORD_BITS>(self.rf[l].dc.val()) & self.lo32.val();
            }
            if self.m_lane.val() == self.index[l].val() {
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
        for l in 0..self._fpus {
            self.fpus[l].op.next = 0.into();
            self.fpus[l].modv.next = 0.into();
            self.fpus[l].ext0.next = false;
            self.fpus[l].a.next = 0.into();
            self.fpus[l].b.next = 0.into();
            self.fpus[l].c.next = 0.into();
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
        for l in 0..self._lanes {
            if self.is_shared.val() & (self.su_sel.val() == self.index[l].val()) {
                self.su_a.next = self.lane_a[l].val();
                self.su_b.next = self.lane_b[l].val();
                self.su_c.next = self.lane_c[l].val();
            }
        }
        self.su_d.next = 0.into();
        self.su_p.next = false;
        for k in 0..self._divs {
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
        for k in 0..self._fds {
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
        for k in 0..self._fp_shared {
            self.fp_shared[k].op.next = 0.into();
            self.fp_shared[k].modv.next = 0.into();
            self.fp_shared[k].ext0.next = false;
            self.fp_shared[k].a.next = 0.into();
            self.fp_shared[k].b.next = 0.into();
            self.fp_shared[k].c.next = 0.into();
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
        }
        for k in 0..self._sfus {
            self.sfus[k].clock.next = self.clock.val();
            self.sfus[k].start.next = self.su_start.val() & self.is_sfu.val();
            self.sfus[k].modv.next = self.f_mod.val();
            self.sfus[k].a.next = self.su_a.val().get_bits::<32>(0);
            if self.is_sfu.val() {
                self.su_d.next = self.sfus[k].d.val();
            }
        }
        // A finished lane's result is kept; the last one's is on `su_d`.
        for l in 0..self._lanes {
            if self.su_on.q.val() & self.su_done.val() & (self.su_lane.q.val() == self.index[l].val()) {
                self.su_res.d[l].next = self.su_d.val();
                self.su_pres.d[l].next = self.su_p.val();
            }
            if self.is_shared.val() {
                self.lane_d[l].next = self.su_res.q[l].val();
                self.gp.bits[l].next = self.su_pres.q[l].val();
                if self.su_lane.q.val() == self.index[l].val() {
                    self.lane_d[l].next = self.su_d.val();
                    self.gp.bits[l].next = self.su_p.val();
                }
            }
        }
        for l in 0..self._lanes {
            // Shuffle: source lane j by the PTX rules (c = clamp | segment mask << 8).
            self.sh_lane[l].next = self.beat_base64.val() | self.index64[l].val();
            // (Only a shuffle uses the rest: skipping it elsewhere saves simulation time.)
            self.sh_b[l].next = 0.into();
            self.sh_seg[l].next = 0.into();
            self.sh_max[l].next = 0.into();
            self.sh_j[l].next = 0.into();
            self.sh_in[l].next = false;
            self.sh_ok[l].next = false;
            self.sh_src[l].next = self.sh_lane[l].val();
            if self.is_shfl.val() {
                self.sh_b[l].next = self.vb[l].val();
                if self.f_i.val() {
                    self.sh_b[l].next = self.imm64.val();
                }
                self.sh_seg[l].next = (self.vc[l].val() >> 8) & self.lm64.val();
                self.sh_max[l].next =
                    (self.sh_lane[l].val() & self.sh_seg[l].val()) | (self.vc[l].val() & self.lm64.val() & !self.sh_seg[l].val());
                self.sh_j[l].next =
                    (self.sh_lane[l].val() & self.sh_seg[l].val()) | (self.sh_b[l].val() & self.lm64.val() & !self.sh_seg[l].val());
                self.sh_in[l].next = self.sh_j[l].val() <= self.sh_max[l].val();
                if self.f_mod.val().get_bits::<2>(0) == 1 {
                    self.sh_j[l].next = (self.sh_lane[l].val() - self.sh_b[l].val()) & self.lo32.val();
                    self.sh_in[l].next = ((((self.sh_lane[l].val() - self.sh_b[l].val()) & self.lo32.val()) & self.sx31.val()) == 0)
                        & (((self.sh_lane[l].val() - self.sh_b[l].val()) & self.lo32.val()) >= self.sh_max[l].val());
                    if self.plant.val().get_bit(7) {
                        self.sh_in[l].next = ((((self.sh_lane[l].val() - self.sh_b[l].val()) & self.lo32.val()) & self.sx31.val()) == 0)
                            & (((self.sh_lane[l].val() - self.sh_b[l].val()) & self.lo32.val()) > self.sh_max[l].val());
                    }
                }
                // (down and bfly test their own source lane against maxLane.)
                if self.f_mod.val().get_bits::<2>(0) == 2 {
                    self.sh_j[l].next = (self.sh_lane[l].val() + self.sh_b[l].val()) & self.lo32.val();
                    self.sh_in[l].next = ((self.sh_lane[l].val() + self.sh_b[l].val()) & self.lo32.val()) <= self.sh_max[l].val();
                }
                if self.f_mod.val().get_bits::<2>(0) == 3 {
                    self.sh_j[l].next = self.sh_lane[l].val() ^ (self.sh_b[l].val() & self.lm64.val());
                    self.sh_in[l].next = (self.sh_lane[l].val() ^ (self.sh_b[l].val() & self.lm64.val())) <= self.sh_max[l].val();
                }
                self.sh_ok[l].next = self.sh_in[l].val()
                    & (self.sh_j[l].val() < self.ws64.val())
                    & (((self.active.q.val() >> (self.sh_j[l].val() & self.lm64.val())) & 1) != 0);
                self.sh_src[l].next = self.sh_lane[l].val();
                if self.sh_ok[l].val() {
                    self.sh_src[l].next = self.sh_j[l].val();
                }
            }
            self.sh_val[l].next = 0.into();
            // (The warp-wide buffer is only used in these states; skipping the
            // loops elsewhere saves most of the simulation's time.)
            if self.warp_phase.val() {
                for e in 0..self._ws {
                    if self.sh_src[l].val() == self.index64[e].val() {
                        self.sh_val[l].next = self.sbuf.q[e].val();
                    }
                    if self.gathering.val() & (self.sh_lane[l].val() == self.index64[e].val()) {
                        self.sbuf.d[e].next = self.va[l].val();
                    }
                }
            }
            // Special registers.
            self.s2r[l].next = 0.into();
            if self.cls.val() == class::S2R {
                match self.f_a.val().index() {
                    0 => self.s2r[l].next = self.va[l].val() & 0x7ff,
                    1 => self.s2r[l].next = (self.va[l].val() >> 11) & 0x7ff,
                    2 => self.s2r[l].next = (self.va[l].val() >> 22) & 0x7f,
                    3 => self.s2r[l].next = bit_cast::<64, 32>(self.r_block_x.q.val()),
                    4 => self.s2r[l].next = bit_cast::<64, 32>(self.r_block_y.q.val()),
                    5 => self.s2r[l].next = bit_cast::<64, 32>(self.r_block_z.q.val()),
                    6 => self.s2r[l].next = bit_cast::<64, 32>(self.c_x.val()),
                    7 => self.s2r[l].next = bit_cast::<64, 32>(self.c_y.val()),
                    8 => self.s2r[l].next = bit_cast::<64, 32>(self.c_z.val()),
                    9 => self.s2r[l].next = bit_cast::<64, 32>(self.r_grid_x.q.val()),
                    10 => self.s2r[l].next = bit_cast::<64, 32>(self.r_grid_y.q.val()),
                    11 => self.s2r[l].next = bit_cast::<64, 32>(self.r_grid_z.q.val()),
                    12 => self.s2r[l].next = self.beat_base64.val() | self.index64[l].val(),
                    13 => self.s2r[l].next = bit_cast::<64, 8>(bit_cast::<8, 6>(self.cur.q.val()) - self.c_base.val()),
                    14 => self.s2r[l].next = bit_cast::<64, 32>(self.r_nwarps.q.val()),
                    15 => self.s2r[l].next = 0.into(),
                    16 => self.s2r[l].next = 1.into(),
                    17 => self.s2r[l].next = bit_cast::<64, 32>(self.r_gridid.q.val()),
                    18 => self.s2r[l].next = self.cycles.q.val() & self.lo32.val(),
                    19 => self.s2r[l].next = self.cycles.q.val() >> 32,
                    20 => {
                        self.s2r[l].next =
                            (bits::<64>(1) << (self.beat_base64.val() | self.index64[l].val())) & self.full.val() & self.lo32.val()
                    }
                    21 => {
                        self.s2r[l].next =
                            ((bits::<64>(2) << (self.beat_base64.val() | self.index64[l].val())) - 1) & self.full.val() & self.lo32.val()
                    }
                    22 => {
                        self.s2r[l].next =
                            ((bits::<64>(1) << (self.beat_base64.val() | self.index64[l].val())) - 1) & self.full.val() & self.lo32.val()
                    }
                    23 => {
                        self.s2r[l].next =
                            (!((bits::<64>(1) << (self.beat_base64.val() | self.index64[l].val())) - 1)) & self.full.val() & self.lo32.val()
                    }
                    24 => {
                        self.s2r[l].next =
                            (!((bits::<64>(2) << (self.beat_base64.val() | self.index64[l].val())) - 1)) & self.full.val() & self.lo32.val()
                    }
                    25 => self.s2r[l].next = self.active.q.val() & self.lo32.val(),
                    26 => self.s2r[l].next = bit_cast::<64, 8>(self.ws.val()),
                    27 => self.s2r[l].next = bit_cast::<64, 32>(self.r_dyn.q.val()),
                    28 => self.s2r[l].next = bit_cast::<64, 32>(self.r_total.q.val()),
                    _ => self.s2r[l].next = 0.into(),
                }
            }
            // Default: no register write.
            self.rf[l].we.next = false;
            self.rf[l].waddr.next = self.rf_base.val() | bit_cast::<ADDR_BITS, 7>(self.f_d.val() & self.rmask.val());
            self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.lane_d[l].val() & self.lo32.val());
            self.tids[l].we.next = false;
            self.tids[l].waddr.next = 0.into();
            self.tids[l].wdata.next = 0.into();
        }

        // The lanes' predicate outputs (a shuffle's in ShflSelect) and carry
        // outputs, gathered into place: the results of an instruction that
        // commits in this cycle.
        if self.state.q.val() == SmState::ShflSelect {
            for l in 0..self._lanes {
                self.gp.bits[l].next = self.sh_ok[l].val();
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
            self.rp_fin.next = self.res_pred.q.val() | self.gp.placed.val();
            self.rc_fin.next = self.res_carry.q.val() | self.gc.placed.val();
            self.cc_fin.next = self.alus[0].cc_we.val();
        }

        // ---- Defaults for every other driven signal.
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
        self.pw_we.next = false;
        self.pw_warp.next = bit_cast::<8, 6>(self.cur.q.val());
        self.pw_idx.next = bit_cast::<8, 3>(self.pd.val());
        self.pw_data.next = 0.into();
        self.carry.we.next = false;
        self.carry.waddr.next = bit_cast::<ADDR_BITS, 6>(self.cur.q.val());
        self.carry.wdata.next = (self.carry_in.q.val() & !self.exec.q.val()) | (self.rc_fin.val() & self.exec.q.val());
        self.exited.we.next = false;
        self.exited.waddr.next = bit_cast::<ADDR_BITS, 6>(self.cur.q.val());
        self.exited.wdata.next = self.exited_old.q.val() | self.exec.q.val();
        self.live_cur.next = !self.exited_old.q.val() & self.full.val();
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
        // ---- Barriers.
        self.b_sel.next = (bit_cast::<64, 8>(self.cur_slot.val()) << 4) | bit_cast::<64, 8>(self.bk.q.val());
        if self.state.q.val() == SmState::BarArrive {
            self.b_sel.next = (bit_cast::<64, 8>(self.cur_slot.val()) << 4) | bit_cast::<64, 32>(self.bar_id.q.val());
        }
        self.bar_ae.clock.next = self.clock.val();
        self.bar_cr.clock.next = self.clock.val();
        self.bar_tag.clock.next = self.clock.val();
        self.bar_ae.waddr.next = bit_cast::<ADDR_BITS, 64>(self.b_sel.val());
        self.bar_cr.waddr.next = bit_cast::<ADDR_BITS, 64>(self.b_sel.val());
        self.bar_tag.waddr.next = bit_cast::<ADDR_BITS, 64>(self.b_sel.val());
        self.bar_ae.we.next = false;
        self.bar_cr.we.next = false;
        self.bar_tag.we.next = false;
        self.bar_tag.wdata.next = self.c_epoch.val();
        self.b_arr.next = 0.into();
        self.b_exp.next = 0.into();
        self.b_cnt.next = 0.into();
        self.b_rt.next = 0.into();
        if self.bar_phase.val() & (self.bar_tag.rdata.val() == self.c_epoch.val()) {
            self.b_arr.next = self.bar_ae.rdata.val().get_bits::<32>(0);
            self.b_exp.next = self.bar_ae.rdata.val().get_bits::<32>(32);
            self.b_cnt.next = self.bar_cr.rdata.val().get_bits::<32>(0);
            self.b_rt.next = self.bar_cr.rdata.val().get_bits::<32>(32);
        }
        // An arrival's new entry (BarArrive); BarCheck writes zeros.
        self.bar_ae.wdata.next =
            (bit_cast::<64, 32>(self.b_exp.val()) << 32) | bit_cast::<64, 32>(self.b_arr.val() + bit_cast::<32, 8>(self.popc.n.val()));
        self.bar_cr.wdata.next = (bit_cast::<64, 32>(self.b_rt.val()) << 32) | bit_cast::<64, 32>(self.b_cnt.val());
        if self.cls.val() == class::BAR {
            self.bar_ae.wdata.next = (bit_cast::<64, 32>(self.bar_count.q.val()) << 32)
                | bit_cast::<64, 32>(self.b_arr.val() + bit_cast::<32, 8>(self.popc.n.val()));
        } else {
            self.bar_cr.wdata.next = (bit_cast::<64, 32>(self.b_rt.val() + bit_cast::<32, 8>(self.popc.n.val())) << 32)
                | bit_cast::<64, 32>(self.b_cnt.val() + bit_cast::<32, 8>(self.popc2.n.val()));
        }
        self.b_done.next = (self.b_arr.val() != 0) & (self.b_arr.val() >= self.c_live.val());
        if self.b_exp.val() != 0 {
            self.b_done.next = (self.b_arr.val() != 0) & (self.b_arr.val() >= self.b_exp.val());
        } else if self.plant.val().get_bit(3) {
            self.b_done.next = (self.b_arr.val() != 0) & ((self.b_arr.val() + 1) >= self.c_live.val());
        }
        self.bw64.next = bit_cast::<64, 8>(self.bw.q.val());
        self.w_info.clock.next = self.clock.val();
        self.w_info.waddr.next = bit_cast::<ADDR_BITS, 6>(self.cur.q.val());
        self.w_info.wdata.next = bit_cast::<13, 4>(self.bar_id.q.val().get_bits::<4>(0))
            | (bit_cast::<13, 7>(self.f_d.val()) << 4)
            | (bit_cast::<13, 2>(self.f_mod.val().get_bits::<2>(0)) << 11);
        self.w_info.we.next = false;
        self.bw_bar.next = 0.into();
        self.bw_rd.next = 0.into();
        self.bw_rop.next = 0.into();
        if self.bar_phase.val() {
            self.bw_bar.next = self.w_info.rdata.val().get_bits::<4>(0);
            self.bw_rd.next = self.w_info.rdata.val().get_bits::<7>(4);
            self.bw_rop.next = self.w_info.rdata.val().get_bits::<2>(11);
        }
        self.red_v.next = bit_cast::<64, 32>(self.r_cnt.q.val());
        if self.bw_rop.val() == red::AND {
            self.red_v.next = 0.into();
            if self.r_cnt.q.val() == self.r_thr.q.val() {
                self.red_v.next = 1.into();
            }
        }
        if self.bw_rop.val() == red::OR {
            self.red_v.next = 0.into();
            if self.r_cnt.q.val() != 0 {
                self.red_v.next = 1.into();
            }
        }
        self.last_w.next = self.c_base.val() + self.r_nwarps.q.val().get_bits::<8>(0) - 1;
        self.popc2.x.next = self.paux.q.val() & self.live_cur.val();
        self.bw_live.next = (!self.exited.rdata.val() & self.full.val()) >> self.beat_base.val();
        self.ready.next = self.w_live.q.val() & !self.w_wait.q.val();
        if self.plant.val().get_bit(2) {
            self.ready.next = self.w_live.q.val() & !(self.w_wait.q.val() & !bits::<64>(2));
        }
        self.sched.ready.next = self.ready.val();
        if self.pf_on.val() {
            // The prefetch picks another warp.
            self.sched.ready.next = self.ready.val() & !(bits::<64>(1) << self.cur.q.val());
        }
        self.sched.last.next = self.last.q.val();
        // ---- Indirect calls: `gcall` = the executing threads whose target is
        // `cl_val`. Lead pass (thread mt, cl_val = its target): mt leads a
        // group unless a thread below it is in the group. Push pass: cl_val is
        // the target of the highest remaining leader `cl_h`.
        self.mt64.next = bit_cast::<64, 8>(self.mt.q.val());
        self.cl_val.next = 0.into();
        self.cl_h.next = 0.into();
        for e in 0..self._ws {
            self.gcall.bits[e].next = false;
        }
        if self.calli_phase.val() {
            for e in 0..self._ws {
                if (self.state.q.val() == SmState::CalliLead) & (self.index64[e].val() == self.mt64.val()) {
                    self.cl_val.next = self.sbuf.q[e].val();
                }
                if (self.state.q.val() != SmState::CalliLead) & self.res_pred.q.val().get_bit(e) {
                    self.cl_val.next = self.sbuf.q[e].val();
                    self.cl_h.next = self.index64[e].val();
                }
            }
            // (A second loop: a local signal reads as last written, so cl_val must be final.)
            for e in 0..self._ws {
                self.gcall.bits[e].next = self.exec.q.val().get_bit(e) & (self.sbuf.q[e].val() == self.cl_val.val());
            }
        }
        self.gcall.base.next = 0.into();

        // ---- The memory loop's next executing thread at or after mt (m_found: there is one).
        self.m_next.next = 0.into();
        self.m_found.next = false;
        if self.state.q.val() == SmState::MemAddr {
            for e in 0..self._ws {
                if !self.m_found.val() & self.exec.q.val().get_bit(e) & (self.index64[e].val() >= self.mt64.val()) {
                    self.m_next.next = self.index64[e].val();
                    self.m_found.next = true;
                }
            }
        }
        self.cl_dup.next = (self.gcall.placed.val() & ((bits::<64>(1) << self.mt64.val()) - 1)) != 0;

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
        self.bus_done.next = self.wm_fin.val() & (self.port_mask.val() != 0) & (self.cls.val() != class::ATOM);
        self.bus_mask.next = self.port_mask.val();
        self.smem_done.next = self.sm_done.q.val();
        self.smem_mask.next = self.sm_lanes.q.val();
        // Predicate combine for compares and plop: bits op pc (and, or, xor in mod[5:4]).
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
            if self.plant.val().get_bit(8) {
                self.vote_r.next = (self.paux.q.val() & self.full.val()) != 0;
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
            if self.pr_idx.val() == self.index[b].val() {
                self.pred_val.next = self.preds[b].rdata.val();
            }
        }
        self.new_pred.next = (self.pred_val.val() & !self.exec.q.val()) | (self.bool_v.val() & self.exec.q.val());
        // Present lanes of the warp being initialised.
        self.present.next = self.full.val();
        if self.rem.q.val() < bit_cast::<32, 8>(self.ws.val()) {
            self.present.next = (bits::<64>(1) << self.rem.q.val()) - 1;
        }
        self.guard_val.next = self.pred_val.val();
        self.rd_word.next = self.mem_rdata.val() & self.lo32.val();
        self.nc_x.next = self.nx_x.q.val() + 1;

        // Fetch (Top's work) from warp fe_warp's stack top: the instruction
        // word, its guard predicate and executing threads.
        self.fe_ok.next = !self.fq_empty.q.val()
            & (self.fq_pc.q.val() < self.r_code_len.q.val())
            & !self.ibad.rdata.val().any()
            & (self.icount.q.val() < self.budget.val());
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
        match self.state.q.val() {
            SmState::Idle => {
                if self.host_we.val() {
                    match self.host_addr.val().index() {
                        0 => self.r_entry.d.next = self.host_wdata.val(),
                        1 => self.r_grid_x.d.next = self.host_wdata.val(),
                        2 => self.r_grid_y.d.next = self.host_wdata.val(),
                        3 => self.r_grid_z.d.next = self.host_wdata.val(),
                        4 => self.r_block_x.d.next = self.host_wdata.val(),
                        5 => self.r_block_y.d.next = self.host_wdata.val(),
                        6 => self.r_block_z.d.next = self.host_wdata.val(),
                        7 => self.r_nthreads.d.next = self.host_wdata.val(),
                        8 => self.r_nwarps.d.next = self.host_wdata.val(),
                        9 => self.r_dyn.d.next = self.host_wdata.val(),
                        10 => self.r_total.d.next = self.host_wdata.val(),
                        11 => self.r_gridid.d.next = self.host_wdata.val(),
                        12 => self.r_code_len.d.next = self.host_wdata.val(),
                        13 => self.r_slots.d.next = self.host_wdata.val().get_bits::<8>(0),
                        14 => self.r_slog.d.next = self.host_wdata.val().get_bits::<8>(0),
                        15 => {
                            self.nx_x.d.next = 0.into();
                            self.nx_y.d.next = 0.into();
                            self.nx_z.d.next = 0.into();
                            self.nx_lin.d.next = 0.into();
                            self.more.d.next = true;
                            self.w_live.d.next = 0.into();
                            self.w_wait.d.next = 0.into();
                            self.w_red.d.next = 0.into();
                            self.icount.d.next = 0.into();
                            self.n_pf_st.next = pf::IDLE.into();
                            self.t_code.d.next = trap::NONE.into();
                            self.done_f.d.next = false;
                            self.n_state.next = SmState::Sched;
                        }
                        _ => {}
                    }
                }
            }
            SmState::NextCta => {
                // Starts the CTA at (nx_x, nx_y, nx_z) in slot `slot`, and steps to the next one.
                self.epoch.d.next = self.epoch.q.val() + 1;
                if self.epoch.q.val() == 0xffff {
                    self.t_code.d.next = trap::EPOCH.into();
                    self.n_state.next = SmState::Trapped;
                } else {
                    self.cta_start.next = true;
                    self.smem.clear.next = true;
                    self.init_w.d.next = self.i_base.val();
                    self.init_k.d.next = 0.into();
                    self.rem.d.next = self.r_nthreads.q.val();
                    for s in 0..self._ctas {
                        if self.index[s].val() == self.slot.q.val() {
                            self.s_x.d[s].next = self.nx_x.q.val();
                            self.s_y.d[s].next = self.nx_y.q.val();
                            self.s_z.d[s].next = self.nx_z.q.val();
                            self.s_epoch.d[s].next = self.epoch.q.val() + 1;
                            self.s_live.d[s].next = self.r_nthreads.q.val();
                        }
                    }
                    self.nx_lin.d.next = self.nx_lin.q.val() + 1;
                    self.nx_x.d.next = self.nc_x.val();
                    if self.nc_x.val() == self.r_grid_x.q.val() {
                        self.nx_x.d.next = 0.into();
                        self.nx_y.d.next = self.nx_y.q.val() + 1;
                        if self.nx_y.q.val() + 1 == self.r_grid_y.q.val() {
                            self.nx_y.d.next = 0.into();
                            self.nx_z.d.next = self.nx_z.q.val() + 1;
                            if self.nx_z.q.val() + 1 == self.r_grid_z.q.val() {
                                self.more.d.next = false;
                            }
                        }
                    }
                    self.n_state.next = SmState::InitWarp;
                }
            }
            SmState::InitWarp => {
                self.n_cur.next = self.init_w.q.val().get_bits::<6>(0);
                self.pw_warp.next = self.init_w.q.val();
                self.pw_idx.next = bit_cast::<8, 4>(self.init_k.q.val());
                self.init_k.d.next = self.init_k.q.val() + 1;
                if (self.init_k.q.val() == 0) & (self.c_rf_epoch.val() == self.epoch_last.val()) {
                    // The warp's epoch is about to wrap: zero its words first.
                    self.init_t.d.next = 0.into();
                    self.n_state.next = SmState::InitFill;
                }
                if self.init_k.q.val() < 7 {
                    self.pw_we.next = true;
                    self.pw_data.next = 0.into();
                } else {
                    for w in 0..self._warps {
                        if self.index[w].val() == self.init_w.q.val() {
                            self.w_epoch.d[w].next = self.c_rf_epoch.val() + 1;
                        }
                    }
                    self.stack.warp.next = self.init_w.q.val().get_bits::<6>(0);
                    self.stack.cmd.next = stack::CMD_INIT.into();
                    self.stack.pc.next = self.r_entry.q.val();
                    self.stack.mask.next = self.present.val();
                    self.stack.start.next = true;
                    self.exited.waddr.next = bit_cast::<ADDR_BITS, 8>(self.init_w.q.val());
                    self.exited.we.next = true;
                    self.exited.wdata.next = !self.present.val() & self.full.val();
                    self.carry.waddr.next = bit_cast::<ADDR_BITS, 8>(self.init_w.q.val());
                    self.carry.we.next = true;
                    self.carry.wdata.next = 0.into();
                    self.w_live.d.next = self.w_live.q.val() | (bits::<64>(1) << self.init_w.q.val());
                    self.rem.d.next = 0.into();
                    if self.rem.q.val() > bit_cast::<32, 8>(self.ws.val()) {
                        self.rem.d.next = self.rem.q.val() - bit_cast::<32, 8>(self.ws.val());
                    }
                    self.init_k.d.next = 0.into();
                    self.init_w.d.next = self.init_w.q.val() + 1;
                    if bit_cast::<32, 8>(self.init_w.q.val() + 1 - self.i_base.val()) == self.r_nwarps.q.val() {
                        self.init_t.d.next = 0.into();
                        self.tid_x.d.next = 0.into();
                        self.tid_y.d.next = 0.into();
                        self.tid_z.d.next = 0.into();
                        self.n_state.next = SmState::InitThread;
                    }
                }
            }
            SmState::InitFill => {
                // Word init_t of warp init_w's registers, in every lane: zero.
                for l in 0..self._lanes {
                    self.rf[l].we.next = true;
                    self.rf[l].waddr.next = (bit_cast::<ADDR_BITS, 8>(self.init_w.q.val()) << self.rf_wshift.val())
                        | bit_cast::<ADDR_BITS, 16>(self.init_t.q.val());
                    self.rf[l].wdata.next = 0.into();
                }
                self.init_t.d.next = self.init_t.q.val() + 1;
                if self.init_t.q.val() == self.rf_warp_last.val() {
                    self.n_state.next = SmState::InitWarp;
                }
            }
            SmState::InitThread => {
                // Thread init_t: warp init_t / ws, thread in warp mt, its packed tid.
                self.n_cur.next = bit_cast::<6, 8>(self.i_base.val()) + bit_cast::<6, 16>(self.init_t.q.val() >> self.log_ws.val());
                for l in 0..self._lanes {
                    if ((self.init_t.q.val().get_bits::<8>(0) & (self.ws.val() - 1)) & (self.lanes.val() - 1)) == self.index[l].val() {
                        self.tids[l].we.next = true;
                    }
                    self.tids[l].waddr.next = ((bit_cast::<ADDR_BITS, 16>(self.init_t.q.val() >> self.log_ws.val())
                        + bit_cast::<ADDR_BITS, 8>(self.i_base.val()))
                        << self.beat_bits.val())
                        | bit_cast::<ADDR_BITS, 8>((self.init_t.q.val().get_bits::<8>(0) & (self.ws.val() - 1)) >> self.log_l.val());
                    self.tids[l].wdata.next = (bit_cast::<32, 7>(self.tid_z.q.val()) << 22)
                        | (bit_cast::<32, 11>(self.tid_y.q.val()) << 11)
                        | bit_cast::<32, 11>(self.tid_x.q.val());
                }
                self.init_t.d.next = self.init_t.q.val() + 1;
                self.tid_x.d.next = self.tid_x.q.val() + 1;
                if bit_cast::<32, 11>(self.tid_x.q.val() + 1) == self.r_block_x.q.val() {
                    self.tid_x.d.next = 0.into();
                    self.tid_y.d.next = self.tid_y.q.val() + 1;
                    if bit_cast::<32, 11>(self.tid_y.q.val() + 1) == self.r_block_y.q.val() {
                        self.tid_y.d.next = 0.into();
                        self.tid_z.d.next = self.tid_z.q.val() + 1;
                    }
                }
                if bit_cast::<32, 16>(self.init_t.q.val() + 1) == self.r_nthreads.q.val() {
                    self.n_state.next = SmState::Sched;
                }
            }
            SmState::Sched => {
                // A free CTA slot takes the next CTA first; the launch is done when none remains and no warp lives.
                if self.more.q.val() & self.f_any.val() {
                    self.slot.d.next = self.f_slot.val();
                    self.n_state.next = SmState::NextCta;
                } else if self.w_live.q.val() == 0 {
                    self.done_f.d.next = true;
                    self.n_state.next = SmState::Idle;
                } else if !self.sched.any.val() {
                    self.c_barrier.d.next = self.c_barrier.q.val() + 1;
                    self.t_code.d.next = trap::DEADLOCK.into();
                    self.n_state.next = SmState::Trapped;
                } else {
                    self.c_front.d.next = self.c_front.q.val() + 1;
                    self.n_cur.next = self.sched.pick.val();
                    self.last.d.next = self.sched.pick.val();
                    // A settled stack top is fetched in this cycle (below); else TOP pops first.
                    if !self.stack.settled.val() {
                        self.stack.cmd.next = stack::CMD_TOP.into();
                        self.stack.start.next = true;
                        self.n_state.next = SmState::Top;
                    }
                }
            }
            // Top: waits for TOP; the fetch is below.
            SmState::Top => {
                self.c_front.d.next = self.c_front.q.val() + 1;
            }
            // Fetch: the instruction word is read; its checks are below.
            SmState::Fetch => {
                self.c_front.d.next = self.c_front.q.val() + 1;
            }
            SmState::Aux => {
                self.c_front.d.next = self.c_front.q.val() + 1;
                self.c_issued.d.next = self.c_issued.q.val() + 1;
                self.c_threads.d.next = self.c_threads.q.val() + bit_cast::<64, 8>(self.popc.n.val());
                self.paux.d.next = self.pop_val.val();
                self.carry_in.d.next = self.carry.rdata.val();
                self.exited_old.d.next = self.exited.rdata.val();
                self.n_state.next = SmState::Dispatch;
                if self.cls.val() == class::PLOP {
                    self.n_state.next = SmState::Aux2;
                }
            }
            SmState::Aux2 => {
                self.c_front.d.next = self.c_front.q.val() + 1;
                self.pauxb.d.next = self.pop_val.val();
                self.n_state.next = SmState::Dispatch;
            }
            // Dispatch: see below (it also runs in Aux's cycle).
            SmState::Dispatch => {}
            SmState::Exec => {
                if self.ex_stall.val() {
                    self.c_front.d.next = self.c_front.q.val() + 1;
                } else if self.su_wait.val() {
                    self.c_exec.d.next = self.c_exec.q.val() + 1;
                    self.su_on.d.next = true;
                } else {
                    self.c_exec.d.next = self.c_exec.q.val() + 1;
                    self.su_on.d.next = false;
                    if self.wide.val() {
                        self.n_phase.next = self.phase.q.val() + 1;
                    }
                    for l in 0..self._lanes {
                        if !self.wide.val() {
                            self.rf[l].we.next =
                                self.beat_exec.val().get_bit(l) & (self.dwords.val() != 0) & (self.f_d.val() != operand::RZ);
                            if self.cls.val() == class::S2R {
                                self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.s2r[l].val() & self.lo32.val());
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
                                self.rf[l].we.next =
                                    self.beat_exec.val().get_bit(l) & (self.dwords.val() != 0) & (self.f_d.val() != operand::RZ);
                                self.rhi.d[l].next = self.lane_d[l].val() >> 32;
                            }
                            if self.phase.q.val() == 3 {
                                self.rf[l].waddr.next =
                                    self.rf_base.val() | bit_cast::<ADDR_BITS, 7>((self.f_d.val() + 1) & self.rmask.val());
                                // The ALU computes the high word now; the other units' is from phase 2.
                                self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.lane_d[l].val());
                                if self.is_fp.val() | self.is_sfu.val() | self.is_shared.val() {
                                    self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.rhi.q[l].val());
                                }
                                self.rf[l].we.next =
                                    self.beat_exec.val().get_bit(l) & (self.dwords.val() == 2) & (self.f_d.val() != operand::RZ);
                            }
                        }
                    }
                    if !self.wide.val() | (self.phase.q.val() == 2) {
                        self.res_pred.d.next = self.res_pred.q.val() | self.gp.placed.val();
                        self.res_carry.d.next = self.res_carry.q.val() | self.gc.placed.val();
                        self.cc_we.d.next = self.alus[0].cc_we.val();
                    }
                    if !self.wide.val() | (self.phase.q.val() == 3) {
                        self.n_beat.next = self.beat.q.val() + 1;
                    }
                }
            }
            SmState::MemAddr => {
                // Thread mt (a system call's, or a barrier's first): skip it unless it
                // executes; a barrier takes its id and count from it.
                self.c_mem.d.next = self.c_mem.q.val() + 1;
                self.n_mk.next = 0.into();
                if ((self.exec.q.val() >> self.mt.q.val()) & 1) != 0 {
                    self.n_state.next = SmState::MemData;
                    if (self.cls.val() == class::BAR) | (self.cls.val() == class::BARRED) {
                        self.n_bar_id.next = self.sel_b.val().get_bits::<32>(0);
                        if self.f_i.val() {
                            self.n_bar_id.next = self.f_imm.val();
                        }
                        self.bar_count.d.next = self.sel_a.val().get_bits::<32>(0);
                        self.n_state.next = SmState::BarArrive;
                    }
                } else {
                    // Skip to the next executing thread, or finish.
                    self.n_mt.next = self.m_next.val().get_bits::<8>(0);
                    if !self.m_found.val() {
                        self.n_state.next = SmState::Commit;
                    }
                }
            }
            SmState::MemData => {
                // A system call's argument words a+k.
                self.c_mem.d.next = self.c_mem.q.val() + 1;
                self.n_mk.next = self.mk.q.val() + 1;
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
                    self.n_state.next = SmState::MemReq;
                }
            }
            SmState::MemReq => {
                self.c_mem.d.next = self.c_mem.q.val() + 1;
                self.mem_req.next = true;
                self.n_mk.next = 0.into();
                self.rb_lo.d.next = self.mem_rdata.val();
                if self.mem_fault.val() {
                    self.t_code.d.next = trap::MEMORY.into();
                    self.t_pc.d.next = self.pc.q.val();
                    self.t_lane.d.next = self.mt.q.val();
                    self.n_state.next = SmState::Trapped;
                } else if (self.f_d.val() == operand::RZ) | self.f_mod.val().get_bit(1) {
                    // No result (free, __assertfail) or no destination.
                    self.n_state.next = SmState::MemAddr;
                    self.n_mt.next = self.mt.q.val() + 1;
                    if self.mt.q.val() == self.ws.val() - 1 {
                        self.n_state.next = SmState::Commit;
                    }
                } else {
                    self.n_state.next = SmState::MemWb;
                }
            }
            SmState::MemWb => {
                // The result's words (one, or two for malloc) into d+k of thread mt.
                self.c_mem.d.next = self.c_mem.q.val() + 1;
                self.n_mk.next = self.mk.q.val() + 1;
                self.rd_word.next = self.rb_lo.q.val() & self.lo32.val();
                if self.mk.q.val() != 0 {
                    self.rd_word.next = self.rb_lo.q.val() >> 32;
                }
                for l in 0..self._lanes {
                    if (self.m_lane.val() == self.index[l].val()) & (self.f_d.val() + bit_cast::<7, 3>(self.mk.q.val()) != operand::RZ) {
                        self.rf[l].we.next = true;
                    }
                    self.rf[l].waddr.next = self.rf_base.val()
                        | bit_cast::<ADDR_BITS, 7>((self.f_d.val() + bit_cast::<7, 3>(self.mk.q.val())) & self.rmask.val());
                    self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.rd_word.val());
                }
                if bit_cast::<3, 3>(self.mk.q.val() + 1) == self.words.val() {
                    self.n_state.next = SmState::MemAddr;
                    self.n_mt.next = self.mt.q.val() + 1;
                    if self.mt.q.val() == self.ws.val() - 1 {
                        self.n_state.next = SmState::Commit;
                    }
                }
            }
            SmState::ShflGather => {
                // Every thread's source value into sbuf, a beat per cycle.
                self.c_exec.d.next = self.c_exec.q.val() + 1;
                self.n_beat.next = self.beat.q.val() + 1;
                if self.beat.q.val() == self.last_beat.val() {
                    self.n_beat.next = 0.into();
                    self.n_state.next = SmState::ShflSelect;
                }
            }
            SmState::ShflSelect => {
                self.c_exec.d.next = self.c_exec.q.val() + 1;
                for l in 0..self._lanes {
                    self.rf[l].we.next = self.beat_exec.val().get_bit(l) & (self.f_d.val() != operand::RZ);
                    self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.sh_val[l].val() & self.lo32.val());
                }
                self.res_pred.d.next = self.res_pred.q.val() | self.gp.placed.val();
                self.n_beat.next = self.beat.q.val() + 1;
                if self.beat.q.val() == self.last_beat.val() {
                    self.n_state.next = SmState::Commit;
                }
            }
            SmState::CalliGather => {
                self.c_ctl.d.next = self.c_ctl.q.val() + 1;
                self.n_beat.next = self.beat.q.val() + 1;
                if self.beat.q.val() == self.last_beat.val() {
                    self.n_beat.next = 0.into();
                    self.n_state.next = SmState::CalliLead;
                }
            }
            SmState::CalliLead => {
                // Thread mt leads a group unless an executing thread below it has its target.
                self.c_ctl.d.next = self.c_ctl.q.val() + 1;
                if (((self.exec.q.val() >> self.mt64.val()) & 1) != 0) & !self.cl_dup.val() {
                    self.res_pred.d.next = self.res_pred.q.val() | (bits::<64>(1) << self.mt64.val());
                }
                self.n_mt.next = self.mt.q.val() + 1;
                if self.mt.q.val() == self.ws.val() - 1 {
                    self.n_state.next = SmState::CalliPush;
                }
            }
            SmState::CalliPush => {
                // One call frame per group, the last leader's first, so the
                // first group runs first (the golden model's order).
                self.c_ctl.d.next = self.c_ctl.q.val() + 1;
                if !self.stack.busy.val() {
                    if self.stack.overflow.val() {
                        self.t_code.d.next = trap::STACK_OVERFLOW.into();
                        self.t_pc.d.next = self.pc.q.val();
                        self.n_state.next = SmState::Trapped;
                    } else if self.res_pred.q.val() == 0 {
                        self.n_state.next = SmState::Commit;
                    } else {
                        self.stack.cmd.next = stack::CMD_PUSHCALL.into();
                        self.stack.target.next = self.cl_val.val().get_bits::<32>(0);
                        self.stack.mask.next = self.gcall.placed.val();
                        self.stack.start.next = true;
                        self.res_pred.d.next = self.res_pred.q.val() & !(bits::<64>(1) << self.cl_h.val());
                        self.n_state.next = SmState::CalliWait;
                    }
                }
            }
            SmState::CalliWait => {
                self.c_ctl.d.next = self.c_ctl.q.val() + 1;
                self.n_state.next = SmState::CalliPush;
            }
            SmState::BeatAddr => {
                // Each lane's address (a + b or a + imm; atomics: a); a beat with no
                // executing lane is skipped.
                self.c_mem.d.next = self.c_mem.q.val() + 1;
                self.n_mt.next = self.beat_base.val();
                self.n_mk.next = 0.into();
                self.wm_go.d.next = false;
                self.wm_single.d.next = false;
                self.wm_drain.d.next = false;
                self.wm_cnt.d.next = 0.into();
                self.wm_qh.d.next = 0.into();
                self.wm_qt.d.next = 0.into();
                for l in 0..self._lanes {
                    self.lrd_lo.d[l].next = 0.into();
                    self.lrd_hi.d[l].next = 0.into();
                    self.ladr.d[l].next = (self.va[l].val() + self.lane_b[l].val()) & self.lo32.val();
                    if self.cls.val() == class::ATOM {
                        self.ladr.d[l].next = self.va[l].val();
                    }
                }
                if self.lane_mask.val() == 0 {
                    self.beat_end.next = true;
                } else if self.cls.val() == class::LD {
                    self.n_state.next = SmState::BeatReq;
                } else {
                    self.n_state.next = SmState::BeatData;
                }
            }
            SmState::BeatData => {
                // Store data words d+k, or atomic operands b+k (or the immediate) and c+k.
                self.c_mem.d.next = self.c_mem.q.val() + 1;
                self.n_mk.next = self.mk.q.val() + 1;
                for l in 0..self._lanes {
                    if self.cls.val() == class::ST {
                        match self.mk.q.val().index() {
                            0 => self.lw0.d[l].next = self.vc[l].val(),
                            1 => self.lw1.d[l].next = self.vc[l].val(),
                            2 => self.lw2.d[l].next = self.vc[l].val(),
                            _ => self.lw3.d[l].next = self.vc[l].val(),
                        }
                    } else if self.mk.q.val() == 0 {
                        self.lw0.d[l].next = self.lane_b[l].val() & self.lo32.val();
                        self.lw2.d[l].next = self.vc[l].val();
                    } else {
                        self.lw1.d[l].next = self.vb[l].val();
                        self.lw3.d[l].next = self.vc[l].val();
                    }
                }
                if bit_cast::<3, 3>(self.mk.q.val() + 1) == self.words.val() {
                    self.n_state.next = SmState::BeatReq;
                }
            }
            SmState::BeatReq => {
                // The beat's bus lanes (see `wb_cyc`), then its shared lanes or write-back.
                self.c_mem.d.next = self.c_mem.q.val() + 1;
                self.n_mk.next = 0.into();
                self.sm_lanes.d.next = self.sh_mask.val();
                self.wm_go.d.next = true;
                self.wm_pend.d.next = self.pend_now.val();
                self.wm_part.d.next = self.part_now.val();
                self.wm_fly.d.next = self.fly_now.val();
                self.wm_cnt.d.next = self.cnt_now.val();
                if (self.wb_ack.val() | self.wb_err.val()) & (self.wm_cnt.q.val() != 0) {
                    self.wm_qh.d.next = (self.wm_qh.q.val() + 1) & self.wm_qmask.val();
                }
                if self.wm_drain.q.val() & (self.wm_cnt.q.val() == 0) {
                    // Drained: CYC is low this cycle; the retries start in the next.
                    self.wm_drain.d.next = false;
                }
                if self.wm_issue.val() & !self.wb_stall.val() {
                    for i in 0..self._depth {
                        if self.wm_qt.q.val() == self.index[i].val() {
                            self.wm_qrun.d[i].next = self.wm_runw.val();
                            self.wm_qpart.d[i].next = self.part_now.val();
                        }
                    }
                    self.wm_qt.d.next = (self.wm_qt.q.val() + 1) & self.wm_qmask.val();
                    self.wm_cnt.d.next = self.cnt_now.val() + 1;
                    self.wm_fly.d.next = self.fly_now.val() | self.wm_runw.val();
                    self.wm_part.d.next = self.part_now.val() + 1;
                    if (self.part_now.val() + 1) == self.wm_nparts.val() {
                        self.wm_pend.d.next = self.pend_now.val() & !self.wm_runw.val();
                        self.wm_part.d.next = 0.into();
                    }
                    self.c_txn.d.next = self.c_txn.q.val() + 1;
                }
                if self.wm_ack.val() {
                    for l in 0..self._lanes {
                        if self.wm_hrun.val().get_bit(l) {
                            self.lrd_lo.d[l].next = self.lrd_lo.q[l].val() | self.wbl.rlo[l].val();
                            self.lrd_hi.d[l].next = self.lrd_hi.q[l].val() | self.wbl.rhi[l].val();
                            if self.cls.val() == class::ATOM {
                                self.lrd_lo.d[l].next = self.wb_tgd_r.val();
                            }
                        }
                    }
                }
                if self.wm_err.val() {
                    if (self.wm_hrun.val() & (self.wm_hrun.val() - 1)) != 0 {
                        // Drain the younger transfers (the memory refuses them), then
                        // retry every lane not done, this transfer's a lane at a time.
                        self.wm_drain.d.next = true;
                        self.wm_single.d.next = true;
                        self.wm_rep.d.next = self.wm_hrun.val();
                        self.wm_pend.d.next = self.pend_now.val() | self.fly_now.val();
                        self.wm_part.d.next = 0.into();
                        self.wm_fly.d.next = 0.into();
                    } else {
                        self.t_code.d.next = trap::MEMORY.into();
                        self.t_pc.d.next = self.pc.q.val();
                        self.t_lane.d.next = self.mt.q.val() + self.wm_fli.val();
                        self.n_state.next = SmState::Trapped;
                    }
                } else if self.wm_fin.val() {
                    if self.sh_found.val() {
                        self.t_code.d.next = trap::SHARED_OUT_OF_BOUNDS.into();
                        if self.sh_mis.val() {
                            self.t_code.d.next = trap::MISALIGNED.into();
                        }
                        self.t_val.d.next = self.sh_addr.val();
                        self.t_pc.d.next = self.pc.q.val();
                        self.t_lane.d.next = self.mt.q.val() + self.sh_first.val();
                        self.n_state.next = SmState::Trapped;
                    } else if self.sh_mask.val() != 0 {
                        self.sm_pass.d.next = false;
                        self.n_state.next = SmState::SmemAcc;
                    } else if (self.cls.val() == class::ST) | (self.f_d.val() == operand::RZ) {
                        self.beat_end.next = true;
                    } else {
                        self.n_state.next = SmState::BeatWb;
                    }
                }
            }
            SmState::SmemAcc => {
                // The beat's shared lanes through SharedMem: one pass per 32-bit
                // word (an atomic: one pass), each as many cycles as its bank
                // conflicts need (a load's one more, an atomic's two per
                // lane); the data goes where the bus's would.
                self.c_mem.d.next = self.c_mem.q.val() + 1;
                if !self.smem.clearing.val() {
                    self.smem.start.next = !self.sm_pass.q.val();
                    self.sm_pass.d.next = true;
                    for l in 0..self._lanes {
                        if self.smem.grant.val().get_bit(l) {
                            if self.cls.val() == class::ATOM {
                                self.lrd_lo.d[l].next = self.smem.aold.val();
                                self.lw0.d[l].next = self.smem.anew.val() & self.lo32.val();
                                self.lw1.d[l].next = self.smem.anew.val() >> 32;
                            } else {
                                match self.mk.q.val().index() {
                                    0 => self.lrd_lo.d[l].next = self.smem.rword[l].val(),
                                    1 => self.lrd_lo.d[l].next = self.lrd_lo.q[l].val() | (self.smem.rword[l].val() << 32),
                                    2 => self.lrd_hi.d[l].next = self.smem.rword[l].val(),
                                    _ => self.lrd_hi.d[l].next = self.lrd_hi.q[l].val() | (self.smem.rword[l].val() << 32),
                                }
                            }
                        }
                    }
                    if self.smem.waited.val() {
                        self.c_conf.d.next = self.c_conf.q.val() + 1;
                    }
                    if !self.smem.left.val() {
                        self.sm_pass.d.next = false;
                        self.n_mk.next = self.mk.q.val() + 1;
                        if bit_cast::<3, 3>(self.mk.q.val() + 1) == self.sm_passes.val() {
                            self.n_mk.next = 0.into();
                            self.sm_done.d.next = true;
                            if (self.cls.val() == class::ST) | (self.f_d.val() == operand::RZ) {
                                self.beat_end.next = true;
                            } else {
                                self.n_state.next = SmState::BeatWb;
                            }
                        }
                    }
                }
            }
            SmState::BeatWb => {
                // Loaded words (sign-extended s8/s16) into d+k of every executing lane.
                self.c_mem.d.next = self.c_mem.q.val() + 1;
                self.n_mk.next = self.mk.q.val() + 1;
                for l in 0..self._lanes {
                    match self.mk.q.val().index() {
                        0 => self.lrd_word[l].next = self.lrd_lo.q[l].val() & self.lo32.val(),
                        1 => self.lrd_word[l].next = self.lrd_lo.q[l].val() >> 32,
                        2 => self.lrd_word[l].next = self.lrd_hi.q[l].val() & self.lo32.val(),
                        _ => self.lrd_word[l].next = self.lrd_hi.q[l].val() >> 32,
                    }
                    if (self.mwidth.val() == width::S8) & self.lrd_lo.q[l].val().get_bit(7) {
                        self.lrd_word[l].next = (self.lrd_lo.q[l].val() & self.lo32.val()) | self.sx8.val();
                    }
                    if (self.mwidth.val() == width::S16) & self.lrd_lo.q[l].val().get_bit(15) {
                        self.lrd_word[l].next = (self.lrd_lo.q[l].val() & self.lo32.val()) | self.sx16.val();
                    }
                    self.rf[l].we.next =
                        self.beat_exec.val().get_bit(l) & (self.f_d.val() + bit_cast::<7, 3>(self.mk.q.val()) != operand::RZ);
                    self.rf[l].waddr.next = self.rf_base.val()
                        | bit_cast::<ADDR_BITS, 7>((self.f_d.val() + bit_cast::<7, 3>(self.mk.q.val())) & self.rmask.val());
                    self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.lrd_word[l].val());
                }
                if bit_cast::<3, 3>(self.mk.q.val() + 1) == self.words.val() {
                    self.beat_end.next = true;
                }
            }
            SmState::BarArrive => {
                // The warp's live threads arrive at barrier bar_id; sync and barred wait.
                self.c_ctl.d.next = self.c_ctl.q.val() + 1;
                if self.bar_id.q.val() >= self.n_bars.val() {
                    self.t_code.d.next = trap::BAD_BARRIER.into();
                    self.t_val.d.next = self.bar_id.q.val();
                    self.t_pc.d.next = self.pc.q.val();
                    self.t_lane.d.next = self.mt.q.val();
                    self.n_state.next = SmState::Trapped;
                } else {
                    self.bar_ae.we.next = true;
                    self.bar_cr.we.next = true;
                    self.bar_tag.we.next = true;
                    if (self.cls.val() == class::BARRED) | !self.f_mod.val().get_bit(0) {
                        self.w_wait.d.next = self.w_wait.q.val() | (bits::<64>(1) << self.cur.q.val());
                    }
                    // (A plain `bar` writes rd and rop too: they are read
                    // only for a warp with a pending reduction.)
                    self.w_info.we.next = true;
                    if self.cls.val() == class::BARRED {
                        self.w_red.d.next = self.w_red.q.val() | (bits::<64>(1) << self.cur.q.val());
                    }
                    self.n_bk.next = 0.into();
                    self.n_state.next = SmState::BarCheck;
                }
            }
            SmState::BarCheck => {
                // Barrier bk: complete? Then reset it and release its warps.
                self.c_ctl.d.next = self.c_ctl.q.val() + 1;
                if self.b_done.val() {
                    self.r_cnt.d.next = self.b_cnt.val();
                    self.r_thr.d.next = self.b_rt.val();
                    self.bar_ae.we.next = true;
                    self.bar_ae.wdata.next = 0.into();
                    self.bar_cr.we.next = true;
                    self.bar_cr.wdata.next = 0.into();
                    self.bar_tag.we.next = true;
                    self.n_bw.next = self.c_base.val();
                    self.n_state.next = SmState::BarRelease;
                } else {
                    self.n_bk.next = self.bk.q.val() + 1;
                    if self.bk.q.val() == self.last_bar.val() {
                        self.n_state.next = SmState::Commit;
                    }
                }
            }
            SmState::BarRelease => {
                // Warp bw waits at barrier bk: it goes on; a pending reduction is written first.
                self.c_ctl.d.next = self.c_ctl.q.val() + 1;
                self.n_beat.next = 0.into();
                self.n_bw.next = self.bw.q.val() + 1;
                if self.bw.q.val() == self.last_w.val() {
                    self.n_bk.next = self.bk.q.val() + 1;
                    self.n_state.next = SmState::BarCheck;
                    if self.bk.q.val() == self.last_bar.val() {
                        self.n_state.next = SmState::Commit;
                    }
                }
                if (((self.w_wait.q.val() >> self.bw64.val()) & 1) != 0) & (bit_cast::<8, 4>(self.bw_bar.val()) == self.bk.q.val()) {
                    self.w_wait.d.next = self.w_wait.q.val() & !(bits::<64>(1) << self.bw64.val());
                    if ((self.w_red.q.val() >> self.bw64.val()) & 1) != 0 {
                        self.w_red.d.next = self.w_red.q.val() & !(bits::<64>(1) << self.bw64.val());
                        self.n_bw.next = self.bw.q.val();
                        self.n_bk.next = self.bk.q.val();
                        self.n_state.next = SmState::BarWb;
                    }
                }
            }
            SmState::BarWb => {
                // The reduction into d of warp bw's live threads, a beat per cycle; then the next warp.
                self.c_ctl.d.next = self.c_ctl.q.val() + 1;
                for l in 0..self._lanes {
                    self.rf[l].waddr.next = (bit_cast::<ADDR_BITS, 8>(self.bw.q.val()) << self.rf_wshift.val())
                        | (bit_cast::<ADDR_BITS, 8>(self.beat.q.val()) << self.rbits.val())
                        | bit_cast::<ADDR_BITS, 7>(self.bw_rd.val() & self.rmask.val());
                    self.rf[l].wdata.next = self.rf_tag.val() | bit_cast::<WORD_BITS, 64>(self.red_v.val());
                    self.rf[l].we.next = self.bw_live.val().get_bit(l) & (self.bw_rd.val() != operand::RZ);
                }
                self.n_beat.next = self.beat.q.val() + 1;
                if self.beat.q.val() == self.last_beat.val() {
                    self.n_beat.next = 0.into();
                    self.n_bw.next = self.bw.q.val() + 1;
                    self.n_state.next = SmState::BarRelease;
                    if self.bw.q.val() == self.last_w.val() {
                        self.n_bk.next = self.bk.q.val() + 1;
                        self.n_state.next = SmState::BarCheck;
                        if self.bk.q.val() == self.last_bar.val() {
                            self.n_state.next = SmState::Commit;
                        }
                    }
                }
            }
            SmState::Ctl2 => {
                // After SETPC(pc + 1): call pushes a frame, ret and exit walk the stack.
                self.c_ctl.d.next = self.c_ctl.q.val() + 1;
                self.n_state.next = SmState::CtlWait;
                if self.cls.val() == class::CALL {
                    self.stack.cmd.next = stack::CMD_PUSHCALL.into();
                    self.stack.start.next = self.exec.q.val() != 0;
                }
                if self.cls.val() == class::RET {
                    self.stack.cmd.next = stack::CMD_RET.into();
                    self.stack.start.next = true;
                }
                if self.cls.val() == class::EXIT {
                    self.stack.cmd.next = stack::CMD_EXIT.into();
                    self.stack.start.next = true;
                }
            }
            SmState::CtlWait => {
                self.c_ctl.d.next = self.c_ctl.q.val() + 1;
                if !self.stack.busy.val() {
                    self.n_state.next = SmState::Commit;
                    if self.stack.overflow.val() {
                        self.t_code.d.next = trap::STACK_OVERFLOW.into();
                        self.t_pc.d.next = self.pc.q.val();
                        self.n_state.next = SmState::Trapped;
                    } else if (self.cls.val() == class::EXIT) | ((self.cls.val() == class::RET) & self.stack.no_frame.val()) {
                        self.exited.we.next = true;
                        for s in 0..self._ctas {
                            if self.index[s].val() == self.cur_slot.val() {
                                self.s_live.d[s].next = self.c_live.val() - bit_cast::<32, 8>(self.popc.n.val());
                            }
                        }
                        // Fewer live threads may complete a barrier.
                        if self.w_wait.q.val() != 0 {
                            self.n_bk.next = 0.into();
                            self.n_state.next = SmState::BarCheck;
                        }
                    }
                }
            }
            // Commit: see below (it also runs in Exec's last cycle).
            SmState::Commit => {}
            SmState::Trapped => {
                self.n_pf_st.next = pf::IDLE.into();
                self.t_warp.d.next = self.cur.q.val();
                self.done_f.d.next = true;
                self.n_state.next = SmState::Idle;
            }
            _ => {
                self.n_state.next = SmState::Idle;
            }
        }
        // Overlapped front end: Sched, Top and Aux for another warp while this
        // instruction's beats run (an ALU instruction's last cycle commits, below).
        if self.pf_on.val() & (self.pf_st.q.val() == pf::IDLE) {
            self.n_pf_st.next = pf::NONE.into();
            // Not while a CTA waits for a free slot: Sched starts it after this instruction.
            if self.sched.any.val() & !(self.more.q.val() & self.f_any.val()) {
                self.n_pf_cur.next = self.sched.pick.val();
                self.last.d.next = self.sched.pick.val();
                if !self.stack.settled.val() {
                    self.stack.cmd.next = stack::CMD_TOP.into();
                    self.stack.start.next = true;
                    self.n_pf_st.next = pf::TOP.into();
                }
            }
        }
        // The fetch (below) fills the prefetch; a warp that has finished or
        // would trap is left to Sched and Top.
        if self.fe_go.val() {
            // The instruction memory takes the stack top's pc at this edge.
            self.n_fq_warp.next = self.fe_warp.val();
            self.fq_pc.d.next = self.stack.top_pc.val();
            self.fq_mask.d.next = self.stack.top_mask.val();
            self.fq_empty.d.next = self.stack.empty.val();
            if !self.fe_main.val() {
                self.n_pf_st.next = pf::WORD.into();
            }
        }
        if self.pf_st.q.val() == pf::WORD {
            self.n_pf_st.next = pf::NONE.into();
            if self.fe_ok.val() {
                self.icount.d.next = self.icount.q.val() + 1;
                self.pf_ir.d.next = self.imem.rdata.val();
                self.pf_pc.d.next = self.fq_pc.q.val();
                self.pf_active.d.next = self.fq_mask.q.val();
                self.pf_exec.d.next = self.fe_exec.val();
                self.n_pf_st.next = pf::AUX.into();
            }
        }
        self.pf_aux.next =
            (self.pf_st.q.val() == pf::AUX) | ((self.pf_st.q.val() == pf::WORD) & self.fe_ok.val() & (self.auxsel.val() == aux::NONE));
        if self.pf_aux.val() {
            // Aux's reads for the prefetched instruction.
            self.pf_paux.d.next = self.pop_val.val();
            self.pf_carry.d.next = self.carry.rdata.val();
            self.pf_exited.d.next = self.exited.rdata.val();
            self.pf_fast.d.next = self.pf_fast_now.val();
            self.pf_cnt.d.next = self.pf_fast_now.val();
            self.n_pf_st.next = pf::READY.into();
        }
        if (self.pf_st.q.val() == pf::READY) & self.pf_cnt.q.val() {
            // Aux's counts for an instruction that skips Aux.
            self.pf_cnt.d.next = false;
            self.c_issued.d.next = self.c_issued.q.val() + 1;
            self.c_threads.d.next = self.c_threads.q.val() + bit_cast::<64, 8>(self.popc.n.val());
        }
        // Fetch in Sched and Top: Top's checks (a finished warp leaves the live set).
        if self.fe_go.val() & self.fe_main.val() {
            self.n_state.next = SmState::Fetch;
        }
        if self.state.q.val() == SmState::Fetch {
            if self.fq_empty.q.val() {
                self.w_live.d.next = self.w_live.q.val() & !(bits::<64>(1) << self.fq_warp.q.val());
                self.n_state.next = SmState::Sched;
            } else if self.fq_pc.q.val() >= self.r_code_len.q.val() {
                self.t_code.d.next = trap::BAD_PC.into();
                self.t_pc.d.next = self.fq_pc.q.val();
                self.n_state.next = SmState::Trapped;
            } else if self.ibad.rdata.val().any() {
                self.t_code.d.next = trap::BAD_REGISTER.into();
                self.t_pc.d.next = self.fq_pc.q.val();
                self.n_state.next = SmState::Trapped;
            } else if self.icount.q.val() >= self.budget.val() {
                self.t_code.d.next = trap::RUNAWAY.into();
                self.t_pc.d.next = self.fq_pc.q.val();
                self.n_state.next = SmState::Trapped;
            } else {
                self.icount.d.next = self.icount.q.val() + 1;
                self.n_ir.next = self.imem.rdata.val();
                self.pc.d.next = self.fq_pc.q.val();
                self.active.d.next = self.fq_mask.q.val();
                self.exec.d.next = self.fe_exec.val();
                self.n_state.next = SmState::Aux;
            }
        }
        // A memory beat is done: the next one, or Commit after the last.
        if self.beat_end.val() {
            self.n_beat.next = self.beat.q.val() + 1;
            self.n_state.next = SmState::BeatAddr;
            if self.beat_last.val() {
                self.n_state.next = SmState::Commit;
            }
        }
        // Commit (predicates, carry, pc, retire pulse; `committing`, above),
        // then the prefetched instruction, if there is one, else Sched.
        if self.committing.val() {
            self.retire.next = true;
            self.n_state.next = SmState::Sched;
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
                self.pw_we.next = true;
                self.pw_data.next = self.new_pred.val();
                self.ret_pred_we.next = true;
                self.ret_pred_val.next = self.new_pred.val() & self.exec.q.val();
            }
            if self.cc_fin.val() & (self.cls.val() == class::ALU) {
                self.carry.we.next = true;
            }
            self.n_pf_st.next = pf::IDLE.into();
            if self.pf_st.q.val() == pf::READY {
                self.n_cur.next = self.pf_cur.q.val();
                self.n_ir.next = self.pf_ir.q.val();
                self.pc.d.next = self.pf_pc.q.val();
                self.active.d.next = self.pf_active.q.val();
                self.exec.d.next = self.pf_exec.q.val();
                self.n_state.next = SmState::Aux;
                if self.pf_fast.q.val() {
                    // Aux and Dispatch already done: straight to the first beat.
                    self.paux.d.next = self.pf_paux.q.val();
                    self.carry_in.d.next = self.pf_carry.q.val();
                    self.exited_old.d.next = self.pf_exited.q.val();
                    self.n_beat.next = 0.into();
                    self.n_phase.next = 0.into();
                    self.res_pred.d.next = 0.into();
                    self.res_carry.d.next = 0.into();
                    self.cc_we.d.next = false;
                    self.n_state.next = SmState::Exec;
                }
            }
        }
        // Dispatch by decode class, in Aux's cycle (Dispatch's after Aux2): resets the
        // per-instruction counters and picks the next state (it overrides Aux's).
        self.dispatching.next =
            ((self.state.q.val() == SmState::Aux) & (self.cls.val() != class::PLOP)) | (self.state.q.val() == SmState::Dispatch);
        if self.dispatching.val() {
            self.n_beat.next = 0.into();
            self.n_phase.next = 0.into();
            self.n_mt.next = 0.into();
            self.n_mk.next = 0.into();
            self.res_pred.d.next = 0.into();
            self.res_carry.d.next = 0.into();
            self.cc_we.d.next = false;
            self.n_state.next = SmState::Commit;
            if self.cls.val() == class::UNIMPL {
                self.t_code.d.next = trap::UNIMPLEMENTED.into();
                self.t_pc.d.next = self.pc.q.val();
                self.n_state.next = SmState::Trapped;
            }
            if (self.cls.val() == class::ALU) | (self.cls.val() == class::S2R) | (self.cls.val() == class::BALLOT) {
                self.n_state.next = SmState::Exec;
            }
            // ld, st, atom: a beat of lanes per request; syscalls: a thread per request.
            if (self.cls.val() == class::LD) | (self.cls.val() == class::ST) | (self.cls.val() == class::ATOM) {
                self.n_state.next = SmState::BeatAddr;
                // An FP atomic add without FP units is unimplemented (where a lane executes it).
                if (self.cls.val() == class::ATOM)
                    & (self.f_mod.val().get_bits::<4>(0) == 1)
                    & !self.has_fp.val()
                    & (self.exec.q.val() != 0)
                {
                    self.t_code.d.next = trap::UNIMPLEMENTED.into();
                    self.t_pc.d.next = self.pc.q.val();
                    self.n_state.next = SmState::Trapped;
                }
            }
            if self.cls.val() == class::SYS {
                self.n_state.next = SmState::MemAddr;
            }
            if self.cls.val() == class::BRA {
                if (self.f_rpc.val() == self.rpc_none.val()) & (self.exec.q.val() != 0) & (self.exec.q.val() != self.active.q.val()) {
                    self.t_code.d.next = trap::DIVERGENT_UNIFORM.into();
                    self.t_pc.d.next = self.pc.q.val();
                    self.n_state.next = SmState::Trapped;
                } else if !self.br_uni.val() {
                    self.stack.cmd.next = stack::CMD_BRANCH.into();
                    self.stack.pc.next = self.pc.q.val();
                    self.stack.start.next = true;
                    self.n_state.next = SmState::CtlWait;
                }
            }
            if (self.cls.val() == class::CALL) | (self.cls.val() == class::RET) | (self.cls.val() == class::EXIT) {
                self.stack.cmd.next = stack::CMD_SETPC.into();
                self.stack.start.next = true;
                self.n_state.next = SmState::Ctl2;
            }
            // bar, barred: the first executing thread's id and count (MemAddr), then arrive.
            if ((self.cls.val() == class::BAR) | (self.cls.val() == class::BARRED)) & (self.exec.q.val() != 0) {
                self.n_state.next = SmState::MemAddr;
            }
            if (self.cls.val() == class::TRAP) & (self.exec.q.val() != 0) {
                self.t_code.d.next = trap::BREAKPOINT.into();
                if self.f_op.val() == self.op_trap.val() {
                    self.t_code.d.next = trap::USER.into();
                }
                self.t_pc.d.next = self.pc.q.val();
                self.n_state.next = SmState::Trapped;
            }
            if self.is_shfl.val() {
                self.n_state.next = SmState::ShflGather;
            }
            if self.cls.val() == class::CALLI {
                // SETPC(pc + 1): the return address; then the targets.
                self.stack.cmd.next = stack::CMD_SETPC.into();
                self.stack.start.next = true;
                self.n_state.next = SmState::CalliGather;
            }
        }

        // ---- Next-state registers, and the register files' read addresses
        // for the next cycle: `rf_base` then, and the ports' register
        // numbers: a, b, c of the instruction; `rz` for s2r (the one
        // opcode of its class, which reads its lane's `tids` RAM instead, at
        // the same warp and beat); the upper halves of 64-bit operands in
        // phase 1; word mk of a memory access's data (the instruction only
        // changes on the way to Aux or Exec, so a memory state's class is
        // this cycle's).
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
            self.preds[b].we.next = self.pw_we.val() & (self.pw_idx.val() == self.index[b].val());
        }
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
