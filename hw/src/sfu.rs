//! `Sfu`: one lane's special-function unit, `mufu` (rcp, rsqrt, lg2, ex2,
//! sin, cos, sqrt, tanh on binary32, with `.ftz`).
//!
//! A custom block: its simulation model is the golden model's SFU
//! (`heddle_isa::scalar::sfu`), whose module doc is the algorithm (fixed-point
//! quadratic interpolation from small ROMs, Payne-Hanek reduction for sin and
//! cos, digit-recurrence square roots, one RNE packing step). The Verilog
//! below follows that text step by step; its ROMs are generated from the same
//! Rust tables (`sfu::LG2`, `EX2`, `SIN`, `TANH`, `INV_2PI`), so there is one
//! copy of every coefficient. `hw/tests/sfu.rs` holds the two bit-exact
//! under Verilator on 1e5+ operands per function.

use crate::alu::isa_localparams;
use crate::verilog::isqrt_function;
use heddle_isa::scalar::sfu;
use heddle_isa::table::mod_info;
use heddle_isa::ModKind;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct Sfu {
    pub modv: Signal<In, Bits<6>>,
    pub a: Signal<In, Bits<32>>,
    /// The result in the low 32 bits (64 wide like the other units').
    pub d: Signal<Out, Bits<64>>,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

/// The reference semantics.
pub fn model(modv: u32, a: u32) -> u32 {
    let m = |k: ModKind| mod_info(k).get(modv);
    sfu::mufu(m(ModKind::SfuFn), a, m(ModKind::Ftz) == 1)
}

impl Logic for Sfu {
    fn update(&mut self) {
        // Skip the model while the inputs stay. But the first evaluation
        // finds no input changed (reset values: a = 0, `.rcp`) while d still
        // holds its reset 0, not rcp(+0) = +inf: so a zero output is always
        // recomputed (found by `heddle fuzz`, tests/fuzz-regressions/).
        if !(self.modv.changed || self.a.changed) && self.d.val().to_u64() != 0 {
            return;
        }
        self.d.next = (model(self.modv.val().index() as u32, self.a.val().to_u32()) as u64).into();
    }

    fn connect(&mut self) {
        self.d.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!("{}{}{}{}", isa_localparams(), roms(), isqrt_function("isqrt", 64, 32), SFU_BODY))
    }
}

/// One ROM as a Verilog function from a row index to `{c0, c1, c2}` (three
/// signed 64-bit words).
fn rom(name: &str, rows: &[[i64; 3]]) -> String {
    let mut s = format!("function [191:0] {name}(input [6:0] i);\n    case (i)\n");
    for (i, [c0, c1, c2]) in rows.iter().enumerate() {
        s += &format!("        7'd{i}: {name} = {{64'h{:016x}, 64'h{:016x}, 64'h{:016x}}};\n", *c0 as u64, *c1 as u64, *c2 as u64);
    }
    s += &format!("        default: {name} = 192'd0;\n    endcase\nendfunction\n");
    s
}

fn roms() -> String {
    let w = sfu::INV_2PI;
    format!(
        "{}{}{}{}localparam [255:0] INV_2PI = {{64'h{:016x}, 64'h{:016x}, 64'h{:016x}, 64'h{:016x}}};\n",
        rom("rom_lg2", &sfu::LG2),
        rom("rom_ex2", &sfu::EX2),
        rom("rom_sin", &sfu::SIN),
        rom("rom_tanh", &sfu::TANH),
        w[0],
        w[1],
        w[2],
        w[3]
    )
}

const SFU_BODY: &str = r#"
/* verilator lint_off UNUSEDSIGNAL */
wire ftz = modv[MOD_FTZ_LO];
wire [2:0] sfn = modv[MOD_SFUFN_LO +: 3];
localparam [31:0] QNAN = 32'h7fffffff;
localparam [31:0] INF = 32'h7f800000;
localparam [31:0] ONE = 32'h3f800000;
// Operand classes.
localparam C_FIN = 2'd0;
localparam C_ZERO = 2'd1;
localparam C_INF = 2'd2;
localparam C_NAN = 2'd3;

