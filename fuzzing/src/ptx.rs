//! Random PTX kernels for the compiler path (issue 19 §3).
//!
//! ```text
//!  seed ──> bytes ──> PtxCase (Unstructured): launch + data + statement tree
//!                       │ render
//!                       v
//!        .ptx ──parse──> PTX interpreter (Device::from_ptx)
//!                   └──compile──> object ──> golden model (Device::new)
//!                                        └─> RTL in lockstep (optional)
//!        oracle: trap, stdout, all of global memory; first difference with its engine pair
//!        mismatch ──> shrink_ptx (statements, launch, data) ──> .ptx + `// run:` lines
//! ```
//!
//! A [`PtxCase`] renders to one kernel `.entry fuzz(.param .u64 out, .param .u64 data)`
//! (PTX 8.8, `sm_75`, as NVRTC writes for the corpus; `ptxas -arch sm_75` accepts it:
//! `scripts/ptx-fuzz-ptxas.sh`). Every thread keeps its values in registers and
//! stores them to its own slot of `out` before it exits (its signature), so the
//! end state does not depend on the schedule; contended atomics use only
//! commutative integer operations and discard what they return.
//!
//! Register plan:
//!
//! ```text
//! %r0 tid.x  %r1 ntid.x  %r2 ctaid.x  %r3 global id  %r4 laneid  %r5-%r7 temporaries
//! %r8-%r15 values (u32/s32)   %r20 %r21 loop counters (levels 0, 1)
//! %rd0 out  %rd1 data  %rd2 &out[thread]  %rd3 &counters  %rd4 %rd5 temporaries
//! %rd8-%rd11 values (u64/s64, and f64 bits)   %f0-%f3 values (f32)   %fd0 %fd1 f64 temporaries
//! %rs0 %rs1 16-bit temporaries   %p0 branch conditions  %p1-%p3 values  %p4 temporary
//! out[thread] (128 bytes): 0 %r8-%r15, 32 %rd8-%rd11, 64 %f0-%f3, 80 %p1-%p3 as bits,
//!   84 a u32 atomic slot, 88 a u64 atomic slot, 96-127 scratch for stores
//! after the threads' slots: COUNTERS words of contended atomics
//! shared: sh (a word per thread), shc (a CTA counter); local: loc (64 bytes)
//! ```
//!
//! A `.func` declares the same registers: its arguments land in %r8, %r9,
//! %rd8, %f0, the other values are derived from them, and it returns them
//! folded into one `.b64`.

use crate::gen::SPECIAL;
use arbitrary::{Result, Unstructured};
use heddle_sim::launch::{Launch, LaunchError, NoTrace, Outcome};
use heddle_sim::rtl::RtlOptions;
use heddle_sim::Device;
use std::time::{Duration, Instant};

/// Words of the input buffer `data`.
pub const DATA_WORDS: usize = 64;
/// Bytes of `out` per thread.
pub const THREAD_BYTES: u32 = 128;
/// Contended atomic counter words after the threads' slots.
pub const COUNTERS: u32 = 8;
const SCRATCH: u32 = 96;
/// The operation of each contended counter word.
const COUNTER_OPS: [&str; COUNTERS as usize] = ["add.u32", "and.b32", "or.b32", "xor.b32", "min.u32", "max.u32", "min.s32", "max.s32"];
const NVALS: u8 = 8;
const NWIDE: u8 = 4;
const NFLOAT: u8 = 4;
const NPRED: u8 = 3;
const MAX_DEPTH: u32 = 4;
/// The fewest registers a case compiles for.
pub const MIN_REGS: u32 = 16;

/// One piece of a generated kernel.
#[derive(Debug, Clone, PartialEq)]
pub enum PStmt {
    /// Straight-line instructions (one operation with its setup).
    Code(Vec<String>),
    /// `cond` sets %p0; threads where it holds run `then`, the others `els`.
    If { cond: Vec<String>, then: Vec<PStmt>, els: Vec<PStmt> },
    /// `(trip & mask) + base` iterations, `trip` computed into %r5 per thread.
    Loop { level: u8, trip: Vec<String>, mask: u32, base: u32, body: Vec<PStmt> },
    /// Threads where `cond` (%p0) holds store their signature and exit (in a `.func`: return).
    Exit { cond: Vec<String> },
    /// Top level only, never after an `Exit`: a shared-memory exchange between
    /// `bar.sync 0`s, or shared atomics (own slots, or one contended counter).
    Barrier { code: Vec<String> },
    /// Inside a loop: threads where `cond` (%p0) holds leave the innermost loop
    /// (`brk`) or go on with its next iteration (an unstructured exit or continue).
    Jump { cond: Vec<String>, brk: bool },
    /// `call.uni` of function `func`: arguments %r(8+a), %r(8+b), %rd(8+w), %f(x);
    /// its 64-bit result into %rd(8+d).
    Call { func: usize, a: u8, b: u8, w: u8, x: u8, d: u8 },
}

/// A generated PTX launch: everything needed to run it and write a reproducer.
#[derive(Debug, Clone, PartialEq)]
pub struct PtxCase {
    pub grid: u32,
    pub block: u32,
    pub data: Vec<u32>,
    pub body: Vec<PStmt>,
    /// `.func`s: straight-line bodies over %r8-%r15 (arguments in %r8, %r9).
    pub funcs: Vec<Vec<PStmt>>,
    /// Registers per thread the compiler may use (`--max-regs`): few make it spill.
    pub max_regs: u32,
    /// Predicate registers the compiler may use (the SM's `preds`, 2-7): few make it keep PTX predicates in registers.
    pub preds: u32,
}

impl PtxCase {
    pub fn threads(&self) -> u32 {
        self.grid * self.block
    }
    /// Bytes of `out`: the threads' slots and the contended counters.
    pub fn out_bytes(&self) -> u32 {
        self.threads() * THREAD_BYTES + COUNTERS * 4
    }

    /// The SM every engine runs it on: the default one with the case's predicates.
    pub fn config(&self) -> heddle_hw::SmConfig {
        heddle_hw::SmConfig { preds: self.preds, ..Default::default() }
    }

    /// The `heddle run` arguments (after the `.ptx` file and `--engine E`).
    pub fn run_args(&self) -> String {
        let data = self.data.iter().map(|v| format!("{v:#x}")).collect::<Vec<_>>().join(",");
        format!(
            "--max-regs {} --set preds={} --grid {} --block {} --arg buf:out:u32:{} --arg buf:data:u32:{}={data}",
            self.max_regs,
            self.preds,
            self.grid,
            self.block,
            self.out_bytes() / 4,
            self.data.len()
        )
    }

    /// The kernel as PTX text.
    pub fn render(&self) -> String {
        let mut r = Render { out: String::new(), label: 0, loops: vec![], in_func: false };
        r.line(".version 8.8\n.target sm_75\n.address_size 64\n");
        for (i, f) in self.funcs.iter().enumerate() {
            r.func(i, f);
        }
        r.line(".visible .entry fuzz(\n\t.param .u64 out,\n\t.param .u64 data\n)\n{");
        r.decls();
        r.line(&format!("\t.shared .align 8 .b8 sh[{}];", self.block.next_power_of_two() * 4));
        r.line("\t.shared .align 4 .b8 shc[4];\n\t.local .align 8 .b8 loc[64];");
        r.prologue();
        r.stmts(&self.body);
        r.signature();
        r.line("\texit;\n}");
        r.out
    }
}

struct Render {
    out: String,
    label: u32,
    /// Labels of the loops around the statement rendered.
    loops: Vec<u32>,
    /// Rendering a `.func`: an `Exit` returns.
    in_func: bool,
}

