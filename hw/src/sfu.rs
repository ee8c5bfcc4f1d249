//! `Sfu`: the SM's iterative special-function unit, `mufu` (rcp, rsqrt,
//! lg2, ex2, sin, cos, sqrt, tanh on binary32, with `.ftz`). There is one
//! per SM (with `SmConfig::fp32`): it takes a beat's lanes in turn, like the
//! integer divider. A combinational SFU (a 64-bit `/` and `%`, two 32-step
//! square roots, eight 128-bit rounding steps and 64 x 64 multiplies in
//! parallel) did not synthesize: ABC9 ran past its limit on one copy.
//!
//! Ports: `start` (with `modv` and `a`) is taken at a rising edge; `done`
//! rises [`Sfu::latency`] edges later (9 to 26, by function) with the
//! result in the low 32 bits of `d`, and both hold until the next `start`.
//! In the cycle before `done` rises it asks an `Fpu` to round (`rq_on` and
//! the request) and takes `rounded` back at that edge.
//!
//! The algorithm is the golden model's SFU (`heddle_isa::scalar::sfu`),
//! whose module doc is the text this hardware follows; its tables are
//! generated from the same Rust constants (`sfu::LG2`, `EX2`, `SIN`,
//! `TANH`, and the windows of `INV_2PI`), so there is one copy of every
//! coefficient. The hardware sequences it on shared parts:
//! - the start edge unpacks the operand, registers the special cases'
//!   result and each function's set-up (a table row, `t` and `T`, the
//!   result's exponent `k`);
//! - a digit recurrence, [`REC_STEPS`] steps a cycle: restoring division
//!   of `2^22 << n` by the significand (rcp: 40 quotient bits; rsqrt's
//!   `2^86 / M`: 64), and the square root's restoring recurrence (32 root
//!   bits of a 64-bit radicand); the remainders are the sticky bits;
//! - a multiplier, [`MUL_BITS`] bits of the multiplier a cycle, most
//!   significant first, into a 128-bit accumulator: the quadratic's two
//!   products `c2 * t` and `v * t`, sin/cos's `m * W` (the reduction) and
//!   `u * S`, tanh's `m * p`;
//! - two synchronous ROMs (block RAM): the four functions' coefficient
//!   rows, and sin/cos's 96-bit windows of `1/(2 pi)`, one per exponent;
//! - one rounding, two edges, on the SM's shared FP unit, which is idle
//!   while `mufu` runs: the first edge takes a 64-bit window of the
//!   (up to 128-bit) magnitude: its low 64 bits, or where its top 64 do
//!   not hold it, the 64 bits from the highest nonzero 32-bit word down,
//!   the bits below as a sticky bit (33 or more significant bits, enough
//!   to round to 24 once); in the next cycle the
//!   unit rounds it to nearest even (the `rq_` ports, as
//!   [`FpDivSqrt`](crate::fdivsqrt::FpDivSqrt) asks), and the second edge
//!   takes `rounded`, flushing a subnormal one with `.ftz`. The SFU has no
//!   normalizing shifter or rounding of its own (`docs/fpga.md`, "Floating
//!   point").
//!
//! `hw/tests/sfu.rs` holds the Verilog to the golden model under
//! Verilator, results and timing, cycle by cycle.

use crate::alu::isa_localparams;
use crate::div::Countdown;
use crate::fpu::{RQ_F32, RQ_MAG};
use heddle_isa::scalar::fp::Rnd;
use heddle_isa::scalar::sfu;
use heddle_isa::table::mod_info;
use heddle_isa::ModKind;
use rust_hdl::prelude::*;

