//! Printing one instruction in assembly syntax (the inverse of the parser).

use crate::fields::{PT, RPC_NONE, RZ};
use crate::inst::{Inst, Operand};
use crate::sreg::SReg;
use crate::table::{mod_info, Format, ModKind, Opcode, Unit};
use std::fmt::{self, Write};

pub fn reg(r: u8) -> String {
    if r == RZ {
        "rz".into()
    } else {
        format!("r{r}")
    }
}

pub fn pred(p: u8, neg: bool) -> String {
    let n = if neg { "!" } else { "" };
    if p == PT {
        format!("{n}pt")
    } else {
        format!("{n}p{p}")
    }
}

/// A predicate operand packed as 3 bits + a negation bit above them.
fn pred4(bits: u8) -> String {
    pred(bits & 7, bits & 8 != 0)
}

/// Does `b` of this instruction hold a binary32 value?
pub fn float_imm(op: Opcode) -> bool {
    let info = op.info();
    info.unit == Unit::Fpu && matches!(info.format, Format::Rrb | Format::Rrbc | Format::SetP)
}

fn imm(v: u32, float: bool) -> String {
    if float {
        format!("0f{v:08X}")
    } else if v < 0x10000 {
        format!("{v}")
    } else if (v as i32) < 0 && (v as i32) > -0x10000 {
        format!("{}", v as i32)
    } else {
        format!("{v:#x}")
    }
}

fn operand_b(i: &Inst) -> String {
    match i.b {
        Operand::Reg(r) => reg(r),
        Operand::Imm(v) => imm(v, float_imm(i.op)),
    }
}

fn address(i: &Inst) -> String {
    let base = reg(i.a);
    match i.b {
        Operand::Reg(r) => format!("[{base}+{}]", reg(r)),
        Operand::Imm(0) => format!("[{base}]"),
        Operand::Imm(v) if (v as i32) < 0 => {
            format!("[{base}-{}]", imm((v as i32).unsigned_abs(), false))
        }
        Operand::Imm(v) => format!("[{base}+{}]", imm(v, false)),
    }
}

/// The mnemonic with its modifiers, e.g. `isetp.lt.and`.
pub fn opname(i: &Inst) -> String {
    let info = i.op.info();
    let mut s = String::from(info.mnemonic);
    for &k in info.mods {
        let m = mod_info(k);
        let v = i.modifier(k);
        if v == 0 && (m.omit_default || m.is_flag()) {
            continue;
        }
        s.push('.');
        s.push_str(m.name(v).unwrap_or("?"));
    }
    if info.format == Format::Bra && i.rpc() == RPC_NONE {
        s.push_str(".uni");
    }
    s
}

/// Writes `i`; `label` names a code address (branch and call targets).
pub fn write_inst(f: &mut dyn Write, i: &Inst, label: &dyn Fn(u32) -> String) -> fmt::Result {
    if i.guard.pred != PT || i.guard.neg {
        write!(f, "@{} ", pred(i.guard.pred, i.guard.neg))?;
    }
    let name = opname(i);
    let ops: Vec<String> = match i.op.info().format {
        Format::None => vec![],
        Format::Rb => vec![reg(i.d), operand_b(i)],
        Format::Rr => vec![reg(i.d), reg(i.a)],
        Format::Rrb => vec![reg(i.d), reg(i.a), operand_b(i)],
        Format::Rrbc => vec![reg(i.d), reg(i.a), operand_b(i), reg(i.c)],
        Format::SetP => {
            let mut v = vec![pred(i.d & 7, false), reg(i.a), operand_b(i)];
            let pc = (i.d >> 3) & 0xf;
            if pc != PT {
                v.push(pred4(pc));
            }
            v
        }
        Format::Sel => vec![reg(i.d), reg(i.a), operand_b(i), pred4(i.mods & 0xf)],
        Format::Plop => {
            let pb = match i.b {
                Operand::Reg(r) => r,
                Operand::Imm(_) => 0,
            };
            vec![pred(i.d & 7, false), pred4(i.a), pred4(pb)]
        }
        Format::Ld => vec![reg(i.d), address(i)],
        Format::St => vec![address(i), reg(i.d)],
        Format::Atom => {
            let mut v = vec![reg(i.d), format!("[{}]", reg(i.a)), operand_b(i)];
            if i.c != RZ {
                v.push(reg(i.c));
            }
            v
        }
        Format::Bra => {
            let mut v = vec![label(i.imm().unwrap_or(0))];
            if i.rpc() != RPC_NONE {
                v.push(label(i.rpc()));
            }
            v
        }
        Format::Call => vec![label(i.imm().unwrap_or(0))],
        Format::CallInd => vec![reg(i.a)],
        Format::Bar => {
            let mut v = vec![operand_b(i)];
            if i.a != RZ {
                v.push(reg(i.a));
            }
            v
        }
        Format::Vote => vec![pred(i.d & 7, false), pred4(i.a)],
        Format::Ballot => vec![reg(i.d), pred4(i.a)],
        Format::BarRed => vec![reg(i.d), operand_b(i), pred4(i.a)],
        Format::Shfl => {
            let p = (i.mods >> 2) & 7;
            let d = if p != PT { format!("{}|{}", reg(i.d), pred(p, false)) } else { reg(i.d) };
            vec![d, reg(i.a), operand_b(i), reg(i.c)]
        }
        Format::S2r => vec![reg(i.d), SReg::from_code(i.a).map(|s| s.name().to_string()).unwrap_or_else(|| format!("sr{}", i.a))],
        Format::Syscall => vec![reg(i.d), reg(i.a)],
    };
    if ops.is_empty() {
        write!(f, "{name}")
    } else {
        write!(f, "{name} {}", ops.join(", "))
    }
}

/// Is `kind` one of this opcode's modifiers?
pub fn has_mod(op: Opcode, kind: ModKind) -> bool {
    op.info().mods.contains(&kind)
}

/// An instruction as assembly text, branch targets as numbers.
impl fmt::Display for Inst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_inst(f, self, &|pc| format!("{pc}"))
    }
}
