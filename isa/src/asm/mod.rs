//! Assembly text: lexer, assembler, printer, disassembler.

pub mod disasm;
pub mod lex;
pub mod parse;
pub mod print;

pub use disasm::disassemble;
pub use parse::assemble;
