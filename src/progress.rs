//! Progress of long work on stderr, drawn with indicatif: launches that run
//! longer than a second (cycles, warp instructions, rate, CTAs) and the
//! benchmarks' cases. Only where stderr is a terminal and `--quiet` was not
//! given; the line is cleared when the work ends, so what is printed after
//! it (results, reports) is the same with and without it.

use heddle_sim::limits::{Progress, Reporter};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Arc;

/// A status line (a spinner and a message), or nothing.
pub struct Status {
    bar: Option<ProgressBar>,
}

impl Status {
    /// A status line on stderr when it is a terminal and `quiet` is false.
    pub fn new(quiet: bool) -> Status {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed:>4} {msg}").unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar
        });
        Status { bar }
    }

    /// Shows `msg` (bench: the case being measured).
    pub fn say(&self, msg: String) {
        if let Some(b) = &self.bar {
            b.set_message(msg);
            b.tick();
        }
    }

    /// The reporter a device hands a launch's progress to (none without a line).
    pub fn reporter(&self) -> Option<Reporter> {
        let bar = self.bar.clone()?;
        Some(Arc::new(move |p: &Progress| {
            bar.set_message(describe(p));
            bar.tick();
        }))
    }
}

impl Drop for Status {
    fn drop(&mut self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// `cycle 1.2M, 40.1k warp instructions, 150k cycles/s, CTA 3 of 8`.
fn describe(p: &Progress) -> String {
    let secs = p.elapsed.as_secs_f64().max(1e-9);
    let counted = match p.cycles {
        Some(c) => {
            format!("cycle {}, {} warp instructions, {} cycles/s", si(c as f64), si(p.warp_instructions as f64), si(c as f64 / secs))
        }
        None => format!("{} warp instructions, {}/s", si(p.warp_instructions as f64), si(p.warp_instructions as f64 / secs)),
    };
    format!("{counted}, CTA {} of {}", p.ctas_started, p.ctas)
}

/// 1234567 as `1.23M`.
fn si(x: f64) -> String {
    match x {
        x if x >= 1e9 => format!("{:.2}G", x / 1e9),
        x if x >= 1e6 => format!("{:.2}M", x / 1e6),
        x if x >= 1e3 => format!("{:.1}k", x / 1e3),
        x => format!("{x:.0}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn progress_reads_as_figures() {
        let p = Progress { elapsed: Duration::from_secs(2), warp_instructions: 40_100, cycles: Some(1_234_567), ctas_started: 3, ctas: 8 };
        assert_eq!(describe(&p), "cycle 1.23M, 40.1k warp instructions, 617.3k cycles/s, CTA 3 of 8");
        let g = Progress { cycles: None, warp_instructions: 3_000_000_000, ..p };
        assert_eq!(describe(&g), "3.00G warp instructions, 1.50G/s, CTA 3 of 8");
    }

    #[test]
    fn no_line_when_quiet() {
        assert!(Status::new(true).reporter().is_none());
    }
}
