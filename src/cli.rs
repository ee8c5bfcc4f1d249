//! Command-line parsing and dispatch. Exit status: 0 success, 1 the kernel
//! ran but trapped (or a check failed), 2 bad input.

use crate::run::{self, Arg, RunSpec};
use clap::{Parser, Subcommand};
use heddle_compiler::lower::Options as CompileOptions;
use heddle_compiler::ptx::ast::Module;
use heddle_compiler::ptx::SourceFile;
use heddle_hw::SmConfig;
use heddle_isa::asm;
use heddle_isa::diag::Diagnostics;
use heddle_isa::Object;
use heddle_sim::Engine;
use std::path::{Path, PathBuf};

/// Writes to stdout. A closed pipe (`heddle run ... | head`) ends the output
/// quietly, where `print!` would panic.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($t)*);
    }};
}

macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}
#[derive(Parser)]
#[command(name = "heddle", version, about = "PTX to a parameterized SIMT streaming multiprocessor: assembler, golden model, RTL")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
    /// Draw no progress line on stderr (it is drawn only on a terminal, for work longer than a second).
    #[arg(long, short, global = true)]
    quiet: bool,
}

/// An SM configuration: a preset and field overrides.
#[derive(clap::Args)]
#[command(next_help_heading = "SM configuration")]
struct SmArgs {
    /// SM configuration preset.
    #[arg(long, value_enum, default_value_t = Preset::Default)]
    config: Preset,
    /// Override one field of the configuration: KEY=VALUE (lanes=4, fp64=false, ...); repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
}

/// The SM configuration presets (`SmConfig::preset`).
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Preset {
    Tiny,
    Default,
    Wide,
}

impl Preset {
    fn name(self) -> &'static str {
        match self {
            Preset::Tiny => "tiny",
            Preset::Default => "default",
            Preset::Wide => "wide",
        }
    }
}

impl SmArgs {
    /// The preset with the overrides, not yet validated.
    fn config(&self) -> Result<SmConfig, String> {
        sm_config(self.config.name(), &self.sets)
    }
    /// The design's name: the preset and the overrides.
    fn design(&self) -> String {
        std::iter::once(self.config.name().to_string()).chain(self.sets.iter().cloned()).collect::<Vec<_>>().join(" ")
    }
}

/// A launch manifest and what to do with it.
#[derive(clap::Args)]
#[command(next_help_heading = "Manifest runs")]
struct ManifestArgs {
    /// A launch manifest (JSON): runs it and checks its expectations.
    #[arg(long, conflicts_with = "program")]
    manifest: Option<PathBuf>,
    /// With --manifest: which PTX variant to run (default: the manifest's first).
    #[arg(long)]
    ptx_variant: Option<String>,
    /// With --manifest: write every output buffer to DIR/NAME.bin.
    #[arg(long)]
    dump: Option<PathBuf>,
    /// With --manifest: print the result as JSON.
    #[arg(long)]
    json: bool,
}

/// The launch of a program's kernel.
#[derive(clap::Args)]
#[command(next_help_heading = "Launch")]
struct LaunchArgs {
    /// Kernel to launch (default: the only one).
    #[arg(short, long, conflicts_with = "manifest")]
    kernel: Option<String>,
    /// Grid size in CTAs: X[,Y[,Z]].
    #[arg(long, default_value = "1", conflicts_with = "manifest")]
    grid: String,
    /// CTA size in threads: X[,Y[,Z]].
    #[arg(long, default_value = "32", conflicts_with = "manifest")]
    block: String,
    /// Kernel argument, in parameter order: TYPE:VALUE (u32:5, f32:1.5, ...) or
    /// buf:NAME:TYPE:COUNT[=v1,v2,...] (a global buffer, printed after the run).
    #[arg(long = "arg", value_name = "ARG", conflicts_with = "manifest")]
    args: Vec<String>,
    /// Dynamic shared memory bytes.
    #[arg(long, default_value_t = 0, conflicts_with = "manifest")]
    shared: u32,
}

