//! The Verilator engine: the SM's exported Verilog (`heddle_hw::verilog`),
//! compiled by Verilator into a shared library with a thin C++ harness,
//! loaded with `dlopen` and driven through a C ABI by the same engine loop
//! as the rust-hdl SM (`rtl::run_on`, over [`SmPorts`]). The memory, the
//! bus checks, system calls, lockstep and trap decoding stay in Rust.
//!
//! ```text
//!   rtl::simulate_launch ──SmPorts──▶ VlSm ──C ABI (hv_eval)──▶ harness.cpp
//!                                                                 │
//!                         heddle_vl (wrapper.v): clean port names, monitors
//!                         (state, pc, exec mask, register-file write ports,
//!                         shared-memory words) by hierarchical reference
//!                                                                 │
//!                                                       top (the SM, dut.v)
//! ```
//!
//! The `verilated` crate is not used: its last release does not build
//! against Verilator 5. The library is built once per configuration and
//! cached under `$HEDDLE_CACHE` (default: `target/heddle-verilator` next
//! to the executable's `target`, else the temporary directory), in a folder
//! named by a hash of the Verilog, the wrapper, the harness, the build
//! flags and `verilator --version`.

use crate::rtl::ports::{SmPorts, I, L, O};
use heddle_hw::sm::{LaneWrite, Sm, SmState, SM_STATES};
use heddle_hw::SmConfig;
use rust_hdl::prelude::Block;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

/// Monitors the wrapper adds before the per-lane ones.
const MON_STATE: usize = 0;
const MON_CUR: usize = 1;
const MON_PC: usize = 2;
const MON_EXEC: usize = 3;
const MON_FIXED: usize = 4;

/// The Verilator executable: `$HEDDLE_VERILATOR`, else `verilator`.
pub fn verilator_bin() -> String {
    std::env::var("HEDDLE_VERILATOR").unwrap_or_else(|_| "verilator".into())
}

