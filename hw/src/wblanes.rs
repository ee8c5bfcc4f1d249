//! `WbLanes`: lane data to and from one Wishbone data word.
//!
//! The SM's bus master moves a transfer's lanes (see
//! [`crate::coalesce`]) in one bus word of `4 * words` bytes. Every lane
//! accesses `size` bytes at `addr[l]`, naturally aligned.
//!
//! - **Write side** (`wrun`, `wpart`): each lane in `wrun` puts its store
//!   data (`wlo`, `whi`: bytes 0-7 and 8-15) at its byte offset in the word
//!   and sets those bits of `sel`. Where lanes store to the same bytes, the
//!   highest lane's data is on the bus: the golden model stores in lane
//!   order, so that lane's store is the one that stays.
//! - **Read side** (`rrun`, `rpart`): each lane in `rrun` takes its bytes
//!   of `dat_i` at its read address `raddr` (the SM's `addr`, or for an
//!   answer to an earlier beat than the one it issues, that beat's),
//!   zero-extended, into `rlo`, `rhi`; other lanes read 0.
//! - **An access wider than the word** (a lane is then alone in its
//!   transfers): transfer `part` carries bytes `part * word` onwards of
//!   the lane's data, and the read side places the word there.
//!
//! A custom block (per-lane byte steering, which `hdl_gen` cannot
//! express): a Rust model and a generated Verilog body, held equal under
//! Verilator by `hw/tests/wblanes.rs`.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct WbLanes {
    pub wrun: Signal<In, Bits<32>>,
    pub wpart: Signal<In, Bits<3>>,
    pub rrun: Signal<In, Bits<32>>,
    pub rpart: Signal<In, Bits<3>>,
    /// Bytes per lane access: 1, 2, 4, 8 or 16.
    pub size: Signal<In, Bits<5>>,
    pub addr: Vec<Signal<In, Bits<32>>>,
    /// The read side's addresses.
    pub raddr: Vec<Signal<In, Bits<32>>>,
    pub wlo: Vec<Signal<In, Bits<64>>>,
    pub whi: Vec<Signal<In, Bits<64>>>,
    pub dat_i: Vec<Signal<In, Bits<32>>>,
    pub dat_o: Vec<Signal<Out, Bits<32>>>,
    pub sel: Signal<Out, Bits<32>>,
    pub rlo: Vec<Signal<Out, Bits<64>>>,
    pub rhi: Vec<Signal<Out, Bits<64>>>,
    /// Gated evaluation (the vendored `LogicBlock` derive): the logic has run.
    _ran: Gate,
}

impl WbLanes {
    /// For `lanes` lanes (at most 32) and a bus word of `words` 32-bit words (1, 2, 4 or 8).
    pub fn new(lanes: usize, words: usize) -> WbLanes {
        assert!(lanes <= 32 && [1, 2, 4, 8].contains(&words));
        WbLanes {
            _ran: Gate::default(),
            wrun: Default::default(),
            wpart: Default::default(),
            rrun: Default::default(),
            rpart: Default::default(),
            size: Default::default(),
            addr: (0..lanes).map(|_| Default::default()).collect(),
            raddr: (0..lanes).map(|_| Default::default()).collect(),
            wlo: (0..lanes).map(|_| Default::default()).collect(),
            whi: (0..lanes).map(|_| Default::default()).collect(),
            dat_i: (0..words).map(|_| Default::default()).collect(),
            dat_o: (0..words).map(|_| Default::default()).collect(),
            sel: Default::default(),
            rlo: (0..lanes).map(|_| Default::default()).collect(),
            rhi: (0..lanes).map(|_| Default::default()).collect(),
        }
    }
}

/// One transfer's lanes, as the block sees them.
pub struct Transfer<'a> {
    pub wrun: u32,
    pub wpart: u32,
    pub rrun: u32,
    pub rpart: u32,
    pub size: u32,
    pub addr: &'a [u32],
    /// The read side's addresses.
    pub raddr: &'a [u32],
    pub wdata: &'a [u128],
    /// The word read, little-endian (`4 * words` bytes).
    pub dat_i: &'a [u8],
}

/// The reference semantics: the word written (`dat_o` bytes), `sel`, and
/// each lane's read data.
pub fn model(t: &Transfer) -> (Vec<u8>, u32, Vec<u128>) {
    let w = t.dat_i.len();
    let size = t.size as usize;
    let mut dat = vec![0u8; w];
    let mut sel = 0u32;
    let mut rd = vec![0u128; t.addr.len()];
    for (l, r) in rd.iter_mut().enumerate() {
        let bytes = t.wdata[l].to_le_bytes();
        let mut lane = [0u8; 16];
        if size <= w {
            let o = t.addr[l] as usize & (w - 1);
            for k in 0..size.min(w - o) {
                if t.wrun >> l & 1 == 1 {
                    dat[o + k] = bytes[k];
                    sel |= 1 << (o + k);
                }
            }
            let ro = t.raddr[l] as usize & (w - 1);
            for k in 0..size.min(w - ro) {
                lane[k] = t.dat_i[ro + k];
            }
        } else {
            let (wp, rp) = (t.wpart as usize * w, t.rpart as usize * w);
            for k in 0..w {
                if t.wrun >> l & 1 == 1 && wp + k < 16 {
                    dat[k] = bytes[wp + k];
                    sel |= 1 << k;
                }
                if rp + k < 16 {
                    lane[rp + k] = t.dat_i[k];
                }
            }
        }
        if t.rrun >> l & 1 == 1 {
            *r = u128::from_le_bytes(lane);
        }
    }
    (dat, sel, rd)
}