impl Render {
    fn line(&mut self, s: &str) {
        self.out.push_str(s);
        self.out.push('\n');
    }
    fn code(&mut self, lines: &[String]) {
        for l in lines {
            self.line(&format!("\t{l}"));
        }
    }
    fn fresh(&mut self) -> u32 {
        self.label += 1;
        self.label
    }
    fn decls(&mut self) {
        self.line(
            "\t.reg .pred %p<8>;\n\t.reg .b16 %rs<4>;\n\t.reg .b32 %r<24>;\n\t.reg .b64 %rd<16>;\n\t.reg .f32 %f<8>;\n\t.reg .f64 %fd<4>;",
        );
    }
    fn func(&mut self, i: usize, body: &[PStmt]) {
        self.line(&format!(".func (.param .b64 ret) f{i}(\n\t.param .b32 a,\n\t.param .b32 b,\n\t.param .b64 w,\n\t.param .f32 x\n)\n{{"));
        self.decls();
        self.line("\tld.param.u32 %r8, [a];\n\tld.param.u32 %r9, [b];\n\tld.param.u64 %rd8, [w];\n\tld.param.f32 %f0, [x];");
        self.line("\tsetp.lt.u32 %p1, %r8, %r9;\n\tsetp.eq.u32 %p2, %r8, 0;\n\tsetp.gt.s32 %p3, %r9, 0;");
        self.code(&lines(&[
            "mov.u32 %r0, %tid.x;",
            "mov.u32 %r1, %ntid.x;",
            "mov.u32 %r2, %ctaid.x;",
            "mad.lo.s32 %r3, %r2, %r1, %r0;",
            "mov.u32 %r4, %laneid;",
        ]));
        for k in 10..16 {
            self.line(&format!("\txor.b32 %r{k}, %r{}, {};", 8 + k % 2, 0x9e37_79b9u32.wrapping_mul(k)));
        }
        for k in 9..12 {
            self.line(&format!("\txor.b64 %rd{k}, %rd8, {};", 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(k) as i64));
            self.line(&format!("\tmov.b32 %f{}, %r{};", k - 8, k + 3));
        }
        self.in_func = true;
        self.stmts(body);
        self.in_func = false;
        self.func_return();
        self.line("}\n");
    }
    /// Folds the values into %rd8 and returns it.
    fn func_return(&mut self) {
        for k in 9..16 {
            self.line(&format!("\txor.b32 %r8, %r8, %r{k};"));
        }
        for k in 0..4 {
            self.line(&format!("\tmov.b32 %r9, %f{k};\n\tadd.s32 %r8, %r8, %r9;"));
        }
        for k in 9..12 {
            self.line(&format!("\txor.b64 %rd8, %rd8, %rd{k};"));
        }
        self.line("\tmov.b64 %rd9, {%r8, %r8};\n\txor.b64 %rd8, %rd8, %rd9;\n\tst.param.b64 [ret], %rd8;\n\tret;");
    }
    fn prologue(&mut self) {
        self.code(&lines(&[
            "ld.param.u64 %rd0, [out];",
            "ld.param.u64 %rd1, [data];",
            "cvta.to.global.u64 %rd0, %rd0;",
            "cvta.to.global.u64 %rd1, %rd1;",
            "mov.u32 %r0, %tid.x;",
            "mov.u32 %r1, %ntid.x;",
            "mov.u32 %r2, %ctaid.x;",
            "mad.lo.s32 %r3, %r2, %r1, %r0;",
            "mov.u32 %r4, %laneid;",
            &format!("mul.wide.u32 %rd2, %r3, {THREAD_BYTES};"),
            "add.s64 %rd2, %rd0, %rd2;",
            "mov.u32 %r5, %nctaid.x;",
            "mul.lo.s32 %r5, %r5, %r1;",
            &format!("mul.wide.u32 %rd3, %r5, {THREAD_BYTES};"),
            "add.s64 %rd3, %rd0, %rd3;",
        ]));
        for i in 0..NVALS as u32 {
            self.code(&load_data(&format!("%r{}", 8 + i), &format!("mad.lo.s32 %r5, %r3, {}, {};", i * 2 + 1, i * 7)));
        }
        for i in 0..NWIDE as u32 {
            self.line(&format!("\tmov.b64 %rd{}, {{%r{}, %r{}}};", 8 + i, 8 + (i * 3) % 8, 8 + (i * 3 + 5) % 8));
        }
        for i in 0..NFLOAT as u32 {
            self.code(&load_data("%r6", &format!("add.s32 %r5, %r3, {};", 32 + i * 5)));
            self.line(&format!("\tmov.b32 %f{i}, %r6;"));
        }
        for i in 0..NPRED as u32 {
            self.line(&format!("\tand.b32 %r5, %r3, {};\n\tsetp.ne.u32 %p{}, %r5, 0;", 1 << i, i + 1));
        }
        for k in 0..8 {
            self.line(&format!("\tst.local.u64 [loc+{}], %rd{};", k * 8, 8 + k % 4));
        }
    }
    fn signature(&mut self) {
        for i in 0..NVALS {
            self.line(&format!("\tst.global.u32 [%rd2+{}], %r{};", 4 * i, 8 + i));
        }
        for i in 0..NWIDE {
            self.line(&format!("\tst.global.u64 [%rd2+{}], %rd{};", 32 + 8 * i, 8 + i));
        }
        for i in 0..NFLOAT {
            self.line(&format!("\tst.global.f32 [%rd2+{}], %f{i};", 64 + 4 * i));
        }
        self.line("\tselp.u32 %r5, 1, 0, %p1;\n\tselp.u32 %r6, 2, 0, %p2;\n\tor.b32 %r5, %r5, %r6;");
        self.line("\tselp.u32 %r6, 4, 0, %p3;\n\tor.b32 %r5, %r5, %r6;\n\tst.global.u32 [%rd2+80], %r5;");
    }
    fn stmts(&mut self, body: &[PStmt]) {
        for s in body {
            self.stmt(s);
        }
    }
    fn stmt(&mut self, s: &PStmt) {
        match s {
            PStmt::Code(c) | PStmt::Barrier { code: c } => self.code(c),
            PStmt::If { cond, then, els } => {
                let n = self.fresh();
                self.code(cond);
                self.line(&format!("\t@!%p0 bra $L_else{n};"));
                self.stmts(then);
                self.line(&format!("\tbra.uni $L_end{n};\n$L_else{n}:"));
                self.stmts(els);
                self.line(&format!("$L_end{n}:"));
            }
            PStmt::Loop { level, trip, mask, base, body } => {
                let n = self.fresh();
                let c = 20 + level;
                self.code(trip);
                self.line(&format!("\tand.b32 %r{c}, %r5, {mask};\n\tadd.s32 %r{c}, %r{c}, {base};\n$L_head{n}:"));
                self.line(&format!("\tsetp.eq.u32 %p0, %r{c}, 0;\n\t@%p0 bra $L_done{n};"));
                self.loops.push(n);
                self.stmts(body);
                self.loops.pop();
                self.line(&format!("$L_next{n}:\n\tsub.s32 %r{c}, %r{c}, 1;\n\tbra.uni $L_head{n};\n$L_done{n}:"));
            }
            PStmt::Exit { cond } => {
                let n = self.fresh();
                self.code(cond);
                self.line(&format!("\t@!%p0 bra $L_stay{n};"));
                if self.in_func {
                    self.func_return();
                } else {
                    self.signature();
                    self.line("\texit;");
                }
                self.line(&format!("$L_stay{n}:"));
            }
            PStmt::Jump { cond, brk } => {
                // (A jump left outside a loop by the shrinker renders as nothing.)
                if let Some(&n) = self.loops.last() {
                    self.code(cond);
                    self.line(&format!("\t@%p0 bra $L_{}{n};", if *brk { "done" } else { "next" }));
                }
            }
            PStmt::Call { func, a, b, w, x, d } => {
                self.line("\t{\n\t.param .b32 pa;\n\t.param .b32 pb;\n\t.param .b64 pw;\n\t.param .f32 px;\n\t.param .b64 pr;");
                self.line(&format!("\tst.param.b32 [pa], %r{};\n\tst.param.b32 [pb], %r{};", 8 + a, 8 + b));
                self.line(&format!("\tst.param.b64 [pw], %rd{};\n\tst.param.f32 [px], %f{x};", 8 + w));
                self.line(&format!("\tcall.uni (pr), f{func}, (pa, pb, pw, px);\n\tld.param.b64 %rd{}, [pr];\n\t}}", 8 + d));
            }
        }
    }
}

