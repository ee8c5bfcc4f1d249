//! The program generator: random Heddle kernels that are valid by
//! construction and terminate, drawn from an [`arbitrary::Unstructured`]
//! (seeded bytes in a campaign, libFuzzer's bytes under cargo-fuzz).
//!
//! A [`Case`] is an SM configuration, a launch shape, an input buffer and a
//! tree of [`Stmt`]s: straight-line snippets, divergent `if`s, loops with
//! per-thread trip counts, exits inside divergent code, barriers at the top
//! level only (so every live thread reaches them), calls, recursion near
//! the reconvergence stack's depth, and (rarely) accesses that fault on
//! purpose. It renders to assembly text; the shrinker edits the tree.
//!
//! Register plan (a kernel declares `.regs H`, H = [`val_hi`]: 24, or 16
//! on an SM with fewer registers, as `tiny`):
//!
//! ```text
//! r0 tid.x   r1 global thread id   r2 &out[thread] (128 bytes each)   r3 &data
//! r4 r5 loop counters (nesting levels 0, 1; r5 also the depth of `rec`)   r6 r7 temporaries
//! r8..rH-1 values: stored to out[thread][0..4(H-8)] before every exit (the signature)
//! p0 branch conditions; p1.. values
//! ```

use arbitrary::{Result, Unstructured};
use heddle_hw::SmConfig;
use heddle_isa::inst::{Guard, Operand};
use heddle_isa::table::{mod_info, Format, Opcode, Unit, TABLE};
use heddle_isa::Inst;
use heddle_sim::engine::Engine;
use std::collections::BTreeMap;

/// Words of the input buffer `data`.
pub const DATA_WORDS: usize = 64;
/// Bytes of `out` per thread: 64 of signature, 64 of scratch for stores.
pub const THREAD_BYTES: u32 = 128;
/// Words per thread in the coalesced column area of `out`.
pub const COLUMNS: u32 = 4;
/// Atomic counter words per warp, and shared by the grid.
pub const COUNTERS: u32 = 4;
/// The first value register.
pub const VAL_LO: u8 = 8;
/// One past the last value register when the SM has that many.
pub const VAL_HI: u8 = 24;

/// One past the last value register on `c`: [`VAL_HI`], or the SM's
/// register count rounded down to whole 128-bit groups.
pub fn val_hi(c: &SmConfig) -> u8 {
    (c.regs_per_thread.min(VAL_HI as u32) as u8) & !3
}

/// The format of the generated `vprintf` calls (arguments: three words).
pub const PRINTF_FORMAT: &str = "t%u: %x %d\n";

/// Float and integer values that break arithmetic units.
pub const SPECIAL: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7fa0_0000,
    0xffc0_0001,
    0x0000_0001,
    0x807f_ffff,
    0x0040_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x7f7f_ffff,
    0xff7f_ffff,
    0xffff_ffff,
    0x7fff_ffff,
    0x0000_0002,
    0x3f00_0000,
    0x4f00_0000,
    0xcf00_0000,
    0x0000_7c00,
    0x0000_fc00,
    0x0000_0400,
    0x0000_8001,
    0x3400_0000,
    0x4b80_0000,
    0x0000_001f,
    0x0000_0020,
    0x0000_0021,
    0x0000_ffff,
    0x8000_0001,
    0x0000_0003,
];

/// One piece of a generated kernel.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    /// Straight-line instructions (one operation, with its address setup).
    Code(Vec<String>),
    /// `cond` sets p0; threads where it holds run `then`, the others `els`.
    If { cond: Vec<String>, then: Vec<Stmt>, els: Vec<Stmt> },
    /// A loop whose trip count differs per thread: `(r6 & mask) + base`
    /// iterations with r6 computed by `trip` (counter r4 + level).
    Loop { level: u8, trip: Vec<String>, mask: u32, base: u32, body: Vec<Stmt> },
    /// Threads where `cond` (p0) holds store their signature and exit.
    Exit { cond: Vec<String> },
    /// Top level only: every live thread stores to shared memory, waits,
    /// reads another thread's slot (or a broadcast slot), waits again.
    Barrier { code: Vec<String> },
    /// `call fN`, guarded by p0 when `cond` is not empty.
    Call { cond: Vec<String>, func: usize },
    /// `calli` with per-lane targets: f`a` where `cond` (p0) fails, f`b` where it holds.
    Calli { cond: Vec<String>, a: usize, b: usize },
    /// Top level only: recursion of `base + (laneid & spread)` calls of the
    /// function `rec` (a frame each, per lane: divergent depths), near and
    /// past the SM's reconvergence-stack depth.
    Recurse { base: u32, spread: u32 },
    /// A load or store that faults on purpose (some lanes past the end of
    /// `data`, in one bus transfer with lanes that do not; or misaligned):
    /// the launch ends with a trap every engine must report alike.
    Fault(Vec<String>),
}

