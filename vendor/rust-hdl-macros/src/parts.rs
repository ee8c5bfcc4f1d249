//! Vendored addition: one `update()` written across several files.
//!
//! `#[hdl_gen(parts("src/sm/bus.rs", ...))]` on `update()` names files
//! (from the crate's root) whose methods marked `#[hdl_part]` are parts of
//! it: a statement `self.name();` there (no arguments), or a match arm
//! `=> self.name()`, stands for the part's body. Rust runs the call as it
//! is; everything `#[hdl_gen]` derives from the function (the Verilog, the
//! definite-assignment check of `ordered`, the child wires, the connection
//! analysis) sees the body in its place, as if it were written there. The
//! named files become build dependencies of the function (`include_str!`).
//!
//! A part is an ordinary method, so its file is ordinary Rust: it compiles,
//! formats and reads like any other. `#[hdl_part]` only removes the
//! statement markers (`#[hdl_skip]`, `#[hdl_hold]`) for the compiler.

use std::collections::HashMap;

use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Expr, ImplItem, Item, ItemFn, LitStr, Result, Stmt, Token};

use crate::common::TS;

/// The attribute's `parts("a.rs", "b.rs")` and `locals(group, ...)`,
/// either, both (comma-separated) or nothing. A local group is a field
/// of the block that holds local signals under a namespace of its own
/// (`self.group.x`, `group$x` in the Verilog): to `ordered` its signals
/// are the block's own, not a child's ports.
#[derive(Default)]
pub(crate) struct Parts(pub Vec<LitStr>, pub Vec<syn::Ident>);

impl Parse for Parts {
    fn parse(input: ParseStream) -> Result<Self> {
        let mut parts = Parts::default();
        while !input.is_empty() {
            let key: syn::Ident = input.parse()?;
            let content;
            syn::parenthesized!(content in input);
            if key == "parts" {
                parts.0.extend(content.parse_terminated::<LitStr, Token![,]>(|s| s.parse())?);
            } else if key == "locals" {
                parts.1.extend(content.parse_terminated::<syn::Ident, Token![,]>(|s| s.parse())?);
            } else {
                return Err(syn::Error::new(key.span(), "expected `parts(\"file.rs\", ...)` or `locals(group, ...)`"));
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(parts)
    }
}

/// `f` with every call of a part replaced by the part's body, and the
/// `include_str!` statements (for the body of `hdl()`) that make the files
/// dependencies of the build.
pub(crate) fn inline(f: &ItemFn, parts: &Parts) -> Result<(ItemFn, TS)> {
    if parts.0.is_empty() {
        return Ok((f.clone(), quote!()));
    }
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let mut bodies = HashMap::new();
    let mut deps = vec![];
    for lit in &parts.0 {
        let path = std::path::Path::new(&root).join(lit.value());
        let text = std::fs::read_to_string(&path)
            .map_err(|e| syn::Error::new(lit.span(), format!("cannot read part file {}: {e}", path.display())))?;
        let file = syn::parse_file(&text).map_err(|e| syn::Error::new(lit.span(), format!("{}: {e}", path.display())))?;
        for item in file.items {
            if let Item::Impl(imp) = item {
                for it in imp.items {
                    if let ImplItem::Method(m) = it {
                        if m.attrs.iter().any(|a| a.path.is_ident("hdl_part")) {
                            bodies.insert(m.sig.ident.to_string(), m.block);
                        }
                    }
                }
            }
        }
        let p = path.display().to_string();
        deps.push(quote!(let _ = include_str!(#p);));
    }
    let mut out = f.clone();
    let mut inliner = Inliner { bodies, depth: 0, error: None };
    inliner.visit_block_mut(&mut out.block);
    if let Some(e) = inliner.error {
        return Err(e);
    }
    Ok((out, quote!(#(#deps)*)))
}

struct Inliner {
    bodies: HashMap<String, syn::Block>,
    depth: usize,
    error: Option<syn::Error>,
}

impl Inliner {
    /// The part `self.name()` calls, if it is one.
    fn part(&self, e: &Expr) -> Option<syn::Block> {
        if let Expr::MethodCall(m) = e {
            if m.args.is_empty() && matches!(m.receiver.as_ref(), Expr::Path(p) if p.path.is_ident("self")) {
                return self.bodies.get(&m.method.to_string()).cloned();
            }
        }
        None
    }

    /// The part's body, its own part calls inlined.
    fn expand(&mut self, mut block: syn::Block, at: &Expr) -> syn::Block {
        self.depth += 1;
        if self.depth > 16 {
            self.error.get_or_insert(syn::Error::new(at.span(), "parts call each other more than 16 deep"));
        } else {
            self.visit_block_mut(&mut block);
        }
        self.depth -= 1;
        block
    }
}

impl VisitMut for Inliner {
    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        let mut stmts = vec![];
        for mut s in std::mem::take(&mut b.stmts) {
            let call = match &s {
                Stmt::Semi(e, _) | Stmt::Expr(e) => self.part(e).map(|body| (body, e.clone())),
                _ => None,
            };
            match call {
                Some((body, at)) => stmts.extend(self.expand(body, &at).stmts),
                None => {
                    self.visit_stmt_mut(&mut s);
                    stmts.push(s);
                }
            }
        }
        b.stmts = stmts;
    }

    fn visit_arm_mut(&mut self, arm: &mut syn::Arm) {
        if let Some(body) = self.part(&arm.body) {
            let at = (*arm.body).clone();
            let block = self.expand(body, &at);
            *arm.body = Expr::Block(syn::ExprBlock { attrs: vec![], label: None, block });
        } else {
            syn::visit_mut::visit_arm_mut(self, arm);
        }
    }
}