// Unpack: class, and for a finite x = (-1)^s * m * 2^(e-23) with m in [2^23, 2^24).
function [1:0] ucls(input [31:0] x, input fz);
    if (x[30:23] == 8'hff) ucls = (x[22:0] != 0) ? C_NAN : C_INF;
    else if (x[30:23] == 0 && (x[22:0] == 0 || fz)) ucls = C_ZERO;
    else ucls = C_FIN;
endfunction
function integer lz23(input [22:0] f);
    integer i;
    begin
        lz23 = 23;
        for (i = 0; i < 23; i = i + 1) if (f[i]) lz23 = 22 - i;
    end
endfunction
function integer ue(input [31:0] x);
    ue = (x[30:23] == 0) ? -127 - lz23(x[22:0]) : x[30:23] - 127;
endfunction
function [23:0] um(input [31:0] x);
    um = (x[30:23] == 0) ? {1'b0, x[22:0]} << (lz23(x[22:0]) + 1) : {1'b1, x[22:0]};
endfunction

// n >> rs rounded to nearest even (rs in 40..65).
function [63:0] rne(input [63:0] n, input integer rs);
    reg [127:0] w, q, rest, half;
    begin
        w = {64'd0, n};
        q = w >> rs;
        rest = w & ((128'd1 << rs) - 1);
        half = 128'd1 << (rs - 1);
        rne = q[63:0] + {63'd0, (rest > half) || (rest == half && q[0])};
    end
endfunction

// Pack: round sig * 2^k to binary32 with RNE.
function [31:0] pack(input s, input [127:0] sig, input integer k, input fz);
    integer lz, b, i;
    reg [127:0] n128;
    reg [63:0] n, t;
    reg signed [63:0] r, bb;
    begin
        if (sig == 0) begin
            pack = {s, 31'd0};
        end else begin
            lz = 0;
            for (i = 0; i < 128; i = i + 1) if (sig[i]) lz = 127 - i;
            n128 = sig << lz;
            n = n128[127:64] | {63'd0, n128[63:0] != 0};
            b = k + 254 - lz;
            if (b >= 1 || fz) begin
                bb = b - 1;
                r = (bb <<< 23) + $signed(rne(n, 40));
                if (r >= 64'sd2139095040) pack = {s, 31'd0} | INF;
                else if (r < 64'sd8388608) pack = {s, 31'd0};
                else pack = {s, 31'd0} | r[31:0];
            end else if (b < -24) begin
                pack = {s, 31'd0};
            end else begin
                t = rne(n, 41 - b);
                pack = {s, t[30:0]};
            end
        end
    end
endfunction

// Quad: a ROM row {c0, c1, c2} at t in [0, 2^tb], in i64.
function signed [63:0] quad(input [191:0] row, input [63:0] t, input integer tb);
    reg signed [63:0] c0, c1, c2, v;
    begin
        c0 = row[191:128];
        c1 = row[127:64];
        c2 = row[63:0];
        v = c1 + ((c2 * $signed(t)) >>> tb);
        quad = c0 + ((v * $signed(t)) >>> tb);
    end
endfunction


function [31:0] f_rcp(input [31:0] x, input fz);
    reg [63:0] q, r;
    begin
        case (ucls(x, fz))
            C_NAN: f_rcp = QNAN;
            C_INF: f_rcp = {x[31], 31'd0};
            C_ZERO: f_rcp = {x[31], 31'd0} | INF;
            default: begin
                q = (64'd1 << 62) / {40'd0, um(x)};
                r = (64'd1 << 62) % {40'd0, um(x)};
                f_rcp = pack(x[31], {64'd0, q | {63'd0, r != 0}}, -39 - ue(x), fz);
            end
        endcase
    end
endfunction

// sqrt (rs = 0) and rsqrt (rs = 1): M, k with k even, then the recurrence.
function [31:0] f_sqrt(input [31:0] x, input fz, input rs);
    reg [63:0] mm, n, q;
    reg [127:0] dd, rr;
    integer k;
    begin
        k = ue(x) - 23;
        mm = {40'd0, um(x)};
        if ((k & 1) != 0) begin
            mm = mm << 1;
            k = k - 1;
        end
        if (ucls(x, fz) == C_NAN || (x[31] && ucls(x, fz) != C_ZERO)) begin
            f_sqrt = QNAN;
        end else if (ucls(x, fz) == C_INF) begin
            f_sqrt = rs ? 32'd0 : INF;
        end else if (ucls(x, fz) == C_ZERO) begin
            f_sqrt = {x[31], 31'd0} | (rs ? INF : 32'd0);
        end else if (!rs) begin
            n = mm << 38;
            q = isqrt(n);
            f_sqrt = pack(1'b0, {64'd0, q | {63'd0, q * q != n}}, k / 2 - 19, fz);
        end else begin
            dd = (128'd1 << 86) / {64'd0, mm};
            rr = (128'd1 << 86) % {64'd0, mm};
            q = isqrt(dd[63:0]);
            f_sqrt = pack(1'b0, {64'd0, q | {63'd0, rr != 0 || q * q != dd[63:0]}}, -43 - k / 2, fz);
        end
    end
endfunction

function [31:0] f_lg2(input [31:0] x, input fz);
    reg [63:0] f;
    reg [23:0] m;
    reg signed [63:0] l, e;
    begin
        m = um(x);
        f = {41'd0, m[22:0]};
        e = ue(x);
        l = (e <<< 32) + quad(rom_lg2(f[22:16]), f & 64'hffff, 16);
        if (ucls(x, fz) == C_NAN || (x[31] && ucls(x, fz) != C_ZERO)) f_lg2 = QNAN;
        else if (ucls(x, fz) == C_INF) f_lg2 = INF;
        else if (ucls(x, fz) == C_ZERO) f_lg2 = {1'b1, 31'd0} | INF;
        else f_lg2 = pack(l < 0, {64'd0, l < 0 ? -l : l}, -32, fz);
    end
endfunction

function [31:0] f_ex2(input [31:0] x, input fz);
    reg signed [63:0] ax, xf, p;
    reg [63:0] f;
    integer sh, k;
    begin
        sh = ue(x) + 9;
        if (sh >= 0) ax = {40'd0, um(x)} << sh;
        else if (sh >= -23) ax = {40'd0, um(x) >> (-sh)};
        else ax = 0;
        xf = x[31] ? -ax : ax;
        f = xf & 64'hffffffff;
        p = quad(rom_ex2({1'b0, f[31:26]}), f & 64'h3ffffff, 26);
        k = xf >>> 32;
        case (ucls(x, fz))
            C_NAN: f_ex2 = QNAN;
            C_ZERO: f_ex2 = ONE;
            C_INF: f_ex2 = x[31] ? 32'd0 : INF;
            default: begin
                if (ue(x) >= 8) f_ex2 = x[31] ? 32'd0 : INF;
                else f_ex2 = pack(1'b0, {64'd0, p}, k - 32, fz);
            end
        endcase
    end
endfunction

// Bits j+1 .. j+96 of the fraction of 1/(2*pi).
function [95:0] inv_2pi_window(input integer j);
    reg [255:0] w;
    begin
        w = (j >= 0) ? INV_2PI << j : INV_2PI >> (-j);
        inv_2pi_window = (j >= 0) ? w[255:160] : INV_2PI[255:160] >> (-j);
    end
endfunction

function [31:0] f_sincos(input [31:0] x, input fz, input cs);
    reg [95:0] r;
    reg [63:0] f, g, u, i, s;
    reg [1:0] q;
    reg ng;
    begin
        r = {72'd0, um(x)} * inv_2pi_window(ue(x) - 23);
        f = r[95:32];
        q = f[63:62] + {1'b0, cs};
        g = f & ((64'd1 << 62) - 1);
        u = q[0] ? (64'd1 << 62) - g : g;
        i = (u >> 55) > 127 ? 64'd127 : u >> 55;
        s = quad(rom_sin(i[6:0]), (u - (i << 55)) >> 31, 24);
        ng = q[1] ^ (x[31] && !cs);
        if (ucls(x, fz) == C_NAN || ucls(x, fz) == C_INF) f_sincos = QNAN;
        else if (cs && (ucls(x, fz) == C_ZERO || ue(x) <= -13)) f_sincos = ONE;
        else if (ucls(x, fz) == C_ZERO) f_sincos = {x[31], 31'd0};
        else if (ue(x) <= -13) f_sincos = x;
        else f_sincos = pack(ng, {64'd0, u} * {64'd0, s}, -96, fz);
    end
endfunction

function [31:0] f_tanh(input [31:0] x, input fz);
    reg [63:0] f, ax, t, p;
    reg [23:0] m;
    reg [6:0] i;
    integer e, tb, row;
    begin
        e = ue(x);
        m = um(x);
        f = {41'd0, m[22:0]};
        if (e <= 0) begin
            ax = {40'd0, um(x)} << (e + 13);
            i = ax[37:31];
            t = (ax >> 7) & 64'hffffff;
            tb = 24;
        end else begin
            ax = 0;
            row = 32 + 32 * e + f[22:18];
            i = row[6:0];
            t = f & 64'h3ffff;
            tb = 18;
        end
        p = quad(rom_tanh(i), t, tb);
        if (ucls(x, fz) == C_NAN) f_tanh = QNAN;
        else if (ucls(x, fz) == C_INF || (ucls(x, fz) == C_FIN && e >= 3)) f_tanh = {x[31], 31'd0} | ONE;
        else if (ucls(x, fz) == C_ZERO) f_tanh = {x[31], 31'd0};
        else if (e <= -13) f_tanh = x;
        else if (e == 2) f_tanh = pack(x[31], {64'd0, p}, -32, fz);
        else f_tanh = pack(x[31], {104'd0, um(x)} * {64'd0, p}, e - 55, fz);
    end
endfunction

always @(*) begin
    d = 64'd0;
    case (sfn)
        3'd0: d = {32'd0, f_rcp(a, ftz)};
        3'd1: d = {32'd0, f_sqrt(a, ftz, 1'b1)};
        3'd2: d = {32'd0, f_lg2(a, ftz)};
        3'd3: d = {32'd0, f_ex2(a, ftz)};
        3'd4: d = {32'd0, f_sincos(a, ftz, 1'b0)};
        3'd5: d = {32'd0, f_sincos(a, ftz, 1'b1)};
        3'd6: d = {32'd0, f_sqrt(a, ftz, 1'b0)};
        default: d = {32'd0, f_tanh(a, ftz)};
    endcase
end
/* verilator lint_on UNUSEDSIGNAL */
"#;
