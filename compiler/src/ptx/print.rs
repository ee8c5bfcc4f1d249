//! Canonical PTX text for an AST (`heddle fmt`). Parsing the output gives
//! back an equal tree.

use super::ast::*;
use std::fmt::Write;

pub fn module(m: &Module) -> String {
    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(w, ".version {}.{}", m.version.0, m.version.1);
    let _ = writeln!(w, ".target {}", m.target.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", "));
    if let Some(a) = m.address_size {
        let _ = writeln!(w, ".address_size {a}");
    }
    for item in &m.items {
        let _ = writeln!(w);
        match item {
            Item::Var(v) => {
                let _ = writeln!(w, "{};", var(v));
            }
            Item::Func(f) => function(w, f),
            Item::File { index, name, extra, .. } => {
                let _ = write!(w, ".file {index} {}", string(name));
                for e in extra {
                    let _ = write!(w, ", {e}");
                }
                let _ = writeln!(w);
            }
            Item::Section { name, body, .. } => {
                let _ = writeln!(w, ".section {name}\n{{\n{body}\n}}");
            }
            Item::Pragma { args, .. } => {
                let _ = writeln!(w, "{}", pragma(args));
            }
        }
    }
    out
}

fn string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn pragma(args: &[String]) -> String {
    format!(".pragma {};", args.iter().map(|a| string(a)).collect::<Vec<_>>().join(", "))
}

fn linkage(l: Option<Linkage>) -> &'static str {
    match l {
        None => "",
        Some(Linkage::Extern) => ".extern ",
        Some(Linkage::Visible) => ".visible ",
        Some(Linkage::Weak) => ".weak ",
        Some(Linkage::Common) => ".common ",
    }
}

pub fn var(v: &VarDecl) -> String {
    let mut s = format!("{}{}", linkage(v.linkage), v.space.name());
    if let Some(a) = v.align {
        let _ = write!(s, " .align {a}");
    }
    if let Some(p) = &v.ptr {
        s.push_str(" .ptr");
        if let Some(sp) = p.space {
            let _ = write!(s, " {}", sp.name());
        }
        if let Some(a) = p.align {
            let _ = write!(s, " .align {a}");
        }
    }
    if let Some(n) = v.vector {
        let _ = write!(s, " .v{n}");
    }
    let _ = write!(s, " {} ", v.ty.name());
    let names: Vec<String> = v.names.iter().map(declarator).collect();
    s.push_str(&names.join(", "));
    s
}

fn declarator(d: &Declarator) -> String {
    let mut s = d.name.name.clone();
    if let Some(c) = d.count {
        let _ = write!(s, "<{c}>");
    }
    for dim in &d.dims {
        match dim {
            Some(n) => {
                let _ = write!(s, "[{n}]");
            }
            None => s.push_str("[]"),
        }
    }
    if let Some(i) = &d.init {
        let _ = write!(s, " = {}", init(i));
    }
    s
}

fn init(i: &Init) -> String {
    match i {
        Init::Expr(e) => expr(e),
        Init::Generic(n) => format!("generic({})", n.name),
        Init::List(v, _) => format!("{{{}}}", v.iter().map(init).collect::<Vec<_>>().join(", ")),
    }
}

fn params(v: &[VarDecl]) -> String {
    if v.is_empty() {
        return "()".into();
    }
    format!("(\n{}\n)", v.iter().map(|p| format!("\t{}", var(p))).collect::<Vec<_>>().join(",\n"))
}

fn function(w: &mut String, f: &Function) {
    let _ = write!(w, "{}{}", linkage(f.linkage), if f.entry { ".entry" } else { ".func" });
    if !f.entry && !f.rets.is_empty() {
        let _ = write!(w, " ({})", f.rets.iter().map(var).collect::<Vec<_>>().join(", "));
    }
    let _ = write!(w, " {}{}", f.name.name, params(&f.params));
    for a in &f.attrs {
        if a.name.name == ".pragma" {
            let _ = write!(w, "\n{}", pragma(&a.strings));
        } else {
            let _ = write!(w, "\n{}", a.name.name);
            if !a.args.is_empty() {
                let _ = write!(w, " {}", a.args.iter().map(expr).collect::<Vec<_>>().join(", "));
            }
        }
    }
    match &f.body {
        None => {
            let _ = writeln!(w, ";");
        }
        Some(b) => {
            let _ = writeln!(w);
            block(w, b, 0);
            let _ = writeln!(w);
        }
    }
}

fn block(w: &mut String, b: &Block, depth: usize) {
    let pad = "\t".repeat(depth);
    let _ = writeln!(w, "{pad}{{");
    for s in &b.stmts {
        stmt(w, s, depth + 1);
    }
    let _ = write!(w, "{pad}}}");
}

