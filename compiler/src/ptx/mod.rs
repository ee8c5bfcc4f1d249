//! The PTX front end: lexer, parser, AST with spans, constant expressions,
//! checker, canonical printer.
//!
//! ```text
//! text --lexer--> tokens --parser--> ast::Module --check--> errors | ok
//!                                         \--print--> canonical text
//! ```

pub mod ast;
pub mod check;
pub mod expr;
pub mod insts;
pub mod lexer;
pub mod parser;
pub mod print;
pub mod source;

pub use parser::parse;
pub use source::{SourceFile, Span};

/// Parses and checks a file: the module, or every error found.
pub fn load(src: &SourceFile) -> Result<ast::Module, Vec<heddle_isa::diag::Diagnostic>> {
    let m = parse(src)?;
    let errors = check::check(src, &m);
    if errors.is_empty() {
        Ok(m)
    } else {
        Err(errors)
    }
}
