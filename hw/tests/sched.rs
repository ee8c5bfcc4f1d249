//! Test bench: the warp scheduler's round-robin picker against a reference
//! model (with and without a warp left out, at 64 and at 16 warps), and
//! its fairness (a warp that stays ready is picked within `warps` picks),
//! on random ready masks.

use heddle_hw::sched::WarpPick;
use rust_hdl::prelude::*;

/// The first ready warp after `last`, cyclically.
fn reference(ready: u64, last: u32) -> Option<u32> {
    (1..=64).map(|k| (last + k) % 64).find(|&w| ready >> w & 1 == 1)
}

#[test]
fn picks_the_next_ready_warp_after_the_last_one() {
    let mut rng = fastrand::Rng::with_seed(3);
    for warps in [64u32, 16, 5] {
        let mut uut = WarpPick::new(warps as usize);
        uut.connect_all();
        let all = if warps == 64 { !0 } else { (1u64 << warps) - 1 };
        for _ in 0..20_000 {
            let ready = all
                & match rng.u8(0..4) {
                    0 => 0,
                    1 => 1u64 << rng.u32(0..64),
                    2 => rng.u64(..) & rng.u64(..) & rng.u64(..),
                    _ => rng.u64(..),
                };
            let last = rng.u32(0..warps);
            let (skip, skip_on) = (rng.u32(0..warps), rng.bool());
            uut.ready.next = ready.into();
            uut.last.next = (last as u64).into();
            uut.skip.next = (skip as u64).into();
            uut.skip_on.next = skip_on;
            assert!(simulate(&mut uut, 100));
            // The prefetch's pick: as if `skip` were not ready.
            let seen = if skip_on { ready & !(1 << skip) } else { ready };
            assert_eq!(uut.any.val(), seen != 0);
            let want = reference(seen, last).unwrap_or((last + 1) % 64);
            assert_eq!(uut.pick.val().to_u32(), want, "warps {warps} ready {ready:#x} last {last} skip {skip} {skip_on}");
        }
    }
}

#[test]
fn no_warp_starves() {
    // 32 warp slots; warp 5 stays ready, the others come and go.
    let mut rng = fastrand::Rng::with_seed(4);
    let mut uut = WarpPick::default();
    uut.connect_all();
    let mut last = 0u32;
    let mut since = 0;
    for _ in 0..10_000 {
        let ready = (rng.u64(..) & 0xffff_ffff) | 1 << 5;
        uut.ready.next = ready.into();
        uut.last.next = (last as u64).into();
        assert!(simulate(&mut uut, 100));
        last = uut.pick.val().to_u32();
        assert!(ready >> last & 1 == 1, "picked a warp that is not ready");
        since = if last == 5 { 0 } else { since + 1 };
        assert!(since < 32, "warp 5 waited {since} picks");
    }
}

#[test]
fn verilog_lints_clean() {
    let mut uut = WarpPick::default();
    uut.connect_all();
    heddle_hw::verilog::lint("warp_pick", &heddle_hw::verilog::verilog_of(&uut)).unwrap();
}