#[derive(Default)]
pub struct Sfu {
    pub clock: Signal<In, Clock>,
    pub start: Signal<In, Bit>,
    pub modv: Signal<In, Bits<6>>,
    pub a: Signal<In, Bits<32>>,
    pub done: Signal<Out, Bit>,
    /// The result in the low 32 bits (64 wide like the other units').
    pub d: Signal<Out, Bits<64>>,
    /// The rounding request to an `Fpu` (its ports of these names), in the
    /// cycle before `done` rises: the magnitude's window, its last place's
    /// exponent, nearest even, binary32. Verilog only, as
    /// [`FpDivSqrt`](crate::fdivsqrt::FpDivSqrt)'s: the simulation model
    /// computes the whole result and leaves them low.
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

/// The reference semantics.
pub fn model(modv: u32, a: u32) -> u32 {
    let m = |k: ModKind| mod_info(k).get(modv);
    sfu::mufu(m(ModKind::SfuFn), a, m(ModKind::Ftz) == 1)
}

/// Recurrence steps a cycle.
pub const REC_STEPS: u32 = 4;
/// Multiplier bits a cycle.
pub const MUL_BITS: u32 = 16;
/// Quotient bits: rcp's `2^62 / m`, rsqrt's `2^86 / M`; root bits.
const RCP_BITS: u32 = 40;
const RSQRT_BITS: u32 = 64;
const ROOT_BITS: u32 = 32;
/// The multiplier register's width (sin/cos's 96-bit window).
const MB_BITS: u32 = 96;
/// Multiplier bits of each product, in whole cycles: the quadratic's `t`
/// (up to 26 bits), the significand `m` (24), sin's `S` (up to 35), the
/// window `W` (96).
const T_BITS: u32 = 32;
const M_BITS: u32 = 32;
const S_BITS: u32 = 48;
const W_BITS: u32 = 96;

/// `mufu`'s functions by code (the `SfuFn` modifier: `sfu::mufu`'s order),
/// and the codes the latency names.
const FUNCTIONS: [&str; 8] = ["RCP", "RSQRT", "LG2", "EX2", "SIN", "COS", "SQRT", "TANH"];
const RCP: u32 = 0;
const RSQRT: u32 = 1;
const SIN: u32 = 4;
const COS: u32 = 5;
const SQRT: u32 = 6;
const TANH: u32 = 7;

impl Sfu {
    /// Rising edges from `start` to `done` for function `sfn`: the
    /// function's recurrence or products, and two to round.
    pub fn latency(sfn: u32) -> u32 {
        let mul = |bits: u32| bits / MUL_BITS;
        // A table read, the two products, and an edge after each.
        let quad = 1 + mul(T_BITS) + 1 + mul(T_BITS) + 1;
        let edges = match sfn {
            RCP => RCP_BITS / REC_STEPS,
            RSQRT => (RSQRT_BITS + ROOT_BITS) / REC_STEPS,
            SQRT => ROOT_BITS / REC_STEPS,
            // The window's product (after an edge to load it), an edge to reduce.
            SIN | COS => 1 + mul(W_BITS) + 1 + quad + mul(S_BITS),
            TANH => quad + mul(M_BITS),
            _ => quad,
        };
        edges + 2
    }
}

impl Logic for Sfu {
    fn update(&mut self) {
        if !self.clock.pos_edge() {
            return;
        }
        // The inputs are never committed (see `Block::update_all`): the edge
        // takes what the parent assigned last.
        let (modv, a) = (self.modv.next.index() as u32, self.a.next.to_u32());
        let run = || (model(modv, a) as u64, Sfu::latency(mod_info(ModKind::SfuFn).get(modv)));
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
        Verilog::Custom(format!("{}{}{}", isa_localparams(), roms(), verilog()))
    }
}

iterative_block!(Sfu; clock, start, modv, a, done, d, rq_on, rq_s, rq_mag, rq_e, rq_rm, rq_f, rounded);

/// Bits of `v` as a two's complement number.
fn signed_bits(v: i64) -> u32 {
    65 - (if v < 0 { !v } else { v }).leading_zeros()
}

/// The tables in coefficient-ROM order, each at a multiple of 128 rows.
const TABLES: [&[[i64; 3]]; 4] = [&sfu::LG2, &sfu::EX2, &sfu::SIN, &sfu::TANH];
/// sin/cos's window ROM: one row per `j = e - 23` in `J_MIN..=J_MAX`.
const J_MIN: i32 = -35;
const J_MAX: i32 = 104;

/// The coefficient widths (c0, c1, c2) the tables need.
fn coefficient_bits() -> [u32; 3] {
    let mut w = [0; 3];
    for row in TABLES.iter().flat_map(|t| t.iter()) {
        for c in 0..3 {
            w[c] = w[c].max(signed_bits(row[c]));
        }
    }
    w
}

/// The two ROMs as Verilog memories with their initial contents and
/// registered reads (`crow` at `ri`, `wrow` at `wi`).
fn roms() -> String {
    let w = coefficient_bits();
    let cw = w.iter().sum::<u32>();
    let mut s = format!(
        "localparam CW0 = {};\nlocalparam CW1 = {};\nlocalparam CW2 = {};\n\
         reg [{}:0] crom [0:511];\nreg [95:0] wrom [0:255];\ninteger ri_init;\ninitial begin\n\
         \x20   for (ri_init = 0; ri_init < 512; ri_init = ri_init + 1) crom[ri_init] = {cw}'d0;\n\
         \x20   for (ri_init = 0; ri_init < 256; ri_init = ri_init + 1) wrom[ri_init] = 96'd0;\n",
        w[0],
        w[1],
        w[2],
        cw - 1
    );
    let mask = |v: i64, bits: u32| (v as u64) & (u64::MAX >> (64 - bits));
    for (t, table) in TABLES.iter().enumerate() {
        for (i, [c0, c1, c2]) in table.iter().enumerate() {
            s += &format!(
                "    crom[{}] = {{{}'h{:x}, {}'h{:x}, {}'h{:x}}};\n",
                t * 128 + i,
                w[0],
                mask(*c0, w[0]),
                w[1],
                mask(*c1, w[1]),
                w[2],
                mask(*c2, w[2])
            );
        }
    }
    for j in J_MIN..=J_MAX {
        s += &format!("    wrom[{}] = 96'h{:x};\n", j - J_MIN, sfu::inv_2pi_window(j));
    }
    s + "end\n"
}

/// The datapath, its recurrence steps a cycle written out.
fn verilog() -> String {
    let mut steps = String::from(
        "// Each cycle's recurrence steps. Division: shift, compare with dv,\n\
         // subtract where it fits; square root: shift two radicand bits in,\n\
         // compare with 4R + 1.\n\
         wire [35:0] r0 = rr;\nwire [63:0] q0 = qq;\nwire [63:0] rad0 = rad;\n",
    );
    for i in 1..=REC_STEPS {
        let j = i - 1;
        steps += &format!(
            "wire [35:0] ri{i} = sq ? {{r{j}[33:0], rad{j}[63:62]}} : {{r{j}[34:0], 1'b0}};\n\
             wire [35:0] t{i} = sq ? {{q{j}[33:0], 2'b01}} : {{11'd0, dv}};\n\
             wire [36:0] d{i} = {{1'b0, ri{i}}} - {{1'b0, t{i}}};\n\
             wire [35:0] r{i} = d{i}[36] ? ri{i} : d{i}[35:0];\n\
             wire [63:0] q{i} = {{q{j}[62:0], ~d{i}[36]}};\n\
             wire [63:0] rad{i} = {{rad{j}[61:0], 2'b00}};\n"
        );
    }
    let n = REC_STEPS;
    let cycles = |bits: u32| format!("6'd{}", bits / MUL_BITS);
    // A `width`-bit value as `bits` multiplier bits at the top of `mb`.
    let aligned = |v: &str, width: u32, bits: u32| {
        let mut parts = vec![];
        if bits > width {
            parts.push(format!("{}'d0", bits - width));
        }
        parts.push(if width > bits { format!("{v}[{}:0]", bits - 1) } else { v.to_string() });
        if MB_BITS > bits {
            parts.push(format!("{}'d0", MB_BITS - bits));
        }
        format!("{{{}}}", parts.join(", "))
    };
    let functions: String = FUNCTIONS.iter().enumerate().map(|(i, f)| format!("localparam [2:0] F_{f} = 3'd{i};\n")).collect();
    VERILOG
        .replace("{functions}", &functions)
        .replace("{steps}", &steps)
        .replace("{r_last}", &format!("r{n}"))
        .replace("{q_last}", &format!("q{n}"))
        .replace("{rad_last}", &format!("rad{n}"))
        .replace("{rcp_cycles}", &format!("6'd{}", RCP_BITS / REC_STEPS))
        .replace("{rsqrt_cycles}", &format!("6'd{}", RSQRT_BITS / REC_STEPS))
        .replace("{root_cycles}", &format!("6'd{}", ROOT_BITS / REC_STEPS))
        .replace("{t_cycles}", &cycles(T_BITS))
        .replace("{m_cycles}", &cycles(M_BITS))
        .replace("{s_cycles}", &cycles(S_BITS))
        .replace("{w_cycles}", &cycles(W_BITS))
        .replace("{t_aligned}", &aligned("t_q", 26, T_BITS))
        .replace("{w_aligned}", &aligned("wrow", 96, W_BITS))
        .replace("{s_aligned}", &aligned("p", 64, S_BITS))
        .replace("{tanh_b_aligned}", &aligned("tanh_b", 32, M_BITS))
        .replace("{j_min}", &(-J_MIN).to_string())
        .replace("{mul_bits}", &MUL_BITS.to_string())
        .replace("{rq_rn}", &format!("2'd{}", Rnd::Rn as u8))
        .replace("{rq_f32}", &format!("2'd{RQ_F32}"))
}

const VERILOG: &str = r#"
localparam [31:0] QNAN = 32'h7fffffff;
localparam [31:0] INF = 32'h7f800000;
localparam [31:0] ONE = 32'h3f800000;
// mufu's functions (the SfuFn modifier).
{functions}// The sequencer's states.
localparam [3:0] S_IDLE = 4'd0;
localparam [3:0] S_DIV = 4'd1;
localparam [3:0] S_ROOT = 4'd2;
localparam [3:0] S_WIN = 4'd3;
localparam [3:0] S_RED = 4'd4;
localparam [3:0] S_ROM = 4'd5;
localparam [3:0] S_MUL = 4'd6;
localparam [3:0] S_MID = 4'd7;
localparam [3:0] S_END = 4'd8;
localparam [3:0] S_NORM = 4'd9;
localparam [3:0] S_ROUND = 4'd10;
// Which product the multiplier computes (mi).
localparam [1:0] M_C2 = 2'd0;
localparam [1:0] M_V = 2'd1;
localparam [1:0] M_LAST = 2'd2;
localparam [1:0] M_WIN = 2'd3;

// ---- Unpack the operand: x = (-1)^s * m * 2^(e-23), m in [2^23, 2^24).
wire ftz_i = modv[MOD_FTZ_LO];
wire [2:0] fn_i = modv[MOD_SFUFN_LO +: 3];
wire xs = a[31];
wire [7:0] xb = a[30:23];
wire [22:0] xf = a[22:0];
wire x_nan = (xb == 8'hff) && (xf != 23'd0);
wire x_inf = (xb == 8'hff) && (xf == 23'd0);
wire x_zero = (xb == 8'd0) && ((xf == 23'd0) || ftz_i);
wire x_neg = xs && !x_zero;
// Leading zeros of a subnormal's fraction.
function [4:0] lz23(input [22:0] f);
    integer i;
    begin
        lz23 = 5'd23;
        for (i = 0; i < 23; i = i + 1) if (f[i]) lz23 = 5'd22 - i[4:0];
    end