/// A generated launch: everything needed to run it and write a reproducer.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub config: SmConfig,
    pub grid: u32,
    pub block: u32,
    pub data: Vec<u32>,
    pub body: Vec<Stmt>,
    pub funcs: Vec<Vec<Stmt>>,
    /// The RTL engines' memory answers with wait states (stalls, answers
    /// 1-4 cycles late), seeded with this (`RtlOptions::bus_waits`).
    pub bus_waits: Option<u64>,
    /// The RTL engines' memory answers N cycles after a transfer
    /// (`RtlOptions::mem_latency`; `None`: the next cycle).
    pub mem_latency: Option<u32>,
}

impl Case {
    pub fn threads(&self) -> u32 {
        self.grid * self.block
    }
    pub fn warps_per_cta(&self) -> u32 {
        self.block.div_ceil(self.config.warp_size)
    }
    /// Bytes of `out`: per-thread areas, columns, per-warp and grid counters.
    pub fn out_bytes(&self) -> u32 {
        self.threads() * (THREAD_BYTES + 4 * COLUMNS) + (self.grid * self.warps_per_cta() + 1) * COUNTERS * 4
    }
    pub fn col_base(&self) -> u32 {
        self.threads() * THREAD_BYTES
    }
    pub fn counter_base(&self) -> u32 {
        self.col_base() + self.threads() * 4 * COLUMNS
    }
    /// Shared bytes of the kernel: slots of a power of two of threads, up
    /// to 8 words apart, then 8 bytes a warp (at least 256) for atomics.
    pub fn shared_bytes(&self) -> u32 {
        self.block.next_power_of_two() * 8 * 4 + 8 * self.warps_per_cta().max(32)
    }

    /// The `heddle run` arguments that reproduce this launch.
    pub fn run_args(&self) -> String {
        self.run_args_on(Engine::Rtl)
    }

    /// [`Case::run_args`] on a cycle engine (rtl or verilator).
    pub fn run_args_on(&self, engine: Engine) -> String {
        let c = &self.config;
        let data = self.data.iter().map(|v| format!("{v:#x}")).collect::<Vec<_>>().join(",");
        let sets = [
            ("lanes", c.lanes.to_string()),
            ("warp_size", c.warp_size.to_string()),
            ("warps", c.warps.to_string()),
            ("ctas", c.ctas.to_string()),
            ("regs_per_thread", c.regs_per_thread.to_string()),
            ("preds", c.preds.to_string()),
            ("shared_bytes", c.shared_bytes.to_string()),
            ("shared_banks", c.shared_banks.to_string()),
            ("stack_depth", c.stack_depth.to_string()),
            ("fp32", c.fp32.to_string()),
            ("fp64", c.fp64.to_string()),
            ("int_div", c.int_div.to_string()),
            ("mul64", c.mul64.to_string()),
            ("shift64", c.shift64.to_string()),
            ("bus_bits", c.bus_bits.to_string()),
            ("local_bytes", c.local_bytes.to_string()),
            ("imem_words", c.imem_words.to_string()),
        ];
        let sets: String = sets.iter().map(|(k, v)| format!(" --set {k}={v}")).collect();
        let waits = self.bus_waits.map_or(String::new(), |w| format!(" --bus-waits {w}"))
            + &self.mem_latency.map_or(String::new(), |n| format!(" --mem-latency {n}"));
        format!(
            "--engine {engine} --lockstep{waits} --grid {} --block {}{sets} --arg buf:out:u32:{} --arg buf:data:u32:{}={data}",
            self.grid,
            self.block,
            self.out_bytes() / 4,
            self.data.len()
        )
    }

    /// The kernel `fuzz` as Heddle assembly.
    pub fn render(&self) -> String {
        let mut r = Render { text: String::new(), label: 0, hi: val_hi(&self.config) };
        let w = |r: &mut Render, s: &str| {
            r.text.push_str("    ");
            r.text.push_str(s);
            r.text.push('\n');
        };
        let fmt: Vec<String> = PRINTF_FORMAT.bytes().chain([0]).map(|b| b.to_string()).collect();
        r.text.push_str(&format!(".const fmt .b8 {}\n", fmt.join(", ")));
        r.text.push_str(".kernel fuzz\n    .param out 8\n    .param data 8\n");
        let hi = r.hi;
        r.text.push_str(&format!("    .regs {hi}\n    .shared {}\n    .local 96\n", self.shared_bytes()));
        for s in [
            "s2r r0, tid.x",
            "s2r r6, ctaid.x",
            "s2r r7, ntid.x",
            "mad.u r1, r6, r7, r0",
            "ld.param.b32 r2, [rz]",
            "shl r6, r1, 7",
            "add r2, r2, r6",
            "ld.param.b32 r3, [rz+8]",
        ] {
            w(&mut r, s);
        }
        // Values start as a mix of the thread id and the data.
        for v in VAL_LO..hi {
            let k = v as u32 - VAL_LO as u32;
            match k % 4 {
                0 => w(&mut r, &format!("add r{v}, r1, {:#x}", SPECIAL[k as usize * 2 % SPECIAL.len()])),
                1 => w(&mut r, &format!("ld.global.b32 r{v}, [r3+{}]", 4 * k)),
                2 => w(&mut r, &format!("mul.u r{v}, r1, {:#x}", 0x9e37_79b9u32.wrapping_mul(k))),
                _ => w(&mut r, &format!("mov r{v}, {:#x}", SPECIAL[(k as usize * 5 + 3) % SPECIAL.len()])),
            }
        }
        r.block(&self.body);
        r.exit();
        for (i, f) in self.funcs.iter().enumerate() {
            r.text.push_str(&format!("f{i}:\n"));
            r.block(f);
            r.text.push_str("    ret\n");
        }
        // Each frame adds the depth left to a value, so a lost frame shows.
        r.text.push_str("rec:\n");
        for l in ["add r8, r8, r5", "sub r5, r5, 1", "isetp.ne p0, r5, 0", "@p0 call rec", "ret"] {
            w(&mut r, l);
        }
        r.text
    }
}

