//! Emission: reconvergence points (immediate post-dominators of divergent
//! branches, the compiler's own analysis), label and call resolution, frame
//! sizes, and encoding into the object's code. The PTX interpreter
//! (`sim/src/ptx/cfg.rs`) computes post-dominators again, apart, on
//! purpose: it is the independent oracle the compiler is tested against.

use super::cfg::blocks;
use super::isel::FRAME;
use super::mir::*;
use heddle_isa::fields::{EXIT_JOIN, RPC_NONE, RZ};
use heddle_isa::{Guard, Inst, Opcode, Operand};

/// For each position holding a branch: the position its paths reconverge at
/// (`None`: only at the function's end).
pub fn ipdoms(mis: &[MI]) -> Vec<Option<usize>> {
    let (ranges, succ) = blocks(mis);
    let nb = ranges.len();
    let exit = nb;
    let words = (nb + 1).div_ceil(64);
    let full = vec![u64::MAX; words];
    let mut pdom = vec![full.clone(); nb + 1];
    pdom[exit] = vec![0; words];
    pdom[exit][exit / 64] |= 1 << (exit % 64);
    // Blocks without successors end the function.
    let succ: Vec<Vec<usize>> = succ.into_iter().map(|s| if s.is_empty() { vec![exit] } else { s }).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let mut s = full.clone();
            for &x in &succ[b] {
                for (w, v) in s.iter_mut().zip(&pdom[x]) {
                    *w &= v;
                }
            }
            s[b / 64] |= 1 << (b % 64);
            if s != pdom[b] {
                pdom[b] = s;
                changed = true;
            }
        }
    }
    let has = |s: &Vec<u64>, x: usize| s[x / 64] >> (x % 64) & 1 == 1;
    let count = |s: &Vec<u64>| s.iter().map(|w| w.count_ones()).sum::<u32>();
    let mut out = vec![None; mis.len()];
    for b in 0..nb {
        let (_, end) = ranges[b];
        if end == 0 {
            continue;
        }
        let own = count(&pdom[b]);
        let ip = (0..=nb).filter(|&x| x != b && has(&pdom[b], x)).find(|&x| count(&pdom[x]) == own - 1);
        out[end - 1] = ip.filter(|&x| x < nb).map(|x| ranges[x].0);
    }
    out
}

/// A function ready to place: its instructions and frame size.
pub struct Placed {
    pub mis: Vec<MI>,
    pub frame: u32,
}

/// Encodes functions laid out one after another. `entries[i]` is the pc of function `i`.
/// Returns the code and, per instruction, its source span start.
pub fn encode(funcs: &[Placed], entries: &[u32], sp: u8) -> Result<(Vec<u64>, Vec<Option<u32>>), String> {
    let mut code = vec![];
    let mut lines = vec![];
    for f in funcs {
        let base = code.len() as u32;
        // Label pcs, and the pc of each position.
        let mut pc_of = vec![0u32; f.mis.len() + 1];
        let mut labels = std::collections::HashMap::new();
        let mut pc = base;
        for (p, m) in f.mis.iter().enumerate() {
            pc_of[p] = pc;
            if let Some(l) = m.label {
                labels.insert(l, pc);
            }
            if !m.is_pseudo() {
                pc += 1;
            }
        }
        pc_of[f.mis.len()] = pc;
        let joins = ipdoms(&f.mis);
        for (p, m) in f.mis.iter().enumerate() {
            if m.is_pseudo() {
                continue;
            }
            let mut i: Inst = m.inst;
            let reg = |l: Loc| -> Result<u8, String> {
                match l {
                    Loc::Phys(SP) => Ok(sp),
                    Loc::Phys(r) => Ok(r),
                    Loc::None => Ok(RZ),
                    other => Err(format!("unallocated operand {other:?}")),
                }
            };
            let fmt = i.op.info().format;
            use heddle_isa::Format as F;
            match fmt {
                F::SetP | F::Vote | F::Plop => {
                    if m.a != Loc::None {
                        i.a = reg(m.a)?;
                    }
                }
                F::S2r => i.d = reg(m.d)?,
                F::Bra | F::Call | F::None | F::Ballot => {
                    if fmt == F::Ballot {
                        i.d = reg(m.d)?;
                    }
                }
                F::Bar => i.a = reg(m.a)?,
                _ => {
                    if m.d != Loc::None {
                        i.d = reg(m.d)?;
                    }
                    if m.a != Loc::None {
                        i.a = reg(m.a)?;
                    }
                }
            }
            if matches!(fmt, F::Rrbc | F::Atom | F::Shfl) {
                i.c = reg(m.c)?;
            }
            let uses_b = !matches!(fmt, F::None | F::Rr | F::S2r | F::Vote | F::Ballot | F::CallInd | F::Syscall | F::Plop);
            if uses_b {
                i.b = match m.b {
                    Src::Imm(v) if v >= FRAME && m.a == Loc::Phys(SP) => Operand::Imm(v - FRAME + f.frame),
                    Src::Imm(v) => Operand::Imm(v),
                    Src::Loc(Loc::None) if fmt == F::Rb => Operand::Reg(RZ),
                    Src::Loc(l) => Operand::Reg(reg(l)?),
                };
            }
            match (i.op, m.target) {
                (Opcode::Bra, Some(t)) => {
                    let target = *labels.get(&t).ok_or("branch to an unknown label")?;
                    i.b = Operand::Imm(target);
                    if i.rpc() != RPC_NONE {
                        let guarded = i.guard != Guard::ALWAYS;
                        let join = if guarded { joins[p].map_or(EXIT_JOIN, |q| pc_of[q]) } else { RPC_NONE };
                        i.set_rpc(join);
                    }
                }
                (Opcode::Call, Some(t)) | (Opcode::Mov, Some(t)) => {
                    let f = (u32::MAX - t) as usize;
                    let e = *entries.get(f).ok_or("call to an unknown function")?;
                    i.b = Operand::Imm(e);
                }
                _ => {}
            }
            if i.op.info().format == F::Rrbc && matches!(i.b, Operand::Imm(_)) {
                i.c = RZ;
            }
            let w = i.encode().map_err(|e| format!("internal compiler error: {e} in {i:?}"))?;
            code.push(w);
            lines.push(m.line.map(|(s, _)| s));
        }
    }
    Ok((code, lines))
}
