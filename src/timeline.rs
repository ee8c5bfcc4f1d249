//! Pictures of a launch's schedule: the warp timeline of `heddle run
//! --timeline out.svg|out.html` and the bar chart of cycles by cause of
//! `--stats-svg out.svg` (docs/timeline.md shows and explains both).
//!
//! ```text
//! engine ──Retire──────────> Recorder ──> Timeline: per row (warp slot) runs
//! (rtl also ──Cycle──>)                   of one category, and the retires
//!                                           ├─> svg():  bins over the whole run
//!                                           ├─> html(): the runs + JS that re-bins
//!                                           │           the window on zoom and pan
//!                                           └─> totals() ─> stats_svg()
//! ```
//!
//! Time is the engine's: cycles on the RTL (from [`heddle_sim::launch::Cycle`],
//! the SM's own per-cycle classification), issue slots on the golden model
//! and the PTX interpreter (one per retired warp instruction, in the
//! engine's order). A row is a warp slot: on the RTL `slot << shift | warp`
//! of the CTA slots the SM holds at once, on the other engines (which run one
//! CTA at a time) the warp in its CTA. Each tick of a row has one category
//! ([`CATEGORIES`]): the unit that worked for the warp's instruction in
//! flight, a stall (memory, bank conflict, front end), a barrier, or a wait
//! at a barrier; ticks with none are a resident warp that another warp holds
//! the SM from. (The untimed engines do not report barrier waits: a warp
//! waits from its barrier instruction until a warp of its CTA that waited
//! issues again, which means the barrier completed.) A bin stacks the ticks of each category it holds, bottom up.
//! Under each row a strip shows the mean active lanes (reconvergence-stack
//! mask) of the warp's instructions retired in the bin: divergence is a dip.
//! CTA starts and ends are green and red lines over the rows of the CTA's
//! slot, with the CTA's index.

use heddle_isa::object::Object;
use heddle_isa::{Inst, Opcode, Unit};
use heddle_sim::launch::Tracer;
use heddle_sim::launch::{Cause, Cycle};
use heddle_sim::retire::Retire;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// A tick's category: a name, a colour and what it means.
pub struct Category {
    pub name: &'static str,
    pub colour: &'static str,
    pub what: &'static str,
}

/// Category indices into [`CATEGORIES`].
pub mod cat {
    pub const ALU: u8 = 0;
    pub const FPU: u8 = 1;
    pub const SFU: u8 = 2;
    pub const DPU: u8 = 3;
    pub const MEMORY: u8 = 4;
    pub const CONTROL: u8 = 5;
    pub const BARRIER: u8 = 6;
    pub const BANK_CONFLICT: u8 = 7;
    pub const FRONT_END: u8 = 8;
    pub const BARRIER_WAIT: u8 = 9;
    pub const CTA_SETUP: u8 = 10;
    pub const OTHER: u8 = 11;
}

/// Number of categories.
pub const NCAT: usize = 12;

/// The categories, in stacking order (bottom up) and legend order.
pub const CATEGORIES: [Category; NCAT] = [
    Category { name: "alu", colour: "#4e79a7", what: "integer ALU (division included), moves, predicates, special registers" },
    Category { name: "fpu", colour: "#59a14f", what: "FP32 arithmetic, comparisons, conversions, IEEE division and square root" },
    Category { name: "sfu", colour: "#b07aa1", what: "special-function unit" },
    Category { name: "dpu", colour: "#9c755f", what: "binary64 unit" },
    Category { name: "memory", colour: "#f28e2b", what: "loads, stores, atomics, system calls (rtl: their beats and bus waits)" },
    Category { name: "control", colour: "#76b7b2", what: "branches, calls, warp-wide operations (rtl: stack commands)" },
    Category { name: "barrier", colour: "#d37295", what: "a barrier instruction (rtl: arrive, check, release)" },
    Category { name: "bank conflict", colour: "#e15759", what: "rtl: a shared-memory pass waits on a busy bank" },
    Category { name: "front end", colour: "#79706e", what: "rtl: warp pick, stack pop, fetch, predicate reads not hidden" },
    Category { name: "barrier wait", colour: "#f4c6d7", what: "the warp waits at a barrier for the rest of its CTA" },
    Category { name: "CTA setup", colour: "#bab0ac", what: "rtl: a CTA's warps and thread ids initialised" },
    Category { name: "other", colour: "#d0d0d0", what: "rtl: dispatch, commit, cycles no counter counts" },
];

/// The time axis: RTL cycles, or issue slots of an untimed engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    Cycles,
    IssueSlots,
}

impl Axis {
    pub fn name(self) -> &'static str {
        match self {
            Axis::Cycles => "cycles",
            Axis::IssueSlots => "issue slots",
        }
    }
}

