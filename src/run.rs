//! `heddle run` for assembled programs: launch arguments from the command
//! line, results printed in a fixed text form (which the file-driven tests
//! compare byte for byte).

use crate::timeline::{stats_svg, Axis, KernelTicks, Labels, Recorder, Timeline};
use heddle_hw::SmConfig;
use heddle_isa::object::{Kernel, Object};
use heddle_sim::device::Device;
use heddle_sim::launch::{Launch, NoTrace, Outcome, Tracer};
use heddle_sim::limits::{Limits, Reporter};
use heddle_sim::rtl::{RtlOptions, RtlStats};
use std::fmt::Write;
use std::path::PathBuf;

/// Element type of a buffer or scalar argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dtype {
    U8,
    S8,
    U16,
    S16,
    U32,
    S32,
    U64,
    S64,
    F32,
    F64,
}

impl Dtype {
    pub fn parse(s: &str) -> Result<Dtype, String> {
        Ok(match s {
            "u8" => Dtype::U8,
            "s8" => Dtype::S8,
            "u16" => Dtype::U16,
            "s16" => Dtype::S16,
            "u32" => Dtype::U32,
            "s32" => Dtype::S32,
            "u64" => Dtype::U64,
            "s64" => Dtype::S64,
            "f32" => Dtype::F32,
            "f64" => Dtype::F64,
            _ => return Err(format!("unknown type `{s}` (u8 s8 u16 s16 u32 s32 u64 s64 f32 f64)")),
        })
    }

    pub fn size(self) -> usize {
        match self {
            Dtype::U8 | Dtype::S8 => 1,
            Dtype::U16 | Dtype::S16 => 2,
            Dtype::U32 | Dtype::S32 | Dtype::F32 => 4,
            _ => 8,
        }
    }

    /// Little-endian bytes of a value written in text.
    pub fn encode(self, text: &str) -> Result<Vec<u8>, String> {
        let bad = || format!("`{text}` is not a valid {self:?} value");
        let int = |t: &str| -> Result<i128, String> {
            let t = t.trim();
            let (neg, t) = t.strip_prefix('-').map_or((false, t), |r| (true, r));
            let v = if let Some(h) = t.strip_prefix("0x") { i128::from_str_radix(h, 16) } else { t.parse::<i128>() };
            v.map(|v| if neg { -v } else { v }).map_err(|_| bad())
        };
        let n = self.size();
        let bytes = match self {
            Dtype::F32 => text.trim().parse::<f32>().map_err(|_| bad())?.to_le_bytes().to_vec(),
            Dtype::F64 => text.trim().parse::<f64>().map_err(|_| bad())?.to_le_bytes().to_vec(),
            _ => {
                let v = int(text)?;
                let signed = matches!(self, Dtype::S8 | Dtype::S16 | Dtype::S32 | Dtype::S64);
                let bits = 8 * n as u32;
                let (lo, hi) = if signed { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) };
                // Accept the unsigned spelling of negative values too (0xffffffff for s32).
                if v < lo || v > hi.max((1i128 << bits) - 1) {
                    return Err(format!("{v} does not fit in {self:?}"));
                }
                v.to_le_bytes()[..n].to_vec()
            }
        };
        Ok(bytes)
    }

    /// One element as text.
    pub fn show(self, b: &[u8]) -> String {
        let mut w = [0u8; 8];
        w[..b.len()].copy_from_slice(b);
        let u = u64::from_le_bytes(w);
        match self {
            Dtype::U8 | Dtype::U16 | Dtype::U32 | Dtype::U64 => u.to_string(),
            Dtype::S8 => (u as i8).to_string(),
            Dtype::S16 => (u as i16).to_string(),
            Dtype::S32 => (u as i32).to_string(),
            Dtype::S64 => (u as i64).to_string(),
            Dtype::F32 => format!("{:?}", f32::from_bits(u as u32)),
            Dtype::F64 => format!("{:?}", f64::from_bits(u)),
        }
    }
}

/// A launch argument from the command line.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Scalar(Dtype, Vec<u8>),
    /// A global buffer: name, type, element count, initial bytes.
    Buffer {
        name: String,
        dtype: Dtype,
        count: usize,
        init: Vec<u8>,
    },
}