endfunction
wire [4:0] xlz = lz23(xf);
wire signed [11:0] xe = (xb == 8'd0) ? -12'sd127 - $signed({7'd0, xlz}) : $signed({4'd0, xb}) - 12'sd127;
wire [23:0] xm = (xb == 8'd0) ? ({1'b0, xf} << (xlz + 5'd1)) : {1'b1, xf};

// ---- The special cases (NaN, infinities, zeros, and the ranges with a
// fixed answer), registered at the start.
reg spec;
reg [31:0] specv;
always @(*) begin
    spec = 1'b1;
    specv = QNAN;
    case (fn_i)
        F_RCP:
            if (x_nan) specv = QNAN;
            else if (x_inf) specv = {xs, 31'd0};
            else if (x_zero) specv = {xs, 31'd0} | INF;
            else spec = 1'b0;
        F_RSQRT:
            if (x_nan || x_neg) specv = QNAN;
            else if (x_inf) specv = 32'd0;
            else if (x_zero) specv = {xs, 31'd0} | INF;
            else spec = 1'b0;
        F_SQRT:
            if (x_nan || x_neg) specv = QNAN;
            else if (x_inf) specv = INF;
            else if (x_zero) specv = {xs, 31'd0};
            else spec = 1'b0;
        F_LG2:
            if (x_nan || x_neg) specv = QNAN;
            else if (x_inf) specv = INF;
            else if (x_zero) specv = {1'b1, 31'd0} | INF;
            else spec = 1'b0;
        F_EX2:
            if (x_nan) specv = QNAN;
            else if (x_zero) specv = ONE;
            else if (x_inf || xe >= 12'sd8) specv = xs ? 32'd0 : INF;
            else spec = 1'b0;
        F_SIN, F_COS:
            if (x_nan || x_inf) specv = QNAN;
            else if (fn_i == F_COS && (x_zero || xe <= -12'sd13)) specv = ONE;
            else if (x_zero) specv = {xs, 31'd0};
            else if (xe <= -12'sd13) specv = a;
            else spec = 1'b0;
        default:
            if (x_nan) specv = QNAN;
            else if (x_inf || (!x_zero && xe >= 12'sd3)) specv = {xs, 31'd0} | ONE;
            else if (x_zero) specv = {xs, 31'd0};
            else if (xe <= -12'sd13) specv = a;
            else spec = 1'b0;
    endcase
end

// ---- Each function's set-up.
// sqrt, rsqrt: M = m (or 2m) and an even k with m 2^(e-23) = M 2^k
// (k = e - 23 is odd when e is even).
wire k_odd = !xe[0];
wire [24:0] sm = k_odd ? {xm, 1'b0} : {1'b0, xm};
wire signed [11:0] sk = xe - 12'sd23 - $signed({11'd0, k_odd});
wire signed [11:0] sk2 = sk >>> 1;
// ex2: |x| in Q8.32, X = +-|x|, x = n + f / 2^32.
wire signed [11:0] esh = xe + 12'sd9;
wire [11:0] nesh = 12'd0 - esh;
wire [39:0] ax = (esh >= 12'sd0) ? ({16'd0, xm} << esh[4:0]) : (esh >= -12'sd23) ? ({16'd0, xm} >> nesh[4:0]) : 40'd0;
wire [40:0] xfx = xs ? 41'd0 - {1'b0, ax} : {1'b0, ax};
wire signed [11:0] ex2_k = $signed({{3{xfx[40]}}, xfx[40:32]}) - 12'sd32;
// tanh: |x| < 2: |x| in Q.36; 2 <= |x| < 8: the fraction's top bits.
wire signed [11:0] tsh = xe + 12'sd13;
wire [36:0] tax = {13'd0, xm} << tsh[3:0];
wire tanh_lo = xe <= 12'sd0;
wire [6:0] tanh_i = tanh_lo ? {1'b0, tax[36:31]} : {xe[1:0], xm[22:18]} + 7'd32;
wire [25:0] tanh_t = tanh_lo ? {2'd0, tax[30:7]} : {8'd0, xm[17:0]};
// sin, cos: the window's row.
wire signed [11:0] wj = xe - 12'sd23 + 12'sd{j_min};

// ---- The registers.
reg [3:0] st;
reg [5:0] cnt;
reg [2:0] fn_q;
reg ftz_q, s_q, spec_q, sq, pneg, st_q, tanh_one;
reg [31:0] specv_q;
reg signed [11:0] e_q;
reg signed [11:0] k_q;
reg [23:0] m_q;
// The recurrence: remainder, quotient or root, radicand, divisor.
reg [35:0] rr;
reg [63:0] qq;
reg [63:0] rad;
reg [24:0] dv;
// The tables: row index and reads.
reg [8:0] ri;
reg [CW0+CW1+CW2-1:0] crow;
reg [95:0] wrow;
always @(posedge clock) begin
    crow <= crom[ri];
    // Read at the start edge, from the operand.
    wrow <= wrom[wj[7:0]];
end
// The quadratic's t and T (16, 18, 24 or 26), sin's reduced argument u.
reg [25:0] t_q;
reg [4:0] tb_q;
reg [62:0] u_q;
// The multiplier: multiplicand, multiplier bits (the top ones next),
// which product, accumulator.
reg signed [63:0] ma;
reg [95:0] mb;
reg [1:0] mi;
reg [127:0] acc;
// The rounding request: the magnitude's window, its last place's
// exponent, zero.
reg [63:0] pn;
reg signed [15:0] pe;
reg pz;

{steps}
// ---- The coefficients (signed, sign-extended), and acc >> T.
wire signed [63:0] c0 = {{(64-CW0){crow[CW0+CW1+CW2-1]}}, crow[CW0+CW1+CW2-1:CW1+CW2]};
wire signed [63:0] c1 = {{(64-CW1){crow[CW1+CW2-1]}}, crow[CW1+CW2-1:CW2]};
wire signed [63:0] c2 = {{(64-CW2){crow[CW2-1]}}, crow[CW2-1:0]};
reg [63:0] acc_t;
always @(*) begin
    case (tb_q)
        5'd16: acc_t = acc[79:16];
        5'd18: acc_t = acc[81:18];
        5'd24: acc_t = acc[87:24];
        default: acc_t = acc[89:26];
    endcase
end
wire signed [63:0] p = c0 + $signed(acc_t);

// ---- The multiplier: acc = (acc << B) + A * (the next B bits).
wire signed [63:0] amul = (mi == M_C2) ? c2 : ma;
wire [{mul_bits}-1:0] chunk = mb[95:96-{mul_bits}];
wire signed [64+{mul_bits}:0] pp = amul * $signed({1'b0, chunk});
wire [127:0] acc_next = (acc << {mul_bits}) + {{(63-{mul_bits}){pp[64+{mul_bits}]}}, pp};

// ---- sin, cos: the reduction from R = m W mod 2^96 (in acc).
wire [63:0] rf = acc[95:32];
wire [1:0] rq = rf[63:62] + {1'b0, fn_q == F_COS};
wire [62:0] ug = rq[0] ? (63'd1 << 62) - {1'b0, rf[61:0]} : {1'b0, rf[61:0]};
wire [6:0] ui = ug[62] ? 7'd127 : ug[61:55];
wire [62:0] ur = ug - {ui, 55'd0};
// lg2: L = (e << 32) + p.
wire signed [63:0] lg = {{20{e_q[11]}}, e_q, 32'd0} + p;
// tanh: m times p, or 1 times p for 2 <= |x| < 4.
wire [31:0] tanh_b = tanh_one ? 32'd1 : {8'd0, m_q};

// ---- The rounding. psig 2^k is the value: its low 64 bits, or the 64 from
// its highest nonzero 32-bit word down, the bits below as sticky.
wire [127:0] psig = sq || fn_q == F_RCP ? {64'd0, qq[63:1], qq[0] | st_q | (rr != 36'd0)} : acc;
wire [63:0] pwin = (psig[127:96] != 32'd0) ? {psig[127:65], psig[64] | (psig[63:0] != 64'd0)}
    : (psig[95:64] != 32'd0) ? {psig[95:33], psig[32] | (psig[31:0] != 32'd0)}
    : psig[63:0];
wire [15:0] pshift = (psig[127:96] != 32'd0) ? 16'd64 : (psig[95:64] != 32'd0) ? 16'd32 : 16'd0;
// The unit rounds in the last cycle.
always @(*) begin
    rq_on = st == S_ROUND && !spec_q && !pz;
    rq_s = pneg;
    rq_mag = pn;
    rq_e = pe;
    rq_rm = {rq_rn};
    rq_f = {rq_f32};
end
// .ftz flushes a subnormal result.
wire [31:0] rounded32 = (ftz_q && rounded[30:23] == 8'd0) ? {rounded[31], 31'd0} : rounded[31:0];

initial begin
    st = S_IDLE;
    done = 1'b0;
    d = 64'd0;
end
always @(posedge clock) begin
    if (start) begin
        done <= 1'b0;
        fn_q <= fn_i;
        ftz_q <= ftz_i;
        s_q <= xs;
        spec_q <= spec;
        specv_q <= specv;
        e_q <= xe;
        m_q <= xm;
        sq <= 1'b0;
        st_q <= 1'b0;
        pneg <= xs;
        rr <= 36'd1 << 22;
        qq <= 64'd0;
        acc <= 128'd0;
        tanh_one <= xe == 12'sd2;
        case (fn_i)
            F_RCP: begin
                dv <= {1'b0, xm};
                k_q <= -12'sd39 - xe;
                cnt <= {rcp_cycles};
                st <= S_DIV;
            end
            F_RSQRT: begin
                dv <= sm;
                k_q <= -12'sd43 - sk2;
                pneg <= 1'b0;
                cnt <= {rsqrt_cycles};
                st <= S_DIV;
            end
            F_SQRT: begin
                rr <= 36'd0;
                rad <= {1'b0, sm, 38'd0};
                sq <= 1'b1;
                k_q <= sk2 - 12'sd19;
                pneg <= 1'b0;
                cnt <= {root_cycles};
                st <= S_ROOT;
            end
            F_LG2: begin
                ri <= {2'd0, xm[22:16]};
                t_q <= {10'd0, xm[15:0]};
                tb_q <= 5'd16;
                k_q <= -12'sd32;
                st <= S_ROM;
            end
            F_EX2: begin
                ri <= {2'd1, 1'b0, xfx[31:26]};
                t_q <= xfx[25:0];
                tb_q <= 5'd26;
                k_q <= ex2_k;
                pneg <= 1'b0;
                st <= S_ROM;
            end
            F_SIN, F_COS: begin
                k_q <= -12'sd96;
                st <= S_WIN;
            end
            default: begin
                ri <= {2'd3, tanh_i};
                t_q <= tanh_t;
                tb_q <= tanh_lo ? 5'd24 : 5'd18;
                k_q <= (xe == 12'sd2) ? -12'sd32 : xe - 12'sd55;
                st <= S_ROM;
            end
        endcase
    end else begin
        case (st)
            S_DIV: begin
                rr <= {r_last};
                qq <= {q_last};
                cnt <= cnt - 6'd1;
                if (cnt == 6'd1) begin
                    if (fn_q == F_RSQRT) begin
                        // The quotient D is the radicand; its remainder a sticky bit.
                        rad <= {q_last};
                        st_q <= {r_last} != 36'd0;
                        rr <= 36'd0;
                        qq <= 64'd0;
                        sq <= 1'b1;
                        cnt <= {root_cycles};
                        st <= S_ROOT;
                    end else begin
                        st <= S_NORM;
                    end
                end
            end
            S_ROOT: begin
                rr <= {r_last};
                qq <= {q_last};
                rad <= {rad_last};
                cnt <= cnt - 6'd1;
                if (cnt == 6'd1) st <= S_NORM;
            end
            S_WIN: begin
                // The window is read: R = m W.
                ma <= {40'd0, m_q};
                mb <= {w_aligned};
                mi <= M_WIN;
                cnt <= {w_cycles};
                st <= S_MUL;
            end
            S_RED: begin
                u_q <= ug;
                ri <= {2'd2, ui};
                t_q <= {1'b0, ur[55:31]};
                tb_q <= 5'd24;
                pneg <= rq[1] ^ (s_q && fn_q == F_SIN);
                st <= S_ROM;
            end
            S_ROM: begin
                // The row is read: c2 t next.
                mb <= {t_aligned};
                acc <= 128'd0;
                mi <= M_C2;
                cnt <= {t_cycles};
                st <= S_MUL;
            end
            S_MUL: begin
                acc <= acc_next;
                mb <= mb << {mul_bits};
                cnt <= cnt - 6'd1;
                if (cnt == 6'd1) st <= (mi == M_C2) ? S_MID : (mi == M_V) ? S_END : (mi == M_WIN) ? S_RED : S_NORM;
            end
            S_MID: begin
                // v = c1 + (c2 t >> T); v t next.
                ma <= c1 + $signed(acc_t);
                mb <= {t_aligned};
                acc <= 128'd0;
                mi <= M_V;
                cnt <= {t_cycles};
                st <= S_MUL;
            end
            S_END: begin
                // p = c0 + (v t >> T).
                acc <= {{64{p[63]}}, p};
                st <= S_NORM;
                if (fn_q == F_LG2) begin
                    acc <= {64'd0, lg[63] ? 64'd0 - lg : lg};
                    pneg <= lg[63];
                end else if (fn_q == F_SIN || fn_q == F_COS) begin
                    ma <= {1'b0, u_q};
                    mb <= {s_aligned};
                    acc <= 128'd0;
                    mi <= M_LAST;
                    cnt <= {s_cycles};
                    st <= S_MUL;
                end else if (fn_q == F_TANH) begin
                    ma <= p;
                    mb <= {tanh_b_aligned};
                    acc <= 128'd0;
                    mi <= M_LAST;
                    cnt <= {m_cycles};
                    st <= S_MUL;
                end
            end
            S_NORM: begin
                pn <= pwin;
                pe <= {{4{k_q[11]}}, k_q} + pshift;
                pz <= psig == 128'd0;
                st <= S_ROUND;
            end
            S_ROUND: begin
                d <= {32'd0, spec_q ? specv_q : pz ? {pneg, 31'd0} : rounded32};
                done <= 1'b1;
                st <= S_IDLE;
            end
            default: ;
        endcase
    end
end"#;
