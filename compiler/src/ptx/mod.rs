//! The PTX front end: lexer, parser, AST with spans, constant expressions,
//! canonical printer.
//!
//! ```text
//! text --lexer--> tokens --parser--> ast::Module --print--> canonical text
//! ```

pub mod ast;
pub mod expr;
pub mod lexer;
pub mod parser;
pub mod print;
pub mod source;

pub use parser::parse;
pub use source::{SourceFile, Span};