impl Arg {
    /// `TYPE:VALUE` or `buf:NAME:TYPE:COUNT[=v1,v2,...]`.
    pub fn parse(s: &str) -> Result<Arg, String> {
        if let Some(rest) = s.strip_prefix("buf:") {
            let mut parts = rest.splitn(3, ':');
            let (name, ty, spec) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next().unwrap_or(""));
            if name.is_empty() {
                return Err(format!("`{s}`: expected buf:NAME:TYPE:COUNT[=v1,v2,...]"));
            }
            let dtype = Dtype::parse(ty)?;
            let (count, values) = spec.split_once('=').map_or((spec, None), |(c, v)| (c, Some(v)));
            let count: usize = count.parse().map_err(|_| format!("`{s}`: bad element count `{count}`"))?;
            if count == 0 {
                return Err(format!("`{s}`: buffer `{name}` has no elements (COUNT must be at least 1)"));
            }
            let mut init = vec![];
            for v in values.into_iter().flat_map(|v| v.split(',')) {
                init.extend(dtype.encode(v)?);
            }
            if init.len() > count * dtype.size() {
                return Err(format!("`{s}`: more initial values than the {count} elements"));
            }
            if count * dtype.size() > u32::MAX as usize {
                return Err(format!("`{s}`: buffer too large"));
            }
            return Ok(Arg::Buffer { name: name.to_string(), dtype, count, init });
        }
        let (ty, v) = s.split_once(':').ok_or(format!("`{s}`: expected TYPE:VALUE or buf:NAME:TYPE:COUNT"))?;
        let dtype = Dtype::parse(ty)?;
        Ok(Arg::Scalar(dtype, dtype.encode(v)?))
    }

    fn size(&self) -> usize {
        match self {
            Arg::Scalar(t, _) => t.size(),
            Arg::Buffer { .. } => 8,
        }
    }
}

/// Everything `heddle run` needs besides the program.
#[derive(Clone)]
pub struct RunSpec {
    pub kernel: Option<String>,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub args: Vec<Arg>,
    pub dynamic_shared: u32,
    pub config: SmConfig,
    pub trace: bool,
    /// Print every element of every buffer (else long ones as a summary).
    pub full: bool,
    /// Cycle and time limits of the launch, and where its progress goes.
    pub limits: Limits,
    pub progress: Option<Reporter>,
    /// Run on the RTL with these options (None: the program's own engine).
    pub rtl: Option<RtlOptions>,
    /// Pictures to write.
    pub pictures: Pictures,
}

/// The pictures of a launch to write (`src/timeline.rs`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pictures {
    /// `--timeline FILE.svg|FILE.html`: the warp timeline.
    pub timeline: Option<PathBuf>,
    /// `--stats-svg FILE.svg`: the bar chart of cycles by cause.
    pub stats_svg: Option<PathBuf>,
}

impl Pictures {
    pub fn any(&self) -> bool {
        self.timeline.is_some() || self.stats_svg.is_some()
    }

    /// Err (bad input) before anything runs: a timeline that is neither `.svg` nor `.html`.
    pub fn check(&self) -> Result<(), String> {
        match &self.timeline {
            Some(p) if !matches!(p.extension().and_then(|e| e.to_str()), Some("svg" | "html" | "htm")) => {
                Err(format!("--timeline {}: the file must end in .svg or .html", p.display()))
            }
            _ => Ok(()),
        }
    }
}

/// What [`launch_observed`] returns: [`launch`]'s outcome and RTL
/// statistics, and the `--trace` lines.
pub struct Observed {
    pub outcome: Outcome,
    pub rtl: Option<(String, RtlStats)>,
    pub trace: String,
}

/// Runs `l` as [`launch`] does, keeping the retire records as `--trace`
/// lines (with each instruction's mnemonic) when `trace`, and writing the
/// pictures asked for.
pub fn launch_observed(
    dev: &mut Device,
    l: &Launch,
    rtl: Option<&RtlOptions>,
    trace: bool,
    pictures: &Pictures,
) -> Result<Observed, String> {
    if !trace && !pictures.any() {
        let (outcome, rtl) = launch(dev, l, rtl, &mut NoTrace)?;
        return Ok(Observed { outcome, rtl, trace: String::new() });
    }
    let labels = match &dev.ptx {
        Some(p) => Labels::ptx(p, &l.kernel),
        None => Labels::isa(&dev.module),
    };
    let engine = match (rtl, &dev.ptx) {
        (Some(o), _) if o.verilator => heddle_sim::Engine::Verilator,
        (Some(_), _) => heddle_sim::Engine::Rtl,
        (None, Some(_)) => heddle_sim::Engine::Ptx,
        (None, None) => heddle_sim::Engine::Golden,
    };
    let axis = if engine.has_cycles() { Axis::Cycles } else { Axis::IssueSlots };
    let title = format!("{} on {engine}", l.kernel);
    let mut rec = Recorder {
        keep: trace,
        retired: vec![],
        timeline: pictures.any().then(|| Timeline::new(&title, axis, dev.config.warp_size, labels.clone())),
    };
    let (outcome, rtl) = launch(dev, l, rtl, &mut rec)?;
    let mut text = String::new();
    for r in &rec.retired {
        text.push_str(&r.line(labels.get(r.pc).0));
        text.push('\n');
    }
    if let Some(t) = &rec.timeline {
        if let Some(p) = &pictures.timeline {
            crate::timeline::write(t, p)?;
        }
        if let Some(p) = &pictures.stats_svg {
            let chart = stats_svg(&[KernelTicks { name: l.kernel.clone(), axis, totals: t.totals() }]);
            std::fs::write(p, chart).map_err(|e| format!("{}: {e}", p.display()))?;
        }
    }
    Ok(Observed { outcome, rtl, trace: text })
}

