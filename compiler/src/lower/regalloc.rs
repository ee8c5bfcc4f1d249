//! Register allocation: liveness on the machine IR's basic blocks, one live
//! interval per virtual register, linear scan over the registers the budget
//! leaves (pairs and groups aligned, packed from r0 up), spilling the
//! interval that ends last to the frame in local memory, scratch registers
//! for spill code placed right above the allocated ones (only as many as
//! the spill code needs), and caller-saved registers stored around calls. The checker (`lower::check`)
//! runs the result symbolically in debug builds and tests.

use super::cfg::blocks;
use super::mir::*;
use heddle_isa::fields::RZ;
use heddle_isa::values::{Space, Width};
use heddle_isa::Opcode;

/// Where a virtual register ended up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Home {
    Reg(u8),
    /// Frame offset of its spill slot.
    Slot(u32),
}

fn writes_d(op: Opcode) -> bool {
    op.info().format.writes_d()
}

fn vreg_of(l: Loc) -> Option<VReg> {
    match l {
        Loc::R(v) | Loc::Half(v, _) => Some(v),
        _ => None,
    }
}

/// (defs, uses) of one instruction.
pub fn defs_uses(m: &MI) -> (Vec<VReg>, Vec<VReg>) {
    if let Some(v) = m.defines {
        return (vec![v], vec![]);
    }
    let mut defs = vec![];
    let mut uses = vec![];
    let op = m.inst.op;
    if writes_d(op) {
        defs.extend(vreg_of(m.d));
    } else {
        uses.extend(vreg_of(m.d));
    }
    uses.extend(vreg_of(m.a));
    if let Src::Loc(l) = m.b {
        uses.extend(vreg_of(l));
    }
    uses.extend(vreg_of(m.c));
    (defs, uses)
}

/// The virtual registers live into each basic block of `blocks(mis)`, as
/// bit sets (bit v of word v / 64).
pub fn live_in(mis: &[MI], nv: usize) -> Vec<Vec<u64>> {
    let (ranges, succ) = blocks(mis);
    let words = nv.div_ceil(64).max(1);
    let nb = ranges.len();
    let mut live_in = vec![vec![0u64; words]; nb];
    let mut changed = true;
    let set = |s: &mut Vec<u64>, v: VReg| s[v as usize / 64] |= 1 << (v % 64);
    let clear = |s: &mut Vec<u64>, v: VReg| s[v as usize / 64] &= !(1 << (v % 64));
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let mut live = vec![0u64; words];
            for &s in &succ[b] {
                for (x, y) in live.iter_mut().zip(&live_in[s]) {
                    *x |= y;
                }
            }
            for p in (ranges[b].0..ranges[b].1).rev() {
                let (d, u) = defs_uses(&mis[p]);
                for v in d {
                    clear(&mut live, v);
                }
                for v in u {
                    set(&mut live, v);
                }
            }
            if live != live_in[b] {
                live_in[b] = live;
                changed = true;
            }
        }
    }
    live_in
}

/// Live interval [start, end] of every virtual register (None if it never occurs).
pub fn intervals(mis: &[MI], nv: usize) -> Vec<Option<(usize, usize)>> {
    let (ranges, succ) = blocks(mis);
    let words = nv.div_ceil(64).max(1);
    let nb = ranges.len();
    let live_in = live_in(mis, nv);
    let set = |s: &mut Vec<u64>, v: VReg| s[v as usize / 64] |= 1 << (v % 64);
    let clear = |s: &mut Vec<u64>, v: VReg| s[v as usize / 64] &= !(1 << (v % 64));
    let mut iv: Vec<Option<(usize, usize)>> = vec![None; nv];
    let mut touch = |v: usize, p: usize| {
        iv[v] = Some(match iv[v] {
            None => (p, p),
            Some((s, e)) => (s.min(p), e.max(p)),
        })
    };
    for b in 0..nb {
        let mut live = vec![0u64; words];
        for &s in &succ[b] {
            for (x, y) in live.iter_mut().zip(&live_in[s]) {
                *x |= y;
            }
        }
        let end = ranges[b].1;
        for (w, bits) in live.iter().enumerate() {
            let mut m = *bits;
            while m != 0 {
                let v = w * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                touch(v, end.saturating_sub(1));
            }
        }
        for p in (ranges[b].0..ranges[b].1).rev() {
            let (d, u) = defs_uses(&mis[p]);
            for v in &d {
                touch(*v as usize, p);
                clear(&mut live, *v);
            }
            for v in u {
                touch(v as usize, p);
                set(&mut live, v);
            }
            for (w, bits) in live.iter().enumerate() {
                let mut m = *bits;
                while m != 0 {
                    let v = w * 64 + m.trailing_zeros() as usize;
                    m &= m - 1;
                    touch(v, p);
                }
            }
        }
    }
    iv
}

