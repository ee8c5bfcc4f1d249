//! `SharedMem`: the CTA's on-chip shared memory, `SmConfig::shared_banks`
//! banks of 4-byte words (word `w` is in bank `w % banks`, row `w / banks`),
//! with bank conflicts serialized and atomics done in place.
//!
//! The SM hands it a *pass*: the lanes of one beat (`mask`), each with a
//! byte offset in shared memory and, for stores, its data. A 64- or 128-bit
//! access is several 32-bit passes (word `k` at offset `+4k`); a byte or
//! half-word access is one pass with byte enables. Each cycle the crossbar
//! ([`BankXbar`]) serves, per bank, the lowest pending lane and, for loads,
//! every other pending lane that reads the same row (a broadcast); a store is
//! one lane per bank per cycle, so two lanes writing one word land in lane
//! order, as the golden model's lane loop writes them. The lanes left over
//! are served in the next cycles: those extra cycles are the bank
//! conflicts. An atomic pass serves one lane per cycle, lowest first: its
//! old value (one word, or two from adjacent banks) is read, the new value
//! ([`heddle_isa::scalar::int::atomic`]'s semantics; `f32`/`f64` add on an
//! FPU, in [`AtomAlu`]) is written back in the same cycle.
//!
//! A new CTA's shared memory reads as zeros: `clear` zeroes the rows of its slot's window,
//! one row of every bank per cycle (`clearing` meanwhile).

use crate::atom::AtomAlu;
use crate::ram::{BankRam, ADDR_BITS};
use crate::reg::Reg;
use rust_hdl::prelude::*;

/// `mode` values.
pub mod mode {
    pub const LOAD: u64 = 0;
    pub const STORE: u64 = 1;
    pub const ATOMIC: u64 = 2;
}

/// The crossbar between lanes and banks: which lanes one cycle serves and
/// what each bank does for them (see the module doc). A custom block (its
/// per-bank arbitration is a loop that accumulates): a Rust model and a
/// hand-written Verilog body, held equal under Verilator by `hw/tests/smem.rs`.
#[derive(LogicBlock)]
pub struct BankXbar {
    pub active: Signal<In, Bits<32>>,
    pub mode: Signal<In, Bits<2>>,
    /// Log2 of the bytes each lane accesses in this pass: 0, 1 or 2 (atomics: 2 or 3).
    pub size: Signal<In, Bits<2>>,
    /// Per lane: byte offset in shared memory, store data (right-aligned).
    pub addr: Vec<Signal<In, Bits<32>>>,
    pub wdata: Vec<Signal<In, Bits<32>>>,
    /// The atomic lane's new value.
    pub anew: Signal<In, Bits<64>>,
    /// Per bank: the word read at `row`.
    pub rdata: Vec<Signal<In, Bits<32>>>,
    /// Lanes served this cycle.
    pub grant: Signal<Out, Bits<32>>,
    /// Per bank: the row read and written, write enable, byte enables, data.
    pub row: Vec<Signal<Out, Bits<ADDR_BITS>>>,
    pub we: Vec<Signal<Out, Bit>>,
    pub be: Vec<Signal<Out, Bits<4>>>,
    pub bwdata: Vec<Signal<Out, Bits<32>>>,
    /// Per lane: its bytes of its bank's word, right-aligned, zero-extended
    /// (to 64 bits, as the SM's lane registers hold them).
    pub rword: Vec<Signal<Out, Bits<64>>>,
    /// The atomic lane's old value (two words when `size` is 3).
    pub aold: Signal<Out, Bits<64>>,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    /// The planted bug `SmemBroadcastRow` ([`crate::plant`]; the simulation model only).
    _plant: bool,
    _ran: Gate,
}

/// What the banks do in one cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    pub grant: u32,
    pub row: Vec<u32>,
    pub we: Vec<bool>,
    pub be: Vec<u8>,
    pub wdata: Vec<u32>,
}

/// `n` default signals (ports of a `Vec`).
fn v<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}

fn bank_of(banks: usize, a: u32) -> usize {
    (a >> 2) as usize & (banks - 1)
}

