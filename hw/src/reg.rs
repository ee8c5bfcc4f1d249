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

/// `Regs<T>`: a bank of flip-flops on one clock (`d[i]` to `q[i]` at the
/// rising edge), as one block: the Verilog is the same flip-flops as that
/// many [`Reg`]s, but the parent clocks and asks one child instead of one
/// per flip-flop (a lane's operand or store-data registers, the shuffle
/// buffer, a CTA slot's coordinates).
#[derive(Clone, Debug)]
pub struct Regs<T: Synth> {
    pub d: Vec<Signal<In, T>>,
    pub q: Vec<Signal<Out, T>>,
    pub clock: Signal<In, Clock>,
    /// Some `q` changed at the last edge (its change flag is set).
    q_changed: bool,
}

impl<T: Synth> Regs<T> {
    pub fn new(n: usize) -> Regs<T> {
        Regs {
            d: (0..n).map(|_| Default::default()).collect(),
            q: (0..n).map(|_| Default::default()).collect(),
            clock: Default::default(),
            q_changed: false,
        }
    }

    /// Every flip-flop keeps its value at the next edge (`d[i] = q[i]`),
    /// unless the parent assigns its `d` again: what a block's `#[hdl_gen]`
    /// logic writes first, as `#[hdl_hold] self.bank.hold();`. The vendored
    /// `#[hdl_gen]` writes the same assignments, in a loop, into the Verilog.
    pub fn hold(&mut self) {
        for (d, q) in self.d.iter_mut().zip(&self.q) {
            d.next = q.val();
        }
    }
}

impl<T: Synth> Logic for Regs<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            for (q, d) in self.q.iter_mut().zip(&self.d) {
                q.next = d.next;
            }
        }
    }

    fn connect(&mut self) {
        for q in &mut self.q {
            q.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let init = format!("{:x}", T::default().verilog());
        let (mut set, mut load) = (String::new(), String::new());
        for i in 0..self.q.len() {
            set += &format!("   q${i} = {init};\n");
            load += &format!("   q${i} <= d${i};\n");
        }
        Verilog::Custom(format!("initial begin\n{set}end\n\nalways @(posedge clock) begin\n{load}end"))
    }
}

impl<T: Synth> Block for Regs<T> {
    block_ports!(d, q, clock);

    fn update_all(&mut self) {
        self.clock.update_all();
        let edge = self.clock.pos_edge();
        if edge || self.q_changed {
            // Off an edge `q` holds: its update only clears the flag.
            self.update();
            let mut any = false;
            for q in &mut self.q {
                q.update_all();
                any |= q.changed;
            }
            self.q_changed = any;
        }
    }

    fn has_changed(&self) -> bool {
        self.q_changed
    }

    fn wants_update(&self) -> bool {
        self.clock.next != self.clock.val() || self.q_changed
    }

    /// As [`Reg`]'s: an edge that would load what every `q` holds, or a
    /// falling one, with no change flag set, is taken quietly.
    fn forward_clock(&mut self, clock: Clock) -> bool {
        let acts = self.q_changed || (self.clock.rises_to(clock) && self.d.iter().zip(&self.q).any(|(d, q)| d.next != q.val()));
        self.clock.forward(clock, acts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Drives the bank's clock to `level` the way a parent skipping its
    /// logic does (`forward_clock`, then an update if asked for).
    fn clock_to(bank: &mut Regs<Bits<8>>, level: bool) -> bool {
        let acts = bank.forward_clock(Clock { clk: level });
        if acts {
            bank.update_all();
        }
        acts
    }

    #[test]
    fn a_bank_loads_at_rising_edges_holds_otherwise_and_flags_only_changes() {
        let mut bank = Regs::<Bits<8>>::new(3);
        clock_to(&mut bank, false);
        bank.d[1].next = 7.into();
        // Off an edge nothing loads.
        bank.update_all();
        assert_eq!(bank.q[1].val(), 0);
        assert!(!bank.has_changed());
        // The rising edge loads every `d`; only a changed `q` is flagged.
        assert!(clock_to(&mut bank, true));
        assert_eq!((bank.q[0].val(), bank.q[1].val(), bank.q[2].val()), (0.into(), 7.into(), 0.into()));
        assert!(bank.has_changed() && bank.q[1].changed && !bank.q[0].changed);
        // The falling edge clears the flags and loads nothing.
        bank.d[1].next = 9.into();
        assert!(clock_to(&mut bank, false));
        assert!(!bank.has_changed());
        assert_eq!(bank.q[1].val(), 7);
        // `hold` keeps every value: the next edge is taken quietly.
        bank.hold();
        assert!(!clock_to(&mut bank, true));
        assert!(!bank.wants_update());
        assert_eq!(bank.q[1].val(), 7);
        // A new value after a quiet edge still loads at the next one.
        assert!(!clock_to(&mut bank, false));
        bank.d[2].next = 3.into();
        assert!(clock_to(&mut bank, true));
        assert_eq!((bank.q[1].val(), bank.q[2].val()), (7.into(), 3.into()));
    }

    #[test]
    fn a_bank_writes_one_flip_flop_per_element() {
        let bank = Regs::<Bits<8>>::new(2);
        let Verilog::Custom(body) = bank.hdl() else { panic!("custom Verilog expected") };
        assert!(body.contains("q$0 <= d$0;") && body.contains("q$1 <= d$1;") && body.contains("q$1 = 8'h0;"), "{body}");
    }
}
