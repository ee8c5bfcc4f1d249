//! Launch manifests (`heddle run --manifest case.json`): one launch described
//! in JSON, run on an engine, its expectations checked.
//!
//! The format is fixed (issue 4) so external corpora run unchanged; unknown
//! fields are ignored and paths are relative to the manifest. Exit status:
//! 0 every expectation holds; 1 the kernel ran but an expectation failed or
//! a trap was unexpected; 2 bad input (manifest or PTX).

use crate::run::Dtype;
use heddle_hw::SmConfig;
use heddle_sim::device::Device;
use heddle_sim::launch::{Launch, Outcome};
use heddle_sim::limits::{Limits, Reporter};
use heddle_sim::rtl::RtlOptions;
use heddle_sim::Engine;
use serde_json::Value;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Options of one manifest run.
pub struct Options {
    pub engine: Engine,
    pub ptx_variant: Option<String>,
    pub dump: Option<PathBuf>,
    pub json: bool,
    pub config: SmConfig,
    /// What the compiler may use (registers, predicates): built from `config`
    /// and `--max-regs` by `cli::compile_options`.
    pub compile: heddle_compiler::lower::Options,
    /// RTL options (engine `rtl`).
    pub rtl: RtlOptions,
    /// Print every retire record before the report.
    pub trace: bool,
    /// Cycle and time limits of the launch, and where its progress goes.
    pub limits: Limits,
    pub progress: Option<Reporter>,
    /// Pictures of the launch to write.
    pub pictures: crate::run::Pictures,
}

/// Result: text to print and the exit status (0 or 1); Err is bad input (2).
pub struct Report {
    pub text: String,
    pub code: i32,
    /// The launch's counts: warp and thread instructions, and cycles (RTL).
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub cycles: Option<u64>,
    /// Shared-memory bank-conflict cycles (RTL).
    pub bank_conflicts: Option<u64>,
}

fn field<'v>(v: &'v Value, k: &str) -> Option<&'v Value> {
    v.as_object().and_then(|o| o.get(k))
}

fn req<'v>(v: &'v Value, k: &str, ctx: &str) -> Result<&'v Value, String> {
    field(v, k).ok_or_else(|| format!("{ctx}: missing field `{k}`"))
}

fn dim(v: &Value, k: &str) -> Result<[u32; 3], String> {
    let a = req(v, k, "manifest")?.as_array().ok_or(format!("`{k}` must be an array [x, y, z]"))?;
    if a.is_empty() || a.len() > 3 {
        return Err(format!("`{k}` must have 1 to 3 elements"));
    }
    let mut d = [1u32; 3];
    for (i, x) in a.iter().enumerate() {
        d[i] = x.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or(format!("`{k}[{i}]` must be a non-negative 32-bit integer"))?;
    }
    Ok(d)
}

/// A JSON number as an element of `dtype` (little-endian bytes).
fn number_bytes(v: &Value, dtype: Dtype) -> Result<Vec<u8>, String> {
    let bad = || format!("{v} is not a valid {dtype:?} value");
    Ok(match dtype {
        Dtype::F32 => (v.as_f64().ok_or_else(bad)? as f32).to_le_bytes().to_vec(),
        Dtype::F64 => v.as_f64().ok_or_else(bad)?.to_le_bytes().to_vec(),
        _ => {
            let text = if let Some(i) = v.as_i64() {
                i.to_string()
            } else if let Some(u) = v.as_u64() {
                u.to_string()
            } else {
                return Err(bad());
            };
            dtype.encode(&text)?
        }
    })
}

fn parse_dtype(s: &str) -> Result<Dtype, String> {
    if s == "f16" {
        return Ok(Dtype::U16);
    }
    Dtype::parse(s)
}

/// f16 elements are compared and shown as binary16.
fn is_f16(v: &Value) -> bool {
    field(v, "dtype").and_then(Value::as_str) == Some("f16")
}

struct Buffer {
    name: String,
    dtype: Dtype,
    f16: bool,
    count: usize,
    ptr: u64,
    output: bool,
}

