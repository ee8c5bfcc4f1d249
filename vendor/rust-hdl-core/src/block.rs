use crate::clock::Clock;
use std::cell::Cell;
use crate::logic::Logic;
use crate::probe::Probe;

/// The [Block] trait is required for all circuitry that
/// can be simulated by RustHDL.  If you want to be able
/// to simulate a circuit, the corresponding struct must
/// impl [Block].  Normally, this is done via the `#[derive(LogicBlock)]`
/// construct, and you will rarely, if ever, need to
/// impl the [Block] trait yourself.
pub trait Block: Logic {
    /// Connects the internal signals of the circuit - used to initialize the circuit
    fn connect_all(&mut self);
    /// Propogate changes from inputs to outputs within the circuit
    fn update_all(&mut self);
    /// Returns `true` if anything in the circuit has changed (outputs or internal state)
    fn has_changed(&self) -> bool;
    /// The visitor pattern - allows a circuit to be probed by a [Probe] struct.
    fn accept(&self, name: &str, probe: &mut dyn Probe);
    /// Vendored addition (gated evaluation, see the macros crate): whether
    /// an output changed in the last pass, the only change of a child its
    /// parent's logic can see. Defaults to `has_changed`.
    fn outputs_changed(&self) -> bool {
        self.has_changed()
    }
    /// Vendored addition: drive the block's clock input, when its parent's
    /// logic is skipped in a pass in which only the clock changed (a parent
    /// wires its clock straight to its children's), and say whether the
    /// block needs an update for it. Does nothing for a block without a
    /// clock; a block with nothing to do at this edge may take the clock
    /// itself (`Signal::take_quietly`) and say no. The parent leaves a
    /// block that says no alone unless it has something pending.
    fn forward_clock(&mut self, _clock: Clock) -> bool {
        false
    }
    /// Vendored addition: whether another settle pass could change anything
    /// inside the block, its own outputs aside (what a test bench driving a
    /// top-level block asks). Defaults to `has_changed`.
    fn pending(&self) -> bool {
        self.has_changed()
    }
    /// Vendored addition: whether `update_all` could do anything now. A
    /// parent whose logic ran skips a child that says no (a flip-flop
    /// between clock edges, with no change flag to clear). Defaults to
    /// `true`.
    fn wants_update(&self) -> bool {
        true
    }
}

/// Vendored addition: what gated evaluation keeps for a block, in the
/// field `_ran` the vendored `LogicBlock` derive looks for (see the macros
/// crate): whether its logic has run, and the answers to the queries a
/// parent asks many times per pass (did an output, a child, anything
/// change), each found once after the block's `update_all` (the only thing
/// that changes the flags they read) and kept until the next one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Gate {
    /// The logic has run (false at construction, and after a change made
    /// through a backdoor, such as a memory's `poke`).
    pub ran: bool,
    /// `forward_clock` handed the clock to children that act on it: the
    /// next `update_all` updates those that want it.
    pub forwarded: bool,
    outputs: Cell<Option<bool>>,
    children: Cell<Option<bool>>,
    any: Cell<Option<bool>>,
}

impl Gate {
    /// The logic must run again (state changed behind the signals' backs).
    pub fn invalidate(&mut self) {
        self.ran = false;
    }

    /// Forgets the answers (the block's `update_all` has changed flags).
    pub fn forget(&mut self) {
        *self.outputs.get_mut() = None;
        *self.children.get_mut() = None;
        *self.any.get_mut() = None;
    }

    /// Did an output change: the kept answer, or `find`'s.
    #[inline]
    pub fn outputs(&self, find: impl FnOnce() -> bool) -> bool {
        Self::kept(&self.outputs, find)
    }

    /// Did a child change.
    #[inline]
    pub fn children(&self, find: impl FnOnce() -> bool) -> bool {
        Self::kept(&self.children, find)
    }

    /// Did an input, an output or a child change.
    #[inline]
    pub fn any(&self, find: impl FnOnce() -> bool) -> bool {
        Self::kept(&self.any, find)
    }

    #[inline]
    fn kept(cell: &Cell<Option<bool>>, find: impl FnOnce() -> bool) -> bool {
        match cell.get() {
            Some(v) => v,
            None => {
                let v = find();
                cell.set(Some(v));
                v
            }
        }
    }
}

impl<B: Block> Block for Vec<B> {
    fn outputs_changed(&self) -> bool {
        self.iter().any(|x| x.outputs_changed())
    }

    fn forward_clock(&mut self, clock: Clock) -> bool {
        let mut any = false;
        for x in self {
            any |= x.forward_clock(clock);
        }
        any
    }

    fn connect_all(&mut self) {
        for x in self {
            x.connect_all();
        }
    }

    fn update_all(&mut self) {
        for x in self {
            if x.wants_update() {
                x.update_all();
            }
        }
    }

    fn has_changed(&self) -> bool {
        for x in self {
            if x.has_changed() {
                return true;
            }
        }
        false
    }

    fn wants_update(&self) -> bool {
        self.iter().any(|x| x.wants_update())
    }

    fn accept(&self, name: &str, probe: &mut dyn Probe) {
        for x in self.iter().enumerate() {
            let name = format!("{}${}", name, x.0);
            x.1.accept(&name, probe);
        }
    }
}

impl<B: Block, const P: usize> Block for [B; P] {
    fn outputs_changed(&self) -> bool {
        self.iter().any(|x| x.outputs_changed())
    }

    fn forward_clock(&mut self, clock: Clock) -> bool {
        let mut any = false;
        for x in self {
            any |= x.forward_clock(clock);
        }
        any
    }

    fn connect_all(&mut self) {
        for x in self {
            x.connect_all();
        }
    }

    fn update_all(&mut self) {
        for x in self {
            if x.wants_update() {
                x.update_all();
            }
        }
    }

    fn has_changed(&self) -> bool {
        for x in self {
            if x.has_changed() {
                return true;
            }
        }
        false
    }

    fn wants_update(&self) -> bool {
        self.iter().any(|x| x.wants_update())
    }

    fn accept(&self, name: &str, probe: &mut dyn Probe) {
        for x in self.iter().enumerate() {
            let name = format!("{}${}", name, x.0);
            x.1.accept(&name, probe);
        }
    }
}