fn row_of(banks: usize, a: u32) -> u32 {
    a >> (2 + banks.trailing_zeros())
}

/// The reference arbitration (see the module doc).
pub fn route(banks: usize, active: u32, mode: u64, size: u32, addr: &[u32], wdata: &[u32], anew: u64) -> Route {
    route_with(banks, active, mode, size, addr, wdata, anew, false)
}

/// [`route`], or with the planted bug `SmemBroadcastRow` ([`crate::plant`]).
#[allow(clippy::too_many_arguments)]
fn route_with(banks: usize, active: u32, mode: u64, size: u32, addr: &[u32], wdata: &[u32], anew: u64, planted: bool) -> Route {
    let mut r = Route { grant: 0, row: vec![0; banks], we: vec![false; banks], be: vec![0; banks], wdata: vec![0; banks] };
    let mut lanes = (0..addr.len()).filter(|&l| active >> l & 1 == 1);
    if mode == mode::ATOMIC {
        if let Some(l) = lanes.next() {
            r.grant = 1 << l;
            let words = if size == 3 { 2 } else { 1 };
            for k in 0..words {
                let a = addr[l].wrapping_add(4 * k);
                let b = bank_of(banks, a);
                r.row[b] = row_of(banks, a);
                r.we[b] = true;
                r.be[b] = 0xF;
                r.wdata[b] = (anew >> (32 * k)) as u32;
            }
        }
        return r;
    }
    let mut taken = vec![false; banks];
    for l in lanes {
        let (b, row) = (bank_of(banks, addr[l]), row_of(banks, addr[l]));
        if !taken[b] {
            taken[b] = true;
            r.row[b] = row;
            r.grant |= 1 << l;
            if mode == mode::STORE {
                let off = addr[l] & 3;
                r.we[b] = true;
                r.be[b] = (((1u32 << (1 << size.min(2))) - 1) << off) as u8;
                r.wdata[b] = wdata[l] << (8 * off);
            }
        } else if mode == mode::LOAD && (r.row[b] == row || planted) {
            r.grant |= 1 << l;
        }
    }
    r
}

/// The reference read side: each lane's bytes of `rdata` (per bank), and the
/// atomic lane's old value.
pub fn read(banks: usize, active: u32, size: u32, addr: &[u32], rdata: &[u32]) -> (Vec<u32>, u64) {
    let keep = if size >= 2 { u32::MAX } else { (1u32 << (8 << size)) - 1 };
    let rword = addr.iter().map(|&a| (rdata[bank_of(banks, a)] >> (8 * (a & 3))) & keep).collect();
    let aold = (0..addr.len()).find(|&l| active >> l & 1 == 1).map_or(0, |l| {
        let lo = rdata[bank_of(banks, addr[l])] as u64;
        if size == 3 {
            lo | (rdata[bank_of(banks, addr[l].wrapping_add(4))] as u64) << 32
        } else {
            lo
        }
    });
    (rword, aold)
}

impl BankXbar {
    pub fn new(lanes: usize, banks: usize) -> BankXbar {
        assert!(lanes <= 32 && banks.is_power_of_two() && (2..=32).contains(&banks), "{lanes} lanes, {banks} banks");
        BankXbar {
            _ran: Gate::default(),
            active: Default::default(),
            mode: Default::default(),
            size: Default::default(),
            addr: v(lanes),
            wdata: v(lanes),
            anew: Default::default(),
            rdata: v(banks),
            grant: Default::default(),
            row: v(banks),
            we: v(banks),
            be: v(banks),
            bwdata: v(banks),
            rword: v(lanes),
            aold: Default::default(),
            _plant: crate::plant::is(crate::plant::Plant::SmemBroadcastRow),
        }
    }
}

