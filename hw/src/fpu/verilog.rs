//! The FP units' Verilog, generated per build ([`unit`]): the format
//! geometry and rounding decision ([`FPU_COMMON`], which the division and
//! square root share), the rounding libraries ([`Lib`]: `pack`, the `fma`
//! and the conversions at one magnitude width), and the opcode dispatch
//! that puts one `fma` and one `pack` in a unit. `hw/tests/fpu.rs` holds it
//! bit-exact to the ISA's semantics under Verilator.

use super::RQ_MAG;
use crate::alu::isa_localparams;
use heddle_isa::Opcode;

/// The Verilog body of a unit built for `ops` (a bit per opcode), taking
/// rounding requests if `takes_requests`.
pub(super) fn unit(ops: u128, takes_requests: bool) -> String {
    format!(
        "{}{}{}{}{}{}{}",
        isa_localparams(),
        FPU_COMMON,
        FPU_OPERANDS,
        SMALL.functions(),
        LARGE.functions(),
        ADDER.functions(),
        dispatch(ops, takes_requests)
    )
}

/// One copy of the rounding library: `pack` and its requests, the `fma` and
/// the conversions (`cvtf`, `i2fl`, `rndi`). The width of its magnitudes,
/// and for the `fma` its format's precision p (24 or 53 bits:
/// the multiplier's width) and the product's width (2p, or p when the
/// library's `fma` never multiplies).
///
/// The lesser operand (the addend or the product), more than a window of
/// places below the other's last bit, only contributes a sticky unit, which
/// needs a window of at least its width + 2. The windows differ by which one is the lesser: the
/// addend (p bits) below the product, `p + 2` places; the product below the
/// addend, its width + 2 ([`Lib::windows`]). Either way the sum then
/// needs p + the product's width + 3 bits, and `pack` a clear top bit above
/// it ([`Lib::functions`] checks the width). Conversions need 72 bits.
///
/// The `fma` and the conversions return a rounding request (`rq_val`: the
/// result as it is, or `rq_pack`: what to round), and the unit rounds the
/// request of its opcode (`rq_do`): an FP unit's Verilog has one `fma` and
/// one `pack`, in one library ([`dispatch`]), not one per opcode.
struct Lib {
    suffix: &'static str,
    width: usize,
    /// The `fma`'s p and the product's width.
    fma: (usize, usize),
}

/// A unit without binary64's fma (a lane's): binary32's fma and the
/// conversions, in 76-bit magnitudes (the fma needs 75).
const SMALL: Lib = Lib { suffix: "_s", width: 76, fma: (24, 48) };
/// A unit with binary64's fma: both formats' fma and the conversions, in
/// 164-bit magnitudes (binary64's fma needs 162).
const LARGE: Lib = Lib { suffix: "_l", width: 164, fma: (53, 106) };
/// A unit with binary64's add but no multiply (the atomic unit's adder):
/// both operands are significands of at most 53 bits, so both windows are
/// 55 places and the sum 109 bits.
const ADDER: Lib = Lib { suffix: "_a", width: 112, fma: (53, 53) };

impl Lib {
    /// The `fma`'s windows: (the addend below the product, the product
    /// below the addend).
    fn windows(p: usize, product: usize) -> (usize, usize) {
        (p + 2, product + 2)
    }

    fn functions(&self) -> String {
        let w = self.width;
        let (p, product) = self.fma;
        let (below_product, below_addend) = Lib::windows(p, product);
        assert!(w >= p + product + 4 && w >= 72, "library {}: {w}-bit magnitudes are too narrow", self.suffix);
        let text = format!("{FPU_PACK}{FPU_FMA}{FPU_CONV}")
            .replace("{P1}", &(p - 1).to_string())
            .replace("{TP}", &below_product.to_string())
            .replace("{TC}", &below_addend.to_string());
        text.replace("{X}", self.suffix)
            .replace("{W1}", &(w - 1).to_string())
            .replace("{W53}", &(w - 53).to_string())
            .replace("{W64}", &(w - 64).to_string())
            .replace("{W}", &w.to_string())
            .replace("{RQ}", &(w + 86).to_string())
    }
}

