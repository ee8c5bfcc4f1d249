//! What each PTX instruction accepts: operand shapes, types, modifiers, and
//! the PTX version and target that introduced it. The checker reads this
//! table; one row per opcode.
//!
//! Operand shape letters: `d` destination register (or vector, or `_`),
//! `p` predicate destination (`p|q` allowed), `s` source (register,
//! immediate, `!pred`), `m` memory address `[...]`, `l` label or function
//! name, `x` anything (call operands, checked separately). A `?` makes the
//! rest of the operands optional.

/// One row of the instruction table.
#[derive(Debug)]
pub struct Spec {
    pub op: Op,
    pub name: &'static str,
    /// Operand shapes, e.g. "d s s" or "d s ? s".
    pub operands: &'static str,
    /// How many type suffixes: exactly `types.0`, or up to `types.1`.
    pub ntypes: (usize, usize),
    /// Allowed type suffixes (without the dot).
    pub types: &'static str,
    /// Allowed other modifiers.
    pub mods: ModSet,
    /// PTX ISA version that introduced it.
    pub ptx: (u32, u32),
}

const INT: &str = "u16 u32 u64 s16 s32 s64";

macro_rules! specs {
    ($($op:ident $name:literal $ops:literal ($n0:literal, $n1:literal) [$($t:expr),*] $mods:literal $ptx:literal;)*) => {
        /// A PTX opcode (one row of the table).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Op {
            $($op,)*
        }

        impl Op {
            /// Every opcode, in table order.
            pub const ALL: &'static [Op] = &[$(Op::$op,)*];

            /// The opcode's name in PTX source.
            pub fn name(self) -> &'static str {
                match self {
                    $(Op::$op => $name,)*
                }
            }

            /// The opcode named `name` (without modifiers).
            pub fn from_name(name: &str) -> Option<Op> {
                Some(match name {
                    $($name => Op::$op,)*
                    _ => return None,
                })
            }
        }

        /// The table (sorted by name for lookup).
        pub fn table() -> &'static [Spec] {
            static T: std::sync::OnceLock<Vec<Spec>> = std::sync::OnceLock::new();
            T.get_or_init(|| {
                let mut v = vec![$(Spec {
                    op: Op::$op,
                    name: $name,
                    operands: $ops,
                    ntypes: ($n0, $n1),
                    types: leak(&[$($t),*].join(" ")),
                    mods: ModSet::parse_list($mods),
                    ptx: parse_version($ptx),
                },)*];
                v.sort_by_key(|s| s.name);
                v
            })
        }
    };
}

macro_rules! modifiers {
    ($($m:ident $name:literal,)*) => {
        /// A PTX instruction modifier other than a type (`.rz`, `.shared`,
        /// `.L1::evict_last`). One name is one modifier whatever it means to
        /// the instruction: `.lo` of `mul` and of `setp` is `Mod::Lo`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Mod {
            $($m,)*
        }

        impl Mod {
            /// Every modifier, in declaration order (`Mod::ALL[m as usize] == m`).
            pub const ALL: &'static [Mod] = &[$(Mod::$m,)*];

            /// The modifier's name, without the dot.
            pub fn name(self) -> &'static str {
                match self {
                    $(Mod::$m => $name,)*
                }
            }

            /// The modifier named `name` (without the dot).
            pub fn from_name(name: &str) -> Option<Mod> {
                Some(match name {
                    $($name => Mod::$m,)*
                    _ => return None,
                })
            }
        }
    };
}

