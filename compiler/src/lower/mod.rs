//! The compiler: checked PTX to a Heddle object.
//!
//! ```text
//! ast::Module --layout--> data images, symbol addresses, signatures
//!   per function: --isel--> machine IR on virtual registers
//!                 --regalloc--> physical registers, spills, caller saves
//!   all functions: --emit--> reconvergence points, resolved targets, code
//! ```
//! Each pass is one file; `check` verifies allocations in debug builds.
//!
//! # Register layout
//!
//! The compiler works within a register budget, [`Options::max_regs`]
//! (`heddle compile --max-regs N`, ptxas's `-maxrregcount`; the CLI takes
//! it from the `SmConfig` the kernel runs on, `regs_per_thread`, or lower).
//! Each function's registers are packed from `r0` up:
//!
//! ```text
//! r0 ..                 values (linear scan; pairs and groups at even registers)
//!    .. r{n}            spill scratch: only as many as one instruction's spilled
//!                       operands need, right above the values (none without spills)
//! r{sp}                 the stack pointer: one register for the whole module,
//!                       above every function's registers, only when some
//!                       function has a frame (locals, calls, spills)
//! ```
//!
//! System-call arguments and results are register groups (up to 9 words
//! for `__assertfail`) allocated like any value but never spilled. A
//! kernel's `Kernel::regs` is what it and its callees use, stack pointer
//! included, so it launches on any SM with that many registers per thread.
//!
//! The documented minimum budget is [`MIN_REGS`] (16, `tiny`'s): every
//! corpus kernel compiles and gives identical results under it. Smaller
//! budgets are attempted; a function that does not fit fails with an error
//! naming it and the registers it needs at least.

pub mod cfg;
pub mod check;
pub mod emit;
pub mod isel;
pub mod layout;
pub mod mir;
pub mod preds;
pub mod regalloc;

use crate::ptx::ast::*;
use crate::ptx::SourceFile;
use heddle_isa::diag::Diagnostic;
use heddle_isa::mem::align_up;
use heddle_isa::object::{Kernel, LineEntry, Object, Param, Symbol, SymbolKind};
use heddle_isa::Opcode;
use mir::{Loc, Src, MI, SP};

/// Local memory per thread for kernels whose call graph is recursive.
pub const RECURSIVE_STACK: u32 = 16 * 1024;

/// What compiling one function produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FuncStats {
    pub name: String,
    pub ptx_instructions: usize,
    pub isa_instructions: usize,
    /// Registers the function needs with everything it calls (r0..r{n-1}:
    /// allocated values, spill scratch and the stack pointer); for a kernel,
    /// what a launch needs (`Kernel::regs`), as ptxas's "Used N registers".
    pub registers: u32,
    /// Virtual registers that live in the frame.
    pub spilled: usize,
    /// Bytes of spill stores and spill loads in the code (static, as ptxas counts them).
    pub spill_store_bytes: u32,
    pub spill_load_bytes: u32,
    pub frame_bytes: u32,
    /// PTX predicates allocated to predicate registers, and how many of
    /// those registers (p0..) the function uses for them.
    pub preds_allocated: u32,
    pub preds_used: u32,
    /// PTX predicates that could live in predicate registers but found none
    /// free: they stay in general registers as 0/1.
    pub preds_in_regs: u32,
}

impl FuncStats {
    /// The header of the table whose rows are `FuncStats`' `Display`.
    pub const HEADER: &'static str =
        "function                                      ptx      isa   regs spills st-bytes ld-bytes   frame  preds";
}

impl std::fmt::Display for FuncStats {
    /// One row of the table under [`FuncStats::HEADER`].
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:<40} {:>8} {:>8} {:>6} {:>6} {:>8} {:>8} {:>7} {:>6}",
            self.name,
            self.ptx_instructions,
            self.isa_instructions,
            self.registers,
            self.spilled,
            self.spill_store_bytes,
            self.spill_load_bytes,
            self.frame_bytes,
            self.preds_allocated
        )
    }
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

/// What the compiler may assume about the SM it compiles for (a subset of
/// the hardware's `SmConfig`, which the compiler does not depend on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// General registers per thread the code may use: r0..r{max_regs-1}
    /// (ptxas's `-maxrregcount`; the SM's `regs_per_thread`). At most 127.
    pub max_regs: u32,
    /// Predicate registers besides `pt` (the SM's `preds`; the ISA has 7).
    pub preds: u32,
    /// Run the allocation checker (`check`) on every function: always in
    /// debug builds, and when the environment has `HEDDLE_CHECK_ALLOC`.
    pub check_alloc: bool,
    /// The SM has the 64-bit multiplier (`SmConfig::mul64`). Without it the
    /// low 64 bits of a 64-bit product are four 32-bit multiplies, and the
    /// high 64 (`mul.hi`/`mad.hi` of 64-bit operands) seven, summed with
    /// carries.
    pub mul64: bool,
    /// The SM has the 64-bit shifter (`SmConfig::shift64`). Without it 64-bit
    /// shifts are 32-bit shifts, a funnel shift and a select.
    pub shift64: bool,
}