pub struct Result {
    pub mis: Vec<MI>,
    /// For each instruction of `mis`, the input instruction it rewrites
    /// (`None`: spill, reload or caller-save code the allocator added).
    pub origin: Vec<Option<usize>>,
    /// Frame bytes including spill and save slots.
    pub frame: u32,
    pub homes: Vec<Option<Home>>,
    /// Registers the function needs: r0..r{regs-1}, its spill scratch included
    /// (not the stack pointer, which sits above every function's registers).
    pub regs: u32,
    /// Spill code: words stored to and loaded from spill slots (static counts).
    pub spill_stores: u32,
    pub spill_loads: u32,
}

/// Why a function does not fit its register budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooFew {
    /// Registers the allocation needed at least.
    pub need: u32,
}

/// Alignment of a register group of `w` words: pairs and wider groups start
/// at an even register.
fn align_of(w: usize) -> usize {
    if w >= 2 {
        2
    } else {
        1
    }
}

/// Linear scan over r0..r{area-1}: returns the homes. Intervals that do not
/// fit spill (the one that ends last goes to the frame); groups wider than a
/// pair (system-call arguments) never spill. Err: a group does not fit at all.
fn scan(words: &[u8], iv: &[Option<(usize, usize)>], area: usize, frame: &mut u32) -> std::result::Result<Vec<Option<Home>>, TooFew> {
    let nv = words.len();
    let mut order: Vec<usize> = (0..nv).filter(|&v| iv[v].is_some()).collect();
    order.sort_by_key(|&v| iv[v].map(|x| x.0));
    let mut homes: Vec<Option<Home>> = vec![None; nv];
    // Which vreg holds each register.
    let mut owner: Vec<Option<usize>> = vec![None; area];
    let spillable = |v: usize| words[v] <= 2;
    // Spilled values get their slots after the scan (shared where their
    // intervals do not overlap); a placeholder until then.
    let slot = |_: u8, _: &mut u32| Home::Slot(u32::MAX);
    for v in order {
        let (start, end) = iv[v].expect("interval");
        // Expire intervals that ended.
        for o in owner.iter_mut() {
            if let Some(a) = *o {
                if iv[a].expect("interval").1 < start {
                    *o = None;
                }
            }
        }
        let w = words[v] as usize;
        if w > area {
            return Err(TooFew { need: w as u32 });
        }
        let positions = || (0..=area - w).step_by(align_of(w));
        if let Some(r) = positions().find(|&r| owner[r..r + w].iter().all(Option::is_none)) {
            owner[r..r + w].fill(Some(v));
            homes[v] = Some(Home::Reg(r as u8));
            continue;
        }
        // No room: the position whose occupants end last (all spillable) is
        // freed if they end after this interval, or if this one cannot spill.
        let best = positions()
            .filter_map(|r| {
                let occ: Vec<usize> = owner[r..r + w].iter().flatten().copied().collect();
                if occ.iter().all(|&a| spillable(a)) {
                    let min_end = occ.iter().map(|&a| iv[a].expect("interval").1).min().unwrap_or(usize::MAX);
                    Some((min_end, r))
                } else {
                    None
                }
            })
            .max();
        match best {
            Some((min_end, r)) if min_end > end || !spillable(v) => {
                let occ: Vec<usize> = owner[r..r + w].iter().flatten().copied().collect();
                for a in occ {
                    for o in owner.iter_mut().filter(|o| **o == Some(a)) {
                        *o = None;
                    }
                    homes[a] = Some(slot(words[a], frame));
                }
                owner[r..r + w].fill(Some(v));
                homes[v] = Some(Home::Reg(r as u8));
            }
            _ if spillable(v) => homes[v] = Some(slot(words[v], frame)),
            _ => return Err(TooFew { need: area as u32 + 1 }),
        }
    }
    // Slots: by interval start, each reusing a slot of its size whose
    // occupants have all ended.
    let mut spilled: Vec<usize> = (0..nv).filter(|&v| homes[v] == Some(Home::Slot(u32::MAX))).collect();
    spilled.sort_by_key(|&v| iv[v].map(|x| x.0));
    let mut slots: Vec<(u32, u8, usize)> = vec![]; // (offset, words, last end)
    for v in spilled {
        let (start, end) = iv[v].expect("interval");
        let w = words[v];
        let off = match slots.iter_mut().find(|s| s.1 == w && s.2 < start) {
            Some(s) => {
                s.2 = end;
                s.0
            }
            None => {
                let o = *frame;
                *frame += 4 * w as u32;
                slots.push((o, w, end));
                o
            }
        };
        homes[v] = Some(Home::Slot(off));
    }
    Ok(homes)
}

