//! `Fpu`: one lane's binary32 unit: `fadd`, `fsub`, `fmul`, `ffma` in the
//! four rounding modes with `.ftz` and `.sat`, `fmin`, `fmax`, `fsetp`,
//! `frnd`, and `f2i`/`i2f` with 32-bit integers.
//!
//! A custom block: its simulation model is the ISA's scalar semantics
//! (`heddle_isa::scalar::fp`, what the golden model runs); its Verilog is
//! written by hand below and held bit-exact to the model under Verilator on
//! 1e5+ random and special operands per operation and rounding mode
//! (`hw/tests/fpu.rs`).
//!
//! The Verilog has one fused multiply-add datapath; add and subtract are
//! `a * 1.0 + b` and `a * 1.0 - b`, multiply is `a * b + z` with `z` the zero
//! that leaves every product unchanged in the rounding mode (+0 toward
//! negative infinity, -0 otherwise). Algorithm:
//!
//! 1. flush subnormal inputs with `.ftz`; NaN and infinity cases first
//!    (any NaN, inf * 0, inf - inf give the canonical NaN `0x7fffffff`);
//! 2. the product's 48-bit significand at exponent `ea + eb - 300`, the
//!    addend's 24-bit significand at `ec - 150` (value = significand *
//!    2^exponent); if their exponents differ by at most 80 the sum is formed
//!    exactly (129 bits); beyond that the smaller operand only contributes a
//!    sticky unit three places below the larger one's last bit;
//! 3. an exactly zero sum is +0, or -0 toward negative infinity (both
//!    operands' signs agreeing give that sign);
//! 4. the sum is rounded once at the result's last place (normal: 24
//!    significant bits; subnormal: the 2^-149 place) by the rounding mode;
//!    overflow gives infinity or the largest finite value as the mode says;
//! 5. `.ftz` flushes a subnormal result, `.sat` clamps to [+0, 1] (NaN to +0).

use crate::alu::isa_localparams;
use heddle_isa::scalar::fp::{self, IntTy, Rnd};
use heddle_isa::table::mod_info;
use heddle_isa::{ModKind, Opcode};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct Fpu {
    pub op: Signal<In, Bits<7>>,
    pub modv: Signal<In, Bits<6>>,
    /// `ext` bit 0 (`fsetp`'s `.ftz`).
    pub ext0: Signal<In, Bit>,
    pub a: Signal<In, Bits<32>>,
    pub b: Signal<In, Bits<32>>,
    pub c: Signal<In, Bits<32>>,
    /// The result in the low 32 bits (64 wide like the integer ALU's).
    pub d: Signal<Out, Bits<64>>,
    /// `fsetp`'s comparison result.
    pub pout: Signal<Out, Bit>,
}

/// Opcodes this unit executes.
pub const OPS: &[Opcode] = &[
    Opcode::Fadd,
    Opcode::Fsub,
    Opcode::Fmul,
    Opcode::Ffma,
    Opcode::Fmin,
    Opcode::Fmax,
    Opcode::Fsetp,
    Opcode::Frnd,
    Opcode::F2i,
    Opcode::I2f,
];

/// The reference semantics: (d, pout).
pub fn model(op: u8, modv: u32, ext0: bool, a: u32, b: u32, c: u32) -> (u32, bool) {
    let m = |k: ModKind| mod_info(k).get(modv);
    let rnd = Rnd::from_bits(m(ModKind::Rnd));
    let (ftz, sat) = (m(ModKind::Ftz) == 1, m(ModKind::Sat) == 1);
    match Opcode::from_code(op) {
        Some(Opcode::Fadd) => (fp::add32(a, b, rnd, ftz, sat), false),
        Some(Opcode::Fsub) => (fp::sub32(a, b, rnd, ftz, sat), false),
        Some(Opcode::Fmul) => (fp::mul32(a, b, rnd, ftz, sat), false),
        Some(Opcode::Ffma) => (fp::fma32(a, b, c, rnd, ftz, sat), false),
        Some(Opcode::Fmin) => (fp::minmax32(a, b, false, ftz), false),
        Some(Opcode::Fmax) => (fp::minmax32(a, b, true, ftz), false),
        Some(Opcode::Fsetp) => (0, fp::setp32(a, b, m(ModKind::FCmp), ext0)),
        Some(Opcode::Frnd) => (fp::rnd32(a, rnd, ftz), false),
        // 32-bit integer types only (the SM traps on 64-bit ones).
        Some(Opcode::F2i) => (fp::f2i(a, rnd, ftz, IntTy::from_bits(m(ModKind::IntTy) & 1)) as u32, false),
        Some(Opcode::I2f) => (fp::i2f(a as u64, rnd, IntTy::from_bits(m(ModKind::IntTy) & 1)), false),
        _ => (0, false),
    }
}

