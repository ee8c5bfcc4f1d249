//! VCD traces of the RTL with hierarchical scopes named after the hardware
//! (`sm.sched`, `sm.stack`, `sm.lane3.alu`, `sm.lane3.rf`), written with the
//! `vcd` crate. rust-hdl's own writer names vector elements `alus$3` and
//! cannot bound the window or the scopes; this one can. A sample compares
//! each signal's bits (the vendored `Atom::raw`) with what it last wrote,
//! and formats only the ones that changed.

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

/// Collects every atom's path and width, in visit order (the header).
struct Walk<'v> {
    scope: Vec<String>,
    vars: &'v mut Vec<Var>,
}

impl Probe for Walk<'_> {
    fn visit_start_scope(&mut self, name: &str, _node: &dyn Block) {
        self.scope.extend(scope_names(name));
    }
    fn visit_start_namespace(&mut self, name: &str, _node: &dyn Block) {
        self.scope.extend(scope_names(name));
    }
    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
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
        self.vars.push(Var { path, width });
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

/// What a traced atom last wrote: its bits (`Atom::raw`), or for an enum
/// or an undriven signal its `VCDValue`.
#[derive(Clone, PartialEq)]
enum Written {
    Nothing,
    Raw(u64),
    Value(VCDValue),
}

pub struct VcdWriter<W: Write> {
    w: vcd::Writer<W>,
    /// Per atom in visit order: its id and width when traced.
    ids: Vec<Option<(IdCode, usize)>>,
    last: Vec<Written>,
    /// A vector's bits, most significant first, as the `vcd` crate takes them.
    bits: Vec<Value>,
    clock: IdCode,
    pub opts: VcdOptions,
}

/// One sample: visits the atoms in the header's order and writes each
/// traced one whose value differs from what it last wrote.
struct Sample<'a, W: Write> {
    next: usize,
    writer: &'a mut VcdWriter<W>,
    error: Option<std::io::Error>,
}

impl<W: Write> Probe for Sample<'_, W> {
    fn visit_atom(&mut self, _name: &str, signal: &dyn Atom) {
        let i = self.next;
        self.next += 1;
        let Some((id, width)) = self.writer.ids[i] else { return };
        let now = match signal.raw() {
            Some(x) => Written::Raw(x),
            None => Written::Value(signal.vcd()),
        };
        if self.writer.last[i] == now || self.error.is_some() {
            return;
        }
        let w = &mut self.writer.w;
        let done = match &now {
            Written::Raw(x) if width <= 1 => w.change_scalar(id, if x & 1 == 1 { Value::V1 } else { Value::V0 }),
            Written::Raw(x) => {
                let bits = &mut self.writer.bits;
                bits.clear();
                bits.extend((0..width).rev().map(|b| if x >> b & 1 == 1 { Value::V1 } else { Value::V0 }));
                w.change_vector(id, bits)
            }
            Written::Value(VCDValue::String(s)) => w.change_string(id, s),
            Written::Value(VCDValue::Single(b)) if width <= 1 => w.change_scalar(id, *b),
            Written::Value(VCDValue::Single(b)) => w.change_vector(id, &[*b]),
            Written::Value(VCDValue::Vector(bits)) => w.change_vector(id, bits),
            Written::Value(VCDValue::Composite(_)) | Written::Nothing => return,
        };
        match done {
            Ok(()) => self.writer.last[i] = now,
            Err(e) => self.error = Some(e),
        }
    }
}

fn keep(path: &[String], scopes: &[String]) -> bool {
    let dotted = path.join(".");
    scopes.is_empty() || scopes.iter().any(|s| dotted == *s || dotted.starts_with(&format!("{s}.")))
}

fn vars_of(top: &dyn Block) -> Vec<Var> {
    let mut vars = vec![];
    top.accept("sm", &mut Walk { scope: vec![], vars: &mut vars });
    vars
}

/// Checks the options before a file is written: every scope names part of
/// the hardware, and the window is not empty.
pub fn check(top: &dyn Block, opts: &VcdOptions) -> Result<(), String> {
    if opts.from >= opts.to {
        return Err(format!("--vcd-from {} is not before --vcd-to {}: the VCD would hold no cycle", opts.from, opts.to));
    }
    let vars = vars_of(top);
    for s in &opts.scopes {
        if !vars.iter().any(|v| v.path.len() >= 2 && keep(&v.path, std::slice::from_ref(s))) {
            // The SM's blocks (scopes with scopes inside), lanes named once.
            let mut known: Vec<String> = vars
                .iter()
                .filter(|v| v.path.len() > 3)
                .map(|v| if v.path[1].starts_with("lane") { format!("sm.laneN.{}", v.path[2]) } else { v.path[..2].join(".") })
                .collect();
            known.sort();
            known.dedup();
            return Err(format!(
                "--vcd-scope `{s}` names no part of the SM; its blocks are {} (a register or signal of the SM, `sm.NAME`, is a scope too)",
                known.join(", ")
            ));
        }
    }
    Ok(())
}

impl<W: Write> VcdWriter<W> {
    pub fn new(out: W, top: &dyn Block, opts: VcdOptions) -> std::io::Result<VcdWriter<W>> {
        let vars = vars_of(top);
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
        Ok(VcdWriter { w, ids, last: vec![Written::Nothing; n], bits: vec![], clock, opts })
    }

    /// Samples every traced signal at `cycle` (values settled before the edge).
    pub fn sample(&mut self, top: &dyn Block, cycle: u64) -> std::io::Result<()> {
        if cycle < self.opts.from || cycle >= self.opts.to {
            return Ok(());
        }
        self.w.timestamp(cycle * 10)?;
        self.w.change_scalar(self.clock, Value::V0)?;
        let mut sample = Sample { next: 0, writer: self, error: None };
        top.accept("sm", &mut sample);
        if let Some(e) = sample.error {
            return Err(e);
        }
        self.w.timestamp(cycle * 10 + 5)?;
        self.w.change_scalar(self.clock, Value::V1)?;
        Ok(())
    }
}
