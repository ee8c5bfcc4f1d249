//! Machine IR: Heddle ISA instructions whose registers are still virtual.
//!
//! A virtual register (`VReg`) is one 32-bit register or an aligned pair;
//! `Loc::Half` names one word of a pair. Physical registers from [`SPILL`]
//! up are reserved: scratch for spill code and system calls, and the stack
//! pointer.

use heddle_isa::{Inst, Opcode};

pub type VReg = u32;
pub type Label = u32;

/// Registers r0..r103 are allocated; r104..r111 hold spilled operands
/// (a, b, c, d: a pair each); r112..r123 carry system-call arguments and
/// results; r126 is the stack pointer.
pub const SPILL: u8 = 104;
pub const FIRST_SCRATCH: u8 = 112;
pub const SP: u8 = 126;
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