/// When a launch is stopped.
#[derive(clap::Args)]
#[command(next_help_heading = "Limits")]
struct LimitArgs {
    /// Override the configuration's warp-instruction budget (runaway detection;
    /// default: 1e9 warp instructions, 1e8 on tiny).
    #[arg(long)]
    budget: Option<u64>,
    /// RTL: stop a launch as runaway after this many cycles (0: no limit; the
    /// default is 15-25 s of simulation at the RTL's measured 130-190k cycles/s).
    #[arg(long, default_value_t = 3_000_000, value_name = "N")]
    max_cycles: u64,
    /// Stop a launch as runaway after this many seconds, on every engine (0: no limit).
    #[arg(long, default_value_t = 50, value_name = "SECONDS")]
    timeout: u64,
    /// Override the configuration's reconvergence-stack depth.
    #[arg(long)]
    stack_depth: Option<u32>,
}

impl LimitArgs {
    fn limits(&self) -> heddle_sim::limits::Limits {
        heddle_sim::limits::Limits {
            timeout: (self.timeout > 0).then(|| std::time::Duration::from_secs(self.timeout)),
            max_cycles: (self.max_cycles > 0).then_some(self.max_cycles),
        }
    }
}

/// Options of the cycle-accurate engines (rtl, verilator).
#[derive(clap::Args)]
#[command(next_help_heading = "RTL")]
struct RtlArgs {
    /// RTL: write a VCD trace here.
    #[arg(long)]
    vcd: Option<PathBuf>,
    /// RTL: first cycle the VCD covers.
    #[arg(long, default_value_t = 0, requires = "vcd")]
    vcd_from: u64,
    /// RTL: cycle the VCD stops at, exclusive (default: the end of the run).
    #[arg(long, requires = "vcd")]
    vcd_to: Option<u64>,
    /// RTL: trace only these scopes (sm.sched, sm.stack, sm.lane3.alu, ...); repeatable.
    #[arg(long = "vcd-scope", requires = "vcd")]
    vcd_scopes: Vec<String>,
    /// RTL: compare every retired warp instruction with the golden model.
    #[arg(long)]
    lockstep: bool,
    /// RTL: the memory behind the bus stalls and delays its answers at
    /// random (seeded), instead of answering every transfer in the next cycle.
    #[arg(long, value_name = "SEED")]
    bus_waits: Option<u64>,
    /// RTL: the memory behind the bus answers a transfer N cycles after
    /// it (default 1, the next cycle; a manifest's `mem_latency` when
    /// not given). It is pipelined: it takes a transfer every cycle.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    mem_latency: Option<u32>,
}

impl RtlArgs {
    /// The RTL engine's options for `engine`; Err: options an engine without cycles cannot take.
    fn options(self, engine: Engine) -> Result<heddle_sim::rtl::RtlOptions, String> {
        if engine != Engine::Rtl && self.vcd.is_some() {
            return Err("--vcd: VCD traces need --engine rtl".into());
        }
        if !engine.has_cycles() && (self.lockstep || self.bus_waits.is_some() || self.mem_latency.is_some()) {
            return Err("--lockstep, --bus-waits and --mem-latency need --engine rtl or verilator".into());
        }
        Ok(heddle_sim::rtl::RtlOptions {
            vcd: self.vcd.map(|path| heddle_sim::rtl::vcd::VcdOptions {
                path,
                from: self.vcd_from,
                to: self.vcd_to.unwrap_or(u64::MAX),
                scopes: self.vcd_scopes,
            }),
            lockstep: self.lockstep,
            verilator: engine == Engine::Verilator,
            bus_waits: self.bus_waits,
            mem_latency: self.mem_latency,
            no_mismatch_vcd: false,
            corrupt_retire: None,
        })
    }
}

/// What a run prints and draws besides its results.
#[derive(clap::Args)]
#[command(next_help_heading = "Output")]
struct OutputArgs {
    /// Print every retire record.
    #[arg(long)]
    trace: bool,
    /// Print launch statistics.
    #[arg(long)]
    stats: bool,
    /// Print every element of every buffer (buffers of more than 1024
    /// elements print as a summary otherwise: first and last elements, count, CRC-32).
    #[arg(long, conflicts_with = "manifest")]
    full: bool,
    /// Draw the schedule, one row per warp, to FILE.svg or FILE.html (zoomable):
    /// cycles on rtl, issue slots on golden and ptx (docs/timeline.md).
    #[arg(long, value_name = "FILE")]
    timeline: Option<PathBuf>,
    /// Write a bar chart of the kernel's cycles by cause (issue slots by unit
    /// on golden and ptx) to FILE.svg.
    #[arg(long, value_name = "FILE")]
    stats_svg: Option<PathBuf>,
}

