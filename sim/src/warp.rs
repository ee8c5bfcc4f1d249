//! A warp and its reconvergence stack, exactly as `docs/isa.md`
//! ("Divergence and reconvergence") defines them: the golden model's warps,
//! and the PTX interpreter's (over PTX instruction indices).

use heddle_isa::fields::RPC_NONE;

/// One reconvergence-stack entry: run `mask` from `pc` until `pc == rpc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub pc: u32,
    pub rpc: u32,
    pub mask: u64,
    /// Pushed by a call: `ret` unwinds to here.
    pub call: bool,
}

#[derive(Debug, Clone)]
pub struct Warp {
    pub stack: Vec<Entry>,
    /// Lanes that hold threads.
    pub present: u64,
    pub exited: u64,
    pub preds: [u64; 8],
    pub carry: u64,
    /// Waiting at (barrier, pc of the bar instruction).
    pub wait: Option<(u8, u32)>,
    pub finished: bool,
    /// Warp instructions retired (the golden model's `clock`).
    pub retired: u64,
    /// Call entries popped so far (engines with call frames pop theirs to match).
    pub popped_calls: u32,
}

/// A push would exceed the configured depth.
pub struct Overflow;

impl Warp {
    pub fn new(entry: u32, present: u64) -> Warp {
        let mut preds = [0; 8];
        preds[7] = u64::MAX;
        Warp {
            stack: vec![Entry { pc: entry, rpc: RPC_NONE, mask: present, call: false }],
            present,
            exited: 0,
            preds,
            carry: 0,
            wait: None,
            finished: present == 0,
            retired: 0,
            popped_calls: 0,
        }
    }

    /// Back to the state of `new`, keeping the stack's allocation.
    pub fn reset(&mut self, entry: u32, present: u64) {
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.push(Entry { pc: entry, rpc: RPC_NONE, mask: present, call: false });
        *self = Warp { stack, ..Warp::new(entry, present) };
    }

    /// Pops finished entries; returns the entry to run, or None when the warp is done.
    pub fn top(&mut self) -> Option<Entry> {
        while let Some(e) = self.stack.last() {
            if e.mask != 0 && e.pc != e.rpc {
                return Some(*e);
            }
            if e.call {
                self.popped_calls += 1;
            }
            self.stack.pop();
        }
        self.finished = true;
        None
    }

    fn push(&mut self, e: Entry, depth: usize) -> Result<(), Overflow> {
        if self.stack.len() >= depth {
            return Err(Overflow);
        }
        self.stack.push(e);
        Ok(())
    }

    /// A branch at `pc` whose guard held in `taken` of the top's `mask`.
    /// Returns whether it diverged.
    pub fn branch(&mut self, pc: u32, target: u32, join: u32, taken: u64, depth: usize) -> Result<bool, Overflow> {
        let top = self.stack.last_mut().expect("a running warp has a stack entry");
        let mask = top.mask;
        if taken == 0 {
            top.pc = pc + 1;
            return Ok(false);
        }
        if taken == mask {
            top.pc = target;
            return Ok(false);
        }
        top.pc = join;
        if top.pc == top.rpc {
            self.stack.pop();
        }
        if pc + 1 != join {
            self.push(Entry { pc: pc + 1, rpc: join, mask: mask & !taken, call: false }, depth)?;
        }
        if target != join {
            self.push(Entry { pc: target, rpc: join, mask: taken, call: false }, depth)?;
        }
        Ok(true)
    }

    /// Calls: the top continues at `ret` afterwards; each (target, lanes) group gets a frame,
    /// the first group on top.
    pub fn call(&mut self, ret: u32, groups: &[(u32, u64)], depth: usize) -> Result<(), Overflow> {
        self.stack.last_mut().expect("a running warp has a stack entry").pc = ret;
        for &(target, mask) in groups.iter().rev() {
            self.push(Entry { pc: target, rpc: RPC_NONE, mask, call: true }, depth)?;
        }
        Ok(())
    }

    /// `ret` by `lanes`: they leave every entry down to the nearest call frame.
    /// Without a call frame, returning ends the threads (a kernel's `ret`).
    pub fn ret(&mut self, lanes: u64) {
        let Some(frame) = self.stack.iter().rposition(|e| e.call) else {
            self.exit(lanes);
            return;
        };
        for e in &mut self.stack[frame..] {
            e.mask &= !lanes;
        }
    }

    /// `exit` by `lanes`: they leave every entry.
    pub fn exit(&mut self, lanes: u64) {
        self.exited |= lanes;
        for e in &mut self.stack {
            e.mask &= !lanes;
        }
    }

