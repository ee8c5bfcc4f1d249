//! Preparing a checked PTX module for interpretation: memory layout of
//! module variables, one flat instruction list per function with names
//! resolved to register slots, variable addresses and instruction indices,
//! and the reconvergence point of every branch (from `cfg`).
//!
//! Layout rules (the compiler follows the same ones, so both engines put
//! module data at the same addresses): `.global` variables in declaration
//! order at `MODULE_GLOBAL_BASE`, each aligned to its `.align` (default: its
//! element size); `.const` variables the same way from const offset 0;
//! `.shared` variables (module and function scope) from shared offset 0,
//! then dynamic (`.extern .shared`) shared memory at the next 16-byte
//! boundary.

use super::cfg;
use super::ir::*;
use heddle_compiler::ptx::ast::*;
use heddle_compiler::ptx::expr::{self, Value};
use heddle_compiler::ptx::insts::Mod;
use heddle_compiler::ptx::SourceFile;
use heddle_isa::mem::align_up;
use heddle_isa::mem::MODULE_GLOBAL_BASE;
use std::collections::HashMap;

fn decl_size(v: &VarDecl, d: &Declarator) -> u32 {
    let elem = v.ty.size() * v.vector.unwrap_or(1);
    let n: u64 = d.dims.iter().map(|x| x.unwrap_or(0)).product::<u64>().max(if d.dims.is_empty() { 1 } else { 0 });
    let n = if d.dims.iter().any(|x| x.is_none()) {
        // `[]` takes its size from the initializer.
        match &d.init {
            Some(Init::List(items, _)) => items.len() as u64 * d.dims.iter().flatten().product::<u64>().max(1),
            _ => 0,
        }
    } else {
        n
    };
    (elem as u64 * n).min(u32::MAX as u64) as u32
}

/// Little-endian image of an initializer for element type `ty`.
fn init_bytes(ty: Type, init: &Init, out: &mut Vec<u8>, syms: &dyn Fn(&str) -> Option<u64>) -> Result<(), String> {
    match init {
        Init::List(items, _) => {
            for i in items {
                init_bytes(ty, i, out, syms)?;
            }
        }
        Init::Generic(n) => {
            let a = syms(&n.name).ok_or_else(|| format!("`{}` has no address", n.name))?;
            out.extend_from_slice(&a.to_le_bytes()[..ty.size() as usize]);
        }
        Init::Expr(e) => {
            let bits = match &e.kind {
                ExprKind::F32Bits(b) => match ty {
                    Type::F64 => (f32::from_bits(*b) as f64).to_bits(),
                    _ => *b as u64,
                },
                _ => super::ops::convert_const(expr::eval(e, &|n| syms(n).map(Value::U64)).map_err(|(_, m)| m)?, ty),
            };
            out.extend_from_slice(&bits.to_le_bytes()[..ty.size().min(8) as usize]);
        }
    }
    Ok(())
}