impl Default for Options {
    /// The whole ISA: 127 registers, 7 predicates.
    fn default() -> Options {
        Options { max_regs: heddle_isa::fields::NUM_REGS as u32, preds: 7, check_alloc: false, mul64: true, shift64: true }
    }
}

/// The smallest register budget every kernel the compiler accepts is meant
/// to compile under (the largest system-call argument group, 9 words, plus
/// scratch for spill code and the stack pointer). Smaller budgets are tried
/// and fail with an error when a function does not fit.
pub const MIN_REGS: u32 = 16;

/// Compiles a checked module for the whole ISA. Errors name the PTX instruction that could not be compiled.
pub fn compile(src: &SourceFile, m: &Module) -> Result<Object, Vec<Diagnostic>> {
    compile_with(src, m, &Options::default()).map(|(o, _)| o)
}

/// Compiles a checked module for the whole ISA and reports per-function figures.
pub fn compile_with_stats(src: &SourceFile, m: &Module) -> Result<(Object, Vec<FuncStats>), Vec<Diagnostic>> {
    compile_with(src, m, &Options::default())
}

/// One function after instruction selection.
struct Selected {
    out: isel::FuncOut,
    ptx_instructions: usize,
    preds: preds::Promoted,
}

fn uses_sp(m: &MI) -> bool {
    let b = match m.b {
        Src::Loc(l) => l,
        Src::Imm(_) => Loc::None,
    };
    [m.d, m.a, b, m.c].contains(&Loc::Phys(SP))
}

