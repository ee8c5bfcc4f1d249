//! Predicate allocation: PTX predicates into the SM's predicate registers.
//!
//! Instruction selection keeps every PTX predicate in a 32-bit virtual
//! register holding 0 or 1: a compare writes the scratch predicate and a
//! `sel` turns it into 0/1; a guard, select or branch tests the register
//! back into a scratch predicate (`isetp.ne`) right before it reads it.
//! This pass gives a predicate register to each PTX predicate whose every
//! definition is such a compare-then-`sel` and whose every use is such a
//! test, and that is not live across a call (callees do not save
//! predicates):
//!
//! ```text
//! isetp.lt p6, r1, r2        isetp.lt p0, r1, r2
//! sel r5, rz, 1, !p6    ==>
//! isetp.ne p6, r5, rz
//! @!p6 bra L                 @!p0 bra L
//! ```
//!
//! The compare writes the allocated predicate, the `sel` and the test go,
//! and what read the scratch predicate after the test reads the allocated
//! one (guards, `sel`, compare inputs, vote/ballot/barrier operands, with
//! their negation). `and/or/xor/not/mov` of such 0/1 values become `plop`;
//! the values they join are placed together or not at all (a `plop` needs
//! every operand in a predicate register). Predicates are allocated by linear scan over
//! p0..p{preds-3}; when they run out, a PTX predicate stays in its general
//! register (the code instruction selection made). The two highest
//! predicates are the scratch ones ([`PRED`], [`PRED2`] as instruction
//! selection names them, moved to p{preds-1} and p{preds-2}).

use super::mir::*;
use super::regalloc::intervals;
use heddle_isa::fields::RZ;
use heddle_isa::table::{Format, ModKind};
use heddle_isa::values::{BoolOp, ICmp, ModValue};
use heddle_isa::{Guard, Opcode, Operand};

const PT: u8 = 7;

/// Predicates an instruction reads (not `pt`).
fn reads(m: &MI) -> Vec<u8> {
    let mut r = vec![];
    if m.is_pseudo() {
        return r;
    }
    let i = &m.inst;
    r.push(i.guard.pred);
    match i.op.info().format {
        Format::SetP => r.push((i.d >> 3) & 7),
        Format::Sel => r.push(i.mods & 7),
        Format::Plop => {
            r.push(i.a & 7);
            if let Operand::Reg(b) = i.b {
                r.push(b & 7);
            }
        }
        Format::Vote | Format::Ballot | Format::BarRed => r.push(i.a & 7),
        _ => {}
    }
    r.retain(|&p| p != PT);
    r
}

/// The predicate an instruction writes, if any (not `pt`).
fn writes(m: &MI) -> Option<u8> {
    if m.is_pseudo() {
        return None;
    }
    let i = &m.inst;
    let p = match i.op.info().format {
        Format::SetP | Format::Plop | Format::Vote => i.d & 7,
        Format::Shfl => (i.mods >> 2) & 7,
        _ => return None,
    };
    (p != PT).then_some(p)
}

/// Applies `f` to the predicate number (low 3 bits) of every read field of `m`.
fn map_reads(m: &mut MI, f: impl Fn(u8) -> u8) {
    let g = |x: u8| (x & !7) | f(x & 7);
    let i = &mut m.inst;
    i.guard.pred = f(i.guard.pred);
    match i.op.info().format {
        Format::SetP => i.d = (i.d & !0x38) | (f((i.d >> 3) & 7) << 3),
        Format::Sel => i.mods = g(i.mods),
        Format::Plop => {
            i.a = g(i.a);
            if let Operand::Reg(b) = i.b {
                i.b = Operand::Reg(g(b));
            }
        }
        Format::Vote | Format::Ballot | Format::BarRed => i.a = g(i.a),
        _ => {}
    }
}

/// Renames predicate `from` to `to` in the read fields of `m`.
fn rename_reads(m: &mut MI, from: u8, to: u8) {
    map_reads(m, |p| if p == from { to } else { p });
}

