//! Splitting one line of assembly into tokens with their columns.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokKind {
    /// Names, mnemonics with modifiers, directives, registers, labels.
    Ident,
    /// Numbers: decimal, `0x` hex, `0f` binary32 bits, decimal floats.
    Num,
    /// A double-quoted string (text without quotes).
    Str,
    /// One punctuation character.
    Punct,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tok {
    pub kind: TokKind,
    pub text: String,
    /// 0-based column in characters.
    pub col: usize,
}

impl Tok {
    pub fn is(&self, c: char) -> bool {
        self.kind == TokKind::Punct && self.text.len() == 1 && self.text.starts_with(c)
    }
}

fn ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '$' || c == '.' || c == '%'
}

fn ident_cont(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.'
}

/// Tokens of one line, up to a `//` or `;` comment. Err: (column, message).
pub fn lex_line(line: &str) -> Result<Vec<Tok>, (usize, String)> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = vec![];
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == ';' || (c == '/' && chars.get(i + 1) == Some(&'/')) {
            break;
        }
        let start = i;
        let kind = if ident_start(c) {
            i += 1;
            while i < chars.len() && ident_cont(chars[i]) {
                i += 1;
            }
            TokKind::Ident
        } else if c.is_ascii_digit() {
            let hex = c == '0' && matches!(chars.get(i + 1), Some('x' | 'X' | 'f' | 'F'));
            i += 1;
            while i < chars.len() {
                let d = chars[i];
                let exp_sign = !hex && (d == '+' || d == '-') && matches!(chars[i - 1], 'e' | 'E');
                if d.is_ascii_alphanumeric() || d == '_' || d == '.' || exp_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            TokKind::Num
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += 1;
            }
            if i == chars.len() {
                return Err((start, "unterminated string".into()));
            }
            i += 1;
            out.push(Tok { kind: TokKind::Str, text: chars[start + 1..i - 1].iter().collect(), col: start });
            continue;
        } else if ",[]+-!@|:".contains(c) {
            i += 1;
            TokKind::Punct
        } else {
            return Err((start, format!("unexpected character `{c}`")));
        };
        out.push(Tok { kind, text: chars[start..i].iter().collect(), col: start });
    }
    Ok(out)
}
