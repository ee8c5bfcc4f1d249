//! The assembler: Heddle assembly text to an [`Object`].
//!
//! A line holds labels (`name:`), then a directive or an instruction;
//! comments start with `//` or `;`. Instructions are
//! `[@[!]pN] mnemonic[.mod...] operands` in the syntax the printer writes.
//! Directives:
//!
//! | directive | meaning |
//! |---|---|
//! | `.kernel NAME` | a kernel entry point at the next instruction |
//! | `.regs N`, `.shared N`, `.local N`, `.params N` | the current kernel's registers, static shared bytes, local bytes per thread, parameter bytes |
//! | `.param NAME SIZE [OFFSET]` | a kernel parameter (default offset: the next multiple of min(SIZE, 8)) |
//! | `.func NAME` | an exported code symbol at the next instruction |
//! | `.const [NAME] .b8/.b16/.b32/.b64/.f32 v, ...` / `.zero N` / `.align N` | constant-bank data |
//! | `.global [NAME] ...` | module global data, same forms |
//! | `.file N "path"`, `.loc FILE LINE COL` | source positions for the following instructions |
//! | `.nolines` | record no source positions (the default records this file's lines) |
//!
//! Labels starting with `.L` are local: they are not kept as symbols.
//! Symbols and kernels are stored sorted, so equal programs give equal objects.

use super::lex::{lex_line, Tok, TokKind};
use crate::diag::{Diagnostic, Diagnostics};
use crate::fields::{NUM_REGS, PT, RPC_NONE, RZ};
use crate::inst::{Guard, Inst, Operand};
use crate::mem::MODULE_GLOBAL_BASE;
use crate::object::{Kernel, LineEntry, Object, Param, Symbol, SymbolKind};
use crate::sreg::SReg;
use crate::table::{mod_info, Format, ModKind, Opcode};
use std::collections::HashMap;

type PResult<T> = Result<T, (usize, usize, String)>; // (col, len, message)

/// Where a symbolic operand goes once its value is known.
#[derive(Clone, Copy, PartialEq)]
enum Slot {
    Imm,
    Rpc,
}

struct Fixup {
    pc: usize,
    slot: Slot,
    name: String,
    addend: i64,
    line: usize,
    col: usize,
}

struct Asm<'a> {
    file: &'a str,
    lines: Vec<&'a str>,
    obj: Object,
    errors: Vec<Diagnostic>,
    fixups: Vec<Fixup>,
    labels: HashMap<String, (u32, usize)>,
    data_syms: HashMap<String, (SymbolKind, u32)>,
    file_map: HashMap<u32, u32>,
    explicit_loc: bool,
    pending_loc: Option<LineEntry>,
    kernel: Option<usize>,
    kernel_regs_set: Vec<bool>,
    /// The program reached `MAX_CODE` (reported once).
    too_long: bool,
}

/// Assembles `source` (named `file` in diagnostics).
pub fn assemble(file: &str, source: &str) -> Result<Object, Diagnostics> {
    let mut a = Asm {
        file,
        lines: source.lines().collect(),
        obj: Object::default(),
        errors: vec![],
        fixups: vec![],
        labels: HashMap::new(),
        data_syms: HashMap::new(),
        file_map: HashMap::new(),
        explicit_loc: source.lines().any(|l| matches!(l.split_whitespace().next(), Some(".loc" | ".file" | ".nolines"))),
        pending_loc: None,
        kernel: None,
        kernel_regs_set: vec![],
        too_long: false,
    };
    if !a.explicit_loc {
        a.obj.files.push(file.to_string());
    }
    for n in 0..a.lines.len() {
        let text = a.lines[n];
        match lex_line(text) {
            Ok(toks) => {
                if let Err((col, len, msg)) = a.line(n, &toks) {
                    a.error(n, col, len, msg);
                }
            }
            Err((col, msg)) => a.error(n, col, 1, msg),
        }
    }
    a.finish()
}

impl<'a> Asm<'a> {
    fn error(&mut self, line: usize, col: usize, len: usize, message: String) {
        self.errors.push(Diagnostic {
            file: self.file.to_string(),
            line: line + 1,
            col: col + 1,
            len,
            message,
            source_line: self.lines.get(line).unwrap_or(&"").to_string(),
        });
    }