fn lines(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// `dst = data[index & 63]` with the index computed into %r5 by `index`.
fn load_data(dst: &str, index: &str) -> Vec<String> {
    lines(&[
        index,
        "and.b32 %r5, %r5, 63;",
        "mul.wide.u32 %rd4, %r5, 4;",
        "add.s64 %rd4, %rd1, %rd4;",
        &format!("ld.global.u32 {dst}, [%rd4];"),
    ])
}

// ---------------------------------------------------------------- generation

/// What the generator leaves out.
#[derive(Debug, Clone, Copy, Default)]
pub struct PtxOptions {
    /// Leave out calls to `.func`s.
    pub no_calls: bool,
}

fn r(i: u8) -> String {
    format!("%r{}", 8 + i)
}
fn rd(i: u8) -> String {
    format!("%rd{}", 8 + i)
}
fn f(i: u8) -> String {
    format!("%f{i}")
}
fn p(i: u8) -> String {
    format!("%p{}", 1 + i)
}

/// 64-bit immediates (integers and binary64 bits).
const SPECIAL64: &[u64] = &[
    0,
    1,
    u64::MAX,
    1 << 32,
    0xffff_ffff,
    0x8000_0000_0000_0000,
    0x7fff_ffff_ffff_ffff,
    0x8000_0000,
    0x1_0000_0001,
    0x3ff0_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff8_0000_0000_0000,
    0x0000_0000_0000_0001,
    0xc3e0_0000_0000_0000,
];
const ROUND: &[&str] = &["rn", "rz", "rm", "rp"];
const ROUND_INT: &[&str] = &["rni", "rzi", "rmi", "rpi"];
const CMP_INT: &[&str] = &["eq", "ne", "lt", "le", "gt", "ge"];
const CMP_UNSIGNED: &[&str] = &["eq", "ne", "lo", "ls", "hi", "hs"];
const CMP_FLOAT: &[&str] = &["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"];

struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    opts: PtxOptions,
    /// Inside a `.func`: only 32-bit integer operations, no memory.
    in_func: bool,
    nfuncs: usize,
    exited: bool,
}

impl<'a, 'b> Gen<'a, 'b> {
    fn pick<T: Copy>(&mut self, v: &[T]) -> Result<T> {
        Ok(*self.u.choose(v)?)
    }
    fn val(&mut self) -> Result<String> {
        Ok(r(self.u.int_in_range(0..=NVALS - 1)?))
    }
    fn wide(&mut self) -> Result<String> {
        Ok(rd(self.u.int_in_range(0..=NWIDE - 1)?))
    }
    fn flt(&mut self) -> Result<String> {
        Ok(f(self.u.int_in_range(0..=NFLOAT - 1)?))
    }
    fn pred(&mut self) -> Result<String> {
        Ok(p(self.u.int_in_range(0..=NPRED - 1)?))
    }
    /// A 32-bit source: a value, or sometimes an immediate (special or small).
    fn src32(&mut self) -> Result<String> {
        Ok(match self.u.int_in_range(0..=9)? {
            0 => format!("{}", self.pick(SPECIAL)?),
            1 => format!("{}", self.u.int_in_range(0..=40u32)?),
            _ => self.val()?,
        })
    }
    /// A 64-bit source: a value, or sometimes an immediate.
    fn src64(&mut self) -> Result<String> {
        Ok(match self.u.int_in_range(0..=5)? {
            0 => format!("{}", self.pick(SPECIAL64)? as i64),
            _ => self.wide()?,
        })
    }
    /// A shift amount: a value, or an immediate 0-70.
    fn shift(&mut self) -> Result<String> {
        Ok(if self.u.ratio(1, 3)? { format!("{}", self.u.int_in_range(0..=70u32)?) } else { self.val()? })
    }
    /// An f32 source: a value, or sometimes a special value as `0fXXXXXXXX`.
    fn fsrc(&mut self) -> Result<String> {
        Ok(if self.u.ratio(1, 5)? { format!("0f{:08X}", self.pick(SPECIAL)?) } else { self.flt()? })
    }
    /// A bit position or length (`bfe`, `bfi`): a value, or an immediate 0-40.
    fn field(&mut self) -> Result<String> {
        Ok(if self.u.ratio(1, 2)? { format!("{}", self.u.int_in_range(0..=40u32)?) } else { self.val()? })
    }
    /// An optional guard on a single instruction.
    fn guard(&mut self) -> Result<String> {
        Ok(match self.u.int_in_range(0..=7)? {
            0 => format!("@{} ", self.pred()?),
            1 => format!("@!{} ", self.pred()?),
            _ => String::new(),
        })
    }

    fn int32(&mut self) -> Result<Vec<String>> {
        let (d, a, b, c) = (self.val()?, self.val()?, self.src32()?, self.val()?);
        let g = self.guard()?;
        let s = self.pick(&["u32", "s32"])?;
        let one = |x: String| Ok(vec![format!("{g}{x}")]);
        match self.u.int_in_range(0..=30)? {
            0 => one(format!("{}.{s} {d}, {a}, {b};", self.pick(&["add", "sub", "min", "max"])?)),
            1 => one(format!("{}.sat.s32 {d}, {a}, {b};", self.pick(&["add", "sub"])?)),
            2 => one(format!("mul.{}.{s} {d}, {a}, {b};", self.pick(&["lo", "hi"])?)),
            3 => one(format!("mad.{}.{s} {d}, {a}, {b}, {c};", self.pick(&["lo", "hi"])?)),
            4 => one(format!("{}.b32 {d}, {a}, {b};", self.pick(&["and", "or", "xor"])?)),
            5 => one(format!("{}.b32 {d}, {a};", self.pick(&["not", "cnot", "brev"])?)),
            6 => one(format!("{}.b32 {d}, {a};", self.pick(&["popc", "clz"])?)),
            7 => one(format!("{}.s32 {d}, {a};", self.pick(&["abs", "neg"])?)),
            8 => one(format!("shl.b32 {d}, {a}, {b};")),
            9 => one(format!("shr.{} {d}, {a}, {b};", self.pick(&["b32", "u32", "s32"])?)),
            10 => one(format!("bfe.{s} {d}, {a}, {}, {c};", self.field()?)),
            11 => one(format!("bfi.b32 {d}, {a}, {c}, {}, {};", self.field()?, self.field()?)),
            12 => one(format!("prmt.b32 {d}, {a}, {c}, {b};")),
            13 => one(format!("bfind.{s} {d}, {a};")),
            // `mul24` is left out: the PTX interpreter runs it, the compiler rejects it (not supported yet).
            14 => one(format!("mul.lo.{s} {d}, {a}, {b};")),
            15 => {
                // Division by zero is machine-specific in PTX: the divisor is made nonzero.
                let op = self.pick(&["div", "rem"])?;
                Ok(vec![format!("setp.eq.u32 %p4, {c}, 0;"), format!("selp.b32 %r5, 7, {c}, %p4;"), format!("{g}{op}.{s} {d}, {a}, %r5;")])
            }
            16 => one(format!("selp.b32 {d}, {a}, {b}, {};", self.pred()?)),
            17 => one(format!("mov.b32 {d}, {b};")),
            18 => one(format!("sad.{s} {d}, {a}, {b}, {c};")),
            19 => {
                let sreg = self.pick(&["%tid.x", "%ntid.x", "%ctaid.x", "%nctaid.x", "%laneid"])?;
                Ok(vec![format!("mov.u32 %r5, {sreg};"), format!("{g}add.s32 {d}, {d}, %r5;")])
            }
            21 => one(format!("prmt.b32.{} {d}, {a}, {c}, {b};", self.pick(&["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"])?)),
            22 => one(format!("shf.{}.{}.b32 {d}, {a}, {c}, {b};", self.pick(&["l", "r"])?, self.pick(&["wrap", "clamp"])?)),
            23 => one(format!("set.{}.u32.s32 {d}, {a}, {b};", self.pick(CMP_INT)?)),
            // `slct` is left out: the PTX interpreter runs it, the compiler rejects it (not supported yet).
            24 => one(format!("selp.b32 {d}, {a}, {b}, {};", self.pred()?)),
            25 => one(format!("bfind.shiftamt.{s} {d}, {a};")),
            26 => Ok(vec![format!("add.cc.u32 %r5, {a}, {b};"), format!("addc.u32 {d}, {c}, {c};")]),
            27 => Ok(vec![
                format!("sub.cc.u32 %r5, {a}, {b};"),
                format!("subc.cc.u32 %r6, {c}, {a};"),
                format!("madc.lo.u32 {d}, {c}, {a}, %r6;"),
            ]),
            28 => one(format!("lop3.b32 {d}, {a}, {b}, {c}, {};", self.u.int_in_range(0..=255u32)?)),
            29 => one(format!("dp4a.{s}.{} {d}, {a}, {b}, {c};", self.pick(&["u32", "s32"])?)),
            30 => one(format!("dp2a.{}.{s}.{} {d}, {a}, {b}, {c};", self.pick(&["lo", "hi"])?, self.pick(&["u32", "s32"])?)),
            _ => {
                let op = self.pick(&["add", "sub", "mul.lo", "min", "max", "shl", "shr", "and", "xor"])?;
                let t = match op {
                    "shl" | "and" | "xor" => "b16",
                    _ => self.pick(&["u16", "s16"])?,
                };
                let ext = self.pick(&["u32", "s32"])?;
                Ok(vec![
                    format!("cvt.u16.u32 %rs0, {a};"),
                    format!("cvt.u16.u32 %rs1, {c};"),
                    if matches!(op, "shl" | "shr") { format!("{op}.{t} %rs0, %rs0, {c};") } else { format!("{op}.{t} %rs0, %rs0, %rs1;") },
                    format!("{g}cvt.{ext}.{} {d}, %rs0;", if ext == "u32" { "u16" } else { "s16" }),
                ])
            }
        }
    }

