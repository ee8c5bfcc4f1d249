//! Runs a checked launch on a [`Device`]'s engine: the golden model, the
//! PTX interpreter (for a PTX device) or the RTL. Kept apart from `device`
//! so that the engines, which take a `Device`, and the dispatch to them
//! form no import circle.

use crate::device::Device;
use crate::launch::{Launch, LaunchError, NoTrace, Outcome, Tracer};

impl Device {
    /// Runs a launch on the RTL streaming multiprocessor: the rust-hdl SM,
    /// or with `opts.verilator` its Verilog under Verilator.
    pub fn launch_rtl<T: Tracer>(
        &mut self,
        l: &Launch,
        opts: &crate::rtl::RtlOptions,
        tracer: &mut T,
    ) -> Result<crate::rtl::RtlOutcome, LaunchError> {
        if self.ptx.is_some() {
            return Err(LaunchError::Rtl("the RTL runs compiled programs, not PTX".into()));
        }
        let k = self.check_launch(l)?;
        self.launches += 1;
        if opts.verilator {
            crate::rtl::run_on(&crate::verilator::VlSm::new, self, &k, l, opts, tracer)
        } else {
            crate::rtl::run(self, &k, l, opts, tracer)
        }
    }

    /// Runs a launch on the golden model.
    pub fn launch(&mut self, l: &Launch) -> Result<Outcome, LaunchError> {
        self.launch_traced(l, &mut NoTrace)
    }

    /// Runs a launch on the golden model, handing each retire record to `tracer`.
    pub fn launch_traced<T: Tracer>(&mut self, l: &Launch, tracer: &mut T) -> Result<Outcome, LaunchError> {
        let k = self.check_launch(l)?;
        self.launches += 1;
        if let Some(p) = self.ptx.clone() {
            let idx = p.func_index[&k.name];
            let watch = crate::limits::Watch::new(&self.limits, self.progress.clone());
            return Ok(crate::ptx::run(&p, idx, &mut self.global, &self.config, l, self.launches, watch, tracer));
        }
        Ok(crate::golden::run(self, &k, l, tracer))
    }
}
