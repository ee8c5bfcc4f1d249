//! `SmConsts`: the SM's constants, as `SmConfig` and the ISA table set
//! them (lane and warp sizes, register-file address shifts, bus word
//! masks, opcodes the control compares against). In the Verilog they are
//! the `localparam`s `consts$name` of the SM's module: a namespace of the
//! module, not a child (its `Block` has nothing to update).

use super::*;

namespace! {
    /// The SM's constants (see the module doc).
    pub(super) struct SmConsts {
        lanes: Constant<Bits<8>>,
        ws: Constant<Bits<8>>,
        log_l: Constant<Bits<8>>,
        /// The shuffle's window (`_count.sh_win` entries of sbuf a cycle): its
        /// index bits, their mask, and the last window.
        log_win: Constant<Bits<8>>,
        lm_win: Constant<Bits<8>>,
        last_win: Constant<Bits<8>>,
        /// The window is the whole warp (one window).
        sh_whole: Constant<Bit>,
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
        last_bar: Constant<Bits<8>>,
        full: Constant<Bits<64>>,
        /// The SM's warps, a bit each: what the per-warp masks' writes keep.
        all_warps: Constant<Bits<64>>,
        budget: Constant<Bits<64>>,
        rpc_none: Constant<Bits<32>>,
        op_trap: Constant<Bits<7>>,
        op_s2r: Constant<Bits<7>>,
        index: Vec<Constant<Bits<8>>>,
        index64: Vec<Constant<Bits<64>>>,
        lo32: Constant<Bits<64>>,
        /// `full`'s low word.
        full32: Constant<Bits<32>>,
        /// Planted bugs ([`crate::plant`]): bit `Plant::bit()` set when planted.
        plant: Constant<Bits<32>>,
        /// `warp_size - 1`: a thread's lane bits.
        lm32: Constant<Bits<32>>,
        lm8: Constant<Bits<8>>,
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
        sx8: Constant<Bits<64>>,
        sx16: Constant<Bits<64>>,
        /// `1 << l` per lane; the shared window's bounds; log2 of a shared-memory
        /// row's bytes, and that many bytes less one.
        lane_bit: Vec<Constant<Bits<32>>>,
        sh_win: Constant<Bits<32>>,
        lo_win: Constant<Bits<32>>,
        row_log: Constant<Bits<8>>,
        row_round: Constant<Bits<32>>,
        /// `fp32` and `fp64`: an atomic FP add of a width without its unit traps.
        has_fp32: Constant<Bit>,
        has_fp64: Constant<Bit>,
        /// A shared atomic's FP add: `fadd.rn.ftz` on lane 0's unit, `dadd.rn` on the shared one.
        op_fadd: Constant<Bits<7>>,
        op_dadd: Constant<Bits<7>>,
        mod_ftz: Constant<Bits<6>>,
    }
}