    fn int64(&mut self) -> Result<Vec<String>> {
        let (d, a, b, c) = (self.wide()?, self.wide()?, self.src64()?, self.wide()?);
        // Two different registers (`mov.b64 {x, y}` unpacks into both).
        let xi = self.u.int_in_range(0..=NVALS - 1)?;
        let (x, y) = (r(xi), r((xi + self.u.int_in_range(1..=NVALS - 1)?) % NVALS));
        let g = self.guard()?;
        let s = self.pick(&["u64", "s64"])?;
        let one = |x: String| Ok(vec![format!("{g}{x}")]);
        match self.u.int_in_range(0..=15)? {
            0 => one(format!("{}.{s} {d}, {a}, {b};", self.pick(&["add", "sub", "min", "max"])?)),
            1 => one(format!("mul.{}.{s} {d}, {a}, {b};", self.pick(&["lo", "hi"])?)),
            2 => one(format!("mad.lo.{s} {d}, {a}, {b}, {c};")),
            3 => one(format!("{}.b64 {d}, {a}, {b};", self.pick(&["and", "or", "xor"])?)),
            4 => one(format!("{}.b64 {d}, {a};", self.pick(&["not", "brev"])?)),
            5 => one(format!("{}.b64 {x}, {a};", self.pick(&["popc", "clz"])?)),
            6 => one(format!("{}.s64 {d}, {a};", self.pick(&["abs", "neg"])?)),
            7 => one(format!("{}.{} {d}, {a}, {};", self.pick(&["shl", "shr"])?, self.pick(&["b64", "u64", "s64"])?, self.shift()?)
                .replace("shl.u64", "shl.b64")
                .replace("shl.s64", "shl.b64")),
            8 => one(format!("bfe.{s} {d}, {a}, {x}, {y};")),
            9 => one(format!("mul.wide.{} {d}, {x}, {y};", self.pick(&["u32", "s32"])?)),
            10 => one(format!("mad.wide.{} {d}, {x}, {y}, {c};", self.pick(&["u32", "s32"])?)),
            11 => {
                let op = self.pick(&["div", "rem"])?;
                Ok(vec![
                    format!("setp.eq.u64 %p4, {c}, 0;"),
                    format!("selp.b64 %rd5, 3, {c}, %p4;"),
                    format!("{g}{op}.{s} {d}, {a}, %rd5;"),
                ])
            }
            12 => one(format!("mov.b64 {d}, {{{x}, {y}}};")),
            13 => one(format!("mov.b64 {{{x}, {y}}}, {a};")),
            14 => one(format!("selp.b64 {d}, {a}, {b}, {};", self.pred()?)),
            _ => {
                // `cvt.sat` between 64- and 32-bit integers is left out: the compiler rejects it (not supported yet).
                let cv = self.pick(&[
                    "cvt.u64.u32 D, X;",
                    "cvt.s64.s32 D, X;",
                    "cvt.u32.u64 X, A;",
                    "cvt.s32.s64 X, A;",
                    "cvt.sat.u32.s32 X, Y;",
                    "cvt.sat.s32.u32 X, Y;",
                    "cvt.s32.s8 X, Y;",
                    "cvt.u32.u8 X, Y;",
                    "cvt.s32.s16 X, Y;",
                    "cvt.s64.s16 D, Y;",
                    "cvt.sat.s8.s32 X, Y;",
                    "cvt.sat.u8.s32 X, Y;",
                    "cvt.sat.s16.s32 X, Y;",
                    "cvt.sat.u16.u32 X, Y;",
                ])?;
                one(cv.replace('D', &d).replace('A', &a).replace('X', &x).replace('Y', &y))
            }
        }
    }

    fn float(&mut self) -> Result<Vec<String>> {
        let (d, a, b, c) = (self.flt()?, self.flt()?, self.fsrc()?, self.fsrc()?);
        let x = self.val()?;
        let g = self.guard()?;
        let rnd = self.pick(ROUND)?;
        let ftz = if self.u.ratio(1, 4)? { ".ftz" } else { "" };
        let sat = if self.u.ratio(1, 6)? { ".sat" } else { "" };
        let one = |x: String| Ok(vec![format!("{g}{x}")]);
        match self.u.int_in_range(0..=17)? {
            0 => one(format!("{}.{rnd}{ftz}{sat}.f32 {d}, {a}, {b};", self.pick(&["add", "sub", "mul"])?)),
            1 => one(format!("fma.{rnd}{ftz}{sat}.f32 {d}, {a}, {b}, {c};")),
            2 => one(format!("{}{ftz}.f32 {d}, {a}, {b};", self.pick(&["min", "max"])?)),
            3 => one(format!("{}{ftz}.f32 {d}, {a};", self.pick(&["abs", "neg"])?)),
            4 => one(format!("cvt.{rnd}.f32.{} {d}, {x};", self.pick(&["u32", "s32"])?)),
            5 => one(format!("cvt.{}{ftz}{sat}.{}.f32 {x}, {a};", self.pick(ROUND_INT)?, self.pick(&["u32", "s32"])?)),
            6 => one(format!("cvt.{}{ftz}.{}.f32 {}, {a};", self.pick(ROUND_INT)?, self.pick(&["u64", "s64"])?, self.wide()?)),
            7 => one(format!("cvt.{rnd}.f32.{} {d}, {};", self.pick(&["u64", "s64"])?, self.wide()?)),
            8 => one(format!("mov.b32 {d}, {x};")),
            9 => one(format!("mov.b32 {x}, {a};")),
            10 => one(format!("selp.f32 {d}, {a}, {b}, {};", self.pred()?)),
            11 => match self.pick(&["div", "sqrt", "rcp"])? {
                "div" => one(format!("div.{rnd}{ftz}.f32 {d}, {a}, {b};")),
                op => one(format!("{op}.{rnd}{ftz}.f32 {d}, {a};")),
            },
            12 | 13 => {
                // binary64 through the %rd values' bits.
                let (wa, wb, wd) = (self.wide()?, self.wide()?, self.wide()?);
                let op = match self.u.int_in_range(0..=3)? {
                    0 => format!("fma.{rnd}.f64 %fd0, %fd0, %fd1, %fd1;"),
                    1 => format!("div.{rnd}.f64 %fd0, %fd0, %fd1;"),
                    _ => format!("{}.{rnd}.f64 %fd0, %fd0, %fd1;", self.pick(&["add", "sub", "mul"])?),
                };
                let fd1 = if self.u.ratio(1, 3)? {
                    format!("mov.f64 %fd1, 0d{:016X};", self.pick(SPECIAL64)?)
                } else {
                    format!("mov.b64 %fd1, {wb};")
                };
                Ok(vec![format!("mov.b64 %fd0, {wa};"), fd1, op, format!("{g}mov.b64 {wd}, %fd0;")])
            }
            14 => {
                let w = self.wide()?;
                Ok(if self.u.ratio(1, 2)? {
                    vec![format!("cvt{ftz}.f64.f32 %fd0, {a};"), format!("{g}mov.b64 {w}, %fd0;")]
                } else {
                    vec![format!("mov.b64 %fd0, {w};"), format!("{g}cvt.{rnd}{ftz}{sat}.f32.f64 {d}, %fd0;")]
                })
            }
            15 => one(format!(
                "testp.{}.f32 {}, {a};",
                self.pick(&["finite", "infinite", "number", "notanumber", "normal", "subnormal"])?,
                self.pred()?
            )),
            16 => one(format!("copysign.f32 {d}, {a}, {b};")),
            17 => {
                let t = self.pick(&["u16", "s16"])?;
                Ok(vec![format!("cvt.u16.u32 %rs0, {x};"), format!("{g}cvt.{rnd}{ftz}.f32.{t} {d}, %rs0;")])
            }
            _ => one(format!("cvt.{}{ftz}{sat}.f32.f32 {d}, {a};", self.pick(ROUND_INT)?)),
        }
    }

