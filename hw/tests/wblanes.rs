//! `WbLanes`, the bus word's byte steering: its model against a property
//! written apart (lanes written into a word read back their own data, the
//! highest lane winning where they overlap), and its Verilog against the
//! model under Verilator, for 4 lanes on a 32-bit word, 8 on 64 and 256
//! bits, and 32 on 128 bits, with every access size and part.

use heddle_hw::cosim::{run_verilator, settle, Port};
use heddle_hw::verilog::{lint, verilog_of};
use heddle_hw::wblanes::{model, Transfer, WbLanes};
use rust_hdl::prelude::*;

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

#[test]
fn lanes_steer_into_and_out_of_the_bus_word_in_model_and_verilog() {
    let mut rng = fastrand::Rng::with_seed(11);
    for (lanes, words) in [(4usize, 1usize), (8, 2), (8, 8), (32, 4)] {
        let w = 4 * words as u32;
        let mask = if lanes == 32 { u32::MAX } else { (1u32 << lanes) - 1 };
        let mut vectors: Vec<Vec<u128>> = vec![];
        for _ in 0..4000 {
            let size = [1u32, 2, 4, 8, 16][rng.usize(..5)];
            let parts = (size / w).max(1);
            let base = rng.u32(..1 << 20) * 64;
            let addr: Vec<u32> =
                (0..lanes).map(|_| if size <= w { base + rng.u32(..w / size) * size } else { base + rng.u32(..4) * size }).collect();
            // Reads at the write addresses, or (as the SM's answers to an
            // earlier beat) at others of the same size.
            let raddr: Vec<u32> = if rng.bool() {
                addr.clone()
            } else {
                (0..lanes).map(|_| if size <= w { base + rng.u32(..w / size) * size } else { base + rng.u32(..4) * size }).collect()
            };
            let wdata: Vec<u128> = (0..lanes).map(|_| rng.u128(..)).collect();
            let dat_i: Vec<u8> = (0..w).map(|_| rng.u8(..)).collect();
            let (wrun, rrun) =
                if size > w { (1 << rng.usize(..lanes), 1 << rng.usize(..lanes)) } else { (rng.u32(..) & mask, rng.u32(..) & mask) };
            let (wpart, rpart) = (rng.u32(..parts), rng.u32(..parts));
            let t = Transfer { wrun, wpart, rrun, rpart, size, addr: &addr, raddr: &raddr, wdata: &wdata, dat_i: &dat_i };
            let (dat, sel, _) = model(&t);
            // Read back what was written: each written lane finds its own
            // data unless a higher written lane overlaps it.
            let back = model(&Transfer { rrun: wrun, rpart: wpart, raddr: &addr, dat_i: &dat, ..t });
            for l in (0..lanes).filter(|&l| wrun >> l & 1 == 1) {
                let over = (l + 1..lanes).any(|h| wrun >> h & 1 == 1 && addr[h] == addr[l]);
                let chunk = size.min(w);
                let keep = u128::MAX >> (128 - 8 * chunk);
                let shift = if size > w { 8 * w * wpart } else { 0 };
                if !over {
                    assert_eq!(back.2[l], (wdata[l] >> shift & keep) << shift, "lane {l} size {size} part {wpart}");
                }
                for k in 0..chunk {
                    let o = if size > w { k } else { (addr[l] & (w - 1)) + k };
                    assert_eq!(sel >> o & 1, 1);
                }
            }
            let mut v = vec![wrun as u128, wpart as u128, rrun as u128, rpart as u128, size as u128];
            v.extend(addr.iter().map(|&a| a as u128));
            v.extend(raddr.iter().map(|&a| a as u128));
            v.extend(wdata.iter().map(|&d| d as u64 as u128));
            v.extend(wdata.iter().map(|&d| d >> 64));
            v.extend(dat_i.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap()) as u128));
            vectors.push(v);
        }
        let mut b = WbLanes::new(lanes, words);
        b.connect_all();
        let verilog = verilog_of(&b);
        lint("wblanes", &verilog).unwrap();
        let mut inputs: Vec<Port> = vec![("wrun", 32), ("wpart", 3), ("rrun", 32), ("rpart", 3), ("size", 5)];
        inputs.extend((0..lanes).map(|l| (leak(format!("addr${l}")), 32)));
        inputs.extend((0..lanes).map(|l| (leak(format!("raddr${l}")), 32)));
        inputs.extend((0..lanes).map(|l| (leak(format!("wlo${l}")), 64)));
        inputs.extend((0..lanes).map(|l| (leak(format!("whi${l}")), 64)));
        inputs.extend((0..words).map(|i| (leak(format!("dat_i${i}")), 32)));
        let mut outputs: Vec<Port> = (0..words).map(|i| (leak(format!("dat_o${i}")), 32)).collect();
        outputs.push(("sel", 32));
        outputs.extend((0..lanes).flat_map(|l| [(leak(format!("rlo${l}")), 64), (leak(format!("rhi${l}")), 64)]));
        let hw = run_verilator(&format!("wblanes{lanes}x{words}"), &verilog, &inputs, &outputs, false, &vectors).unwrap();
        for (i, (v, h)) in vectors.iter().zip(&hw).enumerate() {
            let addr: Vec<u32> = v[5..5 + lanes].iter().map(|&a| a as u32).collect();
            let raddr: Vec<u32> = v[5 + lanes..5 + 2 * lanes].iter().map(|&a| a as u32).collect();
            let wdata: Vec<u128> = (0..lanes).map(|l| v[5 + 2 * lanes + l] | v[5 + 3 * lanes + l] << 64).collect();
            let dat_i: Vec<u8> = v[5 + 4 * lanes..].iter().flat_map(|&d| (d as u32).to_le_bytes()).collect();
            let t = Transfer {
                wrun: v[0] as u32,
                wpart: v[1] as u32,
                rrun: v[2] as u32,
                rpart: v[3] as u32,
                size: v[4] as u32,
                addr: &addr,
                raddr: &raddr,
                wdata: &wdata,
                dat_i: &dat_i,
            };
            let (dat, sel, rd) = model(&t);
            let mut want: Vec<u128> = dat.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap()) as u128).collect();
            want.push(sel as u128);
            want.extend(rd.iter().flat_map(|&r| [r as u64 as u128, r >> 64]));
            assert_eq!(&want, h, "vector {i}");
            if i % 97 == 0 {
                b.wrun.next = (t.wrun as u64).into();
                b.wpart.next = (t.wpart as u64).into();
                b.rrun.next = (t.rrun as u64).into();
                b.rpart.next = (t.rpart as u64).into();
                b.size.next = (t.size as u64).into();
                for l in 0..lanes {
                    b.addr[l].next = (addr[l] as u64).into();
                    b.raddr[l].next = (raddr[l] as u64).into();
                    b.wlo[l].next = (wdata[l] as u64).into();
                    b.whi[l].next = ((wdata[l] >> 64) as u64).into();
                }
                for (k, c) in dat_i.chunks(4).enumerate() {
                    b.dat_i[k].next = (u32::from_le_bytes(c.try_into().unwrap()) as u64).into();
                }
                assert!(settle(&mut b));
                let got: Vec<u128> = b
                    .dat_o
                    .iter()
                    .map(|d| d.val().to_u32() as u128)
                    .chain([b.sel.val().to_u32() as u128])
                    .chain(b.rlo.iter().zip(&b.rhi).flat_map(|(lo, hi)| [lo.val().to_u64() as u128, hi.val().to_u64() as u128]))
                    .collect();
                assert_eq!(got, want, "vector {i} under rust-hdl");
            }
        }
    }
}
