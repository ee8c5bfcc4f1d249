//! System calls: the host side of `vprintf`, `malloc`, `free` and
//! `__assertfail`, one copy that every engine calls (the golden model per
//! lane of a `syscall` instruction, the RTL engine per request on the SM's
//! `mem_req` port, the PTX interpreter per lane of a call to the declared
//! function), so that output, allocation and faults are the same on all.

use crate::memory::GlobalMemory;
use crate::printf::{self, StringReader};
use crate::space::resolve;
use crate::trap::{Space, TrapKind};

use heddle_isa::syscall::Syscall;
pub use heddle_isa::syscall::{ASSERTFAIL, FREE, MALLOC, VPRINTF};

/// The `SysNo` of the function a PTX module declares for a system call.
pub fn by_name(name: &str) -> Option<u32> {
    Syscall::by_ptx_name(name).map(|s| s.no)
}

/// Argument registers each call reads (from `a`).
pub fn arg_regs(sysno: u32) -> u8 {
    Syscall::get(sysno).map_or(0, Syscall::arg_regs)
}

/// Result registers each call writes (from `d`).
pub fn result_regs(sysno: u32) -> Option<u8> {
    Syscall::get(sysno).and_then(Syscall::result_regs)
}

/// A thread's shared, local, const and param memory: with global memory,
/// what the host side of a system call reads through generic addresses.
#[derive(Clone, Copy)]
pub(crate) struct Regions<'a> {
    pub shared: &'a [u8],
    /// This thread's local memory.
    pub local: &'a [u8],
    pub consts: &'a [u8],
    pub params: &'a [u8],
}

/// Device memory as one thread sees it through generic addresses.
struct ThreadMemory<'a> {
    global: &'a GlobalMemory,
    regions: Regions<'a>,
}

impl ThreadMemory<'_> {
    /// The bytes from a generic address to the end of its region.
    fn region(&self, addr: u64) -> Result<&[u8], String> {
        let a = u32::try_from(addr).map_err(|_| format!("address {addr:#x} is beyond 32 bits"))?;
        let (space, off) = resolve(0, a);
        let (bytes, start): (&[u8], usize) = match space {
            Space::Global => (self.global.tail(off).ok_or_else(|| format!("address {addr:#x} is not allocated"))?, 0),
            Space::Shared => (self.regions.shared, off as usize),
            Space::Local => (self.regions.local, off as usize),
            Space::Const => (self.regions.consts, off as usize),
            Space::Param => (self.regions.params, off as usize),
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
fn vprintf(mem: &ThreadMemory, fmt_addr: u64, args_addr: u64) -> Result<Vec<u8>, (TrapKind, u64)> {
    mem.read_cstr(fmt_addr)
        .and_then(|fmt| {
            let args = if args_addr == 0 { &[][..] } else { mem.region(args_addr)? };
            printf::format(&fmt, args, mem).map_err(|e| e.to_string())
        })
        .map_err(|reason| (TrapKind::Printf { reason }, fmt_addr))
}

/// `__assertfail(message, file, line, function, ...)` for one thread, from
/// its argument registers a, a+1, ...
fn assert_fail(mem: &ThreadMemory, args: &[u32]) -> TrapKind {
    let pair = |k: usize| args[k] as u64 | (args[k + 1] as u64) << 32;
    let text = |addr: u64| mem.read_cstr(addr).map(|s| String::from_utf8_lossy(&s).into_owned()).unwrap_or_else(|e| format!("<{e}>"));
    TrapKind::AssertFail { message: text(pair(0)), file: text(pair(2)), line: args[4], function: text(pair(5)) }
}

/// Services one thread's system call `call` from its argument registers
/// `args` (a..a+6: `vprintf` format and argument-buffer pairs; `malloc`
/// size pair; `free` pointer pair; `__assertfail` message pair, file pair,
/// line, function pair): the result (for d and d+1), or the trap and its
/// address. `vprintf` output goes to `stdout`.
pub(crate) fn service(
    call: u32,
    args: &[u32; 7],
    global: &mut GlobalMemory,
    regions: Regions,
    stdout: &mut Vec<u8>,
) -> Result<u64, (TrapKind, Option<u64>)> {
    let pair = |k: usize| args[k] as u64 | (args[k + 1] as u64) << 32;
    match call {
        VPRINTF => {
            let out = vprintf(&ThreadMemory { global, regions }, pair(0), pair(2)).map_err(|(k, a)| (k, Some(a)))?;
            stdout.extend_from_slice(&out);
            Ok(out.len() as u64)
        }
        MALLOC => Ok(global.malloc(pair(0)) as u64),
        FREE if global.free(pair(0)) => Ok(0),
        FREE => Err((TrapKind::BadFree, Some(pair(0)))),
        _ => Err((assert_fail(&ThreadMemory { global, regions }, args), None)),
    }
}