    fn pc(&self) -> u32 {
        self.obj.code.len() as u32
    }

    fn line(&mut self, n: usize, toks: &[Tok]) -> PResult<()> {
        let mut i = 0;
        // Labels.
        while i + 1 < toks.len() && toks[i].kind == TokKind::Ident && toks[i + 1].is(':') {
            let name = toks[i].text.clone();
            if self.labels.contains_key(&name) || self.data_syms.contains_key(&name) {
                return Err((toks[i].col, name.len(), format!("label `{name}` is defined twice")));
            }
            self.labels.insert(name.clone(), (self.pc(), n));
            if !name.starts_with(".L") {
                self.obj.symbols.push(Symbol { name, kind: SymbolKind::Code, value: self.pc(), size: 0 });
            }
            i += 2;
        }
        let rest = &toks[i..];
        let Some(first) = rest.first() else {
            return Ok(());
        };
        if first.kind == TokKind::Ident && first.text.starts_with('.') && !first.text.starts_with(".L") {
            return self.directive(n, rest);
        }
        if self.pc() == crate::fields::MAX_CODE {
            // Reported once, at the first instruction past the limit.
            if std::mem::replace(&mut self.too_long, true) {
                return Ok(());
            }
            let max = crate::fields::MAX_CODE;
            return Err((
                first.col,
                first.text.len(),
                format!("instruction {} of the program: a Heddle program holds at most {max} (pcs are 20 bits)", max + 1),
            ));
        }
        let inst = self.instruction(n, rest)?;
        if self.explicit_loc {
            if let Some(mut l) = self.pending_loc.take() {
                l.pc = self.pc();
                self.obj.lines.push(l);
            }
        } else {
            self.obj.lines.push(LineEntry { pc: self.pc(), file: 0, line: n as u32 + 1, col: first.col as u32 + 1 });
        }
        let word = inst.encode().map_err(|e| (first.col, first.text.len(), e.to_string()))?;
        self.obj.code.push(word);
        Ok(())
    }

    fn directive(&mut self, _n: usize, t: &[Tok]) -> PResult<()> {
        let d = &t[0];
        let args = &t[1..];
        let need_kernel = |s: &Self| s.kernel.ok_or((d.col, d.text.len(), format!("{} outside a .kernel", d.text)));
        match d.text.as_str() {
            ".kernel" | ".func" => {
                let name = ident(args, 0, "a name")?;
                if self.labels.contains_key(&name) {
                    return Err((args[0].col, name.len(), format!("`{name}` is defined twice")));
                }
                self.labels.insert(name.clone(), (self.pc(), _n));
                self.obj.symbols.push(Symbol { name: name.clone(), kind: SymbolKind::Code, value: self.pc(), size: 0 });
                if d.text == ".kernel" {
                    self.obj.kernels.push(Kernel { name, entry: self.pc(), ..Kernel::default() });
                    self.kernel = Some(self.obj.kernels.len() - 1);
                    self.kernel_regs_set.push(false);
                }
                end(args, 1)
            }
            ".regs" | ".shared" | ".local" | ".params" => {
                let k = need_kernel(self)?;
                let v = number(args, 0)?;
                let kern = &mut self.obj.kernels[k];
                match d.text.as_str() {
                    ".regs" => {
                        if v > NUM_REGS as u64 {
                            return Err((args[0].col, args[0].text.len(), format!("at most {NUM_REGS} registers")));
                        }
                        kern.regs = v as u8;
                        self.kernel_regs_set[k] = true;
                    }
                    ".shared" => kern.shared_bytes = to_u32(v, &args[0])?,
                    ".local" => kern.local_bytes = to_u32(v, &args[0])?,
                    _ => kern.param_bytes = to_u32(v, &args[0])?,
                }
                end(args, 1)
            }
            ".param" => {
                let k = need_kernel(self)?;
                let name = ident(args, 0, "a parameter name")?;
                let size = to_u32(number(args, 1)?, &args[1])?;
                let kern = &mut self.obj.kernels[k];
                let end_of = kern.params.iter().map(|p| p.offset + p.size).max().unwrap_or(0);
                let offset = if args.len() > 2 {
                    to_u32(number(args, 2)?, &args[2])?
                } else {
                    let al = size.clamp(1, 8).next_power_of_two();
                    end_of.div_ceil(al) * al
                };
                kern.params.push(Param { name, offset, size });
                kern.param_bytes = kern.param_bytes.max(offset + size);
                end(args, 3)
            }
            ".const" | ".global" => self.data(d.text == ".const", args),
            ".file" => {
                let idx = to_u32(number(args, 0)?, &args[0])?;
                let s = args.get(1).filter(|t| t.kind == TokKind::Str).ok_or(at(args, 1, "a quoted file name"))?;
                self.file_map.insert(idx, self.obj.files.len() as u32);
                self.obj.files.push(s.text.clone());
                end(args, 2)
            }
            ".loc" => {
                let f = to_u32(number(args, 0)?, &args[0])?;
                let file = *self.file_map.get(&f).ok_or((args[0].col, args[0].text.len(), format!("file {f} has no .file directive")))?;
                let line = to_u32(number(args, 1)?, &args[1])?;
                let col = to_u32(number(args, 2)?, &args[2])?;
                self.pending_loc = Some(LineEntry { pc: 0, file, line, col });
                end(args, 3)
            }
            ".nolines" => end(args, 0),
            other => Err((d.col, other.len(), format!("unknown directive `{other}`"))),
        }
    }

