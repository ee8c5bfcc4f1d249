//! The hardware decoder's ROM: per opcode, the SM's execution class and
//! operand shape, computed from the ISA table (`heddle_isa::table`) so that
//! nothing is re-typed. The Verilog is a `case` generated from the same
//! function.

use crate::config::Units;
use crate::fdivsqrt::FpDivSqrt;
use crate::{alu, fpu};
use heddle_isa::table::{Format, Regs, Unit};
use heddle_isa::{Inst, ModKind, Opcode};
use rust_hdl::prelude::*;

/// Execution classes of the SM's control FSM.
pub mod class {
    /// Not implemented by this SM: traps.
    pub const UNIMPL: u64 = 0;
    pub const ALU: u64 = 1;
    pub const S2R: u64 = 2;
    pub const LD: u64 = 3;
    pub const ST: u64 = 4;
    pub const ATOM: u64 = 5;
    pub const BRA: u64 = 6;
    pub const CALL: u64 = 7;
    pub const RET: u64 = 8;
    pub const EXIT: u64 = 9;
    pub const BAR: u64 = 10;
    pub const PLOP: u64 = 11;
    pub const VOTE: u64 = 12;
    pub const BALLOT: u64 = 13;
    pub const NOP: u64 = 14;
    pub const TRAP: u64 = 15;
    /// A system call, serviced on the system-call port (`Sm::mem_req`).
    pub const SYS: u64 = 16;
    /// An indirect call: the warp's targets grouped, one call frame per group.
    pub const CALLI: u64 = 17;
    /// A barrier with a reduction.
    pub const BARRED: u64 = 18;
}

/// Which field packs the auxiliary predicate operand.
pub mod aux {
    pub const NONE: u64 = 0;
    /// `d[6:3]`: the `pc` operand of a compare.
    pub const D: u64 = 1;
    /// `mod[3:0]`: `sel`'s predicate.
    pub const MOD: u64 = 2;
    /// `a[3:0]`: plop's first operand, vote and ballot.
    pub const A: u64 = 3;
}

/// Register numbers the SM's logic compares against.
pub mod operand {
    /// The zero register: reads as zero, its writes are dropped.
    pub const RZ: u64 = heddle_isa::fields::RZ as u64;
}

/// The ISA's modifier values that the SM's logic compares against, as
/// constants `#[hdl_gen]` folds into the Verilog (`width::B64`): taken from
/// the value enums of `heddle_isa::values`, not re-typed.
pub mod modv {
    use heddle_isa::values::{AtomSpace, RedOp, Space, Width};

    /// `Width`: a load's or store's bytes and extension.
    pub mod width {
        use super::Width;
        pub const U8: u64 = Width::U8 as u64;
        pub const S8: u64 = Width::S8 as u64;
        pub const U16: u64 = Width::U16 as u64;
        pub const S16: u64 = Width::S16 as u64;
        pub const B32: u64 = Width::B32 as u64;
        pub const B64: u64 = Width::B64 as u64;
        pub const B128: u64 = Width::B128 as u64;
    }

    /// `Space`: the state space of an address (`GEN`: generic).
    pub mod space {
        use super::Space;
        pub const GEN: u64 = Space::Gen as u64;
        pub const GLOBAL: u64 = Space::Global as u64;
        pub const SHARED: u64 = Space::Shared as u64;
        pub const LOCAL: u64 = Space::Local as u64;
        pub const CONST: u64 = Space::Const as u64;
        pub const PARAM: u64 = Space::Param as u64;
    }

    /// `AtomSpace` values are `Space`'s first three.
    const _: () = assert!(AtomSpace::Shared as u64 == Space::Shared as u64 && AtomSpace::Gen as u64 == Space::Gen as u64);

    /// `RedOp`: a `barred` reduction.
    pub mod red {
        use super::RedOp;
        pub const POPC: u64 = RedOp::Popc as u64;
        pub const AND: u64 = RedOp::And as u64;
        pub const OR: u64 = RedOp::Or as u64;
    }
}

/// ROM word width.
pub const WORD_BITS: usize = 19;

