//! `WarpPick`: the warp scheduler's picker. Round robin: the first ready
//! warp after the one picked last, so every ready warp issues within
//! `warps` picks (no starvation). With `skip_on` it leaves out warp `skip`
//! (the prefetch picks a warp other than the current one).
//!
//! No rotation and no adder: the pick is the lowest ready warp above
//! `last`, or else the lowest ready warp, each a priority encoder over the
//! SM's `warps` bits. Both picks, with and without `skip`, come from the
//! registered inputs (`ready`, `last`, `skip`); `skip_on` (the SM gives
//! it from its registered state) chooses between them at the end.
//! `ready` has no bits at or above `warps`. Without a ready warp, `pick` is
//! `last + 1` (and `any` is low).

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct WarpPick {
    /// Warps that can issue.
    pub ready: Signal<In, Bits<64>>,
    /// The warp picked last.
    pub last: Signal<In, Bits<6>>,
    /// A warp to leave out, when `skip_on`.
    pub skip: Signal<In, Bits<6>>,
    pub skip_on: Signal<In, Bit>,
    pub pick: Signal<Out, Bits<6>>,
    pub any: Signal<Out, Bit>,
    /// The warps above `last`.
    above: Signal<Local, Bits<64>>,
    /// `ready` without `skip`.
    others: Signal<Local, Bits<64>>,
    /// The lowest warp of: ready warps above last, ready warps, and the
    /// same without `skip`.
    lo_above: Signal<Local, Bits<6>>,
    lo_all: Signal<Local, Bits<6>>,
    lo_others_above: Signal<Local, Bits<6>>,
    lo_others: Signal<Local, Bits<6>>,
    pick_all: Signal<Local, Bits<6>>,
    pick_others: Signal<Local, Bits<6>>,
    /// The warps from the highest down (hdl_gen has no casts and indexes
    /// with loop variables only): down[i] = warps - 1 - i, and its bit.
    down: Vec<Constant<Bits<6>>>,
    down_bit: Vec<Constant<Bits<64>>>,
    _warps: usize,
    /// warps - 1: the warps that can be above another.
    _above: usize,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl WarpPick {
    /// A picker for `warps` warps (1 to 64).
    pub fn new(warps: usize) -> WarpPick {
        assert!((1..=64).contains(&warps));
        WarpPick {
            _ran: Gate::default(),
            ready: Default::default(),
            last: Default::default(),
            skip: Default::default(),
            skip_on: Default::default(),
            pick: Default::default(),
            any: Default::default(),
            above: Default::default(),
            others: Default::default(),
            lo_above: Default::default(),
            lo_all: Default::default(),
            lo_others_above: Default::default(),
            lo_others: Default::default(),
            pick_all: Default::default(),
            pick_others: Default::default(),
            down: (0..warps as u64).rev().map(|w| Constant::new(w.into())).collect(),
            down_bit: (0..warps as u64).rev().map(|w| Constant::new((1u64 << w).into())).collect(),
            _warps: warps,
            _above: warps - 1,
        }
    }
}

/// A picker for 64 warps, the most an SM has.
impl Default for WarpPick {
    fn default() -> Self {
        WarpPick::new(64)
    }
}

impl Logic for WarpPick {
    #[hdl_gen]
    fn update(&mut self) {
        // Warp 0 is above no warp: down[i] for i < warps - 1.
        self.above.next = 0.into();
        for i in 0..self._above {
            if self.down[i].val() > self.last.val() {
                self.above.next = self.above.val() | self.down_bit[i].val();
            }
        }
        self.others.next = self.ready.val() & !(bits::<64>(1) << self.skip.val());
        // Priority encoders, highest index first so that the lowest set bit
        // is assigned last.
        self.lo_above.next = 0.into();
        self.lo_all.next = 0.into();
        self.lo_others_above.next = 0.into();
        self.lo_others.next = 0.into();
        for i in 0..self._warps {
            if (self.ready.val() & self.above.val() & self.down_bit[i].val()).any() {
                self.lo_above.next = self.down[i].val();
            }
            if (self.ready.val() & self.down_bit[i].val()).any() {
                self.lo_all.next = self.down[i].val();
            }
            if (self.others.val() & self.above.val() & self.down_bit[i].val()).any() {
                self.lo_others_above.next = self.down[i].val();
            }
            if (self.others.val() & self.down_bit[i].val()).any() {
                self.lo_others.next = self.down[i].val();
            }
        }
        self.pick_all.next = self.last.val() + 1;
        if (self.ready.val() & self.above.val()).any() {
            self.pick_all.next = self.lo_above.val();
        } else if self.ready.val().any() {
            self.pick_all.next = self.lo_all.val();
        }
        self.pick_others.next = self.last.val() + 1;
        if (self.others.val() & self.above.val()).any() {
            self.pick_others.next = self.lo_others_above.val();
        } else if self.others.val().any() {
            self.pick_others.next = self.lo_others.val();
        }
        self.pick.next = self.pick_all.val();
        self.any.next = self.ready.val().any();
        if self.skip_on.val() {
            self.pick.next = self.pick_others.val();
            self.any.next = self.others.val().any();
        }
    }
}
