//! The PTX checker: symbol resolution with brace scopes, labels, the
//! instruction table's operand/type/modifier rules (T17-T19), state spaces,
//! and version/target gating. Every error is a located diagnostic; checking
//! goes on after an error.

use super::ast::*;
use super::insts::{self, group, Mod, Op, Spec};
use super::source::{SourceFile, Span};
use heddle_isa::diag::Diagnostic;
use std::collections::HashMap;

/// Special registers (T3 and later), with their register type.
const SPECIAL: &[(&str, Type)] = &[
    ("%tid", Type::U32),
    ("%ntid", Type::U32),
    ("%ctaid", Type::U32),
    ("%nctaid", Type::U32),
    ("%laneid", Type::U32),
    ("%warpid", Type::U32),
    ("%nwarpid", Type::U32),
    ("%smid", Type::U32),
    ("%nsmid", Type::U32),
    ("%gridid", Type::U64),
    ("%clock", Type::U32),
    ("%clock_hi", Type::U32),
    ("%clock64", Type::U64),
    ("%globaltimer", Type::U64),
    ("%globaltimer_lo", Type::U32),
    ("%globaltimer_hi", Type::U32),
    ("%lanemask_eq", Type::U32),
    ("%lanemask_le", Type::U32),
    ("%lanemask_lt", Type::U32),
    ("%lanemask_ge", Type::U32),
    ("%lanemask_gt", Type::U32),
    ("%dynamic_smem_size", Type::U32),
    ("%total_smem_size", Type::U32),
    ("%pm0", Type::U32),
    ("%pm1", Type::U32),
    ("%pm2", Type::U32),
    ("%pm3", Type::U32),
    ("WARP_SZ", Type::U32),
];

/// Extra type-like suffixes that are not variable types.
const EXTRA_TYPES: &[&str] = &["u16x2", "s16x2", "tf32"];

#[derive(Debug, Clone, Copy, PartialEq)]
enum Sym {
    Var { space: Space, ty: Type, vector: Option<u32>, array: bool },
    Func,
    Label,
}

/// A scope: plain names, and parameterized register families (`%r<100>`).
#[derive(Default)]
struct Scope {
    names: HashMap<String, Sym>,
    families: HashMap<String, (u32, Type, Option<u32>)>,
}

struct Checker<'a> {
    src: &'a SourceFile,
    errors: Vec<Diagnostic>,
    version: (u32, u32),
    sm: u32,
    map_f64: bool,
    scopes: Vec<Scope>,
    labels: HashMap<String, Span>,
    /// Functions: (return values, parameters).
    sigs: HashMap<String, (usize, usize)>,
    /// The opcode being checked.
    cur_op: Option<Op>,
}

/// Checks a parsed module; returns every error (empty: the module is valid).
pub fn check(src: &SourceFile, m: &Module) -> Vec<Diagnostic> {
    let sm = m
        .target
        .iter()
        .find_map(|t| t.name.strip_prefix("sm_").and_then(|n| n.trim_end_matches(|c: char| c.is_ascii_alphabetic()).parse().ok()))
        .unwrap_or(0);
    let mut c = Checker {
        src,
        errors: vec![],
        version: m.version,
        sm,
        map_f64: m.target.iter().any(|t| t.name == "map_f64_to_f32"),
        scopes: vec![Scope::default()],
        labels: HashMap::new(),
        sigs: HashMap::new(),
        cur_op: None,
    };
    c.module(m);
    c.errors.sort_by_key(|d| (d.line, d.col));
    c.errors
}

fn kind_of(t: Type) -> TypeKind {
    t.kind()
}

/// T17 (exact) or T18/T19 (`relaxed`, for ld/st/cvt): may a register of type
/// `reg` be an operand of an instruction of type `instr`?
pub fn compatible(instr: Type, reg: Type, relaxed: bool) -> bool {
    use TypeKind::*;
    let (ik, rk) = (kind_of(instr), kind_of(reg));
    if ik == Pred || rk == Pred {
        return ik == rk;
    }
    if rk == Opaque || ik == Opaque {
        return ik == rk;
    }
    let kinds_ok = match ik {
        Bits => true,
        Signed | Unsigned => rk != Float,
        Float => rk == Float || rk == Bits,
        _ => false,
    };
    if !kinds_ok {
        return false;
    }
    let (is, rs) = (instr.size(), reg.size());
    if relaxed {
        if ik == Float && rk == Float {
            return is == rs && instr == reg;
        }
        rs >= is || (instr.size() == 1 && rs >= 1)
    } else {
        if ik == Float && rk == Float {
            return instr == reg || is == rs;
        }
        is == rs
    }
}

