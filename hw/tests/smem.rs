//! The shared memory's test bench: the bank crossbar's Verilog against its
//! model (Verilator), and `SharedMem` (rust-hdl, and its whole Verilog under
//! Verilator) against a byte-array reference on random passes: loads,
//! byte/half/word stores, every atomic operation at 32 and 64 bits, with
//! addresses drawn from a small pool so that lanes collide on banks and words.
//! An atomic FP add's sum comes from outside `SharedMem` (the SM's FP
//! units): here, from the FPU's model ([`serve_fadd`]).

use heddle_hw::cosim::{run_verilator, settle, Port};
use heddle_hw::fpu;
use heddle_hw::smem::{mode, BankRead, BankXbar, SharedMem};
use heddle_hw::verilog::verilog_of;
use heddle_isa::scalar::int::atomic;
use heddle_isa::table::mod_info;
use heddle_isa::{ModKind, Opcode};
use rust_hdl::prelude::*;

fn name(base: &str, i: usize) -> &'static str {
    Box::leak(format!("{base}${i}").into_boxed_str())
}

#[test]
fn bank_crossbar_verilog_matches_its_model() {
    for (lanes, banks) in [(4usize, 4usize), (8, 32)] {
        let mut x = BankXbar::new(lanes, banks);
        x.connect_all();
        let mut r = BankRead::new(lanes, banks);
        r.connect_all();
        let (xv, rv) = (verilog_of(&x), verilog_of(&r));
        heddle_hw::verilog::lint("xbar", &xv).unwrap();
        heddle_hw::verilog::lint("xbar_read", &rv).unwrap();
        let mut rng = fastrand::Rng::with_seed(23);
        // Per vector: active, mode, size, then per lane addr and wdata, anew, then per bank rdata.
        let vectors: Vec<Vec<u128>> = (0..3000)
            .map(|_| {
                let m = rng.u32(0..3);
                let size = if m == 2 { rng.u32(2..4) } else { rng.u32(0..3) };
                let mut v = vec![rng.u32(..) as u128 & ((1 << lanes) - 1), m as u128, size as u128];
                // Aligned offsets from a small pool of rows: conflicts and broadcasts.
                v.extend((0..lanes).map(|_| ((rng.u32(0..64 * banks as u32) >> size) << size) as u128));
                v.extend((0..lanes).map(|_| rng.u32(..) as u128));
                v.push(rng.u64(..) as u128);
                v.extend((0..banks).map(|_| rng.u32(..) as u128));
                v
            })
            .collect();
        // The address side.
        let mut inputs: Vec<Port> = vec![("active", 32), ("mode", 2), ("size", 2)];
        inputs.extend((0..lanes).map(|l| (name("addr", l), 32)));
        inputs.extend((0..lanes).map(|l| (name("wdata", l), 32)));
        inputs.push(("anew", 64));
        let mut outputs: Vec<Port> = vec![("grant", 32)];
        for b in 0..banks {
            outputs.extend([(name("row", b), 16), (name("we", b), 1), (name("be", b), 4), (name("bwdata", b), 32)]);
        }
        let ins: Vec<Vec<u128>> = vectors.iter().map(|v| v[..4 + 2 * lanes].to_vec()).collect();
        let hw = run_verilator("xbar", &xv, &inputs, &outputs, false, &ins).unwrap();
        for (i, (v, h)) in vectors.iter().zip(&hw).enumerate() {
            x.active.next = (v[0] as u64).into();
            x.mode.next = (v[1] as u64).into();
            x.size.next = (v[2] as u64).into();
            for l in 0..lanes {
                x.addr[l].next = (v[3 + l] as u64).into();
                x.wdata[l].next = (v[3 + lanes + l] as u64).into();
            }
            x.anew.next = (v[3 + 2 * lanes] as u64).into();
            assert!(settle(&mut x));
            let mut got = vec![x.grant.val().to_u64() as u128];
            for b in 0..banks {
                got.extend([x.row[b].val().to_u64() as u128, x.we[b].val() as u128, x.be[b].val().to_u64() as u128]);
                got.push(x.bwdata[b].val().to_u64() as u128);
            }
            assert_eq!(&got, h, "vector {i} ({lanes} lanes, {banks} banks): {v:x?}");
        }
        // The data side.
        let mut inputs: Vec<Port> = vec![("active", 32), ("size", 2)];
        inputs.extend((0..lanes).map(|l| (name("addr", l), 32)));
        inputs.extend((0..banks).map(|b| (name("rdata", b), 32)));
        let mut outputs: Vec<Port> = vec![("aold", 64)];
        outputs.extend((0..lanes).map(|l| (name("rword", l), 32)));
        let ins: Vec<Vec<u128>> = vectors.iter().map(|v| [&[v[0], v[2]], &v[3..3 + lanes], &v[4 + 2 * lanes..]].concat()).collect();
        let hw = run_verilator("xbar_read", &rv, &inputs, &outputs, false, &ins).unwrap();
        for (i, (v, h)) in ins.iter().zip(&hw).enumerate() {
            r.active.next = (v[0] as u64).into();
            r.size.next = (v[1] as u64).into();
            for l in 0..lanes {
                r.addr[l].next = (v[2 + l] as u64).into();
            }
            for b in 0..banks {
                r.rdata[b].next = (v[2 + lanes + b] as u64).into();
            }
            assert!(settle(&mut r));
            let mut got = vec![r.aold.val().to_u64() as u128];
            got.extend((0..lanes).map(|l| r.rword[l].val().to_u64() as u128));
            assert_eq!(&got, h, "vector {i} ({lanes} lanes, {banks} banks): {v:x?}");
        }
    }
}