struct Render {
    text: String,
    label: u32,
    /// [`val_hi`] of the case's SM.
    hi: u8,
}

impl Render {
    fn line(&mut self, s: &str) {
        self.text.push_str("    ");
        self.text.push_str(s);
        self.text.push('\n');
    }
    fn lines(&mut self, v: &[String]) {
        for s in v {
            self.line(s);
        }
    }
    fn fresh(&mut self) -> String {
        self.label += 1;
        format!("L{}", self.label)
    }
    fn sig(&mut self) {
        for q in 0..(self.hi - VAL_LO) / 4 {
            self.line(&format!("st.global.b128 [r2+{}], r{}", 16 * q as u32, VAL_LO + 4 * q));
        }
    }
    fn exit(&mut self) {
        self.sig();
        self.line("exit");
    }
    fn block(&mut self, v: &[Stmt]) {
        for s in v {
            self.stmt(s);
        }
    }
    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Code(v) | Stmt::Barrier { code: v } => self.lines(v),
            Stmt::If { cond, then, els } => {
                let (le, lj) = (self.fresh(), self.fresh());
                self.lines(cond);
                self.line(&format!("@!p0 bra {le}, {lj}"));
                self.block(then);
                self.line(&format!("bra.uni {lj}"));
                self.text.push_str(&format!("{le}:\n"));
                self.block(els);
                self.text.push_str(&format!("{lj}:\n"));
            }
            Stmt::Loop { level, trip, mask, base, body } => {
                let (lh, le) = (self.fresh(), self.fresh());
                let c = 4 + level;
                self.line(&format!("mov r{c}, 0"));
                self.text.push_str(&format!("{lh}:\n"));
                self.block(body);
                self.line(&format!("add r{c}, r{c}, 1"));
                self.lines(trip);
                self.line(&format!("and r6, r6, {mask}"));
                self.line(&format!("add r6, r6, {base}"));
                self.line(&format!("isetp.lo p0, r{c}, r6"));
                self.line(&format!("@p0 bra {lh}, {le}"));
                self.text.push_str(&format!("{le}:\n"));
            }
            Stmt::Exit { cond } => {
                let (lx, lj) = (self.fresh(), self.fresh());
                self.lines(cond);
                self.line(&format!("@!p0 bra {lj}, {lj}"));
                self.text.push_str(&format!("{lx}:\n"));
                self.exit();
                self.text.push_str(&format!("{lj}:\n"));
            }
            Stmt::Calli { cond, a, b } => {
                self.lines(cond);
                self.line(&format!("mov r7, f{a}"));
                self.line(&format!("@p0 mov r7, f{b}"));
                self.line("calli r7");
            }
            Stmt::Recurse { base, spread } => {
                self.line("s2r r6, laneid");
                self.line(&format!("and r6, r6, {spread}"));
                self.line(&format!("add r5, r6, {base}"));
                self.line("call rec");
            }
            Stmt::Fault(code) => self.lines(code),
            Stmt::Call { cond, func } => {
                if cond.is_empty() {
                    self.line(&format!("call f{func}"));
                } else {
                    self.lines(cond);
                    self.line(&format!("@p0 call f{func}"));
                }
            }
        }
    }
}

/// Counts of generated opcodes and opcode-modifier pairs (coverage).
#[derive(Debug, Clone, Default)]
pub struct Coverage {
    pub ops: BTreeMap<String, u64>,
}

