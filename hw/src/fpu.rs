//! `Fpu`: a floating-point unit, built for a set of opcodes ([`Fpu::new`]).
//! binary32: `fadd`, `fsub`, `fmul`, `ffma` in the four rounding modes with
//! `.ftz` and `.sat`, `fmin`, `fmax`, `fsetp`, `frnd`, `f2i`/`i2f` (32- and
//! 64-bit integers), `f2h`/`h2f`; binary64: `dadd`, `dsub`, `dmul`,
//! `dfma`, `dmin`, `dmax`, `dsetp`, `drnd`, `f2d`, `d2f`, `d2i`, `i2d`.
//! Opcodes it is not built for give 0. Division and square root are the
//! iterative [`FpDivSqrt`](crate::fdivsqrt::FpDivSqrt)'s (`fdivsqrt.rs`),
//! which has the SM's shared unit round its result (the `rq_` ports).
//! Operands and the result are 64 bits wide (binary64 values and 64-bit
//! integers come from register pairs; binary32 ones use the low word).
//!
//! The SM builds one per lane for binary32's arithmetic ([`lane_ops`]) and
//! one shared by the lanes for binary32's conversions and binary64
//! ([`shared_ops`]); the atomic unit builds one for `fadd` and `dadd`.
//!
//! A custom block: its simulation model is the ISA's scalar semantics
//! (`heddle_isa::scalar::fp`, what the golden model runs); its Verilog is
//! written by hand below and held bit-exact to the model under Verilator on
//! 1e5+ random and special operands per operation and rounding mode
//! (`hw/tests/fpu.rs`).
//!
//! The Verilog is format-generic (binary16/32/64 geometry from one set of
//! functions) around one rounding step, `pack`: a sign, an exact or
//! sticky-extended magnitude and the exponent of its last bit are rounded once
//! at the result's last place (normal: 24 or 53 significant bits; subnormal:
//! the format's smallest place) by the rounding mode, overflowing to infinity
//! or the largest finite value as the mode says. Every operation reduces to it:
//!
//! - `fma`: one fused multiply-add datapath. Add and subtract are
//!   `a * 1.0 + b` and `a * 1.0 - b`; multiply is `a * b + z` with `z` the zero
//!   that leaves every product unchanged in the rounding mode (+0 toward
//!   negative infinity, -0 otherwise). NaN and infinity cases first (any NaN,
//!   inf * 0, inf - inf give the canonical NaN); then the product's exact
//!   significand and the addend's are summed exactly if the lesser one's last
//!   bit is at most a window below the other's (its own width + 2: 26 or 50
//!   places for binary32, 55 or 108 for binary64), else the lesser one only
//!   contributes a sticky unit three places below the larger one's last bit;
//!   an exactly zero sum is +0, or -0 toward negative infinity (like-signed
//!   zero operands keep their sign);
//! - conversions between formats and from integers are one `pack`; float to
//!   integer rounds the magnitude at the units place and saturates to the
//!   type; `frnd`/`drnd` round at the units place and pack exactly;
//! - binary32 `.ftz` flushes subnormal inputs and results, `.sat` clamps to
//!   [+0, 1] (NaN to +0); NaN results are the canonical NaN of the format.
//!
//! The functions that carry magnitudes are instantiated per width (`Lib`,
//! in `fpu/verilog.rs` with the rest of the Verilog): 76 bits in a unit
//! whose `fma` is binary32's, 164 in one with binary64's. Add, subtract,
//! multiply and fma of a format share one `fma` through operand
//! multiplexers.

use crate::config::Units;
use heddle_isa::scalar::fp::{self, IntTy, Rnd};
use heddle_isa::table::{mod_info, Unit, TABLE};
use heddle_isa::{ModKind, Opcode};
use rust_hdl::prelude::*;

mod verilog;
pub(crate) use verilog::FPU_COMMON;