/// What `heddle compile` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Emit {
    /// The object.
    Obj,
    /// The ISA with the PTX source lines.
    Asm,
    /// Per function: PTX and ISA instructions, registers needed, spilled
    /// values, spill store/load bytes, frame bytes, PTX predicates in
    /// predicate registers.
    Stats,
}

#[derive(Subcommand)]
enum Cmd {
    /// Assemble Heddle assembly into an object file.
    Asm {
        input: PathBuf,
        /// Output object (default: INPUT with extension .hbin).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Print an object file as assembly that re-assembles to the same bytes.
    Disasm {
        input: PathBuf,
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Run a kernel of an object, assembly or PTX file, or a launch manifest.
    Run {
        /// A .hbin object, Heddle assembly (assembled on the fly), or .ptx (compiled
        /// for golden and rtl, interpreted by ptx).
        #[arg(required_unless_present = "manifest")]
        program: Option<PathBuf>,
        #[command(flatten)]
        manifest: ManifestArgs,
        #[command(flatten)]
        launch: LaunchArgs,
        /// Engine: golden (assembled or compiled programs), ptx (the PTX reference
        /// interpreter), rtl (the rust-hdl SM, cycle by cycle) or verilator (the
        /// SM's Verilog under Verilator: built once per configuration, cached).
        #[arg(long, value_enum, default_value_t = Engine::Golden)]
        engine: Engine,
        #[command(flatten)]
        sm: SmArgs,
        /// Compile PTX for at most N registers per thread (ptxas's
        /// -maxrregcount; default and upper bound: the configuration's
        /// regs_per_thread).
        #[arg(long, value_name = "N")]
        max_regs: Option<u32>,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        rtl: RtlArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Compile a PTX file to a Heddle object.
    Compile {
        input: PathBuf,
        /// Output object (default: INPUT with extension .hbin).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// What to write.
        #[arg(long, value_enum, default_value_t = Emit::Obj)]
        emit: Emit,
        /// At most N registers per thread (ptxas's -maxrregcount; default and
        /// upper bound: the configuration's regs_per_thread).
        #[arg(long, value_name = "N")]
        max_regs: Option<u32>,
        /// The SM configuration the code is for.
        #[command(flatten)]
        sm: SmArgs,
    },
    /// Check a PTX file: parse and check it, reporting every error with its position.
    Check { input: PathBuf },
    /// Print a PTX file in canonical form.
    Fmt { input: PathBuf },
    /// Print the ISA reference (docs/isa.md).
    IsaDoc,
    /// Write the SM's Verilog (top module `top`) for a configuration.
    Export {
        /// Output file (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
        #[command(flatten)]
        sm: SmArgs,
        /// Also lint it with `verilator --lint-only -Wall` (the flags of heddle_hw::verilog::LINT_FLAGS).
        #[arg(long)]
        lint: bool,
        /// Print the SM's memories instead, as the configuration sizes them:
        /// each RAM's words, width and read style, and the totals.
        #[arg(long, conflicts_with_all = ["output", "lint", "fpga"])]
        memories: bool,
        /// Write an FPGA project into this folder instead: the Verilog, the scan
        /// wrapper that `heddle synth` builds, the board's constraints and a FuseSoC core.
        #[arg(long, value_name = "DIR", conflicts_with = "output")]
        fpga: Option<PathBuf>,
        /// With --fpga: the part (ecp5-85f, ecp5-45f, ecp5-25f, ice40-hx8k, ice40-up5k).
        #[arg(long, default_value = "ecp5-85f", requires = "fpga")]
        target: heddle_fpga::Target,
    },
    /// Run the SM's Verilog through the open FPGA flow (yosys, nextpnr,
    /// ecppack/icepack): area, Fmax and critical path, where each memory
    /// went, a bitstream (docs/fpga.md). Exit status 1 when it does not fit
    /// or a tool failed (the report says which).
    Synth {
        /// The part: ecp5-85f, ecp5-45f, ecp5-25f, ice40-hx8k, ice40-up5k.
        #[arg(long, default_value = "ecp5-85f")]
        target: heddle_fpga::Target,
        /// SM configuration preset.
        #[arg(long, value_enum, default_value_t = Preset::Tiny)]
        config: Preset,
        /// Override one field of the configuration: KEY=VALUE; repeatable.
        #[arg(long = "set", value_name = "KEY=VALUE")]
        sets: Vec<String>,
        /// Synthesize this Verilog file instead of the SM (with --block: its module to build).
        #[arg(long, value_name = "FILE")]
        verilog: Option<PathBuf>,
        /// Build one module (and the modules below it) instead of `top`, e.g. 'top$alus$0'.
        #[arg(long, value_name = "MODULE")]
        block: Option<String>,
        /// The clock nextpnr is asked to meet, MHz.
        #[arg(long = "freq", default_value_t = 50.0)]
        freq_mhz: f64,
        /// Output folder: sources, logs, netlists, report.json, the bitstream (default: target/heddle-synth/<design>-<target>).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Print the report as JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Area per block: each distinct module synthesized on its own, children as black boxes (no place and route).
        #[arg(long, conflicts_with = "block")]
        blocks: bool,
        /// Place and route the whole SM from its blocks' netlists (synthesized as --blocks, then joined): for a design whose flattened synthesis takes too long.
        #[arg(long, conflicts_with_all = ["block", "blocks", "no_place"])]
        by_block: bool,
        /// Synthesis only: no place and route, no bitstream.
        #[arg(long)]
        no_place: bool,
        /// Keep the monitor ports and performance counters (simulation's) in the build (with --blocks: in the top block).
        #[arg(long)]
        monitors: bool,
        /// Compare with a saved report (fpga/baselines/): exit status 1 when LUTs, FFs, block RAMs, DSPs or a block's LUTs grew, or Fmax fell, by more than --tolerance.
        #[arg(long, value_name = "FILE")]
        baseline: Option<PathBuf>,
        /// Percent a figure may be worse than the baseline's.
        #[arg(long, default_value_t = 2.0)]
        tolerance: f64,
        /// Save this run's report as a baseline.
        #[arg(long, value_name = "FILE")]
        save_baseline: Option<PathBuf>,
        /// Stop a tool that runs longer than this many seconds (with --blocks: per block), reporting where it was.
        #[arg(long, value_name = "SECONDS")]
        limit: Option<u64>,
    },
    /// Measure golden-model throughput (thread instructions per second), or with --rtl the RTL's.
    Bench {
        /// Seconds to spend per kernel (with --rtl: launches of each built-in
        /// kernel are repeated until they have taken this long; a corpus case
        /// is launched once).
        #[arg(long, default_value_t = 1.0)]
        seconds: f64,
        /// Benchmark the RTL instead: cycles per second, IPC and lane utilisation.
        #[arg(long)]
        rtl: bool,
        /// Benchmark the PTX reference interpreter on launch manifests
        /// (those under --corpus, tests/corpus by default).
        #[arg(long, conflicts_with_all = ["rtl", "verilator"])]
        ptx: bool,
        /// With --rtl or --ptx: run the launch manifests under this path (a
        /// case directory or a directory of them, e.g. tests/corpus) instead
        /// of the built-in kernels.
        #[arg(long)]
        corpus: Option<PathBuf>,
        /// With --rtl --corpus: the memory answers each bus transfer N cycles
        /// after it (as `heddle run --mem-latency`), to measure latency hiding.
        #[arg(long, value_name = "N", requires = "corpus", value_parser = clap::value_parser!(u32).range(1..=10_000))]
        mem_latency: Option<u32>,
        /// Benchmark the Verilator engine beside rust-hdl: cycles per second
        /// of both on the built-in kernels (builds the models first).
        #[arg(long, conflicts_with = "rtl")]
        verilator: bool,
    },
    /// Differential fuzzing: random kernels and SM configurations, run on the
    /// golden model and on the RTL engines in lockstep, ends compared (docs/fuzzing.md).
    Fuzz {
        /// What to generate: ISA programs (the hardware) or PTX kernels (the compiler).
        #[arg(long, value_enum, default_value = "isa")]
        target: crate::fuzz::Target,
        /// Seconds to run programs for (a mismatch is then shrunk, for up to 2 minutes).
        #[arg(long, default_value_t = 60.0)]
        seconds: f64,
        /// Seed of the first program (program k has seed S + k): the same seed gives the same programs.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Stop after this many programs (within --seconds): a run that does the same work however fast.
        #[arg(long)]
        programs: Option<u64>,
        /// The engines to compare: golden and rtl and/or verilator [default: golden,rtl];
        /// with --target ptx: ptx, golden and optionally rtl [default: ptx,golden].
        #[arg(long, value_delimiter = ',')]
        engines: Option<Vec<Engine>>,
        /// Threads running programs.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Run only programs k with k % N == I (for a batch system; merge the corpora after).
        #[arg(long, value_parser = crate::fuzz::parse_shard, value_name = "I/N")]
        shard: Option<(u64, u64)>,
        /// Keep programs that reached new coverage here (as cargo-fuzz inputs) and resume from here.
        #[arg(long)]
        corpus: Option<PathBuf>,
        /// Copy these corpora's entries into --corpus, and stop.
        #[arg(long, requires = "corpus", num_args = 1..)]
        merge: Vec<PathBuf>,
        /// With verilator: the SM configurations to draw (each a Verilator build).
        #[arg(long, default_value_t = 3)]
        configs: usize,
        /// Run every program on one of these presets instead of a configuration drawn from the legal space.
        #[arg(long = "config", value_enum, value_delimiter = ',', conflicts_with = "configs")]
        presets: Vec<Preset>,
        /// Build the SM with this planted bug (docs/fuzzing.md; or $HEDDLE_PLANT).
        #[arg(long)]
        plant: Option<heddle_hw::plant::Plant>,
        /// Run a campaign of --seconds against each planted bug (or those named) and print a table.
        #[arg(long, num_args = 0.., value_name = "PLANT")]
        plants: Option<Vec<heddle_hw::plant::Plant>>,
        /// Write each shrunk mismatch here as a ready-to-run `.hasm` with a `run:` line.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Print the summary as JSON.
        #[arg(long)]
        json: bool,
        /// Generate nothing that triggers a known, still open engine bug (docs/fuzzing.md).
        #[arg(long)]
        avoid_known: bool,
        /// Stop after this many (shrunk) mismatches.
        #[arg(long, default_value_t = 1)]
        max_mismatches: usize,
    },
}

/// Reads an object or assembles a source file; Err is printed with exit 2.
pub fn load_program(path: &Path) -> Result<Object, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.starts_with(heddle_isa::object::MAGIC) {
        return Object::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()));
    }
    let text = String::from_utf8(bytes).map_err(|_| format!("{}: neither a Heddle object nor UTF-8 assembly", path.display()))?;
    let obj = asm::assemble(&path.display().to_string(), &text).map_err(|d| d.to_string())?;
    if obj.kernels.is_empty() {
        return Err(format!("{}: no `.kernel` in the file: an object needs a kernel to launch", path.display()));
    }
    Ok(obj)
}

