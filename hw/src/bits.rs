//! Small custom blocks for the reductions rust-hdl's `hdl_gen` cannot
//! express (it has no local variables, so no loop that accumulates):
//! [`Popc64`] counts the set bits of a lane mask, [`Gather`] places one bit
//! per lane into a warp-wide mask. Each has a Rust model and a hand-written
//! Verilog body; `tests/cosim.rs` holds them equal under Verilator.

use rust_hdl::prelude::*;

/// A mask of the low `n` bits (all 64 from 64 on): a warp's threads, a
/// beat's lanes, the SM's warps.
pub fn ones(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

/// Number of set bits of `x`.
#[derive(LogicBlock, Default)]
pub struct Popc64 {
    pub x: Signal<In, Bits<64>>,
    pub n: Signal<Out, Bits<8>>,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl Logic for Popc64 {
    fn update(&mut self) {
        self.n.next = (self.x.val().to_u64().count_ones() as u64).into();
    }
    fn connect(&mut self) {
        self.n.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(
            "\
integer i;
always @(*) begin
    n = 8'd0;
    for (i = 0; i < 64; i = i + 1) n = n + {7'd0, x[i]};
end"
            .into(),
        )
    }
}

/// `placed` = the lane bits `bits[l]` at positions `base + l`, zeros elsewhere.
#[derive(LogicBlock)]
pub struct Gather {
    pub bits: Vec<Signal<In, Bit>>,
    pub base: Signal<In, Bits<8>>,
    pub placed: Signal<Out, Bits<64>>,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl Gather {
    pub fn new(lanes: usize) -> Gather {
        Gather {
            _ran: Gate::default(),
            bits: (0..lanes).map(|_| Default::default()).collect(),
            base: Default::default(),
            placed: Default::default(),
        }
    }
}

impl Logic for Gather {
    fn update(&mut self) {
        let mut v = 0u64;
        for (l, b) in self.bits.iter().enumerate() {
            v |= (b.val() as u64) << l;
        }
        let base = self.base.val().index();
        self.placed.next = (if base < 64 { v << base } else { 0 }).into();
    }
    fn connect(&mut self) {
        self.placed.connect();
    }
    fn hdl(&self) -> Verilog {
        let n = self.bits.len();
        let packed: Vec<String> = (0..n).rev().map(|l| format!("bits${l}")).collect();
        Verilog::Custom(format!(
            "\
wire [63:0] packed_bits = {{{pad}{bits}}};
always @(*) placed = (base < 8'd64) ? (packed_bits << base) : 64'd0;",
            pad = if n < 64 { format!("{}'d0, ", 64 - n) } else { String::new() },
            bits = packed.join(", "),
        ))
    }
}
