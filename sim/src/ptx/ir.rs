//! The prepared program the PTX interpreter runs: instructions with typed
//! opcodes and modifiers, operands resolved to register slots, variable
//! addresses and instruction indices, and the functions and memory images
//! of a module. `prep` builds it, `cfg` analyses it, `exec` runs it.

use heddle_compiler::ptx::ast::{Space, Type};
use heddle_compiler::ptx::expr::Value;
use heddle_compiler::ptx::insts::{ModSet, Op};
use std::collections::HashMap;

/// Where a memory operand's base points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Base {
    /// No base: an absolute address in the instruction's space.
    None,
    Reg(u32),
    /// Addresses (or offsets) of variables in their space.
    Global(u32),
    Const(u32),
    Shared(u32),
    /// Offset in the current frame's local memory.
    Local(u32),
    /// Kernel parameter space offset.
    KParam(u32),
    /// Offset in the current frame's per-thread parameter area.
    FParam(u32),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Opd {
    Reg(u32, Type),
    Const(Value),
    /// `0f` bits (SYN-43: standalone, exact).
    F32(u32),
    /// A special register and its component (0-2: x, y, z).
    Special(Special, u8),
    Not(u32),
    Addr(Base, i64),
    Vec(Vec<Opd>),
    Pair(u32, u32),
    Sink,
    Label(u32),
    Func(usize),
    List(Vec<Opd>),
    /// A variable name used as a value: its address.
    Sym(Base),
}

#[derive(Debug, Clone)]
pub struct PInst {
    pub op: Op,
    pub types: Vec<Type>,
    pub mods: ModSet,
    /// Vector width (`.v2`, `.v4`), 1 otherwise.
    pub vec: u32,
    /// Explicit state space of ld/st/atom/cvta.
    pub space: Option<Space>,
    pub guard: Option<(u32, bool)>,
    pub args: Vec<Opd>,
    /// Source line and column.
    pub line: u32,
    pub col: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamInfo {
    pub offset: u32,
    pub size: u32,
}

#[derive(Debug, Clone)]
pub struct Func {
    pub name: String,
    pub entry: bool,
    /// Declared but not defined here (vprintf, malloc, free, __assertfail).
    pub external: bool,
    pub reg_types: Vec<Type>,
    pub rets: Vec<ParamInfo>,
    pub params: Vec<ParamInfo>,
    /// Bytes of the per-thread parameter area (rets, params, call-site params).
    pub param_area: u32,
    /// Bytes of `.local` variables.
    pub local_frame: u32,
    pub insts: Vec<PInst>,
    /// Reconvergence pc of each instruction that branches (`cfg::EXIT_JOIN` where the paths meet only at the end).
    pub rpc: Vec<u32>,
}

#[derive(Debug, Clone)]
pub struct Prog {
    pub file: String,
    pub funcs: Vec<Func>,
    pub func_index: HashMap<String, usize>,
    pub global_image: Vec<u8>,
    pub const_image: Vec<u8>,
    pub static_shared: u32,
    /// sm_1x target: f32 always flushes subnormals, mad.f32 is not fused.
    pub legacy: bool,
}

/// Function "addresses" (for indirect calls) lie above the 32-bit address space.
pub const FUNC_ADDR: u64 = 1 << 32;

macro_rules! specials {
    ($($v:ident $name:literal,)*) => {
        /// A PTX special register (`%tid`, `%laneid`, `WARP_SZ`, ...).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Special {
            $($v,)*
        }

        impl Special {
            /// The special register named `name` (without a component).
            pub fn from_name(name: &str) -> Option<Special> {
                Some(match name {
                    $($name => Special::$v,)*
                    _ => return None,
                })
            }
        }
    };
}

specials! {
    Tid "%tid",
    Ntid "%ntid",
    Ctaid "%ctaid",
    Nctaid "%nctaid",
    Laneid "%laneid",
    Warpid "%warpid",
    Nwarpid "%nwarpid",
    Smid "%smid",
    Nsmid "%nsmid",
    Gridid "%gridid",
    Clock "%clock",
    ClockHi "%clock_hi",
    Clock64 "%clock64",
    LanemaskEq "%lanemask_eq",
    LanemaskLe "%lanemask_le",
    LanemaskLt "%lanemask_lt",
    LanemaskGe "%lanemask_ge",
    LanemaskGt "%lanemask_gt",
    DynamicSmemSize "%dynamic_smem_size",
    TotalSmemSize "%total_smem_size",
    WarpSz "WARP_SZ",
    Globaltimer "%globaltimer",
    GlobaltimerLo "%globaltimer_lo",
    GlobaltimerHi "%globaltimer_hi",
    Pm0 "%pm0",
    Pm1 "%pm1",
    Pm2 "%pm2",
    Pm3 "%pm3",
}
