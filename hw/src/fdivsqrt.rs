//! `FpDivSqrt`: the SM's iterative IEEE division and square root, for
//! `fdiv`, `fsqrt` (binary32, `.ftz`) and `ddiv`, `dsqrt` (binary64), in
//! the four rounding modes. There is one per SM (with `SmConfig::fp32` or
//! `fp64`): it takes a beat's lanes in turn, like the integer divider.
//! The FP units have no division or square root: combinational ones (a
//! 256-bit `/` and `%`, an 86-step recurrence) did not synthesize.
//!
//! Ports: `start` (with `op`, `modv`, `a`, `b`, as the FP unit takes them)
//! is taken at a rising edge; `done` rises [`FpDivSqrt::latency`] edges
//! later (8 for binary32, 15 for binary64) with the result on `d`, and
//! both hold until the next `start`. In the cycle before `done` rises it
//! asks an `Fpu` to round (`rq_on` and the request) and takes `rounded`
//! back at that edge.
//!
//! The hardware, a digit recurrence four bits per cycle:
//! - the start edge registers the special cases' result (NaN, infinity,
//!   zero operands: as in `fpu.rs`) and the significands normalized to a
//!   leading bit at place 52 (a leading-zero count and a shift, for
//!   subnormals), with the result's sign and exponent;
//! - division: restoring, one quotient bit per step, `r >= y ? r - y : r`
//!   then `r << 1`: after K steps (28 for binary32, 56 for binary64) the
//!   quotient `Q = floor(x 2^(K-1) / y)` has at least p + 2 bits;
//! - square root: the exponent made even (the significand doubled if not),
//!   the radicand `x << 58` consumed two bits a step from the top,
//!   `r = 4r + next`, trial `4R + 1`: after 28 or 56 steps the root `R` has
//!   at least p + 2 bits (binary32's radicand is its top 56 bits, `x << 2`);
//! - each cycle takes four steps (four carry chains of 61 bits in series);
//! - the last cycle rounds once, on the SM's shared FP unit, which is
//!   idle while a division runs (the `rq_` ports: the magnitude
//!   `(Q << 1) | (r != 0)`, the remainder as sticky, to that unit's
//!   `pack`), and the last edge takes the result, for binary32 flushing a
//!   subnormal one with `.ftz`. The unit has no `pack` of its own
//!   (`docs/fpga.md`, "Floating point").
//!
//! The simulation model is the ISA's scalar semantics ([`crate::fpu::model`],
//! what the golden model runs), delivered at the same edge;
//! `hw/tests/fpu.rs` holds the Verilog, rounding on an `Fpu`, to it under
//! Verilator, results and timing.

use crate::alu::isa_localparams;
use crate::div::Countdown;
use crate::fpu::{model, FPU_COMMON, RQ_MAG};
use heddle_isa::Opcode;
use rust_hdl::prelude::*;

#[derive(Default)]
pub struct FpDivSqrt {
    pub clock: Signal<In, Clock>,
    pub start: Signal<In, Bit>,
    pub op: Signal<In, Bits<7>>,
    pub modv: Signal<In, Bits<6>>,
    pub a: Signal<In, Bits<64>>,
    pub b: Signal<In, Bits<64>>,
    pub done: Signal<Out, Bit>,
    pub d: Signal<Out, Bits<64>>,
    /// The rounding request to an `Fpu` (its ports of these names), in the
    /// last cycle (`rq_on`): the quotient or root with the remainder as
    /// sticky, its last place's exponent, the mode and the format. Verilog
    /// only: the simulation model computes the whole result and leaves them
    /// low.
    pub rq_on: Signal<Out, Bit>,
    pub rq_s: Signal<Out, Bit>,
    pub rq_mag: Signal<Out, Bits<RQ_MAG>>,
    pub rq_e: Signal<Out, Bits<16>>,
    pub rq_rm: Signal<Out, Bits<2>>,
    pub rq_f: Signal<Out, Bits<2>>,
    /// The `Fpu`'s answer (`rounded`).
    pub rounded: Signal<In, Bits<64>>,
    count: Countdown,
}

impl FpDivSqrt {
    /// The opcodes it executes.
    pub const OPS: [Opcode; 4] = crate::fpu::DIV_SQRT_OPS;

