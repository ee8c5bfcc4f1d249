//! `AtomAlu`: the new memory value of an atomic, in hardware: the
//! semantics of [`heddle_isa::scalar::int::atomic`] (what the golden model
//! runs) on an old value and operands b and c, 32 or 64 bits wide. Shared
//! memory's atomics use it (`smem.rs`); `hw/tests/smem.rs` checks it there
//! against that function on every operation at both widths.
//!
//! An FP add (`f32` adds are `.rn.ftz`, `f64` adds `.rn`) is not computed
//! here: the unit puts its operands out (`fadd`, `fa`, `fb`) and takes the
//! sum back (`fsum`) from an FP unit the SM has anyway and which is idle
//! while an atomic runs: lane 0's binary32 unit, or the shared unit for
//! binary64 (`sm/lanes.rs`). Without that unit the SM traps those atomics
//! (`decode::missing_unit`).

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
    /// The operation is an FP add (of `wide` width) of `fa` and `fb`: its
    /// sum comes back on `fsum`.
    pub fadd: Signal<Out, Bit>,
    pub fa: Signal<Out, Bits<64>>,
    pub fb: Signal<Out, Bits<64>>,
    pub fsum: Signal<In, Bits<64>>,
    o: Signal<Local, Bits<64>>,
    ab: Signal<Local, Bits<64>>,
    ac: Signal<Local, Bits<64>>,
    keep: Signal<Local, Bits<64>>,
    sgn: Signal<Local, Bits<64>>,
    lo32: Constant<Bits<64>>,
    ones: Constant<Bits<64>>,
    sign32: Constant<Bits<64>>,
    sign64: Constant<Bits<64>>,
    /// 1 where an FP add takes `fsum`, else 0.
    _fadds: usize,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl AtomAlu {
    /// With `fadd` (an SM with FP units) an FP add takes its sum from
    /// `fsum`; without, it gives 0 (the SM traps it).
    pub fn new(fadd: bool) -> Self {
        AtomAlu {
            _fadds: fadd as usize,
            _ran: Gate::default(),
            en: Default::default(),
            op: Default::default(),
            wide: Default::default(),
            old: Default::default(),
            b: Default::default(),
            c: Default::default(),
            value: Default::default(),
            fadd: Default::default(),
            fa: Default::default(),
            fb: Default::default(),
            fsum: Default::default(),
            o: Default::default(),
            ab: Default::default(),
            ac: Default::default(),
            keep: Default::default(),
            sgn: Default::default(),
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
        self.fadd.next = false;
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
                1 => {
                    for _f in 0..self._fadds {
                        self.fadd.next = true;
                        self.value.next = self.fsum.val();
                    }
                }
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
        self.fa.next = self.o.val();
        self.fb.next = self.ab.val();
    }
}