impl Logic for BankXbar {
    fn update(&mut self) {
        let inputs = self.active.changed
            || self.mode.changed
            || self.size.changed
            || self.anew.changed
            || self.addr.iter().chain(&self.wdata).chain(&self.rdata).any(|s| s.changed);
        if !inputs {
            return;
        }
        let banks = self.rdata.len();
        let addr: Vec<u32> = self.addr.iter().map(|a| a.val().to_u32()).collect();
        let wdata: Vec<u32> = self.wdata.iter().map(|a| a.val().to_u32()).collect();
        let rdata: Vec<u32> = self.rdata.iter().map(|a| a.val().to_u32()).collect();
        let (active, size) = (self.active.val().to_u32(), self.size.val().to_u32());
        let r = route_with(banks, active, self.mode.val().to_u64(), size, &addr, &wdata, self.anew.val().to_u64(), self._plant);
        self.grant.next = (r.grant as u64).into();
        for b in 0..banks {
            self.row[b].next = (r.row[b] as u64).into();
            self.we[b].next = r.we[b];
            self.be[b].next = (r.be[b] as u64).into();
            self.bwdata[b].next = (r.wdata[b] as u64).into();
        }
        let (rword, aold) = read(banks, active, size, &addr, &rdata);
        for (s, w) in self.rword.iter_mut().zip(rword) {
            s.next = (w as u64).into();
        }
        self.aold.next = aold.into();
    }

