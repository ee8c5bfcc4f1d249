//! The compiler: checked PTX to a Heddle object.
//!
//! ```text
//! ast::Module --layout--> data images, symbol addresses, signatures
//!   per function: --isel--> machine IR on virtual registers
//!                 --regalloc--> physical registers, spills, caller saves
//!   all functions: --emit--> reconvergence points, resolved targets, code
//! ```
//! Each pass is one file; `regalloc::check` verifies allocations in debug builds.

pub mod emit;
pub mod isel;
pub mod layout;
pub mod mir;
pub mod regalloc;

use crate::ptx::ast::*;
use crate::ptx::SourceFile;
use heddle_isa::diag::Diagnostic;
use heddle_isa::object::{Kernel, LineEntry, Object, Param, Symbol, SymbolKind};
use heddle_isa::Opcode;
use mir::{Loc, Src, MI, SP};

/// Local memory per thread for kernels whose call graph is recursive.
pub const RECURSIVE_STACK: u32 = 16 * 1024;

fn align_up(v: u32, a: u32) -> u32 {
    v.div_ceil(a.max(1)) * a.max(1)
}

/// What compiling one function produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FuncStats {
    pub name: String,
    pub ptx_instructions: usize,
    pub isa_instructions: usize,
    /// Allocated registers (highest used + 1, not counting scratch and SP).
    pub registers: u32,
    /// Virtual registers that live in the frame.
    pub spilled: usize,
    pub frame_bytes: u32,
}

fn count_insts(b: &Block) -> usize {
    b.stmts
        .iter()
        .map(|s| match s {
            Stmt::Inst(_) => 1,
            Stmt::Block(i) => count_insts(i),
            _ => 0,
        })
        .sum()
}

/// Compiles a checked module. Errors name the PTX instruction that could not be compiled.
pub fn compile(src: &SourceFile, m: &Module) -> Result<Object, Vec<Diagnostic>> {
    compile_with_stats(src, m).map(|(o, _)| o)
}

