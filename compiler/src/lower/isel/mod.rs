//! Instruction selection: one PTX function to machine IR on virtual registers.
//!
//! Value conventions: PTX registers of 32 bits or fewer live in one 32-bit
//! virtual register, 64-bit ones in a pair; values narrower than 32 bits keep
//! only their low bits meaningful, and instructions whose result depends on
//! the upper bits (shifts right, compares, division, conversions) normalize
//! their inputs first. PTX predicates are 32-bit registers holding 0 or 1;
//! a guard or select tests them into the scratch predicate `p6`.
//! Calls pass parameters and return values through the callee's frame in
//! local memory addressed from the stack pointer (`Loc::Phys(SP)`, a
//! placeholder the emitter maps to the register the budget gives it).

use super::mir::*;
use crate::lower::layout::{Layout, Sym};
use crate::ptx::ast::*;
use crate::ptx::expr::{self, Value};
use crate::ptx::insts::{group, Mod, Op};
use heddle_isa::fields::RZ;
use heddle_isa::mem::align_up;
use heddle_isa::sreg::SReg;
use heddle_isa::table::ModKind;
use heddle_isa::values::{self, AtomOp, AtomSpace, FCmp, ICmp, IntTy, ModValue, PrmtMode, Rnd, SfuFn, Sign, Width};
use heddle_isa::{Guard, Opcode};
use std::collections::HashMap;

mod call;
mod cvt;
mod float;
mod int;
mod mem;
mod warp;

/// A placeholder the emitter replaces with the function's frame size.
pub const FRAME: u32 = 0x7fff_0000;

/// What a PTX name means inside a function.
#[derive(Debug, Clone, Copy)]
enum Name {
    Reg(VReg, Type),
    /// A frame slot (.local variable, call-site .param, callee parameter): offset from SP.
    Frame(u32),
    /// A kernel parameter: param-space offset.
    KParam(u32),
}

pub struct FuncOut {
    pub mis: Vec<MI>,
    pub vreg_words: Vec<u8>,
    /// Frame bytes before spill slots.
    pub frame: u32,
    pub labels: u32,
}

pub struct Sel<'a> {
    pub layout: &'a Layout,
    mis: Vec<MI>,
    vreg_words: Vec<u8>,
    scopes: Vec<HashMap<String, Name>>,
    families: Vec<HashMap<String, (Type, Vec<VReg>)>>,
    labels: HashMap<String, Label>,
    /// Call prototypes: return and parameter sizes.
    protos: HashMap<String, (Vec<u32>, Vec<u32>)>,
    nlabels: u32,
    frame: u32,
    line: Option<(u32, u32)>,
    entry: bool,
    /// The SM has `mul64` (`Options::mul64`); without it 64-bit products
    /// are built from 32-bit multiplies.
    pub mul64: bool,
    /// The SM has `shl64`/`shr64` (`Options::shift64`); without them 64-bit
    /// shifts are built from 32-bit ones.
    pub shift64: bool,
}

type R<T> = Result<T, String>;

fn is64(t: Type) -> bool {
    t.size() == 8
}

fn words(t: Type) -> u8 {
    if is64(t) {
        2
    } else {
        1
    }
}

