//! Reconvergence points: the immediate post-dominator of every branch, on
//! the basic blocks of one function. The compiler has its own post-dominator
//! analysis (`compiler/src/lower/`), and this one is written apart on
//! purpose: the PTX interpreter is an independent oracle for the compiler,
//! so it shares none of its analyses.

use super::ir::{Opd, PInst};
use heddle_compiler::ptx::insts::Op;

/// The reconvergence pc of a branch whose paths only meet at the function's
/// end: the ISA's, which no program reaches (programs are shorter than
/// `MAX_CODE`).
pub use heddle_isa::fields::EXIT_JOIN;

fn targets(i: &PInst) -> Vec<u32> {
    let mut v = vec![];
    let mut walk = |o: &Opd| {
        if let Opd::Label(t) = o {
            v.push(*t);
        }
    };
    for a in &i.args {
        match a {
            Opd::List(l) | Opd::Vec(l) => l.iter().for_each(&mut walk),
            o => walk(o),
        }
    }
    v
}

fn ends_block(i: &PInst) -> bool {
    matches!(i.op, Op::Bra | Op::Brx | Op::Ret | Op::Exit | Op::Trap)
}

/// For each instruction: the pc where the paths of a branch there meet again
/// (`EXIT_JOIN` if only at the end of the function; unused for non-branches).
pub fn reconvergence(insts: &[PInst]) -> Vec<u32> {
    let n = insts.len();
    if n == 0 {
        return vec![];
    }
    // Basic blocks.
    let mut leader = vec![false; n + 1];
    leader[0] = true;
    for (pc, i) in insts.iter().enumerate() {
        if i.op == Op::Bra || i.op == Op::Brx {
            for t in targets(i) {
                if (t as usize) < n {
                    leader[t as usize] = true;
                }
            }
        }
        if ends_block(i) {
            leader[pc + 1] = true;
        }
    }
    let starts: Vec<usize> = (0..n).filter(|&p| leader[p]).collect();
    let block_of = |pc: usize| starts.partition_point(|&s| s <= pc) - 1;
    let nb = starts.len();
    let exit = nb; // virtual exit node
    let mut succ: Vec<Vec<usize>> = vec![vec![]; nb];
    for b in 0..nb {
        let end = if b + 1 < nb { starts[b + 1] } else { n };
        let last = &insts[end - 1];
        let fall = if end < n { block_of(end) } else { exit };
        let guarded = last.guard.is_some();
        match last.op {
            Op::Bra | Op::Brx => {
                for t in targets(last) {
                    succ[b].push(if (t as usize) < n { block_of(t as usize) } else { exit });
                }
                if guarded || last.op == Op::Brx && targets(last).is_empty() {
                    succ[b].push(fall);
                }
            }
            Op::Ret | Op::Exit | Op::Trap => {
                succ[b].push(exit);
                if guarded {
                    succ[b].push(fall);
                }
            }
            _ => succ[b].push(fall),
        }
    }
    // Post-dominator sets by iteration (sets as bit vectors over nb + 1 nodes).
    let words = (nb + 1).div_ceil(64);
    let full = vec![u64::MAX; words];
    let mut pdom: Vec<Vec<u64>> = vec![full.clone(); nb + 1];
    pdom[exit] = vec![0; words];
    pdom[exit][exit / 64] |= 1 << (exit % 64);
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
            if succ[b].is_empty() {
                s = vec![0; words];
            }
            s[b / 64] |= 1 << (b % 64);
            if s != pdom[b] {
                pdom[b] = s;
                changed = true;
            }
        }
    }
    let has = |set: &Vec<u64>, x: usize| set[x / 64] >> (x % 64) & 1 == 1;
    let count = |set: &Vec<u64>| set.iter().map(|w| w.count_ones()).sum::<u32>();
    let mut rpc = vec![EXIT_JOIN; n];
    for b in 0..nb {
        let end = if b + 1 < nb { starts[b + 1] } else { n };
        // The immediate post-dominator: the strict post-dominator with the largest set.
        let own = count(&pdom[b]);
        let ipdom = (0..=nb).filter(|&x| x != b && has(&pdom[b], x)).find(|&x| count(&pdom[x]) == own - 1);
        rpc[end - 1] = match ipdom {
            Some(x) if x < nb => starts[x] as u32,
            _ => EXIT_JOIN,
        };
    }
    rpc
}
