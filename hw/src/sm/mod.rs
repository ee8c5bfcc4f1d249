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
//! External memory is behind a Wishbone B4 pipelined bus (`wb_*`, see
//! the module doc of `bus`); system calls go on a request/response port (`mem_req`)
//! serviced within the cycle. The RTL engine in `heddle-sim` implements
//! both (the memory model sits behind them). Opcodes whose decode class is
//! `UNIMPL` (FP32 and SFU opcodes without `SmConfig::fp32`, binary64 ones
//! without `SmConfig::fp64`) end the launch with trap code
//! [`trap::UNIMPLEMENTED`], as does an FP atomic add (`atom.fadd`) without
//! the unit of its width (`decode::missing_unit`): shared memory's atomics
//! add on lane 0's binary32 unit or the shared binary64 one.
//!
//! Files: `update()` is one function written across this module's files
//! as parts (`#[hdl_part]` methods, inlined where they are called by
//! `#[hdl_gen(parts(...))]`): `instr` (decode), `cta` (launch and CTA
//! slots), `front` (predicates, Sched to Aux, the prefetch, Commit,
//! dispatch, defaults), `lanes` (register files, operands, Exec), `access`
//! (memory instructions), `bus` (the bus master), `ctl` (shuffles,
//! indirect calls, barriers, stack commands), `ports` (output ports) and
//! `reads` (the next cycle's registers and memory reads). This file keeps
//! the state, `update` the state dispatch; `codes` has the SM's codes,
//! `consts` its constants and counts, `monitor` what the engines read
//! besides ports, `new` the constructor. Groups of local signals
//! (`namespace!`, named in `#[hdl_gen(locals(...))]`) sit beside the
//! parts that use them: `n` (next-state values, `reads`), `pw` (`front`),
//! `shfl` (`ctl`), `wm` (`bus`).
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

mod access;
mod bus;
mod codes;
mod consts;
mod cta;
mod ctl;
mod front;
mod instr;
mod lanes;
mod monitor;
mod new;
mod ports;
mod reads;
mod update;

use crate::alu::IntAlu;
use crate::bits::{ones, Gather, Popc64};
use crate::coalesce::Coalescer;
use crate::decode::modv::{red, space, width};
use crate::decode::{aux, class, operand, DecodeRom, WORD_BITS as ROM_BITS};
use crate::div::Divider;
use crate::fdivsqrt::FpDivSqrt;
use crate::fpu::Fpu;
use crate::pcache::ParamCache;
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

