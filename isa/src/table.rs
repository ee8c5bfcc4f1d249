//! The instruction table: one row per instruction.
//!
//! `Opcode`, the encoder and decoder, the assembler and disassembler, the
//! reference document (`docs/isa.md`) and the constants the hardware decoder
//! uses all come from [`TABLE`] and [`ModKind`]. To add an instruction, add a
//! row here, give it semantics in the golden model (`heddle-sim`), and
//! regenerate the document (`heddle isa-doc > docs/isa.md`).

use crate::fields::{Field, EXT, MOD};

/// Which execution unit runs an instruction (the hardware issue class).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Integer ALU (with its optional dividers), moves, predicates, special registers.
    Alu,
    /// FP32 add/mul/fma, compare, conversions, IEEE division and square root.
    Fpu,
    /// Special-function unit (approximate transcendental functions).
    Sfu,
    /// Optional binary64 unit (division and square root included).
    Dpu,
    /// Load/store unit: memory, atomics, fences.
    Lsu,
    /// Control: branches, calls, barriers, warp-wide operations, syscalls.
    Ctl,
}

/// Operand syntax and field use of an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// No operands.
    None,
    /// `d, b` with `b` a register or immediate.
    Rb,
    /// `d, a`.
    Rr,
    /// `d, a, b`.
    Rrb,
    /// `d, a, b, c` (immediate form: `c` must be `rz`).
    Rrbc,
    /// `pd, a, b[, !pc]`: compare into a predicate, combined with `pc`
    /// (`pd` = d[2:0], `pc` = d[5:3], its negation = d[6]).
    SetP,
    /// `d, a, b, !p`: `p ? a : b`; the predicate sits in mod[3:0].
    Sel,
    /// `pd, !pa, !pb`: predicate logic (`pa` = a[3:0], `pb` = b[3:0]).
    Plop,
    /// `d, [a+b]`.
    Ld,
    /// `[a+b], d`: stores register `d`.
    St,
    /// `d, [a], b[, c]`: atomic at address `a` with operand `b` (and `c` for cas).
    Atom,
    /// `target, join` or (`bra.uni`) `target`: imm = target pc, rpc = reconvergence pc.
    Bra,
    /// `target`: imm = callee pc.
    Call,
    /// `a`: the callee pc is in register `a`.
    CallInd,
    /// `b[, a]`: barrier number `b`, thread count in `a` (`rz`: the whole CTA).
    Bar,
    /// `pd, !pa` (`pd` = d[2:0], `pa` = a[3:0]).
    Vote,
    /// `d, !pa` (`pa` = a[3:0]).
    Ballot,
    /// `d, b, !pa`: barrier `b` with a reduction of `pa` into `d` (`pa` = a[3:0]).
    BarRed,
    /// `d[|p], a, b, c`: the in-range predicate `p` sits in mod[4:2] (`pt`: none).
    Shfl,
    /// `d, sr`: special register number in `a`.
    S2r,
    /// `d, a`: result registers from `d`, argument registers from `a`.
    Syscall,
}

impl Format {
    /// Whether `d` names registers the instruction writes (not ones it
    /// reads, as `st`'s data, or a predicate).
    pub fn writes_d(self) -> bool {
        matches!(
            self,
            Format::Rb
                | Format::Rr
                | Format::Rrb
                | Format::Rrbc
                | Format::Ld
                | Format::Atom
                | Format::Shfl
                | Format::S2r
                | Format::Ballot
                | Format::Sel
                | Format::Syscall
                | Format::BarRed
        )
    }
}

/// How many consecutive registers each of d, a, b, c names (1, 2 or 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Regs {
    /// All 32-bit.
    Single,
    /// binary64 operands: every register operand is a pair (a predicate `d` stays a predicate).
    AllPairs,
    /// `d` spans the memory width (b64: pair, b128: quad).
    MemWidth,
    /// With `.b64`: d, b and c are pairs.
    Atom64,
    /// A 64-bit integer type (`.u64`/`.s64`) makes `d` a pair.
    IntTyD,
    /// A 64-bit integer type makes `a` a pair.
    IntTyA,
    /// `d` is a pair (f2d).
    PairD,
    /// `a` is a pair (d2f).
    PairA,
    /// `a` is a pair; a 64-bit integer type makes `d` a pair (d2i).
    PairAIntTyD,
    /// `d` is a pair; a 64-bit integer type makes `a` a pair (i2d).
    PairDIntTyA,
    /// `d` and `a` are pairs, `b` is 32-bit (64-bit shifts).
    PairDA,
}

