//! Machine IR: Heddle ISA instructions whose registers are still virtual.
//!
//! A virtual register (`VReg`) is one 32-bit register or an aligned pair;
//! `Loc::Half` names one word of a pair (or of a wider group: system-call
//! arguments). `Loc::Phys(SP)` is the stack pointer, wherever it ends up.

use heddle_isa::{Inst, Opcode};

pub type VReg = u32;
pub type Label = u32;

/// The stack pointer as the machine IR names it: a placeholder that the
/// emitter maps to the register above every function's registers (see the
/// register layout in [`super`]). No allocated register is ever 126 when a
/// function uses the stack pointer, because the budget then leaves it out.
pub const SP: u8 = 126;
/// The most registers an allocation may use (r0..r126; `rz` is 127).
pub const SPILL_LIMIT: u8 = heddle_isa::fields::NUM_REGS;
/// Predicate registers used by the compiler (PTX predicates live in 32-bit registers).
pub const PRED: u8 = 6;
pub const PRED2: u8 = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loc {
    None,
    /// A whole virtual register (single or pair).
    R(VReg),
    /// Word k of a pair.
    Half(VReg, u8),
    Phys(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Src {
    Loc(Loc),
    Imm(u32),
}

/// One machine instruction: an ISA instruction template plus virtual operands.
#[derive(Debug, Clone)]
pub struct MI {
    /// Opcode, modifiers, guard and raw fields that are not registers (predicate
    /// operands, special-register numbers, immediates).
    pub inst: Inst,
    pub d: Loc,
    pub a: Loc,
    pub b: Src,
    pub c: Loc,
    /// Branch or call target.
    pub target: Option<Label>,
    /// Source position (line, col) of the PTX instruction this came from.
    pub line: Option<(u32, u32)>,
    /// A pseudo-instruction that only starts a new value of a vreg (for liveness).
    pub defines: Option<VReg>,
    /// This instruction marks a label position (pseudo).
    pub label: Option<Label>,
}

impl MI {
    pub fn new(op: Opcode) -> MI {
        MI {
            inst: Inst::new(op),
            d: Loc::None,
            a: Loc::None,
            b: Src::Loc(Loc::None),
            c: Loc::None,
            target: None,
            line: None,
            defines: None,
            label: None,
        }
    }
    pub fn is_pseudo(&self) -> bool {
        self.defines.is_some() || self.label.is_some()
    }
}
