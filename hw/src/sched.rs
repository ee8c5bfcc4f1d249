//! `WarpPick`: the warp scheduler's picker. Round robin: the first ready
//! warp after the one picked last, so every ready warp issues within
//! `warps` picks (no starvation).

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct WarpPick {
    /// Warps that can issue.
    pub ready: Signal<In, Bits<64>>,
    /// The warp picked last.
    pub last: Signal<In, Bits<6>>,
    pub pick: Signal<Out, Bits<6>>,
    pub any: Signal<Out, Bit>,
    start: Signal<Local, Bits<6>>,
    rot: Signal<Local, Bits<64>>,
    off: Signal<Local, Bits<6>>,
    /// index[i] = i: loop indices as values (hdl_gen has no casts).
    index: Vec<Constant<Bits<6>>>,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl Default for WarpPick {
    fn default() -> Self {
        WarpPick {
            _ran: Gate::default(),
            ready: Default::default(),
            last: Default::default(),
            pick: Default::default(),
            any: Default::default(),
            start: Default::default(),
            rot: Default::default(),
            off: Default::default(),
            index: (0..64u64).map(|i| Constant::new(i.into())).collect(),
        }
    }
}

impl Logic for WarpPick {
    #[hdl_gen]
    fn update(&mut self) {
        self.start.next = self.last.val() + 1;
        // ready rotated right by `start`; (x << 1) << (63 - s) is x << (64 - s), and 0 for s = 0.
        self.rot.next = (self.ready.val() >> self.start.val()) | ((self.ready.val() << 1) << (63 - bit_cast::<64, 6>(self.start.val())));
        self.off.next = 0.into();
        for i in 0..64 {
            if self.rot.val().get_bit(63 - i) {
                self.off.next = self.index[63 - i].val();
            }
        }
        self.pick.next = self.start.val() + self.off.val();
        self.any.next = self.ready.val().any();
    }
}