/// The category of an ISA instruction: its unit's (`barrier` for `bar` and `barred`).
pub fn category(op: Opcode) -> u8 {
    if matches!(op, Opcode::Bar | Opcode::Barred) {
        return cat::BARRIER;
    }
    match op.info().unit {
        Unit::Alu => cat::ALU,
        Unit::Fpu => cat::FPU,
        Unit::Sfu => cat::SFU,
        Unit::Dpu => cat::DPU,
        Unit::Lsu => cat::MEMORY,
        Unit::Ctl => cat::CONTROL,
    }
}

/// Each pc's mnemonic and category.
#[derive(Debug, Clone, Default)]
pub struct Labels(pub Vec<(String, u8)>);

impl Labels {
    /// From the code of an object: the decoded word's mnemonic with its
    /// modifiers (`shfl.idx`) and its unit's category.
    pub fn isa(obj: &Object) -> Labels {
        Labels(
            obj.code
                .iter()
                .map(|&w| match Inst::decode(w) {
                    Ok(i) => {
                        let text = i.to_string();
                        let m = text.split_whitespace().find(|t| !t.starts_with('@')).unwrap_or("?").to_string();
                        (m, category(i.op))
                    }
                    Err(_) => ("?".to_string(), cat::OTHER),
                })
                .collect(),
        )
    }

    /// From PTX run by the interpreter, whose pcs index the instructions of
    /// the function a warp is in: the kernel's instructions, named
    /// `op.space.types` with a category from the opcode (see
    /// docs/timeline.md). When the program defines other functions the
    /// retire record does not say which function a pc is in, so every
    /// instruction is `ptx`, category `other`.
    pub fn ptx(prog: &heddle_sim::ptx::Prog, kernel: &str) -> Labels {
        let defined = prog.funcs.iter().filter(|f| !f.external).count();
        let Some(f) = prog.func_index.get(kernel).map(|&i| &prog.funcs[i]) else { return Labels::default() };
        if defined > 1 {
            return Labels(vec![("ptx".to_string(), cat::OTHER); f.insts.len()]);
        }
        Labels(
            f.insts
                .iter()
                .map(|i| {
                    let mut m = i.op.name().to_string();
                    if let Some(s) = i.space {
                        m.push_str(s.name());
                    }
                    for t in &i.types {
                        m.push_str(t.name());
                    }
                    (m, ptx_category(i))
                })
                .collect(),
        )
    }

    /// The mnemonic and category of `pc` (`?`, other, outside the code).
    pub fn get(&self, pc: u32) -> (&str, u8) {
        self.0.get(pc as usize).map_or(("?", cat::OTHER), |(m, c)| (m.as_str(), *c))
    }
}

/// A PTX instruction's category, from its opcode and types.
fn ptx_category(i: &heddle_sim::ptx::ir::PInst) -> u8 {
    use heddle_compiler::ptx::ast::Type;
    use heddle_compiler::ptx::insts::{Mod, Op};
    match i.op {
        Op::Ld | Op::Ldu | Op::St | Op::Atom | Op::Red | Op::Prefetch | Op::Prefetchu | Op::Membar | Op::Fence => cat::MEMORY,
        Op::Bar if i.mods.has(Mod::Warp) => cat::CONTROL,
        Op::Bar | Op::Barrier => cat::BARRIER,
        Op::Bra | Op::Call | Op::Ret | Op::Exit | Op::Trap | Op::Brkpt | Op::Vote | Op::Shfl | Op::Activemask | Op::Match | Op::Redux => {
            cat::CONTROL
        }
        Op::Sin | Op::Cos | Op::Lg2 | Op::Ex2 | Op::Rsqrt | Op::Tanh => cat::SFU,
        Op::Rcp | Op::Sqrt if i.mods.has(Mod::Approx) => cat::SFU,
        _ if i.types.contains(&Type::F64) => cat::DPU,
        _ if i.types.iter().any(|t| matches!(t, Type::F32 | Type::F16 | Type::F16x2 | Type::Bf16 | Type::Bf16x2)) => cat::FPU,
        _ => cat::ALU,
    }
}

/// Consecutive ticks of one category.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    pub start: u64,
    pub len: u64,
    pub cat: u8,
}

/// A row's runs, in time order, not overlapping.
#[derive(Debug, Clone, Default)]
pub struct Runs(pub Vec<Run>);

impl Runs {
    fn push(&mut self, start: u64, len: u64, cat: u8) {
        if let Some(last) = self.0.last_mut() {
            if last.cat == cat && last.start + last.len == start {
                last.len += len;
                return;
            }
        }
        self.0.push(Run { start, len, cat });
    }

    /// Ticks per category.
    pub fn totals(&self) -> [u64; NCAT] {
        let mut t = [0; NCAT];
        for r in &self.0 {
            t[r.cat as usize] += r.len;
        }
        t
    }

