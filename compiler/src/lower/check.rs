//! The register-allocation checker: runs the allocated code symbolically and
//! checks that every operand reads the value the instruction selection
//! meant, as regalloc2's checker does. It does not trust the allocator's
//! liveness: a wrong interval, a clobbered register, a spill slot shared by
//! two live values or a missing reload or caller save all show up as an
//! operand that reads some other value.
//!
//! The abstract state maps each register and each word of the frame (by its
//! offset from the stack pointer at entry) to the set of values it holds (a
//! value is one word of a virtual register: `(v, k)`); at entry nothing
//! holds anything. PTX may read a register before writing it (its value is
//! then undefined): a virtual register live into the function's entry may
//! be read from anywhere.
//! An instruction of the input defines the words of its destination and
//! checks its sources; the allocator's own spill, reload and save code only
//! copies between registers and frame words; a call clobbers every
//! register. A guarded definition counts as a definition: a value keeps one
//! register for the whole span of its uses and definitions, so the lanes
//! it does not write still hold the value. Where paths meet, a location
//! holds what it holds on all of them. The state is computed to a fixed
//! point over the basic blocks.

use super::cfg::blocks;
use super::mir::*;
use heddle_isa::fields::RZ;
use heddle_isa::Opcode;
use std::collections::BTreeMap;

/// One word of a virtual register.
type Value = (VReg, u8);

/// A register or a frame word (bytes from the stack pointer at entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Place {
    Reg(u8),
    Frame(i64),
}

/// What each place holds (a place missing from the map holds nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
struct State {
    holds: BTreeMap<Place, Vec<Value>>,
    /// Stack-pointer displacement from entry (calls move it and back).
    sp: i64,
}

impl State {
    fn entry() -> State {
        State { holds: BTreeMap::new(), sp: 0 }
    }

    fn has(&self, p: Place, v: Value) -> bool {
        self.holds.get(&p).is_some_and(|s| s.contains(&v))
    }

    fn set(&mut self, p: Place, vals: Vec<Value>) {
        self.holds.insert(p, vals);
    }

    fn copy(&mut self, from: Place, to: Place) {
        match self.holds.get(&from).cloned() {
            Some(s) => self.set(to, s),
            None => {
                self.holds.remove(&to);
            }
        }
    }

    /// What two paths agree on.
    fn meet(&self, o: &State) -> State {
        let mut holds = BTreeMap::new();
        for (p, a) in &self.holds {
            if let Some(b) = o.holds.get(p) {
                let both: Vec<Value> = a.iter().filter(|v| b.contains(v)).copied().collect();
                if !both.is_empty() {
                    holds.insert(*p, both);
                }
            }
        }
        State { holds, sp: self.sp }
    }
}

/// The values an input operand names, and the first register it occupies in
/// the output (None: not a register of a virtual value, or discarded).
fn operand(input: Loc, output: Loc, words: &[u8]) -> Option<(Vec<Value>, u8)> {
    let vals = match input {
        Loc::R(v) => (0..words.get(v as usize).copied().unwrap_or(1)).map(|k| (v, k)).collect(),
        Loc::Half(v, k) => vec![(v, k)],
        _ => return None,
    };
    match output {
        Loc::Phys(r) if r != RZ => Some((vals, r)),
        _ => None,
    }
}

/// The frame word an allocator-added `ld`/`st` at `[SP + off]` touches.
fn frame_word(m: &MI, sp: i64) -> Option<Place> {
    match (m.a, m.b) {
        (Loc::Phys(SP), Src::Imm(off)) => Some(Place::Frame(sp + off as i64)),
        _ => None,
    }
}