    /// Threads still running (present and not exited).
    pub fn live(&self) -> u64 {
        self.present & !self.exited
    }
}

/// Instructions a warp runs per turn of the round robin.
pub const QUANTUM: u32 = 64;

/// What one step did to its warp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// The warp can go on.
    Ran,
    /// The warp waits at a barrier.
    Blocked,
    /// Every thread of the warp has exited.
    Finished,
}

/// Runs a CTA's warps round robin, the schedule the golden model and the
/// PTX interpreter share: each live warp not waiting at a barrier runs up
/// to [`QUANTUM`] steps a turn (`step(cta, w)`), until every warp has
/// finished. `Ok(Some((w, pc)))`: a turn in which no warp could run (every
/// live warp waits and no barrier completed), `w` the first waiting warp and
/// `pc` its barrier's.
pub(crate) fn round_robin<C, E>(
    cta: &mut C,
    warps: impl Fn(&C) -> &[Warp],
    mut step: impl FnMut(&mut C, usize) -> Result<Step, E>,
) -> Result<Option<(usize, u32)>, E> {
    loop {
        let (mut progressed, mut live) = (false, false);
        for w in 0..warps(cta).len() {
            let warp = &warps(cta)[w];
            if warp.finished {
                continue;
            }
            live = true;
            if warp.wait.is_some() {
                continue;
            }
            for _ in 0..QUANTUM {
                match step(cta, w)? {
                    Step::Ran => progressed = true,
                    Step::Blocked => {
                        progressed = true;
                        break;
                    }
                    Step::Finished => break,
                }
            }
        }
        if !live {
            return Ok(None);
        }
        if !progressed {
            let w = warps(cta).iter().position(|w| w.wait.is_some()).unwrap_or(0);
            return Ok(Some((w, warps(cta)[w].wait.map_or(0, |(_, pc)| pc))));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEPTH: usize = 8;

    #[test]
    fn if_else_reconverges() {
        let mut w = Warp::new(0, 0xf);
        // pc 1: bra 5, join 8 taken by lanes 0-1.
        assert!(w.branch(1, 5, 8, 0b0011, DEPTH).is_ok_and(|d| d));
        assert_eq!(w.top().unwrap(), Entry { pc: 5, rpc: 8, mask: 0b0011, call: false });
        w.stack.last_mut().unwrap().pc = 8; // taken side reaches the join
        assert_eq!(w.top().unwrap(), Entry { pc: 2, rpc: 8, mask: 0b1100, call: false });
        w.stack.last_mut().unwrap().pc = 8;
        assert_eq!(w.top().unwrap(), Entry { pc: 8, rpc: RPC_NONE, mask: 0xf, call: false });
    }

    #[test]
    fn divergent_loop_does_not_grow_the_stack() {
        let mut w = Warp::new(0, 0xff);
        // Loop body at 1..4, back edge at 4: bra 1, join 5. One lane leaves each trip.
        let mut mask = 0xffu64;
        for _ in 0..7 {
            let stay = mask >> 1 & mask;
            w.stack.last_mut().unwrap().pc = 4;
            w.branch(4, 1, 5, stay, DEPTH).ok().unwrap();
            mask = stay;
            assert!(w.stack.len() <= 2, "stack grew to {}", w.stack.len());
        }
        w.stack.last_mut().unwrap().pc = 4;
        w.branch(4, 1, 5, 0, DEPTH).ok().unwrap();
        w.stack.last_mut().unwrap().pc = 5;
        assert_eq!(w.top().unwrap().mask, 0xff);
    }

    #[test]
    fn exit_inside_divergence_releases_the_join() {
        let mut w = Warp::new(0, 0b11);
        w.branch(0, 10, 20, 0b01, DEPTH).ok().unwrap();
        w.exit(0b01); // lane 0 exits on the taken side
        assert_eq!(w.top().unwrap(), Entry { pc: 1, rpc: 20, mask: 0b10, call: false });
        w.stack.last_mut().unwrap().pc = 20;
        assert_eq!(w.top().unwrap().mask, 0b10);
    }

    #[test]
    fn overflow_is_reported() {
        let mut w = Warp::new(0, 0b11);
        let mut pc = 0;
        let r = (0..DEPTH).try_for_each(|_| {
            pc += 10;
            w.call(pc + 1, &[(pc + 100, 0b11)], DEPTH)
        });
        assert!(r.is_err());
    }
}
