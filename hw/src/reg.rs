//! `Reg<T>`: a D flip-flop on the rising clock edge. Its ports (`d`, `q`,
//! `clock`), initial value (`T`'s default) and Verilog are those of
//! rust-hdl's `DFF`, which the exported designs used before; only its
//! simulation differs, and only in cost. A flip-flop acts only at a rising
//! edge, so in every other settle pass it does nothing but clear `q`'s
//! change flag, and it reports a change only when `q` changes: a new `d`
//! needs no further settle pass, since nothing reads it before the next
//! edge (nor is it committed: the edge takes what the parent assigned).

use rust_hdl::prelude::*;

#[derive(Clone, Debug)]
pub struct Reg<T: Synth> {
    pub d: Signal<In, T>,
    pub q: Signal<Out, T>,
    pub clock: Signal<In, Clock>,
}

impl<T: Synth> Default for Reg<T> {
    fn default() -> Reg<T> {
        Reg { d: Default::default(), q: Default::default(), clock: Default::default() }
    }
}

impl<T: Synth> Logic for Reg<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.q.next = self.d.next;
        }
    }

    fn connect(&mut self) {
        self.q.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "\
initial begin
   q = {:x};
end

always @(posedge clock) begin
   q <= d;
end",
            T::default().verilog()
        ))
    }
}

impl<T: Synth> Block for Reg<T> {
    block_ports!(d, q, clock);

    fn update_all(&mut self) {
        // `d` is not committed: only the edge reads it, and it reads what
        // the parent assigned last (the VCD traces `next` too).
        self.clock.update_all();
        if self.clock.pos_edge() {
            self.q.next = self.d.next;
            self.q.update_all();
        } else {
            // `q` is assigned only at an edge: it holds what it showed.
            self.q.changed = false;
        }
    }

    fn has_changed(&self) -> bool {
        self.q.changed
    }

    fn wants_update(&self) -> bool {
        self.clock.next != self.clock.val() || self.q.changed
    }

    /// Nothing to do at an edge that would load the value `q` holds (or a
    /// falling one) when `q`'s change flag is clear: the clock is taken
    /// quietly and the parent leaves the flip-flop alone.
    fn forward_clock(&mut self, clock: Clock) -> bool {
        let acts = self.q.changed || (self.clock.rises_to(clock) && self.d.next != self.q.val());
        self.clock.forward(clock, acts)
    }
}