fn stmt(w: &mut String, s: &Stmt, depth: usize) {
    let pad = "\t".repeat(depth);
    match s {
        Stmt::Label(l) => {
            let _ = writeln!(w, "{}:", l.name);
        }
        Stmt::Var(v) => {
            let _ = writeln!(w, "{pad}{};", var(v));
        }
        Stmt::Inst(i) => {
            let _ = writeln!(w, "{pad}{}", inst(i));
        }
        Stmt::Block(b) => {
            block(w, b, depth);
            let _ = writeln!(w);
        }
        Stmt::Pragma { args, .. } => {
            let _ = writeln!(w, "{pad}{}", pragma(args));
        }
        Stmt::Loc { args, rest, .. } => {
            let nums: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            let _ = writeln!(w, "{pad}.loc {}{rest}", nums.join(" "));
        }
        Stmt::CallProto { name, rets, params: ps, noreturn, .. } => {
            let r = if rets.is_empty() { String::new() } else { format!("({}) ", rets.iter().map(var).collect::<Vec<_>>().join(", ")) };
            let p = format!("({})", ps.iter().map(var).collect::<Vec<_>>().join(", "));
            let _ = writeln!(w, "{}: .callprototype {r}_ {p}{};", name.name, if *noreturn { " .noreturn" } else { "" });
        }
    }
}

pub fn inst(i: &Inst) -> String {
    let mut s = String::new();
    if let Some(g) = &i.guard {
        let _ = write!(s, "@{}{} ", if g.neg { "!" } else { "" }, g.pred.name);
    }
    s.push_str(&i.opcode.name);
    for m in &i.mods {
        s.push_str(&m.name);
    }
    if !i.args.is_empty() {
        let _ = write!(s, " {}", i.args.iter().map(operand).collect::<Vec<_>>().join(", "));
    }
    s.push(';');
    s
}

pub fn operand(o: &Operand) -> String {
    match o {
        Operand::Name(n) => n.name.clone(),
        Operand::Not(n) => format!("!{}", n.name),
        Operand::Expr(e) => expr(e),
        Operand::Addr(a) => {
            let base = a.base.as_ref().map(|b| b.name.clone());
            match (base, &a.offset) {
                (Some(b), None) => format!("[{b}]"),
                (Some(b), Some(Expr { kind: ExprKind::Unary(UnOp::Neg, inner), .. })) => format!("[{b}-{}]", expr(inner)),
                (Some(b), Some(off)) => format!("[{b}+{}]", expr(off)),
                (None, Some(off)) => format!("[{}]", expr(off)),
                (None, None) => "[]".into(),
            }
        }
        Operand::Vector(v, _) => format!("{{{}}}", v.iter().map(operand).collect::<Vec<_>>().join(", ")),
        Operand::Pair(a, b) => format!("{}|{}", a.name, b.name),
        Operand::Sink(_) => "_".into(),
        Operand::List(v, _) => {
            format!("({})", v.iter().map(operand).collect::<Vec<_>>().join(", "))
        }
    }
}

fn sub(e: &Expr) -> String {
    match e.kind {
        ExprKind::Binary(..) | ExprKind::Cond(..) => format!("({})", expr(e)),
        _ => expr(e),
    }
}

pub fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(v, true) if *v <= i64::MAX as u64 => format!("{v}U"),
        ExprKind::Int(v, _) => format!("{v}"),
        ExprKind::Float(v) => {
            let s = format!("{v:?}");
            if s.contains(['.', 'e']) {
                s
            } else {
                format!("{s}.0")
            }
        }
        ExprKind::F32Bits(v) => format!("0f{v:08X}"),
        ExprKind::F64Bits(v) => format!("0d{v:016X}"),
        ExprKind::Name(n) => n.clone(),
        ExprKind::Unary(op, inner) => {
            let o = match op {
                UnOp::Plus => "+",
                UnOp::Neg => "-",
                UnOp::Not => "!",
                UnOp::BitNot => "~",
            };
            format!("{o}{}", sub_unary(inner))
        }
        ExprKind::Binary(op, a, b) => format!("{} {} {}", sub(a), op.text(), sub(b)),
        ExprKind::Cond(c, a, b) => format!("{} ? {} : {}", sub(c), sub(a), sub(b)),
        ExprKind::Cast(s, inner) => {
            format!("({}){}", if *s { ".s64" } else { ".u64" }, sub_unary(inner))
        }
    }
}

fn sub_unary(e: &Expr) -> String {
    match e.kind {
        ExprKind::Binary(..) | ExprKind::Cond(..) | ExprKind::Unary(..) | ExprKind::Cast(..) => {
            format!("({})", expr(e))
        }
        _ => expr(e),
    }
}