    /// setp into a value predicate, or predicate logic.
    fn setp(&mut self) -> Result<Vec<String>> {
        let (pd, pq) = (self.pred()?, self.pred()?);
        let comb = match self.u.int_in_range(0..=3)? {
            0 => format!(".{}", self.pick(&["and", "or", "xor"])?),
            _ => String::new(),
        };
        let tail =
            if comb.is_empty() { String::new() } else { format!(", {}{}", if self.u.ratio(1, 2)? { "!" } else { "" }, self.pred()?) };
        let dst = if self.u.ratio(1, 5)? { format!("{pd}|%p4") } else { pd.clone() };
        Ok(vec![match self.u.int_in_range(0..=5)? {
            0 => format!("setp.{}.s32{comb} {dst}, {}, {}{tail};", self.pick(CMP_INT)?, self.val()?, self.src32()?),
            1 => format!("setp.{}.u32{comb} {dst}, {}, {}{tail};", self.pick(CMP_UNSIGNED)?, self.val()?, self.src32()?),
            2 => format!(
                "setp.{}.{}{comb} {dst}, {}, {}{tail};",
                self.pick(CMP_INT)?,
                self.pick(&["s64", "u64"])?,
                self.wide()?,
                self.src64()?
            ),
            3 => format!(
                "setp.{}{}.f32{comb} {dst}, {}, {}{tail};",
                self.pick(CMP_FLOAT)?,
                if self.u.ratio(1, 4)? { ".ftz" } else { "" },
                self.flt()?,
                self.fsrc()?
            ),
            4 => format!("{}.pred {pd}, {pq}, {};", self.pick(&["and", "or", "xor"])?, self.pred()?),
            _ => format!("not.pred {pd}, {pq};"),
        }])
    }

    /// Loads from `data` at a computed index, stores and loads back in the
    /// thread's scratch, local-memory round trips.
    fn memory(&mut self) -> Result<Vec<String>> {
        let (d, a, w) = (self.val()?, self.val()?, self.wide()?);
        let g = self.guard()?;
        Ok(match self.u.int_in_range(0..=6)? {
            5 => {
                // Vectors: two or four consecutive value registers.
                let base = self.u.int_in_range(0..=NVALS - 1)?;
                let n = self.pick(&[2u8, 4])?;
                let regs = (0..n).map(|k| r((base + k) % NVALS)).collect::<Vec<_>>().join(", ");
                let size = 4 * n as u32;
                if self.u.ratio(1, 2)? {
                    vec![
                        format!("and.b32 %r5, {a}, {};", 256 / size - 1),
                        format!("mul.wide.u32 %rd4, %r5, {size};"),
                        "add.s64 %rd4, %rd1, %rd4;".into(),
                        format!("ld.global.v{n}.u32 {{{regs}}}, [%rd4];"),
                    ]
                } else {
                    let off = SCRATCH + self.u.int_in_range(0..=32 / size - 1)? * size;
                    vec![format!("st.global.v{n}.u32 [%rd2+{off}], {{{regs}}};")]
                }
            }
            6 => {
                // Generic addressing of the thread's scratch or of the local array.
                let off = self.u.int_in_range(0..=7)? * 4;
                let (to_generic, base) =
                    if self.u.ratio(1, 2)? { ("cvta.global.u64 %rd5, %rd2;", SCRATCH + off) } else { ("cvta.local.u64 %rd5, %rd5;", off) };
                let setup = if base == off { vec!["mov.u64 %rd5, loc;".to_string()] } else { vec![] };
                let mut v = setup;
                v.push(to_generic.into());
                v.push(format!("st.u32 [%rd5+{base}], {a};"));
                v.push(format!("ld.u16 %rs0, [%rd5+{}];", base + 2 * self.u.int_in_range(0..=1)?));
                v.push(format!("cvt.u32.u16 {d}, %rs0;"));
                v
            }
            0 | 1 => {
                let (t, size, dst) = self.pick(&[
                    ("u8", 1, false),
                    ("s8", 1, false),
                    ("u16", 2, false),
                    ("s16", 2, false),
                    ("u32", 4, false),
                    ("b32", 4, false),
                    ("u64", 8, true),
                ])?;
                let nc = if self.u.ratio(1, 3)? { ".nc" } else { "" };
                let dst = if dst { w } else { d };
                vec![
                    format!("and.b32 %r5, {a}, {};", 256 / size - 1),
                    format!("mul.wide.u32 %rd4, %r5, {size};"),
                    "add.s64 %rd4, %rd1, %rd4;".into(),
                    format!("{g}ld.global{nc}.{t} {dst}, [%rd4];"),
                ]
            }
            2 | 3 => {
                let (t, size, wide) = self.pick(&[("u8", 1, false), ("u16", 2, false), ("u32", 4, false), ("u64", 8, true)])?;
                let off = SCRATCH + self.u.int_in_range(0..=32 / size - 1)? * size;
                let back = self.pick(&[("u8", 1, false), ("s16", 2, false), ("u32", 4, false), ("u64", 8, true)])?;
                let boff = SCRATCH + self.u.int_in_range(0..=32 / back.1 - 1)? * back.1;
                let src = if wide { self.wide()? } else { self.val()? };
                let bdst = if back.2 { w } else { d };
                vec![format!("{g}st.global.{t} [%rd2+{off}], {src};"), format!("ld.global.{} {bdst}, [%rd2+{boff}];", back.0)]
            }
            _ => {
                let (t, size) = self.pick(&[("u32", 4), ("u64", 8), ("u16", 2)])?;
                let src = if size == 8 { self.wide()? } else { self.val()? };
                let dst = if size == 8 { w } else { d };
                vec![
                    format!("and.b32 %r5, {a}, {};", 64 / size - 1),
                    format!("mul.wide.u32 %rd4, %r5, {size};"),
                    "mov.u64 %rd5, loc;".into(),
                    "add.s64 %rd4, %rd5, %rd4;".into(),
                    format!("st.local.{t} [%rd4], {src};"),
                    format!("ld.local.{t} {dst}, [loc+{}];", self.u.int_in_range(0..=64 / size - 1)? * size),
                ]
            }
        })
    }

    /// Atomics on the thread's own slots (the result kept) or on contended
    /// counters (commutative integer operations, the result discarded).
    fn atomic(&mut self) -> Result<Vec<String>> {
        let (d, a, b, w) = (self.val()?, self.val()?, self.val()?, self.wide()?);
        let g = self.guard()?;
        let v = if self.u.ratio(1, 2)? {
            vec![match self.u.int_in_range(0..=5)? {
                0 => format!("atom.global.{}.{} {d}, [%rd2+84], {a};", self.pick(&["add", "min", "max"])?, self.pick(&["u32", "s32"])?),
                1 => format!("atom.global.{}.b32 {d}, [%rd2+84], {a};", self.pick(&["and", "or", "xor", "exch"])?),
                2 => format!("atom.global.cas.b32 {d}, [%rd2+84], {a}, {b};"),
                3 => format!("atom.global.{}.u32 {d}, [%rd2+84], {a};", self.pick(&["inc", "dec"])?),
                4 => format!("atom.global.add.f32 {}, [%rd2+84], {};", self.flt()?, self.flt()?),
                _ => format!("atom.global.add.u64 {w}, [%rd2+88], {};", self.wide()?),
            }]
        } else {
            // One operation per counter word: mixed operations would not commute.
            let k = self.u.int_in_range(0..=COUNTERS - 1)?;
            let op = COUNTER_OPS[k as usize];
            let k = k * 4;
            vec![if self.u.ratio(1, 2)? {
                format!("atom.global.{op} %r7, [%rd3+{k}], {a};")
            } else {
                format!("red.global.{op} [%rd3+{k}], {a};")
            }]
        };
        Ok(v.into_iter().map(|l| format!("{g}{l}")).collect())
    }

    fn code(&mut self) -> Result<PStmt> {
        // (No memory in a `.func`.)
        let n = if self.in_func { 14 } else { 19 };
        let c = match self.u.int_in_range(0..=n)? {
            0..=6 => self.int32()?,
            7..=9 => self.int64()?,
            10..=12 => self.float()?,
            13..=14 => self.setp()?,
            15..=17 => self.memory()?,
            _ => self.atomic()?,
        };
        Ok(PStmt::Code(c))
    }

    /// A condition into %p0 that splits warps.
    fn cond(&mut self) -> Result<Vec<String>> {
        let cmp = self.pick(CMP_UNSIGNED)?;
        Ok(match self.u.int_in_range(0..=5)? {
            0 => vec![format!("and.b32 %r5, %r0, {};", 1u32 << self.u.int_in_range(0..=6)?), "setp.ne.u32 %p0, %r5, 0;".into()],
            1 => vec![format!("setp.{cmp}.u32 %p0, %r4, {};", self.u.int_in_range(0..=32)?)],
            2 => vec![format!("setp.{cmp}.u32 %p0, %r3, {};", self.u.int_in_range(0..=200)?)],
            3 => {
                vec![format!("and.b32 %r5, {}, {};", self.val()?, 1u32 << self.u.int_in_range(0..=31)?), "setp.eq.u32 %p0, %r5, 0;".into()]
            }
            4 => vec![format!("setp.{}.s32.and %p0, {}, {}, {};", self.pick(CMP_INT)?, self.val()?, self.val()?, self.pred()?)],
            _ => vec![format!("mov.pred %p0, {};", self.pred()?)],
        })
    }