impl Logic for WbLanes {
    fn update(&mut self) {
        let inputs = self.wrun.changed
            || self.wpart.changed
            || self.rrun.changed
            || self.rpart.changed
            || self.size.changed
            || self.addr.iter().chain(&self.raddr).chain(&self.dat_i).any(|s| s.changed)
            || self.wlo.iter().chain(&self.whi).any(|s| s.changed);
        if !inputs {
            return;
        }
        let addr: Vec<u32> = self.addr.iter().map(|a| a.val().to_u32()).collect();
        let raddr: Vec<u32> = self.raddr.iter().map(|a| a.val().to_u32()).collect();
        let wdata: Vec<u128> =
            self.wlo.iter().zip(&self.whi).map(|(lo, hi)| lo.val().to_u64() as u128 | (hi.val().to_u64() as u128) << 64).collect();
        let dat_i: Vec<u8> = self.dat_i.iter().flat_map(|d| d.val().to_u32().to_le_bytes()).collect();
        let t = Transfer {
            wrun: self.wrun.val().to_u32(),
            wpart: self.wpart.val().to_u32(),
            rrun: self.rrun.val().to_u32(),
            rpart: self.rpart.val().to_u32(),
            size: self.size.val().to_u32(),
            addr: &addr,
            raddr: &raddr,
            wdata: &wdata,
            dat_i: &dat_i,
        };
        let (dat, sel, rd) = model(&t);
        for (s, c) in self.dat_o.iter_mut().zip(dat.chunks(4)) {
            s.next = (u32::from_le_bytes(c.try_into().unwrap_or_default()) as u64).into();
        }
        self.sel.next = (sel as u64).into();
        for (l, r) in rd.into_iter().enumerate() {
            self.rlo[l].next = (r as u64).into();
            self.rhi[l].next = ((r >> 64) as u64).into();
        }
    }

    fn connect(&mut self) {
        self.sel.connect();
        for s in &mut self.dat_o {
            s.connect();
        }
        for s in self.rlo.iter_mut().chain(&mut self.rhi) {
            s.connect();
        }
    }

