//! The 32-bit address map shared by every engine.
//!
//! Generic addresses (and `global` ones) are 32 bits. Global memory lies
//! below [`GLOBAL_LIMIT`]; the top 64 MiB hold windows through which generic
//! addresses reach the other state spaces, as PTX 2.0+ generic addressing
//! (`cvta`) requires:
//!
//! | window | base | reaches |
//! |---|---|---|
//! | param  | `0xFC00_0000` | the kernel's parameter space |
//! | const  | `0xFD00_0000` | the constant bank |
//! | shared | `0xFE00_0000` | the executing CTA's shared memory |
//! | local  | `0xFF00_0000` | the executing thread's local memory |
//!
//! Addresses below [`NULL_LIMIT`] fault (null-pointer page).

/// Addresses below this fault.
pub const NULL_LIMIT: u32 = 0x1000;
/// Where a module's `.global` data is loaded.
pub const MODULE_GLOBAL_BASE: u32 = 0x1000;
pub const PARAM_WINDOW: u32 = 0xFC00_0000;
pub const CONST_WINDOW: u32 = 0xFD00_0000;
pub const SHARED_WINDOW: u32 = 0xFE00_0000;
pub const LOCAL_WINDOW: u32 = 0xFF00_0000;
/// Size of each window.
pub const WINDOW_SIZE: u32 = 0x0100_0000;
/// Global memory lies below this address.
pub const GLOBAL_LIMIT: u32 = PARAM_WINDOW;
/// Bytes an access of each `Width` code (u8, s8, u16, s16, b32, b64, b128) moves.
pub const WIDTH_BYTES: [u32; 7] = [1, 1, 2, 2, 4, 8, 16];

/// `v` rounded up to a multiple of `a` (an alignment of 0 counts as 1):
/// how every layout in the compiler and the PTX interpreter places data.
pub fn align_up(v: u32, a: u32) -> u32 {
    v.div_ceil(a.max(1)) * a.max(1)
}
