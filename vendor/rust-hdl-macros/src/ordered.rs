//! Vendored addition: a `#[hdl_gen]` function must assign each of its own
//! signals before reading it, on every path through the function.
//!
//! A signal of the block itself (`self.x`, or `self.x[i]` of a vector of
//! signals) that the function assigns (`self.x.next = ...`) is one of its
//! local or output signals. Reading it (`self.x.val()`) before it is
//! assigned on every path reads what the previous call left: a latch in
//! the Verilog, and in simulation a value that only a further settle pass
//! corrects. Gated evaluation (`common::get_update_all_gated`) does not
//! re-run a block just because its own signals changed, so it relies on
//! this check.
//!
//! Nor may it read back an input of a child block that it drives
//! (`self.c.p.val()` where it assigns `self.c.p.next`): that gives the
//! value committed in the previous settle pass, not the one just assigned.
//!
//! The analysis is by definite assignment, in source order: an `if`
//! assigns what all its branches assign (nothing without an `else`), a
//! `match` what all its arms assign, and a `for` loop (its iteration count
//! is a configuration constant, at least one) assigns every element of a
//! vector the body assigns at the loop variable, and whatever the body
//! assigns without an index. Inside the body, `self.x[l]` is assigned only
//! at the loop variable `l` until the loop is done.
//!
//! A signal of a local group (`#[hdl_gen(locals(g))]`), `self.g.x`, is
//! one of the block's own signals too, named `g.x`.

use std::cell::RefCell;
use std::collections::HashSet;

use quote::ToTokens;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Expr, Stmt};

thread_local! {
    /// The local groups of the function being checked.
    static GROUPS: RefCell<HashSet<String>> = RefCell::new(HashSet::new());
}

/// `self.g` for a local group `g`.
fn group(e: &Expr) -> Option<String> {
    let Expr::Field(f) = e else { return None };
    let syn::Member::Named(n) = &f.member else { return None };
    let n = n.to_string();
    (is_self(&f.base) && GROUPS.with(|g| g.borrow().contains(&n))).then_some(n)
}

/// `self.x`, `self.g.x` (a local group's) or either indexed (`[i]`): the
/// signal's name and index expression.
fn own_signal(e: &Expr) -> Option<(String, Option<String>)> {
    match e {
        Expr::Field(f) => {
            let syn::Member::Named(n) = &f.member else { return None };
            if is_self(&f.base) {
                return Some((n.to_string(), None));
            }
            group(&f.base).map(|g| (format!("{g}.{n}"), None))
        }
        Expr::Index(i) => {
            let (name, idx) = own_signal(&i.expr)?;
            if idx.is_some() {
                return None;
            }
            Some((name, Some(i.index.to_token_stream().to_string())))
        }
        Expr::Paren(p) => own_signal(&p.expr),
        _ => None,
    }
}

fn is_self(e: &Expr) -> bool {
    matches!(e, Expr::Path(p) if p.path.is_ident("self"))
}

/// `self.c.p` or `self.c[i].p`: a port of a child block, by child and port name.
fn child_port(e: &Expr) -> Option<(String, String)> {
    if let Expr::Field(f) = e {
        if group(&f.base).is_some() {
            return None;
        }
        if let syn::Member::Named(p) = &f.member {
            let (child, _) = own_signal(&f.base)?;
            return Some((child, p.to_string()));
        }
    }
    None
}

/// The child port an assignment `self.c.p.next = ...` drives: a child's input.
fn driven_port(left: &Expr) -> Option<(String, String)> {
    if let Expr::Field(f) = left {
        if let syn::Member::Named(n) = &f.member {
            if n == "next" {
                return child_port(&f.base);
            }
        }
    }
    None
}

/// The signal an assignment `self.x.next = ...` (or `self.x[i].next`) writes.
fn written(left: &Expr) -> Option<(String, Option<String>)> {
    if let Expr::Field(f) = left {
        if let syn::Member::Named(n) = &f.member {
            if n == "next" {
                return own_signal(&f.base);
            }
        }
    }
    None
}

/// Every own signal the function assigns, and every child input it drives.
#[derive(Default)]
struct Writes {
    own: HashSet<String>,
    inputs: HashSet<(String, String)>,
}

impl<'a> Visit<'a> for Writes {
    fn visit_expr_assign(&mut self, a: &'a syn::ExprAssign) {
        if let Some((name, _)) = written(&a.left) {
            self.own.insert(name);
        }
        if let Some(port) = driven_port(&a.left) {
            self.inputs.insert(port);
        }
        syn::visit::visit_expr_assign(self, a);
    }
}

/// Reads of own signals in an expression, in source order, and reads of
/// child inputs the function drives.
struct Reads<'w> {
    writes: &'w Writes,
    found: Vec<(String, Option<String>, proc_macro2::Span)>,
    inputs: Vec<(String, String, proc_macro2::Span)>,
}

impl<'a> Visit<'a> for Reads<'_> {
    fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
        if m.method == "val" && m.args.is_empty() {
            if let Some((name, idx)) = own_signal(&m.receiver) {
                if self.writes.own.contains(&name) {
                    self.found.push((name, idx, m.span()));
                }
            }
            if let Some(port) = child_port(&m.receiver) {
                if self.writes.inputs.contains(&port) {
                    self.inputs.push((port.0, port.1, m.span()));
                }
            }
        }
        syn::visit::visit_expr_method_call(self, m);
    }
}