impl Logic for Fpu {
    fn update(&mut self) {
        let inputs = [self.op.changed, self.modv.changed, self.ext0.changed, self.a.changed, self.b.changed, self.c.changed];
        if !inputs.contains(&true) {
            return;
        }
        let (d, p) = model(
            self.op.val().index() as u8,
            self.modv.val().index() as u32,
            self.ext0.val(),
            self.a.val().to_u32(),
            self.b.val().to_u32(),
            self.c.val().to_u32(),
        );
        self.d.next = (d as u64).into();
        self.pout.next = p;
    }

    fn connect(&mut self) {
        self.d.connect();
        self.pout.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!("{}{}", isa_localparams(), FPU_BODY))
    }
}

const FPU_BODY: &str = r#"
/* verilator lint_off UNUSEDSIGNAL */
wire [1:0] rnd = modv[MOD_RND_LO +: 2];
wire ftz = modv[MOD_FTZ_LO];
wire sat = modv[MOD_SAT_LO];
wire [3:0] fcmp = modv[MOD_FCMP_LO +: 4];

// Round-away decision for a magnitude: round bit, sticky, last kept bit, sign, mode.
function round_up(input [1:0] rm, input rbit, input sticky, input lsb, input neg);
    case (rm)
        2'd0: round_up = rbit && (sticky || lsb);
        2'd1: round_up = 0;
        2'd2: round_up = (rbit || sticky) && neg;
        default: round_up = (rbit || sticky) && !neg;
    endcase
endfunction