/// Runs `launch` on the golden model (or the PTX interpreter, for a PTX
/// device) or, with `rtl`, on the RTL; RTL statistics come back as text and
/// as figures.
pub fn launch<T: Tracer>(
    dev: &mut Device,
    launch: &Launch,
    rtl: Option<&RtlOptions>,
    tracer: &mut T,
) -> Result<(Outcome, Option<(String, RtlStats)>), String> {
    match rtl {
        None => Ok((dev.launch_traced(launch, tracer).map_err(|e| e.to_string())?, None)),
        Some(o) => {
            let r = dev.launch_rtl(launch, o, tracer).map_err(|e| e.to_string())?;
            let text = r.to_string();
            Ok((r.outcome, Some((text, r.rtl))))
        }
    }
}

/// `X[,Y[,Z]]`.
pub fn parse_dim(s: &str) -> Result<[u32; 3], String> {
    let v: Vec<&str> = s.split(',').collect();
    if v.is_empty() || v.len() > 3 {
        return Err(format!("`{s}`: expected X[,Y[,Z]]"));
    }
    let mut d = [1u32; 3];
    for (i, p) in v.iter().enumerate() {
        let n: u64 = p.trim().parse().map_err(|_| format!("`{s}`: `{p}` is not a number"))?;
        d[i] = u32::try_from(n).map_err(|_| format!("`{s}`: `{p}` is out of range (at most {})", u32::MAX))?;
    }
    Ok(d)
}

/// Result of `heddle run`: the text to print and the exit status.
pub struct RunResult {
    pub text: String,
    pub outcome: Outcome,
    /// RTL cycle statistics (RTL runs).
    pub rtl_stats: Option<String>,
}

/// Picks the kernel: the named one, or the only one.
pub fn pick_kernel<'o>(obj: &'o Object, name: Option<&str>) -> Result<&'o Kernel, String> {
    match name {
        Some(n) => obj.kernel(n).ok_or_else(|| format!("no kernel named `{n}` (kernels: {})", names(obj))),
        None if obj.kernels.len() == 1 => Ok(&obj.kernels[0]),
        None => Err(format!("the program has {} kernels; pick one with --kernel ({})", obj.kernels.len(), names(obj))),
    }
}

fn names(obj: &Object) -> String {
    obj.kernels.iter().map(|k| k.name.as_str()).collect::<Vec<_>>().join(", ")
}

/// What `heddle run` executes: a compiled object on the golden model, or
/// PTX on the reference interpreter.
pub enum Program {
    Isa(Object),
    Ptx(heddle_sim::ptx::Prog),
}