/// One random pass: mode, size code, atomic op, per-lane offset, data, b, c.
struct Pass {
    mode: u64,
    size: u32,
    op: u32,
    mask: u32,
    addr: Vec<u32>,
    data: Vec<u32>,
    b: Vec<u64>,
    c: Vec<u64>,
}

fn random_pass(rng: &mut fastrand::Rng, lanes: usize, bytes: u32) -> Pass {
    let mode = rng.u64(0..3);
    let size = if mode == mode::ATOMIC { rng.u32(2..4) } else { rng.u32(0..3) };
    // A small pool of words: lanes collide on banks and on words.
    let pool: Vec<u32> = (0..3).map(|_| rng.u32(0..bytes >> 3) << 3).collect();
    let addr = (0..lanes).map(|_| ((pool[rng.usize(..3)] + rng.u32(0..8)) >> size) << size).collect();
    let val = |rng: &mut fastrand::Rng| if rng.bool() { rng.u64(0..4) } else { rng.u64(..) };
    Pass {
        mode,
        size,
        op: rng.u32(0..13),
        mask: rng.u32(1..1 << lanes),
        addr,
        data: (0..lanes).map(|_| rng.u32(..)).collect(),
        b: (0..lanes).map(|_| val(rng)).collect(),
        c: (0..lanes).map(|_| val(rng)).collect(),
    }
}

/// The reference: the pass's lanes in lane order on a byte array. Returns
/// each lane's loaded (or atomic old) value and the cycles the pass should
/// take (loads: the most distinct rows any bank is asked for, and one for
/// the banks' read; stores: the most lanes on one bank; atomics: two cycles
/// per lane, a read and a write), and the cycles a lane waits for a bank
/// (`waited`: all but one of the load's or store's serving cycles).
fn reference(mem: &mut [u8], p: &Pass, banks: u32) -> (Vec<u64>, u32, u32) {
    let n = 1usize << p.size;
    let mut out = vec![0; p.addr.len()];
    let mut per_bank: Vec<Vec<u32>> = vec![vec![]; banks as usize];
    for l in (0..p.addr.len()).filter(|&l| p.mask >> l & 1 == 1) {
        let at = p.addr[l] as usize;
        let mut buf = [0u8; 8];
        buf[..n].copy_from_slice(&mem[at..at + n]);
        let old = u64::from_le_bytes(buf);
        let word = p.addr[l] / 4;
        let b = (word % banks) as usize;
        if p.mode == mode::LOAD {
            out[l] = old;
            if !per_bank[b].contains(&(word / banks)) {
                per_bank[b].push(word / banks);
            }
        } else if p.mode == mode::STORE {
            mem[at..at + n].copy_from_slice(&(p.data[l] as u64).to_le_bytes()[..n]);
            per_bank[b].push(word / banks);
        } else {
            let keep = if n == 8 { u64::MAX } else { u32::MAX as u64 };
            let new = atomic(p.op, n == 8, old, p.b[l] & keep, p.c[l] & keep);
            mem[at..at + n].copy_from_slice(&new.to_le_bytes()[..n]);
            out[l] = old;
            per_bank[b].push(0);
        }
    }
    let most = per_bank.iter().map(|v| v.len() as u32).max().unwrap_or(0);
    let cycles = match p.mode {
        mode::ATOMIC => 2 * p.mask.count_ones(),
        mode::LOAD => most + 1,
        _ => most,
    };
    let waits = if p.mode == mode::ATOMIC { 0 } else { most.saturating_sub(1) };
    (out, cycles, waits)
}

