//! The memory model's side of the SM's Wishbone bus (`Sm::wb_*`): a slave
//! that takes a transfer in any cycle and answers it in the next, with
//! `ACK` and the read word or with `ERR`, answers in order, and after an
//! `ERR` answers every further transfer of the bus cycle with `ERR`
//! without doing it. With wait states (a seed), it stalls a quarter of the
//! cycles at random and answers each transfer 1 to 4 cycles after the
//! later of its own and the previous answer. With a latency of N cycles it
//! is a pipelined memory: it still takes a transfer in any cycle, and
//! answers each one N cycles after it took it at the earliest (1, the
//! default, is the next cycle), still in order.
//!
//! A transfer's lanes all access `wb_tga_size` bytes, naturally aligned,
//! so the selected bytes of the word are whole aligned accesses: the slave
//! checks each of them as the golden model checks a lane access
//! (`Spaces::locate`; an access wider than the word whole at its first
//! transfer), and answers `ERR` without touching memory if any fails. The
//! SM then retries the lanes one at a time, so the fault it reports is the
//! lowest faulting lane's. Atomics (`wb_tgc_atom`) are done here, one lane
//! per transfer, by [`Bus::atomic`]. Loads and stores are
//! listed for the retire record by the SM's monitor, atomics by the slave.

use super::bus::{Bus, Fault, Request};
use super::ports::{SmPorts, I, O};
use crate::retire::MemAccess;
use crate::space::resolve;
use crate::stats::Stats;
use crate::trap::Space;
use heddle_hw::sm::mem;

/// The answer to drive in the next cycle.
enum Response {
    Ack { words: Vec<u32>, tgd: u64 },
    Err,
}

pub struct Slave {
    /// Answers not yet driven, oldest first, each with the cycles it waits
    /// once it is the oldest and the cycle it may be driven at the earliest.
    resp: std::collections::VecDeque<(u32, u64, Response)>,
    /// Cycles from a transfer to its answer, at the least.
    latency: u32,
    /// This cycle (counted by `respond`).
    cycle: u64,
    waits: Option<fastrand::Rng>,
    stalled: bool,
    /// An `ERR` was answered in this bus cycle.
    failed: bool,
    /// Transfers the SM presented while the slave stalled, and `ERR` answers (coverage).
    pub stalls: u64,
    pub errors: u64,
}

/// What a transfer did, for the engine: an atomic's record, or a fault and its lane.
pub enum Event {
    Atomic(MemAccess),
    Fault(Fault, u32),
}

impl Slave {
    /// A slave that answers `latency` cycles after a transfer (at least 1),
    /// with wait states seeded by `waits` on top.
    pub fn new(waits: Option<u64>, latency: u32) -> Slave {
        Slave {
            resp: Default::default(),
            latency: latency.max(1),
            cycle: 0,
            waits: waits.map(fastrand::Rng::with_seed),
            stalled: false,
            failed: false,
            stalls: 0,
            errors: 0,
        }
    }

    /// Drives this cycle's response (to an earlier transfer) and `STALL`.
    /// Returns whether a bus input changed (the SM must settle again).
    pub fn respond<P: SmPorts>(&mut self, sm: &mut P) -> bool {
        self.stalled = self.waits.as_mut().is_some_and(|r| r.u8(..4) == 0);
        let mut changed = (sm.i(I::WbStall) != 0) != self.stalled;
        sm.set(I::WbStall, self.stalled as u64);
        self.cycle += 1;
        let now = match self.resp.front_mut() {
            Some((_, due, _)) if *due > self.cycle => None,
            Some((0, _, _)) => self.resp.pop_front().map(|(_, _, r)| r),
            Some((n, _, _)) => {
                *n -= 1;
                None
            }
            None => None,
        };
        self.errors += matches!(now, Some(Response::Err)) as u64;
        let (ack, err) = match &now {
            Some(Response::Ack { .. }) => (true, false),
            Some(Response::Err) => (false, true),
            None => (false, false),
        };
        changed |= (sm.i(I::WbAck) != 0) != ack || (sm.i(I::WbErr) != 0) != err;
        sm.set(I::WbAck, ack as u64);
        sm.set(I::WbErr, err as u64);
        if let Some(Response::Ack { words, tgd }) = now {
            for (port, w) in (0..sm.bus_words()).zip(words) {
                changed |= sm.dat_r(port) != w;
                sm.set_dat_r(port, w);
            }
            changed |= sm.i(I::WbTgdR) != tgd;
            sm.set(I::WbTgdR, tgd);
        }
        changed
    }

