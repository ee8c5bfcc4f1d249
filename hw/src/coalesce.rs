//! `Coalescer`: groups one beat's memory accesses into bus transactions.
//!
//! Lane `l` (bit `l` of `active`) accesses `addr[l]`; the lanes whose
//! addresses lie in the same aligned segment of [`SEGMENT_BYTES`] share one
//! transaction (accesses are naturally aligned and at most 16 bytes, so none
//! straddles a segment). `leaders` marks each transaction's lowest lane and
//! `count` is the number of transactions: a unit-stride 32-bit beat of 8
//! lanes is one transaction, a scattered one up to 8.
//!
//! A custom block (the comparison network is a loop that accumulates, which
//! `hdl_gen` cannot express): a Rust model and a hand-written Verilog body,
//! held equal under Verilator by `hw/tests/coalesce.rs`, which also checks
//! the model against a set-based reference.

use rust_hdl::prelude::*;

/// Bytes per bus transaction (one aligned segment).
pub const SEGMENT_BYTES: u32 = 32;
const SEGMENT_LOG: u32 = SEGMENT_BYTES.trailing_zeros();

#[derive(LogicBlock)]
pub struct Coalescer {
    pub active: Signal<In, Bits<32>>,
    pub addr: Vec<Signal<In, Bits<32>>>,
    pub leaders: Signal<Out, Bits<32>>,
    pub count: Signal<Out, Bits<8>>,
}

impl Coalescer {
    /// A coalescer for `lanes` (at most 32) lanes.
    pub fn new(lanes: usize) -> Coalescer {
        assert!(lanes <= 32, "at most 32 lanes");
        Coalescer {
            active: Default::default(),
            addr: (0..lanes).map(|_| Default::default()).collect(),
            leaders: Default::default(),
            count: Default::default(),
        }
    }
}

/// The reference semantics: (leaders, count).
pub fn model(active: u32, addr: &[u32]) -> (u32, u32) {
    let mut leaders = 0;
    for i in 0..addr.len() {
        let seg = addr[i] >> SEGMENT_LOG;
        if active >> i & 1 == 1 && !(0..i).any(|j| active >> j & 1 == 1 && addr[j] >> SEGMENT_LOG == seg) {
            leaders |= 1 << i;
        }
    }
    (leaders, leaders.count_ones())
}

impl Logic for Coalescer {
    fn update(&mut self) {
        // Combinational: recompute only when an input changed (saves simulation time).
        if !self.active.changed && !self.addr.iter().any(|a| a.changed) {
            return;
        }
        let addr: Vec<u32> = self.addr.iter().map(|a| a.val().to_u32()).collect();
        let (leaders, count) = model(self.active.val().to_u32(), &addr);
        self.leaders.next = (leaders as u64).into();
        self.count.next = (count as u64).into();
    }

    fn connect(&mut self) {
        self.leaders.connect();
        self.count.connect();
    }

    fn hdl(&self) -> Verilog {
        let n = self.addr.len();
        let mut s = format!("wire [31:0] a [0:{}];\n", n - 1);
        for l in 0..n {
            s += &format!("assign a[{l}] = addr${l};\n");
        }
        s += &format!(
            "\
integer i, j;
reg dup;
always @(*) begin
    leaders = 32'd0;
    count = 8'd0;
    for (i = 0; i < {n}; i = i + 1) begin
        dup = 1'b0;
        for (j = 0; j < i; j = j + 1)
            if (active[j] && (a[j] >> {SEGMENT_LOG}) == (a[i] >> {SEGMENT_LOG})) dup = 1'b1;
        if (active[i] && !dup) begin
            leaders[i] = 1'b1;
            count = count + 8'd1;
        end
    end
end"
        );
        Verilog::Custom(s)
    }
}