impl SmConsts {
    pub(super) fn new(cfg: &SmConfig, sh_win: usize) -> SmConsts {
        let (lanes, ws) = (cfg.lanes as usize, cfg.warp_size as usize);
        let beats = cfg.beats() as usize;
        let rbits = cfg.reg_bits();
        let full = ones(cfg.warp_size);
        let c8 = |v: u64| Constant::new(v.into());
        SmConsts {
            lanes: c8(lanes as u64),
            ws: c8(cfg.warp_size as u64),
            log_l: c8(lanes.trailing_zeros() as u64),
            log_win: c8(sh_win.trailing_zeros() as u64),
            lm_win: c8(sh_win as u64 - 1),
            last_win: c8((ws / sh_win) as u64 - 1),
            sh_whole: Constant::new(sh_win == ws),
            log_ws: c8(cfg.warp_size.trailing_zeros() as u64),
            last_beat: c8(beats as u64 - 1),
            rf_wshift: c8(beats.trailing_zeros() as u64 + rbits as u64),
            rbits: c8(rbits as u64),
            rmask: Constant::new(((1u64 << rbits) - 1).into()),
            beat_bits: c8(beats.trailing_zeros() as u64),
            data_bits: c8(DATA_BITS as u64),
            rf_warp_last: Constant::new((((beats as u64) << rbits) - 1).into()),
            epoch_last: Constant::new(((1u64 << EPOCH_BITS) - 1).into()),
            n_bars: Constant::new((BARRIERS as u64).into()),
            last_bar: c8(BARRIERS as u64 - 1),
            full: Constant::new(full.into()),
            full32: Constant::new((full & 0xffff_ffff).into()),
            all_warps: Constant::new(ones(cfg.warps).into()),
            budget: Constant::new(cfg.instruction_budget.into()),
            rpc_none: Constant::new((RPC_NONE as u64).into()),
            op_trap: Constant::new((Opcode::Trap as u64).into()),
            op_s2r: Constant::new((Opcode::S2r as u64).into()),
            index: (0..64u64).map(|i| Constant::new(i.into())).collect(),
            index64: (0..64u64).map(|i| Constant::new(i.into())).collect(),
            lo32: Constant::new(0xffff_ffffu64.into()),
            plant: Constant::new(crate::plant::mask().into()),
            lm32: Constant::new((cfg.warp_size as u64 - 1).into()),
            lm8: Constant::new((cfg.warp_size as u64 - 1).into()),
            lanes_mask: Constant::new(ones(cfg.lanes).into()),
            wbytes: Constant::new((cfg.bus_bits as u64 / 8).into()),
            wlog: Constant::new(((cfg.bus_bits / 8).trailing_zeros() as u64).into()),
            walign: Constant::new((!(cfg.bus_bits as u64 / 8 - 1) & 0xffff_ffff).into()),
            wm_depth: c8(BUS_DEPTH as u64),
            wm_qmask: c8(BUS_DEPTH as u64 - 1),
            sx8: Constant::new(0xffff_ff00u64.into()),
            sx16: Constant::new(0xffff_0000u64.into()),
            lane_bit: (0..lanes).map(|l| Constant::new((1u64 << l).into())).collect(),
            sh_win: Constant::new((SHARED_WINDOW as u64).into()),
            lo_win: Constant::new((LOCAL_WINDOW as u64).into()),
            row_log: c8((4 * cfg.shared_banks).trailing_zeros() as u64),
            row_round: Constant::new((4 * cfg.shared_banks as u64 - 1).into()),
            has_fp32: Constant::new(cfg.fp32),
            has_fp64: Constant::new(cfg.fp64),
            op_fadd: Constant::new((Opcode::Fadd as u64).into()),
            op_dadd: Constant::new((Opcode::Dadd as u64).into()),
            mod_ftz: Constant::new((1u64 << heddle_isa::table::mod_info(heddle_isa::ModKind::Ftz).lo).into()),
        }
    }
}

/// How many of each replicated thing the SM has (loop bounds of its logic,
/// fixed when the Verilog is written).
pub(super) struct Counts {
    pub lanes: usize,
    /// Entries of sbuf ShflSelect reads a cycle: `lanes` from 4 lanes (a
    /// 1-of-`lanes` multiplexer per lane, `warp_size / lanes` cycles a
    /// beat), else the whole warp (one multiplexer costs what the windows'
    /// shared one does).
    pub sh_win: usize,
    /// Lanes with an FP unit: all of them with `fp32`, else none.
    pub fpus: usize,
    /// Shared FP units: one with `fp32` or `fp64`, else none.
    pub fp_shared: usize,
    /// FP division and square root units: one with `fp32` or `fp64`, else none.
    pub fds: usize,
    /// Special-function units: one with `fp32`, else none.
    pub sfus: usize,
    /// Dividers: one with `int_div`, else none.
    pub divs: usize,
    /// 32-bit words in a bus word; bus transfers kept outstanding.
    pub words: usize,
    pub depth: usize,
    /// Threads of a warp, CTA slots, warp slots.
    pub ws: usize,
    pub ctas: usize,
    pub warps: usize,
    /// Beats per warp instruction (`warp_size / lanes`).
    pub beats: usize,
}

impl Counts {
    pub(super) fn new(cfg: &SmConfig, sh_win: usize) -> Counts {
        let lanes = cfg.lanes as usize;
        let fp = cfg.fp32 || cfg.fp64;
        Counts {
            lanes,
            sh_win,
            fpus: if cfg.fp32 { lanes } else { 0 },
            fp_shared: fp as usize,
            fds: fp as usize,
            sfus: cfg.fp32 as usize,
            divs: cfg.int_div as usize,
            words: cfg.bus_bits as usize / 32,
            depth: BUS_DEPTH,
            ws: cfg.warp_size as usize,
            ctas: cfg.ctas as usize,
            warps: cfg.warps as usize,
            beats: (cfg.warp_size / cfg.lanes) as usize,
        }
    }
}