    /// Rising edges from `start` to `done` for opcode `op`: one per
    /// `STEPS` steps, and one to round.
    pub fn latency(op: u8) -> u32 {
        if op == Opcode::Ddiv as u8 || op == Opcode::Dsqrt as u8 {
            K64 / STEPS + 1
        } else {
            K32 / STEPS + 1
        }
    }
}

impl Logic for FpDivSqrt {
    fn update(&mut self) {
        if !self.clock.pos_edge() {
            return;
        }
        // The inputs are never committed (see `Block::update_all`): the edge
        // takes what the parent assigned last.
        let (op, modv, a, b) = (self.op.next.index() as u8, self.modv.next.index() as u32, self.a.next.to_u64(), self.b.next.to_u64());
        let run = || (model(op, modv, false, a, b, 0).0, FpDivSqrt::latency(op));
        self.count.edge(self.start.next, run, &mut self.done, &mut self.d);
    }

    fn connect(&mut self) {
        self.done.connect();
        self.d.connect();
        self.rq_on.connect();
        self.rq_s.connect();
        self.rq_mag.connect();
        self.rq_e.connect();
        self.rq_rm.connect();
        self.rq_f.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!("{}{}{}", isa_localparams(), FPU_COMMON, verilog()))
    }
}

/// Steps a cycle.
const STEPS: u32 = 4;
/// Steps of an operation: binary32, binary64.
const K32: u32 = 28;
const K64: u32 = 56;

/// The datapath, its `STEPS` steps a cycle written out.
fn verilog() -> String {
    let n = STEPS;
    let mut steps = String::from(
        "// Each cycle's steps. Division: compare with dvs, subtract where it fits,\n\
         // shift; square root: shift two radicand bits in, compare with 4R + 1.\n\
         wire [59:0] r0 = pr;\nwire [56:0] q0 = qr;\n",
    );
    for i in 1..=n {
        let (j, hi) = (i - 1, 111 - 2 * (i - 1));
        steps += &format!(
            "wire [59:0] ri{i} = sq ? {{r{j}[57:0], rad[{hi}:{lo}]}} : r{j};\n\
             wire [59:0] t{i} = sq ? {{1'b0, q{j}, 2'b01}} : {{7'd0, dvs}};\n\
             wire [60:0] d{i} = {{1'b0, ri{i}}} - {{1'b0, t{i}}};\n\
             wire [59:0] ro{i} = d{i}[60] ? ri{i} : d{i}[59:0];\n\
             wire [56:0] q{i} = {{q{j}[55:0], ~d{i}[60]}};\n\
             wire [59:0] r{i} = sq ? ro{i} : {{ro{i}[58:0], 1'b0}};\n",
            lo = hi - 1
        );
    }
    VERILOG
        .replace("{steps}", &steps)
        .replace("{rq_pad}", &(RQ_MAG - 58).to_string())
        .replace("{last_r}", &format!("r{n}"))
        .replace("{last_q}", &format!("q{n}"))
        .replace("{rad_next}", &format!("{{rad[{}:0], {}'d0}}", 111 - 2 * n, 2 * n))
        .replace("{cnt64}", &format!("6'd{}", FpDivSqrt::latency(Opcode::Ddiv as u8)))
        .replace("{cnt32}", &format!("6'd{}", FpDivSqrt::latency(Opcode::Fdiv as u8)))
        .replace("{K64}", &K64.to_string())
        .replace("{K32}", &K32.to_string())
        // The radicand's 54 bits at the top of 2 K64 bits: 2K - 54 places below.
        .replace("{S64}", &(2 * K64 - 54).to_string())
        .replace("{S32}", &(2 * K32 - 54).to_string())
}