/// How the unit computes `op`'s result: directly (an arm of the unit's
/// `case`), or as a rounding request to the unit's `pack` and the result
/// from the rounded value `r`.
enum Arm {
    Direct(&'static str),
    Round { request: &'static str, result: &'static str },
}

fn arm(op: Opcode) -> Arm {
    use Arm::*;
    use Opcode::*;
    let round = |request, result| Round { request, result };
    match op {
        Fadd | Fsub | Fmul | Ffma => round("fq", "fin32(r, ftz, sat)"),
        Fmin => Direct("d = minmax(fa, fb, 1'b0, F32);"),
        Fmax => Direct("d = minmax(fa, fb, 1'b1, F32);"),
        Fsetp => Direct("pout = setp(flush(a32, ext0), flush({32'd0, b[31:0]}, ext0), fcmp, F32);"),
        Frnd => round("rndi_rq{L}(fa, rnd, F32)", "flush(r, ftz)"),
        F2i => Direct("d = f2int(fa, rnd, F32, ity);"),
        I2f => round("i2fl_rq{L}(a, ity, rnd, F32)", "r"),
        F2h => round("cvtf_rq{L}(fa, F32, F16, rnd)", "r"),
        H2f => round("cvtf_rq{L}({48'd0, a[15:0]}, F16, F32, 2'd0)", "r"),
        Dadd | Dsub | Dmul | Dfma => round("fq", "r"),
        Dmin => Direct("d = minmax(a, b, 1'b0, F64);"),
        Dmax => Direct("d = minmax(a, b, 1'b1, F64);"),
        Dsetp => Direct("pout = setp(a, b, fcmp, F64);"),
        Drnd => round("rndi_rq{L}(a, rnd, F64)", "r"),
        F2d => round("cvtf_rq{L}(fa, F32, F64, 2'd0)", "r"),
        D2f => round("cvtf_rq{L}(a, F64, F32, rnd)", "fin32(r, ftz, sat)"),
        D2i => Direct("d = f2int(a, rnd, F64, ity);"),
        I2d => round("i2fl_rq{L}(a, ity, rnd, F64)", "r"),
        _ => panic!("{op:?} is not an FP unit's opcode (division and square root are `FpDivSqrt`'s)"),
    }
}

/// One format's add, subtract, multiply and fma, which share the unit's
/// fused multiply-add: `a * 1.0 + b`, `a * 1.0 - b`, `a * b + z` (`z` the
/// zero that leaves every product unchanged in the rounding mode: +0
/// toward negative infinity, -0 otherwise) and `a * b + c`. The fields are
/// Verilog names.
struct Fma {
    /// Add, subtract, multiply, fma.
    ops: [Opcode; 4],
    format: &'static str,
    operands: [&'static str; 3],
    one: &'static str,
    sign: &'static str,
}

const FMA32: Fma = Fma {
    ops: [Opcode::Fadd, Opcode::Fsub, Opcode::Fmul, Opcode::Ffma],
    format: "F32",
    operands: ["fa", "fb", "fc"],
    one: "64'h3f800000",
    sign: "64'h80000000",
};

const FMA64: Fma = Fma {
    ops: [Opcode::Dadd, Opcode::Dsub, Opcode::Dmul, Opcode::Dfma],
    format: "F64",
    operands: ["a", "b", "c"],
    one: "64'h3ff0000000000000",
    sign: "64'h8000000000000000",
};

/// The unit's one fused multiply-add in library `lib`, for the opcodes of
/// both formats that `has`: an operand and format multiplexer, and the
/// rounding request `fq`. `fa_m` says the `fma` multiplies: a unit that
/// `multiplies` adds as `a * 1.0 + b` through its multiplier, and a unit
/// that only adds (the atomic unit's) has none.
fn fma_unit(lib: &str, has: impl Fn(Opcode) -> bool, multiplies: bool) -> String {
    let m = multiplies as u8;
    let mut arms = String::new();
    let mut defaults = None;
    for fma in [&FMA32, &FMA64] {
        let Fma { ops: [add, sub, mul, ffma], format: f, operands: [a, b, c], one, sign } = *fma;
        let set = |mb: &str, mc: &str, m: u8| format!("fa_a = {a}; fa_b = {mb}; fa_c = {mc}; fa_f = {f}; fa_m = 1'b{m};");
        for (op, text) in [
            (add, set(one, b, m)),
            (sub, set(one, &format!("{b} ^ {sign}"), m)),
            (mul, set(b, &format!("zero(rnd != 2'd2, {f})"), 1)),
            (ffma, set(b, c, 1)),
        ] {
            if has(op) {
                arms += &format!("        {}: begin {text} end\n", op_name(op));
                // The first format's add, also for opcodes that do not use it.
                defaults.get_or_insert_with(|| set(one, b, m));
            }
        }
    }
    let Some(defaults) = defaults else { return String::new() };
    format!(
        "reg [63:0] fa_a, fa_b, fa_c;\nreg [1:0] fa_f;\nreg fa_m;\nalways @(*) begin\n    {defaults}\n    case (op)\n{arms}        default: ;\n    endcase\nend\nwire [RQ{lib}-1:0] fq = fma_rq{lib}(fa_a, fa_b, fa_c, rnd, fa_f, fa_m);\n"
    )
}

/// The Verilog localparam of an opcode (`isa_localparams`).
fn op_name(op: Opcode) -> String {
    format!("OP_{}", op.info().mnemonic.to_uppercase())
}

/// The unit's datapath for the opcodes in `ops` (a bit per opcode): one
/// fused multiply-add, the opcode's rounding request, one `pack`, then one
/// `case` arm per opcode. Everything rounds in one library: binary64's when
/// the unit has binary64's `fma` (binary32's `fma` then runs on it too;
/// [`ADDER`] when neither format multiplies), else binary32's. A unit
/// that `takes_requests` rounds the division's request in place of its
/// opcode's while `rq_on`.
fn dispatch(ops: u128, takes_requests: bool) -> String {
    let has = |o: Opcode| ops >> (o as u8) & 1 == 1;
    let built: Vec<Opcode> = (0..128u8).filter_map(Opcode::from_code).filter(|&o| has(o)).collect();
    let multiplies = [FMA32, FMA64].iter().any(|f| has(f.ops[2]) || has(f.ops[3]));
    let library = match (FMA64.ops.iter().any(|&o| has(o)), multiplies) {
        (true, true) => LARGE,
        (true, false) => ADDER,
        (false, _) => SMALL,
    };
    let lib = library.suffix;
    let arms: Vec<(Opcode, Arm)> = built.iter().map(|&o| (o, arm(o))).collect();
    let mut s = fma_unit(lib, has, multiplies);
    let mut requests = String::new();
    let mut results = String::new();
    for (o, a) in &arms {
        let text = match a {
            Arm::Direct(t) => t.to_string(),
            Arm::Round { request, result } => {
                requests += &format!("        {}: rq = {request};\n", op_name(*o));
                format!("d = {result};")
            }
        };
        results += &format!("        {}: {text}\n", op_name(*o));
    }
    // The opcode's request, or the division's (`rq_on`).
    let pad = library.width - RQ_MAG;
    let (request, answer) = match takes_requests {
        true => (format!("    if (rq_on) rq = rq_pack{lib}(rq_s, {{{pad}'d0, rq_mag}}, $signed(rq_e), rq_rm, rq_f);\n"), "r"),
        false => (String::new(), "64'd0"),
    };
    s += &format!(
        "reg [RQ{lib}-1:0] rq;\nreg [63:0] r;\nalways @(*) begin\n    rq = rq_val{lib}(64'd0);\n    case (op)\n{requests}        default: ;\n    endcase\n{request}    r = rq_do{lib}(rq);\n    rounded = {answer};\nend\n"
    );
    s += &format!("always @(*) begin\n    d = 64'd0;\n    pout = 1'b0;\n    case (op)\n{results}        default: d = 64'd0;\n    endcase\nend\n/* verilator lint_on UNUSEDSIGNAL */\n");
    s.replace("{L}", lib)
}

/// The format geometry, rounding decision, integer conversions, ordering
/// and operand flushing: one copy, whatever the unit is built for.
pub(crate) const FPU_COMMON: &str = r#"
/* verilator lint_off UNUSEDSIGNAL */
localparam F16 = 2'd0;
localparam F32 = 2'd1;
localparam F64 = 2'd2;

// ---- Format geometry (binary16, binary32, binary64).
function integer mbits(input [1:0] f);
    mbits = (f == F64) ? 52 : (f == F32) ? 23 : 10;
endfunction
function integer bias(input [1:0] f);
    bias = (f == F64) ? 1023 : (f == F32) ? 127 : 15;
endfunction
// The all-ones exponent field.
function integer emaxf(input [1:0] f);
    emaxf = (f == F64) ? 2047 : (f == F32) ? 255 : 31;
endfunction
function [63:0] signbit(input [1:0] f);
    signbit = 64'd1 << ((f == F64) ? 63 : (f == F32) ? 31 : 15);
endfunction
function integer efield(input [63:0] x, input [1:0] f);
    efield = (x >> mbits(f)) & {32'd0, emaxf(f)};
endfunction
function [52:0] frac(input [63:0] x, input [1:0] f);
    frac = x & ((64'd1 << mbits(f)) - 1);
endfunction
// The significand with its hidden bit, and the exponent of its last bit.
function [52:0] sig(input [63:0] x, input [1:0] f);
    sig = frac(x, f) | ((efield(x, f) != 0) ? (53'd1 << mbits(f)) : 53'd0);
endfunction
function integer lsbexp(input [63:0] x, input [1:0] f);
    lsbexp = ((efield(x, f) == 0) ? 1 : efield(x, f)) - bias(f) - mbits(f);
endfunction
function neg(input [63:0] x, input [1:0] f);
    neg = (x & signbit(f)) != 0;
endfunction
function is_nan(input [63:0] x, input [1:0] f);
    is_nan = efield(x, f) == emaxf(f) && frac(x, f) != 0;
endfunction
function is_inf(input [63:0] x, input [1:0] f);
    is_inf = efield(x, f) == emaxf(f) && frac(x, f) == 0;
endfunction
function is_zero(input [63:0] x, input [1:0] f);
    is_zero = efield(x, f) == 0 && frac(x, f) == 0;
endfunction
function [63:0] zero(input s, input [1:0] f);
    zero = s ? signbit(f) : 64'd0;
endfunction
function [63:0] inf(input s, input [1:0] f);
    inf = zero(s, f) | ({32'd0, emaxf(f)} << mbits(f));
endfunction
// The canonical NaN: 0x7fff, 0x7fffffff, 0x7fffffffffffffff.
function [63:0] qnan(input [1:0] f);
    qnan = signbit(f) - 1;
endfunction

// Round-away decision for a magnitude: round bit, sticky, last kept bit, sign, mode.
function round_up(input [1:0] rm, input rbit, input sticky, input lsb, input s);
    case (rm)
        2'd0: round_up = rbit && (sticky || lsb);
        2'd1: round_up = 0;
        2'd2: round_up = (rbit || sticky) && s;
        default: round_up = (rbit || sticky) && !s;
    endcase
endfunction

// |x| rounded to an integer in mode rm: {exceeds 2^64, magnitude}.
function [64:0] to_int(input [63:0] x, input [1:0] rm, input [1:0] f);
    reg [52:0] m;
    reg [127:0] w;
    reg [63:0] q;
    reg rbit, sticky, huge;
    integer e, sh;
    begin
        m = sig(x, f);
        e = lsbexp(x, f);
        huge = 0;
        rbit = 0;
        sticky = 0;
        q = 0;
        if (e >= 0) begin
            if (e > 64) begin
                huge = 1;
            end else begin
                w = {75'd0, m} << e;
                huge = w[127:64] != 0;
                q = w[63:0];
            end
        end else begin
            sh = -e;
            if (sh > 60) begin
                sticky = m != 0;
            end else begin
                q = {11'd0, m >> sh};
                rbit = m[sh - 1];
                sticky = (m & ((53'd1 << (sh - 1)) - 1)) != 0;
            end
        end
        to_int = {huge, q + {63'd0, round_up(rm, rbit, sticky, q[0], neg(x, f))}};
    end
endfunction

// Format f to an integer of type ty, rounded, saturating; NaN gives 0.
function [63:0] f2int(input [63:0] x, input [1:0] rm, input [1:0] f, input [1:0] ty);
    reg [64:0] r;
    reg n, big;
    reg [63:0] lim;
    begin
        r = to_int(x, rm, f);
        n = neg(x, f);
        // The largest magnitude of the type on this side of zero.
        lim = ty[1] ? (ty[0] ? (n ? 64'h8000000000000000 : 64'h7fffffffffffffff) : 64'hffffffffffffffff)
                    : (ty[0] ? (n ? 64'h80000000 : 64'h7fffffff) : 64'hffffffff);
        if (!ty[0] && n) lim = 0;
        big = r[64] || r[63:0] > lim;
        if (is_nan(x, f)) f2int = 0;
        else if (n) f2int = 64'd0 - (big ? lim : r[63:0]);
        else f2int = big ? lim : r[63:0];
        if (!ty[1]) f2int = f2int & 64'hffffffff;
    end
endfunction

// Total order for min/max: -0 below +0.
function signed [64:0] key(input [63:0] x, input [1:0] f);
    key = neg(x, f) ? -$signed({1'b0, x & ~signbit(f)}) - 65'sd1 : $signed({1'b0, x});
endfunction

function [63:0] minmax(input [63:0] xa, input [63:0] xb, input mx, input [1:0] f);
    begin
        if (is_nan(xa, f) && is_nan(xb, f)) minmax = qnan(f);
        else if (is_nan(xa, f)) minmax = xb;
        else if (is_nan(xb, f)) minmax = xa;
        else if ((key(xa, f) < key(xb, f)) != mx) minmax = xa;
        else minmax = xb;
    end
endfunction

// Compares: eq ne lt le gt ge (ordered), equ neu ltu leu gtu geu (unordered), num, nan.
function setp(input [63:0] xa, input [63:0] xb, input [3:0] k, input [1:0] f);
    reg un, eq, lt, gt, base;
    reg [3:0] kk;
    begin
        un = is_nan(xa, f) || is_nan(xb, f);
        eq = !un && ((xa == xb) || (is_zero(xa, f) && is_zero(xb, f)));
        lt = !un && !eq && (key(xa, f) < key(xb, f));
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

// binary32 operands: the low words, subnormals flushed with .ftz (fsetp: ext0).
function [63:0] flush(input [63:0] x, input en);
    flush = (en && efield(x, F32) == 0) ? x & 64'h80000000 : x;
endfunction

// A binary32 result: .ftz flushes a subnormal, .sat clamps to [+0, 1] (NaN to +0).
function [63:0] fin32(input [63:0] r, input fz, input st);
    begin
        fin32 = flush(r, fz);
        if (st) begin
            if (is_nan(fin32, F32) || fin32[31]) fin32 = 64'd0;
            else if (fin32 > 64'h3f800000) fin32 = 64'h3f800000;
        end
    end
endfunction

"#;

/// The unit's modifier fields and binary32 operands (flushed with `.ftz`).
const FPU_OPERANDS: &str = r#"
wire [1:0] rnd = modv[MOD_RND_LO +: 2];
wire ftz = modv[MOD_FTZ_LO];
wire sat = modv[MOD_SAT_LO];
wire [3:0] fcmp = modv[MOD_FCMP_LO +: 4];
wire [1:0] ity = modv[MOD_INTTY_LO +: 2];
wire [63:0] a32 = {32'd0, a[31:0]};
wire [63:0] fa = flush(a32, ftz);
wire [63:0] fb = flush({32'd0, b[31:0]}, ftz);
wire [63:0] fc = flush({32'd0, c[31:0]}, ftz);
"#;

/// The rounding step, instantiated per magnitude width by [`Lib`].
const FPU_PACK: &str = r#"// The one rounding step: (-1)^s * mag * 2^e (mag nonzero, bit {W1} clear) to format f
// in mode rm. The last kept place is 2^(x - mbits) for a normal result (x: the
// exponent of mag's leading bit) or the subnormal place 2^(1 - bias - mbits).
// mag is normalized (its leading bit shifted to the top); its top mbits + 2 bits
// are the kept bits and the round bit, the rest is sticky. A subnormal result
// shifts those right by the dn places it lies below the normal range.
function [63:0] pack{X}(input s, input [{W1}:0] mag, input integer e, input [1:0] rm, input [1:0] f);
    integer p, x, dn, i, emin, mb;
    reg [{W1}:0] n;
    reg [55:0] v, q;
    reg [63:0] fieldv;
    reg rbit, sticky, inc, tiny;
    begin
        mb = mbits(f);
        emin = 1 - bias(f) - mb;
        p = 0;
        for (i = 0; i < {W}; i = i + 1) if (mag[i]) p = i;
        x = p + e;
        n = mag << ({W1} - p);
        v = n >> ({W} - 2 - mb);
        tiny = x - mb <= emin;
        dn = tiny ? emin - (x - mb) : 0;
        if (dn > mb + 2) dn = mb + 2;
        q = v >> (dn + 1);
        rbit = v[dn];
        sticky = ((n & (({W}'d1 << ({W} - 2 - mb)) - 1)) != 0) || ((v & ((56'd1 << dn) - 1)) != 0);
        inc = round_up(rm, rbit, sticky, q[0], s);
        q = q + {55'd0, inc};
        fieldv = x + bias(f) - 1;
        // Subnormal place: q (at most 2^(mb+1)) encodes itself, a carry stepping into the
        // exponent field; normal: the field x + bias - 1 plus q's hidden bit (and carry).
        if (tiny) pack{X} = zero(s, f) | {8'd0, q};
        else if (x + bias(f) + (q[mb + 1] ? 1 : 0) >= emaxf(f))
            pack{X} = (rm == 2'd1 || (rm == 2'd2 && !s) || (rm == 2'd3 && s)) ? zero(s, f) | (inf(1'b0, f) - 1) : inf(s, f);
        else pack{X} = zero(s, f) + (fieldv << mb) + {8'd0, q};
    end
endfunction

// A rounding request: {direct, value, s, mag, e (16 bits), rm, f}. The result
// is value when direct, else pack(s, mag, e, rm, f).
localparam RQ{X} = {RQ};
function [RQ{X}-1:0] rq_val{X}(input [63:0] v);
    rq_val{X} = {1'b1, v, {(RQ{X}-65){1'b0}}};
endfunction
function [RQ{X}-1:0] rq_pack{X}(input s, input [{W1}:0] mag, input integer e, input [1:0] rm, input [1:0] f);
    rq_pack{X} = {1'b0, 64'd0, s, mag, e[15:0], rm, f};
endfunction
function [63:0] rq_do{X}(input [RQ{X}-1:0] r);
    rq_do{X} = r[RQ{X}-1] ? r[RQ{X}-2 -: 64] : pack{X}(r[{W}+20], r[{W}+19:20], $signed(r[19:4]), r[3:2], r[1:0]);
endfunction
"#;

/// Conversions and rounding to integral values, in libraries without an `fma`.
const FPU_CONV: &str = r#"
// Format to format (f2d, d2f, f2h, h2f): exact or rounded once.
function [RQ{X}-1:0] cvtf_rq{X}(input [63:0] x, input [1:0] from, input [1:0] to, input [1:0] rm);
    begin
        if (is_nan(x, from)) cvtf_rq{X} = rq_val{X}(qnan(to));
        else if (is_inf(x, from)) cvtf_rq{X} = rq_val{X}(inf(neg(x, from), to));
        else if (is_zero(x, from)) cvtf_rq{X} = rq_val{X}(zero(neg(x, from), to));
        else cvtf_rq{X} = rq_pack{X}(neg(x, from), {{W53}'d0, sig(x, from)}, lsbexp(x, from), rm, to);
    end
endfunction

// Integer (type ty: bit 0 signed, bit 1 64-bit) to format f, rounded.
function [RQ{X}-1:0] i2fl_rq{X}(input [63:0] x, input [1:0] ty, input [1:0] rm, input [1:0] f);
    reg [63:0] v;
    reg n;
    begin
        v = ty[1] ? x : ty[0] ? {{32{x[31]}}, x[31:0]} : {32'd0, x[31:0]};
        n = ty[0] && v[63];
        if (v == 0) i2fl_rq{X} = rq_val{X}(64'd0);
        else i2fl_rq{X} = rq_pack{X}(n, {{W64}'d0, n ? 64'd0 - v : v}, 0, rm, f);
    end
endfunction

// Round to an integral value in mode rm (NaN canonical); the integer is
// exact, its sign the operand's.
function [RQ{X}-1:0] rndi_rq{X}(input [63:0] x, input [1:0] rm, input [1:0] f);
    reg [64:0] r;
    begin
        r = to_int(x, rm, f);
        if (is_nan(x, f)) rndi_rq{X} = rq_val{X}(qnan(f));
        else if (lsbexp(x, f) >= 0) rndi_rq{X} = rq_val{X}(x);
        else if (r[63:0] == 0) rndi_rq{X} = rq_val{X}(zero(neg(x, f), f));
        else rndi_rq{X} = rq_pack{X}(neg(x, f), {{W64}'d0, r[63:0]}, 0, 2'd1, f);
    end
endfunction

"#;

/// The fused multiply-add, in libraries that have one.
const FPU_FMA: &str = r#"
// a * b + c in format f (F32 or F64), as a request to round once. The product's significand
// and the addend's are summed exactly when the lesser one's last bit is at most a
// window of places below the other's ({TP} for the addend, {TC} for the product);
// beyond that the lesser one is a sticky unit three places below the larger one's
// last bit. m: b is a multiplier (mul, fma); without it,
// b is 1.0 and the multiplier is not used (a unit that only adds has none).
function [RQ{X}-1:0] fma_rq{X}(input [63:0] xa, input [63:0] xb, input [63:0] xc, input [1:0] rm, input [1:0] f, input m);
    reg sp, sc, sign, a_inf, b_inf, c_inf, a_zero, b_zero, p_zero, c_zero, sbig, slesser;
    reg [105:0] mp;
    reg [{P1}:0] ma, mb;
    reg [{W1}:0] big, lesser, mag;
    reg [{W}:0] sum;
    integer ep, ec, e, gap, window;
    begin
        sp = neg(xa, f) ^ neg(xb, f);
        sc = neg(xc, f);
        a_inf = is_inf(xa, f);
        b_inf = is_inf(xb, f);
        c_inf = is_inf(xc, f);
        a_zero = is_zero(xa, f);
        b_zero = is_zero(xb, f);
        c_zero = is_zero(xc, f);
        fma_rq{X} = rq_val{X}(64'd0);
        if (is_nan(xa, f) || is_nan(xb, f) || is_nan(xc, f) || (a_inf && b_zero) || (b_inf && a_zero)
            || ((a_inf || b_inf) && c_inf && sp != sc)) begin
            fma_rq{X} = rq_val{X}(qnan(f));
        end else if (a_inf || b_inf) begin
            fma_rq{X} = rq_val{X}(inf(sp, f));
        end else if (c_inf) begin
            fma_rq{X} = rq_val{X}(xc);
        end else begin
            ma = sig(xa, f);
            mb = sig(xb, f);
            // Without m, xb is 1.0: the product is a's significand.
            mp = m ? ma * mb : {53'd0, ma};
            ep = m ? lsbexp(xa, f) + lsbexp(xb, f) : lsbexp(xa, f);
            ec = lsbexp(xc, f);
            p_zero = a_zero || b_zero;
            sign = sp;
            mag = 0;
            e = 0;
            if (p_zero && c_zero) begin
                mag = 0;
            end else if (p_zero) begin
                mag = {{W53}'d0, sig(xc, f)};
                e = ec;
                sign = sc;
            end else if (c_zero) begin
                mag = mp;
                e = ep;
            end else begin
                if (ep >= ec) begin
                    big = mp; sbig = sp; lesser = {{W53}'d0, sig(xc, f)}; slesser = sc; gap = ep - ec; window = {TP}; e = ec;
                end else begin
                    big = {{W53}'d0, sig(xc, f)}; sbig = sc; lesser = mp; slesser = sp; gap = ec - ep; window = {TC}; e = ep;
                end
                if (gap > window) begin
                    big = big << 3;
                    lesser = 1;
                    e = (ep >= ec ? ep : ec) - 3;
                end else begin
                    big = big << gap;
                end
                // One adder: big + lesser, or big - lesser negated when negative.
                sum = {1'b0, big} + ({1'b0, lesser} ^ {({W} + 1){sbig != slesser}}) + {{W}'d0, sbig != slesser};
                mag = sum[{W}] ? 0 - sum[{W1}:0] : sum[{W1}:0];
                sign = sum[{W}] ? slesser : sbig;
            end
            // An exact zero: like-signed zeros keep their sign, otherwise +0 (-0 toward -inf).
            if (mag == 0) fma_rq{X} = rq_val{X}((p_zero && c_zero && sp == sc) ? zero(sp, f) : zero(rm == 2'd2, f));
            else fma_rq{X} = rq_pack{X}(sign, mag, e, rm, f);
        end
    end
endfunction
"#;
