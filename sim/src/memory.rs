//! Device global memory: host allocations, the module's global data, and the
//! device heap behind `malloc`/`free`. An access must fall inside one live
//! allocation; anything else is an out-of-bounds fault.

use heddle_isa::mem::{GLOBAL_LIMIT, MODULE_GLOBAL_BASE};
use std::cell::Cell;
use std::collections::BTreeMap;

/// Allocations are aligned to this and separated by at least this many unmapped bytes.
pub const ALIGN: u32 = 256;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MemError {
    #[error("device memory exhausted: {0} bytes requested")]
    Exhausted(u64),
    #[error("address {addr:#x} (+{len} bytes) is not inside one allocation")]
    Unmapped { addr: u64, len: u64 },
}

/// Global memory as one byte vector addressed from 0, with the live ranges.
#[derive(Debug, Clone)]
pub struct GlobalMemory {
    bytes: Vec<u8>,
    /// base -> size of every live allocation.
    allocs: BTreeMap<u32, u32>,
    next: u32,
    heap: Option<Heap>,
    heap_bytes: u32,
    /// The allocation found last (base, size): most accesses hit it again.
    last: Cell<(u32, u32)>,
}

/// First-fit allocator over a heap region; blocks are registered as allocations.
#[derive(Debug, Clone)]
struct Heap {
    base: u32,
    /// offset -> size of free extents.
    free: BTreeMap<u32, u32>,
    /// base -> size of blocks handed out.
    live: BTreeMap<u32, u32>,
}

impl GlobalMemory {
    /// Empty memory whose device heap (created at the first `malloc`) has `heap_bytes`.
    pub fn new(heap_bytes: u32) -> GlobalMemory {
        GlobalMemory { bytes: vec![], allocs: BTreeMap::new(), next: MODULE_GLOBAL_BASE, heap: None, heap_bytes, last: Cell::new((0, 0)) }
    }

    /// Reserves `size` zeroed bytes, 256-byte aligned.
    pub fn alloc(&mut self, size: u32) -> Result<u32, MemError> {
        let base = self.next.div_ceil(ALIGN) * ALIGN;
        let end = base as u64 + size.max(1) as u64;
        if end + ALIGN as u64 > GLOBAL_LIMIT as u64 {
            return Err(MemError::Exhausted(size as u64));
        }
        self.next = (end as u32).div_ceil(ALIGN) * ALIGN + ALIGN;
        if self.bytes.len() < end as usize {
            self.bytes.resize(end as usize, 0);
        }
        self.allocs.insert(base, size);
        Ok(base)
    }

    /// The allocation containing `[addr, addr+len)`.
    #[inline]
    fn find(&self, addr: u32, len: u32) -> Option<(u32, u32)> {
        // `addr` itself must lie inside (even for a zero-length lookup): the
        // end of one block may be the start of the next.
        let inside = |base: u32, size: u32| {
            addr >= base && (addr as u64) < base as u64 + size as u64 && addr as u64 + len as u64 <= base as u64 + size as u64
        };
        let (base, size) = self.last.get();
        if inside(base, size) {
            return Some((base, size));
        }
        let (&base, &size) = self.allocs.range(..=addr).next_back()?;
        let hit = inside(base, size).then_some((base, size));
        if let Some(h) = hit {
            self.last.set(h);
        }
        hit
    }

    pub fn check(&self, addr: u32, len: u32) -> bool {
        self.find(addr, len).is_some()
    }

    /// Bytes from `addr` to the end of its allocation.
    pub fn tail(&self, addr: u32) -> Option<&[u8]> {
        let (base, size) = self.find(addr, 0)?;
        Some(&self.bytes[addr as usize..(base + size) as usize])
    }

    pub fn read(&self, addr: u64, len: usize) -> Result<&[u8], MemError> {
        let bad = MemError::Unmapped { addr, len: len as u64 };
        let a = u32::try_from(addr).map_err(|_| bad.clone())?;
        let l = u32::try_from(len).map_err(|_| bad.clone())?;
        self.find(a, l).ok_or(bad)?;
        Ok(&self.bytes[a as usize..a as usize + len])
    }

