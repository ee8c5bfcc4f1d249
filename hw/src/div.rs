//! `Divider`: the SM's iterative integer divider, for `div`, `rem`,
//! `div64` and `rem64` (PTX's total rules: `x / 0` is all ones, `x rem 0`
//! is `x`, `MIN / -1` is `MIN` with remainder 0; 32-bit results
//! zero-extended). It replaces the combinational dividers the lane ALUs
//! had, which no ECP5 flow could synthesize for `default`. There is one
//! per SM (with `SmConfig::int_div`): it divides a beat's lanes in turn.
//!
//! Ports: `start` (with `op`, `modv`, `a`, `b`, as the ALU takes them) is
//! taken at a rising edge; `done` rises [`Divider::latency`] edges later
//! (17 for a 32-bit operation, 33 for a 64-bit one) with the result on
//! `d`, and both hold until the next `start`.
//!
//! The hardware is a restoring divider on the operands' magnitudes, two
//! quotient bits per cycle: the start edge registers them (the dividend
//! shifted to the top of `q` for a 32-bit operation) and the signs; each
//! of the next 16 or 32 edges takes two restoring steps, each shifting one
//! dividend bit into the partial remainder `r`, subtracting the divisor
//! where it fits (a 65-bit carry chain, two in series) and shifting the
//! quotient bit into `q`; the last edge applies the signs (or the
//! division-by-zero rule) and registers `d`. The simulation model is the
//! ISA's scalar semantics ([`crate::alu::model`], what the golden model
//! runs), delivered at the same edge; `hw/tests/cosim.rs` holds the
//! Verilog to it under Verilator, results and timing.

use crate::alu::{isa_localparams, model};
use heddle_isa::Opcode;
use rust_hdl::prelude::*;

#[derive(Default)]
pub struct Divider {
    pub clock: Signal<In, Clock>,
    pub start: Signal<In, Bit>,
    pub op: Signal<In, Bits<7>>,
    pub modv: Signal<In, Bits<6>>,
    pub a: Signal<In, Bits<64>>,
    pub b: Signal<In, Bits<64>>,
    pub done: Signal<Out, Bit>,
    pub d: Signal<Out, Bits<64>>,
    count: Countdown,
}

/// What an iterative unit ([`Divider`], [`crate::fdivsqrt::FpDivSqrt`],
/// [`crate::sfu::Sfu`]) simulates: its model's result, computed at `start` and delivered a
/// latency of rising edges later.
#[derive(Default)]
pub struct Countdown {
    /// Rising edges until `done` (0: idle, or done).
    left: u32,
    result: u64,
}

impl Countdown {
    /// A rising edge: a start (`run` gives the result and the latency)
    /// lowers `done`; the last edge of the count raises it with `d`.
    pub fn edge(&mut self, start: bool, run: impl FnOnce() -> (u64, u32), done: &mut Signal<Out, Bit>, d: &mut Signal<Out, Bits<64>>) {
        if start {
            (self.result, self.left) = run();
            done.next = false;
        } else if self.left > 0 {
            self.left -= 1;
            if self.left == 0 {
                done.next = true;
                d.next = self.result.into();
            }
        }
    }

    pub fn busy(&self) -> bool {
        self.left > 0
    }
}

impl Divider {
    /// Rising edges from `start` to `done` for opcode `op`: one per two
    /// quotient bits, and one to sign the result.
    pub fn latency(op: u8) -> u32 {
        if op == Opcode::Div64 as u8 || op == Opcode::Rem64 as u8 {
            33
        } else {
            17
        }
    }
}

impl Logic for Divider {
    fn update(&mut self) {
        if !self.clock.pos_edge() {
            return;
        }
        // The inputs are never committed (see `Block::update_all`): the edge
        // takes what the parent assigned last.
        let (op, modv, a, b) = (self.op.next.index() as u8, self.modv.next.index() as u32, self.a.next.to_u64(), self.b.next.to_u64());
        let run = || (model(op, modv, a, b, 0, false, false).0, Divider::latency(op));
        self.count.edge(self.start.next, run, &mut self.done, &mut self.d);
    }

    fn connect(&mut self) {
        self.done.connect();
        self.d.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!("{}{}", isa_localparams(), VERILOG))
    }
}

const VERILOG: &str = r#"wire is_wide = (op == OP_DIV64) | (op == OP_REM64);
wire is_rem = (op == OP_REM) | (op == OP_REM64);
wire sgn = modv[MOD_SIGN_LO];
wire sa = sgn & (is_wide ? a[63] : a[31]);
wire sb = sgn & (is_wide ? b[63] : b[31]);
wire [31:0] na32 = 32'd0 - a[31:0];
wire [31:0] nb32 = 32'd0 - b[31:0];
wire [63:0] ua = is_wide ? (sa ? 64'd0 - a : a) : {32'd0, sa ? na32 : a[31:0]};
wire [63:0] ub = is_wide ? (sb ? 64'd0 - b : b) : {32'd0, sb ? nb32 : b[31:0]};
reg [6:0] cnt;
reg [63:0] r;
reg [63:0] q;
reg [63:0] y;
reg [63:0] x0;
reg w;
reg want_rem;
reg nq;
reg nr;
reg zero;
// Two restoring steps: shift a dividend bit in, subtract where it fits.
wire [64:0] rs1 = {r, q[63]};
wire [64:0] diff1 = rs1 - {1'b0, y};
wire [63:0] r1 = diff1[64] ? rs1[63:0] : diff1[63:0];
wire [63:0] q1 = {q[62:0], ~diff1[64]};
wire [64:0] rs2 = {r1, q1[63]};
wire [64:0] diff2 = rs2 - {1'b0, y};
wire [31:0] nq32 = 32'd0 - q[31:0];
wire [31:0] nr32 = 32'd0 - r[31:0];
wire [63:0] qv = w ? (nq ? 64'd0 - q : q) : {32'd0, nq ? nq32 : q[31:0]};
wire [63:0] rv = w ? (nr ? 64'd0 - r : r) : {32'd0, nr ? nr32 : r[31:0]};
wire [63:0] ones = w ? 64'hffffffffffffffff : 64'h00000000ffffffff;
initial begin
   cnt = 7'd0;
   done = 1'b0;
   d = 64'd0;
end
always @(posedge clock) begin
   if (start) begin
      w <= is_wide;
      want_rem <= is_rem;
      nq <= sa ^ sb;
      nr <= sa;
      zero <= is_wide ? (b == 64'd0) : (b[31:0] == 32'd0);
      x0 <= is_wide ? a : {32'd0, a[31:0]};
      y <= ub;
      r <= 64'd0;
      q <= is_wide ? ua : {ua[31:0], 32'd0};
      cnt <= is_wide ? 7'd33 : 7'd17;
      done <= 1'b0;
   end else if (cnt > 7'd1) begin
      r <= diff2[64] ? rs2[63:0] : diff2[63:0];
      q <= {q1[62:0], ~diff2[64]};
      cnt <= cnt - 7'd1;
   end else if (cnt == 7'd1) begin
      cnt <= 7'd0;
      done <= 1'b1;
      d <= zero ? (want_rem ? x0 : ones) : (want_rem ? rv : qv);
   end
end"#;

iterative_block!(Divider; clock, start, op, modv, a, b, done, d);