/// Compiles a checked module for an SM described by `opts` and reports per-function figures.
pub fn compile_with(src: &SourceFile, m: &Module, opts: &Options) -> Result<(Object, Vec<FuncStats>), Vec<Diagnostic>> {
    let mut stats = vec![];
    let err = |span: crate::ptx::Span, msg: String| vec![src.diagnostic(span, msg)];
    let budget = opts.max_regs.min(heddle_isa::fields::NUM_REGS as u32);
    let npreds = opts.preds.min(7) as u8;
    if npreds < 2 {
        return Err(err(Default::default(), format!("the compiler needs at least 2 predicate registers; the SM has {npreds}")));
    }
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
    let mut selected: Vec<Option<Selected>> = vec![];
    let mut kernels = vec![];
    for (fi, f) in funcs.iter().enumerate() {
        let Some(body) = &f.body else {
            selected.push(None);
            continue;
        };
        let info = layout.func_info(&f.name.name).cloned().unwrap_or_default();
        let mut sel = isel::Sel::new(&layout, f.entry);
        sel.mul64 = opts.mul64;
        sel.shift64 = opts.shift64;
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
        let mut out = sel.finish();
        // A function must not fall off its end: finish with exit/ret (never reached when it ends properly).
        out.mis.push(MI::new(if f.entry { Opcode::Exit } else { Opcode::Ret }));
        // PTX predicates into predicate registers, the scratch ones at the top.
        let (mut mis, promoted) = preds::promote(std::mem::take(&mut out.mis), &out.vreg_words, npreds - 2);
        preds::place_scratch(&mut mis, npreds);
        out.mis = mis;
        if f.entry {
            kernels.push((f.name.name.clone(), fi, kparams));
        }
        selected.push(Some(Selected { out, ptx_instructions: count_insts(body), preds: promoted }));
    }
    // The stack pointer is one register for the whole module (callers and
    // callees agree on it), above every function's registers; the budget
    // leaves room for it when some function uses a frame, calls or spills.
    let mut module_sp = selected.iter().flatten().any(|s| s.out.frame > 0 || s.out.mis.iter().any(uses_sp));
    let allocated = loop {
        let avail = budget.saturating_sub(module_sp as u32);
        let mut results = vec![];
        for (fi, s) in selected.iter().enumerate() {
            let Some(s) = s else {
                results.push(None);
                continue;
            };
            let mut mis = s.out.mis.clone();
            if funcs[fi].entry && module_sp {
                let mut mi = MI::new(Opcode::Mov);
                mi.d = Loc::Phys(SP);
                mi.b = Src::Imm(0);
                mis.insert(0, mi);
            }
            let r = regalloc::allocate(mis.clone(), &s.out.vreg_words, s.out.frame, avail).map_err(|e| {
                let need = e.need + module_sp as u32;
                err(
                    funcs[fi].name.span,
                    format!(
                        "`{}` does not fit a budget of {budget} registers per thread: it needs at least {need} (the documented minimum budget is {MIN_REGS})",
                        funcs[fi].name.name
                    ),
                )
            })?;
            if opts.check_alloc || cfg!(debug_assertions) || std::env::var_os("HEDDLE_CHECK_ALLOC").is_some() {
                // The corpus tests set HEDDLE_CHECK_ALLOC, the PTX fuzzer `check_alloc`.
                check::check(&mis, &r.mis, &r.origin, &s.out.vreg_words)
                    .and_then(|_| regalloc::check_budget(&r.mis, r.regs))
                    .map_err(|e| err(funcs[fi].name.span, format!("internal compiler error: {e}")))?;
            }
            results.push(Some(r));
        }
        if !module_sp && results.iter().flatten().any(|r| r.frame > 0 || r.mis.iter().any(uses_sp)) {
            // Spills need a frame: start again with the stack pointer inside the budget.
            module_sp = true;
            continue;
        }
        break results;
    };
    let sp_reg = allocated.iter().flatten().map(|r| r.regs).max().unwrap_or(0);
    debug_assert!(!module_sp || sp_reg < budget);
    let mut callees: Vec<Vec<usize>> = vec![];
    for r in &allocated {
        let Some(r) = r else {
            callees.push(vec![]);
            continue;
        };
        let mut called: Vec<usize> =
            r.mis.iter().filter(|x| x.inst.op == Opcode::Call).filter_map(|x| x.target).map(|t| (u32::MAX - t) as usize).collect();
        if r.mis.iter().any(|x| x.inst.op == Opcode::Calli) {
            // An indirect call may reach any function.
            called.extend(0..funcs.len());
        }
        callees.push(called);
    }
    fn reach(f: usize, callees: &[Vec<usize>], seen: &mut Vec<bool>) {
        if !seen[f] {
            seen[f] = true;
            for &c in &callees[f] {
                reach(c, callees, seen);
            }
        }
    }
    let reachable = |f: usize| {
        let mut seen = vec![false; funcs.len()];
        reach(f, &callees, &mut seen);
        (0..funcs.len()).filter(move |&g| seen[g])
    };
    // Registers a function needs with what it calls: its own, and the stack
    // pointer when it or a callee uses it (a kernel's `mov sp, 0` aside).
    let own_sp: Vec<bool> = allocated
        .iter()
        .enumerate()
        .map(|(fi, r)| r.as_ref().is_some_and(|r| r.mis.iter().skip(funcs[fi].entry as usize).any(uses_sp)))
        .collect();
    let own_regs: Vec<u32> = allocated.iter().map(|r| r.as_ref().map_or(0, |r| r.regs)).collect();
    let needs = |f: usize| -> (u32, bool) {
        let regs = reachable(f).map(|g| own_regs[g]).max().unwrap_or(0);
        let sp = module_sp && reachable(f).any(|g| own_sp[g]);
        (if sp { regs.max(sp_reg + 1) } else { regs }, sp)
    };
    let mut placed = vec![];
    for (fi, r) in allocated.into_iter().enumerate() {
        let Some(mut r) = r else {
            placed.push(emit::Placed { mis: vec![], frame: 0 });
            continue;
        };
        let (regs, sp) = needs(fi);
        if funcs[fi].entry && module_sp && !sp {
            // Nothing this kernel runs uses the stack pointer: no need to set it.
            r.mis.remove(0);
        }
        let s = selected[fi].as_ref().expect("selected");
        stats.push(FuncStats {
            name: funcs[fi].name.name.clone(),
            ptx_instructions: s.ptx_instructions,
            isa_instructions: r.mis.iter().filter(|x| !x.is_pseudo()).count(),
            registers: regs.max(1),
            spilled: r.homes.iter().filter(|h| matches!(h, Some(regalloc::Home::Slot(_)))).count(),
            spill_store_bytes: 4 * r.spill_stores,
            spill_load_bytes: 4 * r.spill_loads,
            frame_bytes: r.frame,
            preds_allocated: s.preds.in_preds,
            preds_used: s.preds.preds_used,
            preds_in_regs: s.preds.left_in_regs,
        });
        placed.push(emit::Placed { mis: r.mis, frame: r.frame });
    }
    let kernel_regs: Vec<u32> = kernels.iter().map(|(_, f, _)| needs(*f).0.max(1)).collect();
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
    let (code, spans) = emit::encode(&placed, &entries, sp_reg as u8).map_err(|e| err(Default::default(), e))?;
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
    for ((name, f, params), regs) in kernels.into_iter().zip(kernel_regs) {
        let local = depth(f, &placed, &callees, &mut vec![false; placed.len()]).unwrap_or(RECURSIVE_STACK);
        let param_bytes = params.iter().map(|p| p.offset + p.size).max().unwrap_or(0);
        obj.kernels.push(Kernel {
            name,
            entry: entries[f],
            regs: regs as u8,
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