    pub fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemError> {
        let bad = MemError::Unmapped { addr, len: data.len() as u64 };
        let a = u32::try_from(addr).map_err(|_| bad.clone())?;
        let l = u32::try_from(data.len()).map_err(|_| bad.clone())?;
        self.find(a, l).ok_or(bad)?;
        self.bytes[a as usize..a as usize + data.len()].copy_from_slice(data);
        Ok(())
    }

    /// Unchecked access for the engines, after `check`.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.bytes
    }

    /// Device `malloc`: 16-byte aligned block, or 0 when the heap is exhausted.
    pub fn malloc(&mut self, size: u64) -> u32 {
        if self.heap.is_none() {
            let Ok(base) = self.alloc(self.heap_bytes) else {
                return 0;
            };
            // The heap region itself is not accessible; its blocks are.
            self.allocs.remove(&base);
            self.last.set((0, 0));
            self.heap = Some(Heap { base, free: BTreeMap::from([(0, self.heap_bytes)]), live: BTreeMap::new() });
        }
        let heap = self.heap.as_mut().expect("heap created above");
        let want = (size.max(1).div_ceil(16) * 16).min(u32::MAX as u64) as u32;
        let Some((&off, &len)) = heap.free.iter().find(|(_, &len)| len >= want) else {
            return 0;
        };
        heap.free.remove(&off);
        if len > want {
            heap.free.insert(off + want, len - want);
        }
        let base = heap.base + off;
        heap.live.insert(base, want);
        self.allocs.insert(base, size.min(want as u64) as u32);
        base
    }

    /// Device `free`; false if `addr` is not a live heap block (0 is fine).
    pub fn free(&mut self, addr: u64) -> bool {
        if addr == 0 {
            return true;
        }
        let Some(heap) = self.heap.as_mut() else {
            return false;
        };
        let Ok(a) = u32::try_from(addr) else {
            return false;
        };
        let Some(size) = heap.live.remove(&a) else {
            return false;
        };
        self.allocs.remove(&a);
        self.last.set((0, 0));
        let mut off = a - heap.base;
        let mut len = size;
        // Coalesce with the neighbours.
        if let Some((&po, &pl)) = heap.free.range(..off).next_back() {
            if po + pl == off {
                heap.free.remove(&po);
                off = po;
                len += pl;
            }
        }
        if let Some(nl) = heap.free.remove(&(off + len)) {
            len += nl;
        }
        heap.free.insert(off, len);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_fenced() {
        let mut m = GlobalMemory::new(1 << 16);
        let a = m.alloc(100).unwrap();
        let b = m.alloc(8).unwrap();
        assert_eq!(a % ALIGN, 0);
        assert!(b >= a + 100 + ALIGN);
        assert!(m.check(a, 100));
        assert!(!m.check(a + 96, 8));
        assert!(!m.check(a + 100, 1));
        assert!(!m.check(0, 4));
        m.write(a as u64, &[1, 2, 3]).unwrap();
        assert_eq!(m.read(a as u64 + 1, 2).unwrap(), &[2, 3]);
        assert!(m.write(b as u64 + 7, &[0, 0]).is_err());
    }

    #[test]
    fn heap_reuses_freed_blocks() {
        let mut m = GlobalMemory::new(1024);
        let p = m.malloc(100);
        let q = m.malloc(100);
        assert!(p != 0 && q != 0 && p != q);
        assert!(m.check(p, 100) && !m.check(p, 101));
        assert!(m.free(p as u64));
        assert!(!m.free(p as u64), "double free is refused");
        assert!(!m.check(p, 1));
        assert_eq!(m.malloc(64), p);
        assert_eq!(m.malloc(4096), 0, "exhausted heap gives NULL");
        assert!(m.free(0));
    }
}
