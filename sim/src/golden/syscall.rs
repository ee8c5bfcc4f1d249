//! System calls: the host side of `syscall.vprintf/malloc/free/assertfail`.

use super::exec::resolve;
use super::{Cta, Dec, Machine};
use crate::memory::GlobalMemory;
use crate::printf::{self, StringReader};
use crate::trap::{Space, Trap, TrapKind};
use heddle_isa::table::ModKind;

/// Argument registers each call reads (from `a`).
pub(crate) fn arg_regs(sysno: u32) -> u8 {
    match sysno {
        0 => 4, // format pair, argument-buffer pair
        1 | 2 => 2,
        _ => 9, // message, file, line, function, char size
    }
}

/// Result registers each call writes (from `d`).
pub(crate) fn result_regs(sysno: u32) -> Option<u8> {
    match sysno {
        0 => Some(1),
        1 => Some(2),
        _ => None,
    }
}

/// Device memory as one thread sees it through generic addresses: what the
/// host side of a system call reads (the golden model's and the RTL engine's).
pub(crate) struct ThreadMemory<'a> {
    pub global: &'a GlobalMemory,
    pub shared: &'a [u8],
    /// This thread's local memory.
    pub local: &'a [u8],
    pub consts: &'a [u8],
    pub params: &'a [u8],
}

impl ThreadMemory<'_> {
    /// The bytes from a generic address to the end of its region.
    fn region(&self, addr: u64) -> Result<&[u8], String> {
        let a = u32::try_from(addr).map_err(|_| format!("address {addr:#x} is beyond 32 bits"))?;
        let (space, off) = resolve(0, a);
        let (bytes, start): (&[u8], usize) = match space {
            Space::Global => (self.global.tail(off).ok_or_else(|| format!("address {addr:#x} is not allocated"))?, 0),
            Space::Shared => (self.shared, off as usize),
            Space::Local => (self.local, off as usize),
            Space::Const => (self.consts, off as usize),
            Space::Param => (self.params, off as usize),
        };
        bytes
            .get(start..)
            .filter(|b| !b.is_empty() || start == bytes.len())
            .ok_or_else(|| format!("address {addr:#x} is outside {space} memory"))
    }
}

impl StringReader for ThreadMemory<'_> {
    fn read_cstr(&self, addr: u64) -> Result<Vec<u8>, String> {
        let r = self.region(addr)?;
        let end = r.iter().position(|&b| b == 0).ok_or_else(|| format!("string at {addr:#x} has no terminating NUL"))?;
        Ok(r[..end].to_vec())
    }
}

/// `vprintf(format, args)` for one thread: the formatted bytes, or the
/// trap (a `Printf` error at the format's address).
pub(crate) fn vprintf(mem: &ThreadMemory, fmt_addr: u64, args_addr: u64) -> Result<Vec<u8>, (TrapKind, u64)> {
    mem.read_cstr(fmt_addr)
        .and_then(|fmt| {
            let args = if args_addr == 0 { &[][..] } else { mem.region(args_addr)? };
            printf::format(&fmt, args, mem).map_err(|e| e.to_string())
        })
        .map_err(|reason| (TrapKind::Printf { reason }, fmt_addr))
}

/// `__assertfail(message, file, line, function, ...)` for one thread, from
/// its argument registers a, a+1, ...
pub(crate) fn assert_fail(mem: &ThreadMemory, args: &[u32]) -> TrapKind {
    let pair = |k: usize| args[k] as u64 | (args[k + 1] as u64) << 32;
    let text = |addr: u64| mem.read_cstr(addr).map(|s| String::from_utf8_lossy(&s).into_owned()).unwrap_or_else(|e| format!("<{e}>"));
    TrapKind::AssertFail { message: text(pair(0)), file: text(pair(2)), line: args[4], function: text(pair(5)) }
}

impl Machine<'_> {
    /// Thread `lane` of warp `w` of `cta`'s view of memory.
    fn thread_memory<'m>(&'m self, cta: &'m Cta, w: usize, lane: usize) -> ThreadMemory<'m> {
        let per = self.local_bytes as usize;
        let base = (w * self.ws + lane) * per;
        ThreadMemory {
            global: &*self.global,
            shared: &cta.shared,
            local: &cta.local[base..base + per],
            consts: self.consts,
            params: self.params,
        }
    }
}

impl Machine<'_> {
    pub(super) fn syscall(&mut self, cta: &mut Cta, w: usize, pc: u32, dec: &Dec, exec: u64) -> Result<(), Box<Trap>> {
        let sys = dec.inst.modifier(ModKind::SysNo);
        let ws = self.ws;
        let (a, d) = (self.ri(w, dec.a), self.ri(w, dec.dw));
        let mut mm = exec;
        while mm != 0 {
            let l = mm.trailing_zeros() as usize;
            mm &= mm - 1;
            self.stats.syscalls += 1;
            let reg = |k: usize| cta.regs[a + k * ws + l];
            let pair = |k: usize| reg(k) as u64 | (reg(k + 1) as u64) << 32;
            match sys {
                0 => {
                    let out = vprintf(&self.thread_memory(cta, w, l), pair(0), pair(2))
                        .map_err(|(kind, addr)| self.trap(cta, w, Some(l), pc, kind, Some(addr)))?;
                    self.stdout.extend_from_slice(&out);
                    cta.regs[d + l] = out.len() as u32;
                }
                1 => {
                    let p = self.global.malloc(pair(0));
                    cta.regs[d + l] = p;
                    cta.regs[d + ws + l] = 0;
                }
                2 => {
                    let p = pair(0);
                    if !self.global.free(p) {
                        return Err(self.trap(cta, w, Some(l), pc, TrapKind::BadFree, Some(p)));
                    }
                }
                _ => {
                    let args: Vec<u32> = (0..7).map(reg).collect();
                    let kind = assert_fail(&self.thread_memory(cta, w, l), &args);
                    return Err(self.trap(cta, w, Some(l), pc, kind, None));
                }
            }
        }
        Ok(())
    }
}