/// Reads, parses and checks a PTX file: its source (which diagnostics and
/// the interpreter's positions refer to) and its module; Err carries every
/// diagnostic.
pub fn load_ptx(path: &Path) -> Result<(SourceFile, Module), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let text =
        String::from_utf8(bytes).map_err(|e| format!("{}: not UTF-8 text (byte {})", path.display(), e.utf8_error().valid_up_to()))?;
    let src = SourceFile::new(&path.display().to_string(), &text);
    let m = heddle_compiler::ptx::load(&src).map_err(|d| Diagnostics(d).to_string())?;
    Ok((src, m))
}

/// Compiles a PTX file; Err carries every diagnostic.
pub fn compile_ptx(path: &Path, opts: &CompileOptions) -> Result<Object, String> {
    let (src, m) = load_ptx(path)?;
    Ok(heddle_compiler::lower::compile_with(&src, &m, opts).map_err(|d| Diagnostics(d).to_string())?.0)
}

/// What the compiler may use on an SM: its registers and predicates, the
/// registers at most `max_regs` (`--max-regs`).
pub fn compile_options(cfg: &SmConfig, max_regs: Option<u32>) -> Result<CompileOptions, String> {
    let limit = heddle_isa::fields::NUM_REGS as u32;
    if let Some(n) = max_regs {
        if n == 0 || n > limit {
            return Err(format!("--max-regs {n}: must be 1..={limit}"));
        }
    }
    Ok(CompileOptions {
        max_regs: max_regs.unwrap_or(u32::MAX).min(cfg.regs_per_thread).min(limit),
        preds: cfg.preds,
        check_alloc: false,
        mul64: cfg.mul64,
        shift64: cfg.shift64,
    })
}

