//! Planted bugs: named, deliberate faults in the SM, for measuring how
//! fast `heddle fuzz` finds a bug (issue 19, "Planted bugs";
//! `heddle fuzz --plants` runs a campaign against each, docs/fuzzing.md).
//!
//! At most one is active, per thread: the one [`set`] chose, else the one
//! `$HEDDLE_PLANT` names (read once; an unknown name is [`env_error`]). A block reads [`active`] when it is
//! built, so a plant changes only SMs built after it was chosen:
//!
//! - [`Layer::Rtl`] plants live in the SM's logic. Those in `#[hdl_gen]`
//!   code test a bit of the block's `plant` constant ([`Plant::bit`]; a
//!   `localparam` in the Verilog), so both the rust-hdl SM and its Verilog
//!   carry them; those in a custom block's Rust model are on the rust-hdl
//!   SM only.
//! - [`Layer::Verilog`] plants are in the hand-written Verilog of a custom
//!   block: only the Verilator engine carries them (its model cache keys on
//!   the Verilog, so a planted build never serves a clean run).
//!
//! With no plant chosen every block is the real one: `mask()` is 0 and the
//! planted branches are constant-false.

use std::cell::Cell;
use std::sync::OnceLock;

/// Where a plant lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    /// In the SM's logic (rust-hdl, and the Verilog generated from it).
    Rtl,
    /// In a custom block's hand-written Verilog only.
    Verilog,
}

macro_rules! plants {
    ($($v:ident = $bit:literal, $name:literal, $layer:ident, $area:literal, $what:literal;)*) => {
        /// One planted bug (see the module doc).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Plant { $($v),* }

        impl Plant {
            pub const ALL: &'static [Plant] = &[$(Plant::$v),*];

            /// Its name on the command line and in `$HEDDLE_PLANT`.
            pub fn name(self) -> &'static str {
                match self { $(Plant::$v => $name),* }
            }

            /// Its bit in a block's `plant` constant.
            pub fn bit(self) -> usize {
                match self { $(Plant::$v => $bit),* }
            }

            pub fn layer(self) -> Layer {
                match self { $(Plant::$v => Layer::$layer),* }
            }

            /// The part of the SM it breaks.
            pub fn area(self) -> &'static str {
                match self { $(Plant::$v => $area),* }
            }

            /// What is wrong.
            pub fn what(self) -> &'static str {
                match self { $(Plant::$v => $what),* }
            }
        }
    };
}

plants! {
    StackWalkShort = 0, "stack-walk-short", Rtl, "reconvergence stack",
        "`ret`/`exit` clear the leaving lanes from every entry but the bottom one";
    StackOverflowLate = 1, "stack-overflow-late", Rtl, "reconvergence stack",
        "the overflow check lets one push past `stack_depth` through (no trap)";
    SchedIgnoresWait = 2, "sched-ignores-wait", Rtl, "scheduler",
        "warp 1 stays ready while it waits at a barrier";
    BarEarly = 3, "bar-early", Rtl, "barriers",
        "a barrier completes when all but one of the CTA's live threads arrived";
    CoalesceWord = 4, "coalesce-word", Rtl, "coalescer",
        "lanes in adjacent bus words (differing only in the word's lowest address bit) share a transfer";
    WbReadPart = 5, "wb-read-part", Rtl, "Wishbone master",
        "an acknowledged read of a multi-word access is placed by the part being issued, not the part acknowledged";
    SmemBroadcastRow = 6, "smem-broadcast-row", Rtl, "shared-memory banking",
        "a load joins another lane's bank access (a broadcast) without comparing rows";
    ShflUpEdge = 7, "shfl-up-edge", Rtl, "shuffle",
        "`shfl.up`: the source lane equal to the segment's first lane counts as out of range";
    VoteAnyInactive = 8, "vote-any-inactive", Rtl, "vote",
        "`vote.any` also counts the predicate of lanes that do not execute";
    AluCmpLe = 9, "alu-v-cmp-le", Verilog, "ALU (hand-written Verilog)",
        "32-bit unsigned `le` compares with `<`";
    FpuTiesDown = 10, "fpu-v-ties-down", Verilog, "FPU (hand-written Verilog)",
        "round-to-nearest-even rounds every tie down (toward zero)";
    WbSelUnshifted = 11, "wbl-v-sel", Verilog, "byte steering (hand-written Verilog)",
        "a store narrower than the bus word enables the bytes at the word's start, not at its offset";
}

