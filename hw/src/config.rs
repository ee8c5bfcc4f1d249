//! `SmConfig`: every knob of the streaming multiprocessor, in one place.

use serde::{Deserialize, Serialize};

/// The parameters of one streaming multiprocessor. Derived values are methods.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SmConfig {
    /// Datapath width: lanes that execute in one beat. A warp instruction
    /// takes `warp_size / lanes` beats.
    pub lanes: u32,
    /// Threads per warp (a power of two, 1..=64).
    pub warp_size: u32,
    /// Warp slots per SM (resident warps across all resident CTAs).
    pub warps: u32,
    /// CTAs resident at once.
    pub ctas: u32,
    /// General registers per thread (the ISA addresses at most 127).
    pub regs_per_thread: u32,
    /// Predicate registers per thread, besides the constant-true one (the ISA has 7).
    pub preds: u32,
    /// Shared memory bytes per SM.
    pub shared_bytes: u32,
    /// Shared memory banks (4-byte wide).
    pub shared_banks: u32,
    /// Reconvergence-stack entries per warp; pushing beyond traps.
    pub stack_depth: u32,
    /// Local memory (per-thread stack) bytes per thread, at most.
    pub local_bytes: u32,
    /// The FP32 unit is present.
    pub fp32: bool,
    /// The binary64 unit is present.
    pub fp64: bool,
    /// The lanes' integer dividers are present (`div`, `rem`, `div64`,
    /// `rem64`; combinational, the largest part of a lane). Without them
    /// those instructions trap as not implemented, as FP ones do without
    /// FP units.
    #[serde(default = "yes")]
    pub int_div: bool,
    /// The lanes' 64 x 64-bit multipliers are present (`mul64`: twelve of a
    /// lane ALU's sixteen 18 x 18 DSP blocks). Without them `mul64` traps as
    /// not implemented, and the compiler builds 64-bit products, low and
    /// high halves, from 32-bit multiplies.
    #[serde(default = "yes")]
    pub mul64: bool,
    /// The lanes' 64-bit shifters are present (`shl64`, `shr64`). Without
    /// them those trap as not implemented, and the compiler shifts 64-bit
    /// values with 32-bit shifts, a funnel shift and a select.
    #[serde(default = "yes")]
    pub shift64: bool,
    /// Data width in bits of the SM's Wishbone bus to external memory
    /// (`Sm::wb_*`): one transfer moves one aligned word of this width, and
    /// consecutive lanes in one word share a transfer.
    pub bus_bits: u32,
    /// Warp instructions a launch may retire before it is stopped as runaway.
    pub instruction_budget: u64,
    /// Instruction memory words (64-bit instructions) the RTL holds.
    #[serde(default = "default_imem_words")]
    pub imem_words: u32,
}

fn yes() -> bool {
    true
}

fn default_imem_words() -> u32 {
    1 << 16
}

/// The optional units of an SM (`SmConfig::units`): opcodes of a missing
/// one decode as not implemented, and its hardware is not built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Units {
    pub fp32: bool,
    pub fp64: bool,
    pub int_div: bool,
    pub mul64: bool,
    pub shift64: bool,
}

impl Units {
    /// Every unit.
    pub const ALL: Units = Units { fp32: true, fp64: true, int_div: true, mul64: true, shift64: true };
}

impl Default for Units {
    fn default() -> Units {
        Units::ALL
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("impossible SM configuration: {0}")]
pub struct ConfigError(pub String);

impl SmConfig {
    /// The smallest preset, meant for an iCE40 HX8K (it does not fit yet: see
    /// the README): 4 lanes, warps of 8, 16 registers, no FP units, 1,024
    /// instruction words (the largest of `tests/tiny`'s kernels is about
    /// 560; 2,048 took the HX8K's 32 block RAMs alone).
    pub fn tiny() -> SmConfig {
        SmConfig {
            lanes: 4,
            warp_size: 8,
            warps: 4,
            ctas: 1,
            regs_per_thread: 16,
            preds: 7,
            shared_bytes: 2048,
            shared_banks: 4,
            stack_depth: 8,
            local_bytes: 256,
            fp32: false,
            fp64: false,
            int_div: false,
            mul64: false,
            shift64: false,
            bus_bits: 32,
            instruction_budget: 100_000_000,
            imem_words: 1024,
        }
    }

    /// The configuration tests and benchmarks use, sized for the block RAM
    /// of an ECP5 LFE5U-85F (208 DP16KD; `heddle synth` checks it): 8 lanes,
    /// 16 warps of 32 threads, 32 registers per thread (the compiler spills
    /// beyond), 48 KiB of shared memory in 8 banks, 4,096 instruction
    /// words. The register files take 96 DP16KD: 8 lanes x 3 read ports x
    /// 2,048 words of 36 bits. A bank per lane: a beat's 8 consecutive
    /// words never conflict; 32 banks made the crossbar three times the
    /// size and saved cycles in one corpus kernel (`docs/fpga.md`).
    /// FP32 and FP64 (the corpus has binary64 kernels; a shared, iterative
    /// FP64 unit is issue 21's plan). No 64-bit multipliers or shifters in
    /// the lanes (`mul64`, `shift64`): the compiler builds those from 32-bit
    /// instructions, and the lanes need 4 DSP blocks each instead of 16.
    pub fn default_config() -> SmConfig {
        SmConfig {
            lanes: 8,
            warp_size: 32,
            warps: 16,
            ctas: 8,
            regs_per_thread: 32,
            preds: 7,
            shared_bytes: 48 * 1024,
            shared_banks: 8,
            stack_depth: 64,
            local_bytes: 64 * 1024,
            fp32: true,
            fp64: true,
            int_div: true,
            mul64: false,
            shift64: false,
            bus_bits: 256,
            instruction_budget: 1_000_000_000,
            imem_words: 4096,
        }
    }