/// The SM's part in an atomic FP add: `fadd.rn.ftz` or `dadd.rn` of the
/// unit's operands, back on `fsum`.
fn serve_fadd(s: &mut SharedMem) {
    let (op, modv) = if s.fwide.val() { (Opcode::Dadd, 0) } else { (Opcode::Fadd, 1 << mod_info(ModKind::Ftz).lo) };
    let sum = if s.fadd.val() { fpu::model(op as u8, modv, false, s.fa.val().to_u64(), s.fb.val().to_u64(), 0).0 } else { 0 };
    s.fsum.next = sum.into();
    assert!(settle(s));
}

fn cycle(s: &mut SharedMem) {
    s.clock.next = true.into();
    assert!(settle(s));
    s.clock.next = false.into();
    assert!(settle(s));
}

/// The input vector of one cycle, in `ports` order (see `shared_mem_ports`).
fn snapshot(s: &SharedMem) -> Vec<u128> {
    let mut v = vec![
        s.start.val() as u128,
        s.mask.val().to_u64() as u128,
        s.pstart.val() as u128,
        s.pmask.val().to_u64() as u128,
        s.mode.val().to_u64() as u128,
        s.size.val().to_u64() as u128,
        s.atom_op.val().to_u64() as u128,
        s.clear.val() as u128,
        s.clear_from.val().to_u64() as u128,
        s.clear_rows.val().to_u64() as u128,
        s.fsum.val().to_u64() as u128,
    ];
    let lanes = s.addr.len();
    v.extend((0..lanes).map(|l| s.addr[l].val().to_u64() as u128));
    v.extend((0..lanes).map(|l| s.wdata[l].val().to_u64() as u128));
    v.extend((0..lanes).map(|l| s.b[l].val().to_u64() as u128));
    v.extend((0..lanes).map(|l| s.c[l].val().to_u64() as u128));
    v.extend((0..lanes).map(|l| s.paddr[l].val().to_u64() as u128));
    v
}

fn outputs(s: &SharedMem) -> Vec<u128> {
    let mut v = vec![s.grant.val().to_u64() as u128, s.left.val() as u128, s.waited.val() as u128, s.clearing.val() as u128];
    v.extend([s.aold.val().to_u64() as u128, s.anew.val().to_u64() as u128]);
    v.extend([s.fadd.val() as u128, s.fwide.val() as u128, s.fa.val().to_u64() as u128, s.fb.val().to_u64() as u128]);
    v.extend(s.rword.iter().map(|r| r.val().to_u64() as u128));
    v
}