    fn block(&mut self, depth: u32, level: u8, n: u32) -> Result<Vec<PStmt>> {
        let mut v = vec![];
        for _ in 0..n {
            v.push(self.stmt(depth, level)?);
        }
        Ok(v)
    }

    fn stmt(&mut self, depth: u32, level: u8) -> Result<PStmt> {
        let k = self.u.int_in_range(0..=19)?;
        // In a `.func`: ifs, loops, jumps and early returns; no barriers, votes or calls.
        if depth >= MAX_DEPTH || k < 11 || (self.in_func && k > 16) {
            return self.code();
        }
        Ok(match k {
            11..=13 => {
                let cond = self.cond()?;
                let n = self.u.int_in_range(1..=4)?;
                let then = self.block(depth + 1, level, n)?;
                let n = self.u.int_in_range(0..=3)?;
                let els = self.block(depth + 1, level, n)?;
                PStmt::If { cond, then, els }
            }
            14 | 15 if level < 2 => {
                let src = if self.u.ratio(1, 2)? { "%r0".to_string() } else { self.val()? };
                let trip = vec![format!("mov.b32 %r5, {src};")];
                let mask = self.pick(&[1, 3, 7])?;
                let base = self.u.int_in_range(0..=2)?;
                let n = self.u.int_in_range(1..=3)?;
                let body = self.block(depth + 1, level + 1, n)?;
                PStmt::Loop { level, trip, mask, base, body }
            }
            16 if level > 0 && self.u.ratio(2, 3)? => PStmt::Jump { cond: self.cond()?, brk: self.u.ratio(1, 2)? },
            16 if depth > 0 => {
                self.exited |= !self.in_func;
                PStmt::Exit { cond: self.cond()? }
            }
            17 if depth == 0 && !self.exited => PStmt::Barrier { code: self.barrier()? },
            // Votes over the active mask, at the top level before any exit (the warp converged).
            18 if depth == 0 && !self.exited => {
                let (d, pr) = (self.val()?, self.pred()?);
                let vote = match self.u.int_in_range(0..=2)? {
                    0 => format!("vote.sync.ballot.b32 {d}, {pr}, %r5;"),
                    1 => format!("vote.sync.{}.pred %p4, {pr}, %r5;\n\tselp.b32 {d}, {d}, %r5, %p4;", self.pick(&["any", "all", "uni"])?),
                    _ => format!("popc.b32 {d}, %r5;"),
                };
                PStmt::Code(vec!["activemask.b32 %r5;".into(), vote])
            }
            18 | 19 if self.nfuncs > 0 && !self.opts.no_calls => PStmt::Call {
                func: self.u.int_in_range(0..=self.nfuncs - 1)?,
                a: self.u.int_in_range(0..=NVALS - 1)?,
                b: self.u.int_in_range(0..=NVALS - 1)?,
                w: self.u.int_in_range(0..=NWIDE - 1)?,
                x: self.u.int_in_range(0..=NFLOAT - 1)?,
                d: self.u.int_in_range(0..=NWIDE - 1)?,
            },
            _ => self.code()?,
        })
    }

    /// Every thread stores a value to its shared slot, waits, reads a
    /// permuted slot (or its own where the partner is out of range), waits.
    fn barrier(&mut self) -> Result<Vec<String>> {
        let (a, d) = (self.val()?, self.val()?);
        let k = self.u.int_in_range(1..=63)?;
        let op = self.pick(&COUNTER_OPS)?;
        match self.u.int_in_range(0..=3)? {
            // Atomics on the thread's own shared slot.
            0 => {
                let b = self.src32()?;
                return Ok(lines(&[
                    "mov.u64 %rd5, sh;",
                    "mul.wide.u32 %rd4, %r0, 4;",
                    "add.s64 %rd4, %rd5, %rd4;",
                    &format!("st.shared.u32 [%rd4], {a};"),
                    &format!("atom.shared.{op} {d}, [%rd4], {b};"),
                    "ld.shared.u32 %r6, [%rd4];",
                    &format!("xor.b32 {d}, {d}, %r6;"),
                    "bar.sync 0;",
                ]));
            }
            // One counter for the CTA, one operation: thread 0 sets it, all update it, all read it.
            1 => {
                return Ok(lines(&[
                    "setp.eq.u32 %p4, %r0, 0;",
                    &format!("@%p4 st.shared.u32 [shc], {};", self.pick(SPECIAL)?),
                    "bar.sync 0;",
                    &format!("atom.shared.{op} %r7, [shc], {a};"),
                    "bar.sync 0;",
                    "ld.shared.u32 %r6, [shc];",
                    &format!("add.s32 {d}, {d}, %r6;"),
                    "bar.sync 0;",
                ]));
            }
            _ => {}
        }
        Ok(lines(&[
            "mov.u64 %rd5, sh;",
            "mul.wide.u32 %rd4, %r0, 4;",
            "add.s64 %rd4, %rd5, %rd4;",
            &format!("st.shared.u32 [%rd4], {a};"),
            "bar.sync 0;",
            &format!("xor.b32 %r5, %r0, {k};"),
            "setp.ge.u32 %p4, %r5, %r1;",
            "selp.b32 %r5, %r0, %r5, %p4;",
            "mul.wide.u32 %rd4, %r5, 4;",
            "add.s64 %rd4, %rd5, %rd4;",
            "ld.shared.u32 %r6, [%rd4];",
            &format!("add.s32 {d}, {d}, %r6;"),
            "bar.sync 0;",
        ]))
    }
}

/// Draws a case from `u` (valid by construction; terminates).
pub fn ptx_case(u: &mut Unstructured, opts: PtxOptions) -> Result<PtxCase> {
    let grid = u.int_in_range(1..=3)?;
    let block = match u.int_in_range(0..=3)? {
        0 => 32 * u.int_in_range(1..=3)?,
        _ => u.int_in_range(1..=96)?,
    };
    let mut data = Vec::with_capacity(DATA_WORDS);
    for _ in 0..DATA_WORDS {
        data.push(if u.ratio(1, 2)? { *u.choose(SPECIAL)? } else { u.arbitrary()? });
    }
    let nfuncs = if opts.no_calls { 0 } else { u.int_in_range(0..=2)? };
    let mut g = Gen { u, opts, in_func: true, nfuncs, exited: false };
    let mut funcs = vec![];
    for _ in 0..nfuncs {
        let n = g.u.int_in_range(1..=6)?;
        funcs.push(g.block(0, 0, n)?);
    }
    g.in_func = false;
    let n = g.u.int_in_range(3..=40)?;
    let body = g.block(0, 0, n)?;
    let max_regs = if g.u.ratio(1, 3)? { g.u.int_in_range(MIN_REGS..=48)? } else { heddle_hw::SmConfig::default().regs_per_thread };
    let preds = if g.u.ratio(1, 3)? { g.u.int_in_range(2..=6)? } else { 7 };
    Ok(PtxCase { grid, block, data, body, funcs, max_regs, preds })
}

impl<'a> arbitrary::Arbitrary<'a> for PtxCase {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<PtxCase> {
        ptx_case(u, PtxOptions::default())
    }
}

/// A seeded case: the same seed gives the same case.
pub fn ptx_case_of_seed(seed: u64) -> PtxCase {
    ptx_case_of_seed_with(seed, PtxOptions::default())
}

/// A seeded case drawn with generator options.
pub fn ptx_case_of_seed_with(seed: u64, opts: PtxOptions) -> PtxCase {
    let bytes = crate::splitmix_bytes(seed ^ 0x5bd1_e995_7f4a_7c15, 8192);
    ptx_case(&mut Unstructured::new(&bytes), opts).expect("generation from seeded bytes")
}

// ---------------------------------------------------------------- the oracle

/// Which kind of difference the oracle saw (the shrinker keeps it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PtxKind {
    /// Only one engine trapped, or the traps differ.
    Trap,
    Stdout,
    /// Global memory differs at the end.
    Memory,
    /// An engine failed otherwise (refused the launch, RTL fault or lockstep).
    Engine,
}

/// The first difference between two engines.
#[derive(Debug, Clone)]
pub struct PtxMismatch {
    pub kind: PtxKind,
    /// The engine pair, the reference first: ("ptx", "golden") or ("golden", "rtl").
    pub engines: (&'static str, &'static str),
    pub detail: String,
}

