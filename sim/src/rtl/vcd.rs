//! VCD traces of the RTL with hierarchical scopes named after the hardware
//! (`sm.sched`, `sm.stack`, `sm.lane3.alu`, `sm.lane3.rf`), written with the
//! `vcd` crate. rust-hdl's own writer names vector elements `alus$3` and
//! cannot bound the window or the scopes; this one can.

use rust_hdl::core::atom::Atom;
use rust_hdl::core::block::Block;
use rust_hdl::core::probe::Probe;
use rust_hdl::core::synth::VCDValue;
use rust_hdl::core::type_descriptor::TypeKind;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use vcd::{IdCode, Value};

/// What to trace.
#[derive(Debug, Clone, PartialEq)]
pub struct VcdOptions {
    pub path: PathBuf,
    /// Cycles `from..to` are written.
    pub from: u64,
    pub to: u64,
    /// Scope prefixes to keep (`sm.sched`, `sm.lane0`); empty keeps all.
    pub scopes: Vec<String>,
}

/// A signal: its dotted path and width (0: an enum, written as a string).
struct Var {
    path: Vec<String>,
    width: usize,
}

/// Maps rust-hdl's names to hardware scope names: `alus$3` becomes `lane3.alu`.
fn scope_names(name: &str) -> Vec<String> {
    if let Some((base, idx)) = name.split_once('$') {
        if let Ok(i) = idx.parse::<usize>() {
            let unit = match base {
                "alus" => "alu",
                "rf" => "rf",
                other => other,
            };
            return vec![format!("lane{i}"), unit.to_string()];
        }
    }
    vec![name.to_string()]
}

/// Collects every atom's path (header) or value (samples), in visit order.
struct Walk<'v> {
    scope: Vec<String>,
    vars: Option<&'v mut Vec<Var>>,
    values: Option<&'v mut Vec<VCDValue>>,
}

impl Probe for Walk<'_> {
    fn visit_start_scope(&mut self, name: &str, _node: &dyn Block) {
        self.scope.extend(scope_names(name));
    }
    fn visit_start_namespace(&mut self, name: &str, _node: &dyn Block) {
        self.scope.extend(scope_names(name));
    }
    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        if let Some(vars) = self.vars.as_deref_mut() {
            let mut path = self.scope.clone();
            let names = scope_names(name);
            // A vector of signals (`va$3`) files the element under its lane.
            if names.len() == 2 {
                path.push(names[0].clone());
                path.push(name.split('$').next().unwrap_or(name).to_string());
            } else {
                path.push(name.to_string());
            }
            let width = match signal.descriptor().kind {
                TypeKind::Bits(w) | TypeKind::Signed(w) => w,
                _ => 0,
            };
            vars.push(Var { path, width });
        }
        if let Some(values) = self.values.as_deref_mut() {
            values.push(signal.vcd());
        }
    }
    fn visit_end_namespace(&mut self, name: &str, _node: &dyn Block) {
        let n = scope_names(name).len();
        self.scope.truncate(self.scope.len() - n);
    }
    fn visit_end_scope(&mut self, name: &str, _node: &dyn Block) {
        let n = scope_names(name).len();
        self.scope.truncate(self.scope.len() - n);
    }
}

#[derive(Default)]
struct Tree {
    vars: Vec<(String, usize)>,
    children: BTreeMap<String, Tree>,
}

pub struct VcdWriter<W: Write> {
    w: vcd::Writer<W>,
    /// Per atom in visit order: its id when traced.
    ids: Vec<Option<(IdCode, usize)>>,
    last: Vec<Option<String>>,
    clock: IdCode,
    pub opts: VcdOptions,
}

fn keep(path: &[String], scopes: &[String]) -> bool {
    let dotted = path.join(".");
    scopes.is_empty() || scopes.iter().any(|s| dotted == *s || dotted.starts_with(&format!("{s}.")))
}

impl<W: Write> VcdWriter<W> {
    pub fn new(out: W, top: &dyn Block, opts: VcdOptions) -> std::io::Result<VcdWriter<W>> {
        let mut vars = vec![];
        top.accept("sm", &mut Walk { scope: vec![], vars: Some(&mut vars), values: None });
        let mut w = vcd::Writer::new(out);
        w.timescale(1, vcd::TimescaleUnit::NS)?;
        w.add_module("sm")?;
        let clock = w.add_wire(1, "clk")?;
        // Scopes as a tree, so each is opened once.
        let mut tree = Tree::default();
        for (i, v) in vars.iter().enumerate() {
            if v.path.len() < 2 || !keep(&v.path, &opts.scopes) {
                continue;
            }
            let mut t = &mut tree;
            for s in &v.path[1..v.path.len() - 1] {
                t = t.children.entry(s.clone()).or_default();
            }
            t.vars.push((v.path[v.path.len() - 1].clone(), i));
        }
        let mut ids = vec![None; vars.len()];
        fn emit<W: Write>(w: &mut vcd::Writer<W>, t: &Tree, vars: &[Var], ids: &mut [Option<(IdCode, usize)>]) -> std::io::Result<()> {
            for (name, i) in &t.vars {
                let width = vars[*i].width;
                let id = if width == 0 { w.add_var(vcd::VarType::String, 1, name, None)? } else { w.add_wire(width as u32, name)? };
                ids[*i] = Some((id, width));
            }
            for (name, c) in &t.children {
                w.add_module(name)?;
                emit(w, c, vars, ids)?;
                w.upscope()?;
            }
            Ok(())
        }
        emit(&mut w, &tree, &vars, &mut ids)?;
        w.upscope()?;
        w.enddefinitions()?;
        let n = ids.len();
        Ok(VcdWriter { w, ids, last: vec![None; n], clock, opts })
    }

    /// Samples every traced signal at `cycle` (values settled before the edge).
    pub fn sample(&mut self, top: &dyn Block, cycle: u64) -> std::io::Result<()> {
        if cycle < self.opts.from || cycle >= self.opts.to {
            return Ok(());
        }
        let mut values = Vec::with_capacity(self.ids.len());
        top.accept("sm", &mut Walk { scope: vec![], vars: None, values: Some(&mut values) });
        self.w.timestamp(cycle * 10)?;
        self.w.change_scalar(self.clock, Value::V0)?;
        for (i, v) in values.iter().enumerate() {
            let Some((id, width)) = self.ids[i] else { continue };
            let text = match v {
                VCDValue::Single(b) => b.to_string(),
                VCDValue::Vector(bits) => bits.iter().map(|b| b.to_string()).collect(),
                VCDValue::String(s) => s.clone(),
                VCDValue::Composite(_) => continue,
            };
            if self.last[i].as_deref() == Some(text.as_str()) {
                continue;
            }
            match v {
                VCDValue::String(s) => self.w.change_string(id, s)?,
                VCDValue::Single(b) if width <= 1 => self.w.change_scalar(id, *b)?,
                VCDValue::Single(b) => self.w.change_vector(id, &[*b])?,
                VCDValue::Vector(bits) => self.w.change_vector(id, bits)?,
                VCDValue::Composite(_) => {}
            }
            self.last[i] = Some(text);
        }
        self.w.timestamp(cycle * 10 + 5)?;
        self.w.change_scalar(self.clock, Value::V1)?;
        Ok(())
    }
}