    /// Written out per lane and byte (explicit structure, no loops over
    /// variable part-selects), using what the SM guarantees: a lane's
    /// address is aligned to its size, and the size is 1, 2, 4, 8 or 16.
    /// - Write side: the lane's data repeated every `size` bytes (byte `b`
    ///   of the word is data byte `b mod size`), which needs no shifter; its
    ///   byte mask shifted to its offset; per byte of the word a priority
    ///   multiplexer, the highest writing lane first.
    /// - Read side: byte `j` of the lane's data is byte `r | j` of the word
    ///   (`r`, the offset of its read address, has zeros below the size): a multiplexer on the
    ///   offset's bits above `j`'s, so 32 word bytes can be byte 0, 2 byte
    ///   8.
    /// - A wide access (more bytes than the word) moves the part's bytes.
    /// `tests/fpga.rs` proves it equal, for aligned addresses and the five
    /// sizes, to the loop form it replaced, with a SAT miter.
    fn hdl(&self) -> Verilog {
        use std::fmt::Write as _;
        let (lanes, words) = (self.addr.len(), self.dat_i.len());
        let w = 4 * words; // bytes in the bus word
        let ob = w.trailing_zeros() as usize; // bits of a byte offset in it
        let wide = w < 16; // accesses wider than the word exist
        let mut s = String::new();
        let v = &mut s;
        let byte = |x: &str, k: usize| format!("{x}[{}:{}]", 8 * k + 7, 8 * k);
        let cat: Vec<String> = (0..words).rev().map(|i| format!("dat_i${i}")).collect();
        writeln!(v, "wire [{}:0] di = {{{}}};", 8 * w - 1, cat.join(", ")).unwrap();
        writeln!(v, "wire narrow = {{1'b0, size}} <= 6'd{w};").unwrap();
        // Bit k: byte k of a lane's access exists (k < size, k < 16).
        writeln!(v, "wire [31:0] kmask = ((32'd1 << size) - 32'd1) & 32'hffff;").unwrap();
        // A wide access's part: bit k, byte part * w + k of the lane's data exists.
        writeln!(v, "wire [31:0] wmask = 32'hffff >> {{wpart, {ob}'d0}};").unwrap();
        // The byte enable a narrow store sets: its bytes at its offset.
        writeln!(
            v,
            "function [{}:0] at_offset(input [{}:0] m, input [{}:0] o);\n    at_offset = m << o;\nendfunction",
            w - 1,
            w - 1,
            ob - 1
        )
        .unwrap();
        // A multiplexer tree: `leaves[i]` where `i` is the value of `sel`
        // (most significant bit first).
        fn tree(sel: &[String], leaves: &[String]) -> String {
            match sel.split_first() {
                None => leaves[0].clone(),
                Some((top, rest)) => {
                    let half = leaves.len() / 2;
                    format!("({top} ? {} : {})", tree(rest, &leaves[half..]), tree(rest, &leaves[..half]))
                }
            }
        }
        let n = w.min(16); // distinct bytes of a narrow lane's repeated data
        for l in 0..lanes {
            writeln!(v, "wire [{}:0] o{l} = addr${l}[{}:0];", ob - 1, ob - 1).unwrap();
            writeln!(v, "wire [{}:0] r{l} = raddr${l}[{}:0];", ob - 1, ob - 1).unwrap();
            writeln!(v, "wire [127:0] ld{l} = {{whi${l}, wlo${l}}};").unwrap();
            // Write side: the data repeated every size bytes (a narrow store),
            // or the part's bytes (a wide one).
            for b in 0..n {
                let rep = format!(
                    "size[4] ? {} : size[3] ? {} : size[2] ? {} : size[1] ? {} : {}",
                    byte(&format!("ld{l}"), b & 15),
                    byte(&format!("ld{l}"), b & 7),
                    byte(&format!("ld{l}"), b & 3),
                    byte(&format!("ld{l}"), b & 1),
                    byte(&format!("ld{l}"), 0)
                );
                writeln!(v, "wire [7:0] rep{l}_{b} = {rep};").unwrap();
            }
            for b in 0..w {
                let narrow = format!("rep{l}_{}", b % 16);
                let text = if wide {
                    let parts: Vec<String> = (0..16 / w).map(|k| byte(&format!("ld{l}"), k * w + b)).collect();
                    let sel: Vec<String> = (0..(16 / w).trailing_zeros()).rev().map(|i| format!("wpart[{i}]")).collect();
                    format!("narrow ? {narrow} : {}", tree(&sel, &parts))
                } else {
                    narrow
                };
                writeln!(v, "wire [7:0] wd{l}_{b} = {text};").unwrap();
            }
            writeln!(
                v,
                "wire [{w1}:0] hit{l} = {{{w}{{wrun[{l}]}}}} & (narrow ? (kmask[{w1}:0] << o{l}) : wmask[{w1}:0]);\n\
                 wire [{w1}:0] en{l} = {{{w}{{wrun[{l}]}}}} & (narrow ? at_offset(kmask[{w1}:0], o{l}) : wmask[{w1}:0]);",
                w1 = w - 1
            )
            .unwrap();
            // Read side: byte j of the lane is word byte r | j (narrow: j < size
            // <= w, and r's bits below j's top bit are zero), or the word's byte
            // j - part * w (wide).
            let mut rb = vec![];
            for j in (0..16).rev() {
                let narrow = if j < w {
                    let t = (usize::BITS - j.leading_zeros()) as usize;
                    let sel: Vec<String> = (t..ob).rev().map(|i| format!("r{l}[{i}]")).collect();
                    let leaves: Vec<String> = (0..1usize << (ob - t)).map(|x| byte("di", x << t | j)).collect();
                    format!("(kmask[{j}] ? {} : 8'd0)", tree(&sel, &leaves))
                } else {
                    "8'd0".to_string()
                };
                let text =
                    if wide { format!("(narrow ? {narrow} : (rpart == 3'd{} ? {} : 8'd0))", j / w, byte("di", j % w)) } else { narrow };
                rb.push(text);
            }
            writeln!(v, "wire [127:0] rd{l} = {{128{{rrun[{l}]}}}} & {{{}}};", rb.join(",\n    ")).unwrap();
        }
        // Per byte of the word: the highest lane writing it.
        for j in 0..w {
            let mut e = "8'd0".to_string();
            for l in 0..lanes {
                e = format!("hit{l}[{j}] ? wd{l}_{j} : {e}");
            }
            writeln!(v, "wire [7:0] dw{j} = {e};").unwrap();
        }
        let en: Vec<String> = (0..lanes).map(|l| format!("en{l}")).collect();
        let dw: Vec<String> = (0..w).rev().map(|j| format!("dw{j}")).collect();
        writeln!(v, "wire [{}:0] dw = {{{}}};", 8 * w - 1, dw.join(", ")).unwrap();
        writeln!(v, "always @(*) begin\n    sel = 32'd0;\n    sel[{}:0] = {};", w - 1, en.join(" | ")).unwrap();
        for i in 0..words {
            writeln!(v, "    dat_o${i} = dw[{} +: 32];", 32 * i).unwrap();
        }
        for l in 0..lanes {
            writeln!(v, "    rlo${l} = rd{l}[63:0];\n    rhi${l} = rd{l}[127:64];").unwrap();
        }
        s += "end";
        Verilog::Custom(crate::plant::patch(crate::plant::Plant::WbSelUnshifted, s, "at_offset = m << o;", "at_offset = m;"))
    }
}
