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
    pub name: &'static str,
    /// Operand shapes, e.g. "d s s" or "d s ? s".
    pub operands: &'static str,
    /// How many type suffixes: exactly `types.0`, or up to `types.1`.
    pub ntypes: (usize, usize),
    /// Allowed type suffixes (without the dot).
    pub types: &'static str,
    /// Allowed other modifiers (without the dot).
    pub mods: &'static str,
    /// PTX ISA version that introduced it.
    pub ptx: (u32, u32),
}

const INT: &str = "u16 u32 u64 s16 s32 s64";

macro_rules! specs {
    ($($name:literal $ops:literal ($n0:literal, $n1:literal) [$($t:expr),*] $mods:literal $ptx:literal;)*) => {
        /// The table (sorted by name for lookup).
        pub fn table() -> &'static [Spec] {
            static T: std::sync::OnceLock<Vec<Spec>> = std::sync::OnceLock::new();
            T.get_or_init(|| {
                let mut v = vec![$(Spec {
                    name: $name,
                    operands: $ops,
                    ntypes: ($n0, $n1),
                    types: leak(&[$($t),*].join(" ")),
                    mods: $mods,
                    ptx: parse_version($ptx),
                },)*];
                v.sort_by_key(|s| s.name);
                v
            })
        }
    };
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
    "add"   "d s s" (1,1) [INT, "f16 f16x2 bf16 bf16x2 f32 f64"] "sat cc rn rz rm rp ftz" "1.0";
    "sub"   "d s s" (1,1) [INT, "f16 f16x2 bf16 bf16x2 f32 f64"] "sat cc rn rz rm rp ftz" "1.0";
    "addc"  "d s s" (1,1) ["u32 s32 u64 s64"] "cc" "1.0";
    "subc"  "d s s" (1,1) ["u32 s32 u64 s64"] "cc" "1.0";
    "mul"   "d s s" (1,1) [INT, "f16 f16x2 bf16 bf16x2 f32 f64"] "lo hi wide sat rn rz rm rp ftz" "1.0";
    "mad"   "d s s s" (1,1) [INT, "f16 f16x2 bf16 bf16x2 f32 f64"] "lo hi wide sat cc rn rz rm rp ftz" "1.0";
    "madc"  "d s s s" (1,1) ["u32 s32 u64 s64"] "lo hi cc" "3.0";
    "mul24" "d s s" (1,1) ["u32 s32"] "lo hi" "1.0";
    "mad24" "d s s s" (1,1) ["u32 s32"] "lo hi sat" "1.0";
    "sad"   "d s s s" (1,1) [INT] "" "1.0";
    "div"   "d s s" (1,1) [INT, "f32 f64"] "approx full rn rz rm rp ftz" "1.0";
    "rem"   "d s s" (1,1) [INT] "" "1.0";
    "abs"   "d s" (1,1) ["s16 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64"] "ftz" "1.0";
    "neg"   "d s" (1,1) ["s16 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64"] "ftz" "1.0";
    "min"   "d s s ? s" (1,1) [INT, "u16x2 s16x2 f16 f16x2 bf16 bf16x2 f32 f64"] "ftz NaN xorsign abs relu" "1.0";
    "max"   "d s s ? s" (1,1) [INT, "u16x2 s16x2 f16 f16x2 bf16 bf16x2 f32 f64"] "ftz NaN xorsign abs relu" "1.0";
    "popc"  "d s" (1,1) ["b32 b64"] "" "2.0";
    "clz"   "d s" (1,1) ["b32 b64"] "" "2.0";
    "bfind" "d s" (1,1) ["u32 u64 s32 s64"] "shiftamt" "2.0";
    "fns"   "d s s s" (1,1) ["b32"] "" "6.0";
    "brev"  "d s" (1,1) ["b32 b64"] "" "2.0";
    "bfe"   "d s s s" (1,1) ["u32 u64 s32 s64"] "" "2.0";
    "bfi"   "d s s s s" (1,1) ["b32 b64"] "" "2.0";
    "bmsk"  "d s s" (1,1) ["b32"] "clamp wrap" "7.6";
    "szext" "d s s" (1,1) ["u32 s32"] "clamp wrap" "7.6";
    "dp4a"  "d s s s" (2,2) ["u32 s32"] "" "5.0";
    "dp2a"  "d s s s" (2,2) ["u32 s32"] "lo hi" "5.0";
    // Floating point.
    "testp" "p s" (1,1) ["f32 f64"] "finite infinite number notanumber normal subnormal" "2.0";
    "copysign" "d s s" (1,1) ["f32 f64"] "" "2.0";
    "fma"   "d s s s" (1,1) ["f16 f16x2 bf16 bf16x2 f32 f64"] "rn rz rm rp ftz sat relu oob" "1.4";
    "rcp"   "d s" (1,1) ["f32 f64"] "approx full rn rz rm rp ftz" "1.0";
    "sqrt"  "d s" (1,1) ["f32 f64"] "approx full rn rz rm rp ftz" "1.0";
    "rsqrt" "d s" (1,1) ["f32 f64"] "approx ftz" "1.0";
    "sin"   "d s" (1,1) ["f32"] "approx ftz" "1.0";
    "cos"   "d s" (1,1) ["f32"] "approx ftz" "1.0";
    "lg2"   "d s" (1,1) ["f32"] "approx ftz" "1.0";
    "ex2"   "d s" (1,1) ["f16 f16x2 bf16 bf16x2 f32"] "approx ftz" "1.0";
    "tanh"  "d s" (1,1) ["f16 f16x2 bf16 bf16x2 f32"] "approx" "7.0";
    // Comparison and selection.
    "set"   "d s s ? s" (2,2) ["u32 s32 f32 b16 b32 b64 u16 u64 s16 s64 f64 f16 f16x2"] "eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan and or xor ftz" "1.0";
    "setp"  "p s s ? s" (1,1) ["b16 b32 b64", INT, "f16 f16x2 bf16 bf16x2 f32 f64"] "eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan and or xor ftz" "1.0";
    "selp"  "d s s s" (1,1) ["b16 b32 b64", INT, "f32 f64"] "" "1.0";
    "slct"  "d s s s" (2,2) ["b16 b32 b64", INT, "f32 f64"] "ftz" "1.0";
    // Logic and shift.
    "and"   "d s s" (1,1) ["pred b16 b32 b64"] "" "1.0";
    "or"    "d s s" (1,1) ["pred b16 b32 b64"] "" "1.0";
    "xor"   "d s s" (1,1) ["pred b16 b32 b64"] "" "1.0";
    "not"   "d s" (1,1) ["pred b16 b32 b64"] "" "1.0";
    "cnot"  "d s" (1,1) ["b16 b32 b64"] "" "1.0";
    "lop3"  "d s s s s" (1,1) ["b32"] "" "4.3";
    "shf"   "d s s s" (1,1) ["b32"] "l r clamp wrap" "3.1";
    "shl"   "d s s" (1,1) ["b16 b32 b64"] "" "1.0";
    "shr"   "d s s" (1,1) ["b16 b32 b64", INT] "" "1.0";
    // Data movement and conversion.
    "mov"   "d s" (1,1) ["pred b16 b32 b64 b128", INT, "f16 f16x2 bf16 f32 f64"] "v2 v4" "1.0";
    "shfl"  "d s s s ? s" (1,1) ["b32"] "sync up down bfly idx" "3.0";
    "prmt"  "d s s s" (1,1) ["b32"] "f4e b4e rc8 ecl ecr rc16" "2.0";
    "ld"    "d m" (1,1) ["b8 b16 b32 b64 b128 u8 u16 u32 u64 s8 s16 s32 s64 f16 f16x2 bf16 f32 f64 pred"] "global shared local const param generic v2 v4 v8 volatile relaxed acquire weak mmio cta cluster gpu sys nc ca cg cs lu cv L1::evict_normal L1::evict_unchanged L1::evict_first L1::evict_last L1::no_allocate L2::64B L2::128B L2::256B L2::cache_hint" "1.0";
    "ldu"   "d m" (1,1) ["b8 b16 b32 b64 b128 u8 u16 u32 u64 s8 s16 s32 s64 f32 f64"] "global v2 v4" "2.0";
    "st"    "m s" (1,1) ["b8 b16 b32 b64 b128 u8 u16 u32 u64 s8 s16 s32 s64 f16 f16x2 bf16 f32 f64 pred"] "global shared local param generic v2 v4 v8 volatile relaxed release weak mmio cta cluster gpu sys wb cg cs wt L1::evict_normal L1::evict_unchanged L1::evict_first L1::evict_last L1::no_allocate L2::cache_hint" "1.0";
    "prefetch" "m" (0,0) [""] "global local L1 L2 L2::evict_last L2::evict_normal" "2.0";
    "prefetchu" "m" (0,0) [""] "L1" "2.0";
    "isspacep" "p s" (0,0) [""] "global shared local const param" "2.0";
    "cvta"  "d s" (1,1) ["u32 u64"] "to global shared local const param" "2.0";
    "cvt"   "d s" (2,2) ["b16 b32 b64", INT, "u8 s8 f16 f16x2 bf16 bf16x2 f32 f64 tf32"] "rn rz rm rp rni rzi rmi rpi rna ftz sat relu" "1.0";
    "mapa"  "d s s" (1,1) ["u32 u64"] "shared::cluster" "7.8";
    // Control flow.
    "bra"   "l" (0,0) [""] "uni" "1.0";
    "brx"   "s l" (0,0) [""] "idx uni" "6.0";
    "call"  "x ? x x x" (0,0) [""] "uni" "1.0";
    "ret"   "" (0,0) [""] "uni" "1.0";
    "exit"  "" (0,0) [""] "" "1.0";
    // Synchronization and communication.
    "bar"   "s ? s s s" (0,1) ["u32 pred"] "sync arrive red popc and or cta aligned warp" "1.0";
    "barrier" "s ? s s s" (0,1) ["u32 pred"] "sync arrive red popc and or cta aligned" "6.0";
    "membar" "" (0,0) [""] "cta gl sys proxy alias" "1.4";
    "fence" "" (0,0) [""] "sc acq_rel cta cluster gpu sys proxy alias async" "6.0";
    "atom"  "d m s ? s" (1,1) ["b32 b64 u32 u64 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64"] "global shared generic shared::cta shared::cluster and or xor cas exch add inc dec min max relaxed acquire release acq_rel cta cluster gpu sys noftz" "1.1";
    "red"   "m s" (1,1) ["b32 b64 u32 u64 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64"] "global shared generic shared::cta shared::cluster and or xor add inc dec min max relaxed release cta cluster gpu sys noftz" "1.2";
    "vote"  "d s ? s" (1,1) ["pred b32"] "all any uni ballot sync" "1.2";
    "match" "d s s" (1,1) ["b32 b64"] "any all sync" "6.0";
    "activemask" "d" (1,1) ["b32"] "" "6.2";
    "redux" "d s s" (1,1) ["u32 s32 b32"] "sync add min max and or xor" "7.0";
    "nanosleep" "s" (1,1) ["u32"] "" "6.3";
    // Miscellaneous.
    "trap"  "" (0,0) [""] "" "1.0";
    "brkpt" "" (0,0) [""] "" "1.0";
    "pmevent" "s" (0,0) [""] "mask" "1.0";
}

/// The row for an opcode.
pub fn spec(name: &str) -> Option<&'static Spec> {
    let t = table();
    t.binary_search_by_key(&name, |s| s.name).ok().map(|i| &t[i])
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
    pub fn allows_mod(&self, m: &str) -> bool {
        self.mods.split_whitespace().any(|x| x == m)
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
        assert!(spec("setp").unwrap().allows_mod("ltu"));
    }
}