/// Runs a manifest file.
pub fn run(path: &Path, opt: &Options) -> Result<Report, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let m: Value = serde_json::from_str(&text).map_err(|e| format!("{}: invalid JSON: {e}", path.display()))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = field(&m, "name").and_then(Value::as_str).unwrap_or("case").to_string();
    let kernel = req(&m, "kernel", "manifest")?.as_str().ok_or("`kernel` must be a string")?.to_string();
    let ptx_file = match req(&m, "ptx", "manifest")? {
        Value::String(s) => s.clone(),
        Value::Object(map) => {
            let key = match &opt.ptx_variant {
                Some(v) => v.clone(),
                None => map.keys().next().ok_or("`ptx` has no variants")?.clone(),
            };
            map.get(&key)
                .and_then(Value::as_str)
                .ok_or_else(|| format!("`ptx` has no variant `{key}` (variants: {})", map.keys().cloned().collect::<Vec<_>>().join(", ")))?
                .to_string()
        }
        _ => return Err("`ptx` must be a file name or a map of variants".into()),
    };
    let ptx_path = dir.join(&ptx_file);
    let mut dev = load(&ptx_path, opt)?;
    let k = crate::run::pick_kernel(&dev.module, Some(&kernel))?.clone();
    let grid = dim(&m, "grid")?;
    let block = dim(&m, "block")?;
    let dynamic_shared = field(&m, "dynamic_shared_bytes").and_then(Value::as_u64).unwrap_or(0) as u32;
    // The memory latency the case is meant for, unless the command line gives one.
    let mut rtl = opt.rtl.clone();
    if rtl.mem_latency.is_none() {
        if let Some(v) = field(&m, "mem_latency") {
            let n = v.as_u64().filter(|n| (1..=10_000).contains(n)).ok_or("`mem_latency` must be a number of cycles from 1 to 10000")?;
            rtl.mem_latency = Some(n as u32);
        }
    }
    let params_v = req(&m, "params", "manifest")?.as_array().ok_or("`params` must be an array")?;
    if params_v.len() != k.params.len() {
        return Err(format!("kernel `{kernel}` takes {} parameters, the manifest gives {}", k.params.len(), params_v.len()));
    }
    let mut params = vec![0u8; k.param_bytes as usize];
    let mut buffers: Vec<Buffer> = vec![];
    for (i, (p, slot)) in params_v.iter().zip(&k.params).enumerate() {
        let ctx = format!("params[{i}]");
        let ty = req(p, "type", &ctx)?.as_str().ok_or(format!("{ctx}: `type` must be a string"))?;
        let bytes: Vec<u8> = match ty {
            "buffer" => {
                let bname = req(p, "name", &ctx)?.as_str().ok_or(format!("{ctx}: `name` must be a string"))?.to_string();
                let dtype = parse_dtype(req(p, "dtype", &ctx)?.as_str().ok_or(format!("{ctx}: `dtype` must be a string"))?)?;
                let count = req(p, "count", &ctx)?.as_u64().ok_or(format!("{ctx}: `count` must be a number"))? as usize;
                if count == 0 {
                    return Err(format!("{ctx}: buffer `{bname}` has no elements (`count` must be at least 1)"));
                }
                if buffers.iter().any(|b: &Buffer| b.name == bname) {
                    return Err(format!("{ctx}: two buffers are named `{bname}`"));
                }
                let size = count.checked_mul(dtype.size()).filter(|&s| s < u32::MAX as usize).ok_or(format!("{ctx}: buffer too large"))?;
                let ptr = dev.alloc(size as u32).map_err(|e| e.to_string())?;
                let init: Vec<u8> = if let Some(f) = field(p, "file").and_then(Value::as_str) {
                    let data = std::fs::read(dir.join(f)).map_err(|e| format!("{ctx}: {}: {e}", dir.join(f).display()))?;
                    if data.len() != size {
                        return Err(format!("{ctx}: {f} has {} bytes, {count} {dtype:?} need {size}", data.len()));
                    }
                    data
                } else if let Some(list) = field(p, "init").and_then(Value::as_array) {
                    if list.len() > count {
                        return Err(format!("{ctx}: {} initial values for {count} elements", list.len()));
                    }
                    let mut v = vec![];
                    for x in list {
                        if is_f16(p) {
                            let f = x.as_f64().ok_or(format!("{ctx}: {x} is not a number"))?;
                            v.extend(half_bits(f).to_le_bytes());
                        } else {
                            v.extend(number_bytes(x, dtype)?);
                        }
                    }
                    v
                } else {
                    vec![]
                };
                dev.write(ptr, &init).map_err(|e| e.to_string())?;
                let output = field(p, "output").and_then(Value::as_bool).unwrap_or(false);
                buffers.push(Buffer { name: bname, dtype, f16: is_f16(p), count, ptr, output });
                ptr.to_le_bytes().to_vec()
            }
            "struct" => {
                let hex = req(p, "bytes", &ctx)?.as_str().ok_or(format!("{ctx}: `bytes` must be a hex string"))?;
                let b = (0..hex.len() / 2)
                    .map(|j| u8::from_str_radix(&hex[2 * j..2 * j + 2], 16))
                    .collect::<Result<Vec<u8>, _>>()
                    .map_err(|_| format!("{ctx}: `bytes` is not hex"))?;
                if hex.len() % 2 != 0 {
                    return Err(format!("{ctx}: `bytes` has an odd number of hex digits"));
                }
                b
            }
            t => {
                let dtype = Dtype::parse(t)?;
                number_bytes(req(p, "value", &ctx)?, dtype)?
            }
        };
        if bytes.len() != slot.size as usize {
            return Err(format!("{ctx}: {} bytes for a {}-byte parameter", bytes.len(), slot.size));
        }
        params[slot.offset as usize..(slot.offset + slot.size) as usize].copy_from_slice(&bytes);
    }
    let launch = Launch { kernel: kernel.clone(), grid, block, params, dynamic_shared };
    let rtl = opt.engine.has_cycles().then_some(&rtl);
    let crate::run::Observed { outcome, rtl: rtl_stats, trace } =
        crate::run::launch_observed(&mut dev, &launch, rtl, opt.trace, &opt.pictures)?;
    let mut report = check(&m, dir, &name, &dev, &buffers, &outcome, opt)?;
    report.text.insert_str(0, &trace);
    report.warp_instructions = outcome.stats.warp_instructions;
    report.thread_instructions = outcome.stats.thread_instructions;
    report.cycles = outcome.stats.cycles;
    if let Some((text, stats)) = rtl_stats {
        report.bank_conflicts = Some(stats.bank_conflicts);
        if !opt.json {
            report.text.push_str(&text);
        }
    }
    Ok(report)
}