fn sreg(name: &str) -> Option<SReg> {
    Some(match name {
        "%tid.x" | "%tid" => SReg::TidX,
        "%tid.y" => SReg::TidY,
        "%tid.z" => SReg::TidZ,
        "%ntid.x" | "%ntid" => SReg::NtidX,
        "%ntid.y" => SReg::NtidY,
        "%ntid.z" => SReg::NtidZ,
        "%ctaid.x" | "%ctaid" => SReg::CtaidX,
        "%ctaid.y" => SReg::CtaidY,
        "%ctaid.z" => SReg::CtaidZ,
        "%nctaid.x" | "%nctaid" => SReg::NctaidX,
        "%nctaid.y" => SReg::NctaidY,
        "%nctaid.z" => SReg::NctaidZ,
        "%laneid" => SReg::LaneId,
        "%warpid" => SReg::WarpId,
        "%nwarpid" => SReg::NWarpId,
        "%smid" => SReg::SmId,
        "%nsmid" => SReg::NSmId,
        "%gridid" => SReg::GridId,
        "%clock" | "%clock64" | "%globaltimer" | "%globaltimer_lo" => SReg::Clock,
        "%clock_hi" | "%globaltimer_hi" => SReg::ClockHi,
        "%lanemask_eq" => SReg::LanemaskEq,
        "%lanemask_le" => SReg::LanemaskLe,
        "%lanemask_lt" => SReg::LanemaskLt,
        "%lanemask_ge" => SReg::LanemaskGe,
        "%lanemask_gt" => SReg::LanemaskGt,
        "%dynamic_smem_size" => SReg::DynSmem,
        "%total_smem_size" => SReg::TotalSmem,
        "WARP_SZ" => SReg::WarpSize,
        _ => return None,
    })
}

/// The ISA comparison of a PTX one on integers; signedness from the type.
fn icmp(cmp: Mod, signed: bool) -> Option<ICmp> {
    Some(match (cmp, signed) {
        (Mod::Eq, _) => ICmp::Eq,
        (Mod::Ne, _) => ICmp::Ne,
        (Mod::Lt, true) => ICmp::Lt,
        (Mod::Le, true) => ICmp::Le,
        (Mod::Gt, true) => ICmp::Gt,
        (Mod::Ge, true) => ICmp::Ge,
        (Mod::Lt | Mod::Lo, false) | (Mod::Lo, true) => ICmp::Lo,
        (Mod::Le | Mod::Ls, false) | (Mod::Ls, true) => ICmp::Ls,
        (Mod::Gt | Mod::Hi, false) | (Mod::Hi, true) => ICmp::Hi,
        (Mod::Ge | Mod::Hs, false) | (Mod::Hs, true) => ICmp::Hs,
        _ => return None,
    })
}

/// The ISA comparison of a PTX one on floats.
fn fcmp(cmp: Mod) -> Option<FCmp> {
    Some(match cmp {
        Mod::Eq => FCmp::Eq,
        Mod::Ne => FCmp::Ne,
        Mod::Lt => FCmp::Lt,
        Mod::Le => FCmp::Le,
        Mod::Gt => FCmp::Gt,
        Mod::Ge => FCmp::Ge,
        Mod::Equ => FCmp::Equ,
        Mod::Neu => FCmp::Neu,
        Mod::Ltu => FCmp::Ltu,
        Mod::Leu => FCmp::Leu,
        Mod::Gtu => FCmp::Gtu,
        Mod::Geu => FCmp::Geu,
        Mod::Num => FCmp::Num,
        Mod::Nan => FCmp::Nan,
        _ => return None,
    })
}

/// The rounding of an instruction's modifiers (the integer roundings of `cvt` included).
fn rnd_of(i: &Inst) -> Rnd {
    if i.has(Mod::Rz) || i.has(Mod::Rzi) {
        Rnd::Rz
    } else if i.has(Mod::Rm) || i.has(Mod::Rmi) {
        Rnd::Rm
    } else if i.has(Mod::Rp) || i.has(Mod::Rpi) {
        Rnd::Rp
    } else {
        Rnd::Rn
    }
}

fn mask_of(t: Type) -> u32 {
    match t.size() {
        1 => 0xff,
        2 => 0xffff,
        _ => u32::MAX,
    }
}

