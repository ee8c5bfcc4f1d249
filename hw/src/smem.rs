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
//! conflicts (`waited`). An atomic pass serves one lane per two cycles,
//! lowest first: its old value (one word, or two from adjacent banks) is
//! read in the first, the new value ([`heddle_isa::scalar::int::atomic`]'s
//! semantics, in [`AtomAlu`]; an `f32`/`f64` add on an FP unit outside,
//! through `fa`, `fb` and `fsum`) is written back in the second.
//!
//! The banks are block RAM: a bank reads at the row it was given at the
//! last clock edge. So a load's lanes get their words ([`BankRead`]) in the
//! cycle after the crossbar served them, and a load pass takes one cycle
//! more than its conflicts. `grant` names the lanes whose access completes
//! in this cycle: a load's with its word on `rword`, an atomic's with its
//! old and new values, a store's as it writes. The SM holds a pass's
//! addresses until `left` falls.
//!
//! A pass starts in one of two ways. `start` takes `mask` and `addr`,
//! which the SM gives from its registers; a pipelined load's pass may
//! instead start from this cycle's logic, with `pstart`, `pmask` and
//! `paddr` (the SM then holds the same addresses on `addr` from the next
//! cycle). `left` and `grant` depend on the first kind and on registers
//! only: not on the crossbar, nor on a `pstart` (a pass started by
//! `pstart` is left while it has lanes pending). A store's pass is left
//! while two of its lanes still wait on one bank (the crossbar serves one
//! lane per bank), an atomic's while it has a lane after the one it
//! writes now.
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

/// The crossbar between lanes and banks, its address side: which lanes one
/// cycle serves and what each bank does for them (see the module doc); the
/// data comes back through [`BankRead`] in the next cycle. A custom block
/// (its per-bank arbitration is a loop that accumulates, which `#[hdl_gen]`
/// cannot express): a Rust model and a generated Verilog body written out
/// per lane and bank, held equal under Verilator by `hw/tests/smem.rs`.
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
    /// Lanes served this cycle.
    pub grant: Signal<Out, Bits<32>>,
    /// Per bank: the row read and written, write enable, byte enables, data.
    pub row: Vec<Signal<Out, Bits<ADDR_BITS>>>,
    pub we: Vec<Signal<Out, Bit>>,
    pub be: Vec<Signal<Out, Bits<4>>>,
    pub bwdata: Vec<Signal<Out, Bits<32>>>,
    /// The planted bug `SmemBroadcastRow` ([`crate::plant`]; the simulation model only).
    _plant: bool,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