/// Runs one instruction on the state; with `check`, a source that does not
/// hold its value is an error.
fn step(st: &mut State, m: &MI, input: Option<&MI>, words: &[u8], undefined: &[u64], at: usize, check: bool) -> Result<(), String> {
    let Some(i) = input else {
        // The allocator's own code: a reload or a spill or save store.
        let Loc::Phys(r) = m.d else { return Ok(()) };
        if let Some(slot) = frame_word(m, st.sp) {
            match m.inst.op {
                Opcode::Ld => st.copy(slot, Place::Reg(r)),
                Opcode::St => st.copy(Place::Reg(r), slot),
                _ => {}
            }
        }
        return Ok(());
    };
    let writes = m.inst.op.info().format.writes_d();
    let b = |s: Src| match s {
        Src::Loc(l) => l,
        Src::Imm(_) => Loc::None,
    };
    let mut sources = vec![(i.a, m.a), (b(i.b), b(m.b)), (i.c, m.c)];
    if !writes {
        sources.push((i.d, m.d));
    }
    if check {
        for (inp, out) in sources {
            let Some((vals, r)) = operand(inp, out, words) else { continue };
            for (n, v) in vals.into_iter().enumerate() {
                let p = Place::Reg(r + n as u8);
                let may_be_undefined = undefined.get(v.0 as usize / 64).is_some_and(|w| w >> (v.0 % 64) & 1 == 1);
                if !st.has(p, v) && !may_be_undefined {
                    let held: Vec<String> = st.holds.get(&p).into_iter().flatten().map(|(x, k)| format!("v{x}.{k}")).collect();
                    return Err(format!(
                        "instruction {at} ({:?}) reads r{} for v{}.{}, which holds {} there",
                        m.inst.op,
                        r + n as u8,
                        v.0,
                        v.1,
                        if held.is_empty() { "no value".to_string() } else { held.join(", ") }
                    ));
                }
            }
        }
    }
    // Effects.
    match (m.inst.op, m.d, m.b) {
        (Opcode::Add, Loc::Phys(SP), Src::Imm(n)) if m.a == Loc::Phys(SP) => st.sp += n as i32 as i64,
        (Opcode::Sub, Loc::Phys(SP), Src::Imm(n)) if m.a == Loc::Phys(SP) => st.sp -= n as i32 as i64,
        (_, Loc::Phys(SP), _) => st.sp = 0,
        _ => {}
    }
    if matches!(m.inst.op, Opcode::Call | Opcode::Calli) {
        // The callee may write any register.
        st.holds.retain(|p, _| !matches!(p, Place::Reg(_)));
    }
    if m.inst.op == Opcode::St {
        // The program's own store into the frame: those words now hold data, not values.
        if let Some(Place::Frame(w)) = frame_word(m, st.sp) {
            let bytes = m.inst.reg_counts()[0] as i64 * 4;
            for k in (0..bytes).step_by(4) {
                st.holds.remove(&Place::Frame(w + k));
            }
        }
    }
    if writes {
        match (operand(i.d, m.d, words), m.d) {
            (Some((vals, r)), _) => {
                for (n, v) in vals.into_iter().enumerate() {
                    st.set(Place::Reg(r + n as u8), vec![v]);
                }
            }
            (None, Loc::Phys(r)) if r != RZ && r != SP => {
                // A write to a fixed register: whatever was there is gone.
                for n in 0..m.inst.reg_counts()[0] {
                    st.holds.remove(&Place::Reg(r + n));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Checks allocated code `out` against the input `input` it was rewritten
/// from (`origin[k]`: the input instruction of `out[k]`, `None` for code
/// the allocator added); `words` gives each virtual register's size.
pub fn check(input: &[MI], out: &[MI], origin: &[Option<usize>], words: &[u8]) -> Result<(), String> {
    let undefined = super::regalloc::live_in(input, words.len()).into_iter().next().unwrap_or_default();
    let (ranges, succ) = blocks(out);
    let nb = ranges.len();
    let mut preds = vec![vec![]; nb];
    for (b, s) in succ.iter().enumerate() {
        for &t in s {
            preds[t].push(b);
        }
    }
    let mut state_out: Vec<Option<State>> = vec![None; nb];
    let state_in = |b: usize, outs: &[Option<State>]| -> Option<State> {
        if b == 0 {
            return Some(State::entry());
        }
        preds[b]
            .iter()
            .filter_map(|&p| outs[p].as_ref())
            .fold(None, |acc: Option<State>, s| Some(acc.map_or_else(|| s.clone(), |a| a.meet(s))))
    };
    let run = |b: usize, mut st: State, check: bool| -> Result<State, String> {
        for k in ranges[b].0..ranges[b].1 {
            let m = &out[k];
            if m.is_pseudo() {
                continue;
            }
            let i = origin.get(k).copied().flatten().map(|p| &input[p]);
            step(&mut st, m, i, words, &undefined, k, check)?;
        }
        Ok(st)
    };
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..nb {
            let Some(st) = state_in(b, &state_out) else { continue };
            let new = run(b, st, false)?;
            if state_out[b].as_ref() != Some(&new) {
                state_out[b] = Some(new);
                changed = true;
            }
        }
    }
    for b in 0..nb {
        if let Some(st) = state_in(b, &state_out) {
            run(b, st, true)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use heddle_isa::values::{Space, Width};

    fn mi(op: Opcode, d: Loc, a: Loc, b: Src) -> MI {
        let mut m = MI::new(op);
        (m.d, m.a, m.b) = (d, a, b);
        m
    }
    fn frame(op: Opcode, r: u8, off: u32) -> MI {
        let mut m = mi(op, Loc::Phys(r), Loc::Phys(SP), Src::Imm(off));
        m.inst.set(Space::Local);
        m.inst.set(Width::B32);
        m
    }
    use Loc::{Phys as P, R};

    /// v0 = 1; v1 = 2; v2 = v0 + v1; st [v2], v2.
    fn input() -> Vec<MI> {
        vec![
            mi(Opcode::Mov, R(0), Loc::None, Src::Imm(1)),
            mi(Opcode::Mov, R(1), Loc::None, Src::Imm(2)),
            mi(Opcode::Add, R(2), R(0), Src::Loc(R(1))),
            mi(Opcode::St, R(2), R(2), Src::Imm(0)),
        ]
    }
    const WORDS: &[u8] = &[1, 1, 1];

    #[test]
    fn a_good_allocation_passes() {
        let out = vec![
            mi(Opcode::Mov, P(0), Loc::None, Src::Imm(1)),
            mi(Opcode::Mov, P(1), Loc::None, Src::Imm(2)),
            mi(Opcode::Add, P(0), P(0), Src::Loc(P(1))),
            mi(Opcode::St, P(0), P(0), Src::Imm(0)),
        ];
        assert_eq!(check(&input(), &out, &[Some(0), Some(1), Some(2), Some(3)], WORDS), Ok(()));
    }

    #[test]
    fn two_live_values_in_one_register_fail() {
        let out = vec![
            mi(Opcode::Mov, P(0), Loc::None, Src::Imm(1)),
            mi(Opcode::Mov, P(0), Loc::None, Src::Imm(2)),
            mi(Opcode::Add, P(1), P(0), Src::Loc(P(0))),
            mi(Opcode::St, P(1), P(1), Src::Imm(0)),
        ];
        let e = check(&input(), &out, &[Some(0), Some(1), Some(2), Some(3)], WORDS).unwrap_err();
        assert!(e.contains("reads r0 for v0.0, which holds v1.0"), "{e}");
    }

    #[test]
    fn a_spill_needs_its_reload() {
        // v0 spilled to [SP+0] through scratch r2, which v1 then takes; v0 reloaded into r3.
        let good = vec![
            mi(Opcode::Mov, P(2), Loc::None, Src::Imm(1)),
            frame(Opcode::St, 2, 0),
            mi(Opcode::Mov, P(2), Loc::None, Src::Imm(2)),
            frame(Opcode::Ld, 3, 0),
            mi(Opcode::Add, P(1), P(3), Src::Loc(P(2))),
            mi(Opcode::St, P(1), P(1), Src::Imm(0)),
        ];
        let origin = [Some(0), None, Some(1), None, Some(2), Some(3)];
        assert_eq!(check(&input(), &good, &origin, WORDS), Ok(()));
        let mut no_reload = good.clone();
        no_reload[3] = mi(Opcode::Nop, Loc::None, Loc::None, Src::Imm(0));
        let e = check(&input(), &no_reload, &origin, WORDS).unwrap_err();
        assert!(e.contains("instruction 4") && e.contains("r3"), "{e}");
        let mut wrong_slot = good;
        wrong_slot[3] = frame(Opcode::Ld, 3, 4);
        assert!(check(&input(), &wrong_slot, &origin, WORDS).is_err());
    }

    #[test]
    fn a_frame_store_over_a_spill_slot_fails() {
        // The program stores v1 to the frame word where v0 is spilled.
        let mut store = mi(Opcode::St, R(1), Loc::Phys(SP), Src::Imm(0));
        store.inst.set(Width::B32);
        let input = vec![
            mi(Opcode::Mov, R(0), Loc::None, Src::Imm(1)),
            mi(Opcode::Mov, R(1), Loc::None, Src::Imm(2)),
            store,
            mi(Opcode::Add, R(2), R(0), Src::Loc(R(0))),
            mi(Opcode::St, R(2), R(2), Src::Imm(0)),
        ];
        let mut out_store = mi(Opcode::St, P(1), P(SP), Src::Imm(0));
        out_store.inst.set(Width::B32);
        let out = |slot: u32| {
            vec![
                mi(Opcode::Mov, P(0), Loc::None, Src::Imm(1)),
                frame(Opcode::St, 0, slot),
                mi(Opcode::Mov, P(1), Loc::None, Src::Imm(2)),
                out_store.clone(),
                frame(Opcode::Ld, 0, slot),
                mi(Opcode::Add, P(2), P(0), Src::Loc(P(0))),
                mi(Opcode::St, P(2), P(2), Src::Imm(0)),
            ]
        };
        let origin = [Some(0), None, Some(1), Some(2), None, Some(3), Some(4)];
        assert_eq!(check(&input, &out(8), &origin, WORDS), Ok(()));
        assert!(check(&input, &out(0), &origin, WORDS).is_err());
    }

    #[test]
    fn a_call_clobbers_what_is_not_saved() {
        let input = vec![mi(Opcode::Mov, R(0), Loc::None, Src::Imm(1)), MI::new(Opcode::Call), mi(Opcode::St, R(0), R(0), Src::Imm(0))];
        let unsaved = vec![mi(Opcode::Mov, P(0), Loc::None, Src::Imm(1)), MI::new(Opcode::Call), mi(Opcode::St, P(0), P(0), Src::Imm(0))];
        assert!(check(&input, &unsaved, &[Some(0), Some(1), Some(2)], &[1]).is_err());
        let saved = vec![
            mi(Opcode::Mov, P(0), Loc::None, Src::Imm(1)),
            frame(Opcode::St, 0, 8),
            MI::new(Opcode::Call),
            frame(Opcode::Ld, 0, 8),
            mi(Opcode::St, P(0), P(0), Src::Imm(0)),
        ];
        assert_eq!(check(&input, &saved, &[Some(0), None, Some(1), None, Some(2)], &[1]), Ok(()));
    }

    #[test]
    fn paths_must_agree_where_they_meet() {
        // if (p) v1 = 2 else v0 = 3 (clobbering v0's register on one path only); use v0.
        let mut bra = mi(Opcode::Bra, Loc::None, Loc::None, Src::Imm(0));
        bra.target = Some(7);
        bra.inst.guard = heddle_isa::Guard { pred: 0, neg: false };
        let mut label = MI::new(Opcode::Nop);
        label.label = Some(7);
        let input = vec![
            mi(Opcode::Mov, R(0), Loc::None, Src::Imm(1)),
            bra.clone(),
            mi(Opcode::Mov, R(1), Loc::None, Src::Imm(2)),
            label.clone(),
            mi(Opcode::St, R(0), R(0), Src::Imm(0)),
        ];
        let out = vec![
            mi(Opcode::Mov, P(0), Loc::None, Src::Imm(1)),
            bra,
            mi(Opcode::Mov, P(0), Loc::None, Src::Imm(2)),
            label,
            mi(Opcode::St, P(0), P(0), Src::Imm(0)),
        ];
        let origin = [Some(0), Some(1), Some(2), Some(3), Some(4)];
        let e = check(&input, &out, &origin, &[1, 1]).unwrap_err();
        assert!(e.contains("v0.0") && e.contains("no value"), "{e}");
    }
}