fn load(ptx: &Path, opt: &Options) -> Result<Device, String> {
    let (src, m) = crate::cli::load_ptx(ptx)?;
    let mut dev = match opt.engine.available()? {
        Engine::Ptx => {
            let prog = heddle_sim::ptx::prepare(&src, &m).map_err(|e| format!("{}: {e}", ptx.display()))?;
            Device::from_ptx(opt.config.clone(), prog).map_err(|e| e.to_string())
        }
        _ => {
            let obj = heddle_compiler::lower::compile_with(&src, &m, &opt.compile)
                .map(|(o, _)| o)
                .map_err(|d| heddle_isa::diag::Diagnostics(d).to_string())?;
            Device::new(opt.config.clone(), obj).map_err(|e| e.to_string())
        }
    }?;
    dev.limits = opt.limits;
    dev.progress = opt.progress.clone();
    Ok(dev)
}

fn half_bits(f: f64) -> u16 {
    use rustc_apfloat::{ieee::Double, ieee::Half, Float, FloatConvert, Round};
    let mut l = false;
    let h: Half = Double::from_bits(f.to_bits() as u128).convert_r(Round::NearestTiesToEven, &mut l).value;
    h.to_bits() as u16
}

/// An expectation's `tolerance`: `{"ulp": n}`, or `{"abs": a}` and/or `{"rel": r}`.
enum Tolerance {
    Ulp(u64),
    Abs { abs: f64, rel: f64 },
}

impl Tolerance {
    fn parse(t: &Value, ctx: &str) -> Result<Tolerance, String> {
        let obj = t.as_object().ok_or(format!("{ctx}: `tolerance` must be an object ({{\"ulp\": n}} or {{\"abs\": a, \"rel\": r}})"))?;
        if let Some(key) = obj.keys().find(|k| !matches!(k.as_str(), "ulp" | "abs" | "rel")) {
            return Err(format!("{ctx}: unknown tolerance `{key}` (ulp, abs, rel)"));
        }
        if let Some(u) = obj.get("ulp") {
            if obj.len() > 1 {
                return Err(format!("{ctx}: `ulp` cannot be combined with `abs` or `rel`"));
            }
            return u.as_u64().map(Tolerance::Ulp).ok_or(format!("{ctx}: tolerance `ulp` must be a whole number of at least 0, not {u}"));
        }
        let get = |k: &str| -> Result<f64, String> {
            match obj.get(k) {
                None => Ok(0.0),
                Some(v) => v
                    .as_f64()
                    .filter(|x| x.is_finite() && *x >= 0.0)
                    .ok_or(format!("{ctx}: tolerance `{k}` must be a finite number of at least 0, not {v}")),
            }
        };
        if obj.is_empty() {
            return Err(format!("{ctx}: `tolerance` is empty (ulp, abs, rel)"));
        }
        Ok(Tolerance::Abs { abs: get("abs")?, rel: get("rel")? })
    }
}