impl Coverage {
    /// Adds every instruction of an assembled program: `mnemonic` and
    /// `mnemonic.modifier...` as printed.
    pub fn add_program(&mut self, code: &[u64]) {
        for &w in code {
            if let Ok(i) = Inst::decode(w) {
                *self.ops.entry(i.op.mnemonic().to_string()).or_default() += 1;
                let text = format!("{i}");
                let mut toks = text.split_whitespace();
                let head = match toks.next() {
                    Some(t) if t.starts_with('@') => toks.next().unwrap_or(""),
                    Some(t) => t,
                    None => "",
                };
                if head.contains('.') {
                    *self.ops.entry(head.to_string()).or_default() += 1;
                }
            }
        }
    }
    pub fn opcodes(&self) -> usize {
        self.ops.keys().filter(|k| !k.contains('.')).count()
    }
    pub fn forms(&self) -> usize {
        self.ops.len()
    }
}

/// Draws an SM configuration from the legal space.
pub fn config(u: &mut Unstructured) -> Result<SmConfig> {
    let warp_size = *u.choose(&[4u32, 8, 8, 16, 32, 32, 64, 1, 2])?;
    // (The RTL refuses 64 lanes: its beat-wide memory path has at most 32.)
    let lanes_choices: Vec<u32> = [1u32, 2, 4, 8, 16, 32].into_iter().filter(|&l| l <= warp_size).collect();
    let lanes = *u.choose(&lanes_choices)?;
    // (The RTL's register-file RAMs hold warps x beats x 128 words at most
    // 2^16: it refuses larger SMs that `SmConfig::validate` accepts.)
    let warps = u.int_in_range(2..=16)?.min(512 / (warp_size / lanes)).max(1);
    let ctas = u.int_in_range(1..=warps.min(4))?;
    let warps = warps.max(ctas);
    let banks = *u.choose(&[2u32, 4, 8, 16, 32])?;
    let mut c = SmConfig {
        lanes,
        warp_size,
        warps,
        ctas,
        regs_per_thread: u.int_in_range(VAL_HI as u32..=127)?,
        preds: u.int_in_range(2..=7)?,
        shared_bytes: 16384,
        shared_banks: banks,
        stack_depth: *u.choose(&[32u32, 16, 64, 12, 8, 128])?,
        local_bytes: 256,
        fp32: u.ratio(3, 4)?,
        fp64: u.ratio(1, 2)?,
        int_div: u.ratio(2, 3)?,
        mul64: true,
        shift64: true,
        bus_bits: *u.choose(&[32u32, 64, 128, 256])?,
        instruction_budget: 2_000_000,
        imem_words: 4096,
    };
    // Tied to the dividers (no draw of its own, so a seed keeps its
    // configuration): a third of the configurations lack both, as `tiny` does.
    c.mul64 = c.int_div;
    c.shift64 = c.int_div;
    debug_assert!(c.validate().is_ok());
    Ok(c)
}

/// Generator options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// Draw the SM from these instead of the whole legal space (a Verilator
    /// campaign: each configuration is a Verilator build).
    pub configs: Vec<SmConfig>,
    /// Generate nothing that triggers a known, still open engine bug (the
    /// list is in `docs/fuzzing.md`; none is open now: the shfl.down/bfly
    /// clamp bug this left out is fixed).
    pub avoid_known: bool,
}

/// The generator's state while drawing one case.
struct Gen<'a, 'b> {
    opts: Options,
    u: &'a mut Unstructured<'b>,
    cfg: SmConfig,
    block: u32,
    grid: u32,
    nfuncs: usize,
    budget: u32,
    ops: Vec<Opcode>,
}

/// Draws a whole case.
pub fn case(u: &mut Unstructured) -> Result<Case> {
    case_with(u, Options::default())
}

/// Draws a whole case with options.
pub fn case_with(u: &mut Unstructured, opts: Options) -> Result<Case> {
    let cfg = if opts.configs.is_empty() { config(u)? } else { u.choose(&opts.configs)?.clone() };
    let max_block = cfg.max_cta_threads().min(96);
    let block = if u.ratio(1, 3)? {
        cfg.warp_size.min(max_block) * u.int_in_range(1..=2)?.min(max_block / cfg.warp_size.min(max_block)).max(1)
    } else {
        u.int_in_range(1..=max_block)?
    };
    let grid = u.int_in_range(1..=3)?;
    let mut data = Vec::with_capacity(DATA_WORDS);
    for _ in 0..DATA_WORDS {
        data.push(if u.ratio(1, 2)? { *u.choose(SPECIAL)? } else { u.arbitrary()? });
    }
    let units = cfg.units();
    let ops: Vec<Opcode> = TABLE
        .iter()
        .filter(|i| {
            matches!(i.unit, Unit::Alu | Unit::Fpu | Unit::Sfu | Unit::Dpu)
                && i.format != Format::S2r
                && heddle_hw::decode::missing_op_unit(i.opcode, units).is_none()
        })
        .map(|i| i.opcode)
        .collect();
    let nfuncs = u.int_in_range(0..=2)?;
    let mut g = Gen { opts, u, cfg: cfg.clone(), block, grid, nfuncs, budget: 90, ops };
    let mut funcs = vec![];
    for _ in 0..nfuncs {
        let n = g.u.int_in_range(1..=5)?;
        funcs.push(g.stmts(n, 1, 2, false, false)?);
    }
    let n = g.u.int_in_range(3..=14)?;
    let body = g.stmts(n, 0, 0, true, true)?;
    let bus_waits = if g.u.ratio(1, 2)? { Some(g.u.arbitrary::<u16>()? as u64) } else { None };
    let mem_latency = if g.u.ratio(1, 4)? { Some(g.u.int_in_range(2..=40)?) } else { None };
    Ok(Case { config: cfg, grid, block, data, body, funcs, bus_waits, mem_latency })
}

