//! The PTX lexer: hand-written, one pass, every token with its byte span.
//!
//! Comments (`//`, non-nesting `/* */`) and preprocessor lines (`#...`,
//! SYN-03: accepted and ignored) count as whitespace. A token records
//! whether whitespace preceded it, because `ld.global.f32` and `%tid.x` are
//! one name with attached `.suffix` tokens only when nothing separates them.

use super::source::Span;

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    /// Identifiers, opcodes, registers (`%r1`), `WARP_SZ`.
    Ident(String),
    /// `.name`: directives, types, modifiers, components.
    Dot(String),
    /// An integer literal: value and whether it is `.u64` (SYN-33).
    Int(u64, bool),
    /// A decimal floating literal (always f64, SYN-40).
    Float(f64),
    /// `0fXXXXXXXX` (SYN-42).
    F32Bits(u32),
    /// `0dXXXXXXXXXXXXXXXX`.
    F64Bits(u64),
    Str(String),
    Punct(&'static str),
    Eof,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
    /// Whitespace or a comment came right before this token.
    pub spaced: bool,
}

/// A lexical error at a span.
#[derive(Debug, Clone, PartialEq)]
pub struct LexError {
    pub span: Span,
    pub message: String,
}

const PUNCT: &[&str] = &[
    "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", ";", ",", ":", "{", "}", "[", "]", "(", ")", "<", ">", "+", "-", "*", "/", "%", "!",
    "~", "&", "|", "^", "?", "=", "@",
];

fn followsym(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// Tokens of a whole file, ending with `Eof`; lexing goes on after an error.
pub fn lex(text: &str) -> (Vec<Token>, Vec<LexError>) {
    let b = text.as_bytes();
    let mut toks = vec![];
    let mut errs = vec![];
    let mut i = 0;
    let mut spaced = true;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            spaced = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            spaced = true;
            i += 1;
            continue;
        }
        if c == b'#' && line_start {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        line_start = false;
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            spaced = true;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let start = i;
            i += 2;
            loop {
                if i + 1 >= b.len() {
                    errs.push(LexError { span: Span::new(start, start + 2), message: "unterminated comment".into() });
                    i = b.len();
                    break;
                }
                if b[i] == b'*' && b[i + 1] == b'/' {
                    i += 2;
                    break;
                }
                i += 1;
            }
            spaced = true;
            continue;
        }
        let start = i;
        let name_start = c.is_ascii_alphabetic() || c == b'_' || c == b'$' || (c == b'%' && b.get(i + 1).is_some_and(|&d| followsym(d)));
        let tok = if name_start {
            i += 1;
            while i < b.len() && followsym(b[i]) {
                i += 1;
            }
            Ok(Tok::Ident(text[start..i].to_string()))
        } else if c == b'.'
            && b.get(i + 1).is_some_and(|&d| d.is_ascii_alphabetic() || d == b'_' || d.is_ascii_digit() && attached(&toks, spaced))
        {
            // A modifier; `.1d`, `.2d`, `.3d` are modifiers too where they follow an opcode (`tex.1d`).
            i += 1;
            while i < b.len() && followsym(b[i]) {
                i += 1;
            }
            Ok(Tok::Dot(text[start..i].to_string()))
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let (t, end) = number(text, i);
            i = end;
            t
        } else if c == b'"' {
            i += 1;
            let mut s = String::new();
            let mut ok = false;
            while i < b.len() && b[i] != b'\n' {
                if b[i] == b'"' {
                    ok = true;
                    i += 1;
                    break;
                }
                if b[i] == b'\\' && i + 1 < b.len() {
                    i += 1;
                }
                let ch = text[i..].chars().next().unwrap_or('\0');
                s.push(ch);
                i += ch.len_utf8().max(1);
            }
            if ok {
                Ok(Tok::Str(s))
            } else {
                Err("unterminated string".to_string())
            }
        } else if let Some(p) = PUNCT.iter().find(|p| text[i..].starts_with(**p)) {
            i += p.len();
            Ok(Tok::Punct(p))
        } else {
            let ch = text[i..].chars().next().unwrap_or('?');
            i += ch.len_utf8().max(1);
            Err(format!("unexpected character `{}`", ch.escape_default()))
        };
        match tok {
            Ok(tok) => toks.push(Token { tok, span: Span::new(start, i), spaced }),
            Err(message) => errs.push(LexError { span: Span::new(start, i), message }),
        }
        spaced = false;
    }
    toks.push(Token { tok: Tok::Eof, span: Span::new(b.len(), b.len()), spaced: true });
    (toks, errs)
}

/// Whether the next token continues an opcode or modifier with no space between.
fn attached(toks: &[Token], spaced: bool) -> bool {
    !spaced && toks.last().is_some_and(|t| matches!(t.tok, Tok::Ident(_) | Tok::Dot(_)))
}

