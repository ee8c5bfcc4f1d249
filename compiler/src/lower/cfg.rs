//! The control-flow graph of machine IR: basic blocks and their successors,
//! which liveness (`regalloc`), the allocation checker (`check`) and the
//! reconvergence points (`emit`) are computed on.

use super::mir::*;
use heddle_isa::{Guard, Opcode};

fn ends_block(m: &MI) -> bool {
    matches!(m.inst.op, Opcode::Bra | Opcode::Exit | Opcode::Ret | Opcode::Trap | Opcode::Brkpt)
}

/// Basic blocks: (start, end) positions and successor block indices.
pub fn blocks(mis: &[MI]) -> (Vec<(usize, usize)>, Vec<Vec<usize>>) {
    let n = mis.len();
    let mut starts = vec![0];
    for (p, m) in mis.iter().enumerate() {
        if m.label.is_some() && p > 0 {
            starts.push(p);
        }
        if ends_block(m) && p + 1 < n {
            starts.push(p + 1);
        }
    }
    starts.sort_unstable();
    starts.dedup();
    let ranges: Vec<(usize, usize)> = starts.iter().enumerate().map(|(i, &s)| (s, starts.get(i + 1).copied().unwrap_or(n))).collect();
    let label_pos: std::collections::HashMap<Label, usize> = mis.iter().enumerate().filter_map(|(p, m)| Some((m.label?, p))).collect();
    let block_of_label = |l: Label| -> Option<usize> {
        let p = *label_pos.get(&l)?;
        Some(starts.partition_point(|&s| s <= p) - 1)
    };
    let mut succ = vec![vec![]; ranges.len()];
    for (b, &(_, e)) in ranges.iter().enumerate() {
        if e == 0 {
            continue;
        }
        let last = &mis[e - 1];
        let guarded = last.inst.guard != Guard::ALWAYS;
        let fall = if e < n { Some(b + 1) } else { None };
        match last.inst.op {
            Opcode::Bra => {
                if let Some(t) = last.target.and_then(block_of_label) {
                    succ[b].push(t);
                }
                if guarded {
                    succ[b].extend(fall);
                }
            }
            Opcode::Exit | Opcode::Ret | Opcode::Trap | Opcode::Brkpt => {
                if guarded {
                    succ[b].extend(fall);
                }
            }
            _ => succ[b].extend(fall),
        }
    }
    (ranges, succ)
}