    /// For simulation and parts larger than an 85F: 32 lanes (a whole warp
    /// per beat), 32 warps, 127 registers, 65,536 instruction words.
    pub fn wide() -> SmConfig {
        SmConfig { lanes: 32, warps: 32, regs_per_thread: 127, imem_words: default_imem_words(), ..SmConfig::default_config() }
    }

    pub fn preset(name: &str) -> Option<SmConfig> {
        match name {
            "tiny" => Some(SmConfig::tiny()),
            "default" => Some(SmConfig::default_config()),
            "wide" => Some(SmConfig::wide()),
            _ => None,
        }
    }

    /// Which optional units the SM has: what its decoder and lanes are built with.
    pub fn units(&self) -> Units {
        Units { fp32: self.fp32, fp64: self.fp64, int_div: self.int_div, mul64: self.mul64, shift64: self.shift64 }
    }

    /// Beats per warp instruction.
    pub fn beats(&self) -> u32 {
        self.warp_size / self.lanes
    }

    /// Largest CTA in threads.
    pub fn max_cta_threads(&self) -> u32 {
        self.warps * self.warp_size
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        let err = |m: String| Err(ConfigError(m));
        let pow2 = |v: u32| v != 0 && v.is_power_of_two();
        if !pow2(self.warp_size) || self.warp_size > 64 {
            return err(format!("warp_size {} must be a power of two from 1 to 64", self.warp_size));
        }
        if !pow2(self.lanes) || self.lanes > self.warp_size {
            return err(format!("lanes {} must be a power of two no larger than warp_size {}", self.lanes, self.warp_size));
        }
        if self.warps == 0 || self.ctas == 0 || self.ctas > self.warps {
            return err(format!("{} CTAs on {} warp slots", self.ctas, self.warps));
        }
        if self.regs_per_thread == 0 || self.regs_per_thread > heddle_isa::fields::NUM_REGS as u32 {
            return err(format!("regs_per_thread {} must be 1..={}", self.regs_per_thread, heddle_isa::fields::NUM_REGS));
        }
        if self.preds > 7 {
            return err(format!("preds {} exceeds the ISA's 7", self.preds));
        }
        if !pow2(self.shared_banks) || !(2..=32).contains(&self.shared_banks) {
            return err(format!("shared_banks {} must be a power of two from 2 to 32", self.shared_banks));
        }
        let row_bytes = 4 * self.shared_banks;
        if self.shared_bytes % row_bytes != 0 || self.shared_bytes / row_bytes > 1 << 16 {
            return err(format!(
                "shared_bytes {} must be a multiple of {row_bytes} (4 bytes x shared_banks) and at most 65536 rows",
                self.shared_bytes
            ));
        }
        if self.shared_bytes > heddle_isa::mem::WINDOW_SIZE || self.local_bytes > heddle_isa::mem::WINDOW_SIZE {
            return err("shared or local memory larger than its 16 MiB address window".into());
        }
        if self.stack_depth < 2 {
            return err(format!("stack_depth {} must be at least 2", self.stack_depth));
        }
        if ![32, 64, 128, 256].contains(&self.bus_bits) {
            return err(format!("bus_bits {} must be 32, 64, 128 or 256", self.bus_bits));
        }
        if !pow2(self.imem_words) || self.imem_words > 1 << 16 {
            return err(format!("imem_words {} must be a power of two up to 65536", self.imem_words));
        }
        if self.warps > 64 || self.stack_depth > 128 {
            return err(format!(
                "{} warps (at most 64) or stack depth {} (at most 128) beyond the RTL's fields",
                self.warps, self.stack_depth
            ));
        }
        Ok(())
    }
}

impl Default for SmConfig {
    fn default() -> Self {
        SmConfig::default_config()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_valid() {
        for p in ["tiny", "default", "wide"] {
            SmConfig::preset(p).unwrap().validate().unwrap();
        }
        assert_eq!(SmConfig::default().beats(), 4);
    }

    #[test]
    fn impossible_configs_are_errors() {
        let bad = [
            SmConfig { warp_size: 48, ..SmConfig::default() },
            SmConfig { lanes: 64, ..SmConfig::default() },
            SmConfig { regs_per_thread: 200, ..SmConfig::default() },
            SmConfig { ctas: 64, ..SmConfig::default() },
            SmConfig { stack_depth: 1, ..SmConfig::default() },
            SmConfig { shared_banks: 1, ..SmConfig::default() },
            SmConfig { shared_bytes: 1000, ..SmConfig::default() },
        ];
        for c in bad {
            let e = c.validate().unwrap_err();
            assert!(e.to_string().starts_with("impossible SM configuration"));
        }
    }
}
