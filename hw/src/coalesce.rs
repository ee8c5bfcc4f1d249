//! `Coalescer`: splits one beat's memory accesses into bus transfers.
//!
//! Lane `l` (bit `l` of `active`) accesses `addr[l]`. Taken in lane order,
//! each active lane joins the transfer of the active lane before it when
//! both addresses lie in the same aligned bus word of `word_bytes` and
//! neither lane is in `solo` (a lane that needs a transfer of its own: a
//! per-thread local access, an atomic, an access wider than the word).
//! `leaders` marks each transfer's first lane and `count` is the number of
//! transfers: a unit-stride beat whose bytes fill one word is one transfer,
//! a scattered one a transfer per lane.
//!
//! Transfers follow lane order, not just distinct words, so that the lanes
//! of every transfer come after those of the transfers before it: a fault
//! is then precise, as the golden model's lane-order semantics need (see
//! `Sm`'s bus master).
//!
//! A custom block (the chain over lanes is a loop that accumulates, which
//! `hdl_gen` cannot express): a Rust model and a hand-written Verilog body,
//! held equal under Verilator by `hw/tests/coalesce.rs`, which also checks
//! the model against a reference written apart.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Coalescer {
    pub active: Signal<In, Bits<32>>,
    pub solo: Signal<In, Bits<32>>,
    pub addr: Vec<Signal<In, Bits<32>>>,
    pub leaders: Signal<Out, Bits<32>>,
    pub count: Signal<Out, Bits<8>>,
    word_log: Constant<Bits<8>>,
    /// The planted bug `CoalesceWord` ([`crate::plant`]; the simulation model only).
    _plant: bool,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl Coalescer {
    /// A coalescer for `lanes` (at most 32) lanes and bus words of
    /// `word_bytes` (a power of two).
    pub fn new(lanes: usize, word_bytes: u32) -> Coalescer {
        assert!(lanes <= 32, "at most 32 lanes");
        assert!(word_bytes.is_power_of_two(), "the bus word is a power of two bytes");
        Coalescer {
            _ran: Gate::default(),
            active: Default::default(),
            solo: Default::default(),
            addr: (0..lanes).map(|_| Default::default()).collect(),
            leaders: Default::default(),
            count: Default::default(),
            word_log: Constant::new((word_bytes.trailing_zeros() as u64).into()),
            _plant: crate::plant::is(crate::plant::Plant::CoalesceWord),
        }
    }
}

/// The reference semantics: (leaders, count) for words of `1 << word_log` bytes.
pub fn model(active: u32, solo: u32, addr: &[u32], word_log: u32) -> (u32, u32) {
    let mut leaders = 0u32;
    let mut prev: Option<usize> = None;
    for i in (0..addr.len()).filter(|&i| active >> i & 1 == 1) {
        let joins = prev.is_some_and(|j| (solo >> i | solo >> j) & 1 == 0 && addr[j] >> word_log == addr[i] >> word_log);
        if !joins {
            leaders |= 1 << i;
        }
        prev = Some(i);
    }
    (leaders, leaders.count_ones())
}

impl Logic for Coalescer {
    fn update(&mut self) {
        // Combinational: recompute only when an input changed (saves simulation time).
        if !self.active.changed && !self.solo.changed && !self.addr.iter().any(|a| a.changed) {
            return;
        }
        let addr: Vec<u32> = self.addr.iter().map(|a| a.val().to_u32()).collect();
        let word_log = self.word_log.val().to_u32() + self._plant as u32;
        let (leaders, count) = model(self.active.val().to_u32(), self.solo.val().to_u32(), &addr, word_log);
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
        let log = self.word_log.val().to_u32();
        s += &format!(
            "\
integer i;
reg have, psolo;
reg [31:0] pword;
always @(*) begin
    leaders = 32'd0;
    count = 8'd0;
    have = 1'b0;
    psolo = 1'b0;
    pword = 32'd0;
    for (i = 0; i < {n}; i = i + 1) begin
        if (active[i]) begin
            if (!have || psolo || solo[i] || pword != (a[i] >> {log})) begin
                leaders[i] = 1'b1;
                count = count + 8'd1;
            end
            have = 1'b1;
            psolo = solo[i];
            pword = a[i] >> {log};
        end
    end
end"
        );
        Verilog::Custom(s)
    }
}