/// The spilled operands of one instruction: (operand index: d a b c, words).
fn spilled_operands(m: &MI, words: &[u8], homes: &[Option<Home>]) -> Vec<(usize, u8)> {
    let b = match m.b {
        Src::Loc(l) => l,
        Src::Imm(_) => Loc::None,
    };
    let mut out = vec![];
    for (k, l) in [m.d, m.a, b, m.c].into_iter().enumerate() {
        let w = match l {
            Loc::R(v) => words[v as usize],
            Loc::Half(..) => 1,
            _ => continue,
        };
        if let Some(v) = vreg_of(l) {
            if matches!(homes[v as usize], Some(Home::Slot(_))) {
                out.push((k, w));
            }
        }
    }
    out
}

/// Scratch offsets (from an even base) for the spilled operands of one
/// instruction: pairs first at even offsets, then single words; each operand
/// gets its own registers. Returns (offset per operand index, words needed).
fn scratch_layout(ops: &[(usize, u8)]) -> ([u8; 4], u8) {
    let mut off = [0u8; 4];
    let mut next = 0u8;
    let mut sorted = ops.to_vec();
    sorted.sort_by_key(|&(k, w)| (std::cmp::Reverse(w), k));
    for (k, w) in sorted {
        if w >= 2 {
            next = next.div_ceil(2) * 2;
        }
        off[k] = next;
        next += w;
    }
    (off, next)
}

