//! Source diagnostics: an error at file:line:col, shown with its source line and a caret.

use std::fmt;

/// One error in a source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    /// 1-based line and column (column in characters).
    pub line: usize,
    pub col: usize,
    /// Characters to underline (at least 1).
    pub len: usize,
    pub message: String,
    /// The text of the offending line.
    pub source_line: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let num = self.line.to_string();
        let pad = " ".repeat(num.len());
        writeln!(f, "error: {}", self.message)?;
        writeln!(f, "{pad}--> {}:{}:{}", self.file, self.line, self.col)?;
        writeln!(f, "{pad} |")?;
        writeln!(f, "{num} | {}", self.source_line)?;
        let lead: String = self.source_line.chars().take(self.col.saturating_sub(1)).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
        write!(f, "{pad} | {lead}{}", "^".repeat(self.len.max(1)))
    }
}

/// Every error found in one source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        if self.0.len() > 1 {
            write!(f, "\n\n{} errors", self.0.len())?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}