/// Sets the predicate `m` writes.
fn set_write(m: &mut MI, to: u8) {
    let i = &mut m.inst;
    match i.op.info().format {
        Format::SetP | Format::Plop | Format::Vote => i.d = (i.d & !7) | to,
        Format::Shfl => i.mods = (i.mods & !0x1c) | (to << 2),
        _ => unreachable!("not a predicate-writing instruction"),
    }
}

/// `sel v, rz, 1, !P`: a predicate turned into 0/1 (P a scratch predicate).
fn sel01(m: &MI) -> Option<(VReg, u8)> {
    let Loc::R(v) = m.d else { return None };
    let p = m.inst.mods & 7;
    (m.inst.op == Opcode::Sel
        && m.inst.mods == p | 8
        && (p == PRED || p == PRED2)
        && m.a == Loc::Phys(RZ)
        && m.b == Src::Imm(1)
        && m.inst.guard == Guard::ALWAYS)
        .then_some((v, p))
}

/// `isetp.ne Q, v, rz`: a 0/1 register tested into scratch predicate Q.
fn test(m: &MI) -> Option<(VReg, u8)> {
    let Loc::R(v) = m.a else { return None };
    let q = m.inst.d & 7;
    (m.inst.op == Opcode::Isetp
        && m.inst.modifier(ModKind::ICmp) == ICmp::Ne.bits()
        && m.inst.modifier(ModKind::BoolOp) == BoolOp::And.bits()
        && m.inst.d >> 3 == PT
        && (q == PRED || q == PRED2)
        && m.b == Src::Loc(Loc::Phys(RZ))
        && m.inst.guard == Guard::ALWAYS)
        .then_some((v, q))
}

fn vregs_of(m: &MI) -> Vec<VReg> {
    let b = match m.b {
        Src::Loc(l) => l,
        Src::Imm(_) => Loc::None,
    };
    let mut v = vec![];
    for l in [m.d, m.a, b, m.c] {
        if let Loc::R(x) | Loc::Half(x, _) = l {
            v.push(x);
        }
    }
    v.extend(m.defines);
    v
}

/// `and/or/xor v, x, y`, `xor v, x, 1` (not) or `mov v, x` on 0/1 values:
/// (v, combine, (x, negated), y and whether negated; `None`: `pt`).
type Logic = (VReg, BoolOp, (VReg, bool), Option<(VReg, bool)>);

fn logic(m: &MI) -> Option<Logic> {
    let Loc::R(v) = m.d else { return None };
    if m.inst.guard != Guard::ALWAYS || m.inst.mods != 0 || m.inst.ext != 0 || m.c != Loc::None {
        return None;
    }
    let code = match m.inst.op {
        Opcode::And => BoolOp::And,
        Opcode::Or => BoolOp::Or,
        Opcode::Xor => BoolOp::Xor,
        Opcode::Mov => {
            return match (m.a, m.b) {
                (Loc::None, Src::Loc(Loc::R(x))) => Some((v, BoolOp::And, (x, false), None)),
                _ => None,
            }
        }
        _ => return None,
    };
    let Loc::R(x) = m.a else { return None };
    match m.b {
        Src::Loc(Loc::R(y)) => Some((v, code, (x, false), Some((y, false)))),
        Src::Imm(1) if code == BoolOp::Xor => Some((v, BoolOp::And, (x, true), None)),
        _ => None,
    }
}

/// A PTX predicate (or another 0/1 value) that may live in a predicate register.
struct Cand {
    /// Its live range: from its first definition to the last read of a test.
    start: usize,
    end: usize,
    v: usize,
    /// Its tests: (position, scratch predicate, positions that read it).
    tests: Vec<(usize, u8, Vec<usize>)>,
}

/// What the pass did to one function.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Promoted {
    /// PTX predicates now in predicate registers.
    pub in_preds: u32,
    /// Predicate registers used (p0..).
    pub preds_used: u32,
    /// PTX predicates that qualified but found no free predicate register.
    pub left_in_regs: u32,
}

fn find(parent: &mut [usize], x: usize) -> usize {
    let mut r = x;
    while parent[r] != r {
        r = parent[r];
    }
    let mut y = x;
    while parent[y] != r {
        let next = parent[y];
        parent[y] = r;
        y = next;
    }
    r
}