/// Allocates registers within r0..r{avail-1}; `frame` is the frame size
/// before spill slots. Spill scratch is reserved above the allocated
/// registers only as far as the spill code needs it: the scan is repeated
/// with a smaller area until the scratch fits.
pub fn allocate(mis: Vec<MI>, words: &[u8], frame: u32, avail: u32) -> std::result::Result<Result, TooFew> {
    let nv = words.len();
    let iv = intervals(&mis, nv);
    let avail = avail.min(SPILL_LIMIT as u32) as usize;
    let mut reserve = 0usize;
    loop {
        if reserve >= avail {
            return Err(TooFew { need: avail as u32 + 1 });
        }
        let mut fr = frame.div_ceil(8) * 8;
        let homes = scan(words, &iv, avail - reserve, &mut fr).map_err(|e| TooFew { need: e.need + reserve as u32 })?;
        let used = (0..nv)
            .filter_map(|v| match homes[v] {
                Some(Home::Reg(r)) => Some(r as usize + words[v] as usize),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        let need = mis
            .iter()
            .filter(|m| m.defines.is_none())
            .map(|m| scratch_layout(&spilled_operands(m, words, &homes)).1 as usize)
            .max()
            .unwrap_or(0);
        // Pairs in scratch need an even base; single words take any.
        let pairs = mis.iter().filter(|m| m.defines.is_none()).any(|m| spilled_operands(m, words, &homes).iter().any(|&(_, w)| w >= 2));
        let base = if pairs { used.div_ceil(2) * 2 } else { used };
        if base + need <= avail {
            let (out, fr, stores, loads) = rewrite(mis, words, &homes, &iv, fr, base as u8);
            let (mis, origin) = out.into_iter().unzip();
            return Ok(Result {
                mis,
                origin,
                frame: fr.div_ceil(16) * 16,
                homes,
                regs: (base + need) as u32,
                spill_stores: stores,
                spill_loads: loads,
            });
        }
        // One register more for scratch each time: the first that fits leaves the most for values.
        reserve += 1;
    }
}

fn local(op: Opcode, reg: u8, off: u32) -> MI {
    let mut m = MI::new(op);
    m.inst.set(Space::Local);
    m.inst.set(Width::B32);
    m.d = Loc::Phys(reg);
    m.a = Loc::Phys(SP);
    m.b = Src::Imm(off);
    m
}

/// Physical operands, reloads and spill stores, and caller saves around calls.
/// Spilled operands go through scratch registers from `scratch` up. Each
/// output instruction comes with the input instruction it rewrites, if any.
fn rewrite(
    mis: Vec<MI>,
    words: &[u8],
    homes: &[Option<Home>],
    iv: &[Option<(usize, usize)>],
    mut frame: u32,
    scratch: u8,
) -> (Vec<(MI, Option<usize>)>, u32, u32, u32) {
    let mut out: Vec<(MI, Option<usize>)> = Vec::with_capacity(mis.len());
    let added = |m: MI| (m, None);
    let mut save_slot: Vec<Option<u32>> = vec![None; homes.len()];
    let mut restores: Vec<MI> = vec![];
    let (mut stores, mut loads) = (0u32, 0u32);
    // Maps an operand; spilled registers go through `scratch` with loads before (uses)
    // or stores after (definitions).
    let place = |l: Loc, scratch: u8, def: bool, pre: &mut Vec<MI>, post: &mut Vec<MI>| -> Loc {
        let (v, half) = match l {
            Loc::R(v) => (v as usize, None),
            Loc::Half(v, k) => (v as usize, Some(k)),
            other => return other,
        };
        match homes[v] {
            Some(Home::Reg(r)) => Loc::Phys(r + half.unwrap_or(0)),
            Some(Home::Slot(off)) => {
                let ws: Vec<u8> = match half {
                    Some(k) => vec![k],
                    None => (0..words[v]).collect(),
                };
                for (n, k) in ws.iter().enumerate() {
                    let m = local(if def { Opcode::St } else { Opcode::Ld }, scratch + n as u8, off + 4 * *k as u32);
                    if def {
                        post.push(m)
                    } else {
                        pre.push(m)
                    }
                }
                Loc::Phys(scratch)
            }
            // Never live (a write nobody reads): discard.
            None => Loc::Phys(RZ),
        }
    };
    for (p, m) in mis.iter().enumerate() {
        if m.defines.is_some() {
            continue;
        }
        let mut m = m.clone();
        let mut pre = vec![];
        let mut post = vec![];
        let def = writes_d(m.inst.op);
        let (off, _) = scratch_layout(&spilled_operands(&m, words, homes));
        m.a = place(m.a, scratch + off[1], false, &mut pre, &mut post);
        if let Src::Loc(l) = m.b {
            m.b = Src::Loc(place(l, scratch + off[2], false, &mut pre, &mut post));
        }
        m.c = place(m.c, scratch + off[3], false, &mut pre, &mut post);
        m.d = place(m.d, scratch + off[0], def, &mut pre, &mut post);
        loads += pre.len() as u32;
        stores += post.len() as u32;
        // A guarded definition stores its spill only where it executed.
        for s in post.iter_mut() {
            s.inst.guard = m.inst.guard;
        }
        if matches!(m.inst.op, Opcode::Call | Opcode::Calli) {
            // Caller saves: registers live across the call, stored before the SP
            // adjustment that precedes it and restored after the one that follows.
            let adj = out.pop();
            for v in 0..homes.len() {
                if let (Some(Home::Reg(r)), Some((s, e))) = (homes[v], iv[v]) {
                    if s < p && e > p {
                        let slot = *save_slot[v].get_or_insert_with(|| {
                            let o = frame;
                            frame += 4 * words[v] as u32;
                            o
                        });
                        for k in 0..words[v] {
                            out.push(added(local(Opcode::St, r + k, slot + 4 * k as u32)));
                            restores.push(local(Opcode::Ld, r + k, slot + 4 * k as u32));
                        }
                    }
                }
            }
            // A spilled call target reloads from the caller's frame, before the
            // stack pointer moves to the callee's.
            out.extend(pre.drain(..).map(added));
            out.extend(adj);
        }
        let sp_adjust = m.d == Loc::Phys(SP) && m.inst.op == Opcode::Sub;
        out.extend(pre.into_iter().map(added));
        out.push((m, Some(p)));
        out.extend(post.into_iter().map(added));
        if sp_adjust {
            out.extend(restores.drain(..).map(added));
        }
    }
    (out, frame, stores, loads)
}

/// Checks rewritten code against the function's register count: every
/// register operand is below `regs`, the stack pointer or `rz`.
pub fn check_budget(mis: &[MI], regs: u32) -> std::result::Result<(), String> {
    for m in mis.iter().filter(|m| !m.is_pseudo()) {
        let b = match m.b {
            Src::Loc(l) => l,
            Src::Imm(_) => Loc::None,
        };
        for l in [m.d, m.a, b, m.c] {
            match l {
                Loc::Phys(r) if r == SP || r == RZ || (r as u32) < regs => {}
                Loc::None => {}
                Loc::Phys(r) => return Err(format!("{:?} uses r{r}, beyond the function's {regs} registers", m.inst.op)),
                other => return Err(format!("{:?} has an unallocated operand {other:?}", m.inst.op)),
            }
        }
    }
    Ok(())
}
