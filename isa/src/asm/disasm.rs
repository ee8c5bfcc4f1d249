//! The disassembler: an [`Object`] back to assembly text that re-assembles
//! to the identical object (kernels, data, symbols and line information
//! included).

use crate::fields::RPC_NONE;
use crate::inst::Inst;
use crate::object::{Object, SymbolKind};
use crate::table::Format;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// Disassembles a whole object.
pub fn disassemble(obj: &Object) -> String {
    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(w, "// Heddle object: {} instructions, {} kernel(s)", obj.code.len(), obj.kernels.len());
    if obj.files.is_empty() {
        let _ = writeln!(w, ".nolines");
    }
    for (i, f) in obj.files.iter().enumerate() {
        let _ = writeln!(w, ".file {i} \"{f}\"");
    }
    data(w, ".const", &obj.const_data, obj, SymbolKind::Const);
    data(w, ".global", &obj.global_data, obj, SymbolKind::Global);

    let insts: Vec<Option<Inst>> = obj.code.iter().map(|&c| Inst::decode(c).ok()).collect();
    // Names for code addresses: symbols first, then local labels for branch targets.
    let mut names: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for s in obj.symbols.iter().filter(|s| s.kind == SymbolKind::Code) {
        names.entry(s.value).or_default().push(s.name.clone());
    }
    let mut targets = BTreeSet::new();
    for i in insts.iter().flatten() {
        match i.op.info().format {
            Format::Bra => {
                targets.insert(i.imm().unwrap_or(0));
                if i.rpc() != RPC_NONE {
                    targets.insert(i.rpc());
                }
            }
            Format::Call => {
                targets.insert(i.imm().unwrap_or(0));
            }
            _ => {}
        }
    }
    let kernel_names: BTreeSet<&str> = obj.kernels.iter().map(|k| k.name.as_str()).collect();
    let mut local = BTreeMap::new();
    // Targets past the end of the code stay numeric: there is no line to put a label on.
    for t in targets.into_iter().filter(|&t| t as usize <= obj.code.len()) {
        if !names.contains_key(&t) {
            local.insert(t, format!(".L{t}"));
        }
    }
    let label = |pc: u32| -> String {
        names.get(&pc).and_then(|v| v.first().cloned()).or_else(|| local.get(&pc).cloned()).unwrap_or_else(|| pc.to_string())
    };
    let mut line_iter = obj.lines.iter().peekable();
    for pc in 0..=obj.code.len() as u32 {
        for k in obj.kernels.iter().filter(|k| k.entry == pc) {
            let _ = writeln!(w, "\n.kernel {}", k.name);
            let _ = writeln!(w, "    .regs {}", k.regs);
            for p in &k.params {
                let _ = writeln!(w, "    .param {} {} {}", p.name, p.size, p.offset);
            }
            let _ = writeln!(w, "    .params {}", k.param_bytes);
            let _ = writeln!(w, "    .shared {}", k.shared_bytes);
            let _ = writeln!(w, "    .local {}", k.local_bytes);
        }
        for n in names.get(&pc).into_iter().flatten() {
            if !kernel_names.contains(n.as_str()) {
                let _ = writeln!(w, "{n}:");
            }
        }
        if let Some(l) = local.get(&pc) {
            let _ = writeln!(w, "{l}:");
        }
        let Some(&word) = obj.code.get(pc as usize) else {
            break;
        };
        while let Some(l) = line_iter.next_if(|l| l.pc <= pc) {
            if l.pc == pc {
                let _ = writeln!(w, "    .loc {} {} {}", l.file, l.line, l.col);
            }
        }
        match &insts[pc as usize] {
            Some(i) => {
                let mut s = String::new();
                let _ = crate::asm::print::write_inst(&mut s, i, &label);
                let _ = writeln!(w, "    {s:<40} // {pc:5}: {word:016x}");
            }
            None => {
                let _ = writeln!(w, "    // {pc:5}: {word:016x} (invalid instruction)");
            }
        }
    }
    out
}

fn data(w: &mut String, dir: &str, bytes: &[u8], obj: &Object, kind: SymbolKind) {
    let mut syms: Vec<_> = obj.symbols.iter().filter(|s| s.kind == kind).collect();
    syms.sort_by_key(|s| s.value);
    let mut at = 0usize;
    let emit = |w: &mut String, name: &str, range: std::ops::Range<usize>| {
        let chunk = &bytes[range];
        if chunk.iter().all(|&b| b == 0) {
            let _ = writeln!(w, "{dir} {name}{}.zero {}", if name.is_empty() { "" } else { " " }, chunk.len());
        } else {
            let list: Vec<String> = chunk.iter().map(|b| format!("{b:#04x}")).collect();
            let _ = writeln!(w, "{dir} {name}{}.b8 {}", if name.is_empty() { "" } else { " " }, list.join(", "));
        }
    };
    for s in syms {
        let start = s.value as usize;
        if start > at {
            emit(w, "", at..start);
        }
        emit(w, &s.name, start..start + s.size as usize);
        at = start + s.size as usize;
    }
    if bytes.len() > at {
        emit(w, "", at..bytes.len());
    }
}