/// Prepares a checked module. Err: a construct the interpreter does not support.
pub fn prepare(src: &SourceFile, m: &Module) -> Result<Prog, String> {
    let legacy = m.target.iter().any(|t| t.name.strip_prefix("sm_").and_then(|n| n.parse::<u32>().ok()).is_some_and(|n| n < 20));
    let mut global_image: Vec<u8> = vec![];
    let mut const_image: Vec<u8> = vec![];
    let mut shared_off = 0u32;
    let mut globals: HashMap<String, Base> = HashMap::new();
    // Functions: indices first (calls may come before definitions).
    let mut func_index = HashMap::new();
    let fdecls: Vec<&Function> = m
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Func(f) => Some(f),
            _ => None,
        })
        .collect();
    let mut order: Vec<&Function> = vec![];
    for &f in &fdecls {
        match func_index.get(&f.name.name) {
            Some(&i) => {
                if f.body.is_some() {
                    order[i] = f;
                }
            }
            None => {
                func_index.insert(f.name.name.clone(), order.len());
                order.push(f);
            }
        }
    }
    // Module variables.
    for item in &m.items {
        let Item::Var(v) = item else { continue };
        for d in &v.names {
            let size = decl_size(v, d);
            let al = v.align.map(|a| a as u32).unwrap_or(v.ty.size() * v.vector.unwrap_or(1));
            match v.space {
                Space::Global | Space::Const => {
                    let img = if v.space == Space::Global { &mut global_image } else { &mut const_image };
                    let off = align_up(img.len() as u32, al);
                    img.resize(off as usize, 0);
                    let base = if v.space == Space::Global { Base::Global(MODULE_GLOBAL_BASE + off) } else { Base::Const(off) };
                    globals.insert(d.name.name.clone(), base);
                    let mut bytes = vec![];
                    if let Some(i) = &d.init {
                        let gl = &globals;
                        let fi = &func_index;
                        init_bytes(v.ty, i, &mut bytes, &|n| match gl.get(n) {
                            Some(Base::Global(a)) => Some(*a as u64),
                            Some(Base::Const(a)) => Some(heddle_isa::mem::CONST_WINDOW as u64 + *a as u64),
                            _ => fi.get(n).map(|&f| FUNC_ADDR + f as u64),
                        })?;
                    }
                    bytes.resize(size.max(bytes.len() as u32) as usize, 0);
                    let img = if v.space == Space::Global { &mut global_image } else { &mut const_image };
                    img.extend_from_slice(&bytes);
                }
                Space::Shared => {
                    if v.linkage == Some(Linkage::Extern) {
                        globals.insert(d.name.name.clone(), Base::Shared(u32::MAX));
                    } else {
                        shared_off = align_up(shared_off, al);
                        globals.insert(d.name.name.clone(), Base::Shared(shared_off));
                        shared_off += size;
                    }
                }
                Space::Tex => return Err("texture references are not supported".into()),
                _ => {}
            }
        }
    }
    let mut funcs = vec![];
    for f in &order {
        funcs.push(prepare_func(src, f, &globals, &func_index, &mut shared_off)?);
    }
    // The same program limit as compiled code (a warp's stack reserves the same pcs).
    let total: usize = funcs.iter().map(|f: &Func| f.insts.len()).sum();
    if total > heddle_isa::fields::MAX_CODE as usize {
        return Err(heddle_isa::fields::too_long(total));
    }
    Ok(Prog { file: src.name.clone(), funcs, func_index, global_image, const_image, static_shared: align_up(shared_off, 16), legacy })
}

struct FnCtx<'a> {
    src: &'a SourceFile,
    globals: &'a HashMap<String, Base>,
    funcs: &'a HashMap<String, usize>,
    scopes: Vec<HashMap<String, Opd>>,
    /// `%r<N>` families: first slot, count, type, vector width.
    families: Vec<HashMap<String, (u32, u32, Type, u32)>>,
    reg_types: Vec<Type>,
    param_area: u32,
    local_frame: u32,
    labels: HashMap<String, u32>,
}

fn prepare_func(
    src: &SourceFile,
    f: &Function,
    globals: &HashMap<String, Base>,
    funcs: &HashMap<String, usize>,
    shared: &mut u32,
) -> Result<Func, String> {
    let mut c = FnCtx {
        src,
        globals,
        funcs,
        scopes: vec![HashMap::new()],
        families: vec![HashMap::new()],
        reg_types: vec![],
        param_area: 0,
        local_frame: 0,
        labels: HashMap::new(),
    };
    let mut rets = vec![];
    let mut params = vec![];
    let mut kparam = 0u32;
    for (list, out) in [(&f.rets, &mut rets), (&f.params, &mut params)] {
        for p in list.iter() {
            let d = &p.names[0];
            let size = decl_size(p, d).max(p.ty.size());
            let al = p.align.map(|a| a as u32).unwrap_or(p.ty.size() * p.vector.unwrap_or(1));
            if p.space == Space::Reg {
                // PTX 1.x style register parameters: passed in registers.
                let slot = c.new_reg(p.ty);
                c.scopes[0].insert(d.name.name.clone(), Opd::Reg(slot, p.ty));
                out.push(ParamInfo { offset: u32::MAX - slot, size });
                continue;
            }
            let off = if f.entry {
                kparam = align_up(kparam, al);
                let o = kparam;
                kparam += size;
                c.scopes[0].insert(d.name.name.clone(), Opd::Addr(Base::KParam(o), 0));
                o
            } else {
                c.param_area = align_up(c.param_area, al);
                let o = c.param_area;
                c.param_area += size;
                c.scopes[0].insert(d.name.name.clone(), Opd::Addr(Base::FParam(o), 0));
                o
            };
            out.push(ParamInfo { offset: off, size });
        }
    }
    let mut insts = vec![];
    if let Some(body) = &f.body {
        collect_labels(body, &mut 0, &mut c.labels);
        c.block(body, &mut insts, shared)?;
    }
    let rpc = cfg::reconvergence(&insts);
    Ok(Func {
        name: f.name.name.clone(),
        entry: f.entry,
        external: f.body.is_none(),
        reg_types: c.reg_types,
        rets,
        params,
        param_area: align_up(c.param_area, 8),
        local_frame: align_up(c.local_frame, 16),
        insts,
        rpc,
    })
}

