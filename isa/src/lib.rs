//! The Heddle SIMT instruction set.
//!
//! Fixed-width 64-bit instructions for a streaming multiprocessor with
//! 32-bit lanes. Everything about an instruction comes from one table
//! ([`table::TABLE`]): the [`table::Opcode`] enum, [`inst::Inst::encode`] and
//! [`inst::Inst::decode`], the assembler and disassembler ([`asm`]), the
//! reference document `docs/isa.md` ([`doc::reference`]) and the bit
//! positions the hardware decoder slices ([`fields`]).
//!
//! [`scalar`] holds the pure scalar semantics (IEEE-754 rounding, ftz,
//! saturation, shift clamping, the special-function approximations) that the
//! golden model, the PTX interpreter, constant folding and the hardware tests
//! all call. [`object`] is the compiled-program format.

pub mod asm;
pub mod diag;
pub mod doc;
pub mod fields;
pub mod inst;
pub mod mem;
pub mod object;
pub mod scalar;
pub mod sreg;
pub mod syscall;
pub mod table;
pub mod values;

pub use inst::{Guard, Inst, InvalidInst, Operand};
pub use object::Object;
pub use table::{Format, ModKind, Opcode, Unit};
