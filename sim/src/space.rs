//! The state spaces as every engine sees them: the generic-address windows
//! (`heddle_isa::mem`: which window an address falls in, where a space's
//! window starts), the `Space` modifier applied to an address, and the
//! bounds, alignment and write checks of an access. The golden model, the
//! PTX interpreter and the RTL engine's bus all use this one copy.

use crate::memory::GlobalMemory;
use crate::trap::{Space, TrapKind};
use heddle_isa::mem;

/// Why an access was refused (small: it travels on the golden model's hot path).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemFault {
    OutOfBounds,
    Misaligned,
    ReadOnly,
    StackOverflow,
}

impl MemFault {
    pub fn kind(self, space: Space, size: u32) -> TrapKind {
        match self {
            MemFault::OutOfBounds => TrapKind::OutOfBounds { space, size },
            MemFault::Misaligned => TrapKind::Misaligned { space, size },
            MemFault::ReadOnly => TrapKind::ReadOnly { space },
            MemFault::StackOverflow => TrapKind::StackOverflow,
        }
    }
}

/// What an access is checked against: the sizes of every state space.
pub struct Spaces<'m> {
    pub global: &'m GlobalMemory,
    pub shared_len: usize,
    pub local_bytes: u32,
    pub consts_len: usize,
    pub params_len: usize,
}

impl Spaces<'_> {
    /// Bounds- and alignment-checks an access by thread `thread` of the CTA;
    /// returns where its bytes start in the backing store of `space`.
    #[inline]
    pub fn locate(&self, thread: usize, space: Space, off: u32, size: u32, write: bool) -> Result<usize, MemFault> {
        if off & (size - 1) != 0 {
            return Err(MemFault::Misaligned);
        }
        let end = off as u64 + size as u64;
        match space {
            Space::Global => {
                if off < mem::NULL_LIMIT || !self.global.check(off, size) {
                    return Err(MemFault::OutOfBounds);
                }
                Ok(off as usize)
            }
            Space::Shared => (end <= self.shared_len as u64).then_some(off as usize).ok_or(MemFault::OutOfBounds),
            Space::Local => {
                if end > self.local_bytes as u64 {
                    return Err(MemFault::StackOverflow);
                }
                Ok(thread * self.local_bytes as usize + off as usize)
            }
            Space::Const | Space::Param => {
                if write {
                    return Err(MemFault::ReadOnly);
                }
                let len = if space == Space::Const { self.consts_len } else { self.params_len };
                (end <= len as u64).then_some(off as usize).ok_or(MemFault::OutOfBounds)
            }
        }
    }
}

/// The generic-address window an address falls in, and its offset there.
#[inline]
pub fn window(addr: u32) -> (Space, u32) {
    match addr {
        a if a >= mem::LOCAL_WINDOW => (Space::Local, a - mem::LOCAL_WINDOW),
        a if a >= mem::SHARED_WINDOW => (Space::Shared, a - mem::SHARED_WINDOW),
        a if a >= mem::CONST_WINDOW => (Space::Const, a - mem::CONST_WINDOW),
        a if a >= mem::PARAM_WINDOW => (Space::Param, a - mem::PARAM_WINDOW),
        a => (Space::Global, a),
    }
}

/// The `Space` modifier (gen, global, shared, local, const, param) applied to an address.
#[inline]
pub fn resolve(space: u32, addr: u32) -> (Space, u32) {
    match space {
        1 => (Space::Global, addr),
        2 => (Space::Shared, addr),
        3 => (Space::Local, addr),
        4 => (Space::Const, addr),
        5 => (Space::Param, addr),
        _ => window(addr),
    }
}

/// Where `space`'s window starts in the generic address space (global: 0).
pub fn window_base(space: Space) -> u32 {
    match space {
        Space::Global => 0,
        Space::Shared => mem::SHARED_WINDOW,
        Space::Local => mem::LOCAL_WINDOW,
        Space::Const => mem::CONST_WINDOW,
        Space::Param => mem::PARAM_WINDOW,
    }
}

/// Whether a generic address lies in `space`'s window (global: below
/// `GLOBAL_LIMIT`), as `isspacep` asks.
pub fn in_window(space: Space, addr: u32) -> bool {
    window(addr).0 == space
}
