//! Vendored addition: the child-to-child wires of a `#[hdl_gen]` function.
//!
//! A statement at the top level of the function, `self.a.x.next = E;`,
//! is a wire from child to child when `E` reads nothing but ports of
//! other children (`self.b.y.val()`) and literals, and nothing else in the
//! function assigns `self.a.x.next`. `#[hdl_gen]` emits `Logic::wires`,
//! which evaluates every such wire again and updates a child whose input
//! it changed. The gated `update_all` (`common::get_update_all_gated`)
//! calls it after updating the children, so that a change travels from one
//! child to the next within a settle pass instead of waiting for the
//! block's whole logic to run again a pass later. The logic, when it runs,
//! assigns the same value; the Verilog is the function's, unchanged.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::visit::Visit;
use syn::{Expr, Member, Stmt};

/// `self.c.p` (a child's port, no index): the child's name.
fn child_of_port(e: &Expr) -> Option<String> {
    let Expr::Field(port) = e else { return None };
    let Member::Named(_) = &port.member else { return None };
    let Expr::Field(child) = &*port.base else { return None };
    let Member::Named(c) = &child.member else { return None };
    match &*child.base {
        Expr::Path(p) if p.path.is_ident("self") => Some(c.to_string()),
        _ => None,
    }
}

/// The child whose input `self.c.p.next` is.
fn driven_child(left: &Expr) -> Option<String> {
    let Expr::Field(f) = left else { return None };
    match &f.member {
        Member::Named(n) if n == "next" => child_of_port(&f.base),
        _ => None,
    }
}

/// Whether an expression reads only ports of children other than `not`
/// (`self.b.y.val()`), literals and operators on them.
struct OnlyPorts<'a> {
    not: &'a str,
    ok: bool,
    sources: Vec<String>,
}

impl<'a> Visit<'a> for OnlyPorts<'_> {
    fn visit_expr(&mut self, e: &'a Expr) {
        match e {
            Expr::MethodCall(m) if m.method == "val" && m.args.is_empty() => match child_of_port(&m.receiver) {
                Some(c) if c != self.not => self.sources.push(c),
                _ => self.ok = false,
            },
            Expr::MethodCall(m) => {
                self.visit_expr(&m.receiver);
                for a in &m.args {
                    self.visit_expr(a);
                }
            }
            Expr::Lit(_) => {}
            Expr::Binary(_) | Expr::Unary(_) | Expr::Paren(_) => syn::visit::visit_expr(self, e),
            _ => self.ok = false,
        }
    }
}

/// How many assignments each target (as tokens) has, anywhere in the function.
#[derive(Default)]
struct Targets(std::collections::HashMap<String, usize>);

impl<'a> Visit<'a> for Targets {
    fn visit_expr_assign(&mut self, a: &'a syn::ExprAssign) {
        *self.0.entry(a.left.to_token_stream().to_string()).or_default() += 1;
        syn::visit::visit_expr_assign(self, a);
    }
}

/// A candidate wire: the child it drives, the children it reads, its code.
struct Wire {
    dest: String,
    sources: Vec<String>,
    code: TokenStream,
}

/// `Logic::wires` for the function (none when it has no such wire).
///
/// A child driven by a wire is not read by one: the parent's logic runs
/// again because a wire's source changed in the pass (its change flag),
/// and a wire updating that source a second time in the pass could clear
/// the flag (two children that feed each other are left to the logic).
/// A constant assignment carries nothing and is left out too.
pub fn wires_gen(f: &syn::ItemFn) -> TokenStream {
    let mut targets = Targets::default();
    targets.visit_item_fn(f);
    let mut found = vec![];
    for s in &f.block.stmts {
        let (Stmt::Semi(Expr::Assign(a), _) | Stmt::Expr(Expr::Assign(a))) = s else { continue };
        let Some(dest) = driven_child(&a.left) else { continue };
        if targets.0.get(&a.left.to_token_stream().to_string()) != Some(&1) {
            continue;
        }
        let mut only = OnlyPorts { not: &dest, ok: true, sources: vec![] };
        only.visit_expr(&a.right);
        if !only.ok || only.sources.is_empty() {
            continue;
        }
        let (left, right) = (&a.left, &a.right);
        let child = syn::Ident::new(&dest, proc_macro2::Span::call_site());
        let code = quote! {
            let v = #right;
            if #left != v {
                #left = v;
                self.#child.update_all();
            }
        };
        let sources = only.sources;
        found.push(Wire { dest, sources, code });
    }
    let driven: Vec<&String> = found.iter().map(|w| &w.dest).collect();
    let wires: Vec<&TokenStream> = found.iter().filter(|w| !w.sources.iter().any(|s| driven.contains(&s))).map(|w| &w.code).collect();
    if wires.is_empty() {
        return quote! {};
    }
    quote! {
        fn wires(&mut self) {
            #({ #wires })*
        }
    }
}
