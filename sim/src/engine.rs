//! The engines a launch runs on, named once: the CLI (`--engine`, a clap
//! `ValueEnum` with the `clap` feature), launch manifests and the
//! benchmarks take an [`Engine`].

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Engine {
    /// The golden model: the ISA interpreter every engine is held against.
    Golden,
    /// The PTX reference interpreter: PTX run directly, the compiler's oracle.
    Ptx,
    /// The rust-hdl SM, simulated cycle by cycle.
    Rtl,
    /// The SM's exported Verilog under Verilator (`crate::verilator`).
    Verilator,
}

impl Engine {
    pub const ALL: [Engine; 4] = [Engine::Golden, Engine::Ptx, Engine::Rtl, Engine::Verilator];

    pub fn name(self) -> &'static str {
        match self {
            Engine::Golden => "golden",
            Engine::Ptx => "ptx",
            Engine::Rtl => "rtl",
            Engine::Verilator => "verilator",
        }
    }

    /// Runs compiled code (an object), not PTX.
    pub fn runs_objects(self) -> bool {
        self != Engine::Ptx
    }

    /// Counts cycles (its timeline is in cycles, `--max-cycles` applies).
    pub fn has_cycles(self) -> bool {
        matches!(self, Engine::Rtl | Engine::Verilator)
    }

    /// Whether this build can run it; the error says why not.
    pub fn available(self) -> Result<Engine, String> {
        match self {
            Engine::Verilator => crate::verilator::verilator_version().map(|_| self),
            e => Ok(e),
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Engine {
    type Err = String;

    fn from_str(s: &str) -> Result<Engine, String> {
        Engine::ALL.into_iter().find(|e| e.name() == s).ok_or_else(|| format!("unknown engine `{s}` (golden, ptx, rtl, verilator)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for e in Engine::ALL {
            assert_eq!(e.name().parse::<Engine>(), Ok(e));
        }
        assert!("gold".parse::<Engine>().is_err());
    }
}
