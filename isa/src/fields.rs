//! Bit layout of the 64-bit instruction word.
//!
//! Every field sits at a fixed position in every instruction, so the hardware
//! decoder slices bits without looking at the opcode first:
//!
//! ```text
//!  63                32 31    26 25   19 18   12 11 10   8  7  6      0
//! +--------------------+--------+-------+-------+--+------+--+--------+
//! | imm32       (I=1)  |  mod   |   a   |   d   |n | pred |I | opcode |
//! | ext18 | c  | b (I=0)        |       |       |  |      |  |        |
//! +--------------------+--------+-------+-------+--+------+--+--------+
//!   I=0: b = [38:32], c = [45:39], ext = [63:46]
//!   branches: reconvergence pc = [31:12] (the d, a and mod fields together)
//! ```
//!
//! In immediate form (I=1) the `c` operand reads as `rz` and the `ext` bits
//! read as zero; instructions that need `c` or an `ext` modifier use the
//! register form.

/// A bit field of the instruction word: `width` bits starting at `lo`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    pub lo: u32,
    pub width: u32,
}

impl Field {
    pub const fn mask(self) -> u64 {
        ((1u64 << self.width) - 1) << self.lo
    }
    pub const fn get(self, word: u64) -> u64 {
        (word >> self.lo) & ((1u64 << self.width) - 1)
    }
    /// Places `value` (which must fit) into the field.
    pub const fn put(self, value: u64) -> u64 {
        (value & ((1u64 << self.width) - 1)) << self.lo
    }
}

pub const OPCODE: Field = Field { lo: 0, width: 7 };
pub const IMM_FLAG: Field = Field { lo: 7, width: 1 };
pub const GUARD_PRED: Field = Field { lo: 8, width: 3 };
pub const GUARD_NEG: Field = Field { lo: 11, width: 1 };
pub const D: Field = Field { lo: 12, width: 7 };
pub const A: Field = Field { lo: 19, width: 7 };
pub const MOD: Field = Field { lo: 26, width: 6 };
pub const IMM: Field = Field { lo: 32, width: 32 };
pub const B: Field = Field { lo: 32, width: 7 };
pub const C: Field = Field { lo: 39, width: 7 };
pub const EXT: Field = Field { lo: 46, width: 18 };
/// Reconvergence pc of a branch (bits of d, a and mod together).
pub const RPC: Field = Field { lo: 12, width: 20 };

/// Every field, for the documentation and the hardware decoder.
pub const ALL: &[(&str, Field)] = &[
    ("opcode", OPCODE),
    ("I", IMM_FLAG),
    ("pred", GUARD_PRED),
    ("n", GUARD_NEG),
    ("d", D),
    ("a", A),
    ("mod", MOD),
    ("imm", IMM),
    ("b", B),
    ("c", C),
    ("ext", EXT),
    ("rpc", RPC),
];

/// The register that reads as zero and discards writes.
pub const RZ: u8 = 127;
/// Number of addressable general registers (r0..r126).
pub const NUM_REGS: u8 = 127;
/// The constant-true predicate.
pub const PT: u8 = 7;
/// CTA barriers per CTA: `bar` and `barred` ids are 0..BARRIERS.
pub const BARRIERS: usize = 16;

/// Reconvergence pc meaning "none": the branch is uniform (`bra.uni`), or
/// the bottom of a warp's reconvergence stack.
pub const RPC_NONE: u32 = (1 << 20) - 1;
/// Reconvergence pc of a divergent branch whose paths meet only where the
/// function ends: no instruction is there, so nothing waits at it.
pub const EXIT_JOIN: u32 = RPC_NONE - 1;
/// The most instructions a program (an object's code, a compiled or
/// assembled module, a PTX module on the reference interpreter) may hold:
/// 1,048,573. Every pc of such a program, and its end (`MAX_CODE` itself),
/// is below the two reserved pcs `EXIT_JOIN` and `RPC_NONE` in the 20-bit
/// pc field. The compiler, the assembler, the object loader and every
/// engine refuse a longer program.
pub const MAX_CODE: u32 = EXIT_JOIN - 1;

/// The error every refusal of an over-long program carries.
pub fn too_long(instructions: usize) -> String {
    format!("the program has {instructions} instructions, more than the {MAX_CODE} a Heddle program may hold (pcs are 20 bits)")
}