impl Gen<'_, '_> {
    fn val(&mut self, count: u8) -> Result<u8> {
        let n = (val_hi(&self.cfg) - VAL_LO) / count;
        Ok(VAL_LO + count * self.u.int_in_range(0..=n - 1)?)
    }
    fn pred(&mut self) -> Result<u8> {
        if self.u.ratio(1, 6)? {
            return Ok(7);
        }
        Ok(self.u.int_in_range(1..=self.cfg.preds as u8 - 1)?)
    }
    /// A predicate to write (never `pt`).
    fn pred_dest(&mut self) -> Result<u8> {
        Ok(self.u.int_in_range(1..=self.cfg.preds as u8 - 1)?)
    }
    fn imm(&mut self) -> Result<u32> {
        Ok(match self.u.int_in_range(0..=3)? {
            0 => *self.u.choose(SPECIAL)?,
            1 => self.u.int_in_range(0..=40)?,
            2 => self.u.arbitrary()?,
            _ => self.u.int_in_range(0..=0xffff)? << 8 | 0x1f,
        })
    }

    /// A condition into p0 that splits the threads of a warp.
    fn cond(&mut self) -> Result<Vec<String>> {
        let ws = self.cfg.warp_size;
        Ok(match self.u.int_in_range(0..=6)? {
            0 => vec![format!("and r6, r0, {}", 1u32 << self.u.int_in_range(0..=5)?), "isetp.ne p0, r6, 0".into()],
            1 => vec![format!("isetp.lo p0, r0, {}", self.u.int_in_range(0..=self.block)?)],
            2 => vec!["s2r r6, laneid".into(), format!("isetp.eq p0, r6, {}", self.u.int_in_range(0..=ws - 1)?)],
            3 => vec!["s2r r6, laneid".into(), format!("isetp.ne p0, r6, {}", self.u.int_in_range(0..=ws - 1)?)],
            4 => {
                let v = self.val(1)?;
                vec![format!("and r6, r{v}, {}", 1u32 << self.u.int_in_range(0..=31)?), "isetp.ne p0, r6, 0".into()]
            }
            5 => {
                let p = self.pred()?;
                vec![format!("plop.or p0, p{p}, p{p}").replace("p7", "pt")]
            }
            _ => vec![format!("isetp.ge p0, r1, {}", self.u.int_in_range(0..=self.grid * self.block)?)],
        })
    }