/// Instruction indices of labels (instructions are numbered in order of appearance).
fn collect_labels(b: &Block, n: &mut u32, labels: &mut HashMap<String, u32>) {
    for s in &b.stmts {
        match s {
            Stmt::Label(l) => {
                labels.insert(l.name.clone(), *n);
            }
            Stmt::Inst(_) => *n += 1,
            Stmt::Block(inner) => collect_labels(inner, n, labels),
            // A call prototype names a signature, not code.
            Stmt::CallProto { name, .. } => {
                labels.insert(name.name.clone(), u32::MAX);
            }
            _ => {}
        }
    }
}

impl FnCtx<'_> {
    fn new_reg(&mut self, ty: Type) -> u32 {
        self.reg_types.push(ty);
        self.reg_types.len() as u32 - 1
    }

    fn declare(&mut self, v: &VarDecl, shared: &mut u32) -> Result<(), String> {
        for d in &v.names {
            let size = decl_size(v, d);
            let al = v.align.map(|a| a as u32).unwrap_or(v.ty.size() * v.vector.unwrap_or(1));
            match v.space {
                Space::Reg => {
                    let n = v.vector.unwrap_or(1);
                    if let Some(count) = d.count {
                        let first = self.reg_types.len() as u32;
                        for _ in 0..count * n {
                            self.new_reg(v.ty);
                        }
                        self.families.last_mut().expect("scope").insert(d.name.name.clone(), (first, count, v.ty, n));
                    } else if n > 1 {
                        let slots: Vec<Opd> = (0..n).map(|_| Opd::Reg(self.new_reg(v.ty), v.ty)).collect();
                        self.scopes.last_mut().expect("scope").insert(d.name.name.clone(), Opd::Vec(slots));
                    } else {
                        let s = self.new_reg(v.ty);
                        self.scopes.last_mut().expect("scope").insert(d.name.name.clone(), Opd::Reg(s, v.ty));
                    }
                }
                Space::Local => {
                    self.local_frame = align_up(self.local_frame, al);
                    self.scopes.last_mut().expect("scope").insert(d.name.name.clone(), Opd::Addr(Base::Local(self.local_frame), 0));
                    self.local_frame += size;
                }
                Space::Param => {
                    self.param_area = align_up(self.param_area, al);
                    self.scopes.last_mut().expect("scope").insert(d.name.name.clone(), Opd::Addr(Base::FParam(self.param_area), 0));
                    self.param_area += size.max(v.ty.size());
                }
                Space::Shared => {
                    *shared = align_up(*shared, al);
                    self.scopes.last_mut().expect("scope").insert(d.name.name.clone(), Opd::Addr(Base::Shared(*shared), 0));
                    *shared += size;
                }
                s => return Err(format!("{} variables inside functions are not supported", s.name())),
            }
        }
        Ok(())
    }

    fn block(&mut self, b: &Block, out: &mut Vec<PInst>, shared: &mut u32) -> Result<(), String> {
        for s in &b.stmts {
            match s {
                Stmt::Var(v) => self.declare(v, shared)?,
                Stmt::Inst(i) => {
                    let p = self.inst(i)?;
                    out.push(p);
                }
                Stmt::Block(inner) => {
                    self.scopes.push(HashMap::new());
                    self.families.push(HashMap::new());
                    self.block(inner, out, shared)?;
                    self.scopes.pop();
                    self.families.pop();
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn lookup(&self, name: &str) -> Option<Opd> {
        let (base, comp) = match name.rsplit_once('.') {
            Some((b, c)) if matches!(c, "x" | "y" | "z" | "w" | "r" | "g" | "b" | "a") => (b, Some(c)),
            _ => (name, None),
        };
        if let Some(sr) = Special::from_name(base) {
            let k = match comp {
                Some("y") => 1,
                Some("z") => 2,
                _ => 0,
            };
            return Some(Opd::Special(sr, k));
        }
        for (scope, fam) in self.scopes.iter().zip(&self.families).rev() {
            if let Some(o) = scope.get(base) {
                return Some(match (o, comp) {
                    (Opd::Vec(v), Some(c)) => {
                        let k = "xyzw".find(c).or_else(|| "rgba".find(c)).unwrap_or(0);
                        v.get(k).cloned()?
                    }
                    _ => o.clone(),
                });
            }
            let digits = base.len() - base.trim_end_matches(|ch: char| ch.is_ascii_digit()).len();
            if digits > 0 && digits < base.len() {
                let (prefix, n) = base.split_at(base.len() - digits);
                if let (Some(&(first, count, ty, w)), Ok(n)) = (fam.get(prefix), n.parse::<u32>()) {
                    if n < count {
                        if w > 1 {
                            let v: Vec<Opd> = (0..w).map(|k| Opd::Reg(first + n * w + k, ty)).collect();
                            return Some(match comp {
                                Some(c) => v.get("xyzw".find(c).or_else(|| "rgba".find(c)).unwrap_or(0)).cloned()?,
                                None => Opd::Vec(v),
                            });
                        }
                        return Some(Opd::Reg(first + n, ty));
                    }
                }
            }
        }
        if let Some(&pc) = self.labels.get(base) {
            return Some(Opd::Label(pc));
        }
        if let Some(&f) = self.funcs.get(base) {
            return Some(Opd::Func(f));
        }
        self.globals.get(base).map(|b| Opd::Addr(*b, 0))
    }

    fn operand(&self, o: &Operand) -> Result<Opd, String> {
        Ok(match o {
            Operand::Name(n) => match self.lookup(&n.name).ok_or_else(|| format!("`{}` is undefined", n.name))? {
                Opd::Addr(b, _) => Opd::Sym(b),
                x => x,
            },
            Operand::Not(n) => match self.lookup(&n.name) {
                Some(Opd::Reg(s, _)) => Opd::Not(s),
                _ => return Err(format!("`!{}` needs a predicate register", n.name)),
            },
            Operand::Expr(e) => match &e.kind {
                ExprKind::F32Bits(b) => Opd::F32(*b),
                _ => Opd::Const(
                    expr::eval(e, &|n| match self.lookup(n) {
                        Some(Opd::Addr(Base::Global(a), _)) => Some(Value::U64(a as u64)),
                        Some(Opd::Addr(Base::Const(a) | Base::Shared(a) | Base::Local(a), _)) => Some(Value::U64(a as u64)),
                        Some(Opd::Special(Special::WarpSz, _)) => Some(Value::S64(32)),
                        _ => None,
                    })
                    .map_err(|(_, m)| m)?,
                ),
            },
            Operand::Addr(a) => {
                let off = match &a.offset {
                    Some(e) => expr::eval(e, &|_| None).map_err(|(_, m)| m)?.bits() as i64,
                    None => 0,
                };
                match &a.base {
                    None => Opd::Addr(Base::None, off),
                    Some(b) => match self.lookup(&b.name).ok_or_else(|| format!("`{}` is undefined", b.name))? {
                        Opd::Reg(s, _) => Opd::Addr(Base::Reg(s), off),
                        Opd::Addr(base, o) => Opd::Addr(base, o + off),
                        _ => return Err(format!("`{}` cannot be an address base", b.name)),
                    },
                }
            }
            Operand::Vector(v, _) => Opd::Vec(v.iter().map(|x| self.operand(x)).collect::<Result<_, _>>()?),
            Operand::Pair(a, b) => match (self.lookup(&a.name), self.lookup(&b.name)) {
                (Some(Opd::Reg(x, _)), Some(Opd::Reg(y, _))) => Opd::Pair(x, y),
                _ => return Err("a `d|p` operand needs two registers".into()),
            },
            Operand::Sink(_) => Opd::Sink,
            Operand::List(v, _) => Opd::List(v.iter().map(|x| self.operand(x)).collect::<Result<_, _>>()?),
        })
    }

    fn inst(&self, i: &Inst) -> Result<PInst, String> {
        let op = i.op.ok_or_else(|| format!("unknown instruction `{}`", i.opcode.name))?;
        let vec = if i.has(Mod::V4) {
            4
        } else if i.has(Mod::V2) {
            2
        } else {
            1
        };
        let (types, mods, space) = (i.types.clone(), i.flags, i.space());
        let guard = match &i.guard {
            Some(g) => match self.lookup(&g.pred.name) {
                Some(Opd::Reg(s, _)) => Some((s, g.neg)),
                _ => return Err(format!("guard `{}` is not a predicate register", g.pred.name)),
            },
            None => None,
        };
        let args = i.args.iter().map(|a| self.operand(a)).collect::<Result<Vec<_>, _>>()?;
        let (line, col) = self.src.line_col(i.span.start as usize);
        Ok(PInst { op, types, mods, vec, space, guard, args, line: line as u32, col: col as u32 })
    }
}