    fn data(&mut self, is_const: bool, args: &[Tok]) -> PResult<()> {
        let mut i = 0;
        let name = match args.first() {
            Some(t) if t.kind == TokKind::Ident && !t.text.starts_with('.') => {
                i = 1;
                Some(t)
            }
            _ => None,
        };
        let kind_tok = args.get(i).ok_or(at(args, i, "a data type (.b8 .b16 .b32 .b64 .f32 .zero .align)"))?;
        let mut bytes = Vec::new();
        let mut align = 1usize;
        match kind_tok.text.as_str() {
            ".zero" => {
                bytes.resize(to_u32(number(args, i + 1)?, &args[i + 1])? as usize, 0);
                end(args, i + 2)?;
            }
            ".align" => {
                align = to_u32(number(args, i + 1)?, &args[i + 1])? as usize;
                if !align.is_power_of_two() {
                    return Err((args[i + 1].col, args[i + 1].text.len(), "alignment must be a power of two".into()));
                }
                end(args, i + 2)?;
            }
            ty @ (".b8" | ".b16" | ".b32" | ".b64" | ".f32") => {
                let size = match ty {
                    ".b8" => 1,
                    ".b16" => 2,
                    ".b64" => 8,
                    _ => 4,
                };
                align = size;
                let mut j = i + 1;
                loop {
                    let (v, next) = if ty == ".f32" { float_value(args, j)? } else { int_value(args, j)? };
                    bytes.extend_from_slice(&v.to_le_bytes()[..size]);
                    j = next;
                    if j >= args.len() {
                        break;
                    }
                    if !args[j].is(',') {
                        return Err((args[j].col, args[j].text.len(), "expected `,`".into()));
                    }
                    j += 1;
                }
            }
            other => return Err((kind_tok.col, other.len(), format!("unknown data type `{other}`"))),
        }
        let data = if is_const { &mut self.obj.const_data } else { &mut self.obj.global_data };
        // Explicit bytes are placed where they fall (the disassembler relies on it); only .align pads.
        if kind_tok.text == ".align" {
            let pad = data.len().div_ceil(align) * align - data.len();
            data.resize(data.len() + pad, 0);
        }
        let offset = data.len() as u32;
        data.extend_from_slice(&bytes);
        if let Some(n) = name {
            if self.data_syms.contains_key(&n.text) || self.labels.contains_key(&n.text) {
                return Err((n.col, n.text.len(), format!("`{}` is defined twice", n.text)));
            }
            let kind = if is_const { SymbolKind::Const } else { SymbolKind::Global };
            self.data_syms.insert(n.text.clone(), (kind, offset));
            self.obj.symbols.push(Symbol { name: n.text.clone(), kind, value: offset, size: bytes.len() as u32 });
        }
        Ok(())
    }