#[test]
fn shared_mem_matches_a_byte_model_and_its_verilog() {
    let (lanes, banks, bytes) = (4usize, 4u32, 256u32);
    let mut s = SharedMem::new(lanes, banks as usize, bytes as usize, true);
    s.connect_all();
    assert!(settle(&mut s));
    let mut mem = vec![0u8; bytes as usize];
    let mut rng = fastrand::Rng::with_seed(31);
    let (mut vectors, mut expect) = (vec![], vec![]);
    let record = |s: &mut SharedMem, vectors: &mut Vec<Vec<u128>>, expect: &mut Vec<Vec<u128>>| {
        assert!(settle(s));
        serve_fadd(s);
        vectors.push(snapshot(s));
        expect.push(outputs(s));
    };
    for i in 0..1500 {
        if i == 700 || i == 1100 {
            // A new CTA: its window reads as zeros again (at 700 the whole
            // memory; at 1100 rows 5..12, a slot's window).
            let rows = bytes / (4 * banks);
            let (from, n) = if i == 700 { (0, rows) } else { (5, 7) };
            s.clear.next = true;
            s.clear_from.next = (from as u64).into();
            s.clear_rows.next = (n as u64).into();
            record(&mut s, &mut vectors, &mut expect);
            cycle(&mut s);
            s.clear.next = false;
            while s.clearing.val() {
                record(&mut s, &mut vectors, &mut expect);
                cycle(&mut s);
            }
            mem[(from * 4 * banks) as usize..((from + n) * 4 * banks) as usize].fill(0);
        }
        let p = random_pass(&mut rng, lanes, bytes);
        let (want, want_cycles, want_waits) = reference(&mut mem, &p, banks);
        // Half the loads start as the SM's pipelined loads do: from `pmask`
        // and `paddr`, with other lanes and addresses on `mask` and `addr`
        // in that cycle (SharedMem must not look at them).
        let pipelined = p.mode == mode::LOAD && rng.bool();
        s.start.next = !pipelined;
        s.pstart.next = pipelined;
        s.mask.next = (p.mask as u64).into();
        s.pmask.next = (p.mask as u64).into();
        if pipelined {
            s.mask.next = (rng.u32(..) as u64).into();
        }
        s.mode.next = p.mode.into();
        s.size.next = (p.size as u64).into();
        s.atom_op.next = (p.op as u64).into();
        for l in 0..lanes {
            s.addr[l].next = (p.addr[l] as u64).into();
            s.paddr[l].next = (p.addr[l] as u64).into();
            if pipelined {
                s.addr[l].next = (rng.u32(0..bytes) as u64).into();
            }
            s.wdata[l].next = (p.data[l] as u64).into();
            s.b[l].next = p.b[l].into();
            s.c[l].next = p.c[l].into();
        }
        let (mut got, mut served, mut cycles, mut waits) = (vec![0u64; lanes], 0u32, 0, 0);
        loop {
            record(&mut s, &mut vectors, &mut expect);
            let grant = s.grant.val().to_u32();
            assert_eq!(grant & served, 0, "pass {i}: a lane served twice");
            served |= grant;
            for l in (0..lanes).filter(|&l| grant >> l & 1 == 1) {
                got[l] = if p.mode == mode::ATOMIC { s.aold.val().to_u64() } else { s.rword[l].val().to_u64() };
            }
            cycles += 1;
            waits += s.waited.val() as u32;
            // A pipelined load's `left` counts from its second cycle.
            let left = s.left.val() || (pipelined && cycles == 1);
            cycle(&mut s);
            s.start.next = false;
            s.pstart.next = false;
            for l in 0..lanes {
                s.addr[l].next = (p.addr[l] as u64).into();
            }
            if !left {
                break;
            }
        }
        assert_eq!(served, p.mask, "pass {i}: lanes served");
        assert_eq!(cycles, want_cycles, "pass {i}: cycles (mode {}, size {}, addr {:x?})", p.mode, p.size, p.addr);
        assert_eq!(waits, want_waits, "pass {i}: bank-conflict cycles (mode {}, size {}, addr {:x?})", p.mode, p.size, p.addr);
        if p.mode != mode::STORE {
            for l in (0..lanes).filter(|&l| p.mask >> l & 1 == 1) {
                assert_eq!(got[l], want[l], "pass {i} lane {l}: mode {} size {} op {} addr {:x?}", p.mode, p.size, p.op, p.addr);
            }
        }
        for (at, &m) in mem.iter().enumerate() {
            assert_eq!(s.peek_byte(at), m, "pass {i}: byte {at}");
        }
    }
    // The same cycles through the Verilog.
    let verilog = verilog_of(&s);
    let mut inputs: Vec<Port> = vec![
        ("start", 1),
        ("mask", 32),
        ("pstart", 1),
        ("pmask", 32),
        ("mode", 2),
        ("size", 2),
        ("atom_op", 4),
        ("clear", 1),
        ("clear_from", 16),
        ("clear_rows", 16),
        ("fsum", 64),
    ];
    inputs.extend((0..lanes).map(|l| (name("addr", l), 32)));
    inputs.extend((0..lanes).map(|l| (name("wdata", l), 32)));
    inputs.extend((0..lanes).map(|l| (name("b", l), 64)));
    inputs.extend((0..lanes).map(|l| (name("c", l), 64)));
    inputs.extend((0..lanes).map(|l| (name("paddr", l), 32)));
    let mut outs: Vec<Port> = vec![("grant", 32), ("left", 1), ("waited", 1), ("clearing", 1), ("aold", 64), ("anew", 64)];
    outs.extend([("fadd", 1), ("fwide", 1), ("fa", 64), ("fb", 64)]);
    outs.extend((0..lanes).map(|l| (name("rword", l), 32)));
    let hw = run_verilator("smem", &verilog, &inputs, &outs, true, &vectors).unwrap();
    for (i, (e, h)) in expect.iter().zip(&hw).enumerate() {
        assert_eq!(e, h, "cycle {i}: inputs {:x?}", vectors[i]);
    }
}