/// The crossbar's data side: each lane's bytes of the word its bank read
/// out (the banks read at the rows [`BankXbar`] gave them in the cycle
/// before, while the lanes' addresses stay), and the atomic lane's old
/// value. A custom block, as [`BankXbar`].
#[derive(LogicBlock)]
pub struct BankRead {
    pub active: Signal<In, Bits<32>>,
    /// As [`BankXbar::size`].
    pub size: Signal<In, Bits<2>>,
    pub addr: Vec<Signal<In, Bits<32>>>,
    /// Per bank: the word read out.
    pub rdata: Vec<Signal<In, Bits<32>>>,
    /// Per lane: its bytes of its bank's word, right-aligned, zero-extended.
    pub rword: Vec<Signal<Out, Bits<32>>>,
    /// The atomic lane's (lowest active lane's) old value: two words, from
    /// its bank and the next, when `size` is 3.
    pub aold: Signal<Out, Bits<64>>,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
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

fn check_shape(lanes: usize, banks: usize) {
    assert!(lanes <= 32 && banks.is_power_of_two() && (2..=32).contains(&banks), "{lanes} lanes, {banks} banks");
}

impl BankRead {
    pub fn new(lanes: usize, banks: usize) -> BankRead {
        check_shape(lanes, banks);
        BankRead {
            _ran: Gate::default(),
            active: Default::default(),
            size: Default::default(),
            addr: v(lanes),
            rdata: v(banks),
            rword: v(lanes),
            aold: Default::default(),
        }
    }
}

impl BankXbar {
    pub fn new(lanes: usize, banks: usize) -> BankXbar {
        check_shape(lanes, banks);
        BankXbar {
            _ran: Gate::default(),
            active: Default::default(),
            mode: Default::default(),
            size: Default::default(),
            addr: v(lanes),
            wdata: v(lanes),
            anew: Default::default(),
            grant: Default::default(),
            row: v(banks),
            we: v(banks),
            be: v(banks),
            bwdata: v(banks),
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
            || self.addr.iter().chain(&self.wdata).any(|s| s.changed);
        if !inputs {
            return;
        }
        let banks = self.row.len();
        let addr: Vec<u32> = self.addr.iter().map(|a| a.val().to_u32()).collect();
        let wdata: Vec<u32> = self.wdata.iter().map(|a| a.val().to_u32()).collect();
        let (active, size) = (self.active.val().to_u32(), self.size.val().to_u32());
        let r = route_with(banks, active, self.mode.val().to_u64(), size, &addr, &wdata, self.anew.val().to_u64(), self._plant);
        self.grant.next = (r.grant as u64).into();
        for b in 0..banks {
            self.row[b].next = (r.row[b] as u64).into();
            self.we[b].next = r.we[b];
            self.be[b].next = (r.be[b] as u64).into();
            self.bwdata[b].next = (r.wdata[b] as u64).into();
        }
    }

    fn connect(&mut self) {
        self.grant.connect();
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
    }

    /// Explicit structure, written out per lane and per bank (no loops or
    /// variable indices in the Verilog): each lane's bank and row; which lane
    /// owns each bank (the first active lane on it); each bank's row, write
    /// enable, byte enables and data, an AND-OR of its owner's; each lane's
    /// grant. tests/fpga.rs proves it and [`BankRead`] together equal to the
    /// loop form they replaced (`tests/fpga/xbar_reference.v`).
    fn hdl(&self) -> Verilog {
        use std::fmt::Write as _;
        let (lanes, banks) = (self.addr.len(), self.row.len());
        let (bits, lb) = (bank_bits(banks), banks.trailing_zeros() + 2);
        let mut s = lane_wires(lanes, banks);
        let w = &mut s;
        writeln!(
            w,
            "wire is_atomic = mode == 2'd{};\nwire is_store = mode == 2'd{};\nwire is_load = mode == 2'd{};",
            mode::ATOMIC,
            mode::STORE,
            mode::LOAD
        )
        .unwrap();
        writeln!(w, "wire [3:0] size_be = size == 2'd0 ? 4'h1 : size == 2'd1 ? 4'h3 : 4'hf;").unwrap();
        for l in 0..lanes {
            writeln!(w, "wire [15:0] row{l} = addr${l}[{lb} +: 16];").unwrap();
        }
        // Per bank: which lane owns it in a load or store (the first active lane on it).
        for b in 0..banks {
            for l in 0..lanes {
                writeln!(w, "wire hit{l}_{b} = active[{l}] & (bank{l} == {bits}'d{b});").unwrap();
                let earlier: Vec<String> = (0..l).map(|e| format!("hit{e}_{b}")).collect();
                let own = if earlier.is_empty() { format!("hit{l}_{b}") } else { format!("hit{l}_{b} & ~({})", earlier.join(" | ")) };
                writeln!(w, "wire own{l}_{b} = {own};").unwrap();
            }
        }
        // The atomic's words: the first active lane's address and the next word.
        writeln!(w, "wire [31:0] at_a = {};\nwire [31:0] at_b = at_a + 32'd4;", first_of(lanes, &|l| format!("addr${l}"), 32)).unwrap();
        for b in 0..banks {
            let at = |x: &str| if banks == 1 { "1'b1".to_string() } else { format!("at_{x}[2 +: {bits}] == {bits}'d{b}") };
            writeln!(w, "wire at_a{b} = any_lane & {};\nwire at_b{b} = any_lane & (size == 2'd3) & {};", at("a"), at("b")).unwrap();
            let owned = |f: &dyn Fn(usize) -> String, width: usize| {
                any_of((0..lanes).map(|l| format!("({{{width}{{own{l}_{b}}}}} & {})", f(l))).collect(), &format!("{width}'d0"))
            };
            writeln!(w, "wire owned{b} = {};", any_of((0..lanes).map(|l| format!("own{l}_{b}")).collect(), "1'b0")).unwrap();
            writeln!(w, "wire [15:0] ls_row{b} = {};", owned(&|l| format!("row{l}"), 16)).unwrap();
            writeln!(w, "wire [3:0] ls_be{b} = {};", owned(&|l| format!("(size_be << addr${l}[1:0])"), 4)).unwrap();
            writeln!(w, "wire [31:0] ls_data{b} = {};", owned(&|l| format!("(wdata${l} << {{addr${l}[1:0], 3'd0}})"), 32)).unwrap();
            writeln!(
                w,
                "wire [15:0] row_r{b} = is_atomic ? (at_b{b} ? at_b[{lb} +: 16] : at_a{b} ? at_a[{lb} +: 16] : 16'd0) : ls_row{b};\n\
                 wire we_r{b} = is_atomic ? (at_a{b} | at_b{b}) : (is_store & owned{b});\n\
                 wire [3:0] be_r{b} = is_atomic ? ((at_a{b} | at_b{b}) ? 4'hf : 4'h0) : (is_store ? ls_be{b} : 4'h0);\n\
                 wire [31:0] bw_r{b} = is_atomic ? (at_b{b} ? anew[63:32] : at_a{b} ? anew[31:0] : 32'd0) : (is_store ? ls_data{b} : 32'd0);"
            )
            .unwrap();
        }
        // Per lane: its bank's row (a multiplexer on the bank number), its grant.
        writeln!(w, "wire [15:0] rows [0:{}];", banks - 1).unwrap();
        for b in 0..banks {
            writeln!(w, "assign rows[{b}] = row_r{b};").unwrap();
        }
        for l in 0..lanes {
            writeln!(w, "wire [15:0] bank_row{l} = rows[bank{l}];").unwrap();
            let own = any_of((0..banks).map(|b| format!("own{l}_{b}")).collect(), "1'b0");
            writeln!(w, "wire granted{l} = is_atomic ? first{l} : ({own}) | (is_load & active[{l}] & (bank_row{l} == row{l}));").unwrap();
        }
        s += "always @(*) begin\n    grant = 32'd0;\n";
        for l in 0..lanes {
            s += &format!("    grant[{l}] = granted{l};\n");
        }
        for b in 0..banks {
            s += &format!("    row${b} = row_r{b};\n    we${b} = we_r{b};\n    be${b} = be_r{b};\n    bwdata${b} = bw_r{b};\n");
        }
        s += "end";
        Verilog::Custom(s)
    }
}

/// Bits of a bank number (at least one).
fn bank_bits(banks: usize) -> usize {
    banks.trailing_zeros().max(1) as usize
}

fn any_of(terms: Vec<String>, zero: &str) -> String {
    if terms.is_empty() {
        zero.to_string()
    } else {
        terms.join(" | ")
    }
}

/// An AND-OR picking `f(l)` of the first active lane (`first{l}`).
fn first_of(lanes: usize, f: &dyn Fn(usize) -> String, width: usize) -> String {
    any_of((0..lanes).map(|l| format!("({{{width}{{first{l}}}}} & {})", f(l))).collect(), &format!("{width}'d0"))
}

/// The wires both halves of the crossbar start from: each lane's bank,
/// whether it is the first active lane, and whether any lane is.
fn lane_wires(lanes: usize, banks: usize) -> String {
    use std::fmt::Write as _;
    let bits = bank_bits(banks);
    let mut s = String::new();
    for l in 0..lanes {
        let bank = if banks == 1 { format!("{bits}'d0") } else { format!("addr${l}[2 +: {bits}]") };
        let first = if l == 0 { "active[0]".to_string() } else { format!("active[{l}] & ~|active[{}:0]", l - 1) };
        writeln!(s, "wire [{}:0] bank{l} = {bank};\nwire first{l} = {first};", bits - 1).unwrap();
    }
    writeln!(s, "wire any_lane = |active[{}:0];", lanes - 1).unwrap();
    s
}

impl Logic for BankRead {
    fn update(&mut self) {
        let inputs = self.active.changed || self.size.changed || self.addr.iter().chain(&self.rdata).any(|s| s.changed);
        if !inputs {
            return;
        }
        let addr: Vec<u32> = self.addr.iter().map(|a| a.val().to_u32()).collect();
        let rdata: Vec<u32> = self.rdata.iter().map(|a| a.val().to_u32()).collect();
        let (rword, aold) = read(rdata.len(), self.active.val().to_u32(), self.size.val().to_u32(), &addr, &rdata);
        for (s, w) in self.rword.iter_mut().zip(rword) {
            s.next = (w as u64).into();
        }
        self.aold.next = aold.into();
    }

