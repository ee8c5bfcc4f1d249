//! The memory behind the SM's Wishbone bus (`wishbone` is the bus side):
//! global memory, per-thread local memory, the constant bank and the
//! parameter space, with the golden model's address map, checks and
//! atomics; and the host side of system calls, which the SM presents on
//! its `mem_req` port. Shared memory is on chip (`heddle_hw::smem`): system
//! calls see a copy of it taken when they are made. Loads, stores and
//! shared accesses are listed for the retire record from the SM's monitor
//! ([`monitored_access`]).

use crate::memory::GlobalMemory;
use crate::retire::{MemAccess, MemKind};
use crate::space::{resolve, Spaces};
use crate::stats::{MemCounts, Stats};
use crate::syscall::Regions;
use crate::trap::{Space, TrapKind};
use heddle_hw::sm::mem;

/// One request as the SM drives the port.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request {
    pub kind: u64,
    /// `Space` (ld/st) or `AtomSpace` (atom) modifier value.
    pub space: u32,
    /// `Width` code (atomics: b32 or b64).
    pub width: u32,
    pub addr: u32,
    pub wdata: u128,
    pub cdata: u64,
    pub atom_op: u32,
    /// Thread index in the CTA, and lane in the warp.
    pub thread: u32,
    pub lane: u32,
}

impl Request {
    /// Bytes the access reads or writes.
    pub fn size(&self) -> u32 {
        match (self.kind, self.width) {
            (mem::ATOMIC, 5) => 8,
            (mem::ATOMIC, _) => 4,
            (_, w) => heddle_isa::mem::WIDTH_BYTES[w.min(6) as usize],
        }
    }

    fn mem_kind(&self) -> MemKind {
        match self.kind {
            mem::ATOMIC => MemKind::Atomic,
            mem::STORE => MemKind::Store,
            _ => MemKind::Load,
        }
    }
}

/// The record of an access the SM's monitor shows (`r.wdata` is the value
/// stored, loaded, or an on-chip atomic's new value), counted in `stats`.
pub fn monitored_access(r: &Request, stats: &mut Stats) -> MemAccess {
    let (space, addr) = resolve(r.space, r.addr);
    let (kind, size) = (r.mem_kind(), r.size());
    count(stats, space, kind);
    MemAccess { lane: r.lane as u8, kind, space, addr, size: size as u8, data: r.wdata & (u128::MAX >> (128 - 8 * size)) }
}

/// A fault: its kind and the faulting generic address, if there is one.
pub type Fault = (TrapKind, Option<u64>);

pub struct Bus<'a> {
    pub global: &'a mut GlobalMemory,
    pub consts: &'a [u8],
    pub params: &'a [u8],
    /// The SM's shared memory as a system call sees it (copied in before each call).
    pub shared: Vec<u8>,
    pub local: Vec<u8>,
    pub local_bytes: u32,
}

impl Bus<'_> {
    /// A new CTA starts on `threads` (the SM's thread slots of its CTA
    /// slot): their local memory reads as zeros.
    pub fn start_cta(&mut self, threads: std::ops::Range<usize>) {
        let per = self.local_bytes as usize;
        self.local[threads.start * per..threads.end * per].fill(0);
    }

    pub(super) fn bytes_mut(&mut self, space: Space) -> &mut [u8] {
        match space {
            Space::Global => self.global.bytes_mut(),
            Space::Shared => &mut self.shared,
            Space::Local => &mut self.local,
            // Only reads reach these (the check refuses writes).
            Space::Const => unreachable!("const is read through `read`"),
            Space::Param => unreachable!("param is read through `read`"),
        }
    }

    pub(super) fn bytes(&self, space: Space) -> &[u8] {
        match space {
            Space::Global => self.global.bytes(),
            Space::Shared => &self.shared,
            Space::Local => &self.local,
            Space::Const => self.consts,
            Space::Param => self.params,
        }
    }

    fn read(&self, space: Space, at: usize, size: usize) -> u128 {
        let mut buf = [0u8; 16];
        buf[..size].copy_from_slice(&self.bytes(space)[at..at + size]);
        u128::from_le_bytes(buf)
    }

    /// The sizes every access is checked against.
    pub(super) fn spaces(&self) -> Spaces<'_> {
        Spaces {
            global: self.global,
            shared_len: self.shared.len(),
            local_bytes: self.local_bytes,
            consts_len: self.consts.len(),
            params_len: self.params.len(),
        }
    }

    /// Does an atomic (`r.kind` is `mem::ATOMIC`) as the memory behind the
    /// bus does it: the old value and the access as a retire record lists
    /// it (its data: the new value), or the fault.
    pub fn atomic(&mut self, r: &Request, stats: &mut Stats) -> Result<(u64, MemAccess), Fault> {
        let size = r.size();
        let (space, off) = resolve(r.space, r.addr);
        let fault = |k: TrapKind| (k, Some(r.addr as u64));
        if !matches!(space, Space::Global | Space::Shared) {
            return Err(fault(TrapKind::InvalidInstruction { reason: format!("atomic on {space} memory") }));
        }
        let at = self.spaces().locate(r.thread as usize, space, off, size, true).map_err(|f| fault(f.kind(space, size)))?;
        count(stats, space, MemKind::Atomic);
        let n = size as usize;
        let old = self.read(space, at, n) as u64;
        // Only the low `size` bytes of the operands are driven meaningfully.
        let mask = if size == 8 { u64::MAX } else { u32::MAX as u64 };
        let new = heddle_isa::scalar::int::atomic(r.atom_op, size == 8, old, r.wdata as u64 & mask, r.cdata & mask);
        self.bytes_mut(space)[at..at + n].copy_from_slice(&new.to_le_bytes()[..n]);
        Ok((old, MemAccess { lane: r.lane as u8, kind: MemKind::Atomic, space, addr: off, size: size as u8, data: new as u128 }))
    }
}

impl Bus<'_> {
    /// Services thread `thread`'s system call (`call` = `SysNo`; `args` =
    /// its registers a..a+6) as every engine does: the result for `d` (and
    /// `d+1`), or the fault.
    pub fn syscall(&mut self, call: u32, thread: u32, args: &[u32; 7], stdout: &mut Vec<u8>, stats: &mut Stats) -> Result<u64, Fault> {
        stats.syscalls += 1;
        let per = self.local_bytes as usize;
        let base = thread as usize * per;
        let regions = Regions { shared: &self.shared, local: &self.local[base..base + per], consts: self.consts, params: self.params };
        crate::syscall::service(call, args, self.global, regions, stdout)
    }
}

fn count(stats: &mut Stats, space: Space, kind: MemKind) {
    let c: &mut MemCounts = match space {
        Space::Global => &mut stats.global,
        Space::Shared => &mut stats.shared,
        Space::Local => &mut stats.local,
        Space::Const => &mut stats.constant,
        Space::Param => &mut stats.param,
    };
    match kind {
        MemKind::Load => c.loads += 1,
        MemKind::Store => c.stores += 1,
        MemKind::Atomic => c.atomics += 1,
    }
}