impl Checker<'_> {
    fn error(&mut self, span: Span, msg: impl Into<String>) {
        let d = self.src.diagnostic(span, msg);
        if self.errors.len() < 1000 {
            self.errors.push(d);
        }
    }

    fn module(&mut self, m: &Module) {
        if m.version.0 == 0 || m.version.0 > 9 {
            self.error(m.version_span, format!("unknown PTX ISA version {}.{}", m.version.0, m.version.1));
        }
        if m.address_size.is_some() && m.version < (2, 3) {
            self.error(
                m.address_size_span,
                format!(".address_size needs PTX ISA 2.3 or later (this file is .version {}.{})", m.version.0, m.version.1),
            );
        }
        for t in &m.target {
            let ok = t.name.starts_with("sm_")
                || t.name.starts_with("compute_")
                || matches!(t.name.as_str(), "texmode_unified" | "texmode_independent" | "debug" | "map_f64_to_f32");
            if !ok {
                self.error(t.span, format!("unknown target `{}`", t.name));
            }
        }
        // Module symbols first: functions may be called before their definition.
        let mut defined: HashMap<&str, Span> = HashMap::new();
        for item in &m.items {
            match item {
                Item::Func(f) => {
                    if f.body.is_some() {
                        if let Some(prev) = defined.insert(&f.name.name, f.name.span) {
                            let (l, _) = self.src.line_col(prev.start as usize);
                            self.error(f.name.span, format!("function `{}` is defined twice (first at line {l})", f.name.name));
                        }
                    }
                    if let Some(Sym::Var { .. }) = self.scopes[0].names.get(&f.name.name) {
                        self.error(f.name.span, format!("`{}` is already a variable", f.name.name));
                    }
                    self.scopes[0].names.insert(f.name.name.clone(), Sym::Func);
                    self.sigs.insert(f.name.name.clone(), (f.rets.len(), f.params.len()));
                }
                Item::Var(v) => {
                    for d in &v.names {
                        if self.sigs.contains_key(&d.name.name) {
                            self.error(d.name.span, format!("`{}` is already a function", d.name.name));
                        }
                    }
                    self.declare(v, true)
                }
                _ => {}
            }
        }
        for item in &m.items {
            if let Item::Func(f) = item {
                self.function(f);
            }
        }
    }

    fn check_type_target(&mut self, ty: Type, span: Span) {
        if ty == Type::F64 && self.sm != 0 && self.sm < 13 && !self.map_f64 {
            self.error(span, format!(".f64 needs target sm_13 or later (this file targets sm_{})", self.sm));
        }
    }

    /// Declares the names of `v` in the innermost scope.
    fn declare(&mut self, v: &VarDecl, module_level: bool) {
        if module_level && matches!(v.space, Space::Reg | Space::Param | Space::Sreg) {
            self.error(v.span, format!("`{}` variables cannot be declared at module scope", v.space.name()));
        }
        if v.space == Space::Sreg {
            self.error(v.span, "`.sreg` names special registers, which are predefined");
        }
        self.check_type_target(v.ty, v.span);
        if let Some(n) = v.vector {
            if v.ty.size() * n > 16 && v.ty != Type::Pred {
                self.error(v.vector_span, format!("a .v{n} vector of {} is wider than 128 bits", v.ty.name()));
            }
        }
        for d in &v.names {
            if let Some(init) = &d.init {
                self.check_init(v, d, init);
            }
            if d.init.is_some() && !matches!(v.space, Space::Global | Space::Const) {
                self.error(d.init_span, format!("only .global and .const variables may have initializers, not {}", v.space.name()));
            }
            if SPECIAL.iter().any(|(n, _)| *n == d.name.name) {
                self.error(d.name.span, format!("`{}` is a predefined special register", d.name.name));
            }
            if d.name.name == "_" {
                self.error(d.name.span, "`_` is the bit bucket, not a name");
            }
            let scope = self.scopes.last_mut().expect("a scope");
            if let Some(n) = d.count {
                if scope.families.insert(d.name.name.clone(), (n, v.ty, v.vector)).is_some() {
                    self.error(d.name.span, format!("`{}<...>` is declared twice in this scope", d.name.name));
                }
                continue;
            }
            let digits = d.name.name.len() - d.name.name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
            if digits > 0 && digits < d.name.name.len() {
                let (prefix, n) = d.name.name.split_at(d.name.name.len() - digits);
                let fam = scope.families.get(prefix).map(|f| f.0);
                if let (Some(count), Ok(n)) = (fam, n.parse::<u64>()) {
                    if n < count as u64 {
                        self.error(d.name.span, format!("`{}` is already declared by `{prefix}<{count}>`", d.name.name));
                        continue;
                    }
                }
            }
            let scope = self.scopes.last_mut().expect("a scope");
            let sym = Sym::Var { space: v.space, ty: v.ty, vector: v.vector, array: !d.dims.is_empty() };
            if let Some(Sym::Var { .. }) = scope.names.insert(d.name.name.clone(), sym) {
                self.error(d.name.span, format!("`{}` is declared twice in this scope", d.name.name));
            }
        }
    }

    fn lookup(&self, name: &str) -> Option<Sym> {
        if let Some((_, t)) =
            SPECIAL.iter().find(|(n, _)| name == *n || name.strip_prefix(n).is_some_and(|c| matches!(c, ".x" | ".y" | ".z" | ".w")))
        {
            return Some(Sym::Var { space: Space::Sreg, ty: *t, vector: None, array: false });
        }
        for s in self.scopes.iter().rev() {
            if let Some(sym) = s.names.get(name) {
                return Some(*sym);
            }
            // A component of a vector variable (`%v.x`).
            if let Some((base, c)) = name.rsplit_once('.') {
                if matches!(c, "x" | "y" | "z" | "w" | "r" | "g" | "b" | "a") {
                    if let Some(Sym::Var { vector: Some(_), space, ty, .. }) = s.names.get(base) {
                        return Some(Sym::Var { space: *space, ty: *ty, vector: None, array: false });
                    }
                }
            }
            // `%r12` in a `%r<100>` family.
            let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
            if digits > 0 && digits < name.len() {
                let (prefix, n) = name.split_at(name.len() - digits);
                if let (Some((count, ty, vector)), Ok(n)) = (s.families.get(prefix), n.parse::<u64>()) {
                    if n < *count as u64 && !(n > 0 && name.ends_with(&format!("0{n}"))) {
                        return Some(Sym::Var { space: Space::Reg, ty: *ty, vector: *vector, array: false });
                    }
                }
            }
        }
        if self.labels.contains_key(name) {
            return Some(Sym::Label);
        }
        None
    }

    /// Initializer shape and element kinds.
    fn check_init(&mut self, v: &VarDecl, d: &Declarator, init: &Init) {
        let int_type = matches!(v.ty.kind(), TypeKind::Signed | TypeKind::Unsigned | TypeKind::Bits);
        let mut elems = vec![];
        fn flat<'a>(i: &'a Init, out: &mut Vec<&'a Init>) {
            match i {
                Init::List(v, _) => v.iter().for_each(|x| flat(x, out)),
                x => out.push(x),
            }
        }
        flat(init, &mut elems);
        let cap: Option<u64> = if d.dims.is_empty() {
            Some(1)
        } else if d.dims.iter().all(|x| x.is_some()) {
            Some(d.dims.iter().flatten().product())
        } else {
            None
        };
        if let (Some(cap), true) = (cap, !d.dims.is_empty()) {
            if elems.len() as u64 > cap * v.vector.unwrap_or(1) as u64 {
                let extra = elems[cap as usize * v.vector.unwrap_or(1) as usize];
                let span = match extra {
                    Init::Expr(e) => e.span,
                    Init::Generic(n) => n.span,
                    Init::List(_, s) => *s,
                };
                self.error(span, format!("too many initializers: `{}` has {cap} elements", d.name.name));
            }
        }
        if int_type {
            for e in elems {
                if let Init::Expr(e) = e {
                    if matches!(e.kind, ExprKind::Float(_) | ExprKind::F32Bits(_) | ExprKind::F64Bits(_)) {
                        self.error(
                            e.span,
                            format!("floating-point initializer `{}` for {} `{}`", crate::ptx::print::expr(e), v.ty.name(), d.name.name),
                        );
                    }
                }
            }
        }
    }

    fn function(&mut self, f: &Function) {
        for a in &f.attrs {
            for e in &a.args {
                if crate::ptx::expr::eval_int(e).is_err() {
                    let text = crate::ptx::print::expr(e);
                    self.error(e.span, format!("`{}` takes integer constants, not `{text}`", a.name.name));
                }
            }
        }
        self.scopes.push(Scope::default());
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for p in f.rets.iter().chain(&f.params) {
            for d in &p.names {
                if seen.insert(&d.name.name, d.name.span).is_some() {
                    self.error(d.name.span, format!("parameter `{}` is declared twice", d.name.name));
                }
            }
            if !matches!(p.space, Space::Param | Space::Reg) {
                self.error(p.span, format!("parameters are .param or .reg, not {}", p.space.name()));
            }
            if f.entry && p.space == Space::Reg {
                self.error(p.span, "kernel parameters must be .param");
            }
            self.declare(p, false);
        }
        if let Some(body) = &f.body {
            self.labels.clear();
            self.collect_labels(body);
            self.block(body, true);
        }
        self.scopes.pop();
    }

    fn collect_labels(&mut self, b: &Block) {
        // Labels are scoped to their block: the same name in two blocks is fine.
        let mut here: HashMap<&str, Span> = HashMap::new();
        for s in &b.stmts {
            match s {
                Stmt::Label(l) => {
                    if l.name == "_" || l.name == "WARP_SZ" {
                        self.error(l.span, format!("`{}` cannot be a label", l.name));
                    }
                    if let Some(prev) = here.insert(&l.name, l.span) {
                        let (line, _) = self.src.line_col(prev.start as usize);
                        self.error(l.span, format!("label `{}` is defined twice (first at line {line})", l.name));
                    }
                    self.labels.insert(l.name.clone(), l.span);
                }
                Stmt::CallProto { name, .. } => {
                    self.labels.insert(name.name.clone(), name.span);
                }
                Stmt::Block(inner) => self.collect_labels(inner),
                _ => {}
            }
        }
    }

    fn block(&mut self, b: &Block, top: bool) {
        if !top {
            self.scopes.push(Scope::default());
        }
        for s in &b.stmts {
            match s {
                Stmt::Var(v) => self.declare(v, false),
                Stmt::Inst(i) => self.inst(i),
                Stmt::Block(inner) => self.block(inner, false),
                Stmt::CallProto { rets, params, .. } => {
                    for p in rets.iter().chain(params) {
                        self.check_type_target(p.ty, p.span);
                    }
                }
                Stmt::Label(_) | Stmt::Pragma { .. } | Stmt::Loc { .. } => {}
            }
        }
        if !top {
            self.scopes.pop();
        }
    }

    fn inst(&mut self, i: &Inst) {
        self.cur_op = i.op;
        let Some(op) = i.op else {
            let op = i.opcode.name.as_str();
            if insts::UNSUPPORTED.contains(&op) {
                self.error(i.opcode.span, format!("`{op}` is not supported by Heddle"));
            } else {
                self.error(i.opcode.span, format!("unknown instruction `{op}`"));
            }
            return;
        };
        let spec = op.spec();
        if let Some(g) = &i.guard {
            self.expect_pred(&g.pred);
        }
        // Version gating.
        let sync = i.has(Mod::Sync) && matches!(op, Op::Shfl | Op::Vote | Op::Match | Op::Redux);
        let need = if sync {
            (6, 0)
        } else if op == Op::Fma && i.types.first() == Some(&Type::F32) {
            (2, 0)
        } else {
            spec.ptx
        };
        if op == Op::Shfl && self.sm != 0 && self.sm < 30 {
            self.error(i.opcode.span, format!("`shfl` needs target sm_30 or later (this file targets sm_{})", self.sm));
        }
        if self.version < need {
            self.error(
                i.opcode.span,
                format!(
                    "`{op}{}` needs PTX ISA {}.{} or later (this file is .version {}.{})",
                    if sync { ".sync" } else { "" },
                    need.0,
                    need.1,
                    self.version.0,
                    self.version.1
                ),
            );
        }
        // Modifiers and types.
        let mut types: Vec<(Type, Span)> = vec![];
        let mut extra_types = 0;
        let mut seen: Vec<&str> = vec![];
        let errors_before = self.errors.len();
        for m in &i.mods {
            let name = &m.name[1..];
            if seen.contains(&name) && !matches!(op, Op::Cvt | Op::Set | Op::Slct | Op::Dp4a | Op::Dp2a) {
                self.error(m.span, format!("modifier `{}` is repeated", m.name));
                continue;
            }
            seen.push(name);
            if let Some(t) = Type::from_name(&m.name).filter(|_| spec.allows_type(name)) {
                types.push((t, m.span));
                self.check_type_target(t, m.span);
            } else if EXTRA_TYPES.contains(&name) && spec.allows_type(name) {
                extra_types += 1;
            } else if Mod::from_name(name).is_some_and(|m| spec.allows_mod(m)) {
            } else if Type::from_name(&m.name).is_some() {
                self.error(m.span, format!("`{op}` does not take type `{}`", m.name));
                extra_types += 1;
            } else {
                self.error(m.span, format!("`{op}` has no modifier `{}`", m.name));
            }
        }
        let ntypes = types.len() + extra_types;
        let (lo, hi) = spec.ntypes;
        let bad_suffix = self.errors.len() > errors_before;
        if (ntypes < lo || ntypes > hi) && !bad_suffix {
            let valid: Vec<String> = spec.types.split_whitespace().take(8).map(|t| format!(".{t}")).collect();
            // An extra type is reported at the first suffix too many.
            let at = if ntypes > hi { types.get(hi).map(|t| t.1).unwrap_or(i.opcode.span) } else { i.opcode.span };
            let msg = match (lo, hi) {
                (0, 0) => format!("`{op}` takes no type"),
                (2, 2) => format!("`{op}` needs two types (destination, then source), e.g. {}", valid.join(" ")),
                _ if ntypes == 0 => format!("`{op}` needs a type: one of {}", valid.join(" ")),
                _ => format!("`{op}` takes one type, found {ntypes}"),
            };
            self.error(at, msg);
        }
        if !bad_suffix {
            self.modifier_rules(i, &types);
        }
        self.operands(i, spec, &types);
    }

    /// Required and exclusive modifiers (what ptxas enforces beyond the table).
    fn modifier_rules(&mut self, i: &Inst, types: &[(Type, Span)]) {
        let Some(op) = i.op else { return };
        let count = |group: &[Mod]| i.flags.count(group);
        let rounding = count(group::ROUNDING);
        let span = i.opcode.span;
        if rounding > 1 {
            let second = i.mods.iter().filter(|m| Mod::from_name(&m.name[1..]).is_some_and(|m| group::ROUNDING.contains(&m))).nth(1);
            self.error(
                second.map_or(span, |m| m.span),
                format!("`{op}` takes at most one rounding modifier; `{}` is a second one", second.map_or("", |m| m.name.as_str())),
            );
        }
        let ty = types.first().map(|t| t.0);
        let is_float = ty.is_some_and(|t| t.kind() == TypeKind::Float);
        match op {
            Op::Setp | Op::Set => {
                let cmps = count(group::COMPARISON);
                if cmps != 1 {
                    self.error(span, format!("`{op}` needs exactly one comparison (.eq .ne .lt ...)"));
                }
                let bops = count(group::BOOL_OP);
                let n = i.args.len();
                if bops == 1 && n != 4 {
                    self.error(span, format!("`{op}` with a boolean combine takes 4 operands, found {n}"));
                } else if bops == 0 && n == 4 {
                    self.error(span, format!("`{op}` takes a 4th operand only with .and, .or or .xor"));
                }
            }
            Op::Mul | Op::Mad if !is_float && count(group::MUL_HALF) != 1 => {
                self.error(span, format!("integer `{op}` needs one of .lo .hi .wide"));
            }
            Op::Fma if rounding == 0 && (ty != Some(Type::F32) || self.version >= (2, 0)) => {
                self.error(span, "`fma` needs a rounding modifier (.rn .rz .rm .rp)");
            }
            Op::Cvt if types.len() == 2 => {
                let (d, a) = (types[0].0, types[1].0);
                let (df, af) = (d.kind() == TypeKind::Float, a.kind() == TypeKind::Float);
                let int_r = count(group::INT_ROUNDING) > 0;
                let fp_r = count(group::FLOAT_ROUNDING) > 0;
                let narrowing = df && af && d.size() < a.size();
                if (!df && af && !int_r) || (df && !af && !fp_r) || (narrowing && !fp_r) {
                    if self.version >= (1, 4) {
                        self.error(span, format!("`cvt{}{}` needs a rounding modifier", d.name(), a.name()));
                    }
                } else if (int_r && !(af && (!df || d == a))) || (fp_r && !(df && (!af || narrowing))) {
                    self.error(span, format!("this rounding modifier is not valid for `cvt{}{}`", d.name(), a.name()));
                }
            }
            Op::Atom | Op::Red if count(group::ATOM_OP) != 1 => {
                self.error(span, format!("`{op}` needs exactly one operation (.add .min .cas ...)"));
            }
            Op::Shfl if count(group::SHFL_MODE) != 1 => self.error(span, "`shfl` needs a mode: one of .up .down .bfly .idx"),
            Op::Vote if count(group::VOTE_MODE) != 1 => self.error(span, "`vote` needs one of .all .any .uni .ballot"),
            _ => {}
        }
        if i.has(Mod::Wide) && ty.is_some_and(|t| t.size() > 4) {
            let w = types.first().map_or(span, |t| t.1);
            self.error(w, format!("`{op}.wide` takes a 16- or 32-bit type"));
        }
        // Operand counts that depend on modifiers.
        let n = i.args.len();
        let want = match op {
            Op::Vote | Op::Shfl | Op::Match | Op::Redux if i.has(Mod::Sync) => Some(if op == Op::Shfl { 5 } else { 3 }),
            Op::Bar | Op::Barrier if i.has(Mod::Red) => Some(if n == 4 { 4 } else { 3 }),
            Op::Bar | Op::Barrier
                if !i.has(Mod::Warp)
                    && matches!(i.args.first(), Some(Operand::Expr(e)) if crate::ptx::expr::eval_int(e).is_ok_and(|v| v > 15)) =>
            {
                let text = crate::ptx::print::operand(&i.args[0]);
                self.error(i.args[0].span(), format!("barrier {text} does not exist: barriers go from 0 to 15"));
                None
            }
            Op::Bar | Op::Barrier => Some(if n == 2 { 2 } else { 1 }),
            Op::Atom if i.has(Mod::Cas) => Some(4),
            Op::Atom => Some(3),
            _ => None,
        };
        if let Some(w) = want {
            if n != w && !(op == Op::Match && i.has(Mod::All) && n == 3) {
                self.error(span, format!("`{op}` here takes {w} operands, found {n}"));
            }
        }
        // A vector access needs a vector operand.
        if let Some(v) = i.vector_width() {
            let data = if op == Op::St { i.args.get(1) } else { i.args.first() };
            if let Some(d) = data {
                let vector_reg = matches!(d, Operand::Name(n) if matches!(self.lookup(&n.name), Some(Sym::Var { vector: Some(_), .. })));
                if !matches!(d, Operand::Vector(..)) && !vector_reg {
                    self.error(d.span(), format!("`{op}.v{v}` needs a vector operand {{...}}"));
                }
            }
        }
    }

    fn expect_pred(&mut self, p: &Ident) {
        match self.lookup(&p.name) {
            Some(Sym::Var { ty: Type::Pred, .. }) => {}
            Some(Sym::Var { ty, .. }) => self.error(p.span, format!("`{}` is a {} register, not a predicate", p.name, ty.name())),
            _ => self.error(p.span, format!("undefined predicate `{}`", p.name)),
        }
    }

    fn operands(&mut self, i: &Inst, spec: &Spec, types: &[(Type, Span)]) {
        let Some(op) = i.op else { return };
        if op == Op::Call {
            return self.call(i);
        }
        let (req, opt) = spec.shapes();
        let n = i.args.len();
        if n < req.len() || n > req.len() + opt.len() {
            let want = if opt.is_empty() { format!("{}", req.len()) } else { format!("{} to {}", req.len(), req.len() + opt.len()) };
            self.error(i.opcode.span, format!("`{op}` takes {want} operand{}, found {n}", if want == "1" { "" } else { "s" }));
            return;
        }
        let ty = types.first().map(|t| t.0);
        let relaxed = matches!(op, Op::Ld | Op::St | Op::Cvt | Op::Ldu);
        for (k, arg) in i.args.iter().enumerate() {
            let shape = req.iter().chain(&opt).nth(k).copied().unwrap_or('s');
            // The type an operand at this position should have, where the rules are simple.
            let want = self.operand_type(i, k, types, ty);
            match (shape, arg) {
                ('m', Operand::Addr(a)) => self.address(i, a),
                ('m', other) => self.error(other.span(), format!("`{op}` expects an address `[...]` here")),
                (_, Operand::Addr(a)) => self.error(a.span, format!("`{op}` does not take an address operand here")),
                ('l', Operand::Name(n)) => match self.lookup(&n.name) {
                    None => self.error(n.span, format!("undefined label `{}`", n.name)),
                    Some(Sym::Var { .. }) => self.error(n.span, format!("expected a label, found `{}`", n.name)),
                    _ => {}
                },
                ('l', other) => self.error(other.span(), "expected a label"),
                ('d' | 'p', Operand::Expr(e)) => self.error(e.span, "a destination must be a register"),
                ('d' | 'p', Operand::Not(n)) => {
                    self.error(Span::new(n.span.start as usize - 1, n.span.start as usize), "a destination cannot be negated")
                }
                (_, Operand::Pair(a, b)) => {
                    let pair_ok = matches!(op, Op::Setp | Op::Shfl | Op::Testp | Op::Isspacep) || (op == Op::Match && i.has(Mod::All));
                    if !(pair_ok && k == 0) {
                        self.error(a.span.to(b.span), format!("`{op}` takes no `d|p` operand here"));
                    }
                    self.reg_operand(a, want, relaxed);
                    self.expect_pred(b);
                }
                (_, Operand::Name(n)) => self.name_operand(n, want, relaxed, shape),
                (_, Operand::Not(n)) => self.expect_pred(n),
                (_, Operand::Sink(_)) => {}
                (_, Operand::Vector(v, span)) => {
                    let width = i.vector_width();
                    let ok = match width {
                        Some(w) => v.len() == w,
                        None => op == Op::Mov && matches!(v.len(), 2 | 4),
                    };
                    if !ok {
                        self.error(
                            *span,
                            format!(
                                "a vector of {} elements does not match `{op}{}`",
                                v.len(),
                                width.map(|w| format!(".v{w}")).unwrap_or_default()
                            ),
                        );
                    }
                    let elem = if op == Op::Mov { None } else { want };
                    for e in v {
                        match e {
                            Operand::Name(n) => self.name_operand(n, elem, relaxed, shape),
                            Operand::Sink(_) => {}
                            Operand::Expr(e) if shape == 's' => self.imm_operand(e, elem),
                            other => self.error(other.span(), "expected a register in the vector"),
                        }
                    }
                }
                (_, Operand::Expr(e)) => self.imm_operand(e, want),
                (_, Operand::List(_, s)) => self.error(*s, "a parenthesized list is only valid in `call`"),
            }
        }
    }

    /// The register type an operand position requires, when the rule is simple.
    fn operand_type(&self, i: &Inst, k: usize, types: &[(Type, Span)], ty: Option<Type>) -> Option<Type> {
        let op = i.op?;
        let wide = i.has(Mod::Wide);
        let double = |t: Type| match t {
            Type::U16 => Type::U32,
            Type::S16 => Type::S32,
            Type::U32 => Type::U64,
            Type::S32 => Type::S64,
            t => t,
        };
        match op {
            Op::Add
            | Op::Sub
            | Op::Addc
            | Op::Subc
            | Op::Div
            | Op::Rem
            | Op::Abs
            | Op::Neg
            | Op::Min
            | Op::Max
            | Op::And
            | Op::Or
            | Op::Xor
            | Op::Not
            | Op::Cnot
            | Op::Fma
            | Op::Rcp
            | Op::Sqrt
            | Op::Rsqrt
            | Op::Sin
            | Op::Cos
            | Op::Lg2
            | Op::Ex2
            | Op::Tanh
            | Op::Copysign
            | Op::Cvta
            | Op::Mul24
            | Op::Mad24
            | Op::Sad => ty,
            Op::Mul | Op::Mad => match (wide, k) {
                (true, 0) | (true, 3) => ty.map(double),
                _ => ty,
            },
            Op::Selp => {
                if k == 3 {
                    Some(Type::Pred)
                } else {
                    ty
                }
            }
            Op::Setp => {
                if k == 0 || k == 3 {
                    Some(Type::Pred)
                } else {
                    ty
                }
            }
            Op::Shl | Op::Shr => {
                if k == 2 {
                    Some(Type::U32)
                } else {
                    ty
                }
            }
            Op::Mov if !matches!(i.args.get(1), Some(Operand::Vector(..))) && !matches!(i.args.first(), Some(Operand::Vector(..))) => ty,
            Op::Ld | Op::Ldu => {
                if k == 0 {
                    ty
                } else {
                    None
                }
            }
            Op::St => {
                if k == 1 {
                    ty
                } else {
                    None
                }
            }
            Op::Cvt => types.get(if k == 0 { 0 } else { 1 }).map(|t| t.0),
            Op::Set => types.get(if k == 0 { 0 } else { 1 }).map(|t| t.0).filter(|_| k < 3),
            Op::Shfl if k <= 1 => ty,
            Op::Popc | Op::Clz => {
                if k == 0 {
                    Some(Type::U32)
                } else {
                    ty
                }
            }
            Op::Testp => {
                if k == 0 {
                    Some(Type::Pred)
                } else {
                    ty
                }
            }
            _ => None,
        }
    }

    fn name_operand(&mut self, n: &Ident, want: Option<Type>, relaxed: bool, shape: char) {
        match self.lookup(&n.name) {
            None => self.error(n.span, format!("undefined register or variable `{}`", n.name)),
            Some(Sym::Var { space: Space::Sreg, .. }) if shape == 'd' || shape == 'p' => {
                self.error(n.span, format!("`{}` is a special register and cannot be written", n.name))
            }
            // Special registers read as any integer width (16-bit components in PTX 1.x).
            Some(Sym::Var { space: Space::Sreg, .. }) => {}
            Some(Sym::Label) if shape != 'l' => self.error(n.span, format!("label `{}` cannot be used as a value", n.name)),
            Some(Sym::Var { space: Space::Param, .. }) if !matches!(self.cur_op, Some(Op::Mov | Op::Cvta)) => {
                self.error(n.span, format!("`{}` is a .param variable: read it with ld.param", n.name))
            }
            Some(Sym::Var { space: Space::Reg, ty, .. }) => {
                if let Some(w) = want {
                    if !compatible(w, ty, relaxed) {
                        self.error(
                            n.span,
                            format!("`{}` is a {} register, which does not fit the {} operand here", n.name, ty.name(), w.name()),
                        );
                    }
                }
            }
            // A variable, function or label name used as a value is its address.
            Some(_) if shape == 'd' || shape == 'p' => self.error(n.span, format!("`{}` is not a register", n.name)),
            Some(_) => {}
        }
    }

    fn reg_operand(&mut self, n: &Ident, want: Option<Type>, relaxed: bool) {
        self.name_operand(n, want, relaxed, 'd')
    }

    fn imm_operand(&mut self, e: &Expr, want: Option<Type>) {
        // Names inside expressions must resolve.
        self.expr_names(e);
        let is_float = matches!(e.kind, ExprKind::Float(_) | ExprKind::F64Bits(_) | ExprKind::F32Bits(_));
        if let Some(w) = want {
            if is_float && matches!(w.kind(), TypeKind::Signed | TypeKind::Unsigned) {
                self.error(e.span, format!("a floating-point constant is not a valid {} operand", w.name()));
            }
        }
        if !matches!(e.kind, ExprKind::F32Bits(_)) {
            let labels = &self.labels;
            let scopes = &self.scopes;
            let r = super::expr::eval(e, &|n| {
                let known = labels.contains_key(n) || scopes.iter().any(|s| s.names.contains_key(n)) || n == "WARP_SZ";
                known.then_some(super::expr::Value::S64(0))
            });
            if let Err((span, m)) = r {
                if !m.contains("is not a constant") {
                    self.error(span, m);
                }
            }
        }
    }

    fn expr_names(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Name(n) => {
                if self.lookup(n).is_none() && n != "WARP_SZ" {
                    self.error(e.span, format!("undefined name `{n}`"));
                }
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => self.expr_names(a),
            ExprKind::Binary(_, a, b) => {
                self.expr_names(a);
                self.expr_names(b);
            }
            ExprKind::Cond(a, b, c) => {
                self.expr_names(a);
                self.expr_names(b);
                self.expr_names(c);
            }
            _ => {}
        }
    }

    fn address(&mut self, i: &Inst, a: &Address) {
        let Some(op) = i.op else { return };
        let space = i.space();
        if let Some(b) = &a.base {
            match self.lookup(&b.name) {
                None => self.error(b.span, format!("undefined register or variable `{}`", b.name)),
                Some(Sym::Var { space: Space::Reg, ty, .. }) => {
                    if !matches!(ty, Type::U32 | Type::U64 | Type::S32 | Type::S64 | Type::B32 | Type::B64) {
                        self.error(b.span, format!("an address register must be a 32- or 64-bit integer, `{}` is {}", b.name, ty.name()));
                    }
                }
                Some(Sym::Var { space: vs, .. }) => {
                    if let Some(s) = space {
                        let ok = vs == s || (s == Space::Param && vs == Space::Param);
                        if !ok && vs != Space::Sreg {
                            self.error(b.span, format!("`{}` is a {} variable, but `{op}` accesses {}", b.name, vs.name(), s.name()));
                        }
                    }
                }
                Some(Sym::Func) | Some(Sym::Label) => self.error(b.span, format!("`{}` is not a variable", b.name)),
            }
        }
        if let Some(off) = &a.offset {
            if matches!(off.kind, ExprKind::Float(_) | ExprKind::F32Bits(_) | ExprKind::F64Bits(_)) {
                self.error(off.span, "an address offset must be an integer");
            }
            self.imm_operand(off, None);
        }
        if a.base.is_none() && matches!(space, Some(Space::Global | Space::Shared | Space::Local)) {
            self.error(a.span, format!("an absolute address needs a variable or register base in {}", space.map_or("", |s| s.name())));
        }
    }

    fn call(&mut self, i: &Inst) {
        // call [.uni] [(ret), ] target [, (args)] [, proto-or-targets];
        let mut args = i.args.iter();
        let mut first = args.next();
        if let Some(Operand::List(rets, _)) = first {
            for r in rets {
                self.call_arg(r);
            }
            first = args.next();
        }
        let mut direct = None;
        match first {
            Some(Operand::Name(n)) => match self.lookup(&n.name) {
                Some(Sym::Func) => direct = Some(n.name.clone()),
                Some(Sym::Var { space: Space::Reg, .. }) => {}
                Some(_) => self.error(n.span, format!("`{}` is not a function", n.name)),
                None => self.error(n.span, format!("undefined function `{}`", n.name)),
            },
            Some(other) => self.error(other.span(), "expected the function to call"),
            None => self.error(i.opcode.span, "`call` needs a target"),
        }
        let rest: Vec<&Operand> = args.clone().collect();
        if let Some(f) = &direct {
            // A direct call: only an argument list may follow, with the callee's arity.
            if let Some(extra) = rest.iter().find(|o| !matches!(o, Operand::List(..))) {
                self.error(extra.span(), format!("call arguments go in parentheses: `({})`", crate::ptx::print::operand(extra)));
            }
            let (nr, np) = self.sigs.get(f).copied().unwrap_or((0, 0));
            let got = rest.iter().find_map(|o| if let Operand::List(v, _) = o { Some(v.len()) } else { None }).unwrap_or(0);
            let gotr = if let Some(Operand::List(v, _)) =
                i.args.first().filter(|_| i.args.len() > 1 && matches!(i.args.get(1), Some(Operand::Name(_))))
            {
                v.len()
            } else {
                0
            };
            if rest.iter().all(|o| matches!(o, Operand::List(..))) && (got != np || (gotr != nr && gotr != 0)) {
                self.error(
                    i.opcode.span,
                    format!("`{f}` takes {np} argument(s) and returns {nr} value(s); this call passes {got} argument(s)"),
                );
            }
        }
        for a in args {
            match a {
                Operand::List(v, _) => {
                    for x in v {
                        self.call_arg(x);
                    }
                }
                Operand::Name(n) => {
                    if self.lookup(&n.name).is_none() {
                        self.error(n.span, format!("undefined name `{}`", n.name));
                    }
                }
                other => self.error(other.span(), "unexpected call operand"),
            }
        }
    }

    fn call_arg(&mut self, a: &Operand) {
        match a {
            Operand::Name(n) => {
                if self.lookup(&n.name).is_none() {
                    self.error(n.span, format!("undefined register or parameter `{}`", n.name));
                }
            }
            Operand::Expr(e) => self.imm_operand(e, None),
            other => self.error(other.span(), "expected a register, parameter or constant"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relaxed_and_strict_type_rules() {
        // TC-02 (T17)
        assert!(compatible(Type::B32, Type::F32, false));
        assert!(compatible(Type::S32, Type::U32, false));
        assert!(!compatible(Type::S32, Type::F32, false));
        assert!(!compatible(Type::F32, Type::S32, false));
        assert!(!compatible(Type::U32, Type::U64, false));
        // TC-10..12 (T18/T19)
        assert!(compatible(Type::U8, Type::U32, true));
        assert!(compatible(Type::S16, Type::B64, true));
        assert!(!compatible(Type::U32, Type::U16, true));
        assert!(compatible(Type::F32, Type::B64, true));
        assert!(!compatible(Type::F32, Type::F64, true));
        assert!(compatible(Type::B8, Type::F32, true));
        assert!(!compatible(Type::Pred, Type::U32, false));
    }
}