/// The width of a rounding request's magnitude: the division's quotient
/// and sticky bit ([`FpDivSqrt`](crate::fdivsqrt::FpDivSqrt), 58 bits), the
/// SFU's 64-bit window of its result with the rest as sticky
/// ([`Sfu`](crate::sfu::Sfu)).
pub const RQ_MAG: usize = 64;
/// A rounding request's format code for binary32 (`rq_f`: binary16, 32, 64
/// are 0, 1, 2).
pub const RQ_F32: u32 = 1;

/// Division and square root, both formats: built on the iterative
/// [`FpDivSqrt`](crate::fdivsqrt::FpDivSqrt), not in an `Fpu`.
pub const DIV_SQRT_OPS: [Opcode; 4] = [Opcode::Fdiv, Opcode::Fsqrt, Opcode::Ddiv, Opcode::Dsqrt];

#[derive(LogicBlock)]
pub struct Fpu {
    pub op: Signal<In, Bits<7>>,
    pub modv: Signal<In, Bits<6>>,
    /// `ext` bit 0 (`fsetp`'s `.ftz`).
    pub ext0: Signal<In, Bit>,
    pub a: Signal<In, Bits<64>>,
    pub b: Signal<In, Bits<64>>,
    pub c: Signal<In, Bits<64>>,
    /// The result (binary32 and 32-bit integer results in the low word).
    pub d: Signal<Out, Bits<64>>,
    /// `fsetp`/`dsetp`'s comparison result.
    pub pout: Signal<Out, Bit>,
    /// A rounding request from the iterative division and square root
    /// ([`FpDivSqrt`](crate::fdivsqrt::FpDivSqrt)) or the SFU
    /// ([`Sfu`](crate::sfu::Sfu)), which have no rounding step of their
    /// own, in a unit built [`Fpu::with_requests`] (in others
    /// `rounded` is 0): while `rq_on`, `rounded` is (-1)^`rq_s` `rq_mag`
    /// 2^`rq_e` rounded once to format `rq_f` (binary16, 32, 64: 0, 1, 2)
    /// in mode `rq_rm` ([`fp::round_scaled`]); `rq_mag` is nonzero.
    /// `rounded` means nothing while `rq_on` is low, and `d` nothing while
    /// it is high.
    pub rq_on: Signal<In, Bit>,
    pub rq_s: Signal<In, Bit>,
    pub rq_mag: Signal<In, Bits<RQ_MAG>>,
    pub rq_e: Signal<In, Bits<16>>,
    pub rq_rm: Signal<In, Bits<2>>,
    pub rq_f: Signal<In, Bits<2>>,
    pub rounded: Signal<Out, Bits<64>>,
    /// The opcodes it is built for, a bit each; others give 0.
    _ops: u128,
    /// It takes rounding requests ([`Fpu::with_requests`]); else `rounded`
    /// is 0.
    _requests: bool,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl Fpu {
    /// A unit built for `ops` (FP unit opcodes, [`ops32`] and [`ops64`],
    /// but division and square root, which
    /// [`FpDivSqrt`](crate::fdivsqrt::FpDivSqrt) computes).
    pub fn new(ops: impl IntoIterator<Item = Opcode>) -> Fpu {
        Fpu {
            op: Default::default(),
            modv: Default::default(),
            ext0: Default::default(),
            a: Default::default(),
            b: Default::default(),
            c: Default::default(),
            d: Default::default(),
            pout: Default::default(),
            rq_on: Default::default(),
            rq_s: Default::default(),
            rq_mag: Default::default(),
            rq_e: Default::default(),
            rq_rm: Default::default(),
            rq_f: Default::default(),
            rounded: Default::default(),
            _ops: ops.into_iter().fold(0, |m, o| m | 1 << (o as u8)),
            _requests: false,
            _ran: Default::default(),
        }
    }

    /// The unit also rounds requests (the `rq_` ports): the SM's shared
    /// unit, for the division and square root.
    pub fn with_requests(self) -> Fpu {
        Fpu { _requests: true, ..self }
    }
}

/// A unit built for every FP opcode it can be: all but division and
/// square root.
impl Default for Fpu {
    fn default() -> Fpu {
        Fpu::new(ops32().chain(ops64()).filter(|o| !DIV_SQRT_OPS.contains(o)))
    }
}

/// binary32 opcodes this unit executes (`SmConfig::fp32`): the table's `Unit::Fpu` rows.
pub fn ops32() -> impl Iterator<Item = Opcode> {
    TABLE.iter().filter(|i| i.unit == Unit::Fpu).map(|i| i.opcode)
}

/// binary64 opcodes this unit executes (`SmConfig::fp64`): the table's `Unit::Dpu` rows.
pub fn ops64() -> impl Iterator<Item = Opcode> {
    TABLE.iter().filter(|i| i.unit == Unit::Dpu).map(|i| i.opcode)
}

/// binary32's conversions and rounding to an integral value. Each lane's
/// unit leaves them to the shared one: they need the 72-bit magnitude
/// path (64-bit integers), a third of a lane unit's LUTs
/// (`docs/fpga.md`), for instructions that are rare in a kernel's loops.
pub const CONVERSIONS32: [Opcode; 5] = [Opcode::F2i, Opcode::I2f, Opcode::Frnd, Opcode::F2h, Opcode::H2f];

/// The SM's shared units compute these, one lane at a time: binary32
/// division, square root and conversions, and every binary64 operation
/// (division and square root on
/// [`FpDivSqrt`](crate::fdivsqrt::FpDivSqrt), the rest on a shared `Fpu`).
pub fn shared(op: Opcode) -> bool {
    DIV_SQRT_OPS.contains(&op) || CONVERSIONS32.contains(&op) || ops64().any(|o| o == op)
}

/// What each lane's FP unit is built for: binary32 arithmetic, minimum,
/// maximum and compares (empty without `fp32`).
pub fn lane_ops(units: Units) -> impl Iterator<Item = Opcode> {
    ops32().filter(move |&o| units.fp32 && !shared(o))
}

/// What the SM's shared FP unit is built for: binary32's conversions (with
/// `fp32`) and binary64 but division and square root (with `fp64`). Empty
/// with neither: then the SM has no shared FP unit.
pub fn shared_ops(units: Units) -> impl Iterator<Item = Opcode> {
    let conversions = CONVERSIONS32.into_iter().filter(move |_| units.fp32);
    conversions.chain(ops64().filter(move |o| units.fp64 && !DIV_SQRT_OPS.contains(o)))
}

/// The reference semantics: (d, pout).
pub fn model(op: u8, modv: u32, ext0: bool, a: u64, b: u64, c: u64) -> (u64, bool) {
    let m = |k: ModKind| mod_info(k).get(modv);
    let rnd = Rnd::from_bits(m(ModKind::Rnd));
    let (ftz, sat) = (m(ModKind::Ftz) == 1, m(ModKind::Sat) == 1);
    let ty = IntTy::from_bits(m(ModKind::IntTy));
    let (a32, b32, c32) = (a as u32, b as u32, c as u32);
    let w = |x: u32| x as u64;
    match Opcode::from_code(op) {
        Some(Opcode::Fadd) => (w(fp::add32(a32, b32, rnd, ftz, sat)), false),
        Some(Opcode::Fsub) => (w(fp::sub32(a32, b32, rnd, ftz, sat)), false),
        Some(Opcode::Fmul) => (w(fp::mul32(a32, b32, rnd, ftz, sat)), false),
        Some(Opcode::Ffma) => (w(fp::fma32(a32, b32, c32, rnd, ftz, sat)), false),
        Some(Opcode::Fmin) => (w(fp::minmax32(a32, b32, false, ftz)), false),
        Some(Opcode::Fmax) => (w(fp::minmax32(a32, b32, true, ftz)), false),
        Some(Opcode::Fsetp) => (0, fp::setp32(a32, b32, m(ModKind::FCmp), ext0)),
        Some(Opcode::Frnd) => (w(fp::rnd32(a32, rnd, ftz)), false),
        Some(Opcode::F2i) => (fp::f2i(a32, rnd, ftz, ty), false),
        Some(Opcode::I2f) => (w(fp::i2f(a, rnd, ty)), false),
        Some(Opcode::F2h) => (w(fp::f2h(a32, rnd, ftz)), false),
        Some(Opcode::H2f) => (w(fp::h2f(a32)), false),
        Some(Opcode::Fdiv) => (w(fp::div32(a32, b32, rnd, ftz)), false),
        Some(Opcode::Fsqrt) => (w(fp::sqrt32(a32, rnd, ftz)), false),
        Some(Opcode::Dadd) => (fp::add64(a, b, rnd), false),
        Some(Opcode::Dsub) => (fp::sub64(a, b, rnd), false),
        Some(Opcode::Dmul) => (fp::mul64(a, b, rnd), false),
        Some(Opcode::Dfma) => (fp::fma64(a, b, c, rnd), false),
        Some(Opcode::Dmin) => (fp::minmax64(a, b, false), false),
        Some(Opcode::Dmax) => (fp::minmax64(a, b, true), false),
        Some(Opcode::Dsetp) => (0, fp::setp64(a, b, m(ModKind::FCmp))),
        Some(Opcode::Drnd) => (fp::rnd64(a, rnd), false),
        Some(Opcode::Ddiv) => (fp::div64(a, b, rnd), false),
        Some(Opcode::Dsqrt) => (fp::sqrt64(a, rnd), false),
        Some(Opcode::F2d) => (fp::f2d(a32, ftz), false),
        Some(Opcode::D2f) => (w(fp::d2f(a, rnd, ftz, sat)), false),
        Some(Opcode::D2i) => (fp::d2i(a, rnd, ty), false),
        Some(Opcode::I2d) => (fp::i2d(a, rnd, ty), false),
        _ => (0, false),
    }
}

impl Logic for Fpu {
    fn update(&mut self) {
        let request =
            [self.rq_on.changed, self.rq_s.changed, self.rq_mag.changed, self.rq_e.changed, self.rq_rm.changed, self.rq_f.changed];
        // A unit without requests leaves `rounded` at 0 and skips the check.
        if self._requests && request.contains(&true) {
            let rounded = if self.rq_on.val() {
                let rnd = Rnd::from_bits(self.rq_rm.val().index() as u32);
                fp::round_scaled(
                    self.rq_s.val(),
                    self.rq_mag.val().to_u64(),
                    self.rq_e.val().to_u64() as i16,
                    rnd,
                    self.rq_f.val().index() as u32,
                )
            } else {
                0
            };
            self.rounded.next = rounded.into();
        }
        let inputs = [self.op.changed, self.modv.changed, self.ext0.changed, self.a.changed, self.b.changed, self.c.changed];
        if !inputs.contains(&true) {
            return;
        }
        let op = self.op.val().index() as u8;
        let (d, p) = if self._ops >> op & 1 == 0 {
            (0, false)
        } else {
            model(op, self.modv.val().index() as u32, self.ext0.val(), self.a.val().to_u64(), self.b.val().to_u64(), self.c.val().to_u64())
        };
        self.d.next = d.into();
        self.pout.next = p;
    }

    fn connect(&mut self) {
        self.d.connect();
        self.pout.connect();
        self.rounded.connect();
    }

    fn hdl(&self) -> Verilog {
        let body = verilog::unit(self._ops, self._requests);
        let tie = "2'd0: round_up = rbit && (sticky || lsb);";
        Verilog::Custom(crate::plant::patch(crate::plant::Plant::FpuTiesDown, body, tie, "2'd0: round_up = rbit && sticky;"))
    }
}