    fn instruction(&mut self, n: usize, t: &[Tok]) -> PResult<Inst> {
        let mut i = 0;
        let mut guard = Guard::ALWAYS;
        if t[0].is('@') {
            let (p, neg, next) = pred_operand(t, 1)?;
            guard = Guard { pred: p, neg };
            i = next;
        }
        let m = t.get(i).filter(|t| t.kind == TokKind::Ident).ok_or(at(t, i, "a mnemonic"))?;
        let mut parts = m.text.split('.');
        let base = parts.next().unwrap_or("");
        let op = Opcode::from_mnemonic(base).ok_or((m.col, base.len(), format!("unknown mnemonic `{base}`")))?;
        let info = op.info();
        let mut inst = Inst::new(op);
        inst.guard = guard;
        let mut seen: Vec<ModKind> = vec![];
        let mut uni = false;
        let mut col = m.col + base.len();
        for part in parts {
            let span = (col + 1, part.len());
            col += part.len() + 1;
            if info.format == Format::Bra && part == "uni" {
                uni = true;
                continue;
            }
            let kind = info.mods.iter().copied().find(|&k| mod_info(k).value_of(part).is_some()).ok_or((
                span.0,
                span.1,
                format!("`{base}` has no modifier `.{part}`{}", mod_hint(op)),
            ))?;
            if seen.contains(&kind) {
                return Err((span.0, span.1, format!("modifier `.{part}` conflicts with an earlier one")));
            }
            seen.push(kind);
            inst.set_modifier(kind, mod_info(kind).value_of(part).unwrap_or(0));
        }
        for &k in info.mods {
            let mi = mod_info(k);
            if !mi.omit_default && !mi.is_flag() && !seen.contains(&k) {
                return Err((
                    m.col,
                    m.text.len(),
                    format!(
                        "`{base}` needs one of {}",
                        mi.names.iter().filter(|s| !s.is_empty()).map(|s| format!(".{s}")).collect::<Vec<_>>().join(" ")
                    ),
                ));
            }
        }
        let ops = split_operands(&t[i + 1..]);
        let want = |k: usize, msg: &str| -> PResult<()> {
            if ops.len() != k {
                Err((m.col, m.text.len(), format!("`{base}` takes {msg}, found {} operand(s)", ops.len())))
            } else {
                Ok(())
            }
        };
        let pc = self.obj.code.len();
        let fix = |s: &mut Self, slot: Slot, sym: Option<(String, i64, usize)>| {
            if let Some((name, addend, col)) = sym {
                s.fixups.push(Fixup { pc, slot, name, addend, line: n, col });
            }
        };
        match info.format {
            Format::None => want(0, "no operands")?,
            Format::Rb => {
                want(2, "2 operands (d, b)")?;
                inst.d = reg_operand(ops[0])?;
                let (b, sym) = b_operand(ops[1], op)?;
                inst.b = b;
                fix(self, Slot::Imm, sym);
            }
            Format::Rr | Format::Syscall => {
                want(2, "2 operands (d, a)")?;
                inst.d = reg_operand(ops[0])?;
                inst.a = reg_operand(ops[1])?;
            }
            Format::Rrb => {
                want(3, "3 operands (d, a, b)")?;
                inst.d = reg_operand(ops[0])?;
                inst.a = reg_operand(ops[1])?;
                let (b, sym) = b_operand(ops[2], op)?;
                inst.b = b;
                fix(self, Slot::Imm, sym);
            }
            Format::Rrbc | Format::Shfl => {
                want(4, "4 operands (d, a, b, c)")?;
                if info.format == Format::Shfl {
                    let o = ops[0];
                    inst.d = reg_operand(&o[..1.min(o.len())])?;
                    let mut p = PT;
                    if o.len() > 1 {
                        if !o[1].is('|') {
                            return Err((o[1].col, 1, "expected `|p`".into()));
                        }
                        let (pp, neg, next) = pred_operand(o, 2)?;
                        if neg || next != o.len() {
                            return Err((o[1].col, 1, "expected `|p` with a plain predicate".into()));
                        }
                        p = pp;
                    }
                    inst.mods |= p << 2;
                } else {
                    inst.d = reg_operand(ops[0])?;
                }
                inst.a = reg_operand(ops[1])?;
                let (b, sym) = b_operand(ops[2], op)?;
                inst.b = b;
                fix(self, Slot::Imm, sym);
                inst.c = reg_operand(ops[3])?;
            }
            Format::SetP => {
                if ops.len() != 3 && ops.len() != 4 {
                    want(3, "3 or 4 operands (pd, a, b[, pc])")?;
                }
                inst.d = plain_pred(ops[0])?;
                inst.a = reg_operand(ops[1])?;
                let (b, sym) = b_operand(ops[2], op)?;
                inst.b = b;
                fix(self, Slot::Imm, sym);
                let pc = if ops.len() == 4 { pred4(ops[3])? } else { PT };
                inst.d |= pc << 3;
            }
            Format::Sel => {
                want(4, "4 operands (d, a, b, p)")?;
                inst.d = reg_operand(ops[0])?;
                inst.a = reg_operand(ops[1])?;
                let (b, sym) = b_operand(ops[2], op)?;
                inst.b = b;
                fix(self, Slot::Imm, sym);
                inst.mods = pred4(ops[3])?;
            }
            Format::Plop => {
                want(3, "3 operands (pd, pa, pb)")?;
                inst.d = plain_pred(ops[0])?;
                inst.a = pred4(ops[1])?;
                inst.b = Operand::Reg(pred4(ops[2])?);
            }
            Format::Ld | Format::St => {
                want(2, "2 operands")?;
                let (r, addr) = if info.format == Format::Ld { (ops[0], ops[1]) } else { (ops[1], ops[0]) };
                inst.d = reg_operand(r)?;
                let (a, b, sym) = address(addr)?;
                inst.a = a;
                inst.b = b;
                fix(self, Slot::Imm, sym);
            }
            Format::Atom => {
                if ops.len() != 3 && ops.len() != 4 {
                    want(3, "3 or 4 operands (d, [a], b[, c])")?;
                }
                inst.d = reg_operand(ops[0])?;
                let (a, b, sym) = address(ops[1])?;
                if b != Operand::Imm(0) || sym.is_some() {
                    return Err((ops[1][0].col, 1, "atom takes a plain register address `[rN]`".into()));
                }
                inst.a = a;
                let (b, sym) = b_operand(ops[2], op)?;
                inst.b = b;
                fix(self, Slot::Imm, sym);
                inst.c = if ops.len() == 4 { reg_operand(ops[3])? } else { RZ };
            }
            Format::Bra => {
                if uni {
                    want(1, "1 operand (target) with .uni")?;
                } else {
                    want(2, "2 operands (target, join); write bra.uni for a uniform branch")?;
                }
                let (v, sym) = value_operand(ops[0])?;
                inst.b = Operand::Imm(v);
                fix(self, Slot::Imm, sym);
                if !uni {
                    let (v, sym) = value_operand(ops[1])?;
                    inst.set_rpc(v);
                    fix(self, Slot::Rpc, sym);
                } else {
                    inst.set_rpc(RPC_NONE);
                }
            }
            Format::Call => {
                want(1, "1 operand (target)")?;
                let (v, sym) = value_operand(ops[0])?;
                inst.b = Operand::Imm(v);
                fix(self, Slot::Imm, sym);
            }
            Format::CallInd => {
                want(1, "1 operand (a register holding the target pc)")?;
                inst.a = reg_operand(ops[0])?;
            }
            Format::Bar => {
                if ops.len() != 1 && ops.len() != 2 {
                    want(1, "1 or 2 operands (barrier[, thread count])")?;
                }
                let (b, sym) = b_operand(ops[0], op)?;
                inst.b = b;
                fix(self, Slot::Imm, sym);
                inst.a = if ops.len() == 2 { reg_operand(ops[1])? } else { RZ };
            }
            Format::Vote => {
                want(2, "2 operands (pd, pa)")?;
                inst.d = plain_pred(ops[0])?;
                inst.a = pred4(ops[1])?;
            }
            Format::Ballot => {
                want(2, "2 operands (d, pa)")?;
                inst.d = reg_operand(ops[0])?;
                inst.a = pred4(ops[1])?;
            }
            Format::BarRed => {
                want(3, "3 operands (d, barrier, pa)")?;
                inst.d = reg_operand(ops[0])?;
                let (b, sym) = b_operand(ops[1], op)?;
                inst.b = b;
                fix(self, Slot::Imm, sym);
                inst.a = pred4(ops[2])?;
            }
            Format::S2r => {
                want(2, "2 operands (d, special register)")?;
                inst.d = reg_operand(ops[0])?;
                let o = ops[1];
                let name = o.first().filter(|t| t.kind == TokKind::Ident && o.len() == 1).ok_or(at(o, 0, "a special register"))?;
                let sr =
                    SReg::from_name(&name.text).ok_or((name.col, name.text.len(), format!("unknown special register `{}`", name.text)))?;
                inst.a = sr as u8;
            }
        }
        Ok(inst)
    }