/// `verilator --version`, or why it cannot run.
pub fn verilator_version() -> Result<String, String> {
    let out = Command::new(verilator_bin())
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run {} ({e}); install Verilator 5 (scripts/test.sh does)", verilator_bin()))?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Width in bits of each declared signal of module `top` (ports and
/// internal wires and registers), from the exported Verilog.
fn top_widths(verilog: &str) -> HashMap<String, usize> {
    let mut w = HashMap::new();
    let body = verilog.split("module top(").nth(1).and_then(|b| b.split("endmodule").next()).unwrap_or("");
    for line in body.lines() {
        let t = line.trim();
        let t = t.strip_prefix("input ").or_else(|| t.strip_prefix("output ")).unwrap_or(t);
        let Some(rest) = t.strip_prefix("wire ").or_else(|| t.strip_prefix("reg ")) else { continue };
        let rest = rest.trim();
        let (bits, name) = match rest.strip_prefix('[') {
            Some(r) => {
                let (range, name) = r.split_once(']').unwrap_or(("0:0", ""));
                let hi: usize = range.split(':').next().and_then(|h| h.trim().parse().ok()).unwrap_or(0);
                (hi + 1, name)
            }
            None => (1, rest),
        };
        if let Some(name) = name.trim().strip_suffix(';') {
            w.insert(name.trim().to_string(), bits);
        }
    }
    w
}

fn decl(dir: &str, bits: usize, name: &str) -> String {
    if bits == 1 {
        format!("    {dir} wire {name};\n")
    } else {
        format!("    {dir} wire [{}:0] {name};\n", bits - 1)
    }
}

/// The shared-memory banks of the Verilog and words per bank (`top$smem$banks$N`).
fn smem_banks(verilog: &str) -> (usize, usize) {
    let banks = verilog.matches("module top$smem$banks$").count();
    let words = verilog
        .split("module top$smem$banks$0(")
        .nth(1)
        .and_then(|b| b.split("mem [0:").nth(1))
        .and_then(|r| r.split(']').next())
        .and_then(|n| n.parse::<usize>().ok())
        .map_or(0, |n| n + 1);
    (banks, words)
}

/// The model's shape: what the wrapper and the harness are generated from.
#[derive(Debug, Clone)]
struct Shape {
    lanes: usize,
    words: usize,
    banks: usize,
}

/// The wrapper module `heddle_vl`: the SM's ports under C-friendly names
/// (`name_N` for `name$N`), and its monitors as outputs.
fn wrapper(verilog: &str, shape: &Shape) -> Result<String, String> {
    let w = top_widths(verilog);
    let width = |n: &str| w.get(n).copied().ok_or_else(|| format!("the SM's Verilog has no signal `{n}`"));
    let mut ports = vec![];
    let mut body = String::new();
    let mut conns = vec![];
    for n in I::NAMES {
        body += &decl("input", width(n)?, n);
        ports.push(n.to_string());
        conns.push(format!(".{n}({n})"));
    }
    for i in 0..shape.words {
        let (r, d) = (format!("wb_dat_r${i}"), format!("wb_dat_w${i}"));
        body += &decl("input", width(&r)?, &format!("wb_dat_r_{i}"));
        body += &decl("output", width(&d)?, &format!("wb_dat_w_{i}"));
        ports.push(format!("wb_dat_r_{i}"));
        ports.push(format!("wb_dat_w_{i}"));
        conns.push(format!(".{r}(wb_dat_r_{i})"));
        conns.push(format!(".{d}(wb_dat_w_{i})"));
    }
    for n in O::NAMES {
        body += &decl("output", width(n)?, n);
        ports.push(n.to_string());
        conns.push(format!(".{n}({n})"));
    }
    for n in L::NAMES {
        for l in 0..shape.lanes {
            let v = format!("{n}${l}");
            body += &decl("output", width(&v)?, &format!("{n}_{l}"));
            ports.push(format!("{n}_{l}"));
            conns.push(format!(".{v}({n}_{l})"));
        }
    }
    // Other ports of `top` (busy): connected to nothing.
    let mut mons =
        vec![("mon_state", "state$q".to_string()), ("mon_cur", "cur$q".into()), ("mon_pc", "pc$q".into()), ("mon_exec", "exec$q".into())]
            .into_iter()
            .map(|(m, s)| (m.to_string(), s))
            .collect::<Vec<_>>();
    for l in 0..shape.lanes {
        for p in ["we", "waddr", "wdata"] {
            mons.push((format!("mon_rf_{p}_{l}"), format!("rf${l}${p}")));
        }
    }
    for (m, s) in &mons {
        body += &decl("output", width(s)?, m);
        writeln!(body, "    assign {m} = dut.{s};").unwrap();
        ports.push(m.clone());
    }
    body += "    input wire [31:0] mon_smem_addr;\n";
    ports.push("mon_smem_addr".into());
    for b in 0..shape.banks {
        writeln!(body, "    output wire [31:0] mon_smem_{b};\n    assign mon_smem_{b} = dut.smem.banks${b}.mem[mon_smem_addr];").unwrap();
        ports.push(format!("mon_smem_{b}"));
    }
    Ok(format!(
        "// Generated by heddle (sim/src/verilator.rs): the SM `top` under C-friendly port names, with its monitors.\n\
         /* verilator lint_off DECLFILENAME */\nmodule heddle_vl({});\n{body}    top dut({});\nendmodule\n",
        ports.join(", "),
        conns.join(", ")
    ))
}

/// The C++ harness: `hv_eval` copies the inputs into the model, evaluates
/// it and copies every output back.
fn harness(shape: &Shape) -> String {
    let mut h = String::from(
        "// Generated by heddle (sim/src/verilator.rs): the C ABI of the Verilated SM.\n\
         #include \"Vheddle_vl.h\"\n#include \"verilated.h\"\n#include <cstdint>\n\n\
         struct Hv { VerilatedContext* ctx; Vheddle_vl* m; };\n\n\
         extern \"C\" {\n\
         void* hv_new() { Hv* h = new Hv; h->ctx = new VerilatedContext; h->m = new Vheddle_vl{h->ctx}; return h; }\n\
         void hv_free(void* p) { Hv* h = (Hv*)p; h->m->final(); delete h->m; delete h->ctx; delete h; }\n",
    );
    writeln!(
        h,
        "int hv_shape(uint32_t* s) {{ s[0] = {}; s[1] = {}; s[2] = {}; s[3] = {}; s[4] = {}; s[5] = {}; return 6; }}",
        I::ALL.len(),
        O::ALL.len(),
        L::ALL.len(),
        shape.lanes,
        shape.words,
        shape.banks
    )
    .unwrap();
    h += "void hv_eval(void* p, const uint64_t* in, const uint32_t* dat_r, uint64_t* out, uint64_t* lanes, uint32_t* dat_w, uint64_t* mon) {\n";
    h += "    Vheddle_vl* m = ((Hv*)p)->m;\n";
    for (k, n) in I::NAMES.iter().enumerate() {
        writeln!(h, "    m->{n} = in[{k}];").unwrap();
    }
    for i in 0..shape.words {
        writeln!(h, "    m->wb_dat_r_{i} = dat_r[{i}];").unwrap();
    }
    h += "    m->eval();\n";
    for (k, n) in O::NAMES.iter().enumerate() {
        writeln!(h, "    out[{k}] = m->{n};").unwrap();
    }
    for (k, n) in L::NAMES.iter().enumerate() {
        for l in 0..shape.lanes {
            writeln!(h, "    lanes[{}] = m->{n}_{l};", k * shape.lanes + l).unwrap();
        }
    }
    for i in 0..shape.words {
        writeln!(h, "    dat_w[{i}] = m->wb_dat_w_{i};").unwrap();
    }
    for (k, n) in ["mon_state", "mon_cur", "mon_pc", "mon_exec"].iter().enumerate() {
        writeln!(h, "    mon[{k}] = m->{n};").unwrap();
    }
    for l in 0..shape.lanes {
        for (k, p) in ["we", "waddr", "wdata"].iter().enumerate() {
            writeln!(h, "    mon[{}] = m->mon_rf_{p}_{l};", MON_FIXED + 3 * l + k).unwrap();
        }
    }
    h += "}\n";
    h += "void hv_peek_smem(void* p, uint32_t addr, uint32_t* words) {\n    Vheddle_vl* m = ((Hv*)p)->m;\n    m->mon_smem_addr = addr;\n    m->eval();\n";
    for b in 0..shape.banks {
        writeln!(h, "    words[{b}] = m->mon_smem_{b};").unwrap();
    }
    h += "}\n}\n";
    h
}

/// Verilator's flags for the model (C++ optimisation of the fast path,
/// position-independent code for the shared library).
const FLAGS: &[&str] = &[
    "--cc",
    "--exe",
    "--build",
    "-j",
    "2",
    "-O3",
    "--x-assign",
    "fast",
    "--x-initial",
    "fast",
    "--noassert",
    "-Wno-fatal",
    "-Wno-lint",
    "-Wno-style",
    "--top-module",
    "heddle_vl",
    "-CFLAGS",
    "-fPIC",
    "-LDFLAGS",
    "-shared -Wl,-Bsymbolic",
    "-MAKEFLAGS",
    "OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2",
    "-o",
    "libheddle_vl.so",
];

/// 64-bit FNV-1a: a hash that stays the same across builds and toolchains.
fn fnv(parts: &[&str]) -> u64 {
    let mut h = 0xcbf29ce484222325u64;
    for p in parts {
        for b in p.bytes().chain([0xff]) {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        }
    }
    h
}

/// Where built models are kept: `$HEDDLE_CACHE`, else `heddle-verilator`
/// in the cargo `target` folder the executable is in, else in the
/// temporary directory.
pub fn cache_root() -> PathBuf {
    if let Ok(c) = std::env::var("HEDDLE_CACHE") {
        return PathBuf::from(c);
    }
    let exe = std::env::current_exe().ok();
    let target = exe.as_deref().and_then(|e| e.ancestors().find(|a| a.file_name().is_some_and(|n| n == "target")));
    match target {
        Some(t) => t.join("heddle-verilator"),
        None => std::env::temp_dir().join("heddle-verilator"),
    }
}

/// A built model: its library and shape.
struct Library {
    new: unsafe extern "C" fn() -> *mut c_void,
    free: unsafe extern "C" fn(*mut c_void),
    eval: unsafe extern "C" fn(*mut c_void, *const u64, *const u32, *mut u64, *mut u64, *mut u32, *mut u64),
    peek: unsafe extern "C" fn(*mut c_void, u32, *mut u32),
    shape: Shape,
    smem_words: usize,
}

extern "C" {
    fn dlopen(filename: *const c_char, flag: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    fn dlerror() -> *mut c_char;
}
const RTLD_NOW: c_int = 2;

fn dl_error() -> String {
    // SAFETY: dlerror returns null or a valid C string.
    unsafe {
        let e = dlerror();
        if e.is_null() {
            "unknown dlopen error".into()
        } else {
            CStr::from_ptr(e).to_string_lossy().into_owned()
        }
    }
}

fn load(path: &Path, shape: Shape, smem_words: usize) -> Result<Library, String> {
    let c = CString::new(path.as_os_str().as_encoded_bytes()).map_err(|e| e.to_string())?;
    // SAFETY: loading a library this module generated and built; its
    // symbols have the signatures declared in `harness`.
    unsafe {
        let h = dlopen(c.as_ptr(), RTLD_NOW);
        if h.is_null() {
            return Err(format!("cannot load {}: {}", path.display(), dl_error()));
        }
        let sym = |n: &str| -> Result<*mut c_void, String> {
            let cn = CString::new(n).unwrap();
            let s = dlsym(h, cn.as_ptr());
            if s.is_null() {
                Err(format!("{} has no `{n}`: {}", path.display(), dl_error()))
            } else {
                Ok(s)
            }
        };
        let shape_fn: unsafe extern "C" fn(*mut u32) -> c_int = std::mem::transmute(sym("hv_shape")?);
        let mut s = [0u32; 6];
        shape_fn(s.as_mut_ptr());
        let want = [I::ALL.len(), O::ALL.len(), L::ALL.len(), shape.lanes, shape.words, shape.banks].map(|v| v as u32);
        if s != want {
            return Err(format!("{} was built for other ports ({s:?}, not {want:?})", path.display()));
        }
        Ok(Library {
            new: std::mem::transmute(sym("hv_new")?),
            free: std::mem::transmute(sym("hv_free")?),
            eval: std::mem::transmute(sym("hv_eval")?),
            peek: std::mem::transmute(sym("hv_peek_smem")?),
            shape,
            smem_words,
        })
    }
}

/// Built and loaded models, by cache folder and by configuration.
fn libraries() -> &'static Mutex<HashMap<PathBuf, Arc<Library>>> {
    static L: OnceLock<Mutex<HashMap<PathBuf, Arc<Library>>>> = OnceLock::new();
    L.get_or_init(Default::default)
}

/// The Verilator model of `cfg`'s SM: built (minutes, once per
/// configuration, said on stderr) or taken from the cache, and loaded.
fn library(cfg: &SmConfig) -> Result<Arc<Library>, String> {
    // Loaded already for this configuration and Verilator: no Verilog to generate or hash.
    // (A planted bug changes the Verilog: it is part of every key.)
    let plant = heddle_hw::plant::active();
    let key = PathBuf::from(format!("{cfg:?} {plant:?} {}", verilator_bin()));
    if let Some(l) = libraries().lock().map_err(|_| "the Verilator model cache is poisoned".to_string())?.get(&key) {
        return Ok(l.clone());
    }
    // Built before by this executable for this configuration and Verilator: no Verilog to generate.
    let index = index_file(cfg);
    if let Some(lib) = index.as_deref().and_then(from_index) {
        let lib = Arc::new(lib);
        libraries().lock().map_err(|_| "the Verilator model cache is poisoned".to_string())?.insert(key, lib.clone());
        return Ok(lib);
    }
    let mut sm = Sm::new(cfg).map_err(|e| e.to_string())?;
    sm.connect_all();
    let verilog = heddle_hw::verilog::verilog_of(&sm);
    let (banks, smem_words) = smem_banks(&verilog);
    let shape = Shape { lanes: cfg.lanes as usize, words: sm.wb_dat_w.len(), banks };
    let wrap = wrapper(&verilog, &shape)?;
    let cpp = harness(&shape);
    let version = verilator_version()?;
    let hash = fnv(&[&verilog, &wrap, &cpp, &FLAGS.join(" "), &version]);
    let dir = cache_root().join(format!("{hash:016x}"));
    let mut libs = libraries().lock().map_err(|_| "the Verilator model cache is poisoned".to_string())?;
    if let Some(l) = libs.get(&dir) {
        return Ok(l.clone());
    }
    let so = dir.join("libheddle_vl.so");
    let _lock = if so.exists() { None } else { Some(BuildLock::take(&dir)?) };
    if !so.exists() {
        eprintln!("building the SM's Verilog with Verilator (minutes, once per configuration) in {} ...", dir.display());
        let started = std::time::Instant::now();
        let tmp = dir.with_extension(format!("tmp{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
        let write = |n: &str, t: &str| std::fs::write(tmp.join(n), t).map_err(|e| format!("cannot write {n}: {e}"));
        write("dut.v", &verilog)?;
        write("wrapper.v", &wrap)?;
        write("harness.cpp", &cpp)?;
        write("version.txt", &format!("{version}\n{}\n", FLAGS.join(" ")))?;
        let out = Command::new(verilator_bin())
            .current_dir(&tmp)
            .args(FLAGS)
            .args(["--Mdir", "obj", "wrapper.v", "dut.v", "harness.cpp"])
            .output()
            .map_err(|e| format!("cannot run {} ({e})", verilator_bin()))?;
        if !out.status.success() {
            return Err(format!(
                "Verilator failed to build the SM (in {}):\n{}{}",
                tmp.display(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        std::fs::rename(tmp.join("obj/libheddle_vl.so"), tmp.join("libheddle_vl.so")).map_err(|e| e.to_string())?;
        let _ = std::fs::remove_dir_all(tmp.join("obj"));
        // Another process may have finished the same build first: either copy serves.
        if std::fs::rename(&tmp, &dir).is_err() {
            let _ = std::fs::remove_dir_all(&tmp);
        }
        eprintln!("built in {:.0} s", started.elapsed().as_secs_f64());
    }
    if let Some(i) = &index {
        let line = format!("{} {} {} {smem_words} {}", shape.lanes, shape.words, shape.banks, dir.display());
        let _ = std::fs::create_dir_all(cache_root().join("index")).and_then(|_| std::fs::write(i, line));
    }
    let lib = Arc::new(load(&so, shape, smem_words)?);
    libs.insert(dir, lib.clone());
    libs.insert(key, lib.clone());
    Ok(lib)
}

/// The modification time and length of a file, as text.
fn stamp(p: &Path) -> Option<String> {
    let m = std::fs::metadata(p).ok()?;
    Some(format!("{:?} {}", m.modified().ok()?, m.len()))
}

/// The index entry naming the model this executable built for `cfg` with
/// this Verilator (`index/<hash>` in the cache: the model's folder and
/// shape), keyed by the configuration and the executable's and
/// Verilator's paths, times and lengths: a rebuilt heddle or another
/// Verilator generates the Verilog again and finds its model by its hash.
fn index_file(cfg: &SmConfig) -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let bin = verilator_bin();
    let resolved = if bin.contains('/') {
        PathBuf::from(&bin)
    } else {
        std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(&bin)).find(|p| p.is_file())?
    };
    let h = fnv(&[
        &format!("{cfg:?} {:?}", heddle_hw::plant::active()),
        &exe.display().to_string(),
        &stamp(&exe)?,
        &resolved.display().to_string(),
        &stamp(&resolved)?,
    ]);
    Some(cache_root().join("index").join(format!("{h:016x}")))
}

/// The model an index entry names, loaded, if it is there.
fn from_index(index: &Path) -> Option<Library> {
    let text = std::fs::read_to_string(index).ok()?;
    let f: Vec<&str> = text.splitn(5, ' ').collect();
    let [lanes, words, banks, smem_words, dir] = f[..] else { return None };
    let n = |s: &str| s.parse::<usize>().ok();
    let shape = Shape { lanes: n(lanes)?, words: n(words)?, banks: n(banks)? };
    load(&Path::new(dir).join("libheddle_vl.so"), shape, n(smem_words)?).ok()
}

/// One process builds a model at a time (`<hash>.lock` beside its
/// folder); the others wait for it, and then find the library built.
struct BuildLock(PathBuf);

impl BuildLock {
    fn take(dir: &Path) -> Result<BuildLock, String> {
        let path = dir.with_extension("lock");
        std::fs::create_dir_all(cache_root()).map_err(|e| format!("cannot create {}: {e}", cache_root().display()))?;
        let mut said = false;
        loop {
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(_) => return Ok(BuildLock(path)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    // A lock left by a build that died: no build takes an hour.
                    let age = std::fs::metadata(&path).and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok());
                    if age.is_some_and(|a| a.as_secs() > 3600) {
                        let _ = std::fs::remove_file(&path);
                        continue;
                    }
                    if !said {
                        eprintln!("waiting for another process building the SM's Verilog with Verilator ({})", path.display());
                        said = true;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(500));
                }
                Err(e) => return Err(format!("cannot create {}: {e}", path.display())),
            }
        }
    }
}

impl Drop for BuildLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Builds (or finds in the cache) the model of `cfg` without running it;
/// returns its folder.
pub fn prepare(cfg: &SmConfig) -> Result<(), String> {
    library(cfg).map(|_| ())
}

/// One instance of the Verilated SM, with the port values the harness
/// copies in and out.
pub struct VlSm {
    lib: Arc<Library>,
    model: *mut c_void,
    ins: Vec<u64>,
    dat_r: Vec<u32>,
    outs: Vec<u64>,
    lanes: Vec<u64>,
    dat_w: Vec<u32>,
    mon: Vec<u64>,
}

impl VlSm {
    /// A fresh SM of `cfg`, settled.
    pub fn new(cfg: &SmConfig) -> Result<VlSm, String> {
        let lib = library(cfg)?;
        // SAFETY: hv_new allocates a model that hv_free releases in Drop.
        let model = unsafe { (lib.new)() };
        let s = lib.shape.clone();
        let mut sm = VlSm {
            model,
            ins: vec![0; I::ALL.len()],
            dat_r: vec![0; s.words],
            outs: vec![0; O::ALL.len()],
            lanes: vec![0; L::ALL.len() * s.lanes],
            dat_w: vec![0; s.words],
            mon: vec![0; MON_FIXED + 3 * s.lanes],
            lib,
        };
        sm.eval();
        Ok(sm)
    }

    fn eval(&mut self) {
        // SAFETY: the buffers have the lengths the harness was generated for (checked by `load`).
        unsafe {
            (self.lib.eval)(
                self.model,
                self.ins.as_ptr(),
                self.dat_r.as_ptr(),
                self.outs.as_mut_ptr(),
                self.lanes.as_mut_ptr(),
                self.dat_w.as_mut_ptr(),
                self.mon.as_mut_ptr(),
            )
        }
    }
}

impl Drop for VlSm {
    fn drop(&mut self) {
        // SAFETY: the model came from hv_new and is freed once.
        unsafe { (self.lib.free)(self.model) }
    }
}

impl SmPorts for VlSm {
    #[inline(always)]
    fn o(&self, o: O) -> u64 {
        self.outs[o as usize]
    }
    #[inline(always)]
    fn lane(&self, l: L, lane: usize) -> u64 {
        self.lanes[l as usize * self.lib.shape.lanes + lane]
    }
    fn bus_words(&self) -> usize {
        self.dat_w.len()
    }
    fn dat_w(&self, w: usize) -> u32 {
        self.dat_w[w]
    }
    #[inline(always)]
    fn i(&self, i: I) -> u64 {
        self.ins[i as usize]
    }
    #[inline(always)]
    fn set(&mut self, i: I, v: u64) {
        self.ins[i as usize] = v;
    }
    fn dat_r(&self, w: usize) -> u32 {
        self.dat_r[w]
    }
    fn set_dat_r(&mut self, w: usize, v: u32) {
        self.dat_r[w] = v;
    }
    fn settle(&mut self) -> Result<(), String> {
        self.eval();
        Ok(())
    }
    /// The rising edge with the inputs as they were (the flip-flops take
    /// what the SM settled to), then the inputs that change with the edge
    /// and the falling edge in a second evaluation.
    fn tick_then(&mut self, after_edge: impl FnOnce(&mut Self)) -> Result<(), String> {
        self.ins[I::Clock as usize] = 1;
        self.eval();
        after_edge(self);
        self.ins[I::Clock as usize] = 0;
        self.eval();
        Ok(())
    }
    fn state(&self) -> SmState {
        SM_STATES.get(self.mon[MON_STATE] as usize).copied().unwrap_or(SmState::Trapped)
    }
    fn in_flight(&self) -> (u32, u32) {
        (self.mon[MON_CUR] as u32, self.mon[MON_PC] as u32)
    }
    fn exec_mask(&self) -> u64 {
        self.mon[MON_EXEC]
    }
    fn shared_bytes(&self, from: usize, len: usize) -> Vec<u8> {
        let banks = self.lib.shape.banks;
        if banks == 0 {
            return vec![0; len];
        }
        let mut words = vec![0u32; banks];
        let mut row = usize::MAX;
        let mut out = Vec::with_capacity(len);
        for at in from..from + len {
            let w = at / 4;
            if w / banks != row {
                row = w / banks;
                if row >= self.lib.smem_words {
                    words.iter_mut().for_each(|x| *x = 0);
                } else {
                    // SAFETY: `words` has a word per bank; the peek only reads memory (it evaluates
                    // the model with another monitor address, which changes no state).
                    unsafe { (self.lib.peek)(self.model, row as u32, words.as_mut_ptr()) }
                }
            }
            out.push((words[w % banks] >> (8 * (at % 4))) as u8);
        }
        out
    }
    fn lane_writes(&self, cfg: &SmConfig) -> Vec<LaneWrite> {
        let ports = (0..self.lib.shape.lanes).filter_map(|l| {
            let m = &self.mon[MON_FIXED + 3 * l..MON_FIXED + 3 * l + 3];
            (m[0] != 0).then_some((l as u32, m[1] as u32, m[2] as u32))
        });
        heddle_hw::sm::lane_writes(cfg, ports)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The monitor reads the state's code: `SM_STATES` must list the
    /// states in the order the Verilog numbers them.
    #[test]
    fn state_codes_match_the_verilog() {
        let verilog = heddle_hw::verilog::sm_verilog(&SmConfig::tiny()).unwrap();
        for (i, s) in SM_STATES.iter().enumerate() {
            let decl = format!("localparam SmState${s:?} = {i};");
            assert!(verilog.contains(&decl), "no `{decl}` in the Verilog");
        }
    }

    /// Every port and monitor the wrapper names exists in the Verilog.
    #[test]
    fn the_wrapper_finds_every_signal() {
        let cfg = SmConfig::tiny();
        let verilog = heddle_hw::verilog::sm_verilog(&cfg).unwrap();
        let (banks, words) = smem_banks(&verilog);
        assert!(banks > 0 && words > 0);
        let w = wrapper(&verilog, &Shape { lanes: cfg.lanes as usize, words: cfg.bus_bits as usize / 32, banks }).unwrap();
        assert!(w.contains("assign mon_rf_we_0 = dut.rf$0$we;"), "{w}");
    }
}