/// One ROM word: class[4:0], wide_a[5], wide_b[6], d_words[8:7], setp[9], aux[11:10],
/// fp[12] (the lane's FPU, not its integer ALU, computes the result),
/// ity_d[13] (a 64-bit `IntTy` makes `d` a pair), shfl[14] (the warp shuffle:
/// gather then select), ity_a[15] (a 64-bit `IntTy` makes `a` a pair),
/// sfu[16] (the special-function unit computes the result), shared[17]
/// (a unit shared by the lanes computes the result, lane by lane: the
/// divider, the bit unit, the shared FP unit, the FP division and square
/// root or the SFU), iter[18] (that unit is iterative: the divider, the
/// FP division and square root, or the SFU).
/// `units`: the SM's FP32 (and SFU) units, binary64 units and integer
/// dividers (`SmConfig::units`); opcodes of a missing unit decode as not
/// implemented.
pub fn rom_word(op: Opcode, units: Units) -> u64 {
    let info = op.info();
    let fp = (units.fp32 && fpu::ops32().any(|o| o == op)) || (units.fp64 && fpu::ops64().any(|o| o == op));
    let sfu = units.fp32 && info.unit == Unit::Sfu;
    let int = alu::ops().any(|o| o == op)
        && (units.int_div || !alu::DIV_OPS.contains(&op))
        && (units.mul64 || op != Opcode::Mul64)
        && (units.shift64 || !matches!(op, Opcode::Shl64 | Opcode::Shr64));
    let class = match op {
        _ if int || fp || sfu => class::ALU,
        Opcode::S2r => class::S2R,
        Opcode::Shfl => class::ALU,
        Opcode::Ld => class::LD,
        Opcode::St => class::ST,
        Opcode::Atom => class::ATOM,
        Opcode::Bra => class::BRA,
        Opcode::Call => class::CALL,
        Opcode::Ret => class::RET,
        Opcode::Exit => class::EXIT,
        Opcode::Bar => class::BAR,
        Opcode::Plop => class::PLOP,
        Opcode::Vote => class::VOTE,
        Opcode::Ballot => class::BALLOT,
        Opcode::Nop | Opcode::Fence => class::NOP,
        Opcode::Trap | Opcode::Brkpt => class::TRAP,
        Opcode::Syscall => class::SYS,
        Opcode::Calli => class::CALLI,
        Opcode::Barred => class::BARRED,
        _ => class::UNIMPL,
    };
    let setp = info.format == Format::SetP;
    let (wide_a, wide_b, d_words) = match info.regs {
        Regs::AllPairs => (true, true, if setp { 0 } else { 2 }),
        Regs::PairDA => (true, false, 2),
        Regs::PairD | Regs::PairDIntTyA => (false, false, 2),
        Regs::PairA | Regs::PairAIntTyD => (true, false, 1),
        _ => (false, false, if setp { 0 } else { 1 }),
    };
    let ity_d = matches!(info.regs, Regs::IntTyD | Regs::PairAIntTyD);
    let ity_a = matches!(info.regs, Regs::IntTyA | Regs::PairDIntTyA);
    let auxsel = match info.format {
        Format::SetP => aux::D,
        Format::Sel => aux::MOD,
        Format::Plop | Format::Vote | Format::Ballot | Format::BarRed => aux::A,
        _ => aux::NONE,
    };
    let shfl = op == Opcode::Shfl;
    let int_div = units.int_div && alu::DIV_OPS.contains(&op);
    let fp_iter = fp && FpDivSqrt::OPS.contains(&op);
    let bits = int && alu::BIT_OPS.contains(&op);
    let shared = int_div || bits || sfu || (fp && fpu::shared(op));
    class
        | (wide_a as u64) << 5
        | (wide_b as u64) << 6
        | (d_words as u64) << 7
        | (setp as u64) << 9
        | auxsel << 10
        | (fp as u64) << 12
        | (ity_d as u64) << 13
        | (shfl as u64) << 14
        | (ity_a as u64) << 15
        | (sfu as u64) << 16
        | (shared as u64) << 17
        | ((int_div || fp_iter || sfu) as u64) << 18
}

/// The optional unit (the `SmConfig` field) an instruction needs and
/// `units` lacks, if any: its opcode decodes as not implemented, or it is
/// an FP atomic add ([`fp_atom`]) whose width's FP unit is missing (the
/// SM adds on it). The golden model traps on it as the SM does.
pub fn missing_unit(i: &Inst, units: Units) -> Option<&'static str> {
    match fp_atom(i) {
        Some(false) => (!units.fp32).then_some("fp32"),
        Some(true) => (!units.fp64).then_some("fp64"),
        None => missing_op_unit(i.op, units),
    }
}

/// The optional unit an opcode needs and `units` lacks, if any.
pub fn missing_op_unit(op: Opcode, units: Units) -> Option<&'static str> {
    if rom_word(op, units) & 0x1f != class::UNIMPL {
        return None;
    }
    Some(if alu::DIV_OPS.contains(&op) {
        "int_div"
    } else if op == Opcode::Mul64 {
        "mul64"
    } else if matches!(op, Opcode::Shl64 | Opcode::Shr64) {
        "shift64"
    } else if fpu::ops64().any(|o| o == op) {
        "fp64"
    } else {
        "fp32"
    })
}

/// An FP atomic add (`atom.fadd`): `Some(true)` for binary64, `Some(false)`
/// for binary32.
pub fn fp_atom(i: &Inst) -> Option<bool> {
    (i.op == Opcode::Atom && i.modifier(ModKind::AtomOp) == 1).then(|| i.modifier(ModKind::B64) == 1)
}

#[derive(LogicBlock, Default)]
pub struct DecodeRom {
    pub op: Signal<In, Bits<7>>,
    pub word: Signal<Out, Bits<WORD_BITS>>,
    _units: Units,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl DecodeRom {
    pub fn new(units: Units) -> DecodeRom {
        DecodeRom { _units: units, ..Default::default() }
    }
}

impl Logic for DecodeRom {
    fn update(&mut self) {
        let w = Opcode::from_code(self.op.val().index() as u8).map_or(0, |op| rom_word(op, self._units));
        self.word.next = w.into();
    }
    fn connect(&mut self) {
        self.word.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut s = String::from("always @(*) begin\n    case (op)\n");
        for &op in Opcode::ALL {
            let w = rom_word(op, self._units);
            s += &format!("        7'h{:02x}: word = {WORD_BITS}'h{w:05x}; // {}\n", op as u8, op.mnemonic());
        }
        s += &format!("        default: word = {WORD_BITS}'h00000;\n    endcase\nend");
        Verilog::Custom(s)
    }
}