    /// Ticks per category in each of `n` bins of `width` ticks from `t0`.
    pub fn bin(&self, t0: u64, width: u64, n: usize) -> Vec<[u32; NCAT]> {
        let mut bins = vec![[0u32; NCAT]; n];
        let t1 = t0 + width * n as u64;
        let first = self.0.partition_point(|r| r.start + r.len <= t0);
        for r in &self.0[first..] {
            if r.start >= t1 {
                break;
            }
            let (mut a, b) = (r.start.max(t0), (r.start + r.len).min(t1));
            while a < b {
                let i = ((a - t0) / width) as usize;
                let end = (t0 + (i as u64 + 1) * width).min(b);
                bins[i][r.cat as usize] += (end - a) as u32;
                a = end;
            }
        }
        bins
    }
}

/// A retired warp instruction on a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Issue {
    pub tick: u64,
    pub pc: u32,
    /// Active lanes (the reconvergence-stack entry's threads).
    pub lanes: u32,
}

/// One warp slot's row.
#[derive(Debug, Clone, Default)]
pub struct Row {
    pub runs: Runs,
    pub issues: Vec<Issue>,
}

/// A CTA's residency: its slot and first and last tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cta {
    pub slot: u32,
    pub start: u64,
    pub end: u64,
}

/// A launch's schedule, built from retire records and (RTL) cycles.
#[derive(Debug, Clone)]
pub struct Timeline {
    /// What ran: kernel and engine.
    pub title: String,
    pub axis: Axis,
    pub warp_size: u32,
    pub labels: Labels,
    /// By warp slot.
    pub rows: BTreeMap<u32, Row>,
    /// The whole SM: the category of each tick (the RTL's cycle cause, or
    /// the unit of the instruction issued in the slot).
    pub sm: Runs,
    pub ctas: BTreeMap<u32, Cta>,
    /// log2 of the rows per CTA slot.
    pub slot_shift: u32,
    /// Ticks: one past the last.
    pub end: u64,
    cta_slot: HashMap<u32, u32>,
    slot_cta: HashMap<u32, u32>,
    started: Vec<bool>,
    /// Untimed engines: the issue slot and, per row, the tick a barrier wait began (and its CTA).
    slots: u64,
    wait_from: HashMap<u32, (u64, u32)>,
}

impl Timeline {
    pub fn new(title: &str, axis: Axis, warp_size: u32, labels: Labels) -> Timeline {
        Timeline {
            title: title.to_string(),
            axis,
            warp_size,
            labels,
            rows: BTreeMap::new(),
            sm: Runs::default(),
            ctas: BTreeMap::new(),
            // Untimed engines run one CTA at a time: every row is in slot 0.
            slot_shift: 16,
            end: 0,
            cta_slot: HashMap::new(),
            slot_cta: HashMap::new(),
            started: vec![],
            slots: 0,
            wait_from: HashMap::new(),
        }
    }

    /// Ticks per category over the whole SM.
    pub fn totals(&self) -> [u64; NCAT] {
        self.sm.totals()
    }

    /// Warp instructions retired.
    pub fn issued(&self) -> usize {
        self.rows.values().map(|r| r.issues.len()).sum()
    }

    pub fn retire(&mut self, r: &Retire) {
        let lanes = r.active.count_ones();
        match self.axis {
            Axis::IssueSlots => {
                let tick = self.slots;
                self.slots += 1;
                let (_, c) = self.labels.get(r.pc);
                // A warp that waited at a barrier issues again: the barrier
                // completed, and every warp of its CTA waiting is released.
                if self.wait_from.contains_key(&r.warp) {
                    let done: Vec<u32> = self.wait_from.iter().filter(|(_, &(_, cta))| cta == r.cta).map(|(&w, _)| w).collect();
                    for w in done {
                        let (from, _) = self.wait_from.remove(&w).unwrap_or_default();
                        if tick > from {
                            self.rows.entry(w).or_default().runs.push(from, tick - from, cat::BARRIER_WAIT);
                        }
                    }
                }
                let row = self.rows.entry(r.warp).or_default();
                if c == cat::BARRIER {
                    self.wait_from.insert(r.warp, (tick + 1, r.cta));
                }
                row.runs.push(tick, 1, c);
                row.issues.push(Issue { tick, pc: r.pc, lanes });
                self.sm.push(tick, 1, c);
                self.ctas.entry(r.cta).or_insert(Cta { slot: 0, start: tick, end: tick }).end = tick + 1;
                self.end = tick + 1;
            }
            Axis::Cycles => {
                let tick = r.seq;
                let slot = self.cta_slot.get(&r.cta).copied().unwrap_or(0);
                let row = self.rows.entry(slot << self.slot_shift | r.warp).or_default();
                row.issues.push(Issue { tick, pc: r.pc, lanes });
                if let Some(c) = self.ctas.get_mut(&r.cta) {
                    c.end = c.end.max(tick + 1);
                }
                self.end = self.end.max(tick + 1);
            }
        }
    }

