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
//!   of `dat_i`, zero-extended, into `rlo`, `rhi`; other lanes read 0.
//! - **An access wider than the word** (a lane is then alone in its
//!   transfers): transfer `part` carries bytes `part * word` onwards of
//!   the lane's data, and the read side places the word there.
//!
//! A custom block (per-lane byte steering is a loop with variable part
//! selects, which `hdl_gen` cannot express): a Rust model and a
//! hand-written Verilog body, held equal under Verilator by
//! `hw/tests/wblanes.rs`.

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
                lane[k] = t.dat_i[o + k];
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
            || self.addr.iter().chain(&self.dat_i).any(|s| s.changed)
            || self.wlo.iter().chain(&self.whi).any(|s| s.changed);
        if !inputs {
            return;
        }
        let addr: Vec<u32> = self.addr.iter().map(|a| a.val().to_u32()).collect();
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

    fn hdl(&self) -> Verilog {
        let (lanes, words) = (self.addr.len(), self.dat_i.len());
        let (w, l1) = (4 * words, lanes - 1);
        let mut s = format!("wire [127:0] ld [0:{l1}];\nwire [31:0] la [0:{l1}];\nreg [127:0] rd [0:{l1}];\n");
        for l in 0..lanes {
            s += &format!("assign ld[{l}] = {{whi${l}, wlo${l}}};\nassign la[{l}] = addr${l};\n");
        }
        let cat: Vec<String> = (0..words).rev().map(|i| format!("dat_i${i}")).collect();
        s += &format!("wire [{}:0] di = {{{}}};\nreg [{}:0] dw;\n", 8 * w - 1, cat.join(", "), 8 * w - 1);
        s += &format!(
            "\
integer l, k, o;
always @(*) begin
    dw = 0;
    sel = 32'd0;
    o = 0;
    for (l = 0; l < {lanes}; l = l + 1) begin
        rd[l] = 128'd0;
        if (size <= {w}) begin
            o = la[l] & {wm};
            for (k = 0; k < 16; k = k + 1) begin
                if (k < size && o + k < {w}) begin
                    if (wrun[l]) begin
                        dw[(o + k) * 8 +: 8] = ld[l][k * 8 +: 8];
                        sel[o + k] = 1'b1;
                    end
                    if (rrun[l]) rd[l][k * 8 +: 8] = di[(o + k) * 8 +: 8];
                end
            end
        end else begin
            for (k = 0; k < {w}; k = k + 1) begin
                if (wrun[l] && wpart * {w} + k < 16) begin
                    dw[k * 8 +: 8] = ld[l][(wpart * {w} + k) * 8 +: 8];
                    sel[k] = 1'b1;
                end
                if (rrun[l] && rpart * {w} + k < 16) rd[l][(rpart * {w} + k) * 8 +: 8] = di[k * 8 +: 8];
            end
        end
    end
end
always @(*) begin
",
            wm = w - 1,
        );
        for i in 0..words {
            s += &format!("    dat_o${i} = dw[{} +: 32];\n", 32 * i);
        }
        for l in 0..lanes {
            s += &format!("    rlo${l} = rd[{l}][63:0];\n    rhi${l} = rd[{l}][127:64];\n");
        }
        s += "end";
        Verilog::Custom(crate::plant::patch(crate::plant::Plant::WbSelUnshifted, s, "sel[o + k] = 1'b1;", "sel[k] = 1'b1;"))
    }
}
