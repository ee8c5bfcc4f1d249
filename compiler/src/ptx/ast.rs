//! The PTX abstract syntax tree. Every name, instruction and expression
//! carries its [`Span`]; spans compare equal, so trees compare by content.
//!
//! The parser is generic over instructions (an opcode, its `.modifiers` and
//! operands); which combinations are legal is the checker's business.

use super::insts::{Mod, ModSet, Op};
use super::source::Span;

#[derive(Debug, Clone, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    pub version: (u32, u32),
    pub version_span: Span,
    /// `.target` entries (`sm_75`, `texmode_independent`, `debug`, `map_f64_to_f32`).
    pub target: Vec<Ident>,
    pub address_size: Option<u32>,
    pub address_size_span: Span,
    pub items: Vec<Item>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Var(VarDecl),
    Func(Function),
    /// `.file N "name" [, timestamp, size]`.
    File {
        index: u64,
        name: String,
        extra: Vec<u64>,
        span: Span,
    },
    /// `.section NAME { ... }`: the body is kept as opaque text.
    Section {
        name: String,
        body: String,
        span: Span,
    },
    Pragma {
        args: Vec<String>,
        span: Span,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Linkage {
    Extern,
    Visible,
    Weak,
    Common,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Space {
    Reg,
    Sreg,
    Const,
    Global,
    Local,
    Param,
    Shared,
    Tex,
}

impl Space {
    pub fn name(self) -> &'static str {
        match self {
            Space::Reg => ".reg",
            Space::Sreg => ".sreg",
            Space::Const => ".const",
            Space::Global => ".global",
            Space::Local => ".local",
            Space::Param => ".param",
            Space::Shared => ".shared",
            Space::Tex => ".tex",
        }
    }
    pub fn from_name(s: &str) -> Option<Space> {
        Some(match s {
            ".reg" => Space::Reg,
            ".sreg" => Space::Sreg,
            ".const" => Space::Const,
            ".global" => Space::Global,
            ".local" => Space::Local,
            ".param" => Space::Param,
            ".shared" => Space::Shared,
            ".tex" => Space::Tex,
            _ => return None,
        })
    }
}

/// A fundamental type (T8) plus the packed and modern ones NVRTC emits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Type {
    B8,
    B16,
    B32,
    B64,
    B128,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    F16x2,
    Bf16,
    Bf16x2,
    F32,
    F64,
    Pred,
    /// `.texref`, `.samplerref`, `.surfref` (opaque handles).
    TexRef,
    SamplerRef,
    SurfRef,
}

pub const TYPES: &[(&str, Type)] = &[
    (".b8", Type::B8),
    (".b16", Type::B16),
    (".b32", Type::B32),
    (".b64", Type::B64),
    (".b128", Type::B128),
    (".u8", Type::U8),
    (".u16", Type::U16),
    (".u32", Type::U32),
    (".u64", Type::U64),
    (".s8", Type::S8),
    (".s16", Type::S16),
    (".s32", Type::S32),
    (".s64", Type::S64),
    (".f16", Type::F16),
    (".f16x2", Type::F16x2),
    (".bf16", Type::Bf16),
    (".bf16x2", Type::Bf16x2),
    (".f32", Type::F32),
    (".f64", Type::F64),
    (".pred", Type::Pred),
    (".texref", Type::TexRef),
    (".samplerref", Type::SamplerRef),
    (".surfref", Type::SurfRef),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeKind {
    Bits,
    Unsigned,
    Signed,
    Float,
    Pred,
    Opaque,
}

impl Type {
    pub fn name(self) -> &'static str {
        TYPES.iter().find(|(_, t)| *t == self).map(|(n, _)| *n).unwrap_or(".?")
    }
    pub fn from_name(s: &str) -> Option<Type> {
        TYPES.iter().find(|(n, _)| *n == s).map(|(_, t)| *t)
    }
    /// Size in bytes (predicates: 1 in memory, opaque handles: 8).
    pub fn size(self) -> u32 {
        use Type::*;
        match self {
            B8 | U8 | S8 | Pred => 1,
            B16 | U16 | S16 | F16 | Bf16 => 2,
            B32 | U32 | S32 | F32 | F16x2 | Bf16x2 => 4,
            B64 | U64 | S64 | F64 | TexRef | SamplerRef | SurfRef => 8,
            B128 => 16,
        }
    }
    pub fn kind(self) -> TypeKind {
        use Type::*;
        match self {
            B8 | B16 | B32 | B64 | B128 => TypeKind::Bits,
            U8 | U16 | U32 | U64 => TypeKind::Unsigned,
            S8 | S16 | S32 | S64 => TypeKind::Signed,
            F16 | F16x2 | Bf16 | Bf16x2 | F32 | F64 => TypeKind::Float,
            Pred => TypeKind::Pred,
            TexRef | SamplerRef | SurfRef => TypeKind::Opaque,
        }
    }
}