    fn finish(mut self) -> Result<Object, Diagnostics> {
        let fixups = std::mem::take(&mut self.fixups);
        for f in fixups {
            let value = if let Some(&(pc, _)) = self.labels.get(&f.name) {
                Some(pc as i64)
            } else if let Some(&(kind, off)) = self.data_syms.get(&f.name) {
                match (f.slot, kind) {
                    (Slot::Rpc, _) => None,
                    (_, SymbolKind::Global) => Some(MODULE_GLOBAL_BASE as i64 + off as i64),
                    _ => Some(off as i64),
                }
            } else {
                None
            };
            let Some(v) = value else {
                self.error(f.line, f.col, f.name.len(), format!("undefined symbol `{}`", f.name));
                continue;
            };
            let v = (v + f.addend) as u32;
            let mut inst = match Inst::decode(self.obj.code[f.pc]) {
                Ok(i) => i,
                Err(_) => continue,
            };
            match f.slot {
                Slot::Imm => inst.b = Operand::Imm(v),
                Slot::Rpc => inst.set_rpc(v),
            }
            match inst.encode() {
                Ok(w) => self.obj.code[f.pc] = w,
                Err(e) => self.error(f.line, f.col, f.name.len(), e.to_string()),
            }
        }
        // Default register counts: what the code uses.
        let used = self
            .obj
            .code
            .iter()
            .filter_map(|&w| Inst::decode(w).ok())
            .flat_map(|i| {
                let counts = i.reg_counts();
                i.reg_fields().into_iter().zip(counts).filter_map(|(r, c)| r.filter(|&r| r != RZ).map(|r| r + c))
            })
            .max()
            .unwrap_or(0);
        for (k, set) in self.obj.kernels.iter_mut().zip(&self.kernel_regs_set) {
            if !set {
                k.regs = used;
            }
        }
        if !self.errors.is_empty() {
            return Err(Diagnostics(self.errors));
        }
        self.obj.symbols.sort_by(|a, b| (a.kind as u8, a.value, &a.name).cmp(&(b.kind as u8, b.value, &b.name)));
        self.obj.kernels.sort_by(|a, b| (a.entry, &a.name).cmp(&(b.entry, &b.name)));
        Ok(self.obj)
    }
}

