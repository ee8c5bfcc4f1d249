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
//! at a launch's start, empties the cache.
//!
//! The words are two RAMs read synchronously (block or distributed RAM):
//! the even words and the odd ones, so an 8-byte parameter is one read of
//! each. Their read address is the next cycle's instruction's (`raddr`,
//! its immediate), so `val` is there from the cycle the load is
//! dispatched in, and stays while the instruction does. `hit` is
//! combinational, from the valid bits (flip-flops).

use crate::ram::{SyncRam, ADDR_BITS};
use crate::reg::Reg;
use rust_hdl::prelude::*;

/// Words kept: parameters in the first 64 bytes of the parameter space.
pub const PARAM_WORDS: usize = 16;

#[derive(LogicBlock)]
pub struct ParamCache {
    pub clock: Signal<In, Clock>,
    /// Empty the cache (a launch starts).
    pub clear: Signal<In, Bit>,
    /// The load: one the cache may answer; its byte address; 8 bytes (else 4).
    pub look: Signal<In, Bit>,
    pub addr: Signal<In, Bits<32>>,
    pub wide: Signal<In, Bit>,
    /// The byte address of the next cycle's load (its words are read out then).
    pub raddr: Signal<In, Bits<32>>,
    pub hit: Signal<Out, Bit>,
    pub val: Signal<Out, Bits<64>>,
    /// The load's answer is `fdata` (keep it).
    pub fill: Signal<In, Bit>,
    pub fdata: Signal<In, Bits<64>>,
    even: SyncRam<32>,
    odd: SyncRam<32>,
    valid: Reg<Bits<PARAM_WORDS>>,
    /// The address is aligned and within the kept words; its first word;
    /// the valid bits it needs.
    fits: Signal<Local, Bit>,
    wi: Signal<Local, Bits<32>>,
    need: Signal<Local, Bits<PARAM_WORDS>>,
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
            raddr: Default::default(),
            hit: Default::default(),
            val: Default::default(),
            fill: Default::default(),
            fdata: Default::default(),
            even: SyncRam::new(PARAM_WORDS / 2),
            odd: SyncRam::new(PARAM_WORDS / 2),
            valid: Default::default(),
            fits: Default::default(),
            wi: Default::default(),
            need: Default::default(),
            n_words: Constant::new((PARAM_WORDS as u64).into()),
            _ran: Gate::default(),
        }
    }
}

impl Logic for ParamCache {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, valid);
        self.even.clock.next = self.clock.val();
        self.odd.clock.next = self.clock.val();
        self.wi.next = self.addr.val() >> 2;
        self.fits.next = (self.wi.val() < self.n_words.val()) & (self.addr.val().get_bits::<2>(0) == 0);
        self.need.next = bits::<PARAM_WORDS>(1) << self.wi.val();
        if self.wide.val() {
            self.fits.next = self.fits.val() & !self.addr.val().get_bit(2);
            self.need.next = self.need.val() | (self.need.val() << 1);
        }
        self.hit.next = self.look.val() & self.fits.val() & ((self.valid.q.val() & self.need.val()) == self.need.val());
        // Word w is in RAM w & 1, at w >> 1.
        self.even.raddr.next = bit_cast::<ADDR_BITS, 32>(self.raddr.val() >> 3);
        self.odd.raddr.next = bit_cast::<ADDR_BITS, 32>(self.raddr.val() >> 3);
        self.val.next = bit_cast::<64, 32>(self.even.rdata.val());
        if self.wi.val().get_bit(0) {
            self.val.next = bit_cast::<64, 32>(self.odd.rdata.val());
        }
        if self.wide.val() {
            self.val.next = (bit_cast::<64, 32>(self.odd.rdata.val()) << 32) | bit_cast::<64, 32>(self.even.rdata.val());
        }
        self.even.waddr.next = bit_cast::<ADDR_BITS, 32>(self.wi.val() >> 1);
        self.odd.waddr.next = bit_cast::<ADDR_BITS, 32>(self.wi.val() >> 1);
        self.even.wdata.next = self.fdata.val().get_bits::<32>(0);
        self.odd.wdata.next = self.fdata.val().get_bits::<32>(0);
        if self.wide.val() {
            self.odd.wdata.next = self.fdata.val().get_bits::<32>(32);
        }
        self.even.we.next = false;
        self.odd.we.next = false;
        if self.look.val() & self.fits.val() & self.fill.val() {
            self.even.we.next = self.wide.val() | !self.wi.val().get_bit(0);
            self.odd.we.next = self.wide.val() | self.wi.val().get_bit(0);
            self.valid.d.next = self.valid.q.val() | self.need.val();
        }
        if self.clear.val() {
            self.valid.d.next = 0.into();
        }
    }
}