/// What running one case gave.
#[derive(Debug, Clone)]
pub struct PtxVerdict {
    pub mismatch: Option<PtxMismatch>,
    pub ptx_s: f64,
    pub golden_s: f64,
    /// 0 without the RTL.
    pub rtl_s: f64,
    /// Instructions of the compiled kernel (all functions).
    pub code_words: usize,
}

/// One engine's end: its outcome and global memory.
struct End {
    result: Result<Outcome, LaunchError>,
    memory: Vec<u8>,
    secs: f64,
}

/// Parses the case's PTX and compiles it: the interpreter's program and the object.
/// Err: the generated PTX is invalid for the front end, the interpreter or the compiler.
pub fn build(case: &PtxCase) -> Result<(heddle_sim::ptx::Prog, heddle_isa::Object), String> {
    let text = case.render();
    let src = heddle_compiler::ptx::SourceFile::new("fuzz.ptx", &text);
    let m = heddle_compiler::ptx::load(&src)
        .map_err(|d| format!("generated PTX is rejected by the front end: {}", heddle_isa::diag::Diagnostics(d)))?;
    let prog = heddle_sim::ptx::prepare(&src, &m).map_err(|e| format!("generated PTX is rejected by the PTX interpreter: {e}"))?;
    let cfg = case.config();
    // The allocation checker runs on every compiled case.
    let opts = heddle_compiler::lower::Options {
        max_regs: case.max_regs.min(cfg.regs_per_thread),
        preds: cfg.preds,
        check_alloc: true,
        mul64: cfg.mul64,
        shift64: cfg.shift64,
    };
    let (obj, _) = heddle_compiler::lower::compile_with(&src, &m, &opts)
        .map_err(|d| format!("generated PTX is rejected by the compiler: {}", heddle_isa::diag::Diagnostics(d)))?;
    Ok((prog, obj))
}

/// Allocates `out` and `data` and returns the launch.
fn setup(case: &PtxCase, dev: &mut Device) -> Result<Launch, String> {
    dev.limits.max_cycles = Some(5_000_000);
    let out = dev.alloc(case.out_bytes()).map_err(|e| e.to_string())?;
    let data = dev.alloc(case.data.len() as u32 * 4).map_err(|e| e.to_string())?;
    let bytes: Vec<u8> = case.data.iter().flat_map(|v| v.to_le_bytes()).collect();
    dev.write(data, &bytes).map_err(|e| e.to_string())?;
    let mut params = out.to_le_bytes().to_vec();
    params.extend(data.to_le_bytes());
    Ok(Launch { kernel: "fuzz".into(), grid: [case.grid, 1, 1], block: [case.block, 1, 1], params, dynamic_shared: 0 })
}

fn run_on(case: &PtxCase, mut dev: Device, go: impl FnOnce(&mut Device, &Launch) -> Result<Outcome, LaunchError>) -> Result<End, String> {
    let l = setup(case, &mut dev)?;
    let t = Instant::now();
    let result = go(&mut dev, &l);
    Ok(End { result, memory: dev.global.bytes().to_vec(), secs: t.elapsed().as_secs_f64() })
}

/// Where byte `at` of global memory is, for a mismatch report.
fn place(case: &PtxCase, at: usize) -> String {
    let off = at.saturating_sub(heddle_isa::mem::NULL_LIMIT as usize) as u32;
    if off >= case.out_bytes() {
        return "beyond out (data or other memory)".into();
    }
    if off >= case.threads() * THREAD_BYTES {
        return format!("contended counter word {}", (off - case.threads() * THREAD_BYTES) / 4);
    }
    let (t, o) = (off / THREAD_BYTES, off % THREAD_BYTES);
    let what = match o {
        0..=31 => format!("%r{}", 8 + o / 4),
        32..=63 => format!("%rd{}", 8 + (o - 32) / 8),
        64..=79 => format!("%f{}", (o - 64) / 4),
        80..=83 => "predicates %p1-%p3".into(),
        84..=95 => "atomic slot".into(),
        _ => format!("scratch byte {}", o - SCRATCH),
    };
    format!("out[thread {t}] {what}")
}

/// Compares two engines' ends: trap kind, stdout, every byte of global memory.
fn compare(a: &End, b: &End, engines: (&'static str, &'static str), case: &PtxCase) -> Option<PtxMismatch> {
    let (x, y) = engines;
    let m = |kind, detail: String| Some(PtxMismatch { kind, engines, detail: format!("{x} vs {y}: {detail}") });
    let (ra, rb) = match (&a.result, &b.result) {
        (Ok(ra), Ok(rb)) => (ra, rb),
        (Err(e), _) => return m(PtxKind::Engine, format!("{x} failed: {e}")),
        (_, Err(e)) => return m(PtxKind::Engine, format!("{y} failed: {e}")),
    };
    let show = |t: &Option<heddle_sim::trap::Trap>| t.as_ref().map_or("none".into(), |t| format!("{t}"));
    if ra.trap.as_ref().map(|t| &t.kind) != rb.trap.as_ref().map(|t| &t.kind) {
        return m(PtxKind::Trap, format!("trap differs\n  {x}: {}\n  {y}: {}", show(&ra.trap), show(&rb.trap)));
    }
    if ra.stdout != rb.stdout {
        let s = |o: &[u8]| String::from_utf8_lossy(o).into_owned();
        return m(PtxKind::Stdout, format!("stdout differs\n  {x}: {:?}\n  {y}: {:?}", s(&ra.stdout), s(&rb.stdout)));
    }
    if ra.trap.is_none() && a.memory != b.memory {
        let n = a.memory.len().min(b.memory.len());
        let first = (0..n).find(|&i| a.memory[i] != b.memory[i]).unwrap_or(n) & !3;
        let word = |mem: &[u8]| mem.get(first..first + 4).map(|w| u32::from_le_bytes(w.try_into().unwrap()));
        return m(
            PtxKind::Memory,
            format!("global memory differs at {first:#x} ({}): {x} {:x?}, {y} {:x?}", place(case, first), word(&a.memory), word(&b.memory)),
        );
    }
    None
}

/// Runs a case on the PTX interpreter and, compiled, on the golden model
/// (and with `rtl` on the RTL in lockstep); returns the first difference.
/// Err: the PTX does not parse or compile, or the interpreter refuses the launch
/// (a generator or front-end finding).
pub fn run_ptx_case(case: &PtxCase, rtl: bool) -> Result<PtxVerdict, String> {
    run_ptx_case_with(case, rtl, |_, _| {})
}

/// [`run_ptx_case`] with a hook that may edit each end's global memory before
/// the comparison (`(engine, memory)`; tests plant differences with it).
pub fn run_ptx_case_with(case: &PtxCase, rtl: bool, mut edit: impl FnMut(&str, &mut Vec<u8>)) -> Result<PtxVerdict, String> {
    let (prog, obj) = build(case)?;
    let cfg = case.config();
    let dev = Device::from_ptx(cfg.clone(), prog).map_err(|e| format!("PTX interpreter refused the module: {e}"))?;
    let mut ptx = run_on(case, dev, |d, l| d.launch(l))?;
    if let Err(e) = &ptx.result {
        return Err(format!("PTX interpreter refused the launch: {e}"));
    }
    let golden_dev = || Device::new(cfg.clone(), obj.clone()).map_err(|e| format!("the compiled object does not load: {e}"));
    let mut golden = run_on(case, golden_dev()?, |d, l| d.launch(l))?;
    edit("ptx", &mut ptx.memory);
    edit("golden", &mut golden.memory);
    let mut mismatch = compare(&ptx, &golden, ("ptx", "golden"), case);
    let mut rtl_s = 0.0;
    if rtl && mismatch.is_none() {
        let opts = RtlOptions { lockstep: true, ..Default::default() };
        let mut r = run_on(case, golden_dev()?, |d, l| d.launch_rtl(l, &opts, &mut NoTrace).map(|o| o.outcome))?;
        edit("rtl", &mut r.memory);
        rtl_s = r.secs;
        mismatch = compare(&golden, &r, ("golden", "rtl"), case);
    }
    Ok(PtxVerdict { mismatch, ptx_s: ptx.secs, golden_s: golden.secs, rtl_s, code_words: obj.code.len() })
}

// ---------------------------------------------------------------- shrinking