fn mod_hint(op: Opcode) -> String {
    let names: Vec<String> =
        op.info().mods.iter().flat_map(|&k| mod_info(k).names.iter().filter(|n| !n.is_empty()).map(|n| format!(".{n}"))).collect();
    if names.is_empty() {
        String::new()
    } else {
        format!(" (it takes {})", names.join(" "))
    }
}

fn at(t: &[Tok], i: usize, what: &str) -> (usize, usize, String) {
    match t.get(i) {
        Some(tok) => (tok.col, tok.text.len().max(1), format!("expected {what}, found `{}`", tok.text)),
        None => (t.last().map(|t| t.col + t.text.len()).unwrap_or(0), 1, format!("expected {what}")),
    }
}

fn end(t: &[Tok], i: usize) -> PResult<()> {
    match t.get(i) {
        Some(tok) => Err((tok.col, tok.text.len().max(1), format!("unexpected `{}`", tok.text))),
        None => Ok(()),
    }
}

fn ident(t: &[Tok], i: usize, what: &str) -> PResult<String> {
    t.get(i).filter(|t| t.kind == TokKind::Ident).map(|t| t.text.clone()).ok_or(at(t, i, what))
}

fn number(t: &[Tok], i: usize) -> PResult<u64> {
    let tok = t.get(i).filter(|t| t.kind == TokKind::Num).ok_or(at(t, i, "a number"))?;
    parse_int(&tok.text).ok_or((tok.col, tok.text.len(), format!("bad number `{}`", tok.text)))
}

