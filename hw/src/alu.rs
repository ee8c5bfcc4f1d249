//! `IntAlu`: one lane's integer ALU, combinational.
//!
//! A custom block: its simulation model is the ISA's scalar semantics
//! (`heddle_isa::scalar::int`, the code the golden model runs), its Verilog
//! is written by hand below, and `tests/cosim.rs` holds the two equal under
//! Verilator on random and corner operands. Opcode and modifier-bit
//! constants in the Verilog are generated from the ISA table
//! ([`isa_localparams`]), never re-typed.
//!
//! Division and remainder ([`DIV_OPS`]) are not built here: a lane's
//! iterative [`crate::div::Divider`] computes them (its model is this
//! module's [`model`]); the ALU's Verilog gives 0 for them.
//!
//! Operands arrive already selected (immediate or register); 64-bit
//! operations (`isetp64`, `shl64`, `shr64`, `mul64`) take register pairs in
//! `a`/`b` as 64-bit values. The result `d` is 32 bits: a 64-bit result is
//! computed a word at a time (`half`), so every shift, 32- or 64-bit, is one
//! 64-to-32-bit funnel shifter (`bfe` and `bfi` shift through it too);
//! `add`, `sub`, `mad` and `abs` share one adder, and `isetp`,
//! `isetp64`, `min` and `max` one comparator. `pin` is the lane's predicate operand (`sel`);
//! `pout` the lane's compare result (`isetp`, before the combine with the
//! `pc` predicate, which the SM does on whole lane masks); `cin` the lane's
//! carry flag, used only with `.x`.