modifiers! {
    Sat "sat", Cc "cc", Rn "rn", Rz "rz", Rm "rm", Rp "rp", Rni "rni", Rzi "rzi", Rmi "rmi", Rpi "rpi", Rna "rna",
    Ftz "ftz", Noftz "noftz", Lo "lo", Hi "hi", Wide "wide", Approx "approx", Full "full",
    KeepNan "NaN", Xorsign "xorsign", Abs "abs", Relu "relu", Oob "oob", Shiftamt "shiftamt", Clamp "clamp", Wrap "wrap",
    Finite "finite", Infinite "infinite", Number "number", Notanumber "notanumber", Normal "normal", Subnormal "subnormal",
    Eq "eq", Ne "ne", Lt "lt", Le "le", Gt "gt", Ge "ge", Ls "ls", Hs "hs",
    Equ "equ", Neu "neu", Ltu "ltu", Leu "leu", Gtu "gtu", Geu "geu", Num "num", Nan "nan",
    And "and", Or "or", Xor "xor", L "l", R "r", V2 "v2", V4 "v4", V8 "v8",
    Sync "sync", Up "up", Down "down", Bfly "bfly", Idx "idx",
    F4e "f4e", B4e "b4e", Rc8 "rc8", Ecl "ecl", Ecr "ecr", Rc16 "rc16",
    Global "global", Shared "shared", Local "local", Const "const", Param "param", Generic "generic",
    SharedCta "shared::cta", SharedCluster "shared::cluster", To "to",
    Volatile "volatile", Relaxed "relaxed", Acquire "acquire", Release "release", AcqRel "acq_rel", Sc "sc", Weak "weak", Mmio "mmio",
    Cta "cta", Cluster "cluster", Gpu "gpu", Sys "sys", Gl "gl", Proxy "proxy", Alias "alias", Async "async",
    Nc "nc", Ca "ca", Cg "cg", Cs "cs", Lu "lu", Cv "cv", Wb "wb", Wt "wt",
    L1EvictNormal "L1::evict_normal", L1EvictUnchanged "L1::evict_unchanged", L1EvictFirst "L1::evict_first",
    L1EvictLast "L1::evict_last", L1NoAllocate "L1::no_allocate", L2Bytes64 "L2::64B", L2Bytes128 "L2::128B",
    L2Bytes256 "L2::256B", L2CacheHint "L2::cache_hint", L1 "L1", L2 "L2", L2EvictLast "L2::evict_last",
    L2EvictNormal "L2::evict_normal",
    Uni "uni", Arrive "arrive", Red "red", Popc "popc", Aligned "aligned", Warp "warp",
    Cas "cas", Exch "exch", Add "add", Inc "inc", Dec "dec", Min "min", Max "max",
    All "all", Any "any", Ballot "ballot", Mask "mask",
}

/// Modifier groups: an instruction takes at most one of each (the checker's rules).
pub mod group {
    use super::Mod::{self, *};
    pub const ROUNDING: &[Mod] = &[Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi, Rna];
    pub const INT_ROUNDING: &[Mod] = &[Rni, Rzi, Rmi, Rpi];
    pub const FLOAT_ROUNDING: &[Mod] = &[Rn, Rz, Rm, Rp, Rna];
    pub const COMPARISON: &[Mod] = &[Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan];
    pub const BOOL_OP: &[Mod] = &[And, Or, Xor];
    pub const MUL_HALF: &[Mod] = &[Lo, Hi, Wide];
    pub const ATOM_OP: &[Mod] = &[And, Or, Xor, Cas, Exch, Add, Inc, Dec, Min, Max];
    pub const SHFL_MODE: &[Mod] = &[Up, Down, Bfly, Idx];
    pub const VOTE_MODE: &[Mod] = &[All, Any, Uni, Ballot];
}

/// A set of modifiers, one bit per [`Mod`]. (Not a `bitflags` type: there
/// are more modifiers than the 128 bits of its largest integer.)
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ModSet([u64; 3]);

