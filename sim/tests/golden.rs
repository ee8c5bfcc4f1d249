//! The golden model through its host API: launches, launch errors, traps as
//! results, determinism, retire records.

use heddle_hw::SmConfig;
use heddle_isa::asm::assemble;
use heddle_sim::device::Device;
use heddle_sim::launch::{Collect, Launch, LaunchError};
use heddle_sim::trap::{Space, TrapKind};

const SAXPY: &str = "
.kernel saxpy
    .param x 8
    .param y 8
    .param a 4
    .param n 4
    s2r r0, tid.x
    s2r r1, ctaid.x
    s2r r2, ntid.x
    mad.u r0, r1, r2, r0
    ld.param.b32 r3, [rz+20]
    isetp.hs p0, r0, r3
    @p0 exit
    shl r4, r0, 2
    ld.param.b32 r5, [rz]
    ld.param.b32 r6, [rz+8]
    add r5, r5, r4
    add r6, r6, r4
    ld.global.b32 r7, [r5]
    ld.global.b32 r8, [r6]
    ld.param.b32 r9, [rz+16]
    ffma r8, r9, r7, r8
    st.global.b32 [r6], r8
    exit
";

fn setup(n: u32) -> (Device, Launch, u64) {
    let obj = assemble("saxpy.hasm", SAXPY).unwrap();
    let mut dev = Device::new(SmConfig::default(), obj).unwrap();
    let x = dev.alloc(n * 4).unwrap();
    let y = dev.alloc(n * 4).unwrap();
    let xs: Vec<u8> = (0..n).flat_map(|i| (i as f32).to_le_bytes()).collect();
    let ys: Vec<u8> = (0..n).flat_map(|i| (1.0f32 + i as f32 * 0.5).to_le_bytes()).collect();
    dev.write(x, &xs).unwrap();
    dev.write(y, &ys).unwrap();
    let mut params = vec![];
    params.extend_from_slice(&x.to_le_bytes());
    params.extend_from_slice(&y.to_le_bytes());
    params.extend_from_slice(&2.5f32.to_le_bytes());
    params.extend_from_slice(&n.to_le_bytes());
    let launch = Launch { kernel: "saxpy".into(), grid: [n.div_ceil(64), 1, 1], block: [64, 1, 1], params, dynamic_shared: 0 };
    (dev, launch, y)
}

#[test]
fn saxpy_matches_the_host() {
    let n = 1000;
    let (mut dev, launch, y) = setup(n);
    let out = dev.launch(&launch).unwrap();
    assert_eq!(out.trap, None);
    let got = dev.read(y, n as usize * 4).unwrap();
    for i in 0..n as usize {
        let want = 2.5f32.mul_add(i as f32, 1.0 + i as f32 * 0.5);
        let v = f32::from_le_bytes(got[4 * i..4 * i + 4].try_into().unwrap());
        assert_eq!(v.to_bits(), want.to_bits(), "element {i}");
    }
    // 16 warps of 64-thread CTAs; the last CTA has 24 threads past n that exit early.
    assert_eq!(out.stats.global.loads, 2 * n as u64);
    assert_eq!(out.stats.global.stores, n as u64);
}

#[test]
fn launches_are_deterministic_with_identical_traces() {
    let run = || {
        let (mut dev, launch, y) = setup(300);
        let mut t = Collect::default();
        let o = dev.launch_traced(&launch, &mut t).unwrap();
        (o, t.0, dev.read(y, 1200).unwrap())
    };
    let (a, b) = (run(), run());
    assert_eq!(a.0, b.0);
    assert_eq!(a.1, b.1);
    assert_eq!(a.2, b.2);
    // One record per warp instruction, each with its writes.
    assert_eq!(a.1.len() as u64, a.0.stats.warp_instructions);
    let st = a.1.iter().find(|r| r.pc == 16).unwrap();
    assert_eq!(st.mem.len(), 32);
    assert!(st.mem.iter().all(|m| m.space == Space::Global && m.size == 4));
}

#[test]
fn bad_launches_are_errors_not_traps() {
    let (mut dev, launch, _) = setup(10);
    let cases = [
        (Launch { kernel: "nope".into(), ..launch.clone() }, "no kernel"),
        (Launch { grid: [0, 1, 1], ..launch.clone() }, "at least 1"),
        (Launch { block: [2048, 1, 1], ..launch.clone() }, "threads per CTA"),
        (Launch { params: vec![0; 3], ..launch.clone() }, "parameter bytes"),
        (Launch { dynamic_shared: 1 << 20, ..launch.clone() }, "shared bytes"),
    ];
    for (l, msg) in cases {
        let e = dev.launch(&l).unwrap_err();
        assert!(e.to_string().contains(msg), "{e}");
    }
    assert!(matches!(dev.read(0, 4), Err(LaunchError::Memory(_))));
}

#[test]
fn a_fault_is_reported_with_warp_lane_pc_and_address() {
    let (mut dev, mut launch, _) = setup(100);
    // n larger than the buffers: the first out-of-range thread faults on its load of x.
    launch.params[20..24].copy_from_slice(&200u32.to_le_bytes());
    launch.grid = [4, 1, 1];
    let o = dev.launch(&launch).unwrap();
    let t = o.trap.unwrap();
    assert_eq!(t.kind, TrapKind::OutOfBounds { space: Space::Global, size: 4 });
    assert_eq!((t.cta, t.warp, t.lane, t.pc), ([1, 0, 0], 1, Some(4), 12));
    assert_eq!(
        t.to_string(),
        format!("trap: out-of-bounds global access of 4 bytes (CTA (1,0,0), warp 1, lane 4, pc 12, address {:#x})", t.addr.unwrap())
    );
    // The device is still usable afterwards.
    launch.params[20..24].copy_from_slice(&100u32.to_le_bytes());
    assert_eq!(dev.launch(&launch).unwrap().trap, None);
}

#[test]
fn warp_size_is_a_configuration() {
    for ws in [1, 4, 8, 16, 32, 64] {
        let obj = assemble("saxpy.hasm", SAXPY).unwrap();
        let cfg = SmConfig { warp_size: ws, lanes: 1, warps: 64, ..SmConfig::default() };
        let mut dev = Device::new(cfg, obj).unwrap();
        let (_, launch, _) = setup(100);
        // Re-create buffers on this device.
        let x = dev.alloc(400).unwrap();
        let y = dev.alloc(400).unwrap();
        dev.write(x, &[0x3f; 400]).unwrap();
        let mut l = launch.clone();
        l.params[..8].copy_from_slice(&x.to_le_bytes());
        l.params[8..16].copy_from_slice(&y.to_le_bytes());
        let o = dev.launch(&l).unwrap();
        assert_eq!(o.trap, None, "warp size {ws}");
        let got = dev.read(y, 400).unwrap();
        let want = 2.5f32.mul_add(f32::from_le_bytes([0x3f; 4]), 0.0);
        assert!(got.chunks(4).all(|c| f32::from_le_bytes(c.try_into().unwrap()) == want), "warp size {ws}");
    }
}