/// What is definitely assigned at a point.
#[derive(Clone, Default, PartialEq)]
struct Assigned {
    /// Whole signals (every element of a vector).
    full: HashSet<String>,
    /// Elements of vectors, by index expression.
    elems: HashSet<(String, String)>,
}

impl Assigned {
    fn meet(&self, other: &Assigned) -> Assigned {
        Assigned {
            full: self.full.intersection(&other.full).cloned().collect(),
            elems: self.elems.intersection(&other.elems).cloned().collect(),
        }
    }

    fn has(&self, name: &str, idx: &Option<String>) -> bool {
        self.full.contains(name) || idx.as_ref().is_some_and(|i| self.elems.contains(&(name.to_string(), i.clone())))
    }

    fn set(&mut self, name: String, idx: Option<String>) {
        match idx {
            None => {
                self.full.insert(name);
            }
            Some(i) => {
                self.elems.insert((name, i));
            }
        }
    }
}

struct Checker<'w> {
    writes: &'w Writes,
    errors: Vec<syn::Error>,
}

impl Checker<'_> {
    fn reads(&mut self, e: &Expr, state: &Assigned) {
        let mut r = Reads { writes: self.writes, found: vec![], inputs: vec![] };
        r.visit_expr(e);
        for (child, port, span) in r.inputs {
            self.errors.push(syn::Error::new(
                span,
                format!(
                    "`self.{child}.{port}` is an input of a child that this function drives: reading it back \
                     gives the value of the previous settle pass; keep the value in a local signal instead"
                ),
            ));
        }
        for (name, idx, span) in r.found {
            if !state.has(&name, &idx) {
                let what = match &idx {
                    Some(i) => format!("`self.{name}[{i}]`"),
                    None => format!("`self.{name}`"),
                };
                self.errors.push(syn::Error::new(
                    span,
                    format!(
                        "{what} is read before it is assigned on every path of this function: \
                         assign it first (gated evaluation does not re-run a block for its own signals)"
                    ),
                ));
            }
        }
    }

    fn block(&mut self, b: &syn::Block, state: &mut Assigned) {
        for s in &b.stmts {
            match s {
                Stmt::Expr(e) | Stmt::Semi(e, _) => self.stmt(e, state),
                _ => {}
            }
        }
    }

    /// A statement-position expression.
    fn stmt(&mut self, e: &Expr, state: &mut Assigned) {
        match e {
            Expr::Assign(a) => {
                self.reads(&a.right, state);
                if let Expr::Field(f) = a.left.as_ref() {
                    if let Expr::Index(i) = f.base.as_ref() {
                        self.reads(&i.index, state);
                    }
                }
                if let Some((name, idx)) = written(&a.left) {
                    state.set(name, idx);
                }
            }
            Expr::If(i) => {
                self.reads(&i.cond, state);
                let mut then = state.clone();
                self.block(&i.then_branch, &mut then);
                let mut other = state.clone();
                match &i.else_branch {
                    Some((_, e)) => self.stmt(e, &mut other),
                    None => other = state.clone(),
                }
                *state = then.meet(&other);
            }
            Expr::Match(m) => {
                self.reads(&m.expr, state);
                let mut after: Option<Assigned> = None;
                for arm in &m.arms {
                    let mut s = state.clone();
                    if let Some((_, g)) = &arm.guard {
                        self.reads(g, &s);
                    }
                    self.stmt(&arm.body, &mut s);
                    after = Some(match after {
                        None => s,
                        Some(a) => a.meet(&s),
                    });
                }
                if let Some(a) = after {
                    *state = a;
                }
            }
            Expr::ForLoop(f) => {
                self.reads(&f.expr, state);
                let var = f.pat.to_token_stream().to_string();
                let mut body = state.clone();
                self.block(&f.body, &mut body);
                for (name, idx) in &body.elems {
                    if *idx == var {
                        state.full.insert(name.clone());
                    } else {
                        state.elems.insert((name.clone(), idx.clone()));
                    }
                }
                state.full.extend(body.full);
            }
            Expr::Block(b) => self.block(&b.block, state),
            Expr::Paren(p) => self.stmt(&p.expr, state),
            other => self.reads(other, state),
        }
    }
}

/// Checks a `#[hdl_gen]` function; the errors point at each offending read.
pub(crate) fn check(item: &syn::ItemFn, groups: &[syn::Ident]) -> syn::Result<()> {
    GROUPS.with(|g| *g.borrow_mut() = groups.iter().map(|i| i.to_string()).collect());
    let mut w = Writes::default();
    w.visit_block(&item.block);
    let mut c = Checker { writes: &w, errors: vec![] };
    c.block(&item.block, &mut Assigned::default());
    let mut errors = c.errors.into_iter();
    match errors.next() {
        None => Ok(()),
        Some(mut first) => {
            for e in errors {
                first.combine(e);
            }
            Err(first)
        }
    }
}
