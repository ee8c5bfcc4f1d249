//! The object format of compiled programs (`.hbin`).
//!
//! ```text
//! offset 0   magic  "HEDDLEOB"
//!        8   format version (u32 LE)
//!        12  payload length (u64 LE)
//!        20  CRC-32 of the payload (u32 LE)
//!        24  payload: the `Object` in postcard encoding
//! ```
//! Loading checks the magic, version, length and checksum, decodes the
//! payload, then checks that every code word is a valid instruction and
//! every kernel, symbol and line entry points inside the program. A corrupt
//! or truncated file is an [`ObjectError`], never a panic.

use crate::inst::Inst;
use serde::{Deserialize, Serialize};

pub const MAGIC: &[u8; 8] = b"HEDDLEOB";
pub const VERSION: u32 = 1;
const HEADER: usize = 24;

/// A compiled program: code, kernels, data and debug information.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Object {
    /// Instruction words; a pc is an index into this.
    pub code: Vec<u64>,
    pub kernels: Vec<Kernel>,
    /// Initial contents of the constant bank (const space offset 0).
    pub const_data: Vec<u8>,
    /// Initial contents of module-scope global variables, loaded at
    /// [`crate::mem::MODULE_GLOBAL_BASE`].
    pub global_data: Vec<u8>,
    pub symbols: Vec<Symbol>,
    /// Source files named by line entries.
    pub files: Vec<String>,
    /// Source positions, sorted by pc; an entry holds until the next one.
    pub lines: Vec<LineEntry>,
}

/// A kernel entry point and what a launch must provide for it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kernel {
    pub name: String,
    pub entry: u32,
    /// General registers per thread (r0..r{regs-1}).
    pub regs: u8,
    pub params: Vec<Param>,
    /// Size of the parameter space.
    pub param_bytes: u32,
    /// Static shared memory per CTA.
    pub shared_bytes: u32,
    /// Local memory (stack) per thread.
    pub local_bytes: u32,
}

/// One kernel parameter's place in parameter space.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    pub offset: u32,
    pub size: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SymbolKind {
    /// A code label (value: pc).
    Code,
    /// Constant bank data (value: const-space offset).
    Const,
    /// Module global (value: offset in `global_data`).
    Global,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Symbol {
    pub name: String,
    pub kind: SymbolKind,
    pub value: u32,
    pub size: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineEntry {
    pub pc: u32,
    /// Index into `files`.
    pub file: u32,
    pub line: u32,
    pub col: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ObjectError {
    #[error("not a Heddle object (bad magic number)")]
    Magic,
    #[error("unsupported object version {0} (this build reads version {VERSION})")]
    Version(u32),
    #[error("truncated object: {expected} payload bytes expected, {found} present")]
    Truncated { expected: u64, found: u64 },
    #[error("corrupt object: checksum mismatch")]
    Checksum,
    #[error("corrupt object: {0}")]
    Payload(String),
    #[error("invalid instruction at pc {pc}: {err}")]
    Code { pc: u32, err: crate::inst::InvalidInst },
    #[error("invalid object: {0}")]
    Invalid(String),
}

impl Object {
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = postcard::to_allocvec(self).expect("serializing to memory cannot fail");
        let mut out = Vec::with_capacity(HEADER + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Object, ObjectError> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(ObjectError::Magic);
        }
        if bytes.len() < HEADER {
            return Err(ObjectError::Truncated { expected: HEADER as u64, found: bytes.len() as u64 });
        }
        let word = |r: std::ops::Range<usize>| bytes[r].iter().rev().fold(0u64, |a, &b| a << 8 | b as u64);
        let version = word(8..12) as u32;
        if version != VERSION {
            return Err(ObjectError::Version(version));
        }
        let len = word(12..20);
        let payload = &bytes[HEADER..];
        if (payload.len() as u64) < len {
            return Err(ObjectError::Truncated { expected: len, found: payload.len() as u64 });
        }
        if (payload.len() as u64) > len {
            return Err(ObjectError::Payload(format!("{} bytes after the payload", payload.len() as u64 - len)));
        }
        if crc32fast::hash(payload) != word(20..24) as u32 {
            return Err(ObjectError::Checksum);
        }
        let obj: Object = postcard::from_bytes(payload).map_err(|e| ObjectError::Payload(e.to_string()))?;
        obj.check()?;
        Ok(obj)
    }

    /// Checks the cross-references of a decoded object.
    pub fn check(&self) -> Result<(), ObjectError> {
        let bad = |m: String| Err(ObjectError::Invalid(m));
        if self.code.len() as u64 > crate::fields::MAX_CODE as u64 {
            return bad(crate::fields::too_long(self.code.len()));
        }
        for (pc, &w) in self.code.iter().enumerate() {
            Inst::decode(w).map_err(|err| ObjectError::Code { pc: pc as u32, err })?;
        }
        let n = self.code.len() as u32;
        for k in &self.kernels {
            if k.entry >= n {
                return bad(format!("kernel {} starts at pc {} past the end of the code ({n})", k.name, k.entry));
            }
            if k.regs > crate::fields::NUM_REGS {
                return bad(format!("kernel {} asks for {} registers (at most {})", k.name, k.regs, crate::fields::NUM_REGS));
            }
            for p in &k.params {
                if p.offset as u64 + p.size as u64 > k.param_bytes as u64 {
                    return bad(format!("parameter {} of kernel {} lies outside its parameter space", p.name, k.name));
                }
            }
        }
        for s in &self.symbols {
            let limit = match s.kind {
                SymbolKind::Code => n as u64,
                SymbolKind::Const => self.const_data.len() as u64,
                SymbolKind::Global => self.global_data.len() as u64,
            };
            let end = s.value as u64 + if s.kind == SymbolKind::Code { 0 } else { s.size as u64 };
            if end > limit || (s.kind == SymbolKind::Code && s.value as u64 > limit) {
                return bad(format!("symbol {} lies outside its section", s.name));
            }
        }
        let mut last = None;
        for l in &self.lines {
            if l.file as usize >= self.files.len() || l.pc >= n.max(1) || last.is_some_and(|p| p > l.pc) {
                return bad(format!("line entry for pc {} is out of place", l.pc));
            }
            last = Some(l.pc);
        }
        Ok(())
    }

    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }

    /// The source position of `pc`, if known.
    pub fn line_of(&self, pc: u32) -> Option<(&str, u32, u32)> {
        if pc as usize >= self.code.len() {
            return None;
        }
        let i = self.lines.partition_point(|l| l.pc <= pc);
        let l = self.lines.get(i.checked_sub(1)?)?;
        Some((self.files.get(l.file as usize)?.as_str(), l.line, l.col))
    }

    /// The code symbol at or before `pc` (for traces), with the offset from it.
    pub fn symbolize(&self, pc: u32) -> Option<(&str, u32)> {
        if pc as usize >= self.code.len() {
            return None;
        }
        self.symbols
            .iter()
            .filter(|s| s.kind == SymbolKind::Code && s.value <= pc)
            .max_by_key(|s| s.value)
            .map(|s| (s.name.as_str(), pc - s.value))
    }
}