impl<'a> Sel<'a> {
    pub fn new(layout: &'a Layout, entry: bool) -> Sel<'a> {
        Sel {
            layout,
            mis: vec![],
            vreg_words: vec![],
            scopes: vec![HashMap::new()],
            families: vec![HashMap::new()],
            labels: HashMap::new(),
            protos: HashMap::new(),
            nlabels: 0,
            frame: 0,
            line: None,
            entry,
            mul64: true,
            shift64: true,
        }
    }

    fn vreg(&mut self, w: u8) -> VReg {
        self.vreg_words.push(w);
        self.vreg_words.len() as VReg - 1
    }

    fn v1(&mut self) -> VReg {
        self.vreg(1)
    }

    fn v2(&mut self) -> VReg {
        let v = self.vreg(2);
        self.define(v);
        v
    }

    fn define(&mut self, v: VReg) {
        let mut m = MI::new(Opcode::Nop);
        m.defines = Some(v);
        self.mis.push(m);
    }

    fn label(&mut self) -> Label {
        self.nlabels += 1;
        self.nlabels - 1
    }

    fn place(&mut self, l: Label) {
        let mut m = MI::new(Opcode::Nop);
        m.label = Some(l);
        self.mis.push(m);
    }

    fn slot(&mut self, size: u32, align: u32) -> u32 {
        self.frame = align_up(self.frame, align.max(4));
        let o = self.frame;
        self.frame += size.max(1);
        o
    }

    fn push(&mut self, mut m: MI) {
        m.line = self.line;
        self.mis.push(m);
    }

    /// Emits `op d, a, b[, c]` with modifiers.
    fn op(&mut self, op: Opcode, mods: &[(ModKind, u32)], d: Loc, a: Loc, b: Src, c: Loc) {
        let mut m = MI::new(op);
        for &(k, v) in mods {
            m.inst.set_modifier(k, v);
        }
        m.d = d;
        m.a = a;
        m.b = b;
        m.c = c;
        if matches!(op.info().format, heddle_isa::Format::Rrbc | heddle_isa::Format::Atom | heddle_isa::Format::Shfl) && c == Loc::None {
            m.c = Loc::Phys(RZ);
        }
        self.push(m);
    }

    fn mov(&mut self, d: Loc, s: Src) {
        self.op(Opcode::Mov, &[], d, Loc::None, s, Loc::None);
    }

    /// A source as a register (immediates moved into a temporary).
    fn in_reg(&mut self, s: Src) -> Loc {
        match s {
            Src::Loc(l) => l,
            Src::Imm(0) => Loc::Phys(RZ),
            Src::Imm(v) => {
                let t = self.v1();
                self.mov(Loc::R(t), Src::Imm(v));
                Loc::R(t)
            }
        }
    }

    /// Tests a 0/1 predicate register into p6 (or `which`).
    fn test_pred(&mut self, p: Loc, which: u8) {
        let mut m = MI::new(Opcode::Isetp);
        m.inst.set(ICmp::Ne);
        m.inst.d = which | (7 << 3);
        m.a = p;
        m.b = Src::Loc(Loc::Phys(RZ));
        self.push(m);
    }

    /// The current emitted guard applies to the next instruction.
    fn guarded(&mut self, g: Option<(Loc, bool)>, m: MI) {
        let mut m = m;
        if let Some((p, neg)) = g {
            self.test_pred(p, PRED);
            m.inst.guard = Guard { pred: PRED, neg };
        }
        self.push(m);
    }

    fn lookup(&self, name: &str) -> Option<Name> {
        for (s, f) in self.scopes.iter().zip(&self.families).rev() {
            if let Some(n) = s.get(name) {
                return Some(*n);
            }
            let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
            if digits > 0 && digits < name.len() {
                let (prefix, n) = name.split_at(name.len() - digits);
                if let (Some((t, v)), Ok(n)) = (f.get(prefix), n.parse::<usize>()) {
                    if let Some(&vr) = v.get(n) {
                        return Some(Name::Reg(vr, *t));
                    }
                }
            }
        }
        None
    }

    pub fn declare_param(&mut self, p: &VarDecl, offset: u32) {
        let name = p.names[0].name.name.clone();
        let n = if self.entry { Name::KParam(offset) } else { Name::Frame(offset) };
        self.scopes[0].insert(name, n);
    }

    pub fn reserve(&mut self, bytes: u32) {
        self.frame = self.frame.max(bytes);
    }

    fn declare(&mut self, v: &VarDecl) -> R<()> {
        for d in &v.names {
            let size = self.layout.decl_size(v, d);
            let al = v.align.map(|a| a as u32).unwrap_or(v.ty.size() * v.vector.unwrap_or(1));
            match v.space {
                Space::Reg => {
                    if v.vector.is_some() {
                        return Err("vector register variables are not supported by the compiler yet".into());
                    }
                    let w = words(v.ty);
                    if let Some(n) = d.count {
                        let regs: Vec<VReg> = (0..n).map(|_| self.vreg(w)).collect();
                        self.families.last_mut().expect("scope").insert(d.name.name.clone(), (v.ty, regs));
                    } else {
                        let r = self.vreg(w);
                        self.scopes.last_mut().expect("scope").insert(d.name.name.clone(), Name::Reg(r, v.ty));
                    }
                }
                Space::Local | Space::Param => {
                    let o = self.slot(size.max(v.ty.size()), al);
                    self.scopes.last_mut().expect("scope").insert(d.name.name.clone(), Name::Frame(o));
                }
                Space::Shared => {
                    // Function-scope .shared variables were laid out with the module.
                    let _ = self.layout.sym(&d.name.name);
                }
                s => return Err(format!("{} variables inside functions are not supported", s.name())),
            }
        }
        Ok(())
    }

    pub fn body(&mut self, b: &Block) -> R<()> {
        self.collect_labels(b);
        self.block(b)
    }

    fn collect_labels(&mut self, b: &Block) {
        for s in &b.stmts {
            match s {
                Stmt::Label(l) => {
                    let id = self.label();
                    self.labels.insert(l.name.clone(), id);
                }
                Stmt::Block(inner) => self.collect_labels(inner),
                Stmt::CallProto { name, rets, params, .. } => {
                    let sizes =
                        |v: &[VarDecl]| v.iter().map(|p| self.layout.decl_size(p, &p.names[0]).max(p.ty.size())).collect::<Vec<u32>>();
                    let entry = (sizes(rets), sizes(params));
                    self.protos.insert(name.name.clone(), entry);
                }
                _ => {}
            }
        }
    }

    fn block(&mut self, b: &Block) -> R<()> {
        for s in &b.stmts {
            match s {
                Stmt::Var(v) => self.declare(v)?,
                Stmt::Label(l) => {
                    let id = self.labels[&l.name];
                    self.place(id);
                }
                Stmt::Inst(i) => {
                    self.line = Some((i.span.start, i.span.end));
                    self.inst(i).map_err(|e| format!("@{}:{}", i.span.start, e))?;
                }
                Stmt::Block(inner) => {
                    self.scopes.push(HashMap::new());
                    self.families.push(HashMap::new());
                    self.block(inner)?;
                    self.scopes.pop();
                    self.families.pop();
                }
                _ => {}
            }
        }
        Ok(())
    }

    pub fn finish(self) -> FuncOut {
        FuncOut { mis: self.mis, vreg_words: self.vreg_words, frame: align_up(self.frame, 8), labels: self.nlabels }
    }

    // ---- operands ----
    /// The value of an operand as a 32-bit source, for instruction type `ty`.
    fn src32(&mut self, o: &Operand, ty: Type) -> R<Src> {
        Ok(match o {
            Operand::Name(n) => match self.lookup(&n.name) {
                Some(Name::Reg(v, t)) => Src::Loc(if is64(t) { Loc::Half(v, 0) } else { Loc::R(v) }),
                Some(Name::Frame(off)) => {
                    let t = self.v1();
                    self.op(Opcode::Add, &[], Loc::R(t), Loc::Phys(SP), Src::Imm(off), Loc::None);
                    Src::Loc(Loc::R(t))
                }
                Some(Name::KParam(off)) => Src::Imm(off),
                None => {
                    if let Some(sr) = sreg(&n.name) {
                        let t = self.v1();
                        let mut m = MI::new(Opcode::S2r);
                        m.d = Loc::R(t);
                        m.inst.a = sr as u8;
                        self.push(m);
                        Src::Loc(Loc::R(t))
                    } else if let Some(s) = self.layout.sym(&n.name) {
                        Src::Imm(s.addr() as u32)
                    } else if let Some(f) = self.layout.func_index(&n.name) {
                        // A function's address is its entry pc, known after layout.
                        let t = self.v1();
                        let mut m = MI::new(Opcode::Mov);
                        m.d = Loc::R(t);
                        m.b = Src::Imm(0);
                        m.target = Some(u32::MAX - f);
                        self.push(m);
                        Src::Loc(Loc::R(t))
                    } else if self.labels.contains_key(&n.name) {
                        return Err(format!("label `{}` used as a value", n.name));
                    } else {
                        return Err(format!("`{}` is undefined", n.name));
                    }
                }
            },
            Operand::Expr(e) => Src::Imm(self.const_bits(e, ty)? as u32),
            Operand::Not(n) => {
                let p = self.src32(&Operand::Name(n.clone()), Type::Pred)?;
                let t = self.v1();
                let pl = self.in_reg(p);
                self.op(Opcode::Xor, &[], Loc::R(t), pl, Src::Imm(1), Loc::None);
                Src::Loc(Loc::R(t))
            }
            _ => return Err("unsupported operand".into()),
        })
    }

    fn reg32(&mut self, o: &Operand, ty: Type) -> R<Loc> {
        let s = self.src32(o, ty)?;
        Ok(self.in_reg(s))
    }

    /// A 64-bit operand as a pair location (constants materialized).
    fn src64(&mut self, o: &Operand, ty: Type) -> R<Loc> {
        if let Operand::Name(n) = o {
            if let Some(Name::Reg(v, t)) = self.lookup(&n.name) {
                if is64(t) {
                    return Ok(Loc::R(v));
                }
                // A 32-bit register read as 64 bits: widen by the instruction type.
                let p = self.v2();
                self.mov(Loc::Half(p, 0), Src::Loc(Loc::R(v)));
                if ty.kind() == TypeKind::Signed {
                    self.op(Opcode::Shr, &[Sign::S.pair()], Loc::Half(p, 1), Loc::R(v), Src::Imm(31), Loc::None);
                } else {
                    self.mov(Loc::Half(p, 1), Src::Imm(0));
                }
                return Ok(Loc::R(p));
            }
        }
        let bits: u64 = match o {
            Operand::Expr(e) => self.const_bits(e, ty)?,
            _ => match self.src32(o, Type::U32)? {
                Src::Imm(v) => v as u64,
                Src::Loc(l) => {
                    let p = self.v2();
                    self.mov(Loc::Half(p, 0), Src::Loc(l));
                    self.mov(Loc::Half(p, 1), Src::Imm(0));
                    return Ok(Loc::R(p));
                }
            },
        };
        let p = self.v2();
        self.mov(Loc::Half(p, 0), Src::Imm(bits as u32));
        self.mov(Loc::Half(p, 1), Src::Imm((bits >> 32) as u32));
        Ok(Loc::R(p))
    }

    fn const_bits(&self, e: &Expr, ty: Type) -> R<u64> {
        if let ExprKind::F32Bits(b) = e.kind {
            return Ok(if ty == Type::F64 { (f32::from_bits(b) as f64).to_bits() } else { b as u64 });
        }
        let v = expr::eval(e, &|n| {
            self.layout.sym(n).map(|s| Value::U64(s.addr())).or_else(|| self.layout.func_index(n).map(|f| Value::U64(f as u64)))
        })
        .map_err(|(_, m)| m)?;
        Ok(crate::lower::layout::convert_const(v, ty))
    }

    /// The destination register of an operand (`_` gives a fresh unused register).
    fn dst(&mut self, o: &Operand) -> R<(VReg, Type)> {
        match o {
            Operand::Name(n) => match self.lookup(&n.name) {
                Some(Name::Reg(v, t)) => Ok((v, t)),
                _ => Err(format!("`{}` is not a register", n.name)),
            },
            Operand::Sink(_) => Ok((self.v1(), Type::B32)),
            _ => Err("a destination must be a register".into()),
        }
    }

    /// Normalizes a narrow (8/16-bit) value to 32 bits by `ty`'s signedness.
    fn norm(&mut self, s: Src, ty: Type) -> Loc {
        let l = self.in_reg(s);
        if ty.size() >= 4 {
            return l;
        }
        let t = self.v1();
        let bitsz = ty.size() * 8;
        if ty.kind() == TypeKind::Signed {
            self.op(Opcode::Bfe, &[Sign::S.pair()], Loc::R(t), l, Src::Imm(bitsz << 8), Loc::None);
        } else {
            self.op(Opcode::And, &[], Loc::R(t), l, Src::Imm(mask_of(ty)), Loc::None);
        }
        Loc::R(t)
    }

    /// Writes a 32-bit result into a destination register of type `dt`, widening
    /// into a pair by the instruction type `ty` (T19).
    fn put32(&mut self, d: VReg, dt: Type, v: Loc, ty: Type) {
        if is64(dt) {
            self.define(d);
            self.mov(Loc::Half(d, 0), Src::Loc(v));
            if ty.kind() == TypeKind::Signed && ty.size() == 4 {
                self.op(Opcode::Shr, &[Sign::S.pair()], Loc::Half(d, 1), v, Src::Imm(31), Loc::None);
            } else {
                self.mov(Loc::Half(d, 1), Src::Imm(0));
            }
        } else if v != Loc::R(d) {
            self.mov(Loc::R(d), Src::Loc(v));
        }
    }

    fn guard(&mut self, i: &Inst) -> R<Option<(Loc, bool)>> {
        match &i.guard {
            None => Ok(None),
            Some(g) => {
                let p = self.reg32(&Operand::Name(g.pred.clone()), Type::Pred)?;
                Ok(Some((p, g.neg)))
            }
        }
    }

    /// Runs `body` under the instruction's guard (a branch around it when guarded).
    fn under_guard(&mut self, g: Option<(Loc, bool)>, body: impl FnOnce(&mut Self) -> R<()>) -> R<()> {
        match g {
            None => body(self),
            Some((p, neg)) => {
                let skip = self.label();
                self.test_pred(p, PRED);
                let mut br = MI::new(Opcode::Bra);
                br.inst.set_rpc(0);
                br.inst.guard = Guard { pred: PRED, neg: !neg };
                br.target = Some(skip);
                self.push(br);
                body(self)?;
                self.place(skip);
                Ok(())
            }
        }
    }

    // ---- instructions ----
    fn inst(&mut self, i: &Inst) -> R<()> {
        let g = self.guard(i)?;
        let op = Self::op_of(i)?;
        match op {
            Op::Bra => {
                let Some(Operand::Name(t)) = i.args.first() else { return Err("bra needs a label".into()) };
                let target = *self.labels.get(&t.name).ok_or(format!("undefined label `{}`", t.name))?;
                let mut m = MI::new(Opcode::Bra);
                m.target = Some(target);
                // rpc 0 asks the emitter for the join point; .uni keeps the uniform marker.
                if !i.has(Mod::Uni) {
                    m.inst.set_rpc(0);
                }
                self.guarded(g, m);
                Ok(())
            }
            Op::Exit => {
                self.guarded(g, MI::new(Opcode::Exit));
                Ok(())
            }
            Op::Ret => {
                self.guarded(g, MI::new(if self.entry { Opcode::Exit } else { Opcode::Ret }));
                Ok(())
            }
            Op::Trap | Op::Brkpt => {
                self.guarded(g, MI::new(if op == Op::Trap { Opcode::Trap } else { Opcode::Brkpt }));
                Ok(())
            }
            Op::Membar | Op::Fence => {
                let scope = if i.has(Mod::Cta) {
                    values::Scope::Cta
                } else if i.has(Mod::Sys) {
                    values::Scope::Sys
                } else {
                    values::Scope::Gpu
                };
                let mut m = MI::new(Opcode::Fence);
                m.inst.set(scope);
                self.guarded(g, m);
                Ok(())
            }
            Op::Prefetch | Op::Prefetchu | Op::Pmevent | Op::Nanosleep => Ok(()),
            _ => self.under_guard(g, |s| s.plain(i)),
        }
    }

    fn ty(i: &Inst, k: usize) -> Option<Type> {
        i.types.get(k).copied()
    }

    /// The opcode of a checked instruction.
    fn op_of(i: &Inst) -> R<Op> {
        i.op.ok_or_else(|| format!("unknown instruction `{}`", i.opcode.name))
    }

    /// Instructions without control flow (already under their guard).
    fn plain(&mut self, i: &Inst) -> R<()> {
        let op = Self::op_of(i)?;
        let ty = Self::ty(i, 0).unwrap_or(Type::B32);
        match op {
            Op::Mov => self.mov_inst(i, ty),
            Op::Ld | Op::Ldu => self.load(i, ty),
            Op::St => self.store(i, ty),
            Op::Cvta => self.cvta(i),
            Op::Add | Op::Sub | Op::Addc | Op::Subc if ty.kind() != TypeKind::Float => self.int_add(i, ty),
            Op::Mul | Op::Mad | Op::Madc if ty.kind() != TypeKind::Float => self.mul_mad(i, ty),
            Op::Sad => self.sad(i, ty),
            Op::Div | Op::Rem if ty.kind() != TypeKind::Float => self.int_div(i, ty),
            Op::Min | Op::Max | Op::Abs | Op::Neg if ty.kind() != TypeKind::Float => self.int_misc(i, ty),
            Op::And | Op::Or | Op::Xor | Op::Not | Op::Cnot => self.logic(i, ty),
            Op::Shl | Op::Shr => self.shift(i, ty),
            Op::Shf => self.funnel_shift(i),
            Op::Popc | Op::Clz | Op::Brev | Op::Bfind => self.bit_count(i, ty),
            Op::Dp4a | Op::Dp2a => self.dot(i),
            Op::Lop3 => self.lop3(i),
            Op::Bfe => self.bfe(i, ty),
            Op::Bfi => self.bfi(i, ty),
            Op::Prmt => self.prmt(i),
            Op::Setp | Op::Set => self.setp(i),
            Op::Selp => self.selp(i, ty),
            Op::Cvt => self.cvt(i),
            Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Fma
            | Op::Mad
            | Op::Div
            | Op::Min
            | Op::Max
            | Op::Abs
            | Op::Neg
            | Op::Rcp
            | Op::Sqrt
            | Op::Rsqrt
            | Op::Sin
            | Op::Cos
            | Op::Lg2
            | Op::Ex2
            | Op::Tanh
            | Op::Copysign
            | Op::Testp => self.float(i, ty),
            Op::Atom | Op::Red => self.atomic(i, ty),
            // __syncwarp: warps execute in lockstep.
            Op::Bar if i.has(Mod::Warp) => Ok(()),
            Op::Bar | Op::Barrier => self.barrier(i),
            Op::Vote => self.vote(i),
            Op::Activemask => self.activemask(i),
            Op::Shfl => self.shfl(i),
            Op::Match => self.match_sync(i),
            Op::Call => self.call(i),
            other => Err(format!("`{other}` is not supported by the compiler yet")),
        }
    }
}

/// The access width of a by-value piece of `size` bytes moved 4 bytes at a time.
fn width_code(size: u32) -> Width {
    match size {
        4.. => Width::B32,
        2 => Width::U16,
        _ => Width::U8,
    }
}