    pub fn cycle(&mut self, c: &Cycle) {
        self.slot_shift = c.slot_shift;
        if let Some((slot, cta)) = c.cta_start {
            self.cta_slot.insert(cta, slot);
            self.slot_cta.insert(slot, cta);
            self.ctas.insert(cta, Cta { slot, start: c.cycle, end: c.cycle + 1 });
            if self.started.len() <= slot as usize {
                self.started.resize(slot as usize + 1, false);
            }
            self.started[slot as usize] = true;
        }
        let k = match c.cause {
            Cause::Exec => self.labels.get(c.pc).1,
            // A barrier reads its id and count through the memory path.
            Cause::Memory if self.labels.get(c.pc).1 == cat::BARRIER => cat::BARRIER,
            Cause::Memory => cat::MEMORY,
            Cause::BankConflict => cat::BANK_CONFLICT,
            Cause::Control => cat::CONTROL,
            Cause::FrontEnd => cat::FRONT_END,
            Cause::Barrier => cat::BARRIER,
            Cause::CtaSetup => cat::CTA_SETUP,
            Cause::Other => cat::OTHER,
        };
        self.sm.push(c.cycle, 1, k);
        let started = |w: u32| self.started.get((w >> c.slot_shift) as usize).copied().unwrap_or(false);
        if c.cause != Cause::CtaSetup && started(c.warp) {
            self.rows.entry(c.warp).or_default().runs.push(c.cycle, 1, k);
            // The CTA lasts while the SM works for its warps (after its last retire too).
            if let Some(cta) = self.slot_cta.get(&(c.warp >> c.slot_shift)).and_then(|id| self.ctas.get_mut(id)) {
                cta.end = cta.end.max(c.cycle + 1);
            }
        }
        let mut waiting = c.waiting & !(1u64.checked_shl(c.warp).unwrap_or(0));
        while waiting != 0 {
            let w = waiting.trailing_zeros();
            waiting &= waiting - 1;
            if started(w) {
                self.rows.entry(w).or_default().runs.push(c.cycle, 1, cat::BARRIER_WAIT);
            }
        }
        self.end = self.end.max(c.cycle + 1);
    }

    /// A row's label.
    pub fn row_label(&self, row: u32) -> String {
        match self.axis {
            Axis::Cycles => format!("slot {} warp {}", row >> self.slot_shift, row & ((1 << self.slot_shift) - 1)),
            Axis::IssueSlots => format!("warp {row}"),
        }
    }

    /// Bins for `n` columns over `[t0, t1)`: (ticks per bin, bins).
    fn binning(t0: u64, t1: u64, max: u64) -> (u64, usize) {
        let ticks = (t1 - t0).max(1);
        let width = ticks.div_ceil(max);
        (width, ticks.div_ceil(width) as usize)
    }

    /// The whole run as an SVG picture.
    pub fn svg(&self) -> String {
        Svg::new(self).render()
    }

    /// A self-contained HTML page: the runs and retires as JSON and a small
    /// script that draws the same picture for a window of ticks, re-binned,
    /// with wheel zoom, drag pan and a tooltip per bin.
    pub fn html(&self) -> String {
        let runs = |r: &Runs| {
            let mut v = Vec::with_capacity(r.0.len() * 3);
            let mut at = 0;
            for run in &r.0 {
                v.extend([run.start - at, run.len, run.cat as u64]);
                at = run.start + run.len;
            }
            v
        };
        let rows: Vec<serde_json::Value> = self
            .rows
            .iter()
            .map(|(&k, r)| {
                let mut iss = Vec::with_capacity(r.issues.len() * 3);
                let mut at = 0;
                for i in &r.issues {
                    iss.extend([i.tick - at, i.pc as u64, i.lanes as u64]);
                    at = i.tick;
                }
                serde_json::json!({"label": self.row_label(k), "slot": k >> self.slot_shift, "runs": runs(&r.runs), "iss": iss})
            })
            .collect();
        let ctas: Vec<_> = self.ctas.iter().map(|(&id, c)| [id as u64, c.slot as u64, c.start, c.end]).collect();
        let data = serde_json::json!({
            "title": self.title,
            "axis": self.axis.name(),
            "end": self.end,
            "ws": self.warp_size,
            "cats": CATEGORIES.iter().map(|c| [c.name, c.colour, c.what]).collect::<Vec<_>>(),
            "sm": runs(&self.sm),
            "rows": rows,
            "ctas": ctas,
            "mn": self.labels.0.iter().map(|(m, _)| m.as_str()).collect::<Vec<_>>(),
        });
        let json = data.to_string().replace("</", "<\\/");
        HTML.replace("{{TITLE}}", &escape(&self.title)).replace("{{DATA}}", &json)
    }
}