/// A variable declaration: `[linkage] space [.align N] [.vN] type declarators;`.
#[derive(Debug, Clone, PartialEq)]
pub struct VarDecl {
    pub linkage: Option<Linkage>,
    pub space: Space,
    pub align: Option<u64>,
    pub vector: Option<u32>,
    /// The `.vN` token of `vector` (an empty span at the declaration's
    /// start when there is none).
    pub vector_span: Span,
    pub ty: Type,
    /// `.ptr [.space] [.align N]` attributes of kernel parameters.
    pub ptr: Option<PtrAttr>,
    pub names: Vec<Declarator>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PtrAttr {
    pub space: Option<Space>,
    pub align: Option<u64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Declarator {
    pub name: Ident,
    /// `%r<100>`: 100 registers `%r0`..`%r99`.
    pub count: Option<u32>,
    /// Array dimensions; `None` is `[]` (size from the initializer, or extern).
    pub dims: Vec<Option<u64>>,
    pub init: Option<Init>,
    /// `= ...`: from the `=` to the end of `init` (an empty span after the
    /// name when there is no initializer).
    pub init_span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Init {
    Expr(Expr),
    /// `generic(name)`: the generic address of a variable.
    Generic(Ident),
    List(Vec<Init>, Span),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    pub entry: bool,
    pub linkage: Option<Linkage>,
    pub rets: Vec<VarDecl>,
    pub name: Ident,
    pub params: Vec<VarDecl>,
    /// Performance and other directives between the signature and the body.
    pub attrs: Vec<FuncAttr>,
    /// `None` for a declaration (`;`).
    pub body: Option<Block>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FuncAttr {
    /// `.maxntid`, `.reqntid`, `.minnctapersm`, `.maxnctapersm`, `.maxnreg`, `.noreturn`, `.pragma`, ...
    pub name: Ident,
    pub args: Vec<Expr>,
    pub strings: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    Label(Ident),
    Var(VarDecl),
    Inst(Inst),
    Block(Block),
    Pragma {
        args: Vec<String>,
        span: Span,
    },
    /// `.loc file line col [, extra...]` (kept verbatim after the numbers).
    Loc {
        args: Vec<u64>,
        rest: String,
        span: Span,
    },
    /// `name: .callprototype [(ret)] _ (params) [.noreturn];`
    CallProto {
        name: Ident,
        rets: Vec<VarDecl>,
        params: Vec<VarDecl>,
        noreturn: bool,
        span: Span,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Guard {
    pub neg: bool,
    pub pred: Ident,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Inst {
    pub guard: Option<Guard>,
    pub opcode: Ident,
    /// The opcode, typed (`None`: unknown or unsupported, which the checker reports).
    pub op: Option<Op>,
    /// `.modifiers` and types in source order, with their spans.
    pub mods: Vec<Ident>,
    /// The type suffixes, in order.
    pub types: Vec<Type>,
    /// The other suffixes that name a known modifier.
    pub flags: ModSet,
    pub args: Vec<Operand>,
    pub span: Span,
}

impl Inst {
    /// An instruction from its source parts; the typed fields follow from the names.
    pub fn new(guard: Option<Guard>, opcode: Ident, mods: Vec<Ident>, args: Vec<Operand>, span: Span) -> Inst {
        let op = Op::from_name(&opcode.name);
        let types = mods.iter().filter_map(|m| Type::from_name(&m.name)).collect();
        let mut flags = ModSet::default();
        for m in mods.iter().filter_map(|m| Mod::from_name(m.name.strip_prefix('.')?)) {
            flags.insert(m);
        }
        Inst { guard, opcode, op, mods, types, flags, args, span }
    }
    pub fn has(&self, m: Mod) -> bool {
        self.flags.has(m)
    }
    /// The state space its modifiers name (`.global`, `.shared`, `.local`, `.const`, `.param`), if any.
    pub fn space(&self) -> Option<Space> {
        self.flags.first_of(&[
            (Mod::Global, Space::Global),
            (Mod::Shared, Space::Shared),
            (Mod::Local, Space::Local),
            (Mod::Const, Space::Const),
            (Mod::Param, Space::Param),
        ])
    }
    /// The width a `.vN` suffix gives, any N (the checker reports the ones PTX lacks).
    pub fn vector_width(&self) -> Option<usize> {
        self.mods.iter().find_map(|m| m.name.strip_prefix(".v").and_then(|w| w.parse::<usize>().ok()))
    }
    /// Whether the opcode is `op`.
    pub fn is(&self, op: Op) -> bool {
        self.op == Some(op)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// A register, variable, label or function name (`%tid.x` included).
    Name(Ident),
    /// `!%p`.
    Not(Ident),
    /// A constant expression.
    Expr(Expr),
    /// `[base+offset]`.
    Addr(Address),
    /// `{a, b, c, d}`.
    Vector(Vec<Operand>, Span),
    /// `d|p`.
    Pair(Ident, Ident),
    /// `_` (the bit bucket).
    Sink(Span),
    /// `(a, b)`: call arguments and return values.
    List(Vec<Operand>, Span),
}

impl Operand {
    pub fn span(&self) -> Span {
        match self {
            Operand::Name(i) | Operand::Not(i) => i.span,
            Operand::Expr(e) => e.span,
            Operand::Addr(a) => a.span,
            Operand::Vector(_, s) | Operand::Sink(s) | Operand::List(_, s) => *s,
            Operand::Pair(a, b) => a.span.to(b.span),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Address {
    /// A register or variable; `None` for an absolute address `[imm]`.
    pub base: Option<Ident>,
    /// Constant offset (`[%r+4]`, `[%r+-4]`, `[4]`).
    pub offset: Option<Expr>,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Plus,
    Neg,
    Not,
    BitNot,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    And,
    Xor,
    Or,
    LAnd,
    LOr,
}

impl BinOp {
    pub fn text(self) -> &'static str {
        use BinOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            And => "&",
            Xor => "^",
            Or => "|",
            LAnd => "&&",
            LOr => "||",
        }
    }
    /// Binding strength (T4): higher binds tighter.
    pub fn precedence(self) -> u8 {
        use BinOp::*;
        match self {
            Mul | Div | Rem => 10,
            Add | Sub => 9,
            Shl | Shr => 8,
            Lt | Gt | Le | Ge => 7,
            Eq | Ne => 6,
            And => 5,
            Xor => 4,
            Or => 3,
            LAnd => 2,
            LOr => 1,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// Value and whether it is `.u64`.
    Int(u64, bool),
    Float(f64),
    F32Bits(u32),
    F64Bits(u64),
    /// A symbol (variable or label address) or `WARP_SZ`.
    Name(String),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `(.s64)` (true) or `(.u64)` (false).
    Cast(bool, Box<Expr>),
}