/// A numeric literal starting at `i`: (token or error, end offset).
fn number(text: &str, start: usize) -> (Result<Tok, String>, usize) {
    let b = text.as_bytes();
    let mut i = start;
    // The maximal run of characters a literal can contain.
    while i < b.len() {
        let c = b[i];
        let sign = (c == b'+' || c == b'-') && i > start && matches!(b[i - 1], b'e' | b'E') && !is_hex_prefix(&text[start..i]);
        if c.is_ascii_alphanumeric() || c == b'.' || c == b'_' || sign {
            i += 1;
        } else {
            break;
        }
    }
    let s = &text[start..i];
    let bad = || Err(format!("malformed number `{s}`"));
    let lower = s.to_ascii_lowercase();
    let tok = if let Some(h) = lower.strip_prefix("0f") {
        if h.len() == 8 && h.bytes().all(|c| c.is_ascii_hexdigit()) {
            Ok(Tok::F32Bits(u32::from_str_radix(h, 16).unwrap_or(0)))
        } else {
            Err(format!("`{s}`: 0f needs exactly 8 hex digits"))
        }
    } else if let Some(h) = lower.strip_prefix("0d") {
        if h.len() == 16 && h.bytes().all(|c| c.is_ascii_hexdigit()) {
            Ok(Tok::F64Bits(u64::from_str_radix(h, 16).unwrap_or(0)))
        } else {
            Err(format!("`{s}`: 0d needs exactly 16 hex digits"))
        }
    } else if lower.contains(['.', 'e']) && !lower.starts_with("0x") {
        match s.parse::<f64>() {
            Ok(v) if v.is_infinite() => Err(format!("`{s}` is out of the range of .f64")),
            Ok(v) if s.bytes().all(|c| c.is_ascii_digit() || b".eE+-".contains(&c)) => Ok(Tok::Float(v)),
            _ => bad(),
        }
    } else {
        let (digits, unsigned) = match lower.strip_suffix('u') {
            Some(d) => (d, true),
            None => (lower.as_str(), false),
        };
        let parsed = if let Some(h) = digits.strip_prefix("0x") {
            u64::from_str_radix(h, 16).map_err(|_| ())
        } else if let Some(h) = digits.strip_prefix("0b") {
            u64::from_str_radix(h, 2).map_err(|_| ())
        } else if digits.len() > 1 && digits.starts_with('0') {
            u64::from_str_radix(&digits[1..], 8).map_err(|_| ())
        } else {
            digits.parse::<u64>().map_err(|_| ())
        };
        match parsed {
            Ok(v) => Ok(Tok::Int(v, unsigned || v > i64::MAX as u64)),
            Err(_) if digits.bytes().all(|c| c.is_ascii_hexdigit() || c == b'x') && !digits.is_empty() => {
                Err(format!("`{s}` does not fit in 64 bits or is not a valid literal"))
            }
            Err(_) => bad(),
        }
    };
    (tok, i)
}

fn is_hex_prefix(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    l.starts_with("0x") || l.starts_with("0f") || l.starts_with("0d")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Tok> {
        let (t, e) = lex(s);
        assert!(e.is_empty(), "{e:?}");
        t.into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn literals() {
        // SYN-31..33, SYN-40, SYN-42
        assert_eq!(
            kinds("42 0x1F 017 0b101 0 0U 42U"),
            vec![
                Tok::Int(42, false),
                Tok::Int(31, false),
                Tok::Int(15, false),
                Tok::Int(5, false),
                Tok::Int(0, false),
                Tok::Int(0, true),
                Tok::Int(42, true),
                Tok::Eof
            ]
        );
        assert_eq!(kinds("0xFABC123400000000")[0], Tok::Int(0xFABC123400000000, true));
        assert_eq!(kinds("0F3f800000 0d3FF0000000000000")[..2], [Tok::F32Bits(0x3f800000), Tok::F64Bits(0x3ff0000000000000)]);
        assert_eq!(kinds(".05 1.5e-3 2.")[..3], [Tok::Float(0.05), Tok::Float(1.5e-3), Tok::Float(2.0)]);
        assert!(!lex("0x1_0000_0000_0000_0000").1.is_empty());
        assert!(!lex("0f3f80").1.is_empty());
    }

    #[test]
    fn names_and_attachment() {
        // SYN-20, SYN-21
        let (t, _) = lex("ld.global.f32 %r1, [%rd2+4]; %tid.x $f3 _x");
        assert_eq!(t[0].tok, Tok::Ident("ld".into()));
        assert_eq!((t[1].tok.clone(), t[1].spaced), (Tok::Dot(".global".into()), false));
        assert_eq!(t[3].tok, Tok::Ident("%r1".into()));
        assert!(t[3].spaced);
        let (t, _) = lex("%tid.x");
        assert_eq!((t[1].tok.clone(), t[1].spaced), (Tok::Dot(".x".into()), false));
    }

    #[test]
    fn comments_and_preprocessor() {
        // SYN-04: a comment is whitespace; SYN-03: # lines are ignored.
        assert_eq!(kinds("a/**/b // c\n#line 3 \"x\"\nd").len(), 4);
        assert_eq!(lex("/* open").1[0].message, "unterminated comment");
        assert_eq!(lex("\"abc").1[0].message, "unterminated string");
    }
}