function is_nan(input [31:0] x);
    is_nan = (x[30:23] == 8'hff) && (x[22:0] != 0);
endfunction

function [31:0] flush(input [31:0] x, input en);
    flush = (en && x[30:23] == 0) ? {x[31], 31'd0} : x;
endfunction

// xa*xb + xc, rounded once; ftz flushes inputs and the result; sat clamps.
function [31:0] fma32(input [31:0] a_in, input [31:0] b_in, input [31:0] c_in, input [1:0] rm, input fz, input st);
    reg [31:0] xa, xb, xc, r;
    reg sp, sc, sign, a_inf, b_inf, c_inf, a_zero, b_zero, p_zero, c_zero, nan, inc, rbit, sticky;
    reg [23:0] ma, mb, mc;
    reg [47:0] mp;
    integer ep, ec, e, gap, p, x, lsbw, sh, i;
    reg [130:0] big, lesser, mag, rem;
    reg [130:0] q;
    reg sbig, slesser;
    begin
        xa = flush(a_in, fz);
        xb = flush(b_in, fz);
        xc = flush(c_in, fz);
        sp = xa[31] ^ xb[31];
        sc = xc[31];
        a_inf = xa[30:23] == 8'hff && xa[22:0] == 0;
        b_inf = xb[30:23] == 8'hff && xb[22:0] == 0;
        c_inf = xc[30:23] == 8'hff && xc[22:0] == 0;
        a_zero = xa[30:0] == 0;
        b_zero = xb[30:0] == 0;
        c_zero = xc[30:0] == 0;
        nan = is_nan(xa) || is_nan(xb) || is_nan(xc) || (a_inf && b_zero) || (b_inf && a_zero)
            || ((a_inf || b_inf) && c_inf && sp != sc);
        r = 32'd0;
        if (nan) begin
            r = 32'h7fffffff;
        end else if (a_inf || b_inf) begin
            r = {sp, 31'h7f800000};
        end else if (c_inf) begin
            r = xc;
        end else begin
            ma = {xa[30:23] != 0, xa[22:0]};
            mb = {xb[30:23] != 0, xb[22:0]};
            mc = {xc[30:23] != 0, xc[22:0]};
            mp = ma * mb;
            ep = (xa[30:23] == 0 ? 1 : xa[30:23]) + (xb[30:23] == 0 ? 1 : xb[30:23]) - 300;
            ec = (xc[30:23] == 0 ? 1 : xc[30:23]) - 150;
            p_zero = a_zero || b_zero;
            // The exact sum as sign, magnitude and the exponent of its last bit.
            sign = sp;
            mag = 0;
            e = 0;
            if (p_zero && c_zero) begin
                mag = 0;
            end else if (p_zero) begin
                mag = {107'd0, mc};
                e = ec;
                sign = sc;
            end else if (c_zero) begin
                mag = {83'd0, mp};
                e = ep;
            end else begin
                if (ep >= ec) begin
                    big = {83'd0, mp}; sbig = sp; lesser = {107'd0, mc}; slesser = sc; gap = ep - ec; e = ec;
                end else begin
                    big = {107'd0, mc}; sbig = sc; lesser = {83'd0, mp}; slesser = sp; gap = ec - ep; e = ep;
                end
                if (gap > 80) begin
                    big = big << 3;
                    lesser = 1;
                    e = (ep >= ec ? ep : ec) - 3;
                end else begin
                    big = big << gap;
                end
                if (sbig == slesser) begin
                    mag = big + lesser;
                    sign = sbig;
                end else if (big >= lesser) begin
                    mag = big - lesser;
                    sign = sbig;
                end else begin
                    mag = lesser - big;
                    sign = slesser;
                end
            end
            if (mag == 0) begin
                // Exact zero: like-signed zeros keep their sign, otherwise +0 (-0 toward -inf).
                if (p_zero && c_zero && sp == sc) r = {sp, 31'd0};
                else r = {rm == 2'd2, 31'd0};
            end else begin
                p = 0;
                for (i = 0; i < 131; i = i + 1) if (mag[i]) p = i;
                x = p + e;
                lsbw = (x - 23 > -149) ? x - 23 : -149;
                sh = lsbw - e;
                rbit = 0;
                sticky = 0;
                if (sh > 130) begin
                    // Everything lies below the round bit (mag < 2^129).
                    q = 0;
                    sticky = 1;
                end else if (sh > 0) begin
                    q = mag >> sh;
                    rem = mag & ((131'd1 << sh) - 1);
                    rbit = rem[sh - 1];
                    sticky = (rem & ((131'd1 << (sh - 1)) - 1)) != 0;
                end else begin
                    q = mag << (-sh);
                end
                inc = round_up(rm, rbit, sticky, q[0], sign);
                q = q + {130'd0, inc};
                // Subnormal place (q <= 2^24 encodes itself, carrying into the
                // exponent field); normal: exponent field x + 126 plus q's hidden bit.
                if (lsbw == -149) begin
                    r = {sign, q[30:0]};
                end else if (x + 127 + (q >= 131'h1000000 ? 1 : 0) >= 255) begin
                    if (rm == 2'd1 || (rm == 2'd2 && !sign) || (rm == 2'd3 && sign)) r = {sign, 31'h7f7fffff};
                    else r = {sign, 31'h7f800000};
                end else begin
                    r = {sign, 31'd0} + (((x + 126) & 32'h0ff) << 23) + q[31:0];
                end
            end
            if (fz && r[30:23] == 0) r = {r[31], 31'd0};
        end
        if (st) begin
            if (is_nan(r) || r[31]) r = 32'd0;
            else if (r > 32'h3f800000) r = 32'h3f800000;
        end
        fma32 = r;
    end
endfunction

function signed [32:0] key(input [31:0] x);
    key = x[31] ? -$signed({2'b0, x[30:0]}) - 33'sd1 : $signed({1'b0, x});
endfunction

function [31:0] minmax(input [31:0] a_in, input [31:0] b_in, input mx, input fz);
    reg [31:0] xa, xb;
    begin
        xa = flush(a_in, fz);
        xb = flush(b_in, fz);
        if (is_nan(xa) && is_nan(xb)) minmax = 32'h7fffffff;
        else if (is_nan(xa)) minmax = xb;
        else if (is_nan(xb)) minmax = xa;
        else if ((key(xa) < key(xb)) != mx) minmax = xa;
        else minmax = xb;
    end
endfunction

// fsetp: eq ne lt le gt ge (ordered), equ neu ltu leu gtu geu (unordered), num, nan.
function setp(input [31:0] a_in, input [31:0] b_in, input [3:0] k, input fz);
    reg [31:0] xa, xb;
    reg un, eq, lt, gt, base;
    reg [3:0] kk;
    begin
        xa = flush(a_in, fz);
        xb = flush(b_in, fz);
        un = is_nan(xa) || is_nan(xb);
        eq = !un && ((xa == xb) || (xa[30:0] == 0 && xb[30:0] == 0));
        lt = !un && !eq && (key(xa) < key(xb));
        gt = !un && !eq && !lt;
        kk = (k >= 4'd6 && k <= 4'd11) ? k - 4'd6 : k;
        case (kk)
            4'd0: base = eq;
            4'd1: base = !eq && !un;
            4'd2: base = lt;
            4'd3: base = lt || eq;
            4'd4: base = gt;
            4'd5: base = gt || eq;
            default: base = 0;
        endcase
        if (k == 4'd12) setp = !un;
        else if (k == 4'd13) setp = un;
        else if (k >= 4'd6 && k <= 4'd11) setp = un || base;
        else if (k <= 4'd5) setp = base;
        else setp = 0;
    end
endfunction

// Float to integer magnitude, rounded in mode rm, and whether it exceeds 2^40.
function [64:0] to_int(input [31:0] xa, input [1:0] rm);
    reg [23:0] m;
    reg [63:0] q;
    reg rbit, sticky, inc, huge;
    integer e, sh;
    begin
        m = {xa[30:23] != 0, xa[22:0]};
        e = (xa[30:23] == 0) ? 1 : xa[30:23];
        huge = 0;
        rbit = 0;
        sticky = 0;
        if (e >= 150) begin
            if (e - 150 > 39) begin
                huge = 1;
                q = 0;
            end else begin
                q = {40'd0, m} << (e - 150);
            end
        end else begin
            sh = 150 - e;
            if (sh > 25) begin
                q = 0;
                sticky = m != 0;
            end else begin
                q = {40'd0, m >> sh};
                rbit = m[sh - 1];
                sticky = (m & ((24'd1 << (sh - 1)) - 1)) != 0;
            end
        end
        inc = round_up(rm, rbit, sticky, q[0], xa[31]);
        to_int = {huge, q + {63'd0, inc}};
    end
endfunction

// f2i with a 32-bit type: NaN gives 0, out-of-range values saturate.
function [31:0] f2i32(input [31:0] a_in, input [1:0] rm, input fz, input sgn);
    reg [31:0] xa;
    reg [64:0] r;
    begin
        xa = flush(a_in, fz);
        r = to_int(xa, rm);
        if (is_nan(xa)) f2i32 = 0;
        else if (!sgn) f2i32 = xa[31] ? 32'd0 : (r[64] || r[63:32] != 0 || xa[30:23] == 8'hff) ? 32'hffffffff : r[31:0];
        else if (xa[31]) f2i32 = (r[64] || r[63:0] > 64'h80000000 || xa[30:23] == 8'hff) ? 32'h80000000 : 32'd0 - r[31:0];
        else f2i32 = (r[64] || r[63:0] > 64'h7fffffff || xa[30:23] == 8'hff) ? 32'h7fffffff : r[31:0];
    end
endfunction

// i2f from a 32-bit integer, rounded in mode rm.
function [31:0] i2f32(input [31:0] x, input sgn, input [1:0] rm);
    reg neg, rbit, sticky, inc;
    reg [31:0] mag;
    reg [32:0] q;
    integer p, i, sh;
    begin
        neg = sgn && x[31];
        mag = neg ? 32'd0 - x : x;
        if (mag == 0) begin
            i2f32 = 32'd0;
        end else begin
            p = 0;
            for (i = 0; i < 32; i = i + 1) if (mag[i]) p = i;
            rbit = 0;
            sticky = 0;
            if (p <= 23) begin
                q = {1'b0, mag} << (23 - p);
            end else begin
                sh = p - 23;
                q = {1'b0, mag >> sh};
                rbit = mag[sh - 1];
                sticky = (mag & ((32'd1 << (sh - 1)) - 1)) != 0;
            end
            inc = round_up(rm, rbit, sticky, q[0], neg);
            q = q + {32'd0, inc};
            // q in [2^23, 2^24]: exponent field p + 126 plus q's hidden bit.
            i2f32 = {neg, 31'd0} + ((p + 126) << 23) + q[31:0];
        end
    end
endfunction

// frnd: round to an integral value in mode rm (NaN canonical, ftz on the input).
function [31:0] rnd32(input [31:0] a_in, input [1:0] rm, input fz);
    reg [31:0] xa;
    reg [64:0] r;
    begin
        xa = flush(a_in, fz);
        r = to_int(xa, rm);
        if (is_nan(xa)) rnd32 = 32'h7fffffff;
        else if (xa[30:23] >= 8'd150) rnd32 = xa;
        else if (r[63:0] == 0) rnd32 = {xa[31], 31'd0};
        else rnd32 = {xa[31], 31'd0} | i2f32(r[31:0], 1'b0, 2'd1);
    end
endfunction

always @(*) begin
    d = 64'd0;
    pout = 1'b0;
    case (op)
        OP_FADD: d = {32'd0, fma32(a, 32'h3f800000, b, rnd, ftz, sat)};
        OP_FSUB: d = {32'd0, fma32(a, 32'h3f800000, b ^ 32'h80000000, rnd, ftz, sat)};
        OP_FMUL: d = {32'd0, fma32(a, b, (rnd == 2'd2) ? 32'h00000000 : 32'h80000000, rnd, ftz, sat)};
        OP_FFMA: d = {32'd0, fma32(a, b, c, rnd, ftz, sat)};
        OP_FMIN: d = {32'd0, minmax(a, b, 1'b0, ftz)};
        OP_FMAX: d = {32'd0, minmax(a, b, 1'b1, ftz)};
        OP_FSETP: pout = setp(a, b, fcmp, ext0);
        OP_FRND: d = {32'd0, rnd32(a, rnd, ftz)};
        OP_F2I: d = {32'd0, f2i32(a, rnd, ftz, modv[MOD_INTTY_LO])};
        OP_I2F: d = {32'd0, i2f32(a, modv[MOD_INTTY_LO], rnd)};
        default: d = 64'd0;
    endcase
end
/* verilator lint_on UNUSEDSIGNAL */
"#;