use bus::BusCycle;
use codes::pf;
pub use codes::{host, mem, trap, SmState, BUS_DEPTH, SM_STATES};
use consts::{Counts, SmConsts};
use ctl::ShflLanes;
use front::PredWrite;
pub use monitor::{lane_writes, LaneWrite};
use reads::NextState;

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
    /// wide; its transfers, tags and `ERR` rule are in the module doc of `bus`.
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
    /// A load's or store's beats went without waiting (`fast`), met an
    /// `ERR`, and start again, waiting: the register writes and accesses the
    /// monitors reported for the instruction so far are void.
    pub mem_redo: Signal<Out, Bit>,
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
    /// The epoch of `cur`'s warp slot, registered (the register words read
    /// this cycle are `cur`'s): the operands' epoch compare starts at a
    /// flip-flop. `ep_step`: `InitWarp` steps `init_w`'s epoch this cycle.
    rd_epoch: Reg<Bits<EPOCH_BITS>>,
    ep_step: Signal<Local, Bit>,
    init_w: Reg<Bits<8>>,
    init_k: Reg<Bits<4>>,
    rem: Reg<Bits<32>>,
    init_t: Reg<Bits<16>>,
    tid_x: Reg<Bits<11>>,
    tid_y: Reg<Bits<11>>,
    tid_z: Reg<Bits<7>>,
    /// `InitThread` a beat a cycle: lane 0's y, z after an x wrap; each
    /// lane's thread's x and packed tid.
    it_beat: Signal<Local, Bit>,
    it_addr: Signal<Local, Bits<ADDR_BITS>>,
    it_y: Signal<Local, Bits<11>>,
    it_z: Signal<Local, Bits<7>>,
    it_x: Vec<Signal<Local, Bits<11>>>,
    it_tid: Vec<Signal<Local, Bits<32>>>,
    w_live: Reg<Bits<64>>,
    w_wait: Reg<Bits<64>>,
    last: Reg<Bits<6>>,
    cur: Reg<Bits<6>>,
    pc: Reg<Bits<32>>,
    ir: Reg<Bits<64>>,
    /// `ir`'s decode ROM word, taken with it (from `pf_rom`): the
    /// instruction's class and shape come from a register, not through
    /// the ROM in the cycle that uses them.
    dw: Reg<Bits<ROM_BITS>>,
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
    /// Per lane: its shared-memory byte offset for `SmemAcc`'s passes (see `smem_lanes`).
    sadr: Regs<Bits<32>>,
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
    /// The warp's shuffle source values, one per thread; and each thread's
    /// source thread, computed as its beat is gathered, and whether that
    /// source is valid (else the thread reads its own value).
    sbuf: Regs<Bits<32>>,
    sh_from: Regs<Bits<8>>,
    sh_from_ok: Regs<Bit>,
    /// ShflSelect reads sbuf a window of entries (`sh_k`) per cycle: each
    /// lane keeps its value (`sh_acc`) from the window that holds its source.
    sh_k: Reg<Bits<8>>,
    sh_acc: Regs<Bits<32>>,
    /// An indirect call's target under test (`cl_tgt`), loaded a cycle
    /// ahead from the one-hot selection `cl_top` (then `cl_hot`); in
    /// CalliLead, `cl_ok` once the first target is loaded.
    cl_tgt: Reg<Bits<32>>,
    cl_hot: Reg<Bits<64>>,
    cl_ok: Reg<Bit>,
    /// Shared memory; in SmemAcc, whether the current word pass has
    /// started; the beat's shared lanes and a pulse when they are done (the
    /// monitor); the bank-conflict counter.
    smem: SharedMem,
    sm_pass: Reg<Bit>,
    sm_done: Reg<Bit>,
    sm_lanes: Reg<Bits<32>>,
    c_conf: Reg<Bits<64>>,
    /// A shared load of one word per thread, its beats pipelined (`sp_*` in
    /// `access`): a beat's lanes, write-back address and being the last.
    spipe: Reg<Bit>,
    sp_mask: Reg<Bits<32>>,
    sp_base: Reg<Bits<ADDR_BITS>>,
    sp_fin: Reg<Bit>,
    sp_ok: Signal<Local, Bit>,
    /// Kernel parameters kept on chip (`pcache`): the load's words are held
    /// (`BeatAddr` takes them); it may be answered or fill.
    pcache: ParamCache,
    phit: Reg<Bit>,
    pk_look: Signal<Local, Bit>,
    sp_end: Signal<Local, Bit>,
    sh_lanes: Signal<Local, Bits<32>>,
    sp_word: Vec<Signal<Local, Bits<64>>>,
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
    /// A store, or a load of at most 32 bits per thread, in the global,
    /// constant or parameter space goes on to its next beat once the beat's
    /// transfers are issued (`fast_queue` in `access`): the answers come
    /// back while later beats issue.
    fast: Reg<Bit>,
    /// Per queue entry, the beat of the transfer.
    wm_qbeat: Regs<Bits<8>>,
    /// Per lane, a RAM of a word per beat: each thread's address in the
    /// fast instruction (its answer is steered and reported with it), read
    /// at the queue head's beat (`n_hbeat`, a cycle ahead); and a 64-bit
    /// load's second words, which `FastHi` writes, read at the next beat.
    fa_adr: Vec<SyncRam<32>>,
    fa_hw: Vec<SyncRam<32>>,
    /// The answer's beat, and that beat's first thread; this beat's
    /// transfers are all issued; the instruction may go fast; a fast one
    /// gives up (an `ERR`): it drains the bus, then starts again waiting.
    wm_hbeat: Signal<Local, Bits<8>>,
    fa_hbase: Signal<Local, Bits<8>>,
    fa_issued: Signal<Local, Bit>,
    fa_ok: Signal<Local, Bit>,
    /// The load's destination (or, 64 bits, its second word) is one of its
    /// address operands.
    fa_hit: Signal<Local, Bit>,
    /// A fast load of one word per thread (its answers complete it).
    fa_one: Signal<Local, Bit>,
    fa_abort: Signal<Local, Bit>,
    /// In a state of a memory instruction's beats (or draining); a fast
    /// load's answer this cycle; the answering beat's first thread (64
    /// bits); the answering lanes' addresses.
    fa_beats: Signal<Local, Bit>,
    fa_load: Signal<Local, Bit>,
    fa_ladr: Vec<Signal<Local, Bits<32>>>,
    /// In `FastHi`: each lane's second word.
    fa_hi: Vec<Signal<Local, Bits<32>>>,
    /// A fast load's answer per lane, extended as the load's width says.
    fa_word: Vec<Signal<Local, Bits<64>>>,
    /// The bus master's values of this cycle (`bus`).
    wm: BusCycle,
    /// `BeatReq` is done with the bus: `wm.fin`, or a pipelined shared load's `wm.quiet`.
    beat_fin: Signal<Local, Bit>,

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
    /// A shuffle's source lanes and values (`ctl`).
    shfl: ShflLanes,
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
    /// Next-state values of registers and the next cycle's read addresses (`reads`).
    n: NextState,
    /// A predicate register write.
    pw: PredWrite,
    /// The predicate register read this cycle (7: none; p7 reads as all ones).
    pr_idx: Signal<Local, Bits<8>>,
    beat_exec: Signal<Local, Bits<64>>,
    beat_carry: Signal<Local, Bits<64>>,
    beat_paux: Signal<Local, Bits<64>>,
    va: Vec<Signal<Local, Bits<64>>>,
    /// A lane's store data as two 64-bit halves: words 1:0 and 3:2.
    lw_lo: Vec<Signal<Local, Bits<64>>>,
    lw_hi: Vec<Signal<Local, Bits<64>>>,
    vb: Vec<Signal<Local, Bits<64>>>,
    vc: Vec<Signal<Local, Bits<64>>>,
    s2r: Vec<Signal<Local, Bits<32>>>,
    /// The special register's value when the warp shares it.
    s2u: Signal<Local, Bits<32>>,
    /// The thread's lane bit (`%lanemask_eq`) and the bits below it.
    s_eq: Vec<Signal<Local, Bits<32>>>,
    s_lt: Vec<Signal<Local, Bits<32>>>,
    imm64: Signal<Local, Bits<64>>,
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
    /// The CTA slots with a live warp, a bit each.
    slot_busy: Signal<Local, Bits<64>>,
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
    /// Per lane: the integer ALU, but for `alu::BIT_OPS`, which the one
    /// bit unit computes, a lane a cycle.
    alus: Vec<IntAlu>,
    bitu: IntAlu,
    /// With `SmConfig::int_div`: the iterative divider, one for the lanes.
    divs: Vec<Divider>,
    /// Per lane (with `fp32`): the FP unit for binary32's arithmetic
    /// ([`crate::fpu::lane_ops`]).
    fpus: Vec<Fpu>,
    /// With `fp32` or `fp64`: an FP unit, one for the lanes, for binary32's
    /// conversions and binary64 ([`crate::fpu::shared_ops`]).
    fp_shared: Vec<Fpu>,
    /// With `fp32` or `fp64`: the iterative FP division and square root,
    /// one for the lanes.
    fds: Vec<FpDivSqrt>,
    /// With `fp32`: the special-function unit, one for the lanes.
    sfus: Vec<Sfu>,
    sched: WarpPick,
    /// The prefetched instruction's decode, and in Fetch the fetched one's (for `dw`).
    pf_rom: DecodeRom,
    popc: Popc64,
    coal: Coalescer,
    /// `barred`: the live threads whose predicate holds.
    popc2: Popc64,
    gp: Gather,
    gc: Gather,
    /// An indirect call's group: the executing threads whose target is `cl_tgt`.
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
    /// A load's last write-back cycle in `BeatWb` or `FastHi` (not a pipelined shared load's).
    commit_wb: Signal<Local, Bit>,
    /// A memory instruction's beat is done (see the block after the state match).
    beat_end: Signal<Local, Bit>,
    commit_st: Signal<Local, Bit>,
    /// The last beat of a store, an atomic into rz or a fast one-word load.
    st_last: Signal<Local, Bit>,
    /// An instruction's beats run (`Exec` and the memory beats): the
    /// prefetch may start (`pf_on`).
    in_beats: Signal<Local, Bit>,
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
    /// The word `pf_rom` decodes: `pf_ir`, or the one being read (`pf_st` 5, and in Fetch).
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
    cl_val: Signal<Local, Bits<32>>,
    /// The thread whose target `cl_val` is, one-hot: loaded into `cl_hot`.
    cl_top: Signal<Local, Bits<64>>,
    cl_dup: Signal<Local, Bit>,

    consts: SmConsts,
    /// How many of each replicated thing the configuration builds.
    _count: Counts,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}
