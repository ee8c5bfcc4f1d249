//! `ParamCache`: the kernel's first parameter words, kept on chip as loads
//! read them, so that a warp reads a parameter another warp has read
//! without a bus transfer.
//!
//! Which loads: the SM asks (`look`) for a load from the parameter space
//! at an immediate address (`ld.param [rz+imm]`, the compiler's form for a
//! kernel parameter: one address for every thread) of 4 or 8 bytes
//! (`wide`). The cache answers for an aligned address within its first
//! [`PARAM_WORDS`] words: `hit` when the words are held, with their value
//! (`val`: the 4 bytes zero-extended, or the 8 bytes). Otherwise the load
//! goes over the bus as any other, and its answer (`fill`, `fdata`) is
//! kept.
//!
//! The parameter space is read-only during a launch (a store to it traps
//! before it reaches the bus), so a kept word never goes stale: `clear`,
//! at a launch's start, empties the cache. Lookup is combinational on the
//! address; a fill is taken at the clock edge. The words are flip-flops
//! (16 x 32 bits): the lookup is in the cycle that dispatches the load.

use crate::reg::{Reg, Regs};
use rust_hdl::prelude::*;

/// Words kept: parameters in the first 64 bytes of the parameter space
/// (`update()` loops over them as `0..16`).
pub const PARAM_WORDS: usize = 16;
const _: () = assert!(PARAM_WORDS == 16);

#[derive(LogicBlock)]
pub struct ParamCache {
    pub clock: Signal<In, Clock>,
    /// Empty the cache (a launch starts).
    pub clear: Signal<In, Bit>,
    /// The load: one the cache may answer; its byte address; 8 bytes (else 4).
    pub look: Signal<In, Bit>,
    pub addr: Signal<In, Bits<32>>,
    pub wide: Signal<In, Bit>,
    pub hit: Signal<Out, Bit>,
    pub val: Signal<Out, Bits<64>>,
    /// The load's answer is `fdata` (keep it).
    pub fill: Signal<In, Bit>,
    pub fdata: Signal<In, Bits<64>>,
    words: Regs<Bits<32>>,
    valid: Reg<Bits<PARAM_WORDS>>,
    /// The address is aligned and within the kept words; its first word;
    /// the valid bits it needs.
    fits: Signal<Local, Bit>,
    wi: Signal<Local, Bits<32>>,
    need: Signal<Local, Bits<PARAM_WORDS>>,
    lo: Signal<Local, Bits<32>>,
    hi: Signal<Local, Bits<32>>,
    index: Vec<Constant<Bits<32>>>,
    n_words: Constant<Bits<32>>,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl Default for ParamCache {
    fn default() -> Self {
        ParamCache {
            clock: Default::default(),
            clear: Default::default(),
            look: Default::default(),
            addr: Default::default(),
            wide: Default::default(),
            hit: Default::default(),
            val: Default::default(),
            fill: Default::default(),
            fdata: Default::default(),
            words: Regs::new(PARAM_WORDS),
            valid: Default::default(),
            fits: Default::default(),
            wi: Default::default(),
            need: Default::default(),
            lo: Default::default(),
            hi: Default::default(),
            index: (0..PARAM_WORDS as u64).map(|i| Constant::new(i.into())).collect(),
            n_words: Constant::new((PARAM_WORDS as u64).into()),
            _ran: Gate::default(),
        }
    }
}

impl Logic for ParamCache {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, valid);
        self.words.clock.next = self.clock.val();
        #[hdl_hold]
        self.words.hold();
        self.wi.next = self.addr.val() >> 2;
        self.fits.next = (self.wi.val() < self.n_words.val()) & (self.addr.val().get_bits::<2>(0) == 0);
        self.need.next = bits::<PARAM_WORDS>(1) << self.wi.val();
        if self.wide.val() {
            self.fits.next = self.fits.val() & !self.addr.val().get_bit(2);
            self.need.next = self.need.val() | (self.need.val() << 1);
        }
        self.lo.next = 0.into();
        self.hi.next = 0.into();
        for i in 0..16 {
            if self.wi.val() == self.index[i].val() {
                self.lo.next = self.words.q[i].val();
            }
            if (self.wi.val() + 1) == self.index[i].val() {
                self.hi.next = self.words.q[i].val();
            }
            if self.look.val() & self.fits.val() & self.fill.val() {
                if self.wi.val() == self.index[i].val() {
                    self.words.d[i].next = self.fdata.val().get_bits::<32>(0);
                }
                if self.wide.val() & ((self.wi.val() + 1) == self.index[i].val()) {
                    self.words.d[i].next = self.fdata.val().get_bits::<32>(32);
                }
            }
        }
        self.hit.next = self.look.val() & self.fits.val() & ((self.valid.q.val() & self.need.val()) == self.need.val());
        self.val.next = bit_cast::<64, 32>(self.lo.val());
        if self.wide.val() {
            self.val.next = (bit_cast::<64, 32>(self.hi.val()) << 32) | bit_cast::<64, 32>(self.lo.val());
        }
        if self.look.val() & self.fits.val() & self.fill.val() {
            self.valid.d.next = self.valid.q.val() | self.need.val();
        }
        if self.clear.val() {
            self.valid.d.next = 0.into();
        }
    }
}