pub use crate::values::ModKind;

/// Static description of a modifier kind.
pub struct ModInfo {
    pub kind: ModKind,
    /// `MOD` or `EXT`.
    pub word: Field,
    /// Bit offset within that field, and width.
    pub lo: u32,
    pub width: u32,
    /// Value names; an empty name is an encoding that does not exist. A
    /// one-element list is a flag (`.ftz`): set when present.
    pub names: &'static [&'static str],
    /// May the value 0 be left out of the assembly text?
    pub omit_default: bool,
    pub doc: &'static str,
}

impl ModInfo {
    pub fn is_flag(&self) -> bool {
        self.names.len() == 1
    }
    /// Bits of `mod` (or `ext`) this kind occupies.
    pub fn mask(&self) -> u32 {
        ((1u32 << self.width) - 1) << self.lo
    }
    pub fn get(&self, bits: u32) -> u32 {
        (bits >> self.lo) & ((1u32 << self.width) - 1)
    }
    /// The name of value `v`, if it exists (flags: value 1 is the name).
    pub fn name(&self, v: u32) -> Option<&'static str> {
        if self.is_flag() {
            return match v {
                0 => Some(""),
                1 => Some(self.names[0]),
                _ => None,
            };
        }
        self.names.get(v as usize).copied().filter(|n| !n.is_empty())
    }
    pub fn value_of(&self, name: &str) -> Option<u32> {
        if self.is_flag() {
            return (self.names[0] == name).then_some(1);
        }
        self.names.iter().position(|n| !n.is_empty() && *n == name).map(|p| p as u32)
    }
}

macro_rules! mods {
    ($($kind:ident: $word:ident[$lo:literal, $w:literal] $omit:literal $names:expr, $doc:literal;)*) => {
        /// Every modifier kind, with its bits and names.
        pub static MODS: &[ModInfo] = &[$(ModInfo {
            kind: ModKind::$kind, word: $word, lo: $lo, width: $w,
            names: &$names, omit_default: $omit, doc: $doc,
        },)*];
    };
}