    fn connect(&mut self) {
        self.aold.connect();
        for s in &mut self.rword {
            s.connect();
        }
    }

    /// Explicit structure, as [`BankXbar`]'s: each lane's word (a
    /// multiplexer on its bank number), shifted to its bytes; the atomic
    /// lane's words from its bank and the next.
    fn hdl(&self) -> Verilog {
        use std::fmt::Write as _;
        let (lanes, banks) = (self.addr.len(), self.rdata.len());
        let bits = bank_bits(banks);
        let mut s = lane_wires(lanes, banks);
        let w = &mut s;
        writeln!(w, "wire [31:0] size_mask = size == 2'd0 ? 32'hff : size == 2'd1 ? 32'hffff : 32'hffffffff;").unwrap();
        writeln!(w, "wire [31:0] words [0:{}];", banks - 1).unwrap();
        for b in 0..banks {
            writeln!(w, "assign words[{b}] = rdata${b};").unwrap();
        }
        for l in 0..lanes {
            writeln!(w, "wire [31:0] bank_word{l} = words[bank{l}];").unwrap();
        }
        writeln!(w, "wire [{}:0] at_bank = {};", bits - 1, first_of(lanes, &|l| format!("bank{l}"), bits)).unwrap();
        // The next bank, wrapping (one bank: the same one).
        let next = if banks == 1 { "1'd0".to_string() } else { format!("at_bank + {bits}'d1") };
        writeln!(w, "wire [{}:0] at_next = {next};", bits - 1).unwrap();
        writeln!(w, "wire [31:0] old_lo = words[at_bank];\nwire [31:0] old_hi = words[at_next];").unwrap();
        s += "always @(*) begin\n";
        for l in 0..lanes {
            s += &format!("    rword${l} = (bank_word{l} >> {{addr${l}[1:0], 3'd0}}) & size_mask;\n");
        }
        s += "    aold = any_lane ? {(size == 2'd3) ? old_hi : 32'd0, old_lo} : 64'd0;\nend";
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
    /// A load pass starts this cycle from `pmask` and `paddr` instead (see
    /// the module doc).
    pub pstart: Signal<In, Bit>,
    pub pmask: Signal<In, Bits<32>>,
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
    /// Per lane: byte offset for `pstart`.
    pub paddr: Vec<Signal<In, Bits<32>>>,
    /// Zero rows `clear_from`..`clear_from + clear_rows` of every bank (a
    /// CTA slot's window), starting next cycle.
    pub clear: Signal<In, Bit>,
    pub clear_from: Signal<In, Bits<16>>,
    pub clear_rows: Signal<In, Bits<16>>,
    /// Lanes whose access completes this cycle, each lane's loaded bytes,
    /// and the atomic lane's old and new values.
    pub grant: Signal<Out, Bits<32>>,
    pub rword: Vec<Signal<Out, Bits<32>>>,
    pub aold: Signal<Out, Bits<64>>,
    pub anew: Signal<Out, Bits<64>>,
    /// An atomic FP add's operands (`fadd` high in the cycle it is written,
    /// binary64 with `fwide`, else binary32 `.rn.ftz`) and their sum, from
    /// an FP unit outside (see [`AtomAlu`]).
    pub fadd: Signal<Out, Bit>,
    pub fwide: Signal<Out, Bit>,
    pub fa: Signal<Out, Bits<64>>,
    pub fb: Signal<Out, Bits<64>>,
    pub fsum: Signal<In, Bits<64>>,
    /// Lanes of the pass remain after this cycle (see the module doc).
    pub left: Signal<Out, Bit>,
    /// A load or store lane waited this cycle for a bank another lane held.
    pub waited: Signal<Out, Bit>,
    pub clearing: Signal<Out, Bit>,
    xbar: BankXbar,
    rd: BankRead,
    atom: AtomAlu,
    banks: Vec<BankRam>,
    /// Lanes not yet served.
    pend: Reg<Bits<32>>,
    /// Load lanes served in the last cycle: their words are read out now.
    rq: Reg<Bits<32>>,
    /// An atomic's old value was read in the last cycle: it is written now.
    aph: Reg<Bit>,
    clr: Reg<Bits<16>>,
    clr_end: Reg<Bits<16>>,
    act: Signal<Local, Bits<32>>,
    /// `act` but for a `pstart`'s lanes: what `left` looks at.
    act_r: Signal<Local, Bits<32>>,
    /// Store: banks taken by a lower lane of `act_r`, a second lane on one,
    /// and the lanes first on theirs.
    taken: Signal<Local, Bits<32>>,
    clash: Signal<Local, Bit>,
    sgrant: Signal<Local, Bits<32>>,
    lane_bit: Vec<Constant<Bits<32>>>,
    /// Lanes the crossbar serves this cycle (none in an atomic's read cycle).
    served: Signal<Local, Bits<32>>,
    found: Signal<Local, Bit>,
    ab: Signal<Local, Bits<64>>,
    ac: Signal<Local, Bits<64>>,
    /// The `mode` codes.
    load: Constant<Bits<2>>,
    store: Constant<Bits<2>>,
    atomic: Constant<Bits<2>>,
    /// A lane's bank: `(addr >> 2) & bank_mask`, as a bit of `taken`.
    bank_mask: Constant<Bits<32>>,
    one: Constant<Bits<32>>,
    bank_bit: Signal<Local, Bits<32>>,
    _lanes: usize,
    _banks: usize,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl SharedMem {
    /// `lanes` lanes onto `banks` banks of `bytes / (4 * banks)` rows; FP
    /// atomic adds only with `fadd` (see [`AtomAlu::new`]).
    pub fn new(lanes: usize, banks: usize, bytes: usize, fadd: bool) -> SharedMem {
        SharedMem {
            _ran: Gate::default(),
            clock: Default::default(),
            start: Default::default(),
            mask: Default::default(),
            pstart: Default::default(),
            pmask: Default::default(),
            mode: Default::default(),
            size: Default::default(),
            atom_op: Default::default(),
            addr: v(lanes),
            wdata: v(lanes),
            b: v(lanes),
            c: v(lanes),
            paddr: v(lanes),
            clear: Default::default(),
            clear_from: Default::default(),
            clear_rows: Default::default(),
            grant: Default::default(),
            rword: v(lanes),
            aold: Default::default(),
            anew: Default::default(),
            fadd: Default::default(),
            fwide: Default::default(),
            fa: Default::default(),
            fb: Default::default(),
            fsum: Default::default(),
            left: Default::default(),
            waited: Default::default(),
            clearing: Default::default(),
            xbar: BankXbar::new(lanes, banks),
            rd: BankRead::new(lanes, banks),
            atom: AtomAlu::new(fadd),
            banks: (0..banks).map(|_| BankRam::new((bytes / (4 * banks)).max(1))).collect(),
            pend: Default::default(),
            rq: Default::default(),
            aph: Default::default(),
            clr: Default::default(),
            clr_end: Default::default(),
            act: Default::default(),
            act_r: Default::default(),
            taken: Default::default(),
            clash: Default::default(),
            sgrant: Default::default(),
            lane_bit: (0..lanes).map(|l| Constant::new((1u64 << l).into())).collect(),
            served: Default::default(),
            found: Default::default(),
            ab: Default::default(),
            ac: Default::default(),
            load: Constant::new(mode::LOAD.into()),
            store: Constant::new(mode::STORE.into()),
            atomic: Constant::new(mode::ATOMIC.into()),
            bank_mask: Constant::new((banks as u64 - 1).into()),
            one: Constant::new(1.into()),
            bank_bit: Default::default(),
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
        dff_setup!(self, clock, pend, rq, aph, clr, clr_end);
        self.act_r.next = self.pend.q.val();
        if self.start.val() {
            self.act_r.next = self.mask.val();
        }
        self.act.next = self.act_r.val();
        if self.pstart.val() {
            self.act.next = self.pmask.val();
        }
        self.xbar.active.next = self.act.val();
        self.xbar.mode.next = self.mode.val();
        self.xbar.size.next = self.size.val();
        self.rd.active.next = self.act.val();
        self.rd.size.next = self.size.val();
        // Loads complete a cycle after they are served, atomics in their
        // second cycle, stores at once.
        self.served.next = self.xbar.grant.val();
        self.rq.d.next = 0.into();
        self.aph.d.next = false;
        if self.mode.val() == self.load.val() {
            self.rq.d.next = self.xbar.grant.val();
        }
        if self.mode.val() == self.atomic.val() {
            self.aph.d.next = (self.act.val() != 0) & !self.aph.q.val();
            if !self.aph.q.val() {
                self.served.next = 0.into();
            }
        }
        self.pend.d.next = self.act.val() & !self.served.val();
        self.waited.next = (self.mode.val() != self.atomic.val()) & ((self.act.val() & !self.xbar.grant.val()) != 0);
        // The atomic lane (the lowest active one): its operands, 32 or 64 bits.
        self.found.next = false;
        self.ab.next = 0.into();
        self.ac.next = 0.into();
        self.taken.next = 0.into();
        self.clash.next = false;
        self.sgrant.next = 0.into();
        for l in 0..self._lanes {
            self.bank_bit.next = self.one.val() << ((self.addr[l].val() >> 2) & self.bank_mask.val());
            if self.act_r.val().get_bit(l) {
                if (self.taken.val() & self.bank_bit.val()) == 0 {
                    self.sgrant.next = self.sgrant.val() | self.lane_bit[l].val();
                }
                self.clash.next = self.clash.val() | ((self.taken.val() & self.bank_bit.val()) != 0);
                self.taken.next = self.taken.val() | self.bank_bit.val();
            }
            self.xbar.addr[l].next = self.addr[l].val();
            if self.pstart.val() {
                self.xbar.addr[l].next = self.paddr[l].val();
            }
            self.xbar.wdata[l].next = self.wdata[l].val();
            self.rd.addr[l].next = self.addr[l].val();
            self.rword[l].next = self.rd.rword[l].val();
            if (self.mode.val() == self.atomic.val()) & self.act.val().get_bit(l) & !self.found.val() {
                self.found.next = true;
                self.ab.next = self.b[l].val();
                self.ac.next = self.c[l].val();
            }
        }
        // `left` from `act_r` (the module doc). A load's granted lanes are
        // left too (their words come in the next cycle): it is left while
        // it has active lanes; an atomic writes its lowest lane in its
        // second cycle; a store serves one lane per bank.
        self.left.next = self.act_r.val() != 0;
        if (self.mode.val() == self.atomic.val()) & self.aph.q.val() {
            self.left.next = (self.act_r.val() & (self.act_r.val() - 1)) != 0;
        }
        if self.mode.val() == self.store.val() {
            self.left.next = self.clash.val();
        }
        // `grant` from `act_r` too, as the crossbar serves: a load's lanes
        // a cycle after it served them, an atomic's lowest lane in its
        // second cycle, a store's lanes each first on its bank.
        self.grant.next = self.sgrant.val();
        if self.mode.val() == self.load.val() {
            self.grant.next = self.rq.q.val();
        }
        if self.mode.val() == self.atomic.val() {
            self.grant.next = 0.into();
            if self.aph.q.val() {
                self.grant.next = self.act_r.val() & !(self.act_r.val() - 1);
            }
        }
        // The atomic unit, on the atomic lane.
        self.atom.en.next = self.mode.val() == self.atomic.val();
        self.atom.op.next = self.atom_op.val();
        self.atom.wide.next = self.size.val() == 3;
        self.atom.old.next = self.rd.aold.val();
        self.atom.b.next = self.ab.val();
        self.atom.c.next = self.ac.val();
        self.atom.fsum.next = self.fsum.val();
        self.fadd.next = self.atom.fadd.val() & self.aph.q.val();
        self.fwide.next = self.size.val() == 3;
        self.fa.next = self.atom.fa.val();
        self.fb.next = self.atom.fb.val();
        self.xbar.anew.next = self.atom.value.val();
        self.aold.next = self.rd.aold.val();
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
            self.banks[b].we.next = self.xbar.we[b].val() & !((self.mode.val() == self.atomic.val()) & !self.aph.q.val());
            self.banks[b].be.next = self.xbar.be[b].val();
            self.banks[b].wdata.next = self.xbar.bwdata[b].val();
            self.rd.rdata[b].next = self.banks[b].rdata.val();
            if self.clearing.val() {
                self.banks[b].addr.next = self.clr.q.val();
                self.banks[b].we.next = true;
                self.banks[b].be.next = 15.into();
                self.banks[b].wdata.next = 0.into();
            }
        }
    }
}
