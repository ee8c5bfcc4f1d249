//! The Heddle streaming multiprocessor in rust-hdl.
//!
//! [`SmConfig`] is the one configuration that the hardware, the simulators'
//! timing and limits, and the exported Verilog parameters all read. The
//! blocks: [`reg::Reg`] and [`reg::Regs`] (flip-flops), [`ram::SyncRam`] and [`ram::BankRam`] (register files and on-chip memories, read synchronously),
//! [`stack::ReconvStack`] (per-warp reconvergence stacks). Every block
//! simulates under rust-hdl and exports Verilog that Verilator lints clean
//! ([`verilog::lint`]).

/// `connect_all` and `accept` of a hand-written `Block` (the memories, the
/// register file, the flip-flop): its ports and children, listed in
/// declaration order, which is the order of the exported Verilog's ports.
macro_rules! block_ports {
    ($($port:ident),*) => {
        fn connect_all(&mut self) {
            self.connect();
            $(self.$port.connect_all();)*
        }

        fn accept(&self, name: &str, probe: &mut dyn Probe) {
            probe.visit_start_scope(name, self);
            $(self.$port.accept(stringify!($port), probe);)*
            probe.visit_end_scope(name, self);
        }
    };
}

/// A namespace of a block's constants or local signals: a struct whose
/// fields are named `group$field` in the block's Verilog module, not a
/// child module. Its `Block` has nothing to update: constants never
/// change, and a local signal's value is what its block's logic last
/// assigned (locals are never committed). A group of locals is named in
/// the block's `#[hdl_gen(locals(...))]`, so that the vendored definite-
/// assignment check reads `self.group.x` as the block's own signal.
macro_rules! namespace {
    ($(#[$sdoc:meta])* $vis:vis struct $name:ident { $($(#[$doc:meta])* $field:ident: $ty:ty,)* }) => {
        $(#[$sdoc])*
        $vis struct $name {
            $($(#[$doc])* pub $field: $ty,)*
        }

        impl Logic for $name {
            fn update(&mut self) {}
            fn connect(&mut self) {}
        }

        impl Block for $name {
            fn connect_all(&mut self) {
                $(self.$field.connect_all();)*
            }
            fn update_all(&mut self) {}
            fn has_changed(&self) -> bool {
                false
            }
            fn accept(&self, name: &str, probe: &mut dyn Probe) {
                probe.visit_start_namespace(name, self);
                $(self.$field.accept(stringify!($field), probe);)*
                probe.visit_end_namespace(name, self);
            }
            fn wants_update(&self) -> bool {
                false
            }
        }
    };
}

/// Evaluates a combinational child now, inside its parent's `#[hdl_gen]`
/// logic, after the logic has assigned the child's inputs and before it
/// reads the child's outputs: the parent reads this pass's answer instead of
/// running again in the next settle pass. Simulation only: write it
/// `#[hdl_skip] settle!(self.child);`, and the vendored `#[hdl_gen]` writes
/// nothing for it (in Verilog the child's outputs are wires the always block
/// already sees). It must follow every assignment
/// to the child's inputs in the run: an input assigned again afterwards
/// makes the child's answer flip between this call and the update after
/// the logic, and the design never settles (the engine reports that as a
/// combinational loop).
macro_rules! settle {
    ($child:expr) => {
        rust_hdl::core::block::Block::update_all(&mut $child)
    };
}

/// `impl Block` for an iterative unit ([`div::Divider`],
/// [`fdivsqrt::FpDivSqrt`], [`sfu::Sfu`]): a custom block with ports `clock`, `start`,
/// its operands, and the outputs `done` and `d`, which change only at a
/// rising edge; its `count` ([`div::Countdown`]) says whether it is busy.
macro_rules! iterative_block {
    ($unit:ty; $($port:ident),*) => {
        impl Block for $unit {
            block_ports!($($port),*);

            fn update_all(&mut self) {
                self.clock.update_all();
                if self.clock.pos_edge() {
                    self.update();
                    self.done.update_all();
                    self.d.update_all();
                } else {
                    // The outputs change only at an edge: they hold what they showed.
                    self.done.changed = false;
                    self.d.changed = false;
                }
            }

            fn has_changed(&self) -> bool {
                self.done.changed || self.d.changed
            }

            fn wants_update(&self) -> bool {
                self.clock.next != self.clock.val() || self.has_changed()
            }

            /// An edge with nothing to start or count, or a falling one, with no
            /// change flag set, is taken quietly.
            fn forward_clock(&mut self, clock: Clock) -> bool {
                let acts = self.has_changed() || (self.clock.rises_to(clock) && (self.start.next || self.count.busy()));
                self.clock.forward(clock, acts)
            }
        }
    };
}

pub mod alu;
pub mod atom;
pub mod bits;
pub mod coalesce;
pub mod config;
pub mod cosim;
pub mod decode;
pub mod div;
pub mod fdivsqrt;
pub mod fpu;
pub mod memories;
pub mod pcache;
pub mod plant;
pub mod ram;
pub mod reg;
pub mod regfile;
pub mod sched;
pub mod sfu;
pub mod sm;
pub mod smem;
pub mod stack;
pub mod verilog;
pub mod wblanes;

pub use config::{ConfigError, SmConfig};
