//! The SM's memories, all read synchronously, as FPGA block RAM reads:
//! `SyncRam`, one read port and one write port; `BankRam`, a shared-memory
//! bank, one port written with byte enables.
//!
//! rust-hdl's own `RAM` keeps its contents in a `BTreeMap` and reads
//! synchronously; this one is a `Vec` (fast to simulate) with a hand-written
//! Verilog body, checked under Verilator with the blocks around it
//! (`hw/tests/smem.rs`; the whole SM in lockstep, `tests/verilator.rs`).

use rust_hdl::prelude::*;

/// Address width of every memory port (the depth is set at construction).
pub const ADDR_BITS: usize = 16;

/// The Verilog condition that `addr` is a word of a memory of `depth`
/// words: always true (written `1'b1`, which lints clean) when the memory
/// fills the address space.
fn within(addr: &str, depth: usize) -> String {
    if depth >= 1 << ADDR_BITS {
        "1'b1".into()
    } else {
        format!("({addr} <= {})", depth - 1)
    }
}

/// `SyncRam`: a memory with one synchronous read port and one synchronous
/// write port. The read address is taken at the rising clock edge and the
/// word at that address is read out until the next edge, written data
/// included (a write at the same edge shows at once: the Verilog is the
/// registered-address form that yosys maps to block RAM: DP16KD on ECP5,
/// `SB_RAM40_4K` on iCE40, checked by `heddle synth` in `tests/fpga.rs`).
/// The read-address register has no initial value: yosys refuses block RAM
/// for an address register with one ("address FF has fully-defined init
/// value"). The register files use it, with their read addresses computed
/// a cycle ahead.
///
/// Its `Block` is written by hand: it acts only at a rising edge, taking
/// the inputs its parent assigned last (they are never committed; the VCD
/// traces `next`), and in every other settle pass it only clears the read
/// data's change flag.
#[derive(Clone, Debug)]
pub struct SyncRam<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub raddr: Signal<In, Bits<ADDR_BITS>>,
    pub rdata: Signal<Out, Bits<W>>,
    pub waddr: Signal<In, Bits<ADDR_BITS>>,
    pub wdata: Signal<In, Bits<W>>,
    pub we: Signal<In, Bit>,
    mem: Vec<Bits<W>>,
    /// The bits of a word it stores ([`SyncRam::keep`]): the others read as 0.
    _bits: usize,
    keep_mask: Bits<W>,
}

impl<const W: usize> SyncRam<W> {
    pub fn new(depth: usize) -> SyncRam<W> {
        assert!((1..=1 << ADDR_BITS).contains(&depth), "SyncRam depth {depth} out of range");
        SyncRam {
            clock: Default::default(),
            raddr: Default::default(),
            rdata: Default::default(),
            waddr: Default::default(),
            wdata: Default::default(),
            we: Default::default(),
            mem: vec![Bits::default(); depth],
            _bits: W,
            keep_mask: !Bits::<W>::default(),
        }
    }

    /// Stores only the low `bits` bits of each word (a mask of `warp_size`
    /// threads in a `Bits<64>` port): the memory is that wide, and the
    /// bits above read as 0.
    pub fn keep(self, bits: usize) -> SyncRam<W> {
        assert!((1..=W).contains(&bits), "SyncRam keeps {bits} of {W} bits");
        let keep_mask = (0..bits).fold(Bits::<W>::default(), |m, i| m.replace_bit(i, true));
        SyncRam { _bits: bits, keep_mask, ..self }
    }

    /// Backdoor read for test benches (not part of the hardware).
    pub fn peek(&self, addr: usize) -> Bits<W> {
        self.mem[addr]
    }
}

impl<const W: usize> Logic for SyncRam<W> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            if self.we.next {
                if let Some(slot) = self.mem.get_mut(self.waddr.next.index()) {
                    *slot = self.wdata.next & self.keep_mask;
                }
            }
            self.rdata.next = self.mem.get(self.raddr.next.index()).copied().unwrap_or_default();
        }
    }

    fn connect(&mut self) {
        self.rdata.connect();
    }

    fn hdl(&self) -> Verilog {
        let (word, high) = match W - self._bits {
            0 => ("wdata".to_string(), String::new()),
            n => (format!("wdata[{}:0]", self._bits - 1), format!("{n}'d0, ")),
        };
        Verilog::Custom(format!(
            "\
reg [{w}:0] mem [0:{last}];
reg [{a}:0] ra;
integer i;
initial begin
   for (i = 0; i <= {last}; i = i + 1) mem[i] = 0;
end
/* verilator lint_off UNUSEDSIGNAL */
wire [{w}:0] word = {word};
/* verilator lint_on UNUSEDSIGNAL */
always @(posedge clock) begin
   if (we && {win}) mem[waddr] <= word;
   ra <= raddr;
end
always @(*) rdata = {rin} ? {{{high}mem[ra]}} : {W}'d0;",
            w = self._bits - 1,
            a = ADDR_BITS - 1,
            last = self.mem.len() - 1,
            rin = within("ra", self.mem.len()),
            win = within("waddr", self.mem.len()),
        ))
    }
}

