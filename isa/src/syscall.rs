//! The system calls of `syscall.N d, a`: the table every part reads. The
//! compiler lays a call's arguments out from it, the engines read the
//! argument registers and write the result registers it gives, and the ISA
//! reference prints it.

/// One system call.
#[derive(Debug)]
pub struct Syscall {
    /// The call number (`SysNo` value).
    pub no: u32,
    /// The name of the PTX function that calls it (`vprintf`, `__assertfail`).
    pub ptx: &'static str,
    /// The arguments, in order: what each is and its bytes (8: a register pair).
    pub args: &'static [(&'static str, u32)],
    /// The result written from `d`: what it is and its bytes (8: a pair).
    pub result: Option<(&'static str, u32)>,
    /// What happens instead of a result, for a call without one.
    pub effect: &'static str,
}

pub const VPRINTF: u32 = 0;
pub const MALLOC: u32 = 1;
pub const FREE: u32 = 2;
pub const ASSERTFAIL: u32 = 3;

/// Every call, in `SysNo` order.
pub static SYSCALLS: [Syscall; 4] = [
    Syscall {
        no: VPRINTF,
        ptx: "vprintf",
        args: &[("format address", 8), ("argument-buffer address", 8)],
        result: Some(("characters printed", 4)),
        effect: "",
    },
    Syscall { no: MALLOC, ptx: "malloc", args: &[("size", 8)], result: Some(("address, 0 when the heap is exhausted", 8)), effect: "" },
    Syscall { no: FREE, ptx: "free", args: &[("address", 8)], result: None, effect: "-" },
    Syscall {
        no: ASSERTFAIL,
        ptx: "__assertfail",
        args: &[("message", 8), ("file", 8), ("line", 4), ("function", 8), ("char size", 8)],
        result: None,
        effect: "the launch ends with an assertion trap",
    },
];

/// The `SysNo` modifier's names (the PTX names without leading underscores).
pub const NAMES: [&str; 4] = ["vprintf", "malloc", "free", "assertfail"];

impl Syscall {
    /// The call numbered `no`, if there is one.
    pub fn get(no: u32) -> Option<&'static Syscall> {
        SYSCALLS.get(no as usize)
    }
    /// The call a PTX module makes by declaring the function `name`.
    pub fn by_ptx_name(name: &str) -> Option<&'static Syscall> {
        SYSCALLS.iter().find(|s| s.ptx == name)
    }
    /// Argument registers, read from `a` on.
    pub fn arg_regs(&self) -> u8 {
        self.args.iter().map(|&(_, b)| b / 4).sum::<u32>() as u8
    }
    /// Result registers written from `d` on (`None`: `d` is not written).
    pub fn result_regs(&self) -> Option<u8> {
        self.result.map(|(_, b)| (b / 4) as u8)
    }
}

/// A table row of the ISA reference: `| name | arguments | result |`.
pub fn doc_row(s: &Syscall) -> String {
    let size = |b: u32| if b == 8 { "pair" } else { "r" };
    let args: Vec<String> = s.args.iter().map(|&(what, b)| format!("{what} ({})", size(b))).collect();
    let result = s.result.map_or(s.effect.to_string(), |(what, b)| match what.split_once(", ") {
        Some((head, tail)) => format!("{head} ({}), {tail}", size(b)),
        None => format!("{what} ({})", size(b)),
    });
    format!("| `{}` | {} | {result} |", NAMES[s.no as usize], args.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_index_the_table() {
        for (k, s) in SYSCALLS.iter().enumerate() {
            assert_eq!(s.no as usize, k);
            assert_eq!(s.ptx.trim_start_matches('_'), NAMES[k]);
        }
        assert_eq!(Syscall::get(ASSERTFAIL).map(Syscall::arg_regs), Some(9));
        assert_eq!(Syscall::get(MALLOC).and_then(Syscall::result_regs), Some(2));
    }
}