/// The disassembly with each PTX source line shown before the code it became.
fn annotated(obj: &Object, ptx: &str) -> String {
    let lines: Vec<&str> = ptx.lines().collect();
    let dis = asm::disassemble(obj);
    let mut out = String::new();
    let mut last = None;
    for l in dis.lines() {
        if let Some(rest) = l.trim_start().strip_prefix(".loc 0 ") {
            let line: usize = rest.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0);
            if last != Some(line) {
                if let Some(t) = lines.get(line.wrapping_sub(1)) {
                    out.push_str(&format!("    // {line}: {}\n", t.trim()));
                }
                last = Some(line);
            }
            continue;
        }
        out.push_str(l);
        out.push('\n');
    }
    out
}

fn write_out(path: Option<&Path>, bytes: &[u8]) -> Result<(), String> {
    match path {
        Some(p) => std::fs::write(p, bytes).map_err(|e| format!("{}: {e}", p.display())),
        None => {
            use std::io::Write;
            match std::io::stdout().write_all(bytes) {
                // A reader that stopped early (`heddle export | head`): done, quietly, as cargo does.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                other => other.map_err(|e| e.to_string()),
            }
        }
    }
}

/// A preset with `--set KEY=VALUE` overrides (VALUE as JSON: a number or
/// true/false), not yet validated (the caller may override more; `Sm::new`
/// validates).
fn sm_config(preset: &str, sets: &[String]) -> Result<SmConfig, String> {
    let cfg = SmConfig::preset(preset).ok_or(format!("unknown configuration `{preset}` (tiny, default, wide)"))?;
    let mut fields = serde_json::to_value(&cfg).map_err(|e| e.to_string())?;
    let map = fields.as_object_mut().ok_or("SmConfig is not a JSON object")?;
    let keys = map.keys().map(String::as_str).collect::<Vec<_>>().join(", ");
    for set in sets {
        let (key, value) = set.split_once('=').ok_or(format!("--set `{set}`: expected KEY=VALUE"))?;
        let slot = map.get_mut(key).ok_or(format!("--set `{set}`: no configuration field `{key}` (fields: {keys})"))?;
        *slot = serde_json::from_str(value).map_err(|_| format!("--set `{set}`: `{value}` is not a number or true/false"))?;
    }
    serde_json::from_value(fields).map_err(|e| format!("--set: {e}"))
}