/// Every way to make a statement list one step smaller: drop chunks or one
/// statement, replace an `if`/loop by its body, shrink inside one.
fn candidates(body: &[PStmt]) -> Vec<Vec<PStmt>> {
    let mut out = vec![];
    let mut chunk = body.len() / 2;
    while chunk >= 2 {
        for start in (0..body.len()).step_by(chunk) {
            let mut v = body.to_vec();
            v.drain(start..(start + chunk).min(body.len()));
            out.push(v);
        }
        chunk /= 2;
    }
    for i in 0..body.len() {
        let mut v = body.to_vec();
        v.remove(i);
        out.push(v);
        let flat = match &body[i] {
            PStmt::If { then, els, .. } => Some(then.iter().chain(els).cloned().collect::<Vec<_>>()),
            PStmt::Loop { body, .. } => Some(body.clone()),
            _ => None,
        };
        if let Some(fl) = flat {
            let mut v = body.to_vec();
            v.splice(i..=i, fl);
            out.push(v);
        }
        let inner: Vec<PStmt> = match &body[i] {
            PStmt::If { cond, then, els } => {
                let mut r: Vec<PStmt> =
                    candidates(then).into_iter().map(|t| PStmt::If { cond: cond.clone(), then: t, els: els.clone() }).collect();
                r.extend(candidates(els).into_iter().map(|e| PStmt::If { cond: cond.clone(), then: then.clone(), els: e }));
                r
            }
            PStmt::Loop { level, trip, mask, base, body: b } => {
                let mut r: Vec<PStmt> = candidates(b)
                    .into_iter()
                    .map(|nb| PStmt::Loop { level: *level, trip: trip.clone(), mask: *mask, base: *base, body: nb })
                    .collect();
                if *mask > 1 {
                    r.push(PStmt::Loop { level: *level, trip: trip.clone(), mask: mask >> 1, base: *base, body: b.clone() });
                }
                r
            }
            _ => vec![],
        };
        for s in inner {
            let mut v = body.to_vec();
            v[i] = s;
            out.push(v);
        }
    }
    out
}

/// Whether a statement list calls function `k`.
fn calls(body: &[PStmt], k: usize) -> bool {
    body.iter().any(|s| match s {
        PStmt::Call { func, .. } => *func == k,
        PStmt::If { then, els, .. } => calls(then, k) || calls(els, k),
        PStmt::Loop { body, .. } => calls(body, k),
        _ => false,
    })
}

fn smaller_cases(c: &PtxCase) -> Vec<PtxCase> {
    let mut out: Vec<PtxCase> = candidates(&c.body).into_iter().map(|b| PtxCase { body: b, ..c.clone() }).collect();
    for (i, f) in c.funcs.iter().enumerate() {
        for nf in candidates(f) {
            let mut funcs = c.funcs.clone();
            funcs[i] = nf;
            out.push(PtxCase { funcs, ..c.clone() });
        }
    }
    // The last function when nothing calls it.
    if c.funcs.last().is_some() && !calls(&c.body, c.funcs.len() - 1) {
        out.push(PtxCase { funcs: c.funcs[..c.funcs.len() - 1].to_vec(), ..c.clone() });
    }
    let all = heddle_hw::SmConfig::default().regs_per_thread;
    if c.max_regs < all {
        out.push(PtxCase { max_regs: all, ..c.clone() });
    }
    if c.preds < 7 {
        out.push(PtxCase { preds: 7, ..c.clone() });
    }
    if c.grid > 1 {
        out.push(PtxCase { grid: 1, ..c.clone() });
        out.push(PtxCase { grid: c.grid - 1, ..c.clone() });
    }
    if c.block > 1 {
        out.push(PtxCase { block: 1, ..c.clone() });
        out.push(PtxCase { block: c.block / 2, ..c.clone() });
        out.push(PtxCase { block: c.block - 1, ..c.clone() });
    }
    if c.data.iter().any(|&v| v != 0) {
        out.push(PtxCase { data: vec![0; c.data.len()], ..c.clone() });
        for i in (0..c.data.len()).filter(|&i| c.data[i] != 0) {
            let mut data = c.data.clone();
            data[i] = 0;
            out.push(PtxCase { data, ..c.clone() });
        }
    }
    out
}

/// Reduces a failing case while `fails` holds (greedy: the first smaller
/// candidate that still fails is taken, until none does or `budget` runs out).
pub fn shrink_ptx_by(case: &PtxCase, budget: Duration, fails: impl FnMut(&PtxCase) -> bool) -> PtxCase {
    crate::greedy(case, budget, smaller_cases, fails)
}

/// Reduces a failing case while the same kind of difference between the
/// same engines persists.
pub fn shrink_ptx(case: &PtxCase, m: &PtxMismatch, rtl: bool, budget: Duration) -> PtxCase {
    shrink_ptx_by(case, budget, |c| {
        run_ptx_case(c, rtl).ok().and_then(|v| v.mismatch).is_some_and(|n| n.kind == m.kind && n.engines == m.engines)
    })
}

/// A reproducer: the PTX with the mismatch as a comment and one `// run:`
/// line per engine of the pair (`heddle run FILE.ptx <line>`); their outputs differ.
pub fn ptx_reproducer(case: &PtxCase, seed: Option<u64>, m: &PtxMismatch) -> String {
    let mut s = String::from("// Found by `heddle fuzz --target ptx`");
    if let Some(seed) = seed {
        s.push_str(&format!(" (program seed {seed})"));
    }
    s.push_str(".\n");
    for l in m.detail.lines() {
        s.push_str(&format!("// {l}\n"));
    }
    for e in [m.engines.0, m.engines.1] {
        let lockstep = if e == "rtl" { " --lockstep" } else { "" };
        s.push_str(&format!("// run: --engine {e}{lockstep} {}\n", case.run_args()));
    }
    s.push_str(&case.render());
    s
}

// ---------------------------------------------------------------- campaigns

/// What a PTX campaign did.
#[derive(Debug, Default)]
pub struct PtxSummary {
    pub programs: u64,
    /// Seconds spent in each engine.
    pub ptx_s: f64,
    pub golden_s: f64,
    pub rtl_s: f64,
    /// Seconds spent parsing and compiling.
    pub build_s: f64,
    pub wall_s: f64,
    /// (program seed, shrunk case, mismatch).
    pub mismatches: Vec<(u64, PtxCase, PtxMismatch)>,
    /// Programs that did not parse, compile or launch: (seed, why).
    pub invalid: Vec<(u64, String)>,
}

impl PtxSummary {
    /// Programs per second of one engine's time (0 when it did not run).
    pub fn rate(&self, engine_s: f64) -> f64 {
        if engine_s > 0.0 {
            self.programs as f64 / engine_s
        } else {
            0.0
        }
    }
}

/// Runs programs of seeds `seed`, `seed+1`, ... for `seconds` (on the RTL
/// too with `rtl`), shrinking each mismatch for at most 30 s; stops after 5
/// mismatches. `progress` sees the summary after every program.
pub fn ptx_campaign(seed: u64, seconds: f64, rtl: bool, progress: impl FnMut(&PtxSummary)) -> PtxSummary {
    ptx_campaign_with(seed, seconds, rtl, 30.0, 5, PtxOptions::default(), progress)
}

/// [`ptx_campaign`] with the shrinking time per mismatch, the mismatches to
/// stop after and generator options.
pub fn ptx_campaign_with(
    seed: u64,
    seconds: f64,
    rtl: bool,
    shrink_s: f64,
    max_mismatches: usize,
    opts: PtxOptions,
    mut progress: impl FnMut(&PtxSummary),
) -> PtxSummary {
    let mut s = PtxSummary::default();
    let t = Instant::now();
    let mut k = 0u64;
    while t.elapsed().as_secs_f64() < seconds && s.mismatches.len() < max_mismatches {
        let ps = seed.wrapping_add(k);
        k += 1;
        let case = ptx_case_of_seed_with(ps, opts);
        let t0 = Instant::now();
        match run_ptx_case(&case, rtl) {
            Ok(v) => {
                s.programs += 1;
                s.ptx_s += v.ptx_s;
                s.golden_s += v.golden_s;
                s.rtl_s += v.rtl_s;
                s.build_s += t0.elapsed().as_secs_f64() - v.ptx_s - v.golden_s - v.rtl_s;
                if let Some(m) = v.mismatch {
                    let small = shrink_ptx(&case, &m, rtl, Duration::from_secs_f64(shrink_s));
                    let m2 = run_ptx_case(&small, rtl).ok().and_then(|v| v.mismatch).unwrap_or(m);
                    s.mismatches.push((ps, small, m2));
                }
            }
            Err(e) => s.invalid.push((ps, e)),
        }
        s.wall_s = t.elapsed().as_secs_f64();
        progress(&s);
    }
    s.wall_s = t.elapsed().as_secs_f64();
    s
}