impl ModSet {
    pub fn insert(&mut self, m: Mod) {
        self.0[m as usize / 64] |= 1 << (m as usize % 64);
    }
    pub fn has(self, m: Mod) -> bool {
        self.0[m as usize / 64] >> (m as usize % 64) & 1 == 1
    }
    /// Whether any of `ms` is in the set.
    pub fn any(self, ms: &[Mod]) -> bool {
        ms.iter().any(|&m| self.has(m))
    }
    /// The first of `ms` that is in the set.
    pub fn first_of<T: Copy>(self, ms: &[(Mod, T)]) -> Option<T> {
        ms.iter().find(|(m, _)| self.has(*m)).map(|&(_, t)| t)
    }
    /// How many of `ms` are in the set.
    pub fn count(self, ms: &[Mod]) -> usize {
        ms.iter().filter(|&&m| self.has(m)).count()
    }
    pub fn iter(self) -> impl Iterator<Item = Mod> {
        Mod::ALL.iter().copied().filter(move |&m| self.has(m))
    }
    /// The set of a space-separated list of names; an unknown name is a bug in the table.
    fn parse_list(names: &str) -> ModSet {
        let mut s = ModSet::default();
        for n in names.split_whitespace() {
            s.insert(Mod::from_name(n).unwrap_or_else(|| panic!("modifier `{n}` is missing from `modifiers!`")));
        }
        s
    }
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

fn parse_version(s: &str) -> (u32, u32) {
    let (a, b) = s.split_once('.').unwrap_or((s, "0"));
    (a.parse().unwrap_or(1), b.parse().unwrap_or(0))
}

specs! {
    // Integer arithmetic (§7.7.1 and later).
    Add "add"   "d s s" (1,1) [INT, "f16 f16x2 bf16 bf16x2 f32 f64"] "sat cc rn rz rm rp ftz" "1.0";
    Sub "sub"   "d s s" (1,1) [INT, "f16 f16x2 bf16 bf16x2 f32 f64"] "sat cc rn rz rm rp ftz" "1.0";
    Addc "addc"  "d s s" (1,1) ["u32 s32 u64 s64"] "cc" "1.0";
    Subc "subc"  "d s s" (1,1) ["u32 s32 u64 s64"] "cc" "1.0";
    Mul "mul"   "d s s" (1,1) [INT, "f16 f16x2 bf16 bf16x2 f32 f64"] "lo hi wide sat rn rz rm rp ftz" "1.0";
    Mad "mad"   "d s s s" (1,1) [INT, "f16 f16x2 bf16 bf16x2 f32 f64"] "lo hi wide sat cc rn rz rm rp ftz" "1.0";
    Madc "madc"  "d s s s" (1,1) ["u32 s32 u64 s64"] "lo hi cc" "3.0";
    Mul24 "mul24" "d s s" (1,1) ["u32 s32"] "lo hi" "1.0";
    Mad24 "mad24" "d s s s" (1,1) ["u32 s32"] "lo hi sat" "1.0";
    Sad "sad"   "d s s s" (1,1) [INT] "" "1.0";
    Div "div"   "d s s" (1,1) [INT, "f32 f64"] "approx full rn rz rm rp ftz" "1.0";
    Rem "rem"   "d s s" (1,1) [INT] "" "1.0";
    Abs "abs"   "d s" (1,1) ["s16 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64"] "ftz" "1.0";
    Neg "neg"   "d s" (1,1) ["s16 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64"] "ftz" "1.0";
    Min "min"   "d s s ? s" (1,1) [INT, "u16x2 s16x2 f16 f16x2 bf16 bf16x2 f32 f64"] "ftz NaN xorsign abs relu" "1.0";
    Max "max"   "d s s ? s" (1,1) [INT, "u16x2 s16x2 f16 f16x2 bf16 bf16x2 f32 f64"] "ftz NaN xorsign abs relu" "1.0";
    Popc "popc"  "d s" (1,1) ["b32 b64"] "" "2.0";
    Clz "clz"   "d s" (1,1) ["b32 b64"] "" "2.0";
    Bfind "bfind" "d s" (1,1) ["u32 u64 s32 s64"] "shiftamt" "2.0";
    Fns "fns"   "d s s s" (1,1) ["b32"] "" "6.0";
    Brev "brev"  "d s" (1,1) ["b32 b64"] "" "2.0";
    Bfe "bfe"   "d s s s" (1,1) ["u32 u64 s32 s64"] "" "2.0";
    Bfi "bfi"   "d s s s s" (1,1) ["b32 b64"] "" "2.0";
    Bmsk "bmsk"  "d s s" (1,1) ["b32"] "clamp wrap" "7.6";
    Szext "szext" "d s s" (1,1) ["u32 s32"] "clamp wrap" "7.6";
    Dp4a "dp4a"  "d s s s" (2,2) ["u32 s32"] "" "5.0";
    Dp2a "dp2a"  "d s s s" (2,2) ["u32 s32"] "lo hi" "5.0";
    // Floating point.
    Testp "testp" "p s" (1,1) ["f32 f64"] "finite infinite number notanumber normal subnormal" "2.0";
    Copysign "copysign" "d s s" (1,1) ["f32 f64"] "" "2.0";
    Fma "fma"   "d s s s" (1,1) ["f16 f16x2 bf16 bf16x2 f32 f64"] "rn rz rm rp ftz sat relu oob" "1.4";
    Rcp "rcp"   "d s" (1,1) ["f32 f64"] "approx full rn rz rm rp ftz" "1.0";
    Sqrt "sqrt"  "d s" (1,1) ["f32 f64"] "approx full rn rz rm rp ftz" "1.0";
    Rsqrt "rsqrt" "d s" (1,1) ["f32 f64"] "approx ftz" "1.0";
    Sin "sin"   "d s" (1,1) ["f32"] "approx ftz" "1.0";
    Cos "cos"   "d s" (1,1) ["f32"] "approx ftz" "1.0";
    Lg2 "lg2"   "d s" (1,1) ["f32"] "approx ftz" "1.0";
    Ex2 "ex2"   "d s" (1,1) ["f16 f16x2 bf16 bf16x2 f32"] "approx ftz" "1.0";
    Tanh "tanh"  "d s" (1,1) ["f16 f16x2 bf16 bf16x2 f32"] "approx" "7.0";
    // Comparison and selection.
    Set "set"   "d s s ? s" (2,2) ["u32 s32 f32 b16 b32 b64 u16 u64 s16 s64 f64 f16 f16x2"] "eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan and or xor ftz" "1.0";
    Setp "setp"  "p s s ? s" (1,1) ["b16 b32 b64", INT, "f16 f16x2 bf16 bf16x2 f32 f64"] "eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan and or xor ftz" "1.0";
    Selp "selp"  "d s s s" (1,1) ["b16 b32 b64", INT, "f32 f64"] "" "1.0";
    Slct "slct"  "d s s s" (2,2) ["b16 b32 b64", INT, "f32 f64"] "ftz" "1.0";
    // Logic and shift.
    And "and"   "d s s" (1,1) ["pred b16 b32 b64"] "" "1.0";
    Or "or"    "d s s" (1,1) ["pred b16 b32 b64"] "" "1.0";
    Xor "xor"   "d s s" (1,1) ["pred b16 b32 b64"] "" "1.0";
    Not "not"   "d s" (1,1) ["pred b16 b32 b64"] "" "1.0";
    Cnot "cnot"  "d s" (1,1) ["b16 b32 b64"] "" "1.0";
    Lop3 "lop3"  "d s s s s" (1,1) ["b32"] "" "4.3";
    Shf "shf"   "d s s s" (1,1) ["b32"] "l r clamp wrap" "3.1";
    Shl "shl"   "d s s" (1,1) ["b16 b32 b64"] "" "1.0";
    Shr "shr"   "d s s" (1,1) ["b16 b32 b64", INT] "" "1.0";
    // Data movement and conversion.
    Mov "mov"   "d s" (1,1) ["pred b16 b32 b64 b128", INT, "f16 f16x2 bf16 f32 f64"] "v2 v4" "1.0";
    Shfl "shfl"  "d s s s ? s" (1,1) ["b32"] "sync up down bfly idx" "3.0";
    Prmt "prmt"  "d s s s" (1,1) ["b32"] "f4e b4e rc8 ecl ecr rc16" "2.0";
    Ld "ld"    "d m" (1,1) ["b8 b16 b32 b64 b128 u8 u16 u32 u64 s8 s16 s32 s64 f16 f16x2 bf16 f32 f64 pred"] "global shared local const param generic v2 v4 v8 volatile relaxed acquire weak mmio cta cluster gpu sys nc ca cg cs lu cv L1::evict_normal L1::evict_unchanged L1::evict_first L1::evict_last L1::no_allocate L2::64B L2::128B L2::256B L2::cache_hint" "1.0";
    Ldu "ldu"   "d m" (1,1) ["b8 b16 b32 b64 b128 u8 u16 u32 u64 s8 s16 s32 s64 f32 f64"] "global v2 v4" "2.0";
    St "st"    "m s" (1,1) ["b8 b16 b32 b64 b128 u8 u16 u32 u64 s8 s16 s32 s64 f16 f16x2 bf16 f32 f64 pred"] "global shared local param generic v2 v4 v8 volatile relaxed release weak mmio cta cluster gpu sys wb cg cs wt L1::evict_normal L1::evict_unchanged L1::evict_first L1::evict_last L1::no_allocate L2::cache_hint" "1.0";
    Prefetch "prefetch" "m" (0,0) [""] "global local L1 L2 L2::evict_last L2::evict_normal" "2.0";
    Prefetchu "prefetchu" "m" (0,0) [""] "L1" "2.0";
    Isspacep "isspacep" "p s" (0,0) [""] "global shared local const param" "2.0";
    Cvta "cvta"  "d s" (1,1) ["u32 u64"] "to global shared local const param" "2.0";
    Cvt "cvt"   "d s" (2,2) ["b16 b32 b64", INT, "u8 s8 f16 f16x2 bf16 bf16x2 f32 f64 tf32"] "rn rz rm rp rni rzi rmi rpi rna ftz sat relu" "1.0";
    Mapa "mapa"  "d s s" (1,1) ["u32 u64"] "shared::cluster" "7.8";
    // Control flow.
    Bra "bra"   "l" (0,0) [""] "uni" "1.0";
    Brx "brx"   "s l" (0,0) [""] "idx uni" "6.0";
    Call "call"  "x ? x x x" (0,0) [""] "uni" "1.0";
    Ret "ret"   "" (0,0) [""] "uni" "1.0";
    Exit "exit"  "" (0,0) [""] "" "1.0";
    // Synchronization and communication.
    Bar "bar"   "s ? s s s" (0,1) ["u32 pred"] "sync arrive red popc and or cta aligned warp" "1.0";
    Barrier "barrier" "s ? s s s" (0,1) ["u32 pred"] "sync arrive red popc and or cta aligned" "6.0";
    Membar "membar" "" (0,0) [""] "cta gl sys proxy alias" "1.4";
    Fence "fence" "" (0,0) [""] "sc acq_rel cta cluster gpu sys proxy alias async" "6.0";
    Atom "atom"  "d m s ? s" (1,1) ["b32 b64 u32 u64 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64"] "global shared generic shared::cta shared::cluster and or xor cas exch add inc dec min max relaxed acquire release acq_rel cta cluster gpu sys noftz" "1.1";
    Red "red"   "m s" (1,1) ["b32 b64 u32 u64 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64"] "global shared generic shared::cta shared::cluster and or xor add inc dec min max relaxed release cta cluster gpu sys noftz" "1.2";
    Vote "vote"  "d s ? s" (1,1) ["pred b32"] "all any uni ballot sync" "1.2";
    Match "match" "d s s" (1,1) ["b32 b64"] "any all sync" "6.0";
    Activemask "activemask" "d" (1,1) ["b32"] "" "6.2";
    Redux "redux" "d s s" (1,1) ["u32 s32 b32"] "sync add min max and or xor" "7.0";
    Nanosleep "nanosleep" "s" (1,1) ["u32"] "" "6.3";
    // Miscellaneous.
    Trap "trap"  "" (0,0) [""] "" "1.0";
    Brkpt "brkpt" "" (0,0) [""] "" "1.0";
    Pmevent "pmevent" "s" (0,0) [""] "mask" "1.0";
}

/// The row for an opcode name.
pub fn spec(name: &str) -> Option<&'static Spec> {
    let t = table();
    t.binary_search_by_key(&name, |s| s.name).ok().map(|i| &t[i])
}