/// Compiles a checked module and reports per-function figures.
pub fn compile_with_stats(src: &SourceFile, m: &Module) -> Result<(Object, Vec<FuncStats>), Vec<Diagnostic>> {
    let mut stats = vec![];
    let err = |span: crate::ptx::Span, msg: String| vec![src.diagnostic(span, msg)];
    let layout = layout::Layout::new(m).map_err(|e| err(Default::default(), e))?;
    let funcs: Vec<&Function> = {
        let mut by_index: Vec<Option<&Function>> = vec![];
        for item in &m.items {
            if let Item::Func(f) = item {
                let idx = layout.func_index(&f.name.name).unwrap_or(0) as usize;
                if by_index.len() <= idx {
                    by_index.resize(idx + 1, None);
                }
                if f.body.is_some() || by_index[idx].is_none() {
                    by_index[idx] = Some(f);
                }
            }
        }
        by_index.into_iter().map(|f| f.expect("every index has a declaration")).collect()
    };
    let mut placed = vec![];
    let mut kernels = vec![];
    let mut callees: Vec<Vec<usize>> = vec![];
    for f in &funcs {
        let Some(body) = &f.body else {
            placed.push(emit::Placed { mis: vec![], frame: 0 });
            callees.push(vec![]);
            continue;
        };
        let info = layout.func_info(&f.name.name).cloned().unwrap_or_default();
        let mut sel = isel::Sel::new(&layout, f.entry);
        let mut kparams = vec![];
        if f.entry {
            // Kernel parameters: param space, each aligned to its .align or size.
            let mut off = 0u32;
            for p in &f.params {
                let size = layout.decl_size(p, &p.names[0]).max(p.ty.size());
                let al = p.align.map(|a| a as u32).unwrap_or(p.ty.size() * p.vector.unwrap_or(1));
                off = align_up(off, al);
                sel.declare_param(p, off);
                kparams.push(Param { name: p.names[0].name.name.clone(), offset: off, size });
                off += size;
            }
        } else {
            for (p, &(off, _)) in f.rets.iter().zip(&info.rets).chain(f.params.iter().zip(&info.params)) {
                if p.space == Space::Reg {
                    return Err(err(p.span, "`.reg` parameters are not supported by the compiler yet".into()));
                }
                sel.declare_param(p, off);
            }
            sel.reserve(info.sig_bytes);
        }
        sel.body(body).map_err(|e| {
            let (pos, msg) = match e.strip_prefix('@').and_then(|r| r.split_once(':')) {
                Some((p, m)) => (p.parse::<usize>().unwrap_or(0), m.to_string()),
                None => (0, e.clone()),
            };
            err(crate::ptx::Span::new(pos, pos + 1), msg)
        })?;
        let out = sel.finish();
        let mut mis = out.mis;
        if f.entry {
            let mut mi = MI::new(Opcode::Mov);
            mi.d = Loc::Phys(SP);
            mi.b = Src::Imm(0);
            mis.insert(0, mi);
        }
        // A function must not fall off its end: finish with exit/ret (never reached when it ends properly).
        mis.push(MI::new(if f.entry { Opcode::Exit } else { Opcode::Ret }));
        let r = regalloc::allocate(mis.clone(), &out.vreg_words, out.frame);
        if cfg!(debug_assertions) {
            // The allocation checker runs on every compile in debug builds (and so in tests).
            let iv = regalloc::intervals(&mis, out.vreg_words.len());
            regalloc::check(&out.vreg_words, &iv, &r.homes).map_err(|e| err(f.name.span, format!("internal compiler error: {e}")))?;
        }
        let mut called: Vec<usize> =
            r.mis.iter().filter(|x| x.inst.op == Opcode::Call).filter_map(|x| x.target).map(|t| (u32::MAX - t) as usize).collect();
        if r.mis.iter().any(|x| x.inst.op == Opcode::Calli) {
            // An indirect call may reach any function.
            called.extend(0..funcs.len());
        }
        callees.push(called);
        if f.entry {
            kernels.push((f.name.name.clone(), placed.len(), kparams));
        }
        let regs = r
            .homes
            .iter()
            .zip(&out.vreg_words)
            .filter_map(|(h, w)| match h {
                Some(regalloc::Home::Reg(x)) => Some(*x as u32 + *w as u32),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        stats.push(FuncStats {
            name: f.name.name.clone(),
            ptx_instructions: count_insts(body),
            isa_instructions: r.mis.iter().filter(|x| !x.is_pseudo()).count(),
            registers: regs,
            spilled: r.homes.iter().filter(|h| matches!(h, Some(regalloc::Home::Slot(_)))).count(),
            frame_bytes: r.frame,
        });
        placed.push(emit::Placed { mis: r.mis, frame: r.frame });
    }
    // Entry pcs: functions placed in index order.
    let mut entries = vec![];
    let mut pc = 0u32;
    for p in &placed {
        entries.push(pc);
        pc += p.mis.iter().filter(|x| !x.is_pseudo()).count() as u32;
    }
    if pc > heddle_isa::fields::MAX_CODE {
        // Named at the function that crosses the limit.
        let at = (0..funcs.len()).rfind(|&i| entries[i] <= heddle_isa::fields::MAX_CODE).unwrap_or(0);
        return Err(err(funcs[at].name.span, heddle_isa::fields::too_long(pc as usize)));
    }
    let (code, spans) = emit::encode(&placed, &entries).map_err(|e| err(Default::default(), e))?;
    // Stack depth: the deepest chain of frames from each kernel.
    fn depth(f: usize, placed: &[emit::Placed], callees: &[Vec<usize>], seen: &mut Vec<bool>) -> Option<u32> {
        if seen[f] {
            return None;
        }
        seen[f] = true;
        let mut best = 0;
        for &c in &callees[f] {
            best = best.max(depth(c, placed, callees, seen)?);
        }
        seen[f] = false;
        Some(placed[f].frame + best)
    }
    let mut obj = Object::default();
    for (name, f, params) in kernels {
        let local = depth(f, &placed, &callees, &mut vec![false; placed.len()]).unwrap_or(RECURSIVE_STACK);
        let param_bytes = params.iter().map(|p| p.offset + p.size).max().unwrap_or(0);
        obj.kernels.push(Kernel {
            name,
            entry: entries[f],
            regs: heddle_isa::fields::NUM_REGS,
            params,
            param_bytes,
            shared_bytes: layout.static_shared,
            local_bytes: align_up(local, 16),
        });
    }
    for (i, f) in funcs.iter().enumerate() {
        if f.body.is_some() {
            obj.symbols.push(Symbol { name: f.name.name.clone(), kind: SymbolKind::Code, value: entries[i], size: 0 });
        }
    }
    obj.symbols.sort_by(|a, b| (a.value, &a.name).cmp(&(b.value, &b.name)));
    obj.kernels.sort_by(|a, b| (a.entry, &a.name).cmp(&(b.entry, &b.name)));
    let mut global = layout.global_image.clone();
    let mut consts = layout.const_image.clone();
    for &(is_global, off, size, f) in &layout.relocs {
        let img = if is_global { &mut global } else { &mut consts };
        let pcv = entries.get(f as usize).copied().unwrap_or(0) as u64;
        img[off..off + size].copy_from_slice(&pcv.to_le_bytes()[..size]);
    }
    obj.global_data = global;
    obj.const_data = consts;
    obj.files.push(src.name.clone());
    let mut last = None;
    for (pc, s) in spans.iter().enumerate() {
        if let Some(s) = s {
            let (line, col) = src.line_col(*s as usize);
            if last != Some((line, col)) {
                obj.lines.push(LineEntry { pc: pc as u32, file: 0, line: line as u32, col: col as u32 });
                last = Some((line, col));
            }
        }
    }
    obj.code = code;
    Ok((obj, stats))
}
