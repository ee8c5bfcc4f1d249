//! `AtomAlu`: the new memory value of an atomic, in hardware: the
//! semantics of [`heddle_isa::scalar::int::atomic`] (what the golden model
//! runs) on an old value and operands b and c, 32 or 64 bits wide; `f32`
//! adds are `.rn.ftz` and `f64` adds `.rn`, on the unit's own [`Fpu`] (where
//! the SM has FP units; see [`AtomAlu::new`]). Shared
//! memory's atomics use it (`smem.rs`); `hw/tests/smem.rs` checks it there
//! against that function on every operation at both widths.

use crate::fpu::Fpu;
use heddle_isa::table::mod_info;
use heddle_isa::{ModKind, Opcode};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct AtomAlu {
    /// An atomic is being computed (the logic is simulated only then; the
    /// result is 0 otherwise).
    pub en: Signal<In, Bit>,
    /// The `AtomOp` code.
    pub op: Signal<In, Bits<4>>,
    pub wide: Signal<In, Bit>,
    pub old: Signal<In, Bits<64>>,
    pub b: Signal<In, Bits<64>>,
    pub c: Signal<In, Bits<64>>,
    pub value: Signal<Out, Bits<64>>,
    /// The FP adder: one, or none in an SM without FP units.
    fadd: Vec<Fpu>,
    /// The adder's sum (0 without one).
    fsum: Signal<Local, Bits<64>>,
    o: Signal<Local, Bits<64>>,
    ab: Signal<Local, Bits<64>>,
    ac: Signal<Local, Bits<64>>,
    keep: Signal<Local, Bits<64>>,
    sgn: Signal<Local, Bits<64>>,
    op_fadd: Constant<Bits<7>>,
    op_dadd: Constant<Bits<7>>,
    mod_ftz: Constant<Bits<6>>,
    lo32: Constant<Bits<64>>,
    ones: Constant<Bits<64>>,
    sign32: Constant<Bits<64>>,
    sign64: Constant<Bits<64>>,
    /// How many FP adders: 1 or 0.
    _fadds: usize,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl AtomAlu {
    /// With `fadd`, the unit has its own FP adder for `f32` and `f64` adds;
    /// without, their result is 0 (the SM traps those atomics instead).
    pub fn new(fadd: bool) -> Self {
        AtomAlu {
            _ran: Gate::default(),
            en: Default::default(),
            op: Default::default(),
            wide: Default::default(),
            old: Default::default(),
            b: Default::default(),
            c: Default::default(),
            value: Default::default(),
            fadd: (0..fadd as usize).map(|_| Fpu::new([Opcode::Fadd, Opcode::Dadd])).collect(),
            fsum: Default::default(),
            _fadds: fadd as usize,
            o: Default::default(),
            ab: Default::default(),
            ac: Default::default(),
            keep: Default::default(),
            sgn: Default::default(),
            op_fadd: Constant::new((Opcode::Fadd as u64).into()),
            op_dadd: Constant::new((Opcode::Dadd as u64).into()),
            mod_ftz: Constant::new((1u64 << mod_info(ModKind::Ftz).lo).into()),
            lo32: Constant::new(0xFFFF_FFFFu64.into()),
            ones: Constant::new(u64::MAX.into()),
            sign32: Constant::new((1u64 << 31).into()),
            sign64: Constant::new((1u64 << 63).into()),
        }
    }
}

impl Logic for AtomAlu {
    #[hdl_gen]
    fn update(&mut self) {
        self.value.next = 0.into();
        self.o.next = 0.into();
        self.ab.next = 0.into();
        self.ac.next = 0.into();
        self.keep.next = 0.into();
        self.sgn.next = 0.into();
        self.fsum.next = 0.into();
        for i in 0..self._fadds {
            self.fsum.next = self.fadd[i].d.val();
        }
        if self.en.val() {
            self.keep.next = self.lo32.val();
            self.sgn.next = self.sign32.val();
            if self.wide.val() {
                self.keep.next = self.ones.val();
                self.sgn.next = self.sign64.val();
            }
            self.ab.next = self.b.val() & self.keep.val();
            self.ac.next = self.c.val() & self.keep.val();
            self.o.next = self.old.val() & self.keep.val();
            match self.op.val().index() {
                0 => self.value.next = self.o.val() + self.ab.val(),
                1 => self.value.next = self.fsum.val(),
                2 => {
                    self.value.next = self.ab.val();
                    if self.o.val() < self.ab.val() {
                        self.value.next = self.o.val();
                    }
                }
                3 => {
                    self.value.next = self.ab.val();
                    if (self.o.val() ^ self.sgn.val()) < (self.ab.val() ^ self.sgn.val()) {
                        self.value.next = self.o.val();
                    }
                }
                4 => {
                    self.value.next = self.ab.val();
                    if self.o.val() > self.ab.val() {
                        self.value.next = self.o.val();
                    }
                }
                5 => {
                    self.value.next = self.ab.val();
                    if (self.o.val() ^ self.sgn.val()) > (self.ab.val() ^ self.sgn.val()) {
                        self.value.next = self.o.val();
                    }
                }
                6 => {
                    self.value.next = self.o.val() + 1;
                    if self.o.val() >= self.ab.val() {
                        self.value.next = 0.into();
                    }
                }
                7 => {
                    self.value.next = self.o.val() - 1;
                    if (self.o.val() == 0) | (self.o.val() > self.ab.val()) {
                        self.value.next = self.ab.val();
                    }
                }
                8 => self.value.next = self.o.val() & self.ab.val(),
                9 => self.value.next = self.o.val() | self.ab.val(),
                10 => self.value.next = self.o.val() ^ self.ab.val(),
                11 => self.value.next = self.ab.val(),
                _ => {
                    self.value.next = self.o.val();
                    if self.o.val() == self.ab.val() {
                        self.value.next = self.ac.val();
                    }
                }
            }
            self.value.next = self.value.val() & self.keep.val();
        }
        // f32 (`.rn.ftz`) or f64 add.
        for i in 0..self._fadds {
            self.fadd[i].op.next = self.op_fadd.val();
            if self.wide.val() {
                self.fadd[i].op.next = self.op_dadd.val();
            }
            self.fadd[i].modv.next = self.mod_ftz.val();
            self.fadd[i].ext0.next = false;
            self.fadd[i].a.next = self.o.val();
            self.fadd[i].b.next = self.ab.val();
            self.fadd[i].c.next = 0.into();
        }
    }
}