use heddle_isa::scalar::int;
use heddle_isa::table::{mod_info, Format, Regs, Unit, MODS, TABLE};
use heddle_isa::values::ICmp;
use heddle_isa::{ModKind, Opcode};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct IntAlu {
    pub op: Signal<In, Bits<7>>,
    pub modv: Signal<In, Bits<6>>,
    pub a: Signal<In, Bits<64>>,
    pub b: Signal<In, Bits<64>>,
    pub c: Signal<In, Bits<32>>,
    pub cin: Signal<In, Bit>,
    pub pin: Signal<In, Bit>,
    /// Which word of a 64-bit result (`shl64`, `shr64`, `mul64`) `d` is: the
    /// SM runs those in two passes, low word first. 32-bit results ignore it.
    pub half: Signal<In, Bit>,
    pub d: Signal<Out, Bits<32>>,
    pub cout: Signal<Out, Bit>,
    /// The carry flag is written (`.cc` on add, sub, mad).
    pub cc_we: Signal<Out, Bit>,
    pub pout: Signal<Out, Bit>,
    /// The 64 x 64-bit multiplier is built (`SmConfig::mul64`).
    _mul64: bool,
    /// The 64-bit shifters are built (`SmConfig::shift64`).
    _shift64: bool,
    /// Opcodes it is not built for, a bit each: they give 0.
    _omit: u128,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl IntAlu {
    /// A lane's ALU, with or without its 64-bit multiplier (`mul64`) and
    /// its 64-bit shifters (`shl64`, `shr64`).
    pub fn new(mul64: bool, shift64: bool) -> IntAlu {
        IntAlu { _mul64: mul64, _shift64: shift64, ..Default::default() }
    }

    /// A lane's ALU in the SM: without [`BIT_OPS`], which the SM's one
    /// [`IntAlu::bit_unit`] computes, a lane at a time.
    pub fn lane(mul64: bool, shift64: bool) -> IntAlu {
        IntAlu { _omit: op_mask(&BIT_OPS), ..IntAlu::new(mul64, shift64) }
    }

    /// The SM's shared bit unit: an ALU built for [`BIT_OPS`] alone.
    pub fn bit_unit() -> IntAlu {
        IntAlu { _omit: !op_mask(&BIT_OPS), ..Default::default() }
    }

    fn built(&self, op: u8) -> bool {
        op < 128 && self._omit >> op & 1 == 0
    }
}

/// Bit counts and byte permutes: `popc`, `clz`, `brev`, `bfind`, `prmt`.
/// The SM computes them on one shared [`IntAlu::bit_unit`], not in each
/// lane's ALU: they are a fifth of a lane ALU's LUTs (`docs/fpga.md`), for
/// instructions that are rare in a kernel's inner loop. (`bfe` and `bfi`
/// stay in the lanes: they share the funnel shifter, and the compiler
/// sign-extends narrow integers with `bfe`.)
pub const BIT_OPS: [Opcode; 5] = [Opcode::Popc, Opcode::Clz, Opcode::Brev, Opcode::Bfind, Opcode::Prmt];

fn op_mask(ops: &[Opcode]) -> u128 {
    ops.iter().fold(0, |m, &o| m | 1 << (o as u8))
}

/// `body` without the `case` arms of the opcodes `built` says no to: an
/// arm (`OP_X, OP_Y: ...;`, or from its `begin` to the `end` at its
/// indentation) goes when none of its labels is built. Their results are
/// then the `default`'s, and what only they used is left unconnected.
fn omit_arms(body: &str, built: impl Fn(&str) -> bool) -> String {
    let mut out = String::new();
    let mut skip_to: Option<String> = None;
    for line in body.lines() {
        if let Some(end) = &skip_to {
            if line == end {
                skip_to = None;
            }
            continue;
        }
        let text = line.trim_start();
        let labels = text.split_once(':').map(|(l, _)| l).filter(|l| l.starts_with("OP_"));
        if let Some(labels) = labels {
            if !labels.split(", ").any(&built) {
                if text.ends_with("begin") {
                    skip_to = Some(format!("{}end", &line[..line.len() - text.len()]));
                }
                continue;
            }
        }
        out += line;
        out.push('\n');
    }
    out
}

/// The opcodes of the dividers (`crate::div::Divider`, built only with
/// `SmConfig::int_div`).
pub const DIV_OPS: &[Opcode] = &[Opcode::Div, Opcode::Rem, Opcode::Div64, Opcode::Rem64];

/// Opcodes this unit executes: the table's `Unit::Alu` rows but those the
/// SM's control runs itself (`s2r`, `plop`, `nop`).
pub fn ops() -> impl Iterator<Item = Opcode> {
    TABLE.iter().filter(|i| i.unit == Unit::Alu && !matches!(i.opcode, Opcode::S2r | Opcode::Plop | Opcode::Nop)).map(|i| i.opcode)
}

/// The ALU's opcodes with a 64-bit result (`d` a register pair in the ISA
/// table), computed a word at a time (`half`).
pub fn wide_result(op: u8) -> bool {
    let Some(i) = Opcode::from_code(op).map(Opcode::info) else { return false };
    i.unit == Unit::Alu && i.format != Format::SetP && matches!(i.regs, Regs::AllPairs | Regs::PairDA)
}

/// What the block computes: [`model`]'s result, word `half` of it for an
/// opcode with a [`wide_result`], its low word otherwise.
pub fn word_model(op: u8, modv: u32, a: u64, b: u64, c: u64, cin: bool, pin: bool, half: bool) -> (u32, bool, bool, bool) {
    let (d, cout, cc_we, pout) = model(op, modv, a, b, c, cin, pin);
    ((d >> if half && wide_result(op) { 32 } else { 0 }) as u32, cout, cc_we, pout)
}

/// The reference semantics: (d, cout, cc_we, pout).
pub fn model(op: u8, modv: u32, a: u64, b: u64, c: u64, cin: bool, pin: bool) -> (u64, bool, bool, bool) {
    let m = |k: ModKind| mod_info(k).get(modv);
    let (a32, b32, c32) = (a as u32, b as u32, c as u32);
    let signed = m(ModKind::Sign) == 1;
    let Some(op) = Opcode::from_code(op) else { return (0, false, false, false) };
    let w = |v: u32| (v as u64, false, false, false);
    let carry_op = |(r, co): (u32, bool)| (r as u64, co, m(ModKind::Cc) == 1, false);
    let cin = cin && m(ModKind::X) == 1;
    let icmp = ICmp::decode(m(ModKind::ICmp));
    match op {
        Opcode::Mov => w(b32),
        Opcode::Add => carry_op(int::add(a32, b32, cin, m(ModKind::Sat) == 1)),
        Opcode::Sub => carry_op(int::sub(a32, b32, cin, m(ModKind::Sat) == 1)),
        Opcode::Mad => carry_op(int::mad(a32, b32, c32, m(ModKind::Hi) == 1, signed, cin, m(ModKind::Sat) == 1)),
        Opcode::Mul => w(int::mul(a32, b32, m(ModKind::Hi) == 1, signed)),
        Opcode::Min | Opcode::Max => w(int::min_max(a32, b32, op == Opcode::Max, signed)),
        Opcode::Abs => w((a32 as i32).wrapping_abs() as u32),
        Opcode::And => w(a32 & b32),
        Opcode::Or => w(a32 | b32),
        Opcode::Xor => w(a32 ^ b32),
        Opcode::Shl => w(int::shl(a32, b32)),
        Opcode::Shr => w(int::shr(a32, b32, signed)),
        Opcode::Shf => w(int::shf(a32, b32, c32, m(ModKind::ShfDir) == 1, m(ModKind::Clamp) == 1)),
        Opcode::Popc => w(a32.count_ones()),
        Opcode::Clz => w(a32.leading_zeros()),
        Opcode::Brev => w(a32.reverse_bits()),
        Opcode::Bfind => w(int::bfind(a32, signed, m(ModKind::ShiftAmt) == 1)),
        Opcode::Bfe => w(int::bfe(a32, b32, signed)),
        Opcode::Bfi => w(int::bfi(a32, b32, c32)),
        Opcode::Prmt => w(int::prmt(a32, b32, c32, m(ModKind::PrmtMode))),
        Opcode::Isetp => (0, false, false, int::compare(a32, b32, icmp)),
        Opcode::Isetp64 => (0, false, false, int::compare(a, b, icmp)),
        Opcode::Sel => w(if pin { a32 } else { b32 }),
        Opcode::Shl64 => (int::shl(a, b32), false, false, false),
        Opcode::Shr64 => (int::shr(a, b32, signed), false, false, false),
        Opcode::Mul64 => (int::mul64(a, b, m(ModKind::Hi) == 1, signed), false, false, false),
        Opcode::Div | Opcode::Rem => w(int::div_rem(a32 as u64, b32 as u64, 32, signed, op == Opcode::Rem) as u32),
        Opcode::Div64 | Opcode::Rem64 => (int::div_rem(a, b, 64, signed, op == Opcode::Rem64), false, false, false),
        _ => (0, false, false, false),
    }
}

/// An opcode's `localparam` name in the Verilog: `OP_ADD` for `add`.
fn op_param(mnemonic: &str) -> String {
    format!("OP_{}", mnemonic.to_uppercase())
}

/// `localparam`s for every opcode (`OP_ADD`) and every modifier's low bit
/// and width (`MOD_SIGN_LO`, `MOD_SIGN_W`), from the ISA table.
pub fn isa_localparams() -> String {
    let mut s = String::new();
    for row in TABLE {
        s += &format!("localparam {} = 7'h{:02x};\n", op_param(row.mnemonic), row.opcode as u8);
    }
    for m in MODS {
        let name = format!("{:?}", m.kind).to_uppercase();
        s += &format!("localparam MOD_{name}_LO = {};\nlocalparam MOD_{name}_W = {};\n", m.lo, m.width);
    }
    s
}

impl Logic for IntAlu {
    fn update(&mut self) {
        // Combinational: outputs change only when an input did (saves simulation time).
        let inputs = [
            self.op.changed,
            self.modv.changed,
            self.a.changed,
            self.b.changed,
            self.c.changed,
            self.cin.changed,
            self.pin.changed,
            self.half.changed,
        ];
        if !inputs.contains(&true) {
            return;
        }
        let op = self.op.val().index() as u8;
        if !self.built(op) {
            (self.d.next, self.cout.next, self.cc_we.next, self.pout.next) = (0.into(), false, false, false);
            return;
        }
        let (d, cout, cc_we, pout) = word_model(
            op,
            self.modv.val().index() as u32,
            self.a.val().to_u64(),
            self.b.val().to_u64(),
            self.c.val().to_u64(),
            self.cin.val(),
            self.pin.val(),
            self.half.val(),
        );
        self.d.next = (d as u64).into();
        self.cout.next = cout;
        self.cc_we.next = cc_we;
        self.pout.next = pout;
    }

    fn connect(&mut self) {
        self.d.connect();
        self.cout.connect();
        self.cc_we.connect();
        self.pout.connect();
    }

    fn hdl(&self) -> Verilog {
        let (mul32, mul64_wires, mul64_arm) = if self._mul64 { (MUL32_FIXED, MUL64_WIRES, MUL64_ARM) } else { (MUL32_SIGNED, "", "") };
        let (shift64_funnel, shift64_arm) = if self._shift64 { (SHIFT64_FUNNEL, SHIFT64_ARM) } else { ("", "") };
        let arms = ALU_BODY
            .replace("{mul32}", mul32)
            .replace("{mul64_wires}", mul64_wires)
            .replace("{mul64_arm}", mul64_arm)
            .replace("{shift64_funnel}", shift64_funnel)
            .replace("{shift64_arm}", shift64_arm);
        let built = |label: &str| TABLE.iter().any(|r| label == op_param(r.mnemonic) && self.built(r.opcode as u8));
        let body = format!("{}{}", isa_localparams(), omit_arms(&arms, built));
        Verilog::Custom(crate::plant::patch(
            crate::plant::Plant::AluCmpLe,
            body,
            "4'd7: rel = lt | eq;",
            "4'd7: rel = lt | (eq & (op == OP_ISETP64));",
        ))
    }
}

const ALU_BODY: &str = r#"
// Some operand and product bits are unused by construction (32-bit ops on 64-bit ports).
/* verilator lint_off UNUSEDSIGNAL */
wire [31:0] a32 = a[31:0];
wire [31:0] b32 = b[31:0];
wire [31:0] c32 = c;
wire sgn = modv[MOD_SIGN_LO];
wire cin_x = cin & modv[MOD_X_LO];
wire sat = modv[MOD_SAT_LO];
wire hi = modv[MOD_HI_LO];
wire [3:0] cmp = modv[MOD_ICMP_LO +: 4];

// mul and mad (32 bits): the 64-bit product p32, signed or unsigned
// (MUL32_SIGNED, or MUL32_FIXED with the 64-bit multiplier).
{mul32}{mul64_wires}wire [31:0] mul_t = hi ? p32[63:32] : p32[31:0];

// One adder serves add, sub, mad and abs: 34 bits wide, the operands
// sign-extended (a mad's unsigned product zero-extended), so that its top
// three bits say whether the signed result saturates.
reg [33:0] ax, ay;
reg ac;
always @(*) begin
    ax = {{2{a32[31]}}, a32};
    ay = {{2{b32[31]}}, b32};
    ac = cin_x;
    case (op)
        OP_SUB: begin
            // a - b - cin = a + ~b + (1 - cin)
            ay = ~{{2{b32[31]}}, b32};
            ac = !cin_x;
        end
        OP_MAD: begin
            ax = {{2{sgn & mul_t[31]}}, mul_t};
            ay = {{2{c32[31]}}, c32};
        end
        OP_ABS: begin
            ax = 34'd0;
            ay = ~{{2{a32[31]}}, a32};
            ac = 1'b1;
        end
        default: ;
    endcase
end
wire [33:0] sum = ax + ay + {33'd0, ac};
// The carry out of bit 31 of the unsigned sum (a subtraction's borrow is
// its complement).
wire carry = sum[32] ^ ax[32] ^ ay[32];
wire [31:0] sum_sat = (sum[33:31] == 3'b000 || sum[33:31] == 3'b111) ? sum[31:0] : sum[33] ? 32'h80000000 : 32'h7fffffff;
wire [31:0] sum_d = sat ? sum_sat : sum[31:0];

// One comparator serves isetp, isetp64, min and max: x - y on 65 bits,
// 32-bit operands extended by the comparison's signedness (isetp's from
// its comparison, min's and max's from .s32).
wire cmp_s = (op == OP_ISETP || op == OP_ISETP64) ? (cmp >= 4'd2 && cmp <= 4'd5) : sgn;
wire [63:0] cx = (op == OP_ISETP64) ? a : {{32{cmp_s & a32[31]}}, a32};
wire [63:0] cy = (op == OP_ISETP64) ? b : {{32{cmp_s & b32[31]}}, b32};
wire [64:0] cdiff = {cmp_s & cx[63], cx} - {cmp_s & cy[63], cy};
wire lt = cdiff[64];
wire eq = cx == cy;
reg rel;
always @(*) begin
    case (cmp)
        4'd0: rel = eq;
        4'd1: rel = !eq;
        4'd2, 4'd6: rel = lt;
        4'd3: rel = lt | eq;
        4'd7: rel = lt | eq;
        4'd4, 4'd8: rel = !lt & !eq;
        default: rel = !lt;
    endcase
end

// Bit fields, popc, clz and bfind as explicit structure: the funnel
// shifter (below) and masks, an adder tree, a priority encoder
// (tests/fpga.rs proves the ALU's results equal to the bit-by-bit loops
// of tests/fpga/alu_reference.v with a SAT miter). The field's bits:
// pl[7:0] is its position, pl[15:8] its length, and only bits at
// positions 0-31 belong to it: n = min(length, 32 - position) bits.
function [5:0] field_len(input [31:0] pl);
    reg [5:0] room;
    begin
        room = (pl[7:0] > 8'd31) ? 6'd0 : 6'd32 - {1'b0, pl[4:0]};
        field_len = (pl[15:8] < {2'b0, room}) ? pl[13:8] : room;
    end
endfunction

// bfe: the field shifted down (`field`, from the funnel), its n bits
// kept, the rest filled with its top bit when signed.
function [31:0] bfe32(input [31:0] field, input [31:0] x, input [31:0] pl, input s);
    reg [31:0] mask;
    reg [8:0] last;
    reg sbit;
    begin
        mask = ~(32'hffffffff << field_len(pl));
        last = {1'b0, pl[7:0]} + {1'b0, pl[15:8]} - 9'd1;
        sbit = s && pl[15:8] != 8'd0 && x[(last > 9'd31) ? 5'd31 : last[4:0]];
        bfe32 = (field & mask) | (~mask & {32{sbit}});
    end
endfunction

// bfi: the inserted bits shifted up (`ins_up`, from the funnel) replace
// the base's bits from the position for n bits.
function [31:0] bfi32(input [31:0] ins_up, input [31:0] pl, input [31:0] base);
    reg [31:0] mask;
    reg [6:0] hi_end;
    begin
        hi_end = {2'd0, pl[4:0]} + {1'b0, field_len(pl)};
        mask = (32'hffffffff << pl[4:0]) & ~(32'hffffffff << hi_end);
        if (pl[7:0] > 8'd31) mask = 32'd0;
        bfi32 = (base & ~mask) | (ins_up & mask);
    end
endfunction

function [7:0] byte_of(input [63:0] src, input [2:0] i);
    byte_of = src[i * 8 +: 8];
endfunction

function [31:0] prmt32(input [31:0] lo, input [31:0] sel, input [31:0] hw, input [2:0] mode);
    reg [63:0] src;
    reg [3:0] nib;
    reg [7:0] bt;
    reg [2:0] k0, k1, k2, k3;
    reg [1:0] cs;
    integer k;
    begin
        src = {hw, lo};
        cs = sel[1:0];
        prmt32 = 32'd0;
        if (mode == 3'd0) begin
            for (k = 0; k < 4; k = k + 1) begin
                nib = sel[k * 4 +: 4];
                bt = byte_of(src, nib[2:0]);
                if (nib[3]) bt = {8{bt[7]}};
                prmt32[k * 8 +: 8] = bt;
            end
        end else begin
            case (mode)
                3'd1: begin k0 = {1'b0, cs}; k1 = cs + 3'd1; k2 = cs + 3'd2; k3 = cs + 3'd3; end
                3'd2: begin k0 = {1'b0, cs}; k1 = cs + 3'd7; k2 = cs + 3'd6; k3 = cs + 3'd5; end
                3'd3: begin k0 = {1'b0, cs}; k1 = {1'b0, cs}; k2 = {1'b0, cs}; k3 = {1'b0, cs}; end
                3'd4: begin k0 = {1'b0, cs}; k1 = (cs > 2'd1) ? {1'b0, cs} : 3'd1; k2 = (cs > 2'd2) ? {1'b0, cs} : 3'd2; k3 = 3'd3; end
                3'd5: begin k0 = 3'd0; k1 = (cs < 2'd1) ? {1'b0, cs} : 3'd1; k2 = (cs < 2'd2) ? {1'b0, cs} : 3'd2; k3 = {1'b0, cs}; end
                default: begin
                    k0 = cs[0] ? 3'd2 : 3'd0; k1 = cs[0] ? 3'd3 : 3'd1; k2 = k0; k3 = k1;
                end
            endcase
            prmt32 = {byte_of(src, k3), byte_of(src, k2), byte_of(src, k1), byte_of(src, k0)};
        end
    end
endfunction

function [31:0] clz32(input [31:0] x);
    reg [31:0] v;
    reg [4:0] n;
    begin
        v = x;
        n[4] = v[31:16] == 16'd0;
        v = n[4] ? v << 16 : v;
        n[3] = v[31:24] == 8'd0;
        v = n[3] ? v << 8 : v;
        n[2] = v[31:28] == 4'd0;
        v = n[2] ? v << 4 : v;
        n[1] = v[31:30] == 2'd0;
        v = n[1] ? v << 2 : v;
        n[0] = !v[31];
        clz32 = (x == 32'd0) ? 32'd32 : {27'd0, n};
    end
endfunction

function [31:0] bfind32(input [31:0] x, input s, input shiftamt);
    reg [31:0] v, z;
    begin
        v = (s && x[31]) ? ~x : x;
        z = clz32(v);
        if (v == 32'd0) bfind32 = 32'hffffffff;
        else if (shiftamt) bfind32 = z;
        else bfind32 = 32'd31 - z;
    end
endfunction

function [31:0] popc32(input [31:0] x);
    reg [31:0] v;
    begin
        v = x - ((x >> 1) & 32'h55555555);
        v = (v & 32'h33333333) + ((v >> 2) & 32'h33333333);
        v = (v + (v >> 4)) & 32'h0f0f0f0f;
        v = v + (v >> 8);
        v = v + (v >> 16);
        popc32 = {26'd0, v[5:0]};
    end
endfunction

function [31:0] brev32(input [31:0] x);
    integer i;
    for (i = 0; i < 32; i = i + 1) brev32[i] = x[31 - i];
endfunction

// Every shift is one funnel shifter: ({h, l} >> k)[31:0] with k <= 32. A
// left shift by n is the right shift by 32 - n of the word above it; a
// 64-bit shift takes the pair of words its result word comes from.
function [31:0] funnel(input [31:0] h, input [31:0] l, input [5:0] k);
    reg [63:0] v;
    begin
        v = k[5] ? {32'd0, h} : {h, l};
        v = k[4] ? {16'd0, v[63:16]} : v;
        v = k[3] ? {8'd0, v[63:8]} : v;
        v = k[2] ? {4'd0, v[63:4]} : v;
        v = k[1] ? {2'd0, v[63:2]} : v;
        funnel = k[0] ? v[32:1] : v[31:0];
    end
endfunction

wire [31:0] ahi = a[63:32];
// The sign fill of a signed right shift (zero for an unsigned one).
wire [31:0] ext32 = {32{sgn & a32[31]}};
wire [31:0] ext64 = {32{sgn & ahi[31]}};
wire big32 = b32 > 32'd31;
wire big64 = b32 > 32'd63;
wire [5:0] shf_n = modv[MOD_CLAMP_LO] ? ((b32 > 32'd32) ? 6'd32 : b32[5:0]) : {1'b0, b32[4:0]};
reg [31:0] fh, fl;
reg [5:0] fk;
wire [31:0] fout = funnel(fh, fl, fk);

always @(*) begin
    fh = 32'd0;
    fl = 32'd0;
    fk = 6'd0;
    case (op)
        OP_SHL: begin
            fh = big32 ? 32'd0 : a32;
            fk = 6'd32 - {1'b0, b32[4:0]};
        end
        OP_SHR: begin
            fh = ext32;
            fl = (big32 & !sgn) ? 32'd0 : a32;
            fk = big32 ? 6'd31 : {1'b0, b32[4:0]};
        end
        OP_SHF: begin
            fh = c32;
            fl = a32;
            fk = modv[MOD_SHFDIR_LO] ? shf_n : 6'd32 - shf_n;
        end
        OP_BFE: begin
            fl = (b32[7:0] > 8'd31) ? 32'd0 : a32;
            fk = {1'b0, b32[4:0]};
        end
        OP_BFI: begin
            fh = a32;
            fk = 6'd32 - {1'b0, b32[4:0]};
        end
{shift64_funnel}        default: ;
    endcase
end

always @(*) begin
    d = 32'd0;
    cout = 1'b0;
    cc_we = 1'b0;
    pout = 1'b0;
    case (op)
        OP_MOV: d = b32;
        OP_ADD, OP_MAD: begin
            d = sum_d;
            // A saturating mad sets no carry.
            cout = carry & !(sat & (op == OP_MAD));
            cc_we = modv[MOD_CC_LO];
        end
        OP_SUB: begin
            d = sum_d;
            cout = !carry;
            cc_we = modv[MOD_CC_LO];
        end
        OP_MUL: d = mul_t;
        OP_MIN: d = lt ? a32 : b32;
        OP_MAX: d = lt ? b32 : a32;
        OP_ABS: d = a32[31] ? sum[31:0] : a32;
        OP_AND: d = a32 & b32;
        OP_OR: d = a32 | b32;
        OP_XOR: d = a32 ^ b32;
        OP_SHL, OP_SHR, OP_SHF: d = fout;
        OP_POPC: d = popc32(a32);
        OP_CLZ: d = clz32(a32);
        OP_BREV: d = brev32(a32);
        OP_BFIND: d = bfind32(a32, sgn, modv[MOD_SHIFTAMT_LO]);
        OP_BFE: d = bfe32(fout, a32, b32, sgn);
        OP_BFI: d = bfi32(fout, b32, c32);
        OP_PRMT: d = prmt32(a32, b32, c32, modv[MOD_PRMTMODE_LO +: 3]);
        OP_ISETP, OP_ISETP64: pout = rel;
        OP_SEL: d = pin ? a32 : b32;
{shift64_arm}{mul64_arm}        default: d = 32'd0;
    endcase
end
/* verilator lint_on UNUSEDSIGNAL */
"#;

/// The 32 x 32 product without `mul64`: one 33 x 33 signed multiply, each
/// operand extended by its sign when signed, else by a zero (four 18 x 18
/// DSP blocks on ECP5), whose low 64 bits are the signed or unsigned
/// product: no correction after it.
const MUL32_SIGNED: &str = r#"wire signed [32:0] ma = {sgn & a32[31], a32};
wire signed [32:0] mb = {sgn & b32[31], b32};
wire signed [65:0] pm = ma * mb;
wire [63:0] p32 = pm[63:0];
"#;

/// The 32 x 32 product with `mul64`, which needs the unsigned low product
/// `p_ll` anyway: a signed product differs from the unsigned one only in its
/// high half, by the other operand for each negative one:
/// x*y - 2^n*((x<0 ? y : 0) + (y<0 ? x : 0)).
const MUL32_FIXED: &str = r#"wire [63:0] p_ll = a[31:0] * b[31:0];
wire [31:0] fix32 = ((sgn & a32[31]) ? b32 : 32'd0) + ((sgn & b32[31]) ? a32 : 32'd0);
wire [63:0] p32 = {p_ll[63:32] - fix32, p_ll[31:0]};
"#;

/// `mul64`'s three more 32 x 32 products, summed as a tree with the low one:
/// mid halves, then the 128-bit sum (`SmConfig::mul64`).
const MUL64_WIRES: &str = r#"wire [63:0] p_lh = a[31:0] * b[63:32];
wire [63:0] p_hl = a[63:32] * b[31:0];
wire [63:0] p_hh = a[63:32] * b[63:32];
wire [64:0] p_mid = {1'b0, p_lh} + {1'b0, p_hl};
wire [127:0] u64 = {p_hh, p_ll} + {31'd0, p_mid, 32'd0};
wire [63:0] fix64 = ((sgn & a[63]) ? b : 64'd0) + ((sgn & b[63]) ? a : 64'd0);
wire [127:0] p64 = {u64[127:64] - fix64, u64[63:0]};
"#;

/// `shl64` and `shr64` (`SmConfig::shift64`): the funnel's words. Word 0
/// of `x << n` is `lo << n` (zero from 32 places), word 1 the funnel of
/// `hi:lo` (`lo << (n - 32)` from 32 places); word 0 of `x >> n` is the
/// funnel of `hi:lo` (`hi >> (n - 32)` from 32 places), word 1 `hi >> n`
/// (the sign fill from 32 places). Beyond 63 places: zero, or the sign
/// fill (a signed shift by 63).
const SHIFT64_FUNNEL: &str = r#"        OP_SHL64: begin
            fk = 6'd32 - {1'b0, b32[4:0]};
            if (!big64 && (half || !b32[5])) begin
                fh = (half && !b32[5]) ? ahi : a32;
                fl = (half && !b32[5]) ? a32 : 32'd0;
            end
        end
        OP_SHR64: begin
            fk = (big64 && sgn) ? 6'd31 : {1'b0, b32[4:0]};
            if (!big64 || sgn) begin
                fh = (half || b32[5] || big64) ? ext64 : ahi;
                fl = (half && (b32[5] || big64)) ? ext64 : (half || b32[5] || big64) ? ahi : a32;
            end
        end
"#;

const SHIFT64_ARM: &str = "        OP_SHL64, OP_SHR64: d = fout;\n";

const MUL64_ARM: &str = "        OP_MUL64: d = half ? (hi ? p64[127:96] : p64[63:32]) : (hi ? p64[95:64] : p64[31:0]);\n";