    fn stmts(&mut self, n: u32, depth: u32, loops: u8, top: bool, calls: bool) -> Result<Vec<Stmt>> {
        let mut v = vec![];
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            v.push(self.stmt(depth, loops, top, calls)?);
        }
        Ok(v)
    }

    fn stmt(&mut self, depth: u32, loops: u8, top: bool, calls: bool) -> Result<Stmt> {
        if self.u.ratio(1, 300)? {
            return self.fault();
        }
        if top && self.u.ratio(1, 40)? {
            // From a few entries short of the stack's depth to a few past it.
            let d = self.cfg.stack_depth;
            let base = self.u.int_in_range(d.saturating_sub(6).max(1)..=d + 1)?;
            return Ok(Stmt::Recurse { base, spread: *self.u.choose(&[0u32, 1, 3])? });
        }
        let k = self.u.int_in_range(0..=99)?;
        Ok(match k {
            0..=11 if depth < 4 => {
                let cond = self.cond()?;
                let a = self.u.int_in_range(1..=4)?;
                let b = self.u.int_in_range(0..=3)?;
                let then = self.stmts(a, depth + 1, loops, false, calls)?;
                let els = self.stmts(b, depth + 1, loops, false, calls)?;
                Stmt::If { cond, then, els }
            }
            12..=18 if loops < 2 => {
                let trip = if self.u.ratio(1, 2)? { vec!["mov r6, r0".to_string()] } else { vec![format!("mov r6, r{}", self.val(1)?)] };
                let mask = *self.u.choose(&[1u32, 3, 7])?;
                let base = self.u.int_in_range(0..=2)?;
                let n = self.u.int_in_range(1..=4)?;
                let body = self.stmts(n, depth + 1, loops + 1, false, calls)?;
                Stmt::Loop { level: loops, trip, mask, base, body }
            }
            19..=22 => Stmt::Exit { cond: self.cond()? },
            23..=30 if top => self.barrier()?,
            31..=35 if calls && self.nfuncs > 0 => {
                let func = self.u.int_in_range(0..=self.nfuncs - 1)?;
                let cond = if self.u.ratio(1, 2)? { self.cond()? } else { vec![] };
                Stmt::Call { cond, func }
            }
            36..=37 if calls && self.nfuncs > 0 => {
                let cond = self.cond()?;
                let a = self.u.int_in_range(0..=self.nfuncs - 1)?;
                let b = self.u.int_in_range(0..=self.nfuncs - 1)?;
                Stmt::Calli { cond, a, b }
            }
            38..=45 => self.memory()?,
            46..=53 => self.atomic()?,
            54..=61 => self.warp_op()?,
            62..=65 => self.carry()?,
            67..=68 => {
                // The arguments go in the last four value registers.
                let (a, b) = (self.val(1)?, self.val(1)?);
                let p = val_hi(&self.cfg) - 4;
                Stmt::Code(vec![
                    "st.local.b32 [rz+64], r1".into(),
                    format!("st.local.b32 [rz+68], r{a}"),
                    format!("st.local.b32 [rz+72], r{b}"),
                    format!("mov r{p}, fmt+0xfd000000"),
                    format!("mov r{}, 0", p + 1),
                    format!("mov r{}, 0xff000040", p + 2),
                    format!("mov r{}, 0", p + 3),
                    format!("syscall.vprintf r{p}, r{p}"),
                ])
            }
            66 => Stmt::Code(vec![(*self.u.choose(&["nop", "fence.cta", "fence.gpu", "fence.sys"])?).to_string()]),
            _ => Stmt::Code(vec![self.compute()?]),
        })
    }

    /// A random compute instruction of the SM's units, printed by the ISA's printer.
    fn compute(&mut self) -> Result<String> {
        for _ in 0..20 {
            let op = *self.u.choose(&self.ops)?;
            let info = op.info();
            let mut i = Inst::new(op);
            for &m in info.mods {
                let mi = mod_info(m);
                let n = mi.names.len() as u32;
                let val = if n == 1 { self.u.ratio(1, 3)? as u32 } else { self.u.int_in_range(0..=n - 1)? };
                i.set_modifier(m, val);
            }
            let imm = info.imm && self.u.ratio(1, 3)?;
            match info.format {
                Format::SetP => {
                    let pd = self.pred()?;
                    let pc = self.pred()?;
                    let neg = self.u.ratio(1, 4)? as u8;
                    i.d = pd.min(7) | pc << 3 | neg << 6;
                }
                Format::Sel => {
                    let p = self.pred()?;
                    i.mods = p | (self.u.ratio(1, 3)? as u8) << 3;
                }
                Format::Plop => {
                    i.d = self.pred_dest()?;
                    i.a = self.pred()? | (self.u.ratio(1, 3)? as u8) << 3;
                    i.b = Operand::Reg(self.pred()? | (self.u.ratio(1, 3)? as u8) << 3);
                }
                _ => {}
            }
            let counts = i.reg_counts();
            let regs = i.reg_fields();
            if regs[0].is_some() {
                i.d = self.val(counts[0])?;
            }
            if regs[1].is_some() {
                i.a = self.val(counts[1])?;
            }
            if matches!(info.format, Format::Rb | Format::Rrb | Format::Rrbc | Format::SetP | Format::Sel) {
                i.b = if imm { Operand::Imm(self.imm()?) } else { Operand::Reg(self.val(counts[2])?) };
            }
            if i.uses_c() {
                i.c = if imm { heddle_isa::fields::RZ } else { self.val(counts[3])? };
            }
            if matches!(info.format, Format::SetP) {
                // keep pd a real predicate
                if i.d & 7 == 7 {
                    i.d = (i.d & !7) | 1;
                }
            }
            if self.u.ratio(1, 8)? {
                i.guard = Guard { pred: self.pred()?, neg: self.u.ratio(1, 2)? };
            }
            if i.validate().is_ok() {
                return Ok(format!("{i}"));
            }
        }
        Ok(format!("xor r{}, r{}, 0x5a5a", VAL_LO, VAL_LO + 1))
    }

    /// Loads of every width from `data`, stores of every width to the
    /// thread's own scratch, coalesced or strided column stores.
    fn memory(&mut self) -> Result<Stmt> {
        let widths = [("u8", 1u32, 1u8), ("s8", 1, 1), ("u16", 2, 1), ("s16", 2, 1), ("b32", 4, 1), ("b64", 8, 2), ("b128", 16, 4)];
        let (w, bytes, regs) = *self.u.choose(&widths)?;
        let d = self.val(regs)?;
        Ok(Stmt::Code(match self.u.int_in_range(0..=4)? {
            0 => {
                let off = self.u.int_in_range(0..=(DATA_WORDS as u32 * 4 / bytes) - 1)? * bytes;
                vec![format!("ld.global.{w} r{d}, [r3+{off}]")]
            }
            1 => {
                // per-thread index: consecutive (coalescing) or strided
                let shift = (bytes.trailing_zeros()) + self.u.int_in_range(0..=2)?;
                let n = (DATA_WORDS as u32 * 4) >> shift;
                vec![
                    format!("and r6, r1, {}", n - 1),
                    format!("shl r6, r6, {shift}"),
                    "add r6, r3, r6".into(),
                    format!("ld.{w} r{d}, [r6]"),
                ]
            }
            2 => {
                let off = 64 + self.u.int_in_range(0..=64 / bytes - 1)? * bytes;
                vec![format!("st.global.{w} [r2+{off}], r{d}")]
            }
            3 => {
                let d = self.val(1)?;
                let col = self.u.int_in_range(0..=COLUMNS - 1)?;
                vec![
                    "ld.param.b32 r7, [rz]".into(),
                    "shl r6, r1, 2".into(),
                    "add r6, r6, r7".into(),
                    format!("st.global.b32 [r6+{}], r{d}", self.col_off(col)),
                ]
            }
            _ => {
                // local memory round trip
                let off = self.u.int_in_range(0..=(64 / bytes) - 1)? * bytes;
                let s = self.val(regs)?;
                vec![format!("st.local.{w} [rz+{off}], r{s}"), format!("ld.local.{w} r{d}, [rz+{off}]")]
            }
        }))
    }
    /// A memory access that faults on purpose ([`Stmt::Fault`]).
    fn fault(&mut self) -> Result<Stmt> {
        let (w, bytes, regs) = *self.u.choose(&[("u16", 2u32, 1u8), ("b32", 4, 1), ("b64", 8, 2)])?;
        let d = self.val(regs)?;
        let load = self.u.ratio(1, 2)?;
        let op = if load { format!("ld.global.{w} r{d}, [r6]") } else { format!("st.global.{w} [r6], r{d}") };
        Ok(Stmt::Fault(if self.u.ratio(2, 3)? {
            // Consecutive lanes from `past` accesses before the end of `data`
            // (loads only: a store that happened not to fault, where a warp
            // has fewer lanes than `past` covers, would race with other warps).
            let past = if load { self.u.int_in_range(0..=3)? * bytes } else { 0 };
            vec![
                "s2r r6, laneid".into(),
                format!("shl r6, r6, {}", bytes.trailing_zeros()),
                "add r6, r3, r6".into(),
                format!("add r6, r6, {}", DATA_WORDS as u32 * 4 - past),
                op,
            ]
        } else {
            vec![format!("add r6, r3, {}", self.u.int_in_range(1..=bytes - 1)?), op]
        }))
    }

    fn col_off(&self, col: u32) -> u32 {
        let threads = self.grid * self.block;
        threads * THREAD_BYTES + col * threads * 4
    }

    /// Atomics: per-warp counters (deterministic old values), or grid-wide
    /// counters under contention with the old value discarded.
    fn atomic(&mut self) -> Result<Stmt> {
        let threads = self.grid * self.block;
        let cbase = threads * (THREAD_BYTES + 4 * COLUMNS);
        let warps = self.grid * self.block.div_ceil(self.cfg.warp_size);
        let mut ops = vec!["add", "umin", "smin", "umax", "smax", "inc", "dec", "and", "or", "xor", "exch", "cas"];
        if self.cfg.fp32 {
            ops.push("fadd");
        }
        let mut op = *self.u.choose(&ops)?;
        let mut b64 = op != "inc" && op != "dec" && (op != "fadd" || self.cfg.fp64) && self.u.ratio(1, 4)?;
        let mut k = if b64 { 2 * self.u.int_in_range(0..=1)? } else { self.u.int_in_range(0..=COUNTERS - 1)? };
        // Grid-wide counters see warps in any order: each word gets one
        // commutative operation of one width (0: add, 1: xor, 2-3: add.b64).
        let grid_wide = self.u.ratio(1, 3)?;
        if grid_wide {
            k = self.u.int_in_range(0..=2)?;
            (op, b64) = [("add", false), ("xor", false), ("add", true)][k as usize];
        }
        let n = if b64 { 2 } else { 1 };
        let mut v = vec!["ld.param.b32 r7, [rz]".to_string()];
        if grid_wide {
            v.push(format!("add r6, r7, {}", cbase + warps * COUNTERS * 4 + k * 4));
        } else {
            v.extend([
                "s2r r6, ctaid.x".into(),
                format!("mul.u r6, r6, {}", self.block.div_ceil(self.cfg.warp_size)),
                "s2r r7, warpid".into(),
                "add r6, r6, r7".into(),
                format!("shl r6, r6, {}", (COUNTERS * 4).trailing_zeros()),
                "ld.param.b32 r7, [rz]".into(),
                "add r6, r6, r7".into(),
                format!("add r6, r6, {}", cbase + k * 4),
            ]);
        }
        let d = if grid_wide { "rz".to_string() } else { format!("r{}", self.val(n)?) };
        let b = self.val(n)?;
        let sfx = if b64 { ".b64" } else { "" };
        let shared = !grid_wide && self.u.ratio(1, 4)?;
        if shared {
            // per-warp 8 bytes of shared memory beyond the exchange slots
            v = vec!["s2r r6, warpid".into(), "shl r6, r6, 3".into(), format!("add r6, r6, {}", self.block.next_power_of_two() * 8 * 4)];
        }
        let space = if shared { "shared" } else { "global" };
        if op == "cas" {
            let c = self.val(n)?;
            v.push(format!("atom.{space}.cas{sfx} {d}, [r6], r{b}, r{c}"));
        } else {
            v.push(format!("atom.{space}.{op}{sfx} {d}, [r6], r{b}"));
        }
        Ok(Stmt::Code(v))
    }

    fn warp_op(&mut self) -> Result<Stmt> {
        let d = self.val(1)?;
        let a = self.val(1)?;
        let p = self.pred()?;
        let pn = |p: u8| if p == 7 { "pt".to_string() } else { format!("p{p}") };
        let mut q = self.pred()?;
        if q == 7 {
            q = 1;
        }
        Ok(Stmt::Code(match self.u.int_in_range(0..=3)? {
            0 => vec![format!(
                "vote.{} p{q}, {}{}",
                self.u.choose(&["all", "any", "uni"])?,
                if self.u.ratio(1, 3)? { "!" } else { "" },
                pn(p)
            )],
            1 => vec![format!("ballot r{d}, {}", pn(p))],
            2 => {
                let _ = self.opts.avoid_known;
                let mode = *self.u.choose(&["idx", "up", "down", "bfly"])?;
                let lane = self.u.int_in_range(0..=self.cfg.warp_size + 1)?;
                let clamp = self.u.int_in_range(0..=31)?;
                let seg = *self.u.choose(&[0u32, 0x10, 0x18, 0x1c, 0x1e, 0x1f])?;
                let b = if self.u.ratio(1, 2)? { format!("r{}", self.val(1)?) } else { format!("{lane}") };
                let dest = if self.u.ratio(1, 2)? { format!("r{d}|p{q}") } else { format!("r{d}") };
                if b.starts_with('r') {
                    vec![format!("mov r7, {}", clamp | seg << 8), format!("shfl.{mode} {dest}, r{a}, {b}, r7")]
                } else {
                    vec![format!("mov r7, {}", clamp | seg << 8), format!("mov r6, {b}"), format!("shfl.{mode} {dest}, r{a}, r6, r7")]
                }
            }
            _ => vec![
                "s2r r".to_string()
                    + &format!(
                        "{d}, {}",
                        self.u.choose(&[
                            "laneid",
                            "warpid",
                            "activemask",
                            "lanemask_lt",
                            "lanemask_ge",
                            "nwarpid",
                            "warpsize",
                            "ctaid.x",
                            "ntid.x",
                            "nctaid.x",
                            "tid.y"
                        ])?
                    ),
            ],
        }))
    }

    fn carry(&mut self) -> Result<Stmt> {
        let (d, a, b) = (self.val(2)?, self.val(2)?, self.val(2)?);
        let hi = if self.u.ratio(1, 2)? { "add" } else { "sub" };
        Ok(Stmt::Code(vec![format!("{hi}.cc r{d}, r{a}, r{b}"), format!("{hi}.x r{}, r{}, r{}", d + 1, a + 1, b + 1)]))
    }

    /// Shared-memory exchange between two barriers: slot = tid * stride
    /// (strides make bank conflicts), read back from a permuted or
    /// broadcast slot.
    fn barrier(&mut self) -> Result<Stmt> {
        let p2 = self.block.next_power_of_two();
        let stride = *self.u.choose(&[1u32, 2, 4, 8])?;
        let sh = (stride * 4).trailing_zeros();
        let (s, d) = (self.val(1)?, self.val(1)?);
        let mut v = vec![format!("shl r6, r0, {sh}"), format!("st.shared.b32 [r6], r{s}"), "bar.sync 0".into()];
        if self.u.ratio(1, 4)? {
            v.push(format!("mov r7, {}", self.u.int_in_range(0..=p2 - 1)? * stride * 4));
        } else {
            let add = self.u.int_in_range(0..=p2)?;
            v.extend([format!("add r7, r0, {add}"), format!("and r7, r7, {}", p2 - 1), format!("shl r7, r7, {sh}")]);
        }
        v.push(format!("ld.shared.b32 r{d}, [r7]"));
        if self.u.ratio(1, 4)? {
            let p = self.pred()?;
            let pn = if p == 7 { "pt".to_string() } else { format!("p{p}") };
            v.push(format!("barred.{} r{}, 1, {pn}", self.u.choose(&["popc", "and", "or"])?, self.val(1)?));
        } else {
            v.push("bar.sync 0".into());
        }
        Ok(Stmt::Barrier { code: v })
    }
}
