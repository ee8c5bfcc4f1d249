//! One instruction: its fields, and the encoder and decoder driven by the table.

use crate::fields::{self, NUM_REGS, PT, RZ};
use crate::table::{mod_info, Format, ModKind, Opcode, Regs};

/// A guard predicate: the instruction executes in lanes where `pred` (negated if `neg`) holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Guard {
    pub pred: u8,
    pub neg: bool,
}

impl Guard {
    pub const ALWAYS: Guard = Guard { pred: PT, neg: false };
}

/// The `b` operand: a register or a 32-bit immediate (the I bit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operand {
    Reg(u8),
    Imm(u32),
}

/// A decoded instruction. Fields hold the raw values of the encoding; the
/// instruction's [`Format`] says what each one means. Unused fields are zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Inst {
    pub op: Opcode,
    pub guard: Guard,
    pub d: u8,
    pub a: u8,
    pub b: Operand,
    /// In immediate form, `c` reads as `rz` (formats that use `c`) or 0.
    pub c: u8,
    pub mods: u8,
    pub ext: u32,
}

/// Why a word or an instruction is not a valid encoding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidInst {
    #[error("unknown opcode {0:#04x}")]
    Opcode(u8),
    #[error("{op} has no immediate form")]
    NoImmediate { op: &'static str },
    #[error("{op}: the immediate form needs c = rz")]
    ImmWithC { op: &'static str },
    #[error("{op}: bits {bits:#x} of the {field} field must be zero")]
    Reserved { op: &'static str, field: &'static str, bits: u64 },
    #[error("{op}: .{kind:?} value {value} does not exist")]
    ModValue { op: &'static str, kind: ModKind, value: u32 },
    #[error("{op}: .{kind:?} needs the register form")]
    ExtInImm { op: &'static str, kind: ModKind },
    #[error("{op}: register r{reg} cannot start a group of {count} registers (needs alignment {count} and to stay below rz)")]
    RegGroup { op: &'static str, reg: u8, count: u8 },
    #[error("{op}: {what} {value} is out of range")]
    Range { op: &'static str, what: &'static str, value: u32 },
}

impl Inst {
    /// An instruction with every field zero except the opcode (and `c`/`b` as the format expects).
    pub fn new(op: Opcode) -> Inst {
        let info = op.info();
        let b = match info.format {
            Format::Bra | Format::Call => Operand::Imm(0),
            _ => Operand::Reg(0),
        };
        let mut i = Inst { op, guard: Guard::ALWAYS, d: 0, a: 0, b, c: 0, mods: 0, ext: 0 };
        if info.format == Format::Bra {
            i.set_rpc(fields::RPC_NONE);
        }
        i
    }

    /// Value of a modifier of this instruction (0 when absent).
    pub fn modifier(&self, kind: ModKind) -> u32 {
        let m = mod_info(kind);
        if m.word == fields::EXT {
            m.get(self.ext)
        } else {
            m.get(self.mods as u32)
        }
    }

    pub fn set_modifier(&mut self, kind: ModKind, value: u32) {
        let m = mod_info(kind);
        if m.word == fields::EXT {
            self.ext = (self.ext & !m.mask()) | ((value << m.lo) & m.mask());
        } else {
            self.mods = ((self.mods as u32 & !m.mask()) | ((value << m.lo) & m.mask())) as u8;
        }
    }

    /// Sets a modifier to a value of its kind (`inst.set(ICmp::Hs)`).
    pub fn set<V: crate::values::ModValue>(&mut self, v: V) {
        self.set_modifier(V::KIND, v.bits());
    }

    /// Reconvergence pc of a branch (`RPC_NONE` for a uniform branch).
    pub fn rpc(&self) -> u32 {
        self.d as u32 | (self.a as u32) << 7 | (self.mods as u32) << 14
    }

    pub fn set_rpc(&mut self, rpc: u32) {
        self.d = (rpc & 0x7f) as u8;
        self.a = ((rpc >> 7) & 0x7f) as u8;
        self.mods = ((rpc >> 14) & 0x3f) as u8;
    }

    /// The immediate of `b`, if in immediate form.
    pub fn imm(&self) -> Option<u32> {
        match self.b {
            Operand::Imm(v) => Some(v),
            Operand::Reg(_) => None,
        }
    }

    /// Does the format use the `c` field?
    pub fn uses_c(&self) -> bool {
        matches!(self.op.info().format, Format::Rrbc | Format::Atom | Format::Shfl)
    }

    /// How many registers from `d` on the instruction writes when it
    /// retires: `d`'s count, or a system call's result registers. `None`:
    /// none then (`barred` writes `d` when its barrier completes; `free`
    /// and `assertfail` return nothing).
    pub fn retire_writes(&self) -> Option<u8> {
        match self.op.info().format {
            Format::Syscall => crate::syscall::Syscall::get(self.modifier(ModKind::SysNo)).and_then(|s| s.result_regs()),
            Format::BarRed => None,
            f if f.writes_d() => Some(self.reg_counts()[0]),
            _ => None,
        }
    }

    /// How many consecutive registers d, a, b and c name.
    pub fn reg_counts(&self) -> [u8; 4] {
        let is64 = || self.modifier(ModKind::IntTy) >= 2;
        let w = |wide: bool| if wide { 2 } else { 1 };
        match self.op.info().regs {
            Regs::Single => [1, 1, 1, 1],
            Regs::AllPairs => [2, 2, 2, 2],
            Regs::MemWidth => {
                let n = match self.modifier(ModKind::Width) {
                    5 => 2,
                    6 => 4,
                    _ => 1,
                };
                [n, 1, 1, 1]
            }
            Regs::Atom64 => {
                let n = w(self.modifier(ModKind::B64) == 1);
                [n, 1, n, n]
            }
            Regs::IntTyD => [w(is64()), 1, 1, 1],
            Regs::IntTyA => [1, w(is64()), 1, 1],
            Regs::PairD => [2, 1, 1, 1],
            Regs::PairA => [1, 2, 1, 1],
            Regs::PairAIntTyD => [w(is64()), 2, 1, 1],
            Regs::PairDIntTyA => [2, w(is64()), 1, 1],
            Regs::PairDA => [2, 2, 1, 1],
        }
    }

    /// Packs the instruction into its 64-bit word.
    pub fn encode(&self) -> Result<u64, InvalidInst> {
        self.validate()?;
        Ok(self.pack())
    }

    fn pack(&self) -> u64 {
        use fields::*;
        let mut w = OPCODE.put(self.op as u64)
            | GUARD_PRED.put(self.guard.pred as u64)
            | GUARD_NEG.put(self.guard.neg as u64)
            | D.put(self.d as u64)
            | A.put(self.a as u64)
            | MOD.put(self.mods as u64);
        match self.b {
            Operand::Imm(v) => w |= IMM_FLAG.put(1) | IMM.put(v as u64),
            Operand::Reg(r) => w |= B.put(r as u64) | C.put(self.c as u64) | EXT.put(self.ext as u64),
        }
        w
    }

    /// Unpacks and validates a 64-bit word.
    pub fn decode(word: u64) -> Result<Inst, InvalidInst> {
        use fields::*;
        let code = OPCODE.get(word) as u8;
        let op = Opcode::from_code(code).ok_or(InvalidInst::Opcode(code))?;
        let imm = IMM_FLAG.get(word) == 1;
        let uses_c = matches!(op.info().format, Format::Rrbc | Format::Atom | Format::Shfl);
        let inst = Inst {
            op,
            guard: Guard { pred: GUARD_PRED.get(word) as u8, neg: GUARD_NEG.get(word) == 1 },
            d: D.get(word) as u8,
            a: A.get(word) as u8,
            b: if imm { Operand::Imm(IMM.get(word) as u32) } else { Operand::Reg(B.get(word) as u8) },
            c: if imm {
                if uses_c {
                    RZ
                } else {
                    0
                }
            } else {
                C.get(word) as u8
            },
            mods: MOD.get(word) as u8,
            ext: if imm { 0 } else { EXT.get(word) as u32 },
        };
        inst.validate()?;
        Ok(inst)
    }

    /// Checks every field against the table row: unused fields zero,
    /// modifier values that exist, register groups aligned, immediates allowed.
    pub fn validate(&self) -> Result<(), InvalidInst> {
        let info = self.op.info();
        let op = info.mnemonic;
        let reserved = |field: &'static str, bits: u64| -> Result<(), InvalidInst> {
            if bits != 0 {
                Err(InvalidInst::Reserved { op, field, bits })
            } else {
                Ok(())
            }
        };
        // Which parts of d, a, b, c, mod the format uses.
        let (d_mask, a_mask, b_used, c_used, mod_operand): (u8, u8, bool, bool, u8) = match info.format {
            Format::None => (0, 0, false, false, 0),
            Format::Rb => (0x7f, 0, true, false, 0),
            Format::Rr | Format::Syscall => (0x7f, 0x7f, false, false, 0),
            Format::Rrb | Format::Ld | Format::St => (0x7f, 0x7f, true, false, 0),
            Format::Rrbc | Format::Atom | Format::Shfl => (0x7f, 0x7f, true, true, 0),
            Format::SetP => (0x7f, 0x7f, true, false, 0),
            Format::Sel => (0x7f, 0x7f, true, false, 0x0f),
            Format::Plop => (0x07, 0x0f, true, false, 0),
            Format::Bra => (0x7f, 0x7f, true, false, 0x3f),
            Format::Call => (0, 0, true, false, 0),
            Format::CallInd => (0, 0x7f, false, false, 0),
            Format::Bar => (0, 0x7f, true, false, 0),
            Format::Vote => (0x07, 0x0f, false, false, 0),
            Format::Ballot => (0x7f, 0x0f, false, false, 0),
            Format::BarRed => (0x7f, 0x0f, true, false, 0),
            Format::S2r => (0x7f, 0x7f, false, false, 0),
        };
        let mod_operand = if info.format == Format::Shfl { 0x1c } else { mod_operand };
        if self.guard.pred > 7 {
            return Err(InvalidInst::Range { op, what: "guard predicate", value: self.guard.pred as u32 });
        }
        reserved("d", (self.d & !d_mask) as u64)?;
        reserved("a", (self.a & !a_mask) as u64)?;
        if self.d > 0x7f || self.a > 0x7f || self.c > 0x7f {
            return Err(InvalidInst::Range { op, what: "register field", value: self.d.max(self.a).max(self.c) as u32 });
        }
        // Modifier bits.
        let mut mod_mask = mod_operand as u32;
        let mut ext_mask = 0u32;
        for &k in info.mods {
            let m = mod_info(k);
            let v = self.modifier(k);
            if m.name(v).is_none() {
                return Err(InvalidInst::ModValue { op, kind: k, value: v });
            }
            if m.word == fields::EXT {
                ext_mask |= m.mask();
                if v != 0 && self.imm().is_some() {
                    return Err(InvalidInst::ExtInImm { op, kind: k });
                }
            } else {
                mod_mask |= m.mask();
            }
        }
        reserved("mod", (self.mods as u32 & !mod_mask) as u64)?;
        reserved("ext", (self.ext & !ext_mask) as u64)?;
        match self.b {
            Operand::Imm(v) => {
                if !b_used || !info.imm {
                    return Err(InvalidInst::NoImmediate { op });
                }
                if c_used && self.c != RZ {
                    return Err(InvalidInst::ImmWithC { op });
                }
                if !c_used {
                    reserved("c", self.c as u64)?;
                }
                if matches!(info.format, Format::Bra | Format::Call) && v > fields::MAX_CODE {
                    return Err(InvalidInst::Range { op, what: "target pc", value: v });
                }
            }
            Operand::Reg(r) => {
                if matches!(info.format, Format::Bra | Format::Call) {
                    return Err(InvalidInst::Reserved { op, field: "I", bits: 1 });
                }
                let b_mask = if info.format == Format::Plop { 0x0f } else { 0x7f };
                reserved("b", if b_used { (r & !b_mask) as u64 } else { r as u64 })?;
                if !c_used {
                    reserved("c", self.c as u64)?;
                }
            }
        }
        if info.format == Format::S2r && crate::sreg::SReg::from_code(self.a).is_none() {
            return Err(InvalidInst::Range { op, what: "special register", value: self.a as u32 });
        }
        // Register groups.
        let counts = self.reg_counts();
        let regs = self.reg_fields();
        for (i, &count) in counts.iter().enumerate() {
            if let (Some(r), true) = (regs[i], count > 1) {
                if r != RZ && (r % count != 0 || r + count > NUM_REGS) {
                    return Err(InvalidInst::RegGroup { op, reg: r, count });
                }
            }
        }
        Ok(())
    }

    /// The general-register fields d, a, b, c that name registers in this format
    /// (`None` where the field is a predicate, immediate, or unused).
    pub fn reg_fields(&self) -> [Option<u8>; 4] {
        let b = match self.b {
            Operand::Reg(r) => Some(r),
            Operand::Imm(_) => None,
        };
        match self.op.info().format {
            Format::None | Format::Bra | Format::Call => [None; 4],
            Format::Rb => [Some(self.d), None, b, None],
            Format::Rr => [Some(self.d), Some(self.a), None, None],
            Format::Rrb | Format::Ld | Format::St | Format::Sel => [Some(self.d), Some(self.a), b, None],
            Format::Rrbc | Format::Atom | Format::Shfl => [Some(self.d), Some(self.a), b, Some(self.c)],
            Format::SetP => [None, Some(self.a), b, None],
            Format::Plop | Format::Vote => [None; 4],
            Format::CallInd => [None, Some(self.a), None, None],
            Format::Bar => [None, Some(self.a), b, None],
            Format::Ballot | Format::S2r => [Some(self.d), None, None, None],
            Format::BarRed => [
                Some(self.d),
                None,
                match self.b {
                    Operand::Reg(r) => Some(r),
                    Operand::Imm(_) => None,
                },
                None,
            ],
            Format::Syscall => [Some(self.d), Some(self.a), None, None],
        }
    }
}

impl Inst {
    /// The predicate registers (0..=7, 7 is `pt`) this instruction reads or
    /// writes: its guard and its predicate operands.
    pub fn pred_fields(&self) -> Vec<u8> {
        let b = match self.b {
            Operand::Reg(r) => r,
            Operand::Imm(_) => 0,
        };
        let mut v = vec![self.guard.pred];
        match self.op.info().format {
            Format::SetP => v.extend([self.d & 7, (self.d >> 3) & 7]),
            Format::Sel => v.push(self.mods & 7),
            Format::Plop => v.extend([self.d & 7, self.a & 7, b & 7]),
            Format::Vote => v.extend([self.d & 7, self.a & 7]),
            Format::Ballot | Format::BarRed => v.push(self.a & 7),
            Format::Shfl => v.push((self.mods >> 2) & 7),
            _ => {}
        }
        v
    }
}