/// Element `i` of a little-endian buffer as f64 (floats) for tolerance checks.
fn as_f64(b: &[u8], dtype: Dtype, f16: bool) -> f64 {
    let mut w = [0u8; 8];
    w[..b.len()].copy_from_slice(b);
    let u = u64::from_le_bytes(w);
    if f16 {
        return f32::from_bits(heddle_isa::scalar::fp::h2f(u as u32)) as f64;
    }
    match dtype {
        Dtype::F32 => f32::from_bits(u as u32) as f64,
        Dtype::F64 => f64::from_bits(u),
        Dtype::S8 => u as i8 as f64,
        Dtype::S16 => u as i16 as f64,
        Dtype::S32 => u as i32 as f64,
        Dtype::S64 => u as i64 as f64,
        _ => u as f64,
    }
}

/// Ordered bit pattern, so that neighbouring floats differ by 1 (+0 and -0 are 1 apart).
fn ordered(b: &[u8], dtype: Dtype, f16: bool) -> i128 {
    let mut w = [0u8; 8];
    w[..b.len()].copy_from_slice(b);
    let u = u64::from_le_bytes(w);
    let (v, bits) = if f16 {
        (u & 0xffff, 16)
    } else if dtype == Dtype::F32 {
        (u & 0xffff_ffff, 32)
    } else {
        (u, 64)
    };
    let sign = v >> (bits - 1) & 1 == 1;
    let mag = (v & ((1u64 << (bits - 1)) - 1)) as i128;
    if sign {
        -mag - 1
    } else {
        mag
    }
}

fn is_nan_or_inf(b: &[u8], dtype: Dtype, f16: bool) -> (bool, bool) {
    let x = as_f64(b, dtype, f16);
    (x.is_nan(), x.is_infinite())
}