fn to_u32(v: u64, tok: &Tok) -> PResult<u32> {
    u32::try_from(v).map_err(|_| (tok.col, tok.text.len(), format!("{v} does not fit in 32 bits")))
}

fn parse_int(s: &str) -> Option<u64> {
    let s = s.replace('_', "");
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(h) = s.strip_prefix("0f").or_else(|| s.strip_prefix("0F")) {
        (h.len() == 8).then(|| u32::from_str_radix(h, 16).ok().map(|v| v as u64)).flatten()
    } else {
        s.parse().ok()
    }
}

/// An integer (or `0f` bits) with an optional leading minus, as 64 bits.
fn int_value(t: &[Tok], i: usize) -> PResult<(u64, usize)> {
    let (neg, j) = if t.get(i).is_some_and(|t| t.is('-')) { (true, i + 1) } else { (false, i) };
    let v = number(t, j)?;
    Ok((if neg { v.wrapping_neg() } else { v }, j + 1))
}

fn float_value(t: &[Tok], i: usize) -> PResult<(u64, usize)> {
    let (neg, j) = if t.get(i).is_some_and(|t| t.is('-')) { (true, i + 1) } else { (false, i) };
    let tok = t.get(j).filter(|t| t.kind == TokKind::Num).ok_or(at(t, j, "a number"))?;
    let bits = float_bits(&tok.text).ok_or((tok.col, tok.text.len(), format!("bad number `{}`", tok.text)))?;
    Ok(((if neg { bits ^ 0x8000_0000 } else { bits }) as u64, j + 1))
}

/// `0fXXXXXXXX` bits, or a decimal float literal rounded to binary32.
fn float_bits(s: &str) -> Option<u32> {
    if s.starts_with("0f") || s.starts_with("0F") {
        return parse_int(s).map(|v| v as u32);
    }
    if s.starts_with("0x") || s.starts_with("0X") {
        return None;
    }
    s.parse::<f32>().ok().map(f32::to_bits)
}

/// Splits operand tokens at top-level commas.
fn split_operands(t: &[Tok]) -> Vec<&[Tok]> {
    if t.is_empty() {
        return vec![];
    }
    let mut out = vec![];
    let mut start = 0;
    let mut depth = 0;
    for (i, tok) in t.iter().enumerate() {
        if tok.is('[') {
            depth += 1;
        } else if tok.is(']') {
            depth -= 1;
        } else if tok.is(',') && depth == 0 {
            out.push(&t[start..i]);
            start = i + 1;
        }
    }
    out.push(&t[start..]);
    out
}

fn reg_name(tok: &Tok) -> Option<u8> {
    if tok.kind != TokKind::Ident {
        return None;
    }
    if tok.text == "rz" {
        return Some(RZ);
    }
    let n: u8 = tok.text.strip_prefix('r')?.parse().ok()?;
    (n < NUM_REGS && !tok.text[1..].starts_with('0') || tok.text == "r0").then_some(n)
}

fn reg_operand(o: &[Tok]) -> PResult<u8> {
    match o {
        [t] => reg_name(t).ok_or((
            t.col,
            t.text.len().max(1),
            format!("expected a register (r0..r{} or rz), found `{}`", NUM_REGS - 1, t.text),
        )),
        [] => Err((0, 1, "missing operand".into())),
        [t, ..] => Err((t.col, t.text.len().max(1), "expected a register".into())),
    }
}

/// `[!]pN` or `[!]pt` starting at `t[i]`: (pred, negated, next index).
fn pred_operand(t: &[Tok], i: usize) -> PResult<(u8, bool, usize)> {
    let (neg, j) = if t.get(i).is_some_and(|t| t.is('!')) { (true, i + 1) } else { (false, i) };
    let tok = t.get(j).ok_or(at(t, j, "a predicate"))?;
    let p = match tok.text.as_str() {
        "pt" => Some(PT),
        s => s.strip_prefix('p').and_then(|n| n.parse::<u8>().ok()).filter(|&n| n < PT && s.len() == 2),
    };
    let p = p.filter(|_| tok.kind == TokKind::Ident).ok_or((
        tok.col,
        tok.text.len().max(1),
        format!("expected a predicate (p0..p6 or pt), found `{}`", tok.text),
    ))?;
    Ok((p, neg, j + 1))
}