/// Runs `spec`. Err: bad input (exit 2).
pub fn run(program: Program, spec: &RunSpec) -> Result<RunResult, String> {
    let mut dev = match program {
        Program::Isa(obj) => Device::new(spec.config.clone(), obj),
        Program::Ptx(p) => Device::from_ptx(spec.config.clone(), p),
    }
    .map_err(|e| e.to_string())?;
    dev.limits = spec.limits;
    dev.progress = spec.progress.clone();
    let obj = dev.module.clone();
    let obj = &obj;
    let k = pick_kernel(obj, spec.kernel.as_deref())?.clone();
    // Parameter placement: the kernel's declared parameters, else natural alignment.
    let mut params = vec![0u8; k.param_bytes as usize];
    let mut offset = 0usize;
    let mut buffers = vec![];
    if !k.params.is_empty() && k.params.len() != spec.args.len() {
        return Err(format!(
            "kernel `{}` takes {} arguments ({}), {} given",
            k.name,
            k.params.len(),
            k.params.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", "),
            spec.args.len()
        ));
    }
    for (i, arg) in spec.args.iter().enumerate() {
        let size = arg.size();
        let at = match k.params.get(i) {
            Some(p) if p.size as usize != size => {
                return Err(format!("argument {} (`{}`) is {} bytes, the parameter is {}", i + 1, p.name, size, p.size))
            }
            Some(p) => p.offset as usize,
            None => offset.div_ceil(size) * size,
        };
        offset = at + size;
        if offset > params.len() {
            return Err(format!("the arguments need {offset} parameter bytes, kernel `{}` has {}", k.name, params.len()));
        }
        let bytes = match arg {
            Arg::Scalar(_, b) => b.clone(),
            Arg::Buffer { name, dtype, count, init } => {
                if buffers.iter().any(|b: &(String, Dtype, usize, u64)| &b.0 == name) {
                    return Err(format!("argument {}: two buffers are named `{name}`", i + 1));
                }
                let ptr = dev.alloc((count * dtype.size()) as u32).map_err(|e| e.to_string())?;
                dev.write(ptr, init).map_err(|e| e.to_string())?;
                buffers.push((name.clone(), *dtype, *count, ptr));
                ptr.to_le_bytes().to_vec()
            }
        };
        params[at..at + size].copy_from_slice(&bytes);
    }
    let launch = Launch { kernel: k.name.clone(), grid: spec.grid, block: spec.block, params, dynamic_shared: spec.dynamic_shared };
    let mut text = String::new();
    let Observed { outcome, rtl: rtl_stats, trace } = launch_observed(&mut dev, &launch, spec.rtl.as_ref(), spec.trace, &spec.pictures)?;
    text.push_str(&trace);
    text.push_str(&String::from_utf8_lossy(&outcome.stdout));
    for (name, dtype, count, ptr) in buffers {
        let bytes = dev.read(ptr, count * dtype.size()).map_err(|e| e.to_string())?;
        let _ = writeln!(text, "{name} = {}", show_buffer(&bytes, dtype, spec.full));
    }
    if let Some(t) = &outcome.trap {
        let _ = writeln!(text, "{t}");
        if let Some(line) = describe_trap_pc(&dev, t.pc) {
            let _ = writeln!(text, "  at {line}");
        }
    }
    Ok(RunResult { text, outcome, rtl_stats: rtl_stats.map(|(t, _)| t) })
}

/// Buffers longer than this print as a summary unless `--full` is given.
pub const SUMMARY_ABOVE: usize = 1024;

/// A buffer's elements: all of them (`[a, b, ...]`), or, above
/// `SUMMARY_ABOVE` elements without `full`, the first and last eight, the
/// count and a CRC-32 of its bytes (`crc32fast`, the object format's
/// checksum), which `cksum`-style tools can compare.
pub fn show_buffer(bytes: &[u8], dtype: Dtype, full: bool) -> String {
    let vals = |b: &[u8]| b.chunks(dtype.size()).map(|c| dtype.show(c)).collect::<Vec<_>>().join(", ");
    let n = bytes.len() / dtype.size();
    if full || n <= SUMMARY_ABOVE {
        return format!("[{}]", vals(bytes));
    }
    let edge = 8 * dtype.size();
    format!(
        "[{}, ..., {}] ({n} elements, crc32 {:08x}; --full prints them all)",
        vals(&bytes[..edge]),
        vals(&bytes[bytes.len() - edge..]),
        crc32fast::hash(bytes)
    )
}

/// Where a trap's pc is on `dev`: in its compiled object, or for PTX on
/// the reference interpreter, in the PTX source.
pub fn describe_trap_pc(dev: &Device, pc: u32) -> Option<String> {
    match &dev.ptx {
        Some(p) => p.locate(pc).map(|(f, off, line, col)| {
            let at = if off == 0 { f.to_string() } else { format!("{f}+{off}") };
            format!("{at} ({}:{line}:{col})", p.file)
        }),
        None => describe_pc(&dev.module, pc),
    }
}

/// `kernel+3 (file:line:col)` for a pc.
pub fn describe_pc(obj: &Object, pc: u32) -> Option<String> {
    let sym = obj.symbolize(pc).map(|(s, off)| if off == 0 { s.to_string() } else { format!("{s}+{off}") });
    let line = obj.line_of(pc).map(|(f, l, c)| format!("{f}:{l}:{c}"));
    match (sym, line) {
        (Some(s), Some(l)) => Some(format!("{s} ({l})")),
        (Some(s), None) => Some(s),
        (None, Some(l)) => Some(l),
        (None, None) => None,
    }
}
