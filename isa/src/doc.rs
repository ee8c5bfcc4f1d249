//! Generates the ISA reference (`docs/isa.md`) from the table.

use crate::fields;
use crate::mem;
use crate::sreg::SReg;
use crate::table::{Format, MODS, TABLE};
use std::fmt::Write;

const PREAMBLE: &str = include_str!("doc_preamble.md");

fn syntax(format: Format) -> &'static str {
    match format {
        Format::None => "",
        Format::Rb => "d, b",
        Format::Rr => "d, a",
        Format::Rrb => "d, a, b",
        Format::Rrbc => "d, a, b, c",
        Format::SetP => "pd, a, b[, [!]pc]",
        Format::Sel => "d, a, b, [!]p",
        Format::Plop => "pd, [!]pa, [!]pb",
        Format::Ld => "d, [a+b]",
        Format::St => "[a+b], d",
        Format::Atom => "d, [a], b[, c]",
        Format::Bra => "target, join | .uni target",
        Format::Call => "target",
        Format::CallInd => "a",
        Format::Bar => "b[, a]",
        Format::Vote => "pd, [!]pa",
        Format::Ballot => "d, [!]pa",
        Format::BarRed => "d, b, [!]pa",
        Format::Shfl => "d[\\|p], a, b, c",
        Format::S2r => "d, sr",
        Format::Syscall => "d, a",
    }
}

/// The whole reference document.
pub fn reference() -> String {
    let rows: Vec<String> = crate::syscall::SYSCALLS.iter().map(crate::syscall::doc_row).collect();
    let mut s = PREAMBLE.replace("{syscalls}", &rows.join("\n"));
    let w = &mut s;
    let _ = writeln!(w, "\n## Fields\n\n| field | bits |\n|---|---|");
    for (name, f) in fields::ALL {
        let _ = writeln!(w, "| `{name}` | [{}:{}] |", f.lo + f.width - 1, f.lo);
    }
    let _ = writeln!(w, "\n## Instructions\n");
    let _ = writeln!(w, "| opcode | instruction | operands | modifiers | imm | unit | semantics |\n|---|---|---|---|---|---|---|");
    for r in TABLE {
        let mods: Vec<String> = r.mods.iter().map(|&k| format!("{:?}", k)).collect();
        let _ = writeln!(
            w,
            "| `{:#04x}` | `{}` | `{}` | {} | {} | {:?} | {} |",
            r.opcode as u8,
            r.mnemonic,
            syntax(r.format),
            mods.join(", "),
            if r.imm { "yes" } else { "no" },
            r.unit,
            r.doc
        );
    }
    let _ = writeln!(
        w,
        "\n## Modifiers\n\n| modifier | bits | values (in encoding order) | default omitted | meaning |\n|---|---|---|---|---|"
    );
    for m in MODS {
        let word = if m.word == fields::EXT { "ext" } else { "mod" };
        let names: Vec<String> = m.names.iter().map(|n| format!("`.{n}`")).collect();
        let _ = writeln!(
            w,
            "| {:?} | {word}[{}:{}] | {} | {} | {} |",
            m.kind,
            m.lo + m.width - 1,
            m.lo,
            names.join(" "),
            if m.omit_default || m.is_flag() { "yes" } else { "no" },
            m.doc
        );
    }
    let _ = writeln!(w, "\n## Special registers (`s2r`)\n\n| number | name | meaning |\n|---|---|---|");
    for r in SReg::ALL {
        let _ = writeln!(w, "| {} | `{}` | {} |", *r as u8, r.name(), r.doc());
    }
    let _ = writeln!(w, "\n## Address map\n\n| constant | value |\n|---|---|");
    for (n, v) in [
        ("NULL_LIMIT", mem::NULL_LIMIT),
        ("MODULE_GLOBAL_BASE", mem::MODULE_GLOBAL_BASE),
        ("PARAM_WINDOW", mem::PARAM_WINDOW),
        ("CONST_WINDOW", mem::CONST_WINDOW),
        ("SHARED_WINDOW", mem::SHARED_WINDOW),
        ("LOCAL_WINDOW", mem::LOCAL_WINDOW),
        ("WINDOW_SIZE", mem::WINDOW_SIZE),
    ] {
        let _ = writeln!(w, "| `{n}` | `{v:#010x}` |");
    }
    s
}