/// The SVG geometry (the HTML's script uses the same numbers).
const LEFT: u64 = 130;
const PLOT: u64 = 1000;
const TOP: u64 = 58;
const PITCH: u64 = 22;
const BAND: u64 = 13;
/// The SM row's band.
const SM_BAND: u64 = 26;
const STRIP: u64 = 5;
const GAP: u64 = 11;
/// Width of a legend entry.
const LEGEND_COL: u64 = 195;

struct Svg<'t> {
    t: &'t Timeline,
    width: u64,
    n: usize,
    px: u64,
    out: String,
    /// Path data per category (one path element each).
    paths: Vec<String>,
    lanes: String,
}

impl<'t> Svg<'t> {
    fn new(t: &'t Timeline) -> Svg<'t> {
        let (width, n) = Timeline::binning(0, t.end, PLOT);
        let px = (PLOT / n as u64).max(1);
        Svg { t, width, n, px, out: String::new(), paths: vec![String::new(); NCAT], lanes: String::new() }
    }

    fn x(&self, tick: u64) -> u64 {
        LEFT + tick / self.width * self.px
    }

    /// A row's stacked bins (top edge at `y`, `band` high), merged where
    /// neighbours draw the same. A category with ticks in a bin is at least
    /// a pixel high (while the band has room), so a sparse one still shows.
    fn bins(&mut self, runs: &Runs, y: u64, band: u64) {
        let bins = runs.bin(0, self.width, self.n);
        let mut prev: Option<(u64, [u64; NCAT])> = None;
        let flush = |paths: &mut Vec<String>, from: u64, to: u64, h: &[u64; NCAT]| {
            let mut below = 0;
            for (k, &top) in h.iter().enumerate() {
                if top > below {
                    let _ = write!(paths[k], "M{from} {}h{w}v{}h-{w}", y + band - top, top - below, w = to - from);
                    below = top;
                }
            }
        };
        for (i, b) in bins.iter().enumerate() {
            let ticks = (self.t.end - i as u64 * self.width).min(self.width);
            let mut h = [0u64; NCAT];
            let (mut sum, mut below) = (0, 0);
            for k in 0..NCAT {
                if b[k] > 0 {
                    sum += b[k] as u64;
                    below = ((band * sum * 2 + ticks) / (2 * ticks)).max(below + 1).min(band);
                }
                h[k] = below;
            }
            let x = LEFT + i as u64 * self.px;
            match prev {
                Some((_, p)) if p == h => {}
                Some((from, p)) => {
                    flush(&mut self.paths, from, x, &p);
                    prev = Some((x, h));
                }
                None => prev = Some((x, h)),
            }
        }
        if let Some((from, p)) = prev {
            flush(&mut self.paths, from, LEFT + self.n as u64 * self.px, &p);
        }
    }

    /// A row's active-lane strip (top edge at `y`).
    fn lanes(&mut self, issues: &[Issue], y: u64) {
        let mut sum = vec![(0u64, 0u64); self.n];
        for i in issues {
            let b = &mut sum[(i.tick / self.width) as usize];
            *b = (b.0 + i.lanes as u64, b.1 + 1);
        }
        let ws = self.t.warp_size.max(1) as u64;
        let mut prev: Option<(u64, u64)> = None;
        let flush = |s: &mut String, from: u64, to: u64, h: u64| {
            if h > 0 {
                let _ = write!(s, "M{from} {}h{w}v{h}h-{w}", y + STRIP - h, w = to - from);
            }
        };
        for (i, &(l, c)) in sum.iter().enumerate() {
            let h = if c == 0 { 0 } else { ((STRIP * l * 2 + c * ws) / (2 * c * ws)).max(1) };
            let x = LEFT + i as u64 * self.px;
            match prev {
                Some((_, p)) if p == h => {}
                Some((from, p)) => {
                    flush(&mut self.lanes, from, x, p);
                    prev = Some((x, h));
                }
                None => prev = Some((x, h)),
            }
        }
        if let Some((from, p)) = prev {
            flush(&mut self.lanes, from, LEFT + self.n as u64 * self.px, p);
        }
    }

    fn render(mut self) -> String {
        let t = self.t;
        let rows: Vec<u32> = t.rows.keys().copied().collect();
        // Rows top to bottom, a gap (for the CTA labels) before each CTA slot's.
        let mut ys = vec![];
        let mut y = TOP + 4 + SM_BAND + 5;
        for (i, &r) in rows.iter().enumerate() {
            if i == 0 || r >> t.slot_shift != rows[i - 1] >> t.slot_shift {
                y += GAP;
            }
            ys.push(y);
            y += PITCH;
        }
        let row_y = |i: usize| ys[i];
        let plot_w = self.n as u64 * self.px;
        let bottom = y;
        let totals = t.totals();
        let waits = t.rows.values().any(|r| r.runs.totals()[cat::BARRIER_WAIT as usize] > 0);
        let legend: Vec<usize> = (0..NCAT).filter(|&k| totals[k] > 0 || (k == cat::BARRIER_WAIT as usize && waits)).collect();
        let cols = ((LEFT + self.n as u64 * self.px + 10) / LEGEND_COL).max(1) as usize;
        let legend_rows = legend.len().div_ceil(cols).max(1) as u64;
        let height = bottom + 30 + legend_rows * 18;
        let width = LEFT + plot_w + 30;
        let unit = if self.width == 1 {
            format!("one {}", t.axis.name().trim_end_matches('s'))
        } else {
            format!("{} {}", self.width, t.axis.name())
        };
        let _ = writeln!(
            self.out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11" data-axis="{}" data-ticks="{}" data-bin="{}" data-rows="{}">"#,
            t.axis.name(),
            t.end,
            self.width,
            rows.len()
        );
        let _ = writeln!(self.out, r#"<rect width="{width}" height="{height}" fill="white"/>"#);
        let _ = writeln!(
            self.out,
            r#"<text x="10" y="18" font-size="14" font-weight="bold">{}</text><text x="10" y="34">{} {}, {} warp instructions; a bin is {unit}; under each row: active lanes</text>"#,
            escape(&t.title),
            t.end,
            t.axis.name(),
            t.issued()
        );
        // Time axis: about ten ticks at 1, 2 or 5 times a power of ten.
        let step = nice_step(t.end.max(1) / 10);
        let mut at = 0;
        while at <= t.end {
            let x = self.x(at);
            let _ = writeln!(
                self.out,
                r##"<line x1="{x}" y1="{}" x2="{x}" y2="{bottom}" stroke="#e4e4e4"/><text x="{x}" y="{}" text-anchor="middle" fill="#555">{at}</text>"##,
                TOP - 2,
                TOP - 5
            );
            at += step;
        }
        // CTA residency: a faint band over its slot's rows, green start and red end lines, its index.
        let mut marks = String::new();
        for (&id, c) in &t.ctas {
            let mine: Vec<usize> = rows.iter().enumerate().filter(|(_, &r)| r >> t.slot_shift == c.slot).map(|(i, _)| i).collect();
            let (Some(&a), Some(&b)) = (mine.first(), mine.last()) else { continue };
            let (y0, y1) = (row_y(a) - 3, row_y(b) + BAND + STRIP + 4);
            let (x0, x1) = (self.x(c.start), self.x(c.end.saturating_sub(1)) + self.px);
            let fill = if id % 2 == 0 { "#eef2f8" } else { "#f6f0e6" };
            let _ = writeln!(
                self.out,
                r#"<rect class="cta" data-cta="{id}" x="{x0}" y="{y0}" width="{}" height="{}" fill="{fill}"/>"#,
                x1 - x0,
                y1 - y0
            );
            let _ = write!(
                marks,
                r##"<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}" stroke="#2ca02c" stroke-width="1.5"/><line x1="{x1}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="#d62728" stroke-width="1.5"/><text x="{}" y="{}" font-size="9" fill="#2ca02c">CTA {id}</text>"##,
                x0 + 2,
                y0 - 2
            );
        }
        // The SM row, then one row per warp slot.
        let sm_y = TOP + 4;
        let _ = writeln!(
            self.out,
            r#"<g class="sm" data-counts="{}"><text x="{}" y="{}" text-anchor="end" font-weight="bold">SM</text></g>"#,
            counts(&totals),
            LEFT - 6,
            sm_y + SM_BAND / 2 + 4
        );
        self.bins(&t.sm.clone(), sm_y, SM_BAND);
        for (i, &r) in rows.iter().enumerate() {
            let row = &t.rows[&r];
            let y = row_y(i);
            let _ = writeln!(
                self.out,
                r#"<g class="row" data-row="{r}" data-issued="{}" data-lanes="{}" data-counts="{}"><text x="{}" y="{}" text-anchor="end">{}</text></g>"#,
                row.issues.len(),
                row.issues.iter().map(|i| i.lanes as u64).sum::<u64>(),
                counts(&row.runs.totals()),
                LEFT - 6,
                y + BAND - 2,
                t.row_label(r)
            );
            self.bins(&row.runs, y, BAND);
            self.lanes(&row.issues, y + BAND + 1);
        }
        for (k, d) in self.paths.iter().enumerate() {
            if !d.is_empty() {
                let _ =
                    writeln!(self.out, r#"<path class="bins" data-cat="{}" fill="{}" d="{d}"/>"#, CATEGORIES[k].name, CATEGORIES[k].colour);
            }
        }
        if !self.lanes.is_empty() {
            let _ = writeln!(self.out, r##"<path class="lanes" fill="#333" d="{}"/>"##, self.lanes);
        }
        self.out.push_str(&marks);
        self.out.push('\n');
        // Legend, with the SM's ticks per category.
        let total: u64 = totals.iter().sum::<u64>().max(1);
        for (j, &k) in legend.iter().enumerate() {
            let c = &CATEGORIES[k];
            let (x, y) = (10 + (j % cols) as u64 * LEGEND_COL, bottom + 22 + (j / cols) as u64 * 18);
            let share = if k == cat::BARRIER_WAIT as usize {
                String::new()
            } else {
                format!(" {} ({:.1}%)", totals[k], 100.0 * totals[k] as f64 / total as f64)
            };
            let _ = writeln!(
                self.out,
                r##"<rect x="{x}" y="{}" width="12" height="12" fill="{}" stroke="#888" stroke-width="0.5"/><text x="{}" y="{y}"><title>{}</title>{}{share}</text>"##,
                y - 10,
                c.colour,
                x + 16,
                escape(c.what),
                c.name
            );
        }
        self.out.push_str("</svg>\n");
        self.out
    }
}

/// `name=count` for every category with a count, space-separated.
fn counts(t: &[u64; NCAT]) -> String {
    t.iter()
        .enumerate()
        .filter(|(_, &v)| v > 0)
        .map(|(k, v)| format!("{}={v}", CATEGORIES[k].name.replace(' ', "_")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// 1, 2 or 5 times a power of ten, at least `at_least`.
fn nice_step(at_least: u64) -> u64 {
    let mut p = 1;
    loop {
        for m in [1, 2, 5] {
            if m * p >= at_least.max(1) {
                return m * p;
            }
        }
        p *= 10;
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// One kernel's ticks by category, for [`stats_svg`].
pub struct KernelTicks {
    pub name: String,
    pub axis: Axis,
    pub totals: [u64; NCAT],
}

/// A bar chart of cycles (issue slots, untimed engines) by cause: one
/// stacked bar per kernel, scaled to the longest, with each cause's count.
pub fn stats_svg(kernels: &[KernelTicks]) -> String {
    let most = kernels.iter().map(|k| k.totals.iter().sum::<u64>()).max().unwrap_or(0).max(1);
    let (bar_w, left) = (700u64, 160u64);
    let shown = |k: &KernelTicks| (0..NCAT).filter(|&c| k.totals[c] > 0 && c != cat::BARRIER_WAIT as usize).collect::<Vec<_>>();
    let per = |k: &KernelTicks| 40 + 18 * shown(k).len().div_ceil(4) as u64;
    let height = 34 + kernels.iter().map(per).sum::<u64>();
    let width = left + bar_w + 40;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="{width}" height="{height}" fill="white"/>"#);
    let what = if kernels.iter().all(|k| k.axis == Axis::IssueSlots) { "issue slots by unit" } else { "cycles by cause" };
    let _ = writeln!(s, r#"<text x="10" y="20" font-size="14" font-weight="bold">{what}</text>"#);
    let mut y = 34;
    for k in kernels {
        let total: u64 = k.totals.iter().sum();
        let _ = writeln!(
            s,
            r##"<g class="kernel" data-kernel="{}" data-total="{total}"><text x="{}" y="{}" text-anchor="end">{}</text><text x="{}" y="{}" text-anchor="end" fill="#555">{total} {}</text>"##,
            escape(&k.name),
            left - 8,
            y + 9,
            escape(&k.name),
            left - 8,
            y + 21,
            k.axis.name()
        );
        let mut x = 0f64;
        for (c, &v) in k.totals.iter().enumerate() {
            if v == 0 || c == cat::BARRIER_WAIT as usize {
                continue;
            }
            let w = bar_w as f64 * v as f64 / most as f64;
            let _ = writeln!(
                s,
                r#"<rect class="cause" data-cause="{}" data-count="{v}" x="{:.2}" y="{y}" width="{:.2}" height="22" fill="{}"><title>{}: {v}</title></rect>"#,
                CATEGORIES[c].name,
                left as f64 + x,
                w,
                CATEGORIES[c].colour,
                CATEGORIES[c].name
            );
            x += w;
        }
        for (j, c) in shown(k).into_iter().enumerate() {
            let (lx, ly) = (left + (j % 4) as u64 * 175, y + 40 + (j / 4) as u64 * 18);
            let _ = writeln!(
                s,
                r##"<rect x="{lx}" y="{}" width="12" height="12" fill="{}" stroke="#888" stroke-width="0.5"/><text x="{}" y="{ly}">{} {} ({:.1}%)</text>"##,
                ly - 10,
                CATEGORIES[c].colour,
                lx + 16,
                CATEGORIES[c].name,
                k.totals[c],
                100.0 * k.totals[c] as f64 / total.max(1) as f64
            );
        }
        s.push_str("</g>\n");
        y += per(k);
    }
    s.push_str("</svg>\n");
    s
}

/// The tracer `heddle run` hands an engine when it keeps records, draws a
/// timeline or a bar chart.
pub struct Recorder {
    /// Keep every record (`--trace`).
    pub keep: bool,
    pub retired: Vec<Retire>,
    pub timeline: Option<Timeline>,
}

impl Tracer for Recorder {
    const ON: bool = true;
    const CYCLES: bool = true;

    fn retire(&mut self, r: Retire) {
        if let Some(t) = self.timeline.as_mut() {
            t.retire(&r);
        }
        if self.keep {
            self.retired.push(r);
        }
    }

    fn cycle(&mut self, c: &Cycle) {
        if let Some(t) = self.timeline.as_mut() {
            t.cycle(c);
        }
    }
}

/// Writes the timeline as SVG or HTML (by the file's extension).
pub fn write(t: &Timeline, path: &std::path::Path) -> Result<(), String> {
    let text = match path.extension().and_then(|e| e.to_str()) {
        Some("svg") => t.svg(),
        Some("html" | "htm") => t.html(),
        _ => return Err(format!("--timeline {}: the file must end in .svg or .html", path.display())),
    };
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

const HTML: &str = include_str!("timeline.html");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_split_across_bins() {
        let mut r = Runs::default();
        r.push(0, 5, cat::ALU);
        r.push(5, 2, cat::ALU);
        r.push(7, 6, cat::MEMORY);
        assert_eq!(r.0.len(), 2, "neighbouring runs of one category merge");
        let b = r.bin(0, 4, 4);
        let (alu, mem) = (cat::ALU as usize, cat::MEMORY as usize);
        assert_eq!((b[0][alu], b[1][alu], b[1][mem], b[2][mem], b[3][mem]), (4, 3, 1, 4, 1));
        let b = r.bin(6, 3, 2);
        assert_eq!((b[0][alu], b[0][mem], b[1][mem]), (1, 2, 3));
        assert_eq!(r.totals()[cat::ALU as usize], 7);
    }

    #[test]
    fn nice_steps() {
        assert_eq!([nice_step(0), nice_step(3), nice_step(7), nice_step(2971), nice_step(10000)], [1, 5, 10, 5000, 10000]);
    }

    /// A 100k-cycle run of 16 warps in 4 CTA slots stays 1000 bins wide and
    /// well-formed.
    #[test]
    fn a_long_run_is_binned() {
        let obj = heddle_isa::asm::assemble("t.hasm", ".kernel k\n    add r1, r2, r3\n    ld.global.b32 r1, [r2]\n    exit\n").unwrap();
        let mut t = Timeline::new("k on rtl", Axis::Cycles, 32, Labels::isa(&obj));
        for cycle in 0..100_000u64 {
            let warp = (cycle / 7 % 16) as u32;
            let cta_start = (cycle < 4).then_some((cycle as u32, cycle as u32));
            let cause = [Cause::Exec, Cause::Memory, Cause::FrontEnd, Cause::BankConflict][(cycle % 4) as usize];
            let c = Cycle { cycle, cause, warp, pc: (cycle % 3) as u32, waiting: 0xf0f0 >> (cycle / 5000 % 4), cta_start, slot_shift: 2 };
            t.cycle(&c);
            if cycle % 7 == 6 {
                let r = Retire {
                    seq: cycle,
                    sm: 0,
                    cta: warp >> 2,
                    warp: warp & 3,
                    pc: 0,
                    active: 0xffff,
                    exec: 0xffff,
                    regs: vec![],
                    preds: vec![],
                    mem: vec![],
                };
                t.retire(&r);
            }
        }
        let svg = t.svg();
        // The worst case: every warp has several causes in every bin, which
        // differ from bin to bin (about 75 bytes a row and bin; real runs
        // merge many bins: the 285k-cycle matmul's 32 rows take 600 KB).
        assert!(svg.len() < 1_500_000, "{} bytes", svg.len());
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let root = doc.root_element();
        assert_eq!(root.attribute("data-bin"), Some("100"));
        assert_eq!(root.attribute("width"), Some(&*(LEFT + 1000 + 30).to_string()));
        assert_eq!(doc.descendants().filter(|n| n.attribute("class") == Some("row")).count(), 16);
        assert_eq!(t.totals().iter().sum::<u64>(), 100_000);
        assert_eq!(t.ctas.len(), 4);
        assert!(t.html().len() < 2_000_000);
    }
}