impl std::str::FromStr for Plant {
    type Err = String;

    fn from_str(s: &str) -> Result<Plant, String> {
        Plant::ALL.iter().copied().find(|p| p.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Plant::ALL.iter().map(|p| p.name()).collect();
            format!("unknown planted bug `{s}` (one of: {})", names.join(", "))
        })
    }
}

thread_local! {
    /// `Some(choice)` once `set` was called on this thread.
    static CHOSEN: Cell<Option<Option<Plant>>> = const { Cell::new(None) };
}

/// What `$HEDDLE_PLANT` says: no plant, one, or a name that is none (an
/// error the command line reports before it builds anything: see
/// [`env_error`]; blocks then carry no plant).
fn from_env() -> &'static Result<Option<Plant>, String> {
    static ENV: OnceLock<Result<Option<Plant>, String>> = OnceLock::new();
    ENV.get_or_init(|| match std::env::var("HEDDLE_PLANT") {
        Ok(v) if !v.is_empty() => v.parse().map(Some).map_err(|e| format!("$HEDDLE_PLANT: {e}")),
        _ => Ok(None),
    })
}

/// The error of an unknown `$HEDDLE_PLANT`: a run that silently carried no
/// plant would report the bug as not found.
pub fn env_error() -> Option<String> {
    from_env().as_ref().err().cloned()
}

/// The plant blocks built on this thread carry.
pub fn active() -> Option<Plant> {
    CHOSEN.with(|c| c.get()).unwrap_or_else(|| from_env().clone().unwrap_or(None))
}

/// Chooses the plant of blocks built on this thread from now on (`None`:
/// none, whatever `$HEDDLE_PLANT` says).
pub fn set(p: Option<Plant>) {
    CHOSEN.with(|c| c.set(Some(p)));
}

/// Whether `p` is the active plant.
pub fn is(p: Plant) -> bool {
    active() == Some(p)
}

/// The active plant's bit (0 with none): a block's `plant` constant.
pub fn mask() -> u64 {
    active().map_or(0, |p| 1 << p.bit())
}

/// A custom block's hand-written Verilog with the [`Layer::Verilog`] plant
/// `p` applied when it is active: the one occurrence of `from` becomes
/// `to` (a text that lost its line is a broken plant: it panics, and the
/// plant tests build every plant's Verilog).
pub fn patch(p: Plant, verilog: String, from: &str, to: &str) -> String {
    if !is(p) {
        return verilog;
    }
    assert_eq!(verilog.matches(from).count(), 1, "planted bug {}: `{from}` is not in the Verilog once", p.name());
    verilog.replace(from, to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_bits_and_choice() {
        for (i, p) in Plant::ALL.iter().enumerate() {
            assert_eq!(p.bit(), i, "bits are the declaration order");
            assert_eq!(p.name().parse::<Plant>(), Ok(*p));
        }
        assert!("stack".parse::<Plant>().is_err());
        set(Some(Plant::BarEarly));
        assert!(is(Plant::BarEarly) && mask() == 1 << 3);
        set(None);
        assert_eq!((active(), mask()), (None, 0));
    }

    /// The ALU's plant still finds its line (`patch` asserts it), and
    /// changes only the 32-bit comparison.
    #[test]
    fn the_alu_plant_patches_its_block() {
        use rust_hdl::prelude::Logic;
        let text = |b: &crate::alu::IntAlu| match b.hdl() {
            rust_hdl::prelude::Verilog::Custom(s) => s,
            _ => unreachable!(),
        };
        let clean = text(&crate::alu::IntAlu::new(false, false));
        set(Some(Plant::AluCmpLe));
        let planted = text(&crate::alu::IntAlu::new(false, false));
        set(None);
        assert_ne!(clean, planted);
        assert!(planted.contains("4'd7: rel = lt | (eq & (op == OP_ISETP64));"));
    }
}