fn show(b: &[u8], dtype: Dtype, f16: bool) -> String {
    if f16 {
        return format!("{:?} (0x{:04x})", as_f64(b, dtype, f16), u16::from_le_bytes([b[0], b[1]]));
    }
    let s = dtype.show(b);
    match dtype {
        Dtype::F32 => format!("{s} (0x{:08x})", u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        Dtype::F64 => format!("{s} (0x{:016x})", u64::from_le_bytes(b.try_into().unwrap_or([0; 8]))),
        _ => s,
    }
}

fn check(m: &Value, dir: &Path, name: &str, dev: &Device, buffers: &[Buffer], o: &Outcome, opt: &Options) -> Result<Report, String> {
    let mut text = String::new();
    let mut failed = 0;
    let mut results = serde_json::Map::new();
    text.push_str(&String::from_utf8_lossy(&o.stdout));
    let expect_trap = field(m, "expect_trap").and_then(Value::as_bool).unwrap_or(false);
    match (&o.trap, expect_trap) {
        (Some(t), false) => {
            let _ = writeln!(text, "{name}: unexpected {t}");
            if let Some(at) = crate::run::describe_trap_pc(dev, t.pc) {
                let _ = writeln!(text, "  at {at}");
            }
            failed += 1;
        }
        (None, true) => {
            let _ = writeln!(text, "{name}: expected a trap, the kernel completed");
            failed += 1;
        }
        (Some(t), true) => {
            let _ = writeln!(text, "{name}: trapped as expected: {t}");
        }
        (None, false) => {}
    }
    if let Some(want) = field(m, "expect_stdout").and_then(Value::as_str) {
        let got = String::from_utf8_lossy(&o.stdout);
        let unordered = field(m, "expect_stdout_unordered_lines").and_then(Value::as_bool).unwrap_or(false);
        let same = if unordered {
            let mut a: Vec<&str> = got.lines().collect();
            let mut b: Vec<&str> = want.lines().collect();
            a.sort_unstable();
            b.sort_unstable();
            a == b
        } else {
            got == want
        };
        if !same {
            let _ = writeln!(text, "{name}: stdout differs\n--- expected\n{want}--- got\n{got}---");
            failed += 1;
        }
    }
    if let Some(dump) = &opt.dump {
        std::fs::create_dir_all(dump).map_err(|e| format!("{}: {e}", dump.display()))?;
        for b in buffers.iter().filter(|b| b.output) {
            let bytes = dev.read(b.ptr, b.count * b.dtype.size()).map_err(|e| e.to_string())?;
            std::fs::write(dump.join(format!("{}.bin", b.name)), bytes).map_err(|e| e.to_string())?;
        }
    }
    if let Some(exp) = field(m, "expect").and_then(Value::as_object) {
        for (bname, e) in exp {
            let ctx = format!("expect.{bname}");
            let buf = buffers.iter().find(|b| &b.name == bname).ok_or(format!("{ctx}: no buffer named `{bname}`"))?;
            let dtype = field(e, "dtype").and_then(Value::as_str).map(parse_dtype).transpose()?.unwrap_or(buf.dtype);
            let f16 = field(e, "dtype").and_then(Value::as_str).map_or(buf.f16, |d| d == "f16");
            let count = field(e, "count").and_then(Value::as_u64).map_or(buf.count, |c| c as usize);
            let file = req(e, "file", &ctx)?.as_str().ok_or(format!("{ctx}: `file` must be a string"))?;
            let want = std::fs::read(dir.join(file)).map_err(|er| format!("{ctx}: {}: {er}", dir.join(file).display()))?;
            let size = dtype.size();
            if want.len() != count * size || count > buf.count * buf.dtype.size() / size {
                return Err(format!("{ctx}: {file} has {} bytes, {count} elements of {size} bytes expected", want.len()));
            }
            let got = dev.read(buf.ptr, count * size).map_err(|er| er.to_string())?;
            let tol = field(e, "tolerance").map(|t| Tolerance::parse(t, &ctx)).transpose()?;
            let mut mismatches = 0usize;
            let mut first = None;
            for i in 0..count {
                let (g, w) = (&got[i * size..(i + 1) * size], &want[i * size..(i + 1) * size]);
                let ok = if g == w {
                    true
                } else if let Some(t) = &tol {
                    let (gn, gi) = is_nan_or_inf(g, dtype, f16);
                    let (wn, wi) = is_nan_or_inf(w, dtype, f16);
                    if gn || wn {
                        gn && wn
                    } else if gi || wi {
                        false
                    } else {
                        match *t {
                            Tolerance::Ulp(u) => (ordered(g, dtype, f16) - ordered(w, dtype, f16)).unsigned_abs() <= u as u128,
                            Tolerance::Abs { abs, rel } => {
                                let (gv, wv) = (as_f64(g, dtype, f16), as_f64(w, dtype, f16));
                                (gv - wv).abs() <= abs + rel * wv.abs()
                            }
                        }
                    }
                } else {
                    false
                };
                if !ok {
                    mismatches += 1;
                    first.get_or_insert(i);
                }
            }
            if let Some(i) = first {
                let (g, w) = (&got[i * size..(i + 1) * size], &want[i * size..(i + 1) * size]);
                let _ = writeln!(
                    text,
                    "{name}: buffer `{bname}`: {mismatches} of {count} elements differ; first at index {i}: expected {}, got {}",
                    show(w, dtype, f16),
                    show(g, dtype, f16)
                );
                failed += 1;
            }
            results.insert(bname.clone(), serde_json::json!({ "mismatches": mismatches, "count": count }));
        }
    }
    if failed == 0 {
        let _ = writeln!(
            text,
            "{name}: ok ({} warp instructions, {} thread instructions)",
            o.stats.warp_instructions, o.stats.thread_instructions
        );
    }
    if opt.json {
        let j = serde_json::json!({
            "name": name,
            "ok": failed == 0,
            "trap": o.trap.as_ref().map(|t| t.to_string()),
            "stdout": String::from_utf8_lossy(&o.stdout),
            "buffers": results,
            "stats": o.stats,
        });
        text = format!("{}\n", serde_json::to_string_pretty(&j).map_err(|e| e.to_string())?);
    }
    Ok(Report {
        text,
        code: if failed == 0 { 0 } else { 1 },
        warp_instructions: 0,
        thread_instructions: 0,
        cycles: None,
        bank_conflicts: None,
    })
}