const VERILOG: &str = r#"
wire [1:0] rnd = modv[MOD_RND_LO +: 2];
wire ftz = modv[MOD_FTZ_LO];
wire dbl = (op == OP_DDIV) | (op == OP_DSQRT);
wire is_sqrt = (op == OP_FSQRT) | (op == OP_DSQRT);
wire [1:0] fmt = dbl ? F64 : F32;
wire [63:0] xa = dbl ? a : flush({32'd0, a[31:0]}, ftz);
wire [63:0] xb = dbl ? b : flush({32'd0, b[31:0]}, ftz);
wire sgn = !is_sqrt && (neg(xa, fmt) ^ neg(xb, fmt));

// The special cases: NaN, infinite and zero operands.
reg spec;
reg [63:0] specv;
always @(*) begin
    spec = 1'b1;
    specv = 64'd0;
    if (is_sqrt) begin
        if (is_nan(xa, fmt) || (neg(xa, fmt) && !is_zero(xa, fmt))) specv = qnan(fmt);
        else if (is_zero(xa, fmt) || is_inf(xa, fmt)) specv = xa;
        else spec = 1'b0;
    end else begin
        if (is_nan(xa, fmt) || is_nan(xb, fmt) || (is_inf(xa, fmt) && is_inf(xb, fmt)) || (is_zero(xa, fmt) && is_zero(xb, fmt)))
            specv = qnan(fmt);
        else if (is_inf(xa, fmt) || is_zero(xb, fmt)) specv = inf(sgn, fmt);
        else if (is_zero(xa, fmt) || is_inf(xb, fmt)) specv = zero(sgn, fmt);
        else spec = 1'b0;
    end
end

// Leading zeros of a nonzero 53-bit significand.
function [5:0] lz53(input [52:0] m);
    integer i;
    begin
        lz53 = 6'd0;
        for (i = 0; i < 53; i = i + 1) if (m[i]) lz53 = 6'd52 - i[5:0];
    end
endfunction
wire [52:0] siga = sig(xa, fmt);
wire [52:0] sigb = sig(xb, fmt);
wire [5:0] za = lz53(siga);
wire [5:0] zb = lz53(sigb);
wire [52:0] na = siga << za;
wire [52:0] nb = sigb << zb;
// The exponents of the normalized significands' last places.
wire signed [31:0] ea = lsbexp(xa, fmt) - {26'd0, za};
wire signed [31:0] eb = lsbexp(xb, fmt) - {26'd0, zb};
// Square root: an odd exponent doubles the significand.
wire [53:0] xs = ea[0] ? {na, 1'b0} : {1'b0, na};
wire signed [31:0] es = ea[0] ? ea - 1 : ea;
// The result's exponent (of the magnitude's last place) for K steps:
// division a / b: ea - eb - K; square root of x 2^es with radicand x 2^S:
// (es - S) / 2 - 1, S = 2 (binary32) or 58 (binary64).
wire signed [31:0] e0 = is_sqrt ? ((es - (dbl ? 32'sd{S64} : 32'sd{S32})) >>> 1) - 32'sd1 : ea - eb - (dbl ? 32'sd{K64} : 32'sd{K32});

reg [5:0] cnt;
reg sq, wide, s_q, spec_q, ftz_q;
reg [1:0] rnd_q;
reg [63:0] specv_q;
reg signed [31:0] e_q;
reg [59:0] pr;
reg [56:0] qr;
reg [52:0] dvs;
reg [111:0] rad;

{steps}
// The last cycle: one rounding on the FP unit, the remainder as sticky.
always @(*) begin
   rq_on = cnt == 6'd1;
   rq_s = s_q;
   rq_mag = {{rq_pad}'d0, qr, pr != 60'd0};
   rq_e = e_q[15:0];
   rq_rm = rnd_q;
   rq_f = wide ? F64 : F32;
end
wire [63:0] result = spec_q ? specv_q : rounded;

initial begin
   cnt = 6'd0;
   done = 1'b0;
   d = 64'd0;
end
always @(posedge clock) begin
   if (start) begin
      sq <= is_sqrt;
      wide <= dbl;
      s_q <= sgn;
      spec_q <= spec;
      specv_q <= specv;
      rnd_q <= rnd;
      ftz_q <= ftz;
      e_q <= e0;
      pr <= is_sqrt ? 60'd0 : {7'd0, na};
      dvs <= nb;
      qr <= 57'd0;
      rad <= {xs, 58'd0};
      cnt <= dbl ? {cnt64} : {cnt32};
      done <= 1'b0;
   end else if (cnt > 6'd1) begin
      pr <= {last_r};
      qr <= {last_q};
      rad <= {rad_next};
      cnt <= cnt - 6'd1;
   end else if (cnt == 6'd1) begin
      cnt <= 6'd0;
      done <= 1'b1;
      d <= wide ? result : flush(result, ftz_q);
   end
end"#;

iterative_block!(FpDivSqrt; clock, start, op, modv, a, b, done, d, rq_on, rq_s, rq_mag, rq_e, rq_rm, rq_f, rounded);
