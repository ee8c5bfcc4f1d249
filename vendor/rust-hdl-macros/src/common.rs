use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{Data, Expr, Token};

pub(crate) type TS = proc_macro2::TokenStream;

pub(crate) fn get_field_types(input: &syn::DeriveInput) -> syn::Result<Vec<TS>> {
    let mut fields = vec![];
    match &input.data {
        Data::Struct(ds) => {
            for field in &ds.fields {
                if field.ident.is_none() {
                    return Err(syn::Error::new(
                        field.span(),
                        "Unnamed fields are not supported",
                    ));
                }
                let name = &field.ident.as_ref();
                let qname = quote!(#name);
                let qname_string = qname.to_string();
                if ["config", "wire", "reg", "module", "edge", "disable"]
                    .contains(&qname_string.as_str())
                {
                    return Err(syn::Error::new(
                        field.span(),
                        "Cannot use an HDL keyword here",
                    ));
                }
                if !qname_string.starts_with('_') {
                    let ty = &field.ty;
                    fields.push(quote!(#ty));
                }
            }
        }
        _ => {
            return Err(syn::Error::new(
                input.span(),
                "Logic Derive can only be applied to structs",
            ));
        }
    }
    Ok(fields)
}

pub(crate) fn get_field_names(input: &syn::DeriveInput) -> syn::Result<Vec<TS>> {
    let mut fields = vec![];
    match &input.data {
        Data::Struct(ds) => {
            for field in &ds.fields {
                if field.ident.is_none() {
                    return Err(syn::Error::new(
                        field.span(),
                        "Unnamed fields are not supported",
                    ));
                }
                let name = &field.ident.as_ref();
                let qname = quote!(#name);
                let qname_string = qname.to_string();
                if ["config", "wire", "reg", "module", "edge", "disable"]
                    .contains(&qname_string.as_str())
                {
                    return Err(syn::Error::new(
                        field.span(),
                        "Cannot use an HDL keyword here",
                    ));
                }
                if !qname_string.starts_with('_') {
                    fields.push(qname);
                }
            }
        }
        _ => {
            return Err(syn::Error::new(
                input.span(),
                "Logic Derive can only be applied to structs",
            ));
        }
    }
    Ok(fields)
}

pub fn get_connect_all(fields: Vec<TS>) -> syn::Result<TS> {
    Ok(quote! {
        fn connect_all(&mut self) {
            self.connect();
            #(self.#fields.connect_all();)*
        }
    })
}

pub fn get_update_all(fields: Vec<TS>) -> syn::Result<TS> {
    Ok(quote! {
        fn update_all(&mut self) {
            self.update();
            #(self.#fields.update_all();)*
        }
    })
}

/// A block's `update_all` that first commits its input signals (what its
/// parent has just assigned), then runs its logic, then commits its signals
/// (its outputs) and updates its children. Upstream runs the logic
/// first, so a parent's assignment reached the child's logic one settle pass
/// later: every hop from parent to child cost a pass.
pub fn get_update_all_inputs_first(fields: Vec<TS>, types: Vec<TS>) -> syn::Result<TS> {
    let signals: Vec<&TS> = fields
        .iter()
        .zip(&types)
        .filter(|(_, t)| is_input(t))
        .map(|(f, _)| f)
        .collect();
    Ok(quote! {
        fn update_all(&mut self) {
            #(self.#signals.update_all();)*
            self.update();
            #(self.#fields.update_all();)*
        }
    })
}

/// The name of the field that opts a block into gated evaluation: a
/// `bool`, false until the block's logic first runs.
pub const GATE_FIELD: &str = "_ran";

/// Whether the struct has the `_ran` field.
pub fn has_gate_field(input: &syn::DeriveInput) -> bool {
    match &input.data {
        Data::Struct(ds) => ds.fields.iter().any(|f| f.ident.as_ref().is_some_and(|i| i == GATE_FIELD)),
        _ => false,
    }
}

/// Whether a field of this type is an input signal (or a vector of them).
fn is_input(t: &TS) -> bool {
    let t = squash(&t.to_string());
    t.starts_with("Signal<In,") || t.starts_with("Vec<Signal<In,")
}

/// The kinds of a block's fields, as gated evaluation treats them.
pub struct GatedFields<'a> {
    /// Input signals, and whether each is the block's `clock`.
    pub inputs: Vec<(&'a TS, bool)>,
    /// Output signals.
    pub outputs: Vec<&'a TS>,
    /// Everything else: child blocks (and constants).
    pub children: Vec<&'a TS>,
}

pub fn gated_fields<'a>(fields: &'a [TS], types: &'a [TS]) -> GatedFields<'a> {
    let mut g = GatedFields { inputs: vec![], outputs: vec![], children: vec![] };
    for (f, t) in fields.iter().zip(types) {
        let ty = squash(&t.to_string());
        if is_input(t) {
            g.inputs.push((f, f.to_string() == "clock" && ty == "Signal<In,Clock>"));
        } else if ty.starts_with("Signal<Out,") || ty.starts_with("Vec<Signal<Out,") {
            g.outputs.push(f);
        } else if ty.starts_with("Signal<") || ty.starts_with("Vec<Signal<") {
            // A local signal: never committed (see `get_update_all_gated`).
        } else {
            g.children.push(f);
        }
    }
    g
}

/// `update_all` for a block with a `_ran` field: as
/// `get_update_all_inputs_first`, but the logic runs only when it could
/// compute something new: the first time, or when an input other than the
/// clock changed in this pass, or one of its children's outputs changed
/// in the previous one. Its logic reads nothing else: a parent reaches it
/// only through its inputs, its children only through their outputs,
/// their state changes only at a clock edge, and its own signals are
/// assigned before they are read (`ordered`, checked by `#[hdl_gen]`), so
/// running it again would compute what they already hold. Skipping it
/// leaves every signal as running it would.
///
/// A block with children wires its clock straight to theirs and does
/// nothing else with it, so a change of the clock alone does not run its
/// logic: the clock is forwarded to the children. (A block without
/// children, a memory, acts on the clock's edges itself: its clock counts
/// as any other input.) When the logic is skipped, the flags of outputs
/// that changed in the previous pass are cleared, and the children with
/// something pending (a change in the previous pass, or the clock) are
/// updated. An edge that comes with a new input is likewise handed to the
/// children before the logic runs.
///
/// Local signals are never committed: their `val()` is what was last
/// assigned (`next`), nothing reads their change flags, and the vendored
/// core's `Atom::vcd` traces their `next`.
pub fn get_update_all_gated(fields: &[TS], types: &[TS]) -> syn::Result<TS> {
    let g = gated_fields(fields, types);
    let inputs: Vec<&TS> = g.inputs.iter().map(|(f, _)| *f).collect();
    // A leaf (no children: a memory) acts on its clock's edges itself.
    let forwards = g.inputs.iter().any(|(_, c)| *c) && !g.children.is_empty();
    let data_inputs: Vec<&TS> = g.inputs.iter().filter(|(_, c)| !(*c && forwards)).map(|(f, _)| *f).collect();
    let outputs = &g.outputs;
    let children = &g.children;
    // The clock's change, taken: the children get it below.
    let take_edge = quote! {
        let clocked = self.clock.has_changed();
        let clock = self.clock.val();
        if clocked {
            self.clock.update_all();
        }
    };
    let skipped = if forwards {
        quote! {
            #take_edge
            // A child without a clock has nothing to do at an edge;
            // `forwarded`: children took a clock in `forward_clock`.
            let forwarded = std::mem::take(&mut self._ran.forwarded);
            #(if (clocked && self.#children.forward_clock(clock)) || self.#children.has_changed() || (forwarded && self.#children.wants_update()) { self.#children.update_all(); })*
        }
    } else {
        quote! {
            #(if self.#children.has_changed() { self.#children.update_all(); })*
        }
    };
    // An edge that comes with new inputs (a registered neighbour's answer)
    // reaches the children before the logic runs, as when it comes alone.
    let edge_first = if forwards {
        quote! {
            #take_edge
            if clocked {
                #(if self.#children.forward_clock(clock) { self.#children.update_all(); })*
                self.wires();
            }
        }
    } else {
        quote! {}
    };
    Ok(quote! {
        fn update_all(&mut self) {
            #(self.#inputs.update_all();)*
            let mut run = !self._ran.ran #(|| self.#data_inputs.has_changed())* #(|| self.#children.outputs_changed())*;
            if !run {
                // Outputs that changed in the previous pass: clear the flags.
                if self.outputs_changed() {
                    #(self.#outputs.update_all();)*
                }
                #skipped
                self.wires();
                // A child's outputs changed just now (at a clock edge, or
                // settling): run the logic in this pass, not the next.
                run = false #(|| self.#children.outputs_changed())*;
            } else {
                #edge_first
            }
            if run {
                self._ran.ran = true;
                self._ran.forwarded = false;
                self.update();
                #(self.#inputs.update_all();)*
                #(self.#outputs.update_all();)*
                #(if self.#children.wants_update() { self.#children.update_all(); })*
                self.wires();
            }
            // The flags the queries read may have changed.
            self._ran.forget();
        }
    })
}

/// `has_changed`, `outputs_changed` and `pending` for a block with a
/// `_ran` field, each found once after an `update_all` and kept in the
/// field (`rust_hdl_core::block::Gate`; `pending`: its logic has not run, or a
/// child has something to do; its inputs were committed in the pass, and
/// its own outputs changing needs nothing more of it): a block whose logic
/// has not run yet (or must run again, see `heddle_hw::ram::Ram::poke`)
/// counts as changed, so that a parent whose own logic is skipped still
/// updates it.
pub fn get_gated_queries(fields: &[TS], types: &[TS]) -> syn::Result<TS> {
    let g = gated_fields(fields, types);
    let inputs: Vec<&TS> = g.inputs.iter().map(|(f, _)| *f).collect();
    let outputs = &g.outputs;
    let children = &g.children;
    Ok(quote! {
        fn has_changed(&self) -> bool {
            !self._ran.ran || self._ran.any(|| false #(|| self.#inputs.has_changed())* #(|| self.#outputs.has_changed())* #(|| self.#children.has_changed())*)
        }
        fn outputs_changed(&self) -> bool {
            self._ran.outputs(|| false #(|| self.#outputs.has_changed())*)
        }
        fn pending(&self) -> bool {
            !self._ran.ran || self._ran.children(|| false #(|| self.#children.has_changed())*)
        }
        /// `update_all` would do something: a flag to clear, or an input
        /// (the clock included) with a new value.
        fn wants_update(&self) -> bool {
            self.has_changed() #(|| self.#inputs.wants_update())*
        }
    })
}

/// `forward_clock` for a block with a `clock` input (any derived block:
/// a gated parent may skip its logic in a pass that changes only the clock).
/// A gated block with children hands the clock to them at once and takes
/// it quietly itself (its logic only wires it to theirs): it needs an update
/// only when one of them does, which its `update_all` then finds by asking
/// them (`Block::wants_update`).
pub fn get_forward_clock(fields: &[TS], types: &[TS], gated: bool) -> TS {
    let g = gated_fields(fields, types);
    if !g.inputs.iter().any(|(_, c)| *c) {
        return quote! {};
    }
    if gated && !g.children.is_empty() {
        let children = &g.children;
        quote! {
            fn forward_clock(&mut self, clock: Clock) -> bool {
                self.clock.take_quietly(clock);
                let mut acts = false;
                #(acts |= self.#children.forward_clock(clock);)*
                self._ran.forwarded |= acts;
                acts
            }
        }
    } else {
        quote! {
            fn forward_clock(&mut self, clock: Clock) -> bool {
                self.clock.next = clock;
                true
            }
        }
    }
}

pub fn get_has_changed(fields: Vec<TS>) -> syn::Result<TS> {
    if fields.is_empty() {
        Ok(quote! {
            fn has_changed(&self) -> bool {
                false
            }
        })
    } else {
        Ok(quote! {
            fn has_changed(&self) -> bool {
                #(self.#fields.has_changed())||*
            }
        })
    }
}

pub fn squash(x: &str) -> String {
    x.to_string().replace([' ', '\n'], "")
}

pub fn fixup_ident(x: String) -> String {
    let y = x
        .replace(' ', "")
        .replace("self.", "")
        .replace('.', "$")
        .replace("::", "$")
        .replace("&mut", "");
    assert_ne!(y, "config");
    assert_ne!(y, "input");
    assert_ne!(y, "output");
    y
}

// The dff_setup macro uses clock, dfflist arguments
#[derive(Debug)]
pub struct DFFSetupArgs {
    pub me: Expr,
    pub clock: Expr,
    pub dffs: Vec<Expr>,
}

impl Parse for DFFSetupArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let clock: Expr;
        let mut dffs = Vec::new();

        let me: Expr = input.parse()?;
        input.parse::<Token![,]>()?;
        clock = input.parse()?;
        input.parse::<Token![,]>()?;
        while !input.is_empty() {
            let dff_name: Expr = input.parse()?;
            dffs.push(dff_name);
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(DFFSetupArgs { me, clock, dffs })
    }
}
