//! Module data layout and function signatures.
//!
//! The rules match the PTX reference interpreter's (`heddle-sim`'s `ptx::prep`),
//! so both engines put module data at the same addresses: `.global` variables
//! in declaration order from `MODULE_GLOBAL_BASE`, each aligned to its
//! `.align` (default: element size); `.const` the same from const offset 0;
//! `.shared` variables (module and function scope, in order) from shared
//! offset 0, dynamic shared memory at the next 16-byte boundary.
//! A function's frame starts with its return values, then its parameters,
//! each aligned to its size (at least 4).

use crate::ptx::ast::*;
use crate::ptx::expr::{self, Value};
use heddle_isa::mem::align_up;
use heddle_isa::mem::{CONST_WINDOW, MODULE_GLOBAL_BASE};
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sym {
    /// Absolute global address.
    Global(u32),
    Const(u32),
    Shared(u32),
}

impl Sym {
    /// The value of the name used as an operand (its address in its space).
    pub fn addr(self) -> u64 {
        match self {
            Sym::Global(a) | Sym::Const(a) | Sym::Shared(a) => a as u64,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct FuncInfo {
    pub index: u32,
    /// (frame offset, size) of return values and parameters.
    pub rets: Vec<(u32, u32)>,
    pub params: Vec<(u32, u32)>,
    /// Bytes of rets + params.
    pub sig_bytes: u32,
    pub external: bool,
    pub entry: bool,
}

impl FuncInfo {
    fn layout(rets: &[u32], params: &[u32]) -> (Vec<(u32, u32)>, Vec<(u32, u32)>, u32) {
        let mut off = 0u32;
        let mut place = |size: u32| {
            let al = size.clamp(4, 8);
            off = off.div_ceil(al) * al;
            let o = off;
            off += size;
            (o, size)
        };
        let r = rets.iter().map(|&s| place(s)).collect();
        let p = params.iter().map(|&s| place(s)).collect();
        (r, p, off.div_ceil(8) * 8)
    }

    /// The signature of an indirect call, from its prototype's return and parameter sizes.
    pub fn from_sizes(rets: &[u32], params: &[u32]) -> FuncInfo {
        let (r, p, b) = Self::layout(rets, params);
        FuncInfo { index: u32::MAX, rets: r, params: p, sig_bytes: b, external: false, entry: false }
    }
}

pub struct Layout {
    pub global_image: Vec<u8>,
    pub const_image: Vec<u8>,
    pub static_shared: u32,
    syms: HashMap<String, Sym>,
    funcs: HashMap<String, FuncInfo>,
    extern_shared: Vec<String>,
    /// Function addresses in `global_image`/`const_image` to patch with entry pcs:
    /// (is global image, byte offset, size, function index).
    pub relocs: Vec<(bool, usize, usize, u32)>,
}

/// SYN-34/44/46: a constant converted to an operand type's bits.
pub fn convert_const(v: Value, ty: Type) -> u64 {
    let mask = |b: u64| if ty.size() >= 8 { b } else { b & ((1u64 << (8 * ty.size())) - 1) };
    match (v, ty.kind()) {
        (Value::F64(f), TypeKind::Float) => match ty {
            Type::F32 => (f as f32).to_bits() as u64,
            Type::F16 => heddle_isa::scalar::fp::f2h((f as f32).to_bits(), heddle_isa::scalar::fp::Rnd::Rn, false) as u64,
            _ => f.to_bits(),
        },
        (Value::S64(i), TypeKind::Float) => convert_const(Value::F64(i as f64), ty),
        (Value::U64(i), TypeKind::Float) => convert_const(Value::F64(i as f64), ty),
        (v, TypeKind::Pred) => (v.bits() != 0) as u64,
        (v, _) => mask(v.bits()),
    }
}

impl Layout {
    pub fn sym(&self, n: &str) -> Option<Sym> {
        self.syms.get(n).copied()
    }
    pub fn func_info(&self, n: &str) -> Option<&FuncInfo> {
        self.funcs.get(n).filter(|f| !f.external)
    }
    pub fn func_index(&self, n: &str) -> Option<u32> {
        self.funcs.get(n).map(|f| f.index)
    }
    pub fn is_external(&self, n: &str) -> bool {
        self.funcs.get(n).is_some_and(|f| f.external)
    }
    pub fn funcs(&self) -> impl Iterator<Item = (&String, &FuncInfo)> {
        self.funcs.iter()
    }

    pub fn decl_size(&self, v: &VarDecl, d: &Declarator) -> u32 {
        let elem = v.ty.size() * v.vector.unwrap_or(1);
        let known: u64 = d.dims.iter().flatten().product::<u64>();
        let n = if d.dims.is_empty() {
            1
        } else if d.dims.iter().any(|x| x.is_none()) {
            match &d.init {
                Some(Init::List(items, _)) => items.len() as u64 * known.max(1),
                _ => 0,
            }
        } else {
            known
        };
        (elem as u64 * n).min(u32::MAX as u64) as u32
    }

    pub fn new(m: &Module) -> Result<Layout, String> {
        let mut l = Layout {
            global_image: vec![],
            const_image: vec![],
            static_shared: 0,
            syms: HashMap::new(),
            funcs: HashMap::new(),
            extern_shared: vec![],
            relocs: vec![],
        };
        // Functions: indices in first-declaration order.
        let mut n = 0;
        for item in &m.items {
            if let Item::Func(f) = item {
                let sizes = |v: &[VarDecl]| v.iter().map(|p| l.decl_size(p, &p.names[0]).max(p.ty.size())).collect::<Vec<u32>>();
                let (rets, params, sig) = FuncInfo::layout(&sizes(&f.rets), &sizes(&f.params));
                let e = l.funcs.entry(f.name.name.clone()).or_insert_with(|| {
                    n += 1;
                    FuncInfo { index: n - 1, ..FuncInfo::default() }
                });
                e.rets = rets;
                e.params = params;
                e.sig_bytes = sig;
                e.entry = f.entry;
                e.external = f.body.is_none() && (e.external || e.index == n - 1);
                if f.body.is_some() {
                    e.external = false;
                }
            }
        }
        for item in &m.items {
            let Item::Var(v) = item else { continue };
            l.place(v)?;
        }
        // Function-scope .shared variables, in order.
        for item in &m.items {
            if let Item::Func(f) = item {
                if let Some(b) = &f.body {
                    l.shared_in(b);
                }
            }
        }
        l.static_shared = align_up(l.static_shared, 16);
        for n in std::mem::take(&mut l.extern_shared) {
            l.syms.insert(n, Sym::Shared(l.static_shared));
        }
        Ok(l)
    }

    fn shared_in(&mut self, b: &Block) {
        for s in &b.stmts {
            match s {
                Stmt::Var(v) if v.space == Space::Shared => {
                    let _ = self.place(v);
                }
                Stmt::Block(inner) => self.shared_in(inner),
                _ => {}
            }
        }
    }

    fn place(&mut self, v: &VarDecl) -> Result<(), String> {
        for d in &v.names {
            let size = self.decl_size(v, d);
            let al = v.align.map(|a| a as u32).unwrap_or(v.ty.size() * v.vector.unwrap_or(1));
            match v.space {
                Space::Global | Space::Const => {
                    let global = v.space == Space::Global;
                    let img_len = if global { self.global_image.len() } else { self.const_image.len() } as u32;
                    let off = align_up(img_len, al);
                    let sym = if global { Sym::Global(MODULE_GLOBAL_BASE + off) } else { Sym::Const(off) };
                    self.syms.insert(d.name.name.clone(), sym);
                    let mut bytes = vec![];
                    let mut relocs = vec![];
                    if let Some(init) = &d.init {
                        self.init(v.ty, init, &mut bytes, &mut relocs)?;
                    }
                    for (o, sz, f) in relocs {
                        self.relocs.push((global, off as usize + o, sz, f));
                    }
                    bytes.resize(size.max(bytes.len() as u32) as usize, 0);
                    let img = if global { &mut self.global_image } else { &mut self.const_image };
                    img.resize(off as usize, 0);
                    img.extend_from_slice(&bytes);
                }
                Space::Shared => {
                    if v.linkage == Some(Linkage::Extern) {
                        self.extern_shared.push(d.name.name.clone());
                    } else {
                        self.static_shared = align_up(self.static_shared, al);
                        self.syms.insert(d.name.name.clone(), Sym::Shared(self.static_shared));
                        self.static_shared += size;
                    }
                }
                Space::Tex => return Err("texture references are not supported".into()),
                _ => {}
            }
        }
        Ok(())
    }

    fn init(&self, ty: Type, init: &Init, out: &mut Vec<u8>, relocs: &mut Vec<(usize, usize, u32)>) -> Result<(), String> {
        let size = ty.size().min(8) as usize;
        let addr = |n: &str| -> Option<u64> {
            match self.syms.get(n) {
                Some(Sym::Global(a)) => Some(*a as u64),
                Some(Sym::Const(a)) => Some(CONST_WINDOW as u64 + *a as u64),
                _ => None,
            }
        };
        if let Init::Expr(Expr { kind: ExprKind::Name(n), .. }) | Init::Generic(Ident { name: n, .. }) = init {
            if let Some(f) = self.funcs.get(n) {
                // A function address: the entry pc, patched after code layout.
                relocs.push((out.len(), size, f.index));
                out.extend_from_slice(&vec![0; size]);
                return Ok(());
            }
        }
        match init {
            Init::List(items, _) => {
                for i in items {
                    self.init(ty, i, out, relocs)?;
                }
            }
            Init::Generic(n) => {
                let a = addr(&n.name).ok_or_else(|| format!("`{}` has no address", n.name))?;
                out.extend_from_slice(&a.to_le_bytes()[..size]);
            }
            Init::Expr(e) => {
                let bits = match e.kind {
                    ExprKind::F32Bits(b) if ty == Type::F64 => (f32::from_bits(b) as f64).to_bits(),
                    ExprKind::F32Bits(b) => b as u64,
                    _ => convert_const(expr::eval(e, &|n| addr(n).map(Value::U64)).map_err(|(_, m)| m)?, ty),
                };
                out.extend_from_slice(&bits.to_le_bytes()[..size]);
            }
        }
        Ok(())
    }
}
