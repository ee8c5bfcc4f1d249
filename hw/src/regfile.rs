//! `RegFile`: one lane's register file: three read ports (a, b, c) and one
//! write port, built from three copies of a one-read-port RAM that every
//! write updates (the usual FPGA way to get read ports). Reads are
//! synchronous, as block RAM's: the data at the addresses given in one
//! cycle comes out in the next (a write in that cycle included).

use crate::ram::{SyncRam, ADDR_BITS};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct RegFile {
    pub clock: Signal<In, Clock>,
    pub ra: Signal<In, Bits<ADDR_BITS>>,
    pub rb: Signal<In, Bits<ADDR_BITS>>,
    pub rc: Signal<In, Bits<ADDR_BITS>>,
    pub da: Signal<Out, Bits<64>>,
    pub db: Signal<Out, Bits<64>>,
    pub dc: Signal<Out, Bits<64>>,
    pub waddr: Signal<In, Bits<ADDR_BITS>>,
    pub wdata: Signal<In, Bits<64>>,
    pub we: Signal<In, Bit>,
    port_a: SyncRam<64>,
    port_b: SyncRam<64>,
    port_c: SyncRam<64>,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl RegFile {
    pub fn new(words: usize) -> RegFile {
        RegFile {
            _ran: Gate::default(),
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

    /// Backdoor read (test benches).
    pub fn peek(&self, addr: usize) -> Bits<64> {
        self.port_a.peek(addr)
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
