//! Limits that end a runaway launch on every engine, and progress reports
//! for long ones.
//!
//! Three limits stop a launch, each as a trap (a result, with the warp and
//! pc it stopped at), never a hang:
//! - the warp-instruction budget (`SmConfig::instruction_budget`, every
//!   engine; the RTL SM counts it in hardware);
//! - [`Limits::max_cycles`], on the cycle engines (rtl);
//! - [`Limits::timeout`], wall-clock time, on every engine.
//!
//! Engines poll a [`Watch`] once per warp instruction (golden, ptx) or per
//! cycle (rtl); it reads the clock every [`Watch::EVERY`] polls, so the
//! limits cost nothing measurable, and hands a [`Progress`] to the
//! reporter, if there is one, a few times a second after the first second.

use crate::trap::TrapKind;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a launch may take beyond its instruction budget.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time a launch may run (None: no limit).
    pub timeout: Option<Duration>,
    /// Cycles a launch may take on a cycle engine (None: the RTL engine's
    /// own guard, 64 cycles per instruction of the budget).
    pub max_cycles: Option<u64>,
}

/// A long launch's state, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    pub elapsed: Duration,
    pub warp_instructions: u64,
    /// Cycles so far (cycle engines).
    pub cycles: Option<u64>,
    /// CTAs started so far, of `ctas`.
    pub ctas_started: u64,
    pub ctas: u64,
}

/// Receives progress reports (the CLI draws them with indicatif).
pub type Reporter = Arc<dyn Fn(&Progress) + Send + Sync>;

/// One launch's clock: its deadline and its next progress report.
pub struct Watch {
    start: Instant,
    timeout: Option<Duration>,
    reporter: Option<Reporter>,
    next_report: Duration,
    polls: u32,
}

impl Watch {
    /// Polls between two readings of the clock (a power of two).
    pub const EVERY: u32 = 4096;
    /// No report before this, so short launches draw nothing.
    const FIRST_REPORT: Duration = Duration::from_secs(1);
    const REPORT_EVERY: Duration = Duration::from_millis(100);

    pub fn new(limits: &Limits, reporter: Option<Reporter>) -> Watch {
        Watch { start: Instant::now(), timeout: limits.timeout, reporter, next_report: Self::FIRST_REPORT, polls: 0 }
    }

    /// Counts a poll; every `EVERY` polls reads the clock, reports progress
    /// (built by `progress` only then) and returns the trap for a launch
    /// past its timeout.
    #[inline]
    pub fn poll(&mut self, progress: impl FnOnce() -> Progress) -> Result<(), TrapKind> {
        self.polls = self.polls.wrapping_add(1);
        if self.polls & (Self::EVERY - 1) != 0 {
            return Ok(());
        }
        self.check(progress)
    }

    /// One more warp instruction on an untimed engine (the golden model,
    /// the PTX interpreter): counts it, and stops the launch as runaway past
    /// `budget` or past its timeout.
    #[inline]
    pub fn count(&mut self, warp_instructions: &mut u64, budget: u64, ctas_started: u64, ctas: u64) -> Result<(), TrapKind> {
        *warp_instructions += 1;
        if *warp_instructions > budget {
            return Err(TrapKind::Runaway { budget });
        }
        let n = *warp_instructions;
        self.poll(|| progress(n, None, ctas_started, ctas))
    }

    #[cold]
    fn check(&mut self, progress: impl FnOnce() -> Progress) -> Result<(), TrapKind> {
        let elapsed = self.start.elapsed();
        if let Some(t) = self.timeout.filter(|&t| elapsed > t) {
            return Err(TrapKind::TimeLimit { seconds: t.as_secs() });
        }
        if let Some(r) = &self.reporter {
            if elapsed >= self.next_report {
                r(&Progress { elapsed, ..progress() });
                self.next_report = elapsed + Self::REPORT_EVERY;
            }
        }
        Ok(())
    }
}

/// The elapsed part of a [`Progress`] is the watch's own; engines fill the rest.
pub fn progress(warp_instructions: u64, cycles: Option<u64>, ctas_started: u64, ctas: u64) -> Progress {
    Progress { elapsed: Duration::ZERO, warp_instructions, cycles, ctas_started, ctas }
}
