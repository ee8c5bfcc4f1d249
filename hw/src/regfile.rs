//! `RegFile`: one lane's register file: three read ports (a, b, c) and one
//! write port, built from three copies of a one-read-port RAM that every
//! write updates (the usual FPGA way to get read ports). Reads are
//! synchronous, as block RAM's: the data at the addresses given in one
//! cycle comes out in the next (a write in that cycle included).
//!
//! A word is [`WORD_BITS`] wide: the register's 32 bits, and above them the
//! [`EPOCH_BITS`]-bit epoch of its warp when it was written (the SM reads a
//! word whose epoch is not its warp's current one as zero). 36 bits is the
//! widest port of an ECP5 DP16KD (512 x 36), so the epoch costs no RAM.
//!
//! Its `Block` is written by hand (the Verilog is `#[hdl_gen]`'s): it acts
//! only at a clock edge, handing its ports the inputs its parent assigned
//! last (never committed; the VCD traces `next`), as its logic would wire
//! them, so the parent's many settle passes, which change those inputs,
//! cost it nothing.

use crate::ram::{SyncRam, ADDR_BITS};
use rust_hdl::prelude::*;

/// Bits of a register.
pub const DATA_BITS: usize = 32;
/// Bits of the warp epoch stored above a register's bits.
pub const EPOCH_BITS: usize = 4;
/// Bits of a register-file word.
pub const WORD_BITS: usize = DATA_BITS + EPOCH_BITS;

pub struct RegFile {
    pub clock: Signal<In, Clock>,
    pub ra: Signal<In, Bits<ADDR_BITS>>,
    pub rb: Signal<In, Bits<ADDR_BITS>>,
    pub rc: Signal<In, Bits<ADDR_BITS>>,
    pub da: Signal<Out, Bits<WORD_BITS>>,
    pub db: Signal<Out, Bits<WORD_BITS>>,
    pub dc: Signal<Out, Bits<WORD_BITS>>,
    pub waddr: Signal<In, Bits<ADDR_BITS>>,
    pub wdata: Signal<In, Bits<WORD_BITS>>,
    pub we: Signal<In, Bit>,
    port_a: SyncRam<WORD_BITS>,
    port_b: SyncRam<WORD_BITS>,
    port_c: SyncRam<WORD_BITS>,
}

impl RegFile {
    pub fn new(words: usize) -> RegFile {
        RegFile {
            clock: Default::default(),
            ra: Default::default(),
            rb: Default::default(),
            rc: Default::default(),
            da: Default::default(),
            db: Default::default(),
            dc: Default::default(),
            waddr: Default::default(),
            wdata: Default::default(),
            we: Default::default(),
            port_a: SyncRam::new(words),
            port_b: SyncRam::new(words),
            port_c: SyncRam::new(words),
        }
    }
}

impl Logic for RegFile {
    #[hdl_gen]
    fn update(&mut self) {
        self.port_a.clock.next = self.clock.val();
        self.port_b.clock.next = self.clock.val();
        self.port_c.clock.next = self.clock.val();
        self.port_a.raddr.next = self.ra.val();
        self.port_b.raddr.next = self.rb.val();
        self.port_c.raddr.next = self.rc.val();
        self.da.next = self.port_a.rdata.val();
        self.db.next = self.port_b.rdata.val();
        self.dc.next = self.port_c.rdata.val();
        self.port_a.waddr.next = self.waddr.val();
        self.port_b.waddr.next = self.waddr.val();
        self.port_c.waddr.next = self.waddr.val();
        self.port_a.wdata.next = self.wdata.val();
        self.port_b.wdata.next = self.wdata.val();
        self.port_c.wdata.next = self.wdata.val();
        self.port_a.we.next = self.we.val();
        self.port_b.we.next = self.we.val();
        self.port_c.we.next = self.we.val();
    }
}

impl Block for RegFile {
    block_ports!(clock, ra, rb, rc, da, db, dc, waddr, wdata, we, port_a, port_b, port_c);

    fn update_all(&mut self) {
        self.clock.update_all();
        let clock = self.clock.val();
        let ports = [
            (&mut self.port_a, &self.ra, &mut self.da),
            (&mut self.port_b, &self.rb, &mut self.db),
            (&mut self.port_c, &self.rc, &mut self.dc),
        ];
        for (port, raddr, data) in ports {
            port.clock.next = clock;
            port.raddr.next = raddr.next;
            port.waddr.next = self.waddr.next;
            port.wdata.next = self.wdata.next;
            port.we.next = self.we.next;
            port.update_all();
            data.next = port.rdata.val();
            data.update_all();
        }
    }

    fn has_changed(&self) -> bool {
        self.da.changed || self.db.changed || self.dc.changed
    }

    /// A falling edge with no change flag to clear is taken quietly, by the
    /// ports too (the next rising edge still finds them low).
    fn forward_clock(&mut self, clock: Clock) -> bool {
        let acts = self.has_changed() || self.clock.rises_to(clock);
        if !acts {
            for port in [&mut self.port_a, &mut self.port_b, &mut self.port_c] {
                port.clock.take_quietly(clock);
            }
        }
        self.clock.forward(clock, acts)
    }

    fn wants_update(&self) -> bool {
        self.has_changed() || self.clock.next != self.clock.val()
    }
}