    fn connect(&mut self) {
        self.grant.connect();
        self.aold.connect();
        for s in &mut self.row {
            s.connect();
        }
        for s in &mut self.we {
            s.connect();
        }
        for s in &mut self.be {
            s.connect();
        }
        for s in &mut self.bwdata {
            s.connect();
        }
        for s in &mut self.rword {
            s.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let (lanes, banks) = (self.addr.len(), self.rdata.len());
        let lb = banks.trailing_zeros() + 2;
        let mut s = format!(
            "wire [31:0] a [0:{l1}];\nwire [31:0] wd [0:{l1}];\nwire [31:0] rd [0:{b1}];\n\
             reg [15:0] row_r [0:{b1}];\nreg we_r [0:{b1}];\nreg [3:0] be_r [0:{b1}];\nreg [31:0] bw_r [0:{b1}];\n\
             reg [31:0] rw_r [0:{l1}];\n",
            l1 = lanes - 1,
            b1 = banks - 1
        );
        for l in 0..lanes {
            s += &format!("assign a[{l}] = addr${l};\nassign wd[{l}] = wdata${l};\n");
        }
        for b in 0..banks {
            s += &format!("assign rd[{b}] = rdata${b};\n");
        }
        s += &format!(
            "\
integer l, b, k;
reg [31:0] taken;
reg found;
reg [31:0] ak;
reg [4:0] bk;
always @(*) begin
    grant = 32'd0;
    taken = 32'd0;
    found = 1'b0;
    ak = 32'd0;
    bk = 5'd0;
    k = 0;
    for (b = 0; b < {banks}; b = b + 1) begin
        row_r[b] = 16'd0; we_r[b] = 1'b0; be_r[b] = 4'd0; bw_r[b] = 32'd0;
    end
    for (l = 0; l < {lanes}; l = l + 1) begin
        if (active[l]) begin
            if (mode == 2'd{atomic}) begin
                if (!found) begin
                    found = 1'b1;
                    grant[l] = 1'b1;
                    for (k = 0; k < 2; k = k + 1) begin
                        if (k == 0 || size == 2'd3) begin
                            ak = a[l] + 32'd4 * k;
                            bk = ak[6:2] & 5'd{bmask};
                            row_r[bk] = ak[{lb} +: 16];
                            we_r[bk] = 1'b1;
                            be_r[bk] = 4'hf;
                            bw_r[bk] = (k == 0) ? anew[31:0] : anew[63:32];
                        end
                    end
                end
            end else begin
                bk = a[l][6:2] & 5'd{bmask};
                if (!taken[bk]) begin
                    taken[bk] = 1'b1;
                    row_r[bk] = a[l][{lb} +: 16];
                    grant[l] = 1'b1;
                    if (mode == 2'd{store}) begin
                        we_r[bk] = 1'b1;
                        be_r[bk] = (size == 2'd0 ? 4'h1 : size == 2'd1 ? 4'h3 : 4'hf) << a[l][1:0];
                        bw_r[bk] = wd[l] << (8 * a[l][1:0]);
                    end
                end else if (mode == 2'd{load} && row_r[bk] == a[l][{lb} +: 16]) begin
                    grant[l] = 1'b1;
                end
            end
        end
    end
end
integer m;
reg [4:0] rb;
reg found_r;
always @(*) begin
    aold = 64'd0;
    found_r = 1'b0;
    rb = 5'd0;
    for (m = 0; m < {lanes}; m = m + 1) begin
        rb = a[m][6:2] & 5'd{bmask};
        rw_r[m] = (rd[rb] >> (8 * a[m][1:0])) & (size == 2'd0 ? 32'hff : size == 2'd1 ? 32'hffff : 32'hffffffff);
        if (active[m] && !found_r) begin
            found_r = 1'b1;
            aold[31:0] = rd[rb];
            if (size == 2'd3) aold[63:32] = rd[(rb + 5'd1) & 5'd{bmask}];
        end
    end
end
",
            atomic = mode::ATOMIC,
            store = mode::STORE,
            load = mode::LOAD,
            bmask = banks - 1,
        );
        s += "always @(*) begin\n";
        for b in 0..banks {
            s += &format!("    row${b} = row_r[{b}];\n    we${b} = we_r[{b}];\n    be${b} = be_r[{b}];\n    bwdata${b} = bw_r[{b}];\n");
        }
        for l in 0..lanes {
            s += &format!("    rword${l} = rw_r[{l}];\n");
        }
        s += "end";
        Verilog::Custom(s)
    }
}

/// The shared memory: banks, crossbar, the pending lanes of the current
/// pass, the atomic unit and the clear sequencer (see the module doc).
#[derive(LogicBlock)]
pub struct SharedMem {
    pub clock: Signal<In, Clock>,
    /// A pass starts this cycle; its lanes are `mask`. Until `left` falls,
    /// the lanes not yet served are served in the following cycles.
    pub start: Signal<In, Bit>,
    pub mask: Signal<In, Bits<32>>,
    pub mode: Signal<In, Bits<2>>,
    /// As [`BankXbar::size`].
    pub size: Signal<In, Bits<2>>,
    /// The `AtomOp` code.
    pub atom_op: Signal<In, Bits<4>>,
    /// Per lane: byte offset, store data, atomic operands b and c.
    pub addr: Vec<Signal<In, Bits<32>>>,
    pub wdata: Vec<Signal<In, Bits<32>>>,
    pub b: Vec<Signal<In, Bits<64>>>,
    pub c: Vec<Signal<In, Bits<64>>>,
    /// Zero rows `clear_from`..`clear_from + clear_rows` of every bank (a
    /// CTA slot's window), starting next cycle.
    pub clear: Signal<In, Bit>,
    pub clear_from: Signal<In, Bits<16>>,
    pub clear_rows: Signal<In, Bits<16>>,
    /// Lanes served this cycle, each lane's loaded bytes, and the atomic
    /// lane's old and new values.
    pub grant: Signal<Out, Bits<32>>,
    pub rword: Vec<Signal<Out, Bits<64>>>,
    pub aold: Signal<Out, Bits<64>>,
    pub anew: Signal<Out, Bits<64>>,
    /// Lanes of the pass remain after this cycle.
    pub left: Signal<Out, Bit>,
    pub clearing: Signal<Out, Bit>,
    xbar: BankXbar,
    atom: AtomAlu,
    banks: Vec<BankRam>,
    pend: Reg<Bits<32>>,
    clr: Reg<Bits<16>>,
    clr_end: Reg<Bits<16>>,
    act: Signal<Local, Bits<32>>,
    found: Signal<Local, Bit>,
    ab: Signal<Local, Bits<64>>,
    ac: Signal<Local, Bits<64>>,
    _lanes: usize,
    _banks: usize,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl SharedMem {
    /// `lanes` lanes onto `banks` banks of `bytes / (4 * banks)` rows;
    /// floating-point atomics only with `fadd` (see [`AtomAlu::new`]).
    pub fn new(lanes: usize, banks: usize, bytes: usize, fadd: bool) -> SharedMem {
        SharedMem {
            _ran: Gate::default(),
            clock: Default::default(),
            start: Default::default(),
            mask: Default::default(),
            mode: Default::default(),
            size: Default::default(),
            atom_op: Default::default(),
            addr: v(lanes),
            wdata: v(lanes),
            b: v(lanes),
            c: v(lanes),
            clear: Default::default(),
            clear_from: Default::default(),
            clear_rows: Default::default(),
            grant: Default::default(),
            rword: v(lanes),
            aold: Default::default(),
            anew: Default::default(),
            left: Default::default(),
            clearing: Default::default(),
            xbar: BankXbar::new(lanes, banks),
            atom: AtomAlu::new(fadd),
            banks: (0..banks).map(|_| BankRam::new((bytes / (4 * banks)).max(1))).collect(),
            pend: Default::default(),
            clr: Default::default(),
            clr_end: Default::default(),
            act: Default::default(),
            found: Default::default(),
            ab: Default::default(),
            ac: Default::default(),
            _lanes: lanes,
            _banks: banks,
        }
    }

    /// Backdoor read of byte `at` (test benches; the host side of system calls).
    pub fn peek_byte(&self, at: usize) -> u8 {
        let (w, banks) = (at / 4, self.banks.len());
        (self.banks[w % banks].peek(w / banks) >> (8 * (at % 4))) as u8
    }
}

impl Logic for SharedMem {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, pend, clr, clr_end);
        self.act.next = self.pend.q.val();
        if self.start.val() {
            self.act.next = self.mask.val();
        }
        self.xbar.active.next = self.act.val();
        self.xbar.mode.next = self.mode.val();
        self.xbar.size.next = self.size.val();
        self.grant.next = self.xbar.grant.val();
        self.pend.d.next = self.act.val() & !self.xbar.grant.val();
        self.left.next = (self.act.val() & !self.xbar.grant.val()) != 0;
        // The atomic lane (the lowest active one): its operands, 32 or 64 bits.
        self.found.next = false;
        self.ab.next = 0.into();
        self.ac.next = 0.into();
        for l in 0..self._lanes {
            self.xbar.addr[l].next = self.addr[l].val();
            self.xbar.wdata[l].next = self.wdata[l].val();
            self.rword[l].next = self.xbar.rword[l].val();
            if (self.mode.val() == 2) & self.act.val().get_bit(l) & !self.found.val() {
                self.found.next = true;
                self.ab.next = self.b[l].val();
                self.ac.next = self.c[l].val();
            }
        }
        // The atomic unit, on the atomic lane.
        self.atom.en.next = self.mode.val() == 2;
        self.atom.op.next = self.atom_op.val();
        self.atom.wide.next = self.size.val() == 3;
        self.atom.old.next = self.xbar.aold.val();
        self.atom.b.next = self.ab.val();
        self.atom.c.next = self.ac.val();
        self.xbar.anew.next = self.atom.value.val();
        self.aold.next = self.xbar.aold.val();
        self.anew.next = self.atom.value.val();
        // Banks: the crossbar's port, or the clear sequencer's zeroes.
        self.clearing.next = self.clr.q.val() != self.clr_end.q.val();
        if self.clearing.val() {
            self.clr.d.next = self.clr.q.val() + 1;
        }
        if self.clear.val() {
            self.clr.d.next = self.clear_from.val();
            self.clr_end.d.next = self.clear_from.val() + self.clear_rows.val();
        }
        for b in 0..self._banks {
            self.banks[b].clock.next = self.clock.val();
            self.banks[b].addr.next = self.xbar.row[b].val();
            self.banks[b].we.next = self.xbar.we[b].val();
            self.banks[b].be.next = self.xbar.be[b].val();
            self.banks[b].wdata.next = self.xbar.bwdata[b].val();
            self.xbar.rdata[b].next = self.banks[b].rdata.val();
            if self.clearing.val() {
                self.banks[b].addr.next = self.clr.q.val();
                self.banks[b].we.next = true;
                self.banks[b].be.next = 15.into();
                self.banks[b].wdata.next = 0.into();
            }
        }
    }
}
