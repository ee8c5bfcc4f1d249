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

/// `update_all` for a block with a `_ran` field: as
/// `get_update_all_inputs_first`, but the logic runs only when it could
/// compute something new: the first time, or when an input changed in this
/// pass, or one of its own signals or children changed in the previous one.
/// Its logic reads nothing else (a parent reaches it only through its
/// inputs, and children's state changes only at a clock edge, itself an
/// input), so skipping it leaves every signal as running it would. Nor
/// do its signals and children need committing then: none of them changed
/// in the previous pass, and nothing has assigned them since.
pub fn get_update_all_gated(fields: Vec<TS>, types: Vec<TS>) -> syn::Result<TS> {
    let (inputs, rest): (Vec<(&TS, &TS)>, Vec<(&TS, &TS)>) = fields.iter().zip(&types).partition(|(_, t)| is_input(t));
    let inputs: Vec<&TS> = inputs.into_iter().map(|(f, _)| f).collect();
    let rest: Vec<&TS> = rest.into_iter().map(|(f, _)| f).collect();
    Ok(quote! {
        fn update_all(&mut self) {
            #(self.#inputs.update_all();)*
            if !self._ran #(|| self.#inputs.has_changed())* #(|| self.#rest.has_changed())* {
                self._ran = true;
                self.update();
                #(self.#fields.update_all();)*
            }
        }
    })
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