fn exec(cmd: Cmd, quiet: bool) -> Result<i32, String> {
    match cmd {
        Cmd::Asm { input, output } => {
            let obj = load_program(&input)?;
            let out = output.unwrap_or_else(|| input.with_extension("hbin"));
            write_out(Some(&out), &obj.to_bytes())?;
            Ok(0)
        }
        Cmd::Disasm { input, output } => {
            let bytes = std::fs::read(&input).map_err(|e| format!("{}: {e}", input.display()))?;
            let obj = Object::from_bytes(&bytes).map_err(|e| format!("{}: {e}", input.display()))?;
            write_out(output.as_deref(), asm::disassemble(&obj).as_bytes())?;
            Ok(0)
        }
        Cmd::Run { program, manifest, launch, engine, sm, max_regs, limits, rtl, output } => {
            let pictures = run::Pictures { timeline: output.timeline, stats_svg: output.stats_svg };
            pictures.check()?;
            let status = crate::progress::Status::new(quiet);
            let ManifestArgs { manifest, ptx_variant, dump, json } = manifest;
            if manifest.is_none() {
                // (clap's `requires` is not checked beside a positional PROGRAM.)
                for (given, flag) in [(json, "--json"), (dump.is_some(), "--dump"), (ptx_variant.is_some(), "--ptx-variant")] {
                    if given {
                        return Err(format!("{flag} applies to --manifest runs only"));
                    }
                }
            }
            let engine = engine.available()?;
            let rtl = rtl.options(engine)?;
            let mut config = sm.config()?;
            config.instruction_budget = limits.budget.unwrap_or(config.instruction_budget);
            config.stack_depth = limits.stack_depth.unwrap_or(config.stack_depth);
            config.validate().map_err(|e| e.to_string())?;
            let compile = compile_options(&config, max_regs)?;
            let limits = limits.limits();
            if let Some(m) = manifest {
                let opt = crate::manifest::Options {
                    engine,
                    ptx_variant,
                    dump,
                    json,
                    config,
                    compile,
                    rtl,
                    trace: output.trace,
                    limits,
                    progress: status.reporter(),
                    pictures,
                };
                let r = crate::manifest::run(&m, &opt)?;
                drop(status);
                out!("{}", r.text);
                return Ok(r.code);
            }
            let program = program.ok_or("a program or --manifest is required")?;
            let is_ptx = program.extension().is_some_and(|e| e == "ptx");
            let prog = match (engine, is_ptx) {
                (Engine::Ptx, true) => {
                    let (src, m) = load_ptx(&program)?;
                    run::Program::Ptx(heddle_sim::ptx::prepare(&src, &m).map_err(|e| format!("{}: {e}", program.display()))?)
                }
                (Engine::Ptx, false) => return Err("--engine ptx runs .ptx files".into()),
                (_, false) => run::Program::Isa(load_program(&program)?),
                (_, true) => run::Program::Isa(compile_ptx(&program, &compile)?),
            };
            let args = launch.args.iter().map(|a| Arg::parse(a)).collect::<Result<Vec<_>, _>>()?;
            let spec = RunSpec {
                kernel: launch.kernel,
                grid: run::parse_dim(&launch.grid)?,
                block: run::parse_dim(&launch.block)?,
                args,
                dynamic_shared: launch.shared,
                config,
                trace: output.trace,
                full: output.full,
                limits,
                progress: status.reporter(),
                rtl: engine.has_cycles().then_some(rtl),
                pictures,
            };
            let r = run::run(prog, &spec)?;
            drop(status);
            out!("{}", r.text);
            if output.stats {
                out!("{}", r.outcome.stats);
                out!("{}", r.rtl_stats.unwrap_or_default());
            }
            Ok(if r.outcome.trap.is_some() { 1 } else { 0 })
        }
        Cmd::Compile { input, output, emit, max_regs, sm } => {
            let cfg = sm.config()?;
            cfg.validate().map_err(|e| e.to_string())?;
            let (src, m) = load_ptx(&input)?;
            let (obj, st) = heddle_compiler::lower::compile_with(&src, &m, &compile_options(&cfg, max_regs)?)
                .map_err(|d| Diagnostics(d).to_string())?;
            match emit {
                Emit::Obj => write_out(Some(&output.unwrap_or_else(|| input.with_extension("hbin"))), &obj.to_bytes())?,
                Emit::Asm => write_out(output.as_deref(), annotated(&obj, &src.text).as_bytes())?,
                Emit::Stats => {
                    outln!("{}", heddle_compiler::lower::FuncStats::HEADER);
                    for f in st {
                        outln!("{f}");
                    }
                }
            }
            Ok(0)
        }
        Cmd::Check { input } => {
            load_ptx(&input)?;
            Ok(0)
        }
        Cmd::Fmt { input } => {
            let (_, m) = load_ptx(&input)?;
            out!("{}", heddle_compiler::ptx::print::module(&m));
            Ok(0)
        }
        Cmd::IsaDoc => {
            out!("{}", heddle_isa::doc::reference());
            Ok(0)
        }
        Cmd::Export { output, sm, lint, memories, fpga, target } => {
            let cfg = sm.config()?;
            if memories {
                cfg.validate().map_err(|e| e.to_string())?;
                out!("{}", heddle_hw::memories::Table(&cfg));
                return Ok(0);
            }
            let verilog = heddle_hw::verilog::sm_verilog(&cfg).map_err(|e| e.to_string())?;
            if lint {
                heddle_hw::verilog::lint(&format!("sm_{}", sm.config.name()), &verilog)?;
            }
            if let Some(dir) = fpga {
                let files = crate::synth::write_project(&dir, target, &sm.design(), &verilog, false)?;
                eprintln!("{}: {}", dir.display(), files.join(", "));
                return Ok(0);
            }
            write_out(output.as_deref(), verilog.as_bytes())?;
            if let Some(p) = output {
                eprintln!(
                    "{}: {} lines of Verilog, top module `top`{}",
                    p.display(),
                    verilog.lines().count(),
                    if lint { ", lint clean" } else { "" }
                );
            }
            Ok(0)
        }
        Cmd::Synth {
            target,
            config,
            sets,
            verilog,
            block,
            freq_mhz,
            out,
            json,
            blocks,
            by_block,
            no_place,
            monitors,
            baseline,
            tolerance,
            save_baseline,
            limit,
        } => {
            let (design, text) = match &verilog {
                Some(p) => (p.display().to_string(), std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?),
                None => {
                    let sm = SmArgs { config, sets };
                    (sm.design(), heddle_hw::verilog::sm_verilog(&sm.config()?).map_err(|e| e.to_string())?)
                }
            };
            let slug: String = design.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
            let what = if blocks {
                "blocks"
            } else if by_block {
                "by-block"
            } else {
                block.as_deref().unwrap_or("top")
            };
            let what: String = what.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
            let out = out.unwrap_or_else(|| PathBuf::from(format!("target/heddle-synth/{slug}-{what}-{target}")));
            crate::synth::run(crate::synth::Request {
                target,
                design,
                verilog: text,
                block,
                freq_mhz,
                out,
                json,
                blocks,
                by_block,
                place: !no_place,
                monitors,
                baseline,
                tolerance,
                save_baseline,
                limit: limit.map(std::time::Duration::from_secs),
            })
        }
        Cmd::Fuzz {
            target,
            seconds,
            seed,
            programs,
            engines,
            jobs,
            shard,
            corpus,
            merge,
            configs,
            presets,
            plant,
            plants,
            out,
            json,
            avoid_known,
            max_mismatches,
        } => {
            if let (Some(into), false) = (&corpus, merge.is_empty()) {
                out!("{}", crate::fuzz::merge(into, &merge)?);
                return Ok(0);
            }
            let status = crate::progress::Status::new(quiet);
            let plant = plant.or_else(heddle_hw::plant::active);
            let engines = engines.unwrap_or_else(|| match target {
                crate::fuzz::Target::Isa => vec![Engine::Golden, Engine::Rtl],
                crate::fuzz::Target::Ptx => vec![Engine::Ptx, Engine::Golden],
            });
            let opts = crate::fuzz::Opts {
                target,
                seconds,
                seed,
                programs,
                out,
                json,
                avoid_known,
                max_mismatches,
                engines,
                jobs,
                shard: shard.unwrap_or((0, 1)),
                corpus,
                configs,
                presets: presets.iter().map(|p| Ok((p.name(), sm_config(p.name(), &[])?))).collect::<Result<_, String>>()?,
                plant,
            };
            let (text, bad) = match plants {
                Some(only) => crate::fuzz::run_plants(&opts, &only, &status)?,
                None => crate::fuzz::run(&opts, &status)?,
            };
            drop(status);
            out!("{text}");
            Ok(if bad > 0 { 1 } else { 0 })
        }
        Cmd::Bench { seconds, rtl, ptx, corpus, mem_latency, verilator } => {
            let status = crate::progress::Status::new(quiet);
            let text = match (rtl, corpus) {
                _ if verilator => crate::bench::run_verilator(seconds, &status)?,
                (_, c) if ptx => crate::bench::run_ptx_corpus(&c.unwrap_or_else(|| "tests/corpus".into()), seconds, &status)?,
                (false, Some(_)) => return Err("--corpus needs --rtl or --ptx".into()),
                (true, Some(c)) => crate::bench::run_rtl_corpus(&c, mem_latency, &status)?,
                (true, None) => crate::bench::run_rtl(seconds, &status)?,
                _ => crate::bench::run(seconds, &status)?,
            };
            drop(status);
            out!("{text}");
            Ok(0)
        }
    }
}

/// Runs the command line; returns the exit status.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    if let Some(e) = heddle_hw::plant::env_error() {
        eprintln!("{e}");
        return 2;
    }
    match exec(cli.cmd, cli.quiet) {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("{msg}");
            2
        }
    }
}
