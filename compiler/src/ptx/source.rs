//! Source files, byte spans, and turning a span into a located diagnostic.

use heddle_isa::diag::Diagnostic;

/// A byte range in one source file. Spans compare equal to each other, so
/// that ASTs compare by content (`parse(print(ast)) == ast`).
#[derive(Debug, Clone, Copy, Default, Eq)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl PartialEq for Span {
    fn eq(&self, _: &Span) -> bool {
        true
    }
}

/// Consistent with `PartialEq`: every span hashes alike.
impl std::hash::Hash for Span {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start: start as u32, end: end as u32 }
    }
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
}

/// One PTX file: its name, text and line starts.
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(name: &str, text: &str) -> SourceFile {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile { name: name.to_string(), text: text.to_string(), line_starts }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let col = self.text.get(start..offset).map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }

    fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts[line - 1];
        let end = self.line_starts.get(line).map_or(self.text.len(), |&e| e - 1);
        self.text.get(start..end).unwrap_or("").trim_end_matches('\r')
    }

    /// A diagnostic for `span` (the caret covers it, up to the end of its first line).
    pub fn diagnostic(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        let (line, col) = self.line_col(span.start as usize);
        let text = self.line_text(line);
        let len = self.text.get(span.start as usize..span.end as usize).map_or(1, |s| s.chars().take_while(|&c| c != '\n').count());
        let max = text.chars().count().saturating_sub(col - 1).max(1);
        Diagnostic { file: self.name.clone(), line, col, len: len.clamp(1, max), message: message.into(), source_line: text.to_string() }
    }
}