impl std::fmt::Display for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Op {
    /// The opcode's row of the table.
    pub fn spec(self) -> &'static Spec {
        spec(self.name()).expect("every opcode has a row")
    }
}

/// Texture and surface instructions are recognized but not supported.
pub const UNSUPPORTED: &[&str] = &[
    "tex",
    "tld4",
    "txq",
    "suld",
    "sust",
    "sured",
    "suq",
    "istypep",
    "wmma",
    "mma",
    "ldmatrix",
    "stmatrix",
    "cp",
    "mbarrier",
    "elect",
    "getctarank",
    "griddepcontrol",
    "tensormap",
    "setmaxnreg",
    "stackrestore",
    "stacksave",
    "alloca",
];

impl Spec {
    pub fn allows_type(&self, t: &str) -> bool {
        self.types.split_whitespace().any(|x| x == t)
    }
    pub fn allows_mod(&self, m: Mod) -> bool {
        self.mods.has(m)
    }
    /// (required operand shapes, optional operand shapes).
    pub fn shapes(&self) -> (Vec<char>, Vec<char>) {
        let mut req = vec![];
        let mut opt = vec![];
        let mut optional = false;
        for t in self.operands.split_whitespace() {
            match t {
                "?" => optional = true,
                s => {
                    let c = s.chars().next().unwrap_or('s');
                    if optional {
                        opt.push(c)
                    } else {
                        req.push(c)
                    }
                }
            }
        }
        (req, opt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_unique() {
        let t = table();
        for w in t.windows(2) {
            assert!(w[0].name < w[1].name, "{} {}", w[0].name, w[1].name);
        }
        assert!(spec("ld").is_some() && spec("nope").is_none());
        assert!(spec("setp").unwrap().allows_mod(Mod::Ltu));
    }

    #[test]
    fn names_round_trip() {
        for &op in Op::ALL {
            assert_eq!(Op::from_name(op.name()), Some(op));
            assert_eq!(op.spec().op, op);
        }
        for (k, &m) in Mod::ALL.iter().enumerate() {
            assert_eq!(m as usize, k);
            assert_eq!(Mod::from_name(m.name()), Some(m));
        }
        assert_eq!(table().len(), Op::ALL.len());
    }
}