/// Allocates PTX predicates to p0..p{pool-1} (see the module docs).
pub fn promote(mis: Vec<MI>, words: &[u8], pool: u8) -> (Vec<MI>, Promoted) {
    let nv = words.len();
    let n = mis.len();
    // For each vreg: its defining sels (position, scratch P), its logic
    // definitions (position), its tests (position, Q), the logic
    // instructions that read it (position).
    let mut defs: Vec<Vec<(usize, u8)>> = vec![vec![]; nv];
    let mut ldefs: Vec<Vec<usize>> = vec![vec![]; nv];
    let mut uses: Vec<Vec<(usize, u8)>> = vec![vec![]; nv];
    let mut bad = vec![false; nv];
    let mut parent: Vec<usize> = (0..nv).collect();
    for (p, m) in mis.iter().enumerate() {
        if let Some((v, pr)) = sel01(m) {
            // Its producer: the instruction right before, unguarded, writing P.
            let ok = p > 0 && !mis[p - 1].is_pseudo() && writes(&mis[p - 1]) == Some(pr) && mis[p - 1].inst.guard == Guard::ALWAYS;
            if ok && !vregs_of(&mis[p - 1]).contains(&v) {
                defs[v as usize].push((p, pr));
                continue;
            }
        } else if let Some((v, q)) = test(m) {
            uses[v as usize].push((p, q));
            continue;
        } else if let Some((v, _, (x, _), y)) = logic(m) {
            // A logic instruction joins its operands and result: all of them
            // get predicate registers or none does.
            ldefs[v as usize].push(p);
            for o in std::iter::once(x).chain(y.map(|y| y.0)) {
                let (a, b) = (find(&mut parent, v as usize), find(&mut parent, o as usize));
                parent[a] = b;
            }
            continue;
        }
        for v in vregs_of(m) {
            bad[v as usize] = true;
        }
    }
    // Where the scratch predicate written at `from` is read before it is written again.
    let readers = |from: usize, q: u8| -> Vec<usize> {
        let mut out = vec![];
        for (k, m) in mis.iter().enumerate().skip(from + 1) {
            if reads(m).contains(&q) {
                out.push(k);
            }
            if writes(m) == Some(q) {
                break;
            }
        }
        out
    };
    let calls: Vec<usize> = (0..n).filter(|&p| matches!(mis[p].inst.op, Opcode::Call | Opcode::Calli) && !mis[p].is_pseudo()).collect();
    let iv = intervals(&mis, nv);
    let mut cand: Vec<Option<Cand>> = (0..nv).map(|_| None).collect();
    for v in 0..nv {
        if bad[v] || words[v] != 1 || (defs[v].is_empty() && ldefs[v].is_empty()) {
            continue;
        }
        let Some((mut start, mut end)) = iv[v] else { continue };
        // The sel's scratch predicate must not be read afterwards (only the sel reads it).
        if defs[v].iter().any(|&(p, pr)| !readers(p, pr).is_empty()) {
            continue;
        }
        let def_pos: Vec<usize> = defs[v].iter().flat_map(|&(p, _)| [p - 1, p]).chain(ldefs[v].iter().copied()).collect();
        let mut tests = vec![];
        let mut ok = true;
        for &(p, q) in &uses[v] {
            let r = readers(p, q);
            let last = r.last().copied().unwrap_or(p);
            // No new value of v between the test and what reads it.
            if def_pos.iter().any(|&d| d > p && d <= last) {
                ok = false;
            }
            end = end.max(last);
            tests.push((p, q, r));
        }
        start = start.min(def_pos.iter().copied().min().unwrap_or(start));
        if !ok || calls.iter().any(|&c| c > start && c < end) {
            continue;
        }
        cand[v] = Some(Cand { start, end, v, tests });
    }
    // Groups joined by logic instructions, all members candidates.
    let mut groups: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for v in 0..nv {
        // Every vreg, bad ones included: a group with one that cannot be a
        // candidate stays in general registers whole.
        let r = find(&mut parent, v);
        groups.entry(r).or_default().push(v);
    }
    let mut order: Vec<Vec<usize>> = vec![];
    for (_, g) in groups {
        // A member that cannot be a candidate (or an operand that is not a
        // 0/1 value) sinks its group.
        if g.iter().all(|&v| cand[v].is_some()) && g.iter().all(|&v| ldefs[v].iter().all(|&p| logic(&mis[p]).is_some())) {
            order.push(g);
        }
    }
    // Operands of logic instructions must be members too (a vreg with no
    // definition the pass knows is not in any group as a candidate).
    order.retain(|g| {
        g.iter().all(|&v| {
            ldefs[v].iter().all(|&p| {
                let (_, _, (x, _), y) = logic(&mis[p]).expect("logic");
                cand[x as usize].is_some() && y.is_none_or(|(y, _)| cand[y as usize].is_some())
            })
        })
    });
    order.sort_by_key(|g| g.iter().map(|&v| cand[v].as_ref().map_or(usize::MAX, |c| c.start)).min());
    // Each predicate register's intervals; a group is placed whole or not at all.
    let mut taken: Vec<Vec<(usize, usize)>> = vec![vec![]; pool as usize];
    let mut home: Vec<Option<u8>> = vec![None; nv];
    let mut stats = Promoted::default();
    for g in &order {
        let mut members: Vec<&Cand> = g.iter().filter_map(|&v| cand[v].as_ref()).collect();
        members.sort_by_key(|c| (c.start, c.v));
        let mut placed: Vec<(usize, usize)> = vec![];
        for c in &members {
            let free = (0..pool as usize).find(|&k| taken[k].iter().all(|&(s, e)| e < c.start || c.end < s));
            match free {
                Some(k) => {
                    taken[k].push((c.start, c.end));
                    placed.push((c.v, k));
                }
                None => break,
            }
        }
        if placed.len() == members.len() {
            for &(v, k) in &placed {
                home[v] = Some(k as u8);
                stats.in_preds += 1;
                stats.preds_used = stats.preds_used.max(k as u32 + 1);
            }
        } else {
            for &(v, k) in &placed {
                let c = cand[v].as_ref().expect("candidate");
                taken[k].retain(|&x| x != (c.start, c.end));
            }
            stats.left_in_regs += members.len() as u32;
        }
    }
    let mut mis = mis;
    let mut dead = vec![false; n];
    for c in cand.iter().flatten() {
        let Some(pk) = home[c.v] else { continue };
        for &(p, _) in &defs[c.v] {
            set_write(&mut mis[p - 1], pk);
            dead[p] = true;
        }
        for &p in &ldefs[c.v] {
            let (_, code, (x, xn), y) = logic(&mis[p]).expect("logic");
            let px = home[x as usize].expect("operand promoted with its group");
            let pb = y.map_or(PT, |(y, yn)| home[y as usize].expect("operand promoted with its group") | (yn as u8) << 3);
            let mut pl = MI::new(Opcode::Plop);
            pl.inst.set(code);
            pl.inst.d = pk;
            pl.inst.a = px | (xn as u8) << 3;
            pl.inst.b = Operand::Reg(pb);
            pl.line = mis[p].line;
            mis[p] = pl;
        }
        for (p, q, r) in &c.tests {
            dead[*p] = true;
            for &k in r {
                rename_reads(&mut mis[k], *q, pk);
            }
        }
    }
    let out = mis.into_iter().zip(dead).filter(|(_, d)| !d).map(|(m, _)| m).collect();
    (out, stats)
}

/// Moves the scratch predicates to the SM's two highest (`preds` >= 2).
pub fn place_scratch(mis: &mut [MI], preds: u8) {
    let (hi, lo) = (preds - 1, preds - 2);
    if (hi, lo) == (PRED, PRED2) {
        return;
    }
    let map = |p: u8| match p {
        PRED => hi,
        PRED2 => lo,
        other => other,
    };
    for m in mis.iter_mut().filter(|m| !m.is_pseudo()) {
        let w = writes(m);
        map_reads(m, map);
        if let Some(p) = w {
            set_write(m, map(p));
        }
    }
}
