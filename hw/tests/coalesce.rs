//! The coalescer: its model against a reference written apart (consecutive
//! active lanes share a transfer when their addresses lie in one aligned
//! bus word and neither is solo) on unit-stride, strided, broadcast,
//! scattered and word-edge address patterns with random lane and solo
//! masks, and its Verilog against the model under Verilator, for 4, 8 and
//! 32 lanes and bus words of 4 to 32 bytes.

use heddle_hw::coalesce::{model, Coalescer};
use heddle_hw::cosim::{run_verilator, settle, Port};
use heddle_hw::verilog::{lint, verilog_of};
use rust_hdl::prelude::*;

fn pattern(rng: &mut fastrand::Rng, lanes: usize, word: u32) -> Vec<u32> {
    let base = rng.u32(..1 << 20) << rng.u32(0..8);
    let size = [1u32, 2, 4, 8, 16][rng.usize(..5)];
    (0..lanes as u32)
        .map(|l| match rng.u8(0..6) {
            0 => base + l * size,                                        // unit stride
            1 => base + l * size * rng.u32(1..9),                        // strided
            2 => base,                                                   // broadcast
            3 => (base & !(word - 1)) + word * (l % 3) - size * (l & 1), // around word edges
            _ => rng.u32(..),                                            // scattered
        })
        .collect()
}

/// Transfers as lists of lanes, then their first lanes.
fn reference(active: u32, solo: u32, addr: &[u32], word: u32) -> (u32, u32) {
    let mut transfers: Vec<Vec<usize>> = vec![];
    for l in (0..addr.len()).filter(|l| active >> l & 1 == 1) {
        match transfers.last_mut() {
            Some(t) if solo >> l & 1 == 0 && solo >> t[0] & 1 == 0 && addr[t[0]] / word == addr[l] / word => t.push(l),
            _ => transfers.push(vec![l]),
        }
    }
    (transfers.iter().fold(0, |m, t| m | 1 << t[0]), transfers.len() as u32)
}

#[test]
fn coalescer_splits_lanes_into_transfers_in_model_and_verilog() {
    let mut rng = fastrand::Rng::with_seed(5);
    for (lanes, word) in [(4usize, 4u32), (8, 32), (8, 8), (32, 16)] {
        let log = word.trailing_zeros();
        let mut vectors: Vec<Vec<u128>> = vec![];
        for i in 0..20_000 {
            let addr = pattern(&mut rng, lanes, word);
            let mask = if lanes == 32 { u32::MAX } else { (1 << lanes) - 1 };
            let active = match i % 4 {
                0 => mask,
                1 => 0,
                _ => rng.u32(..) & mask,
            };
            let solo = match i % 5 {
                0 => mask,
                1 => rng.u32(..) & mask,
                _ => 0,
            };
            // A unit-stride 4-byte beat of 8 aligned lanes is one 32-byte transfer.
            if lanes == 8
                && word == 32
                && solo == 0
                && active == mask
                && addr.windows(2).all(|w| w[1] == w[0] + 4)
                && addr[0].is_multiple_of(word)
            {
                assert_eq!(model(active, solo, &addr, log).1, 1);
            }
            assert_eq!(model(active, solo, &addr, log), reference(active, solo, &addr, word), "{active:#x} {solo:#x} {addr:x?}");
            let mut v = vec![active as u128, solo as u128];
            v.extend(addr.iter().map(|&a| a as u128));
            vectors.push(v);
        }
        let mut c = Coalescer::new(lanes, word);
        c.connect_all();
        let verilog = verilog_of(&c);
        lint("coalescer", &verilog).unwrap();
        let names: Vec<String> = (0..lanes).map(|l| format!("addr${l}")).collect();
        let mut inputs: Vec<Port> = vec![("active", 32), ("solo", 32)];
        inputs.extend(names.iter().map(|n| (&*Box::leak(n.clone().into_boxed_str()), 32)));
        let name = format!("coalescer{lanes}x{word}");
        let hw = run_verilator(&name, &verilog, &inputs, &[("leaders", 32), ("count", 8)], false, &vectors).unwrap();
        for (i, (v, h)) in vectors.iter().zip(&hw).enumerate() {
            let addr: Vec<u32> = v[2..].iter().map(|&a| a as u32).collect();
            let (leaders, count) = model(v[0] as u32, v[1] as u32, &addr, log);
            assert_eq!((leaders as u128, count as u128), (h[0], h[1]), "vector {i}: {v:x?}");
            if i % 101 == 0 {
                c.active.next = (v[0] as u64).into();
                c.solo.next = (v[1] as u64).into();
                for (l, &a) in addr.iter().enumerate() {
                    c.addr[l].next = (a as u64).into();
                }
                assert!(settle(&mut c));
                assert_eq!((c.leaders.val().to_u32(), c.count.val().to_u32()), (leaders, count));
            }
        }
    }
}