    /// Takes the transfer the SM presents this cycle, if any.
    pub fn transfer<P: SmPorts>(&mut self, sm: &P, bus: &mut Bus, stats: &mut Stats) -> Option<Event> {
        if sm.o(O::WbCyc) == 0 {
            self.failed = false;
        }
        let strobe = sm.o(O::WbCyc) != 0 && sm.o(O::WbStb) != 0;
        self.stalls += (strobe && self.stalled) as u64;
        if !strobe || self.stalled {
            return None;
        }
        let (resp, event) = if self.failed { (Response::Err, None) } else { self.take(sm, bus, stats) };
        self.failed |= matches!(resp, Response::Err);
        let delay = self.waits.as_mut().map_or(0, |r| r.u32(..4));
        self.resp.push_back((delay, self.cycle + self.latency as u64, resp));
        event
    }

    fn take<P: SmPorts>(&mut self, sm: &P, bus: &mut Bus, stats: &mut Stats) -> (Response, Option<Event>) {
        let adr = sm.o(O::WbAdr) as u32;
        let (thread, lane) = (sm.o(O::WbTgaThread) as u32, sm.o(O::WbTgaLane) as u32);
        let size = sm.o(O::WbTgaSize) as u32;
        if sm.o(O::WbTgcAtom) != 0 {
            let r = Request {
                kind: mem::ATOMIC,
                space: sm.o(O::WbTgaSpace) as u32,
                width: if size == 8 { 5 } else { 4 },
                addr: adr,
                wdata: sm.o(O::WbTgdB) as u128,
                cdata: sm.o(O::WbTgdC),
                atom_op: sm.o(O::WbTgcOp) as u32,
                thread,
                lane,
            };
            return match bus.atomic(&r, stats) {
                Ok((old, access)) => (Response::Ack { words: vec![], tgd: old }, Some(Event::Atomic(access))),
                Err(f) => (Response::Err, Some(Event::Fault(f, lane))),
            };
        }
        let w = 4 * sm.bus_words() as u32;
        let sel = sm.o(O::WbSel) as u32;
        let write = sm.o(O::WbWe) != 0;
        let (space, off) = resolve(sm.o(O::WbTgaSpace) as u32, adr);
        match check(bus, space, thread, adr, off, size, w, sel, write, sm.o(O::WbTgaFirst) != 0) {
            Err(f) => (Response::Err, Some(Event::Fault(f, lane))),
            Ok(base) => {
                let mut read = vec![0u8; w as usize];
                if write {
                    let store = bus.bytes_mut(space);
                    for (k, d) in (0..sm.bus_words()).flat_map(|d| sm.dat_w(d).to_le_bytes()).enumerate() {
                        if sel >> k & 1 == 1 {
                            store[base + k] = d;
                        }
                    }
                } else {
                    let store = bus.bytes(space);
                    for (k, r) in read.iter_mut().enumerate() {
                        *r = store.get(base + k).copied().unwrap_or(0);
                    }
                }
                let words = read.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap_or_default())).collect();
                (Response::Ack { words, tgd: 0 }, None)
            }
        }
    }
}

/// Checks every access a load or store transfer carries; returns where the
/// word starts in the backing store of `space`.
#[allow(clippy::too_many_arguments)]
fn check(
    bus: &Bus,
    space: Space,
    thread: u32,
    adr: u32,
    off: u32,
    size: u32,
    w: u32,
    sel: u32,
    write: bool,
    first: bool,
) -> Result<usize, Fault> {
    let spaces = bus.spaces();
    let locate = |o: u32, a: u32| spaces.locate(thread as usize, space, o, size, write).map_err(|f| (f.kind(space, size), Some(a as u64)));
    if size > w {
        if first {
            locate(off, adr)?;
        }
    } else {
        let lane_bits = (1u32 << size) - 1;
        for c in (0..w).step_by(size as usize).filter(|c| sel >> c & lane_bits != 0) {
            locate(off + c, adr + c)?;
        }
    }
    Ok(match space {
        Space::Local => (thread * bus.local_bytes + off) as usize,
        _ => off as usize,
    })
}