mods! {
    Rnd: MOD[0, 2] true crate::values::Rnd::NAMES, "IEEE rounding: to nearest even (default), toward zero, toward -inf, toward +inf";
    Ftz: MOD[2, 1] true ["ftz"], "flush subnormal inputs and results to sign-preserving zero";
    Sat: MOD[3, 1] true ["sat"], "saturate: f32 results clamp to [0.0, 1.0] (NaN gives +0.0); integer add/mad.hi clamp to the s32 range";
    Cc: MOD[0, 1] true ["cc"], "write the carry flag (borrow for sub)";
    X: MOD[1, 1] true ["x"], "add the carry flag (sub: subtract the borrow)";
    Hi: MOD[2, 1] true ["hi"], "take the high 32 bits of the 64-bit product (default: low 32 bits)";
    Sign: MOD[4, 1] false crate::values::Sign::NAMES, "unsigned or signed operands";
    ICmp: MOD[0, 4] false crate::values::ICmp::NAMES, "integer comparison: lt/le/gt/ge signed, lo/ls/hi/hs unsigned";
    FCmp: MOD[0, 4] false crate::values::FCmp::NAMES, "float comparison: ordered (false on NaN), unordered (u: true on NaN), num (neither NaN), nan (either NaN)";
    BoolOp: MOD[4, 2] true crate::values::BoolOp::NAMES, "boolean combine with the predicate operand";
    Width: MOD[0, 3] false crate::values::Width::NAMES, "access width; s8/s16 sign-extend, u8/u16 zero-extend";
    Space: MOD[3, 3] true crate::values::Space::NAMES, "state space (default: generic address)";
    AtomOp: MOD[0, 4] false crate::values::AtomOp::NAMES, "atomic operation";
    AtomSpace: MOD[4, 2] true crate::values::AtomSpace::NAMES, "atomic state space (default: generic address)";
    SfuFn: MOD[3, 3] false crate::values::SfuFn::NAMES, "special function";
    IntTy: MOD[4, 2] false crate::values::IntTy::NAMES, "integer type of a conversion";
    ShflMode: MOD[0, 2] false crate::values::ShflMode::NAMES, "shuffle source-lane rule";
    VoteMode: MOD[0, 2] false crate::values::VoteMode::NAMES, "vote reduction";
    Scope: MOD[0, 2] false crate::values::Scope::NAMES, "fence scope";
    BarMode: MOD[0, 1] false crate::values::BarMode::NAMES, "wait at the barrier, or only arrive";
    RedOp: MOD[0, 2] false crate::values::RedOp::NAMES, "barrier reduction: count, all or any of the predicate over the CTA";
    SysNo: MOD[0, 2] false crate::syscall::NAMES, "system call serviced by the host (`syscall::SYSCALLS`)";
    ShfDir: MOD[0, 1] false crate::values::ShfDir::NAMES, "funnel-shift direction";
    Clamp: MOD[1, 1] true ["clamp"], "clamp the shift amount to 32 (default: wrap, amount mod 32)";
    PrmtMode: MOD[0, 3] true crate::values::PrmtMode::NAMES, "byte-permute mode (default: generic selector)";
    ShiftAmt: MOD[0, 1] true ["shiftamt"], "return the shift amount (31 - position) instead of the bit position";
    B64: EXT[0, 1] true ["b64"], "64-bit operands in register pairs (register form only)";
    FtzExt: EXT[0, 1] true ["ftz"], "flush subnormal inputs to sign-preserving zero (register form only)";
}

/// The static description of a modifier kind.
pub fn mod_info(kind: ModKind) -> &'static ModInfo {
    // MODS is in declaration order of ModKind.
    &MODS[kind as usize]
}

/// One row of the instruction table.
pub struct OpInfo {
    pub opcode: Opcode,
    pub mnemonic: &'static str,
    pub format: Format,
    pub mods: &'static [ModKind],
    pub regs: Regs,
    /// Is the immediate form (I=1) allowed?
    pub imm: bool,
    pub unit: Unit,
    pub doc: &'static str,
}

macro_rules! isa {
    ($($variant:ident = $code:literal $mn:literal $fmt:ident [$($m:ident),*] $regs:ident $imm:ident $unit:ident $doc:literal;)*) => {
        /// The opcode field; values are the 7-bit encodings.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Opcode { $($variant = $code,)* }

        /// The instruction table, in opcode order.
        pub static TABLE: &[OpInfo] = &[$(OpInfo {
            opcode: Opcode::$variant, mnemonic: $mn, format: Format::$fmt,
            mods: &[$(ModKind::$m),*], regs: Regs::$regs, imm: isa!(@imm $imm),
            unit: Unit::$unit, doc: $doc,
        },)*];

        impl Opcode {
            /// Every opcode, in table order.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$variant,)*];
        }
    };
    (@imm imm) => { true };
    (@imm reg) => { false };
}