impl<const W: usize> Block for SyncRam<W> {
    block_ports!(clock, raddr, rdata, waddr, wdata, we);

    fn update_all(&mut self) {
        self.clock.update_all();
        if self.clock.pos_edge() {
            self.update();
            self.rdata.update_all();
        } else {
            // The read data changes only at an edge.
            self.rdata.changed = false;
        }
    }

    fn has_changed(&self) -> bool {
        self.rdata.changed
    }

    /// An edge that writes nothing and would read what the read data
    /// already shows (or a falling one), with its flag clear, is taken
    /// quietly (the parent leaves the memory alone).
    fn forward_clock(&mut self, clock: Clock) -> bool {
        let acts = self.rdata.changed
            || (self.clock.rises_to(clock)
                && (self.we.next || self.mem.get(self.raddr.next.index()).copied().unwrap_or_default() != self.rdata.val()));
        self.clock.forward(clock, acts)
    }

    fn wants_update(&self) -> bool {
        self.rdata.changed || self.clock.next != self.clock.val()
    }
}

/// `BankRam`: one shared-memory bank, 32-bit words with byte enables, one
/// read-write port, as an FPGA block RAM with byte-write enables is used:
/// the address is taken at the rising edge, which writes the bytes whose
/// `be` bit is set and reads the word at that address out until the next
/// edge (the word as written, when the edge writes it).
///
/// Its `Block` is written by hand: it acts only at a rising edge, taking
/// the inputs its parent assigned last (never committed; the VCD traces
/// `next`). A falling edge does nothing.
#[derive(Clone, Debug)]
pub struct BankRam {
    pub clock: Signal<In, Clock>,
    pub addr: Signal<In, Bits<ADDR_BITS>>,
    pub rdata: Signal<Out, Bits<32>>,
    pub wdata: Signal<In, Bits<32>>,
    pub we: Signal<In, Bit>,
    pub be: Signal<In, Bits<4>>,
    _mem: Vec<u32>,
}

impl BankRam {
    pub fn new(depth: usize) -> BankRam {
        assert!((1..=1 << ADDR_BITS).contains(&depth), "BankRam depth {depth} out of range");
        BankRam {
            clock: Default::default(),
            addr: Default::default(),
            rdata: Default::default(),
            wdata: Default::default(),
            we: Default::default(),
            be: Default::default(),
            _mem: vec![0; depth],
        }
    }

    /// Backdoor read for test benches and the host side of system calls.
    pub fn peek(&self, addr: usize) -> u32 {
        self._mem[addr]
    }

    /// The word a rising edge now would read out.
    fn read_next(&self) -> u32 {
        self._mem.get(self.addr.next.index()).copied().unwrap_or(0)
    }
}

impl Logic for BankRam {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let at = self.addr.next.index();
            if self.we.next {
                if let Some(slot) = self._mem.get_mut(at) {
                    let be = self.be.next.index();
                    let bytes: u32 = (0..4).filter(|i| be >> i & 1 == 1).map(|i| 0xFFu32 << (8 * i)).sum();
                    *slot = (*slot & !bytes) | (self.wdata.next.to_u32() & bytes);
                }
            }
            self.rdata.next = (self.read_next() as u64).into();
        }
    }

    fn connect(&mut self) {
        self.rdata.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "\
reg [31:0] mem [0:{last}];
reg [{a}:0] ra;
integer i;
initial begin
   for (i = 0; i <= {last}; i = i + 1) mem[i] = 0;
end
always @(posedge clock) begin
   if (we && {ain}) begin
      if (be[0]) mem[addr][7:0] <= wdata[7:0];
      if (be[1]) mem[addr][15:8] <= wdata[15:8];
      if (be[2]) mem[addr][23:16] <= wdata[23:16];
      if (be[3]) mem[addr][31:24] <= wdata[31:24];
   end
   ra <= addr;
end
always @(*) rdata = {rin} ? mem[ra] : 32'd0;",
            a = ADDR_BITS - 1,
            last = self._mem.len() - 1,
            ain = within("addr", self._mem.len()),
            rin = within("ra", self._mem.len()),
        ))
    }
}

impl Block for BankRam {
    block_ports!(clock, addr, rdata, wdata, we, be);

    fn update_all(&mut self) {
        self.clock.update_all();
        if self.clock.pos_edge() {
            self.update();
            self.rdata.update_all();
        } else {
            // The read data changes only at an edge.
            self.rdata.changed = false;
        }
    }

    fn has_changed(&self) -> bool {
        self.rdata.changed
    }

    /// An edge that writes nothing and would read what the read data
    /// already shows (or a falling one), with its flag clear, is taken
    /// quietly (the parent leaves the bank alone).
    fn forward_clock(&mut self, clock: Clock) -> bool {
        let acts =
            self.rdata.changed || (self.clock.rises_to(clock) && (self.we.next || self.read_next() as u64 != self.rdata.val().to_u64()));
        self.clock.forward(clock, acts)
    }

    fn wants_update(&self) -> bool {
        self.rdata.changed || self.clock.next != self.clock.val()
    }
}
