//! The coalescer: its model against a set-based reference (one transaction
//! per distinct aligned segment among the active lanes, led by the segment's
//! lowest lane) on unit-stride, strided, broadcast, scattered and
//! segment-edge address patterns with random lane masks, and its Verilog
//! against the model under Verilator, for 4, 8 and 32 lanes.

use heddle_hw::coalesce::{model, Coalescer, SEGMENT_BYTES};
use heddle_hw::cosim::{run_verilator, settle, Port};
use heddle_hw::verilog::{lint, verilog_of};
use rust_hdl::prelude::*;
use std::collections::BTreeMap;

fn pattern(rng: &mut fastrand::Rng, lanes: usize) -> Vec<u32> {
    let base = rng.u32(..1 << 20) << rng.u32(0..8);
    let size = [1u32, 2, 4, 8, 16][rng.usize(..5)];
    (0..lanes as u32)
        .map(|l| match rng.u8(0..6) {
            0 => base + l * size,                                                          // unit stride
            1 => base + l * size * rng.u32(1..9),                                          // strided
            2 => base,                                                                     // broadcast
            3 => (base & !(SEGMENT_BYTES - 1)) + SEGMENT_BYTES * (l % 3) - size * (l & 1), // around segment edges
            _ => rng.u32(..),                                                              // scattered
        })
        .collect()
}

fn reference(active: u32, addr: &[u32]) -> (u32, u32) {
    let mut first: BTreeMap<u32, usize> = BTreeMap::new();
    for (l, a) in addr.iter().enumerate() {
        if active >> l & 1 == 1 {
            first.entry(a / SEGMENT_BYTES).or_insert(l);
        }
    }
    (first.values().fold(0, |m, &l| m | 1 << l), first.len() as u32)
}

#[test]
fn coalescer_groups_lanes_by_segment_in_model_and_verilog() {
    let mut rng = fastrand::Rng::with_seed(5);
    for lanes in [4usize, 8, 32] {
        let mut vectors: Vec<Vec<u128>> = vec![];
        for i in 0..20_000 {
            let addr = pattern(&mut rng, lanes);
            let mask = if lanes == 32 { u32::MAX } else { (1 << lanes) - 1 };
            let active = match i % 4 {
                0 => mask,
                1 => 0,
                _ => rng.u32(..) & mask,
            };
            // A unit-stride 4-byte beat of 8 aligned lanes is one transaction.
            if lanes == 8 && active == mask && addr.windows(2).all(|w| w[1] == w[0] + 4) && addr[0] % SEGMENT_BYTES == 0 {
                assert_eq!(model(active, &addr).1, 1);
            }
            assert_eq!(model(active, &addr), reference(active, &addr), "{active:#x} {addr:x?}");
            let mut v = vec![active as u128];
            v.extend(addr.iter().map(|&a| a as u128));
            vectors.push(v);
        }
        let mut c = Coalescer::new(lanes);
        c.connect_all();
        let verilog = verilog_of(&c);
        lint("coalescer", &verilog).unwrap();
        let names: Vec<String> = (0..lanes).map(|l| format!("addr${l}")).collect();
        let mut inputs: Vec<Port> = vec![("active", 32)];
        inputs.extend(names.iter().map(|n| (&*Box::leak(n.clone().into_boxed_str()), 32)));
        let hw = run_verilator(&format!("coalescer{lanes}"), &verilog, &inputs, &[("leaders", 32), ("count", 8)], false, &vectors).unwrap();
        for (i, (v, h)) in vectors.iter().zip(&hw).enumerate() {
            let addr: Vec<u32> = v[1..].iter().map(|&a| a as u32).collect();
            let (leaders, count) = model(v[0] as u32, &addr);
            assert_eq!((leaders as u128, count as u128), (h[0], h[1]), "vector {i}: {v:x?}");
            if i % 101 == 0 {
                c.active.next = (v[0] as u64).into();
                for (l, &a) in addr.iter().enumerate() {
                    c.addr[l].next = (a as u64).into();
                }
                assert!(settle(&mut c));
                assert_eq!((c.leaders.val().to_u32(), c.count.val().to_u32()), (leaders, count));
            }
        }
    }
}