isa! {
    // Integer ALU.
    Nop   = 0x00 "nop"   None [] Single reg Alu "Does nothing.";
    Mov   = 0x01 "mov"   Rb [] Single imm Alu "d = b.";
    Add   = 0x02 "add"   Rrb [Cc, X, Sat] Single imm Alu "d = a + b (+ carry with .x); .cc writes the carry-out; .sat clamps the signed sum to the s32 range.";
    Sub   = 0x03 "sub"   Rrb [Cc, X, Sat] Single imm Alu "d = a - b (- borrow with .x); .cc writes the borrow-out; .sat clamps the signed difference to the s32 range.";
    Mul   = 0x04 "mul"   Rrb [Hi, Sign] Single imm Alu "d = low (or with .hi, high) 32 bits of the 64-bit product a * b.";
    Mad   = 0x05 "mad"   Rrbc [Cc, X, Hi, Sat, Sign] Single imm Alu "d = (low or high 32 bits of a * b) + c (+ carry with .x); .cc writes the carry-out; .sat (with .hi.s) clamps to s32.";
    Min   = 0x06 "min"   Rrb [Sign] Single imm Alu "d = min(a, b).";
    Max   = 0x07 "max"   Rrb [Sign] Single imm Alu "d = max(a, b).";
    Abs   = 0x08 "abs"   Rr [] Single reg Alu "d = |a| as s32 (abs(-2^31) = -2^31).";
    And   = 0x09 "and"   Rrb [] Single imm Alu "d = a & b.";
    Or    = 0x0a "or"    Rrb [] Single imm Alu "d = a | b.";
    Xor   = 0x0b "xor"   Rrb [] Single imm Alu "d = a ^ b.";
    Shl   = 0x0c "shl"   Rrb [] Single imm Alu "d = a << b; amounts above 31 give 0.";
    Shr   = 0x0d "shr"   Rrb [Sign] Single imm Alu "d = a >> b, logical (.u) or arithmetic (.s); amounts above 31 give 0 or the sign fill.";
    Shf   = 0x0e "shf"   Rrbc [ShfDir, Clamp] Single imm Alu "Funnel shift of the 64-bit value c:a by b: .l gives the high word of (c:a << n), .r the low word of (c:a >> n); n = b mod 32, or min(b, 32) with .clamp.";
    Popc  = 0x0f "popc"  Rr [] Single reg Alu "d = number of set bits of a.";
    Clz   = 0x10 "clz"   Rr [] Single reg Alu "d = number of leading zero bits of a (32 for 0).";
    Brev  = 0x11 "brev"  Rr [] Single reg Alu "d = a with its bits reversed.";
    Bfind = 0x12 "bfind" Rr [ShiftAmt, Sign] Single reg Alu "d = position of the most significant non-sign bit of a (0xffffffff if none); .shiftamt gives 31 - position.";
    Bfe   = 0x13 "bfe"   Rrb [Sign] Single imm Alu "Bit-field extract of a at pos = b[7:0], len = b[15:8]; .s sign-extends from the field's top bit (PTX bfe rules for pos/len past 32).";
    Bfi   = 0x14 "bfi"   Rrbc [] Single imm Alu "Bit-field insert: d = c with bits [pos, pos+len) replaced by the low bits of a; pos = b[7:0], len = b[15:8].";
    Prmt  = 0x15 "prmt"  Rrbc [PrmtMode] Single imm Alu "Byte permute of the 8 bytes c:a (a = bytes 0-3) by the selector b, with the PTX prmt modes.";
    Isetp = 0x16 "isetp" SetP [ICmp, BoolOp] Single imm Alu "pd = (a cmp b) op pc.";
    Sel   = 0x17 "sel"   Sel [] Single imm Alu "d = p ? a : b.";
    Plop  = 0x18 "plop"  Plop [BoolOp] Single reg Alu "pd = pa op pb.";
    S2r   = 0x19 "s2r"   S2r [] Single reg Alu "d = special register sr.";
    Div   = 0x1a "div"   Rrb [Sign] Single imm Alu "d = a / b, truncating; b = 0 gives all ones (unsigned) or -1 (signed); -2^31 / -1 = -2^31.";
    Rem   = 0x1b "rem"   Rrb [Sign] Single imm Alu "d = a rem b (sign of a); b = 0 gives a.";
    Div64 = 0x1c "div64" Rrb [Sign] AllPairs reg Alu "64-bit d = a / b, as div.";
    Rem64 = 0x1d "rem64" Rrb [Sign] AllPairs reg Alu "64-bit d = a rem b, as rem.";
    Mul64 = 0x1e "mul64" Rrb [Hi, Sign] AllPairs reg Alu "64-bit d = low (or with .hi, high) 64 bits of the 128-bit product a * b.";
    Shl64 = 0x1f "shl64" Rrb [] PairDA imm Alu "64-bit d = a << b; amounts above 63 give 0.";
    Shr64 = 0x3c "shr64" Rrb [Sign] PairDA imm Alu "64-bit d = a >> b, logical (.u) or arithmetic (.s); amounts above 63 give 0 or the sign fill.";
    Isetp64 = 0x3d "isetp64" SetP [ICmp, BoolOp] AllPairs reg Alu "pd = (a cmp b) op pc on 64-bit integers.";
    // FP32.
    Fadd  = 0x20 "fadd"  Rrb [Rnd, Ftz, Sat] Single imm Fpu "d = a + b, rounded.";
    Fsub  = 0x21 "fsub"  Rrb [Rnd, Ftz, Sat] Single imm Fpu "d = a - b, rounded.";
    Fmul  = 0x22 "fmul"  Rrb [Rnd, Ftz, Sat] Single imm Fpu "d = a * b, rounded.";
    Ffma  = 0x23 "ffma"  Rrbc [Rnd, Ftz, Sat] Single imm Fpu "d = a * b + c with one rounding.";
    Fmin  = 0x24 "fmin"  Rrb [Ftz] Single imm Fpu "d = min(a, b): a NaN operand yields the other; -0 < +0.";
    Fmax  = 0x25 "fmax"  Rrb [Ftz] Single imm Fpu "d = max(a, b): a NaN operand yields the other; -0 < +0.";
    Fsetp = 0x26 "fsetp" SetP [FCmp, BoolOp, FtzExt] Single imm Fpu "pd = (a cmp b) op pc, on binary32.";
    Frnd  = 0x27 "frnd"  Rr [Rnd, Ftz] Single reg Fpu "d = a rounded to an integral value in the rounding direction.";
    F2i   = 0x28 "f2i"   Rr [Rnd, Ftz, IntTy] IntTyD reg Fpu "d = a converted to an integer, rounding as given, saturating; NaN gives 0.";
    I2f   = 0x29 "i2f"   Rr [Rnd, IntTy] IntTyA reg Fpu "d = integer a converted to binary32, rounded.";
    F2h   = 0x2a "f2h"   Rr [Rnd, Ftz] Single reg Fpu "d[15:0] = a rounded to binary16 (d[31:16] = 0).";
    H2f   = 0x2b "h2f"   Rr [] Single reg Fpu "d = binary16 a[15:0] widened to binary32 (exact; NaN gives the canonical NaN).";
    Mufu  = 0x2c "mufu"  Rr [Ftz, SfuFn] Single reg Sfu "d = f(a), the special-function unit's documented approximation.";
    Fdiv  = 0x2d "fdiv"  Rrb [Rnd, Ftz] Single imm Fpu "d = a / b, IEEE, rounded.";
    Fsqrt = 0x2e "fsqrt" Rr [Rnd, Ftz] Single reg Fpu "d = sqrt(a), IEEE, rounded.";
    Ddiv  = 0x3e "ddiv"  Rrb [Rnd] AllPairs reg Dpu "d = a / b in binary64, IEEE, rounded.";
    Dsqrt = 0x3f "dsqrt" Rr [Rnd] AllPairs reg Dpu "d = sqrt(a) in binary64, IEEE, rounded.";
    // binary64 (optional unit; register pairs).
    Dadd  = 0x30 "dadd"  Rrb [Rnd] AllPairs reg Dpu "d = a + b in binary64.";
    Dsub  = 0x31 "dsub"  Rrb [Rnd] AllPairs reg Dpu "d = a - b in binary64.";
    Dmul  = 0x32 "dmul"  Rrb [Rnd] AllPairs reg Dpu "d = a * b in binary64.";
    Dfma  = 0x33 "dfma"  Rrbc [Rnd] AllPairs reg Dpu "d = a * b + c in binary64 with one rounding.";
    Dmin  = 0x34 "dmin"  Rrb [] AllPairs reg Dpu "d = min(a, b) in binary64.";
    Dmax  = 0x35 "dmax"  Rrb [] AllPairs reg Dpu "d = max(a, b) in binary64.";
    Dsetp = 0x36 "dsetp" SetP [FCmp, BoolOp] AllPairs reg Dpu "pd = (a cmp b) op pc, on binary64.";
    Drnd  = 0x37 "drnd"  Rr [Rnd] AllPairs reg Dpu "d = a rounded to an integral binary64 value.";
    F2d   = 0x38 "f2d"   Rr [Ftz] PairD reg Dpu "d = binary32 a widened to binary64.";
    D2f   = 0x39 "d2f"   Rr [Rnd, Ftz, Sat] PairA reg Dpu "d = binary64 a rounded to binary32.";
    D2i   = 0x3a "d2i"   Rr [Rnd, IntTy] PairAIntTyD reg Dpu "d = binary64 a converted to an integer, saturating; NaN gives 0.";
    I2d   = 0x3b "i2d"   Rr [Rnd, IntTy] PairDIntTyA reg Dpu "d = integer a converted to binary64, rounded.";
    // Memory.
    Ld    = 0x40 "ld"    Ld [Space, Width] MemWidth imm Lsu "d = memory[a + b].";
    St    = 0x41 "st"    St [Space, Width] MemWidth imm Lsu "memory[a + b] = d.";
    Atom  = 0x42 "atom"  Atom [AtomSpace, AtomOp, B64] Atom64 imm Lsu "Atomically: d = memory[a]; memory[a] = op(memory[a], b[, c]). cas stores c if the old value equals b. Lanes apply in lane order.";
    Fence = 0x43 "fence" None [Scope] Single reg Lsu "Orders this thread's memory accesses at the given scope.";
    // Control.
    Bra   = 0x50 "bra"   Bra [] Single imm Ctl "Branch to target where the guard holds; threads that disagree diverge and reconverge at join.";
    Call  = 0x51 "call"  Call [] Single imm Ctl "Call the function at target.";
    Calli = 0x52 "calli" CallInd [] Single reg Ctl "Call the function whose pc is in register a (lanes with different targets run one after another).";
    Ret   = 0x53 "ret"   None [] Single reg Ctl "Return from the current call.";
    Exit  = 0x54 "exit"  None [] Single reg Ctl "The executing threads end.";
    Bar   = 0x55 "bar"   Bar [BarMode] Single imm Ctl "CTA barrier b: .sync waits until the expected threads arrive; .arrive only arrives.";
    Vote  = 0x56 "vote"  Vote [VoteMode] Single reg Ctl "pd = all/any/uni of pa over the active threads.";
    Ballot= 0x57 "ballot" Ballot [] Single reg Ctl "d = mask of active lanes whose pa holds.";
    Barred = 0x5c "barred" BarRed [RedOp] Single imm Ctl "CTA barrier b that also reduces pa over the arriving threads: d = count (.popc) or 0/1 for all (.and) / any (.or), written when the barrier completes.";
    Shfl  = 0x58 "shfl"  Shfl [ShflMode] Single imm Ctl "Warp shuffle with the PTX shfl lane rules: b is the lane or delta, c packs clamp (c[4:0]) and segment mask (c[12:8]).";
    Syscall = 0x59 "syscall" Syscall [SysNo] Single reg Ctl "Host system call (see the syscall table).";
    Trap  = 0x5a "trap"  None [] Single reg Ctl "Ends the launch with a user trap.";
    Brkpt = 0x5b "brkpt" None [] Single reg Ctl "Ends the launch with a breakpoint trap.";
}

impl Opcode {
    pub fn info(self) -> &'static OpInfo {
        // TABLE and Opcode::ALL come from the same list, in the same order.
        &TABLE[ROW_BY_CODE[self as usize] as usize]
    }

    pub fn from_code(code: u8) -> Option<Opcode> {
        OPCODE_BY_CODE.get(code as usize).copied().flatten()
    }

    pub fn mnemonic(self) -> &'static str {
        self.info().mnemonic
    }

    pub fn from_mnemonic(m: &str) -> Option<Opcode> {
        TABLE.iter().find(|r| r.mnemonic == m).map(|r| r.opcode)
    }
}

static OPCODE_BY_CODE: [Option<Opcode>; 128] = {
    let mut t = [None; 128];
    let mut i = 0;
    while i < Opcode::ALL.len() {
        t[Opcode::ALL[i] as usize] = Some(Opcode::ALL[i]);
        i += 1;
    }
    t
};

static ROW_BY_CODE: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < Opcode::ALL.len() {
        t[Opcode::ALL[i] as usize] = i as u8;
        i += 1;
    }
    t
};
