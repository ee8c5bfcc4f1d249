//! The host API: a device with one loaded module and its global memory
//! (allocate, copy, check a launch). The engines take a `Device`;
//! `dispatch` runs a launch on one of them.

use crate::launch::{Launch, LaunchError};
use crate::memory::GlobalMemory;
use heddle_hw::SmConfig;
use heddle_isa::object::Kernel;
use heddle_isa::Object;

/// A 32-bit device address, passed to kernels zero-extended to 64 bits.
pub type DevPtr = u64;

/// A simulated device: an SM configuration, global memory and one module.
pub struct Device {
    pub config: SmConfig,
    pub global: GlobalMemory,
    /// The loaded module (for PTX: its host-side facade).
    pub module: Object,
    /// Set when the module is PTX run by the reference interpreter.
    pub ptx: Option<std::sync::Arc<crate::ptx::Prog>>,
    /// Launches run so far (the `gridid` special register).
    pub launches: u32,
    /// The cycle and time limits of each launch (none by default).
    pub limits: crate::limits::Limits,
    /// Where long launches report progress (nowhere by default).
    pub progress: Option<crate::limits::Reporter>,
}

/// Device heap bytes (CUDA's default is 8 MiB).
pub const HEAP_BYTES: u32 = 8 << 20;

impl Device {
    /// A device with `module` loaded: its global data at `MODULE_GLOBAL_BASE`.
    pub fn new(config: SmConfig, module: Object) -> Result<Device, LaunchError> {
        config.validate()?;
        if module.code.len() > heddle_isa::fields::MAX_CODE as usize {
            return Err(LaunchError::Program(heddle_isa::fields::too_long(module.code.len())));
        }
        let mut global = GlobalMemory::new(HEAP_BYTES);
        if !module.global_data.is_empty() {
            let base = global.alloc(module.global_data.len() as u32)?;
            debug_assert_eq!(base, heddle_isa::mem::MODULE_GLOBAL_BASE);
            global.write(base as u64, &module.global_data)?;
        }
        Ok(Device { config, global, module, ptx: None, launches: 0, limits: Default::default(), progress: None })
    }

    /// A device running a PTX module on the reference interpreter.
    pub fn from_ptx(config: SmConfig, prog: crate::ptx::Prog) -> Result<Device, LaunchError> {
        let mut d = Device::new(config, crate::ptx::facade(&prog))?;
        d.ptx = Some(std::sync::Arc::new(prog));
        Ok(d)
    }

    pub fn alloc(&mut self, bytes: u32) -> Result<DevPtr, LaunchError> {
        Ok(self.global.alloc(bytes)? as DevPtr)
    }

    pub fn write(&mut self, ptr: DevPtr, data: &[u8]) -> Result<(), LaunchError> {
        Ok(self.global.write(ptr, data)?)
    }

    pub fn read(&self, ptr: DevPtr, len: usize) -> Result<Vec<u8>, LaunchError> {
        Ok(self.global.read(ptr, len)?.to_vec())
    }

    /// Predicate registers the module's code names (p0..p6; `pt` is not one).
    fn preds_used(&self) -> u8 {
        let preds = self.module.code.iter().filter_map(|&w| heddle_isa::Inst::decode(w).ok()).flat_map(|i| i.pred_fields());
        preds.filter(|&p| p != heddle_isa::fields::PT).map(|p| p + 1).max().unwrap_or(0)
    }

    /// Checks a launch against the module and the SM; returns the kernel.
    pub fn check_launch(&self, l: &Launch) -> Result<Kernel, LaunchError> {
        let k = self.module.kernel(&l.kernel).ok_or_else(|| LaunchError::NoKernel(l.kernel.clone()))?.clone();
        if l.grid.contains(&0) || l.block.contains(&0) {
            return Err(LaunchError::Shape(format!("grid {:?} and block {:?} must be at least 1 in every dimension", l.grid, l.block)));
        }
        let threads = l.block.iter().map(|&v| v as u64).product::<u64>();
        let c = &self.config;
        let res = |what, need: u64, have: u64| {
            if need > have {
                Err(LaunchError::Resources { kernel: k.name.clone(), what, need, have })
            } else {
                Ok(())
            }
        };
        res("threads per CTA", threads, c.max_cta_threads() as u64)?;
        res("registers per thread", k.regs as u64, c.regs_per_thread as u64)?;
        res("predicate registers", self.preds_used() as u64, c.preds as u64)?;
        res("shared bytes", k.shared_bytes as u64 + l.dynamic_shared as u64, c.shared_bytes as u64)?;
        res("local bytes per thread", k.local_bytes as u64, c.local_bytes as u64)?;
        if l.grid.iter().map(|&v| v as u64).product::<u64>() > u32::MAX as u64 {
            return Err(LaunchError::Shape("more than 2^32 CTAs".into()));
        }
        if l.params.len() != k.param_bytes as usize {
            return Err(LaunchError::Params { kernel: k.name.clone(), want: k.param_bytes, got: l.params.len() as u32 });
        }
        Ok(k)
    }
}