fn pred4(o: &[Tok]) -> PResult<u8> {
    let (p, neg, next) = pred_operand(o, 0)?;
    end(o, next)?;
    Ok(p | (neg as u8) << 3)
}

fn plain_pred(o: &[Tok]) -> PResult<u8> {
    let (p, neg, next) = pred_operand(o, 0)?;
    end(o, next)?;
    if neg {
        return Err((o[0].col, 1, "a destination predicate cannot be negated".into()));
    }
    Ok(p)
}

type Sym = Option<(String, i64, usize)>;

/// A number or `symbol[+-number]`.
fn value_operand(o: &[Tok]) -> PResult<(u32, Sym)> {
    let first = o.first().ok_or((0, 1, "missing operand".to_string()))?;
    if first.kind == TokKind::Ident {
        let mut addend = 0i64;
        if o.len() > 1 {
            let sign = if o[1].is('+') {
                1
            } else if o[1].is('-') {
                -1
            } else {
                return Err((o[1].col, 1, format!("unexpected `{}`", o[1].text)));
            };
            let v = number(o, 2)?;
            end(o, 3)?;
            addend = sign * v as i64;
        }
        return Ok((0, Some((first.text.clone(), addend, first.col))));
    }
    let (v, next) = int_value(o, 0)?;
    end(o, next)?;
    let ok = v <= u32::MAX as u64 || ((v as i64) < 0 && (v as i64) >= i32::MIN as i64);
    if !ok {
        return Err((first.col, first.text.len(), "immediate does not fit in 32 bits".into()));
    }
    Ok((v as u32, None))
}

/// A register, or an immediate (a float literal for float instructions).
fn b_operand(o: &[Tok], op: Opcode) -> PResult<(Operand, Sym)> {
    if let [t] = o {
        if let Some(r) = reg_name(t) {
            return Ok((Operand::Reg(r), None));
        }
    }
    // Float literals: for float instructions, or any decimal with a point or exponent.
    let decimal_float = o.iter().any(|t| t.kind == TokKind::Num && !t.text.starts_with("0x") && t.text.contains(['.', 'e', 'E']));
    if super::print::float_imm(op) || decimal_float {
        if let Ok((v, next)) = float_value(o, 0) {
            end(o, next)?;
            return Ok((Operand::Imm(v as u32), None));
        }
    }
    let (v, sym) = value_operand(o)?;
    Ok((Operand::Imm(v), sym))
}

/// `[reg]`, `[reg+imm]`, `[reg-imm]`, `[reg+reg]`, `[imm]`, `[symbol+imm]`.
fn address(o: &[Tok]) -> PResult<(u8, Operand, Sym)> {
    let open = o.first().ok_or((0, 1, "missing address".to_string()))?;
    if !open.is('[') || !o.last().is_some_and(|t| t.is(']')) {
        return Err((open.col, open.text.len().max(1), "expected an address `[r+offset]`".into()));
    }
    let inner = &o[1..o.len() - 1];
    if let Some(base) = inner.first().and_then(reg_name) {
        if inner.len() == 1 {
            return Ok((base, Operand::Imm(0), None));
        }
        let sign = &inner[1];
        if !(sign.is('+') || sign.is('-')) {
            return Err((sign.col, 1, "expected `+` or `-`".into()));
        }
        if let [t] = &inner[2..] {
            if let Some(r) = reg_name(t) {
                if sign.is('-') {
                    return Err((t.col, t.text.len(), "a register offset cannot be negated".into()));
                }
                return Ok((base, Operand::Reg(r), None));
            }
        }
        let (v, sym) = value_operand(&inner[2..])?;
        let v = if sign.is('-') { v.wrapping_neg() } else { v };
        let sym = sym.map(|(n, a, c)| (n, if sign.is('-') { -a } else { a }, c));
        return Ok((base, Operand::Imm(v), sym));
    }
    let (v, sym) = value_operand(inner)?;
    Ok((RZ, Operand::Imm(v), sym))
}
