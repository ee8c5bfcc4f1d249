//! The modifier kinds, and the values of those that name several
//! (`ICmp::Hs`, not 9): one enum per kind, in encoding order, with the names
//! the assembler, disassembler and reference use ([`crate::table::MODS`]
//! reads them from here, with each kind's bits). One-name kinds (`.ftz`,
//! `.sat`, `.cc`) are flags, set to 0 or 1.

/// A modifier: a named value in fixed bits of `mod` or `ext`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModKind {
    Rnd,
    Ftz,
    Sat,
    Cc,
    X,
    Hi,
    Sign,
    ICmp,
    FCmp,
    BoolOp,
    Width,
    Space,
    AtomOp,
    AtomSpace,
    SfuFn,
    IntTy,
    ShflMode,
    VoteMode,
    Scope,
    BarMode,
    RedOp,
    SysNo,
    ShfDir,
    Clamp,
    PrmtMode,
    ShiftAmt,
    /// `.b64` on atomics (ext bit 0: register form only).
    B64,
    /// `.ftz` on compares (ext bit 0: register form only).
    FtzExt,
}

impl ModKind {
    /// Number of modifier kinds (for arrays indexed by kind).
    pub const COUNT: usize = ModKind::FtzExt as usize + 1;
}

/// A modifier value: its kind and its encoding.
pub trait ModValue: Copy {
    const KIND: ModKind;
    fn bits(self) -> u32;
    /// The (kind, value) pair `Inst::set_modifier` takes.
    fn pair(self) -> (ModKind, u32) {
        (Self::KIND, self.bits())
    }
}

macro_rules! values {
    ($($kind:ident { $($v:ident $name:literal),* $(,)? })*) => {
        $(
            #[doc = concat!("The values of `ModKind::", stringify!($kind), "`.")]
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
            #[repr(u32)]
            pub enum $kind {
                $($v,)*
            }

            impl $kind {
                /// Every value, in encoding order.
                pub const ALL: &'static [$kind] = &[$($kind::$v,)*];
                /// The names, in encoding order.
                pub const NAMES: [&'static str; [$($name),*].len()] = [$($name),*];
                /// The value encoded as `bits`.
                pub fn from_bits(bits: u32) -> Option<$kind> {
                    Self::ALL.get(bits as usize).copied()
                }
            }

            impl ModValue for $kind {
                const KIND: ModKind = ModKind::$kind;
                fn bits(self) -> u32 {
                    self as u32
                }
            }
        )*
    };
}

values! {
    Rnd { Rn "rn", Rz "rz", Rm "rm", Rp "rp" }
    Sign { U "u", S "s" }
    ICmp { Eq "eq", Ne "ne", Lt "lt", Le "le", Gt "gt", Ge "ge", Lo "lo", Ls "ls", Hi "hi", Hs "hs" }
    FCmp {
        Eq "eq", Ne "ne", Lt "lt", Le "le", Gt "gt", Ge "ge",
        Equ "equ", Neu "neu", Ltu "ltu", Leu "leu", Gtu "gtu", Geu "geu", Num "num", Nan "nan",
    }
    BoolOp { And "and", Or "or", Xor "xor" }
    Width { U8 "u8", S8 "s8", U16 "u16", S16 "s16", B32 "b32", B64 "b64", B128 "b128" }
    Space { Gen "gen", Global "global", Shared "shared", Local "local", Const "const", Param "param" }
    AtomOp {
        Add "add", Fadd "fadd", Umin "umin", Smin "smin", Umax "umax", Smax "smax",
        Inc "inc", Dec "dec", And "and", Or "or", Xor "xor", Exch "exch", Cas "cas",
    }
    AtomSpace { Gen "gen", Global "global", Shared "shared" }
    SfuFn { Rcp "rcp", Rsqrt "rsqrt", Lg2 "lg2", Ex2 "ex2", Sin "sin", Cos "cos", Sqrt "sqrt", Tanh "tanh" }
    IntTy { U32 "u32", S32 "s32", U64 "u64", S64 "s64" }
    ShflMode { Idx "idx", Up "up", Down "down", Bfly "bfly" }
    VoteMode { All "all", Any "any", Uni "uni" }
    Scope { Cta "cta", Gpu "gpu", Sys "sys" }
    BarMode { Sync "sync", Arrive "arrive" }
    RedOp { Popc "popc", And "and", Or "or" }
    ShfDir { L "l", R "r" }
    PrmtMode { Gen "gen", F4e "f4e", B4e "b4e", Rc8 "rc8", Ecl "ecl", Ecr "ecr", Rc16 "rc16" }
}

impl Sign {
    /// Signed or unsigned.
    pub fn of(signed: bool) -> Sign {
        if signed {
            Sign::S
        } else {
            Sign::U
        }
    }
}

impl Width {
    /// The same width unsigned (a store's: nothing to extend).
    pub fn unsigned(self) -> Width {
        match self {
            Width::S8 => Width::U8,
            Width::S16 => Width::U16,
            w => w,
        }
    }
}

impl ICmp {
    /// The comparison an encoding selects: the unused encodings (10-15)
    /// compare as `hs`, as the hardware's does.
    pub fn decode(bits: u32) -> ICmp {
        ICmp::from_bits(bits).unwrap_or(ICmp::Hs)
    }

    /// The comparison that is true exactly when this one is false.
    pub fn negate(self) -> ICmp {
        use ICmp::*;
        match self {
            Eq => Ne,
            Ne => Eq,
            Lt => Ge,
            Ge => Lt,
            Le => Gt,
            Gt => Le,
            Lo => Hs,
            Hs => Lo,
            Ls => Hi,
            Hi => Ls,
        }
    }
}

impl FCmp {
    /// The comparison that is true exactly when this one is false (NaN included).
    pub fn negate(self) -> FCmp {
        use FCmp::*;
        match self {
            Eq => Neu,
            Neu => Eq,
            Ne => Equ,
            Equ => Ne,
            Lt => Geu,
            Geu => Lt,
            Le => Gtu,
            Gtu => Le,
            Gt => Leu,
            Leu => Gt,
            Ge => Ltu,
            Ltu => Ge,
            Num => Nan,
            Nan => Num,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::mod_info;

    #[test]
    fn values_fit_their_fields() {
        fn check<V: ModValue + std::fmt::Debug>(all: &[V]) {
            let info = mod_info(V::KIND);
            assert_eq!(info.names.len(), all.len(), "{:?}", V::KIND);
            for (k, v) in all.iter().enumerate() {
                assert_eq!(v.bits() as usize, k);
                assert!(v.bits() < 1 << info.width, "{v:?} does not fit its field");
            }
        }
        check(Rnd::ALL);
        check(Sign::ALL);
        check(ICmp::ALL);
        check(FCmp::ALL);
        check(BoolOp::ALL);
        check(Width::ALL);
        check(Space::ALL);
        check(AtomOp::ALL);
        check(AtomSpace::ALL);
        check(SfuFn::ALL);
        check(IntTy::ALL);
        check(ShflMode::ALL);
        check(VoteMode::ALL);
        check(Scope::ALL);
        check(BarMode::ALL);
        check(RedOp::ALL);
        check(ShfDir::ALL);
        check(PrmtMode::ALL);
        for c in ICmp::ALL {
            assert_eq!(c.negate().negate(), *c);
        }
        for c in FCmp::ALL {
            assert_eq!(c.negate().negate(), *c);
        }
    }
}
