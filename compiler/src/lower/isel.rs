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

use super::layout::{Layout, Sym};
use super::mir::*;
use crate::ptx::ast::*;
use crate::ptx::expr::{self, Value};
use crate::ptx::insts::{group, Mod, Op};
use heddle_isa::fields::RZ;
use heddle_isa::mem::align_up;
use heddle_isa::sreg::SReg;
use heddle_isa::table::ModKind;
use heddle_isa::{Guard, Opcode};
use std::collections::HashMap;

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

/// ICmp code of a PTX comparison (integers); signedness from the type.
fn icmp(cmp: Mod, signed: bool) -> Option<u32> {
    Some(match (cmp, signed) {
        (Mod::Eq, _) => 0,
        (Mod::Ne, _) => 1,
        (Mod::Lt, true) => 2,
        (Mod::Le, true) => 3,
        (Mod::Gt, true) => 4,
        (Mod::Ge, true) => 5,
        (Mod::Lt | Mod::Lo, false) | (Mod::Lo, true) => 6,
        (Mod::Le | Mod::Ls, false) | (Mod::Ls, true) => 7,
        (Mod::Gt | Mod::Hi, false) | (Mod::Hi, true) => 8,
        (Mod::Ge | Mod::Hs, false) | (Mod::Hs, true) => 9,
        _ => return None,
    })
}

/// FCmp code of a PTX comparison (floats).
fn fcmp(cmp: Mod) -> Option<u32> {
    use Mod::*;
    [Eq, Ne, Lt, Le, Gt, Ge, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan].iter().position(|&n| n == cmp).map(|p| p as u32)
}

fn rnd_of(i: &Inst) -> u32 {
    if i.has(Mod::Rz) || i.has(Mod::Rzi) {
        1
    } else if i.has(Mod::Rm) || i.has(Mod::Rmi) {
        2
    } else if i.has(Mod::Rp) || i.has(Mod::Rpi) {
        3
    } else {
        0
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
        m.inst.set_modifier(ModKind::ICmp, 1);
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
                    self.op(Opcode::Shr, &[(ModKind::Sign, 1)], Loc::Half(p, 1), Loc::R(v), Src::Imm(31), Loc::None);
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
        Ok(super::layout::convert_const(v, ty))
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
            self.op(Opcode::Bfe, &[(ModKind::Sign, 1)], Loc::R(t), l, Src::Imm(bitsz << 8), Loc::None);
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
                self.op(Opcode::Shr, &[(ModKind::Sign, 1)], Loc::Half(d, 1), v, Src::Imm(31), Loc::None);
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
                    0
                } else if i.has(Mod::Sys) {
                    2
                } else {
                    1
                };
                let mut m = MI::new(Opcode::Fence);
                m.inst.set_modifier(ModKind::Scope, scope);
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
        let a = &i.args;
        let signed = ty.kind() == TypeKind::Signed;
        let sg = (ModKind::Sign, signed as u32);
        match op {
            Op::Mov => self.mov_inst(i, ty),
            Op::Ld | Op::Ldu => self.load(i, ty),
            Op::St => self.store(i, ty),
            Op::Cvta => {
                let (d, dt) = self.dst(&a[0])?;
                let x = self.src32(&a[1], Type::U32)?;
                let win = match () {
                    _ if i.has(Mod::Shared) => heddle_isa::mem::SHARED_WINDOW,
                    _ if i.has(Mod::Local) => heddle_isa::mem::LOCAL_WINDOW,
                    _ if i.has(Mod::Const) => heddle_isa::mem::CONST_WINDOW,
                    _ if i.has(Mod::Param) => heddle_isa::mem::PARAM_WINDOW,
                    _ => 0,
                };
                let t = self.v1();
                let xl = self.in_reg(x);
                if i.has(Mod::To) {
                    self.op(Opcode::Sub, &[], Loc::R(t), xl, Src::Imm(win), Loc::None);
                } else {
                    self.op(Opcode::Add, &[], Loc::R(t), xl, Src::Imm(win), Loc::None);
                }
                self.put32(d, dt, Loc::R(t), Type::U32);
                Ok(())
            }
            Op::Add | Op::Sub | Op::Addc | Op::Subc if ty.kind() != TypeKind::Float => {
                let (d, _) = self.dst(&a[0])?;
                let is_add = matches!(op, Op::Add | Op::Addc);
                let o = if is_add { Opcode::Add } else { Opcode::Sub };
                let x = (op == Op::Addc || op == Op::Subc) as u32;
                let cc = i.has(Mod::Cc) as u32;
                if is64(ty) {
                    let (p, q) = (self.src64(&a[1], ty)?, self.src64(&a[2], ty)?);
                    let (Loc::R(p), Loc::R(q)) = (p, q) else { unreachable!() };
                    self.define(d);
                    self.op(o, &[(ModKind::Cc, 1)], Loc::Half(d, 0), Loc::Half(p, 0), Src::Loc(Loc::Half(q, 0)), Loc::None);
                    self.op(o, &[(ModKind::X, 1)], Loc::Half(d, 1), Loc::Half(p, 1), Src::Loc(Loc::Half(q, 1)), Loc::None);
                } else {
                    let p = self.reg32(&a[1], ty)?;
                    let q = self.src32(&a[2], ty)?;
                    let sat = (i.has(Mod::Sat) && ty == Type::S32) as u32;
                    self.op(o, &[(ModKind::Cc, cc), (ModKind::X, x), (ModKind::Sat, sat)], Loc::R(d), p, q, Loc::None);
                }
                Ok(())
            }
            Op::Mul | Op::Mad | Op::Madc if ty.kind() != TypeKind::Float => self.mul_mad(i, ty),
            Op::Sad => {
                // d = c + |a - b| (compare by the type's signedness, arithmetic wrapping).
                let (d, _) = self.dst(&a[0])?;
                if is64(ty) {
                    return Err("sad.64 is not supported by the compiler yet".into());
                }
                let x = self.src32(&a[1], ty)?;
                let x = self.norm(x, ty);
                let y = self.src32(&a[2], ty)?;
                let y = self.norm(y, ty);
                let (hi, lo, diff) = (self.v1(), self.v1(), self.v1());
                self.op(Opcode::Max, &[sg], Loc::R(hi), x, Src::Loc(y), Loc::None);
                self.op(Opcode::Min, &[sg], Loc::R(lo), x, Src::Loc(y), Loc::None);
                self.op(Opcode::Sub, &[], Loc::R(diff), Loc::R(hi), Src::Loc(Loc::R(lo)), Loc::None);
                let c = self.src32(&a[3], ty)?;
                let cl = self.in_reg(c);
                self.op(Opcode::Add, &[], Loc::R(d), cl, Src::Loc(Loc::R(diff)), Loc::None);
                Ok(())
            }
            Op::Div | Op::Rem if ty.kind() != TypeKind::Float => {
                let (d, _) = self.dst(&a[0])?;
                let rem = op == Op::Rem;
                if is64(ty) {
                    let (p, q) = (self.src64(&a[1], ty)?, self.src64(&a[2], ty)?);
                    self.define(d);
                    self.op(if rem { Opcode::Rem64 } else { Opcode::Div64 }, &[sg], Loc::R(d), p, Src::Loc(q), Loc::None);
                } else {
                    let p = self.src32(&a[1], ty)?;
                    let p = self.norm(p, ty);
                    let q = self.src32(&a[2], ty)?;
                    let q = self.norm(q, ty);
                    self.op(if rem { Opcode::Rem } else { Opcode::Div }, &[sg], Loc::R(d), p, Src::Loc(q), Loc::None);
                }
                Ok(())
            }
            Op::Min | Op::Max | Op::Abs | Op::Neg if ty.kind() != TypeKind::Float => self.int_misc(i, ty),
            Op::And | Op::Or | Op::Xor | Op::Not | Op::Cnot => {
                let (d, _) = self.dst(&a[0])?;
                let o = match op {
                    Op::And => Opcode::And,
                    Op::Or => Opcode::Or,
                    _ => Opcode::Xor,
                };
                if is64(ty) {
                    let p = self.src64(&a[1], ty)?;
                    let Loc::R(p) = p else { unreachable!() };
                    let q = if op == Op::Not || op == Op::Cnot { None } else { Some(self.src64(&a[2], ty)?) };
                    self.define(d);
                    for k in 0..2 {
                        match (op, q) {
                            (Op::Not, _) => self.op(Opcode::Xor, &[], Loc::Half(d, k), Loc::Half(p, k), Src::Imm(u32::MAX), Loc::None),
                            (_, Some(Loc::R(q))) => self.op(o, &[], Loc::Half(d, k), Loc::Half(p, k), Src::Loc(Loc::Half(q, k)), Loc::None),
                            _ => return Err("cnot.b64 is not supported".into()),
                        }
                    }
                    return Ok(());
                }
                let p = self.reg32(&a[1], ty)?;
                match op {
                    Op::Not if ty == Type::Pred => self.op(Opcode::Xor, &[], Loc::R(d), p, Src::Imm(1), Loc::None),
                    Op::Not => self.op(Opcode::Xor, &[], Loc::R(d), p, Src::Imm(u32::MAX), Loc::None),
                    Op::Cnot => {
                        let n = self.norm(Src::Loc(p), ty);
                        self.set_from_cmp(d, n, Src::Imm(0), 0);
                    }
                    _ => {
                        let q = self.src32(&a[2], ty)?;
                        self.op(o, &[], Loc::R(d), p, q, Loc::None);
                    }
                }
                Ok(())
            }
            Op::Shl | Op::Shr => {
                let (d, _) = self.dst(&a[0])?;
                let n = self.src32(&a[2], Type::U32)?;
                if is64(ty) {
                    let p = self.src64(&a[1], ty)?;
                    self.define(d);
                    let o = if op == Op::Shl { Opcode::Shl64 } else { Opcode::Shr64 };
                    let mods: &[(ModKind, u32)] = if op == Op::Shl { &[] } else { &[(ModKind::Sign, signed as u32)] };
                    self.op(o, mods, Loc::R(d), p, n, Loc::None);
                } else {
                    let p = self.src32(&a[1], ty)?;
                    let nn = self.in_reg(n);
                    if op == Op::Shl {
                        let pl = self.in_reg(p);
                        // Amounts at or past the type's width give 0 (narrow types too).
                        let t = self.v1();
                        self.op(Opcode::Shl, &[], Loc::R(t), pl, Src::Loc(nn), Loc::None);
                        self.clamp_shift(d, t, nn, ty, false);
                    } else {
                        let pl = self.norm(p, ty);
                        let t = self.v1();
                        self.op(Opcode::Shr, &[sg], Loc::R(t), pl, Src::Loc(nn), Loc::None);
                        self.clamp_shift(d, t, nn, ty, signed);
                    }
                }
                Ok(())
            }
            Op::Shf => {
                let (d, _) = self.dst(&a[0])?;
                let lo = self.reg32(&a[1], Type::B32)?;
                let hi = self.reg32(&a[2], Type::B32)?;
                let n = self.reg32(&a[3], Type::U32)?;
                self.op(
                    Opcode::Shf,
                    &[(ModKind::ShfDir, i.has(Mod::R) as u32), (ModKind::Clamp, i.has(Mod::Clamp) as u32)],
                    Loc::R(d),
                    lo,
                    Src::Loc(n),
                    hi,
                );
                Ok(())
            }
            Op::Popc | Op::Clz | Op::Brev | Op::Bfind => {
                let (d, _) = self.dst(&a[0])?;
                if is64(ty) {
                    return self.bits64(i, ty, d);
                }
                let p = self.reg32(&a[1], ty)?;
                match op {
                    Op::Popc => self.op(Opcode::Popc, &[], Loc::R(d), p, Src::Loc(Loc::None), Loc::None),
                    Op::Clz => self.op(Opcode::Clz, &[], Loc::R(d), p, Src::Loc(Loc::None), Loc::None),
                    Op::Brev => self.op(Opcode::Brev, &[], Loc::R(d), p, Src::Loc(Loc::None), Loc::None),
                    _ => self.op(
                        Opcode::Bfind,
                        &[sg, (ModKind::ShiftAmt, i.has(Mod::Shiftamt) as u32)],
                        Loc::R(d),
                        p,
                        Src::Loc(Loc::None),
                        Loc::None,
                    ),
                }
                Ok(())
            }
            Op::Dp4a | Op::Dp2a => self.dot(i),
            Op::Lop3 => self.lop3(i),
            Op::Bfe => {
                let (d, _) = self.dst(&a[0])?;
                if is64(ty) && signed {
                    // msb = min(pos + len - 1, 63); (a << (63 - msb)) >>s (63 - msb + pos) puts bit
                    // pos at 0 and fills from bit msb (everything from bit 63 when pos > 63); len 0 gives 0.
                    let x = self.src64(&a[1], ty)?;
                    let pos = self.src32(&a[2], Type::U32)?;
                    let len = self.src32(&a[3], Type::U32)?;
                    let (pos, len) = (self.byte8(pos), self.byte8(len));
                    let (pos, len) = (self.in_reg(pos), self.in_reg(len));
                    let (m, msb, n, k, sh) = (self.v1(), self.v1(), self.v1(), self.v1(), self.v1());
                    self.op(Opcode::Add, &[], Loc::R(m), pos, Src::Loc(len), Loc::None);
                    self.op(Opcode::Sub, &[], Loc::R(m), Loc::R(m), Src::Imm(1), Loc::None);
                    self.op(Opcode::Min, &[(ModKind::Sign, 1)], Loc::R(msb), Loc::R(m), Src::Imm(63), Loc::None);
                    self.mov(Loc::R(n), Src::Imm(63));
                    self.op(Opcode::Sub, &[], Loc::R(k), Loc::R(n), Src::Loc(Loc::R(msb)), Loc::None);
                    self.op(Opcode::Add, &[], Loc::R(sh), Loc::R(k), Src::Loc(pos), Loc::None);
                    let (y, z) = (self.v2(), self.v2());
                    self.op(Opcode::Shl64, &[], Loc::R(y), x, Src::Loc(Loc::R(k)), Loc::None);
                    self.op(Opcode::Shr64, &[(ModKind::Sign, 1)], Loc::R(z), Loc::R(y), Src::Loc(Loc::R(sh)), Loc::None);
                    let mut t = MI::new(Opcode::Isetp);
                    t.inst.set_modifier(ModKind::ICmp, 0);
                    t.inst.d = PRED | (7 << 3);
                    t.a = len;
                    t.b = Src::Imm(0);
                    self.push(t);
                    self.define(d);
                    for h in 0..2 {
                        let mut s = MI::new(Opcode::Sel);
                        s.inst.mods = PRED;
                        s.d = Loc::Half(d, h);
                        s.a = Loc::Phys(RZ);
                        s.b = Src::Loc(Loc::Half(z, h));
                        self.push(s);
                    }
                    return Ok(());
                }
                if is64(ty) {
                    // (a >> pos) & ((1 << len) - 1), with len >= 64 keeping everything.
                    let x = self.src64(&a[1], ty)?;
                    let pos = self.src32(&a[2], Type::U32)?;
                    let len = self.src32(&a[3], Type::U32)?;
                    let pos = self.byte8(pos);
                    let len = self.byte8(len);
                    let t = self.v2();
                    self.op(Opcode::Shr64, &[(ModKind::Sign, 0)], Loc::R(t), x, pos, Loc::None);
                    let m = self.low_mask64(len);
                    self.define(d);
                    self.op(Opcode::And, &[], Loc::Half(d, 0), Loc::Half(t, 0), Src::Loc(Loc::Half(m, 0)), Loc::None);
                    self.op(Opcode::And, &[], Loc::Half(d, 1), Loc::Half(t, 1), Src::Loc(Loc::Half(m, 1)), Loc::None);
                    return Ok(());
                }
                let x = self.reg32(&a[1], ty)?;
                let pos = self.src32(&a[2], Type::U32)?;
                let len = self.src32(&a[3], Type::U32)?;
                let pl = self.pack_pos_len(pos, len);
                self.op(Opcode::Bfe, &[sg], Loc::R(d), x, pl, Loc::None);
                Ok(())
            }
            Op::Bfi => {
                let (d, _) = self.dst(&a[0])?;
                if is64(ty) {
                    // mask = ((1 << len) - 1) << pos; d = (base & ~mask) | ((ins << pos) & mask).
                    let ins = self.src64(&a[1], ty)?;
                    let Loc::R(base) = self.src64(&a[2], ty)? else { unreachable!() };
                    let pos = self.src32(&a[3], Type::U32)?;
                    let len = self.src32(&a[4], Type::U32)?;
                    let pos = self.byte8(pos);
                    let len = self.byte8(len);
                    let m0 = self.low_mask64(len);
                    let m = self.v2();
                    self.op(Opcode::Shl64, &[], Loc::R(m), Loc::R(m0), pos, Loc::None);
                    let sh = self.v2();
                    self.op(Opcode::Shl64, &[], Loc::R(sh), ins, pos, Loc::None);
                    self.define(d);
                    for k in 0..2 {
                        let (t, u, nm) = (self.v1(), self.v1(), self.v1());
                        self.op(Opcode::And, &[], Loc::R(t), Loc::Half(sh, k), Src::Loc(Loc::Half(m, k)), Loc::None);
                        self.op(Opcode::Xor, &[], Loc::R(nm), Loc::Half(m, k), Src::Imm(u32::MAX), Loc::None);
                        self.op(Opcode::And, &[], Loc::R(u), Loc::Half(base, k), Src::Loc(Loc::R(nm)), Loc::None);
                        self.op(Opcode::Or, &[], Loc::Half(d, k), Loc::R(t), Src::Loc(Loc::R(u)), Loc::None);
                    }
                    return Ok(());
                }
                let ins = self.reg32(&a[1], ty)?;
                let base = self.reg32(&a[2], ty)?;
                let pos = self.src32(&a[3], Type::U32)?;
                let len = self.src32(&a[4], Type::U32)?;
                let pl = self.pack_pos_len(pos, len);
                let pl = self.in_reg(pl);
                self.op(Opcode::Bfi, &[], Loc::R(d), ins, Src::Loc(pl), base);
                Ok(())
            }
            Op::Prmt => {
                let (d, _) = self.dst(&a[0])?;
                let x = self.reg32(&a[1], Type::B32)?;
                let y = self.reg32(&a[2], Type::B32)?;
                let sel = self.src32(&a[3], Type::B32)?;
                let mode = [Mod::F4e, Mod::B4e, Mod::Rc8, Mod::Ecl, Mod::Ecr, Mod::Rc16]
                    .iter()
                    .position(|&m| i.has(m))
                    .map_or(0, |p| p as u32 + 1);
                let sl = self.in_reg(sel);
                self.op(Opcode::Prmt, &[(ModKind::PrmtMode, mode)], Loc::R(d), x, Src::Loc(sl), y);
                Ok(())
            }
            Op::Setp | Op::Set => self.setp(i),
            Op::Selp => {
                let (d, _) = self.dst(&a[0])?;
                let p = self.reg32(&a[3], Type::Pred)?;
                self.test_pred(p, PRED);
                if is64(ty) {
                    let (x, y) = (self.src64(&a[1], ty)?, self.src64(&a[2], ty)?);
                    let (Loc::R(x), Loc::R(y)) = (x, y) else { unreachable!() };
                    self.define(d);
                    for k in 0..2 {
                        let mut m = MI::new(Opcode::Sel);
                        m.inst.mods = PRED;
                        m.d = Loc::Half(d, k);
                        m.a = Loc::Half(x, k);
                        m.b = Src::Loc(Loc::Half(y, k));
                        self.push(m);
                    }
                } else {
                    let x = self.reg32(&a[1], ty)?;
                    let y = self.src32(&a[2], ty)?;
                    let mut m = MI::new(Opcode::Sel);
                    m.inst.mods = PRED;
                    m.d = Loc::R(d);
                    m.a = x;
                    m.b = y;
                    self.push(m);
                }
                Ok(())
            }
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
            Op::Bar | Op::Barrier => {
                if i.has(Mod::Red) {
                    if a.len() == 4 {
                        return Err("bar.red with a thread count is not supported by the compiler yet".into());
                    }
                    let (d, _) = self.dst(&a[0])?;
                    let id = self.src32(&a[1], Type::U32)?;
                    let (p, neg) = match &a[2] {
                        Operand::Not(n) => (self.reg32(&Operand::Name(n.clone()), Type::Pred)?, true),
                        o => (self.reg32(o, Type::Pred)?, false),
                    };
                    self.test_pred(p, PRED2);
                    let op = if i.has(Mod::Popc) {
                        0
                    } else if i.has(Mod::And) {
                        1
                    } else {
                        2
                    };
                    let mut m = MI::new(Opcode::Barred);
                    m.inst.set_modifier(ModKind::RedOp, op);
                    m.inst.a = PRED2 | (neg as u8) << 3;
                    m.d = Loc::R(d);
                    m.b = id;
                    self.push(m);
                    return Ok(());
                }
                let id = self.src32(&a[0], Type::U32)?;
                let cnt = if a.len() > 1 { self.reg32(&a[1], Type::U32)? } else { Loc::Phys(RZ) };
                let mut m = MI::new(Opcode::Bar);
                m.inst.set_modifier(ModKind::BarMode, i.has(Mod::Arrive) as u32);
                m.b = id;
                m.a = cnt;
                self.push(m);
                Ok(())
            }
            Op::Vote => {
                let (d, _) = self.dst(&a[0])?;
                let p = self.reg32(&a[1], Type::Pred)?;
                self.test_pred(p, PRED2);
                if i.has(Mod::Ballot) {
                    let mut m = MI::new(Opcode::Ballot);
                    m.d = Loc::R(d);
                    m.inst.a = PRED2;
                    self.push(m);
                } else {
                    let mode = if i.has(Mod::All) {
                        0
                    } else if i.has(Mod::Any) {
                        1
                    } else {
                        2
                    };
                    let mut m = MI::new(Opcode::Vote);
                    m.inst.set_modifier(ModKind::VoteMode, mode);
                    m.inst.d = PRED;
                    m.inst.a = PRED2;
                    self.push(m);
                    self.sel01(d, PRED);
                }
                Ok(())
            }
            Op::Activemask => {
                let (d, _) = self.dst(&a[0])?;
                let mut m = MI::new(Opcode::S2r);
                m.d = Loc::R(d);
                m.inst.a = SReg::ActiveMask as u8;
                self.push(m);
                Ok(())
            }
            Op::Shfl => {
                let (d, p) = match &a[0] {
                    Operand::Pair(x, y) => (self.dst(&Operand::Name(x.clone()))?.0, Some(self.dst(&Operand::Name(y.clone()))?.0)),
                    o => (self.dst(o)?.0, None),
                };
                let x = self.reg32(&a[1], Type::B32)?;
                let b = self.src32(&a[2], Type::U32)?;
                let c = self.reg32(&a[3], Type::U32)?;
                let mode = if i.has(Mod::Up) {
                    1
                } else if i.has(Mod::Down) {
                    2
                } else if i.has(Mod::Bfly) {
                    3
                } else {
                    0
                };
                let b = Src::Loc(self.in_reg(b));
                let mut m = MI::new(Opcode::Shfl);
                m.inst.set_modifier(ModKind::ShflMode, mode);
                m.inst.mods |= (if p.is_some() { PRED } else { 7 }) << 2;
                m.d = Loc::R(d);
                m.a = x;
                m.b = b;
                m.c = c;
                self.push(m);
                if let Some(p) = p {
                    self.sel01(p, PRED);
                }
                Ok(())
            }
            Op::Match => self.match_sync(i),
            Op::Call => self.call(i),
            other => Err(format!("`{other}` is not supported by the compiler yet")),
        }
    }

    /// d = p ? 1 : 0 for an ISA predicate register.
    /// `match.any`/`match.all`: each of the 32 lanes' values is fetched with
    /// `shfl.idx` and compared with the thread's own; the lanes that agree,
    /// masked by the active mask, are the `any` result. Like the PTX
    /// interpreter, the member mask is taken to be the active threads.
    fn match_sync(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
        let (d, p) = match &a[0] {
            Operand::Pair(x, y) => (self.dst(&Operand::Name(x.clone()))?.0, Some(self.dst(&Operand::Name(y.clone()))?.0)),
            o => (self.dst(o)?.0, None),
        };
        let wide = Self::ty(i, 0).is_some_and(is64);
        let halves: Vec<Loc> = if wide {
            let Loc::R(v) = self.src64(&a[1], Type::B64)? else { unreachable!("src64 gives a register pair") };
            vec![Loc::Half(v, 0), Loc::Half(v, 1)]
        } else {
            vec![self.reg32(&a[1], Type::B32)?]
        };
        let (same, lane, clamp, got) = (self.v1(), self.v1(), self.v1(), self.v1());
        self.mov(Loc::R(same), Src::Imm(0));
        self.mov(Loc::R(clamp), Src::Imm(0x1f));
        for j in 0..32 {
            self.mov(Loc::R(lane), Src::Imm(j));
            for (k, &h) in halves.iter().enumerate() {
                let mut m = MI::new(Opcode::Shfl);
                m.inst.mods |= 7 << 2;
                m.d = Loc::R(got);
                m.a = h;
                m.b = Src::Loc(Loc::R(lane));
                m.c = Loc::R(clamp);
                self.push(m);
                let mut m = MI::new(Opcode::Isetp);
                m.inst.set_modifier(ModKind::ICmp, 0);
                m.inst.d = PRED | (if k == 0 { 7 } else { PRED }) << 3;
                m.a = Loc::R(got);
                m.b = Src::Loc(h);
                self.push(m);
            }
            let mut m = MI::new(Opcode::Or);
            m.inst.guard = Guard { pred: PRED, neg: false };
            m.d = Loc::R(same);
            m.a = Loc::R(same);
            m.b = Src::Imm(1 << j);
            self.push(m);
        }
        let active = self.v1();
        let mut m = MI::new(Opcode::S2r);
        m.d = Loc::R(active);
        m.inst.a = SReg::ActiveMask as u8;
        self.push(m);
        if !i.has(Mod::All) {
            self.op(Opcode::And, &[], Loc::R(d), Loc::R(same), Src::Loc(Loc::R(active)), Loc::None);
            return Ok(());
        }
        self.op(Opcode::And, &[], Loc::R(same), Loc::R(same), Src::Loc(Loc::R(active)), Loc::None);
        let mut m = MI::new(Opcode::Isetp);
        m.inst.set_modifier(ModKind::ICmp, 0);
        m.inst.d = PRED | (7 << 3);
        m.a = Loc::R(same);
        m.b = Src::Loc(Loc::R(active));
        self.push(m);
        let mut s = MI::new(Opcode::Sel);
        s.inst.mods = PRED | 8;
        s.d = Loc::R(d);
        s.a = Loc::Phys(RZ);
        s.b = Src::Loc(Loc::R(active));
        self.push(s);
        if let Some(p) = p {
            self.sel01(p, PRED);
        }
        Ok(())
    }

    fn sel01(&mut self, d: VReg, p: u8) {
        let mut m = MI::new(Opcode::Sel);
        m.inst.mods = p | 8; // !p: d = (!p) ? 0 : 1
        m.d = Loc::R(d);
        m.a = Loc::Phys(RZ);
        m.b = Src::Imm(1);
        self.push(m);
    }

    /// d = (x cmp y) as 0/1.
    fn set_from_cmp(&mut self, d: VReg, x: Loc, y: Src, cmp: u32) {
        let mut m = MI::new(Opcode::Isetp);
        m.inst.set_modifier(ModKind::ICmp, cmp);
        m.inst.d = PRED | (7 << 3);
        m.a = x;
        m.b = y;
        self.push(m);
        self.sel01(d, PRED);
    }

    /// Shifts of 32 or more (or past a narrow type's width) give 0 or the sign fill.
    fn clamp_shift(&mut self, d: VReg, t: VReg, n: Loc, ty: Type, signed: bool) {
        let width = (ty.size() * 8).min(32);
        if width == 32 {
            self.mov(Loc::R(d), Src::Loc(Loc::R(t)));
            return;
        }
        // Narrow types: amounts >= width give 0 / sign (shr of the normalized value does that
        // for shr.s; shl and shr.u need it explicitly).
        let mut m = MI::new(Opcode::Isetp);
        m.inst.set_modifier(ModKind::ICmp, 9); // hs
        m.inst.d = PRED2 | (7 << 3);
        m.a = n;
        m.b = Src::Imm(width);
        self.push(m);
        let fill = if signed {
            let f = self.v1();
            self.op(Opcode::Shr, &[(ModKind::Sign, 1)], Loc::R(f), Loc::R(t), Src::Imm(31), Loc::None);
            Loc::R(f)
        } else {
            Loc::Phys(RZ)
        };
        let mut s = MI::new(Opcode::Sel);
        s.inst.mods = PRED2;
        s.d = Loc::R(d);
        s.a = fill;
        s.b = Src::Loc(Loc::R(t));
        self.push(s);
    }

    /// The low 8 bits of a value (bfe/bfi positions and lengths).
    fn byte8(&mut self, s: Src) -> Src {
        match s {
            Src::Imm(v) => Src::Imm(v & 0xff),
            other => {
                let l = self.in_reg(other);
                let t = self.v1();
                self.op(Opcode::And, &[], Loc::R(t), l, Src::Imm(0xff), Loc::None);
                Src::Loc(Loc::R(t))
            }
        }
    }

    /// (1 << len) - 1 as a pair; len >= 64 gives all ones.
    fn low_mask64(&mut self, len: Src) -> VReg {
        let one = self.v2();
        self.mov(Loc::Half(one, 0), Src::Imm(1));
        self.mov(Loc::Half(one, 1), Src::Imm(0));
        let p = self.v2();
        self.op(Opcode::Shl64, &[], Loc::R(p), Loc::R(one), len, Loc::None);
        let m = self.v2();
        self.op(Opcode::Sub, &[(ModKind::Cc, 1)], Loc::Half(m, 0), Loc::Half(p, 0), Src::Imm(1), Loc::None);
        self.op(Opcode::Sub, &[(ModKind::X, 1)], Loc::Half(m, 1), Loc::Half(p, 1), Src::Imm(0), Loc::None);
        m
    }

    /// `dp4a`/`dp2a`: c plus the products of sign- or zero-extended byte and
    /// half-word lanes, as a chain of bit-field extracts and 32-bit mads.
    fn dot(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
        let (d, _) = self.dst(&a[0])?;
        let sign = |k: usize| (ModKind::Sign, Self::ty(i, k).is_some_and(|t| t.kind() == TypeKind::Signed) as u32);
        let x = self.reg32(&a[1], Type::B32)?;
        let y = self.reg32(&a[2], Type::B32)?;
        let mut acc = self.reg32(&a[3], Type::B32)?;
        let lanes: Vec<(u32, u32, u32)> = if i.is(Op::Dp4a) {
            (0..4).map(|k| (8 * k, 8, 8 * k)).collect()
        } else {
            let off = if i.has(Mod::Hi) { 16 } else { 0 };
            (0..2).map(|k| (16 * k, 16, off + 8 * k)).collect()
        };
        for (n, &(apos, alen, bpos)) in lanes.iter().enumerate() {
            let (ea, eb) = (self.v1(), self.v1());
            self.op(Opcode::Bfe, &[sign(0)], Loc::R(ea), x, Src::Imm(apos | alen << 8), Loc::None);
            self.op(Opcode::Bfe, &[sign(1)], Loc::R(eb), y, Src::Imm(bpos | 8 << 8), Loc::None);
            let out = if n + 1 == lanes.len() { d } else { self.v1() };
            self.op(Opcode::Mad, &[], Loc::R(out), Loc::R(ea), Src::Loc(Loc::R(eb)), acc);
            acc = Loc::R(out);
        }
        Ok(())
    }

    /// `lop3`: the truth table as a sum of products, one `and` chain per set
    /// minterm (bit k of the table is the result for a, b, c bits = k[2], k[1], k[0]).
    fn lop3(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
        let (d, _) = self.dst(&a[0])?;
        let Src::Imm(lut) = self.src32(&a[4], Type::B32)? else {
            return Err("lop3's truth table must be a constant".into());
        };
        let lut = lut & 0xff;
        if lut == 0 || lut == 0xff {
            self.mov(Loc::R(d), Src::Imm(if lut == 0 { 0 } else { u32::MAX }));
            return Ok(());
        }
        let mut ins = vec![];
        for k in 1..4 {
            let x = self.reg32(&a[k], Type::B32)?;
            let nx = self.v1();
            self.op(Opcode::Xor, &[], Loc::R(nx), x, Src::Imm(u32::MAX), Loc::None);
            ins.push((x, Loc::R(nx)));
        }
        let mut acc: Option<Loc> = None;
        for m in (0..8).filter(|m| lut >> m & 1 == 1) {
            let pick = |k: usize| if m >> (2 - k) & 1 == 1 { ins[k].0 } else { ins[k].1 };
            let (t, u) = (self.v1(), self.v1());
            self.op(Opcode::And, &[], Loc::R(t), pick(0), Src::Loc(pick(1)), Loc::None);
            self.op(Opcode::And, &[], Loc::R(u), Loc::R(t), Src::Loc(pick(2)), Loc::None);
            acc = Some(match acc {
                None => Loc::R(u),
                Some(p) => {
                    let o = self.v1();
                    self.op(Opcode::Or, &[], Loc::R(o), p, Src::Loc(Loc::R(u)), Loc::None);
                    Loc::R(o)
                }
            });
        }
        self.mov(Loc::R(d), Src::Loc(acc.expect("a table other than 0 has a set minterm")));
        Ok(())
    }

    /// `testp`: integer tests on the magnitude bits (for f64 the high word `e`
    /// and the low word `lo`), each an `isetp` chained through the boolean combine.
    fn testp(&mut self, i: &Inst, ty: Type, d: VReg) -> R<()> {
        const EQ: u32 = 0;
        const NE: u32 = 1;
        const LO: u32 = 6;
        const LS: u32 = 7;
        const HI: u32 = 8;
        let (wide, inf, min_normal, normal_span) =
            if ty == Type::F64 { (true, 0x7ff0_0000, 0x0010_0000, 0x7fe0_0000) } else { (false, 0x7f80_0000, 0x0080_0000, 0x7f00_0000) };
        let (hi_word, lo_word) = if wide {
            let Loc::R(v) = self.src64(&i.args[1], ty)? else { unreachable!("src64 gives a register pair") };
            (Loc::Half(v, 1), Some(Loc::Half(v, 0)))
        } else {
            (self.reg32(&i.args[1], Type::B32)?, None)
        };
        let e = self.v1();
        self.op(Opcode::And, &[], Loc::R(e), hi_word, Src::Imm(0x7fff_ffff), Loc::None);
        // (cmp, a, b, combine with the previous result: None, Some(false) = and, Some(true) = or)
        let mut tests: Vec<(u32, Loc, Src, Option<bool>)> = vec![];
        let test = [Mod::Finite, Mod::Infinite, Mod::Number, Mod::Notanumber, Mod::Normal, Mod::Subnormal].into_iter().find(|&m| i.has(m));
        match (test, lo_word) {
            (Some(Mod::Finite), _) => tests.push((LO, Loc::R(e), Src::Imm(inf), None)),
            (Some(Mod::Infinite), None) => tests.push((EQ, Loc::R(e), Src::Imm(inf), None)),
            (Some(Mod::Infinite), Some(lo)) => {
                tests.push((EQ, Loc::R(e), Src::Imm(inf), None));
                tests.push((EQ, lo, Src::Imm(0), Some(false)));
            }
            (Some(Mod::Number), None) => tests.push((LS, Loc::R(e), Src::Imm(inf), None)),
            (Some(Mod::Notanumber), None) => tests.push((HI, Loc::R(e), Src::Imm(inf), None)),
            (Some(m @ (Mod::Number | Mod::Notanumber)), Some(lo)) => {
                // NaN: e > inf, or e == inf with a nonzero low word; e | (lo != 0) > inf says both.
                let (t, f) = (self.v1(), self.v1());
                self.set_from_cmp(t, lo, Src::Imm(0), NE);
                self.op(Opcode::Or, &[], Loc::R(f), Loc::R(e), Src::Loc(Loc::R(t)), Loc::None);
                tests.push((if m == Mod::Number { LS } else { HI }, Loc::R(f), Src::Imm(inf), None));
            }
            (Some(Mod::Normal), _) => {
                let t = self.v1();
                self.op(Opcode::Sub, &[], Loc::R(t), Loc::R(e), Src::Imm(min_normal), Loc::None);
                tests.push((LO, Loc::R(t), Src::Imm(normal_span), None));
            }
            (Some(Mod::Subnormal), None) => {
                let t = self.v1();
                self.op(Opcode::Sub, &[], Loc::R(t), Loc::R(e), Src::Imm(1), Loc::None);
                tests.push((LO, Loc::R(t), Src::Imm(min_normal - 1), None));
            }
            (Some(Mod::Subnormal), Some(lo)) => {
                let t = self.v1();
                self.op(Opcode::Or, &[], Loc::R(t), Loc::R(e), Src::Loc(lo), Loc::None);
                tests.push((LO, Loc::R(e), Src::Imm(min_normal), None));
                tests.push((NE, Loc::R(t), Src::Imm(0), Some(false)));
            }
            (_, _) => return Err("testp needs a test (.finite .infinite .number .notanumber .normal .subnormal)".into()),
        }
        for (cmp, x, y, combine) in tests {
            let mut m = MI::new(Opcode::Isetp);
            m.inst.set_modifier(ModKind::ICmp, cmp);
            m.inst.set_modifier(ModKind::BoolOp, combine.map_or(0, |or| or as u32));
            m.inst.d = PRED | (if combine.is_some() { PRED } else { 7 }) << 3;
            m.a = x;
            m.b = y;
            self.push(m);
        }
        self.sel01(d, PRED);
        Ok(())
    }

    fn pack_pos_len(&mut self, pos: Src, len: Src) -> Src {
        match (pos, len) {
            (Src::Imm(p), Src::Imm(l)) => Src::Imm((p & 0xff) | (l & 0xff) << 8),
            _ => {
                let p = self.in_reg(pos);
                let l = self.in_reg(len);
                let t = self.v1();
                self.op(Opcode::And, &[], Loc::R(t), p, Src::Imm(0xff), Loc::None);
                let u = self.v1();
                self.op(Opcode::And, &[], Loc::R(u), l, Src::Imm(0xff), Loc::None);
                let w = self.v1();
                self.op(Opcode::Shl, &[], Loc::R(w), Loc::R(u), Src::Imm(8), Loc::None);
                let r = self.v1();
                self.op(Opcode::Or, &[], Loc::R(r), Loc::R(t), Src::Loc(Loc::R(w)), Loc::None);
                Src::Loc(Loc::R(r))
            }
        }
    }

    /// d = count of leading zeros of the 64-bit pair p: hi != 0 ? clz(hi) : 32 + clz(lo).
    fn clz64(&mut self, d: VReg, p: VReg) {
        let (x, y, z) = (self.v1(), self.v1(), self.v1());
        self.op(Opcode::Clz, &[], Loc::R(x), Loc::Half(p, 1), Src::Loc(Loc::None), Loc::None);
        self.op(Opcode::Clz, &[], Loc::R(y), Loc::Half(p, 0), Src::Loc(Loc::None), Loc::None);
        self.op(Opcode::Add, &[], Loc::R(z), Loc::R(y), Src::Imm(32), Loc::None);
        let mut m = MI::new(Opcode::Isetp);
        m.inst.set_modifier(ModKind::ICmp, 1);
        m.inst.d = PRED | (7 << 3);
        m.a = Loc::Half(p, 1);
        m.b = Src::Imm(0);
        self.push(m);
        let mut s = MI::new(Opcode::Sel);
        s.inst.mods = PRED;
        s.d = Loc::R(d);
        s.a = Loc::R(x);
        s.b = Src::Loc(Loc::R(z));
        self.push(s);
    }

    fn bits64(&mut self, i: &Inst, ty: Type, d: VReg) -> R<()> {
        let p = self.src64(&i.args[1], ty)?;
        let Loc::R(p) = p else { unreachable!() };
        match Self::op_of(i)? {
            Op::Popc => {
                let (x, y) = (self.v1(), self.v1());
                self.op(Opcode::Popc, &[], Loc::R(x), Loc::Half(p, 0), Src::Loc(Loc::None), Loc::None);
                self.op(Opcode::Popc, &[], Loc::R(y), Loc::Half(p, 1), Src::Loc(Loc::None), Loc::None);
                self.op(Opcode::Add, &[], Loc::R(d), Loc::R(x), Src::Loc(Loc::R(y)), Loc::None);
            }
            Op::Clz => self.clz64(d, p),
            Op::Bfind => {
                // The highest bit differing from the sign (s64) or set (u64) is 63 - clz of the
                // sign-folded value; clz = 64 (no such bit) gives 0xffffffff either way.
                let src = if ty.kind() == TypeKind::Signed {
                    let (sign, f) = (self.v1(), self.v2());
                    self.op(Opcode::Shr, &[(ModKind::Sign, 1)], Loc::R(sign), Loc::Half(p, 1), Src::Imm(31), Loc::None);
                    self.define(f);
                    for h in 0..2 {
                        self.op(Opcode::Xor, &[], Loc::Half(f, h), Loc::Half(p, h), Src::Loc(Loc::R(sign)), Loc::None);
                    }
                    f
                } else {
                    p
                };
                let c = self.v1();
                self.clz64(c, src);
                if i.has(Mod::Shiftamt) {
                    let mut m = MI::new(Opcode::Isetp);
                    m.inst.set_modifier(ModKind::ICmp, 0);
                    m.inst.d = PRED | (7 << 3);
                    m.a = Loc::R(c);
                    m.b = Src::Imm(64);
                    self.push(m);
                    let none = self.v1();
                    self.mov(Loc::R(none), Src::Imm(u32::MAX));
                    let mut s = MI::new(Opcode::Sel);
                    s.inst.mods = PRED;
                    s.d = Loc::R(d);
                    s.a = Loc::R(none);
                    s.b = Src::Loc(Loc::R(c));
                    self.push(s);
                } else {
                    let n = self.v1();
                    self.mov(Loc::R(n), Src::Imm(63));
                    self.op(Opcode::Sub, &[], Loc::R(d), Loc::R(n), Src::Loc(Loc::R(c)), Loc::None);
                }
            }
            Op::Brev => {
                // The halves swap: both are read before d is written (d may be p).
                let (lo, hi) = (self.v1(), self.v1());
                self.op(Opcode::Brev, &[], Loc::R(lo), Loc::Half(p, 1), Src::Loc(Loc::None), Loc::None);
                self.op(Opcode::Brev, &[], Loc::R(hi), Loc::Half(p, 0), Src::Loc(Loc::None), Loc::None);
                self.define(d);
                self.mov(Loc::Half(d, 0), Src::Loc(Loc::R(lo)));
                self.mov(Loc::Half(d, 1), Src::Loc(Loc::R(hi)));
            }
            _ => return Err(format!("`{}.b64` is not supported by the compiler yet", i.opcode.name)),
        }
        Ok(())
    }

    fn int_misc(&mut self, i: &Inst, ty: Type) -> R<()> {
        let a = &i.args;
        let (d, _) = self.dst(&a[0])?;
        let op = Self::op_of(i)?;
        let signed = ty.kind() == TypeKind::Signed;
        if is64(ty) {
            let x = self.src64(&a[1], ty)?;
            let Loc::R(x) = x else { unreachable!() };
            match op {
                Op::Min | Op::Max => {
                    let y = self.src64(&a[2], ty)?;
                    let Loc::R(y) = y else { unreachable!() };
                    let cmp = if signed { 2 } else { 6 };
                    let mut m = MI::new(Opcode::Isetp64);
                    m.inst.set_modifier(ModKind::ICmp, cmp);
                    m.inst.d = PRED | (7 << 3);
                    m.a = Loc::R(x);
                    m.b = Src::Loc(Loc::R(y));
                    self.push(m);
                    let (first, second) = if op == Op::Min { (x, y) } else { (y, x) };
                    self.define(d);
                    for k in 0..2 {
                        let mut s = MI::new(Opcode::Sel);
                        s.inst.mods = PRED;
                        s.d = Loc::Half(d, k);
                        s.a = Loc::Half(first, k);
                        s.b = Src::Loc(Loc::Half(second, k));
                        self.push(s);
                    }
                }
                _ => {
                    // neg: 0 - x; abs: x < 0 ? -x : x.
                    let n = self.v2();
                    self.op(Opcode::Sub, &[(ModKind::Cc, 1)], Loc::Half(n, 0), Loc::Phys(RZ), Src::Loc(Loc::Half(x, 0)), Loc::None);
                    self.op(Opcode::Sub, &[(ModKind::X, 1)], Loc::Half(n, 1), Loc::Phys(RZ), Src::Loc(Loc::Half(x, 1)), Loc::None);
                    self.define(d);
                    if op == Op::Neg {
                        self.mov(Loc::Half(d, 0), Src::Loc(Loc::Half(n, 0)));
                        self.mov(Loc::Half(d, 1), Src::Loc(Loc::Half(n, 1)));
                    } else {
                        let mut m = MI::new(Opcode::Isetp);
                        m.inst.set_modifier(ModKind::ICmp, 2);
                        m.inst.d = PRED | (7 << 3);
                        m.a = Loc::Half(x, 1);
                        m.b = Src::Imm(0);
                        self.push(m);
                        for k in 0..2 {
                            let mut s = MI::new(Opcode::Sel);
                            s.inst.mods = PRED;
                            s.d = Loc::Half(d, k);
                            s.a = Loc::Half(n, k);
                            s.b = Src::Loc(Loc::Half(x, k));
                            self.push(s);
                        }
                    }
                }
            }
            return Ok(());
        }
        let x = self.src32(&a[1], ty)?;
        let x = self.norm(x, ty);
        match op {
            Op::Min | Op::Max => {
                let y = self.src32(&a[2], ty)?;
                let y = self.norm(y, ty);
                let o = if op == Op::Min { Opcode::Min } else { Opcode::Max };
                self.op(o, &[(ModKind::Sign, signed as u32)], Loc::R(d), x, Src::Loc(y), Loc::None);
            }
            Op::Neg => self.op(Opcode::Sub, &[], Loc::R(d), Loc::Phys(RZ), Src::Loc(x), Loc::None),
            _ => self.op(Opcode::Abs, &[], Loc::R(d), x, Src::Loc(Loc::None), Loc::None),
        }
        Ok(())
    }

    fn mul_mad(&mut self, i: &Inst, ty: Type) -> R<()> {
        let a = &i.args;
        let (d, _) = self.dst(&a[0])?;
        let op = Self::op_of(i)?;
        let signed = ty.kind() == TypeKind::Signed;
        let hi = i.has(Mod::Hi);
        let wide = i.has(Mod::Wide);
        let mad = op == Op::Mad || op == Op::Madc;
        if is64(ty) {
            let (x, y) = (self.src64(&a[1], ty)?, self.src64(&a[2], ty)?);
            let p = if mad { self.v2() } else { d };
            if !mad {
                self.define(d);
            }
            self.op(Opcode::Mul64, &[(ModKind::Hi, hi as u32), (ModKind::Sign, signed as u32)], Loc::R(p), x, Src::Loc(y), Loc::None);
            if mad {
                let c = self.src64(&a[3], ty)?;
                let Loc::R(c) = c else { unreachable!() };
                self.define(d);
                self.op(Opcode::Add, &[(ModKind::Cc, 1)], Loc::Half(d, 0), Loc::Half(p, 0), Src::Loc(Loc::Half(c, 0)), Loc::None);
                self.op(Opcode::Add, &[(ModKind::X, 1)], Loc::Half(d, 1), Loc::Half(p, 1), Src::Loc(Loc::Half(c, 1)), Loc::None);
            }
            return Ok(());
        }
        let xs = self.src32(&a[1], ty)?;
        let ys = self.src32(&a[2], ty)?;
        let narrow = ty.size() < 4;
        let (x, y) = if narrow || wide { (self.norm(xs, ty), Src::Loc(self.norm(ys, ty))) } else { (self.in_reg(xs), ys) };
        if wide {
            if narrow {
                // 16 x 16 -> 32: the normalized product fits in 32 bits.
                let t = self.v1();
                self.op(Opcode::Mul, &[(ModKind::Sign, signed as u32)], Loc::R(t), x, y, Loc::None);
                if mad {
                    let c = self.src32(&a[3], Type::U32)?;
                    self.op(Opcode::Add, &[], Loc::R(d), Loc::R(t), c, Loc::None);
                } else {
                    self.mov(Loc::R(d), Src::Loc(Loc::R(t)));
                }
                return Ok(());
            }
            let p = if mad { self.v2() } else { d };
            self.define(p);
            let sg = (ModKind::Sign, signed as u32);
            self.op(Opcode::Mul, &[sg], Loc::Half(p, 0), x, y, Loc::None);
            self.op(Opcode::Mul, &[sg, (ModKind::Hi, 1)], Loc::Half(p, 1), x, y, Loc::None);
            if mad {
                let c = self.src64(&a[3], if signed { Type::S64 } else { Type::U64 })?;
                let Loc::R(c) = c else { unreachable!() };
                self.define(d);
                self.op(Opcode::Add, &[(ModKind::Cc, 1)], Loc::Half(d, 0), Loc::Half(p, 0), Src::Loc(Loc::Half(c, 0)), Loc::None);
                self.op(Opcode::Add, &[(ModKind::X, 1)], Loc::Half(d, 1), Loc::Half(p, 1), Src::Loc(Loc::Half(c, 1)), Loc::None);
            }
            return Ok(());
        }
        if narrow && hi {
            // The high half of a 16x16 product: bits 16..31 of the 32-bit product.
            let t = self.v1();
            self.op(Opcode::Mul, &[(ModKind::Sign, signed as u32)], Loc::R(t), x, y, Loc::None);
            let u = self.v1();
            self.op(Opcode::Shr, &[(ModKind::Sign, signed as u32)], Loc::R(u), Loc::R(t), Src::Imm(16), Loc::None);
            if mad {
                let c = self.src32(&a[3], ty)?;
                self.op(Opcode::Add, &[], Loc::R(d), Loc::R(u), c, Loc::None);
            } else {
                self.mov(Loc::R(d), Src::Loc(Loc::R(u)));
            }
            return Ok(());
        }
        let mods = [
            (ModKind::Hi, hi as u32),
            (ModKind::Sign, signed as u32),
            (ModKind::Sat, (i.has(Mod::Sat) && ty == Type::S32) as u32),
            (ModKind::Cc, i.has(Mod::Cc) as u32),
            (ModKind::X, (op == Op::Madc) as u32),
        ];
        if mad {
            let c = self.reg32(&a[3], ty)?;
            let y = Src::Loc(self.in_reg(y));
            self.op(Opcode::Mad, &mods, Loc::R(d), x, y, c);
        } else {
            self.op(Opcode::Mul, &mods[..2], Loc::R(d), x, y, Loc::None);
        }
        Ok(())
    }

    fn setp(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
        let is_set = i.is(Op::Set);
        let sty = if is_set { Self::ty(i, 1).unwrap_or(Type::B32) } else { Self::ty(i, 0).unwrap_or(Type::B32) };
        let cmp = group::COMPARISON.iter().copied().find(|&m| i.has(m)).ok_or("a comparison is required")?;
        let bop = if i.has(Mod::And) {
            Some(0)
        } else if i.has(Mod::Or) {
            Some(1)
        } else if i.has(Mod::Xor) {
            Some(2)
        } else {
            None
        };
        // The combining predicate goes to p5 first.
        let pc = match (bop, a.get(3)) {
            (Some(_), Some(c)) => {
                let c = self.reg32(c, Type::Pred)?;
                self.test_pred(c, PRED2);
                PRED2
            }
            _ => 7,
        };
        let mut m;
        match sty.kind() {
            TypeKind::Float => {
                let cmp = fcmp(cmp).ok_or(format!("`.{}` is not a float comparison", cmp.name()))?;
                if is64(sty) {
                    let (x, y) = (self.src64(&a[1], sty)?, self.src64(&a[2], sty)?);
                    m = MI::new(Opcode::Dsetp);
                    m.inst.set_modifier(ModKind::FCmp, cmp);
                    m.a = x;
                    m.b = Src::Loc(y);
                } else {
                    let (mut x, mut y) = (self.reg32(&a[1], sty)?, self.src32(&a[2], sty)?);
                    if sty == Type::F16 {
                        x = self.h2f(x);
                        let yl = self.in_reg(y);
                        y = Src::Loc(self.h2f(yl));
                    }
                    m = MI::new(Opcode::Fsetp);
                    m.inst.set_modifier(ModKind::FCmp, cmp);
                    if i.has(Mod::Ftz) {
                        m.inst.set_modifier(ModKind::FtzExt, 1);
                        y = Src::Loc(self.in_reg(y));
                    }
                    m.a = x;
                    m.b = y;
                }
            }
            _ => {
                let signed = sty.kind() == TypeKind::Signed;
                let cmp = icmp(cmp, signed).ok_or(format!("`.{}` is not an integer comparison", cmp.name()))?;
                if is64(sty) {
                    let (x, y) = (self.src64(&a[1], sty)?, self.src64(&a[2], sty)?);
                    m = MI::new(Opcode::Isetp64);
                    m.inst.set_modifier(ModKind::ICmp, cmp);
                    m.a = x;
                    m.b = Src::Loc(y);
                } else {
                    let x = self.src32(&a[1], sty)?;
                    let x = self.norm(x, sty);
                    let y = self.src32(&a[2], sty)?;
                    let y = if sty.size() < 4 { Src::Loc(self.norm(y, sty)) } else { y };
                    m = MI::new(Opcode::Isetp);
                    m.inst.set_modifier(ModKind::ICmp, cmp);
                    m.a = x;
                    m.b = y;
                }
            }
        }
        m.inst.set_modifier(ModKind::BoolOp, bop.unwrap_or(0));
        m.inst.d = PRED | (pc << 3);
        self.push(m.clone());
        if is_set {
            let (d, _) = self.dst(&a[0])?;
            let dty = Self::ty(i, 0).unwrap_or(Type::U32);
            let one = if dty == Type::F32 { 0x3f80_0000 } else { u32::MAX };
            let mut s = MI::new(Opcode::Sel);
            s.inst.mods = PRED | 8;
            s.d = Loc::R(d);
            s.a = Loc::Phys(RZ);
            s.b = Src::Imm(one);
            self.push(s);
            return Ok(());
        }
        match &a[0] {
            Operand::Pair(p, q) => {
                let (pv, _) = self.dst(&Operand::Name(p.clone()))?;
                let (qv, _) = self.dst(&Operand::Name(q.clone()))?;
                self.sel01(pv, PRED);
                // q = (!cmp) op c: recompute with the negated comparison through p6 again.
                let mut mq = m;
                mq.inst.d = PRED | (pc << 3);
                let code = mq.inst.modifier(if mq.inst.op == Opcode::Fsetp || mq.inst.op == Opcode::Dsetp {
                    ModKind::FCmp
                } else {
                    ModKind::ICmp
                });
                let neg = negate_cmp(mq.inst.op, code);
                let kind = if matches!(mq.inst.op, Opcode::Fsetp | Opcode::Dsetp) { ModKind::FCmp } else { ModKind::ICmp };
                mq.inst.set_modifier(kind, neg);
                self.push(mq);
                self.sel01(qv, PRED);
            }
            o => {
                let (d, _) = self.dst(o)?;
                self.sel01(d, PRED);
            }
        }
        Ok(())
    }

    fn h2f(&mut self, x: Loc) -> Loc {
        let t = self.v1();
        self.op(Opcode::H2f, &[], Loc::R(t), x, Src::Loc(Loc::None), Loc::None);
        Loc::R(t)
    }

    fn mov_inst(&mut self, i: &Inst, ty: Type) -> R<()> {
        let a = &i.args;
        match (&a[0], &a[1]) {
            (Operand::Vector(v, _), src) if !is64(ty) => {
                // Unpack: mov.b32 {lo16, hi16}, x.
                let x = self.reg32(src, Type::B32)?;
                if v.len() != 2 {
                    return Err("only 2-element vector unpacking is supported".into());
                }
                for (k, e) in v.iter().enumerate() {
                    if let Operand::Sink(_) = e {
                        continue;
                    }
                    let (d, _) = self.dst(e)?;
                    if k == 0 {
                        self.op(Opcode::And, &[], Loc::R(d), x, Src::Imm(0xffff), Loc::None);
                    } else {
                        self.op(Opcode::Shr, &[(ModKind::Sign, 0)], Loc::R(d), x, Src::Imm(16), Loc::None);
                    }
                }
                Ok(())
            }
            (Operand::Vector(v, _), src) => {
                // Unpack: mov.b64 {lo, hi}, x.
                let x = self.src64(src, Type::B64)?;
                let Loc::R(x) = x else { unreachable!() };
                if v.len() != 2 {
                    return Err("only 2-element vector unpacking is supported".into());
                }
                for (k, e) in v.iter().enumerate() {
                    if let Operand::Sink(_) = e {
                        continue;
                    }
                    let (d, _) = self.dst(e)?;
                    self.mov(Loc::R(d), Src::Loc(Loc::Half(x, k as u8)));
                }
                Ok(())
            }
            (d, Operand::Vector(v, _)) => {
                let (d, dt) = self.dst(d)?;
                if v.len() != 2 {
                    return Err("only 2-element vector packing is supported".into());
                }
                if is64(dt) {
                    let lo = self.src32(&v[0], Type::B32)?;
                    let hi = self.src32(&v[1], Type::B32)?;
                    self.define(d);
                    self.mov(Loc::Half(d, 0), lo);
                    self.mov(Loc::Half(d, 1), hi);
                } else {
                    // Two 16-bit halves into 32 bits.
                    let lo = self.src32(&v[0], Type::B16)?;
                    let lo = self.norm(lo, Type::U16);
                    let hi = self.reg32(&v[1], Type::B16)?;
                    let t = self.v1();
                    self.op(Opcode::Shl, &[], Loc::R(t), hi, Src::Imm(16), Loc::None);
                    self.op(Opcode::Or, &[], Loc::R(d), lo, Src::Loc(Loc::R(t)), Loc::None);
                }
                Ok(())
            }
            (d, s) => {
                let (d, dt) = self.dst(d)?;
                if is64(dt) || is64(ty) {
                    let x = self.src64(s, ty)?;
                    let Loc::R(x) = x else { unreachable!() };
                    if is64(dt) {
                        self.define(d);
                        self.mov(Loc::Half(d, 0), Src::Loc(Loc::Half(x, 0)));
                        self.mov(Loc::Half(d, 1), Src::Loc(Loc::Half(x, 1)));
                    } else {
                        self.mov(Loc::R(d), Src::Loc(Loc::Half(x, 0)));
                    }
                } else {
                    let x = self.src32(s, ty)?;
                    self.mov(Loc::R(d), x);
                }
                Ok(())
            }
        }
    }

    /// Address of a memory operand: (base register, offset, space override for named variables).
    fn address(&mut self, o: &Operand) -> R<(Loc, u32, Option<u32>)> {
        let Operand::Addr(a) = o else { return Err("expected an address".into()) };
        let off = match &a.offset {
            Some(e) => expr::eval(e, &|_| None).map_err(|(_, m)| m)?.bits() as u32,
            None => 0,
        };
        match &a.base {
            None => Ok((Loc::Phys(RZ), off, None)),
            Some(b) => match self.lookup(&b.name) {
                Some(Name::Reg(v, t)) => Ok((if is64(t) { Loc::Half(v, 0) } else { Loc::R(v) }, off, None)),
                Some(Name::Frame(fo)) => Ok((Loc::Phys(SP), fo.wrapping_add(off), Some(3))),
                Some(Name::KParam(ko)) => Ok((Loc::Phys(RZ), ko.wrapping_add(off), Some(5))),
                None => {
                    let s = self.layout.sym(&b.name).ok_or(format!("`{}` is undefined", b.name))?;
                    let space = match s {
                        Sym::Global(_) => 1,
                        Sym::Const(_) => 4,
                        Sym::Shared(_) => 2,
                    };
                    Ok((Loc::Phys(RZ), (s.addr() as u32).wrapping_add(off), Some(space)))
                }
            },
        }
    }

    fn space_of(i: &Inst, over: Option<u32>) -> u32 {
        if let Some(s) = over {
            return s;
        }
        if i.has(Mod::Global) {
            1
        } else if i.has(Mod::Shared) {
            2
        } else if i.has(Mod::Local) {
            3
        } else if i.has(Mod::Const) {
            4
        } else if i.has(Mod::Param) {
            5
        } else {
            0
        }
    }

    /// Width code for an element size and signedness.
    fn width(ty: Type) -> u32 {
        match (ty.size(), ty.kind() == TypeKind::Signed) {
            (1, false) => 0,
            (1, true) => 1,
            (2, false) => 2,
            (2, true) => 3,
            (4, _) => 4,
            (8, _) => 5,
            _ => 6,
        }
    }

    fn load(&mut self, i: &Inst, ty: Type) -> R<()> {
        let (base, off, over) = self.address(&i.args[1])?;
        let space = Self::space_of(i, over);
        let elems: Vec<&Operand> = match &i.args[0] {
            Operand::Vector(v, _) => v.iter().collect(),
            o => vec![o],
        };
        let esize = ty.size();
        for (k, e) in elems.into_iter().enumerate() {
            let eoff = off.wrapping_add(esize * k as u32);
            if let Operand::Sink(_) = e {
                continue;
            }
            let (d, dt) = self.dst(e)?;
            let mut m = MI::new(Opcode::Ld);
            m.inst.set_modifier(ModKind::Space, space);
            m.a = base;
            m.b = Src::Imm(eoff);
            if is64(ty) {
                m.inst.set_modifier(ModKind::Width, 5);
                if is64(dt) {
                    self.define(d);
                    m.d = Loc::R(d);
                    self.push(m);
                } else {
                    let t = self.v2();
                    m.d = Loc::R(t);
                    self.push(m);
                    self.mov(Loc::R(d), Src::Loc(Loc::Half(t, 0)));
                }
            } else {
                m.inst.set_modifier(ModKind::Width, Self::width(ty));
                if is64(dt) {
                    let t = self.v1();
                    m.d = Loc::R(t);
                    self.push(m);
                    // T19: widen by the instruction type's signedness.
                    self.define(d);
                    self.mov(Loc::Half(d, 0), Src::Loc(Loc::R(t)));
                    if ty.kind() == TypeKind::Signed {
                        self.op(Opcode::Shr, &[(ModKind::Sign, 1)], Loc::Half(d, 1), Loc::R(t), Src::Imm(31), Loc::None);
                    } else {
                        self.mov(Loc::Half(d, 1), Src::Imm(0));
                    }
                } else {
                    m.d = Loc::R(d);
                    self.push(m);
                }
            }
        }
        Ok(())
    }

    fn store(&mut self, i: &Inst, ty: Type) -> R<()> {
        let (base, off, over) = self.address(&i.args[0])?;
        let space = Self::space_of(i, over);
        let elems: Vec<&Operand> = match &i.args[1] {
            Operand::Vector(v, _) => v.iter().collect(),
            o => vec![o],
        };
        let esize = ty.size();
        for (k, e) in elems.into_iter().enumerate() {
            let eoff = off.wrapping_add(esize * k as u32);
            let mut m = MI::new(Opcode::St);
            m.inst.set_modifier(ModKind::Space, space);
            m.a = base;
            m.b = Src::Imm(eoff);
            if is64(ty) {
                let v = self.src64(e, ty)?;
                m.inst.set_modifier(ModKind::Width, 5);
                m.d = v;
            } else {
                let v = self.reg32(e, ty)?;
                m.inst.set_modifier(ModKind::Width, Self::width(ty) & !1);
                m.d = v;
            }
            self.push(m);
        }
        Ok(())
    }

    fn atomic(&mut self, i: &Inst, ty: Type) -> R<()> {
        let red = i.is(Op::Red);
        let a = &i.args;
        let (addr, bi, ci) = if red { (&a[0], 1, None) } else { (&a[1], 2, a.get(3)) };
        let (base, off, over) = self.address(addr)?;
        let space = match Self::space_of(i, over) {
            1 => 1,
            2 => 2,
            _ => 0,
        };
        let base = if off != 0 {
            let t = self.v1();
            self.op(Opcode::Add, &[], Loc::R(t), base, Src::Imm(off), Loc::None);
            Loc::R(t)
        } else {
            base
        };
        let signed = ty.kind() == TypeKind::Signed;
        let code = match () {
            _ if i.has(Mod::Add) && ty.kind() == TypeKind::Float => 1,
            _ if i.has(Mod::Add) => 0,
            _ if i.has(Mod::Min) => 2 + signed as u32,
            _ if i.has(Mod::Max) => 4 + signed as u32,
            _ if i.has(Mod::Inc) => 6,
            _ if i.has(Mod::Dec) => 7,
            _ if i.has(Mod::And) => 8,
            _ if i.has(Mod::Or) => 9,
            _ if i.has(Mod::Xor) => 10,
            _ if i.has(Mod::Exch) => 11,
            _ if i.has(Mod::Cas) => 12,
            _ => return Err("unknown atomic operation".into()),
        };
        let mut m = MI::new(Opcode::Atom);
        m.inst.set_modifier(ModKind::AtomSpace, space);
        m.inst.set_modifier(ModKind::AtomOp, code);
        m.a = base;
        if is64(ty) {
            m.inst.set_modifier(ModKind::B64, 1);
            m.b = Src::Loc(self.src64(&a[bi], ty)?);
            m.c = match ci {
                Some(c) => self.src64(c, ty)?,
                None => Loc::Phys(RZ),
            };
            let d = if red { self.v2() } else { self.dst(&a[0])?.0 };
            self.define(d);
            m.d = Loc::R(d);
        } else {
            let b = self.src32(&a[bi], ty)?;
            m.b = if ci.is_some() { Src::Loc(self.in_reg(b)) } else { b };
            m.c = match ci {
                Some(c) => self.reg32(c, ty)?,
                None => Loc::Phys(RZ),
            };
            m.d = if red { Loc::Phys(RZ) } else { Loc::R(self.dst(&a[0])?.0) };
        }
        self.push(m);
        Ok(())
    }

    fn float(&mut self, i: &Inst, ty: Type) -> R<()> {
        let a = &i.args;
        let op = Self::op_of(i)?;
        let (d, _) = self.dst(&a[0])?;
        let rnd = rnd_of(i);
        let ftz = i.has(Mod::Ftz) as u32;
        let sat = i.has(Mod::Sat) as u32;
        if op == Op::Testp {
            return self.testp(i, ty, d);
        }
        if ty == Type::F64 {
            let x = self.src64(&a[1], ty)?;
            let pair = |s: &mut Self, k: usize| s.src64(&a[k], ty);
            self.define(d);
            let r = [(ModKind::Rnd, rnd)];
            match op {
                Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Min | Op::Max => {
                    let y = pair(self, 2)?;
                    let o = match op {
                        Op::Add => Opcode::Dadd,
                        Op::Sub => Opcode::Dsub,
                        Op::Mul => Opcode::Dmul,
                        Op::Div => Opcode::Ddiv,
                        Op::Min => Opcode::Dmin,
                        _ => Opcode::Dmax,
                    };
                    let mods: &[(ModKind, u32)] = if matches!(op, Op::Min | Op::Max) { &[] } else { &r };
                    self.op(o, mods, Loc::R(d), x, Src::Loc(y), Loc::None);
                }
                Op::Fma | Op::Mad => {
                    let (y, z) = (pair(self, 2)?, pair(self, 3)?);
                    self.op(Opcode::Dfma, &r, Loc::R(d), x, Src::Loc(y), z);
                }
                Op::Sqrt => self.op(Opcode::Dsqrt, &r, Loc::R(d), x, Src::Loc(Loc::None), Loc::None),
                Op::Rcp => {
                    let one = self.src64(&Operand::Expr(Expr { kind: ExprKind::Float(1.0), span: Default::default() }), ty)?;
                    self.op(Opcode::Ddiv, &r, Loc::R(d), one, Src::Loc(x), Loc::None);
                }
                Op::Rsqrt => {
                    let s = self.v2();
                    self.op(Opcode::Dsqrt, &[], Loc::R(s), x, Src::Loc(Loc::None), Loc::None);
                    let one = self.src64(&Operand::Expr(Expr { kind: ExprKind::Float(1.0), span: Default::default() }), ty)?;
                    self.op(Opcode::Ddiv, &[], Loc::R(d), one, Src::Loc(Loc::R(s)), Loc::None);
                }
                Op::Abs | Op::Neg | Op::Copysign => {
                    let Loc::R(xv) = x else { unreachable!() };
                    if op == Op::Copysign {
                        let y = pair(self, 2)?;
                        let Loc::R(yv) = y else { unreachable!() };
                        let t = self.v1();
                        self.op(Opcode::And, &[], Loc::R(t), Loc::Half(xv, 1), Src::Imm(0x8000_0000), Loc::None);
                        let u = self.v1();
                        self.op(Opcode::And, &[], Loc::R(u), Loc::Half(yv, 1), Src::Imm(0x7fff_ffff), Loc::None);
                        self.mov(Loc::Half(d, 0), Src::Loc(Loc::Half(yv, 0)));
                        self.op(Opcode::Or, &[], Loc::Half(d, 1), Loc::R(t), Src::Loc(Loc::R(u)), Loc::None);
                    } else {
                        self.mov(Loc::Half(d, 0), Src::Loc(Loc::Half(xv, 0)));
                        let (o, imm) = if op == Op::Abs { (Opcode::And, 0x7fff_ffff) } else { (Opcode::Xor, 0x8000_0000) };
                        self.op(o, &[], Loc::Half(d, 1), Loc::Half(xv, 1), Src::Imm(imm), Loc::None);
                    }
                }
                _ => return Err(format!("`{op}.f64` is not supported by the compiler yet")),
            }
            return Ok(());
        }
        if matches!(ty, Type::F16 | Type::F16x2) && matches!(op, Op::Neg | Op::Abs) {
            // Sign-bit operations on the binary16 bits, NaN payloads kept (as the PTX interpreter does).
            let signs = if ty == Type::F16 { 0x8000 } else { 0x8000_8000 };
            let x = self.reg32(&a[1], Type::B32)?;
            let (o, imm) = if op == Op::Abs { (Opcode::And, !signs) } else { (Opcode::Xor, signs) };
            self.op(o, &[], Loc::R(d), x, Src::Imm(imm), Loc::None);
            return Ok(());
        }
        if ty == Type::F16x2 && matches!(op, Op::Add | Op::Sub | Op::Mul | Op::Fma) {
            // Two binary16 lanes: each through binary32 (exact for add, sub, mul).
            let srcs: Vec<Loc> = (1..a.len()).map(|k| self.reg32(&a[k], Type::B32)).collect::<R<_>>()?;
            let mut halves = vec![];
            for part in 0..2 {
                let vals: Vec<Loc> = srcs
                    .iter()
                    .map(|&x| {
                        let h = if part == 0 {
                            x
                        } else {
                            let t = self.v1();
                            self.op(Opcode::Shr, &[(ModKind::Sign, 0)], Loc::R(t), x, Src::Imm(16), Loc::None);
                            Loc::R(t)
                        };
                        self.h2f(h)
                    })
                    .collect();
                let r = self.v1();
                let rf = [(ModKind::Rnd, rnd), (ModKind::Ftz, 0), (ModKind::Sat, sat)];
                match op {
                    Op::Add => self.op(Opcode::Fadd, &rf, Loc::R(r), vals[0], Src::Loc(vals[1]), Loc::None),
                    Op::Sub => self.op(Opcode::Fsub, &rf, Loc::R(r), vals[0], Src::Loc(vals[1]), Loc::None),
                    Op::Mul => self.op(Opcode::Fmul, &rf, Loc::R(r), vals[0], Src::Loc(vals[1]), Loc::None),
                    _ => self.op(Opcode::Ffma, &rf, Loc::R(r), vals[0], Src::Loc(vals[1]), vals[2]),
                }
                let h = self.v1();
                self.op(Opcode::F2h, &[(ModKind::Rnd, rnd)], Loc::R(h), Loc::R(r), Src::Loc(Loc::None), Loc::None);
                halves.push(h);
            }
            let t = self.v1();
            self.op(Opcode::Shl, &[], Loc::R(t), Loc::R(halves[1]), Src::Imm(16), Loc::None);
            self.op(Opcode::Or, &[], Loc::R(d), Loc::R(halves[0]), Src::Loc(Loc::R(t)), Loc::None);
            return Ok(());
        }
        let half = ty == Type::F16;
        if ty != Type::F32 && !half {
            return Err(format!("`{op}{}` is not supported by the compiler yet", ty.name()));
        }
        let mut x = self.reg32(&a[1], ty)?;
        if half {
            x = self.h2f(x);
        }
        let src = |s: &mut Self, k: usize| -> R<Src> {
            let v = s.src32(&a[k], ty)?;
            if half {
                let l = s.in_reg(v);
                return Ok(Src::Loc(s.h2f(l)));
            }
            Ok(v)
        };
        let out = if half { self.v1() } else { d };
        let rf = [(ModKind::Rnd, rnd), (ModKind::Ftz, ftz), (ModKind::Sat, sat)];
        let approx_default = !(i.has(Mod::Rn) || i.has(Mod::Rz) || i.has(Mod::Rm) || i.has(Mod::Rp));
        match op {
            Op::Add | Op::Sub | Op::Mul => {
                let y = src(self, 2)?;
                let o = match op {
                    Op::Add => Opcode::Fadd,
                    Op::Sub => Opcode::Fsub,
                    _ => Opcode::Fmul,
                };
                self.op(o, &rf, Loc::R(out), x, y, Loc::None);
            }
            Op::Fma | Op::Mad => {
                let y = src(self, 2)?;
                let y = Src::Loc(self.in_reg(y));
                let z = src(self, 3)?;
                let z = self.in_reg(z);
                self.op(Opcode::Ffma, &rf, Loc::R(out), x, y, z);
            }
            Op::Div => {
                let y = src(self, 2)?;
                // div.approx and div.full: IEEE division, as the PTX interpreter defines them.
                self.op(Opcode::Fdiv, &[(ModKind::Rnd, rnd), (ModKind::Ftz, ftz)], Loc::R(out), x, y, Loc::None);
            }
            Op::Min | Op::Max => {
                let y = src(self, 2)?;
                self.op(if op == Op::Min { Opcode::Fmin } else { Opcode::Fmax }, &[(ModKind::Ftz, ftz)], Loc::R(out), x, y, Loc::None);
            }
            Op::Abs | Op::Neg => {
                let xf = if ftz == 1 {
                    // Flush a subnormal to its signed zero on the bits (NaN payloads kept), then the sign operation.
                    let (e, z, t) = (self.v1(), self.v1(), self.v1());
                    self.op(Opcode::And, &[], Loc::R(e), x, Src::Imm(0x7f80_0000), Loc::None);
                    self.op(Opcode::And, &[], Loc::R(z), x, Src::Imm(0x8000_0000), Loc::None);
                    let mut m = MI::new(Opcode::Isetp);
                    m.inst.set_modifier(ModKind::ICmp, 0);
                    m.inst.d = PRED | (7 << 3);
                    m.a = Loc::R(e);
                    m.b = Src::Imm(0);
                    self.push(m);
                    let mut m = MI::new(Opcode::Sel);
                    m.inst.mods = PRED;
                    m.d = Loc::R(t);
                    m.a = Loc::R(z);
                    m.b = Src::Loc(x);
                    self.push(m);
                    Loc::R(t)
                } else {
                    x
                };
                let (o, imm) = if op == Op::Abs { (Opcode::And, 0x7fff_ffff) } else { (Opcode::Xor, 0x8000_0000) };
                self.op(o, &[], Loc::R(out), xf, Src::Imm(imm), Loc::None);
            }
            Op::Copysign => {
                let y = src(self, 2)?;
                let yl = self.in_reg(y);
                let (t, u) = (self.v1(), self.v1());
                self.op(Opcode::And, &[], Loc::R(t), x, Src::Imm(0x8000_0000), Loc::None);
                self.op(Opcode::And, &[], Loc::R(u), yl, Src::Imm(0x7fff_ffff), Loc::None);
                self.op(Opcode::Or, &[], Loc::R(out), Loc::R(t), Src::Loc(Loc::R(u)), Loc::None);
            }
            Op::Rcp | Op::Sqrt if !approx_default => {
                if op == Op::Rcp {
                    let one = self.in_reg(Src::Imm(0x3f80_0000));
                    self.op(Opcode::Fdiv, &[(ModKind::Rnd, rnd), (ModKind::Ftz, ftz)], Loc::R(out), one, Src::Loc(x), Loc::None);
                } else {
                    self.op(Opcode::Fsqrt, &[(ModKind::Rnd, rnd), (ModKind::Ftz, ftz)], Loc::R(out), x, Src::Loc(Loc::None), Loc::None);
                }
            }
            Op::Rcp | Op::Sqrt | Op::Rsqrt | Op::Sin | Op::Cos | Op::Lg2 | Op::Ex2 | Op::Tanh => {
                let f = match op {
                    Op::Rcp => 0,
                    Op::Rsqrt => 1,
                    Op::Lg2 => 2,
                    Op::Ex2 => 3,
                    Op::Sin => 4,
                    Op::Cos => 5,
                    Op::Sqrt => 6,
                    _ => 7,
                };
                self.op(Opcode::Mufu, &[(ModKind::SfuFn, f), (ModKind::Ftz, ftz)], Loc::R(out), x, Src::Loc(Loc::None), Loc::None);
            }
            _ => return Err(format!("`{op}.f32` is not supported by the compiler yet")),
        }
        if half {
            self.op(Opcode::F2h, &[], Loc::R(d), Loc::R(out), Src::Loc(Loc::None), Loc::None);
        }
        Ok(())
    }

    fn cvt(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
        let dty = Self::ty(i, 0).ok_or("cvt needs two types")?;
        let aty = Self::ty(i, 1).ok_or("cvt needs two types")?;
        let (d, dt) = self.dst(&a[0])?;
        let rnd = rnd_of(i);
        let int_round = i.has(Mod::Rni) || i.has(Mod::Rzi) || i.has(Mod::Rmi) || i.has(Mod::Rpi);
        let ftz = i.has(Mod::Ftz) as u32;
        let sat = i.has(Mod::Sat);
        let (dk, ak) = (dty.kind() == TypeKind::Float, aty.kind() == TypeKind::Float);
        let intty = |t: Type| match (t.kind() == TypeKind::Signed, is64(t)) {
            (false, false) => 0,
            (true, false) => 1,
            (false, true) => 2,
            (true, true) => 3,
        };
        match (dk, ak) {
            (false, false) => {
                // int -> int: extend by the source, then truncate or saturate to the destination.
                if is64(aty) || is64(dty) {
                    let x = self.src64(&a[1], aty)?;
                    let Loc::R(x) = x else { unreachable!() };
                    if sat {
                        return Err("cvt.sat with 64-bit integers is not supported by the compiler yet".into());
                    }
                    if is64(dty) {
                        // Source narrower than 64: src64 already widened by the source type... re-widen
                        // from the source's own width.
                        self.define(d);
                        if aty.size() < 8 {
                            let lo = self.norm(Src::Loc(Loc::Half(x, 0)), aty);
                            self.mov(Loc::Half(d, 0), Src::Loc(lo));
                            if aty.kind() == TypeKind::Signed {
                                self.op(Opcode::Shr, &[(ModKind::Sign, 1)], Loc::Half(d, 1), lo, Src::Imm(31), Loc::None);
                            } else {
                                self.mov(Loc::Half(d, 1), Src::Imm(0));
                            }
                        } else {
                            self.mov(Loc::Half(d, 0), Src::Loc(Loc::Half(x, 0)));
                            self.mov(Loc::Half(d, 1), Src::Loc(Loc::Half(x, 1)));
                        }
                    } else {
                        let lo = self.norm(Src::Loc(Loc::Half(x, 0)), dty);
                        self.put32(d, dt, lo, dty);
                    }
                    return Ok(());
                }
                let x = self.src32(&a[1], aty)?;
                let x = self.norm(x, aty);
                let v = if sat {
                    // Clamp the (source-typed) value into the destination range.
                    let (lo, hi): (i64, i64) = match (dty.size(), dty.kind() == TypeKind::Signed) {
                        (1, true) => (-128, 127),
                        (1, false) => (0, 255),
                        (2, true) => (-32768, 32767),
                        (2, false) => (0, 65535),
                        (_, true) => (i32::MIN as i64, i32::MAX as i64),
                        (_, false) => (0, u32::MAX as i64),
                    };
                    let s = aty.kind() == TypeKind::Signed;
                    let t = self.v1();
                    let lo_ok = if s { lo } else { lo.max(0) };
                    let hi_ok = if s { hi.min(i32::MAX as i64) } else { hi };
                    self.op(Opcode::Max, &[(ModKind::Sign, s as u32)], Loc::R(t), x, Src::Imm(lo_ok as u32), Loc::None);
                    let u = self.v1();
                    self.op(Opcode::Min, &[(ModKind::Sign, s as u32)], Loc::R(u), Loc::R(t), Src::Imm(hi_ok as u32), Loc::None);
                    if s && dty.kind() == TypeKind::Unsigned && dty.size() == 4 {
                        // Negative signed into unsigned: clamp at 0 (done by max with 0).
                    }
                    Loc::R(u)
                } else {
                    self.norm(Src::Loc(x), dty)
                };
                self.put32(d, dt, v, dty);
                Ok(())
            }
            (false, true) => {
                // float -> int (saturating, NaN -> 0).
                let r = if int_round { rnd } else { 1 };
                let mods = [
                    (ModKind::Rnd, r),
                    (ModKind::Ftz, ftz),
                    (
                        ModKind::IntTy,
                        intty(if dty.size() < 4 {
                            if dty.kind() == TypeKind::Signed {
                                Type::S32
                            } else {
                                Type::U32
                            }
                        } else {
                            dty
                        }),
                    ),
                ];
                let x = if aty == Type::F64 { self.src64(&a[1], aty)? } else { self.reg32(&a[1], aty)? };
                let x = if aty == Type::F16 { self.h2f(x) } else { x };
                let o = if aty == Type::F64 { Opcode::D2i } else { Opcode::F2i };
                let mods: Vec<(ModKind, u32)> = if aty == Type::F64 { vec![mods[0], mods[2]] } else { mods.to_vec() };
                if is64(dty) {
                    self.define(d);
                    self.op(o, &mods, Loc::R(d), x, Src::Loc(Loc::None), Loc::None);
                } else {
                    let t = self.v1();
                    self.op(o, &mods, Loc::R(t), x, Src::Loc(Loc::None), Loc::None);
                    let v = if dty.size() < 4 {
                        // Saturate into the narrow range.
                        let (lo, hi): (i32, i32) = match (dty.size(), dty.kind() == TypeKind::Signed) {
                            (1, true) => (-128, 127),
                            (1, false) => (0, 255),
                            (2, true) => (-32768, 32767),
                            _ => (0, 65535),
                        };
                        let s = dty.kind() == TypeKind::Signed;
                        let u = self.v1();
                        self.op(Opcode::Max, &[(ModKind::Sign, s as u32)], Loc::R(u), Loc::R(t), Src::Imm(lo as u32), Loc::None);
                        let w = self.v1();
                        self.op(Opcode::Min, &[(ModKind::Sign, s as u32)], Loc::R(w), Loc::R(u), Src::Imm(hi as u32), Loc::None);
                        Loc::R(w)
                    } else {
                        Loc::R(t)
                    };
                    self.put32(d, dt, v, dty);
                }
                Ok(())
            }
            (true, false) => {
                // int -> float.
                let s = aty.kind() == TypeKind::Signed;
                let (x, it) = if is64(aty) {
                    (self.src64(&a[1], aty)?, intty(aty))
                } else {
                    let v = self.src32(&a[1], aty)?;
                    (self.norm(v, aty), if s { 1 } else { 0 })
                };
                let mods = [(ModKind::Rnd, rnd), (ModKind::IntTy, it)];
                match dty {
                    Type::F64 => {
                        self.define(d);
                        self.op(Opcode::I2d, &mods, Loc::R(d), x, Src::Loc(Loc::None), Loc::None);
                    }
                    Type::F32 => self.op(Opcode::I2f, &mods, Loc::R(d), x, Src::Loc(Loc::None), Loc::None),
                    _ => {
                        // int -> f16 through f32 is exact only for small values; round once through f64.
                        let t = self.v2();
                        self.op(Opcode::I2d, &[(ModKind::Rnd, 0), (ModKind::IntTy, it)], Loc::R(t), x, Src::Loc(Loc::None), Loc::None);
                        let u = self.v1();
                        self.op(Opcode::D2f, &[(ModKind::Rnd, rnd)], Loc::R(u), Loc::R(t), Src::Loc(Loc::None), Loc::None);
                        self.op(Opcode::F2h, &[(ModKind::Rnd, rnd)], Loc::R(d), Loc::R(u), Src::Loc(Loc::None), Loc::None);
                    }
                }
                if sat && dty == Type::F32 {
                    self.op(Opcode::Fadd, &[(ModKind::Sat, 1)], Loc::R(d), Loc::R(d), Src::Imm(0x8000_0000), Loc::None);
                }
                Ok(())
            }
            (true, true) => {
                let sm = [(ModKind::Sat, sat as u32)];
                match (dty, aty) {
                    (Type::F32, Type::F32) => {
                        let x = self.reg32(&a[1], aty)?;
                        if int_round {
                            self.op(
                                Opcode::Frnd,
                                &[(ModKind::Rnd, rnd), (ModKind::Ftz, ftz)],
                                Loc::R(d),
                                x,
                                Src::Loc(Loc::None),
                                Loc::None,
                            );
                            if sat {
                                self.op(Opcode::Fadd, &sm, Loc::R(d), Loc::R(d), Src::Imm(0x8000_0000), Loc::None);
                            }
                        } else {
                            // x + (-0) is x exactly; ftz and sat apply.
                            self.op(
                                Opcode::Fadd,
                                &[(ModKind::Ftz, ftz), (ModKind::Sat, sat as u32)],
                                Loc::R(d),
                                x,
                                Src::Imm(0x8000_0000),
                                Loc::None,
                            );
                        }
                    }
                    (Type::F64, Type::F64) => {
                        let x = self.src64(&a[1], aty)?;
                        self.define(d);
                        if int_round {
                            self.op(Opcode::Drnd, &[(ModKind::Rnd, rnd)], Loc::R(d), x, Src::Loc(Loc::None), Loc::None);
                        } else {
                            let Loc::R(xv) = x else { unreachable!() };
                            self.mov(Loc::Half(d, 0), Src::Loc(Loc::Half(xv, 0)));
                            self.mov(Loc::Half(d, 1), Src::Loc(Loc::Half(xv, 1)));
                        }
                        if sat {
                            return Err("cvt.sat.f64 is not supported by the compiler yet".into());
                        }
                    }
                    (Type::F32, Type::F64) => {
                        let x = self.src64(&a[1], aty)?;
                        self.op(
                            Opcode::D2f,
                            &[(ModKind::Rnd, rnd), (ModKind::Ftz, ftz), (ModKind::Sat, sat as u32)],
                            Loc::R(d),
                            x,
                            Src::Loc(Loc::None),
                            Loc::None,
                        );
                    }
                    (Type::F64, Type::F32) => {
                        let x = self.reg32(&a[1], aty)?;
                        self.define(d);
                        self.op(Opcode::F2d, &[(ModKind::Ftz, ftz)], Loc::R(d), x, Src::Loc(Loc::None), Loc::None);
                    }
                    (Type::F16, Type::F32) => {
                        let x = self.reg32(&a[1], aty)?;
                        self.op(Opcode::F2h, &[(ModKind::Rnd, rnd), (ModKind::Ftz, ftz)], Loc::R(d), x, Src::Loc(Loc::None), Loc::None);
                    }
                    (Type::F32, Type::F16) => {
                        let x = self.reg32(&a[1], aty)?;
                        self.op(Opcode::H2f, &[], Loc::R(d), x, Src::Loc(Loc::None), Loc::None);
                        if ftz == 1 || sat {
                            self.op(
                                Opcode::Fadd,
                                &[(ModKind::Ftz, ftz), (ModKind::Sat, sat as u32)],
                                Loc::R(d),
                                Loc::R(d),
                                Src::Imm(0x8000_0000),
                                Loc::None,
                            );
                        }
                    }
                    (Type::F16, Type::F64) => {
                        // Round to odd into binary32 (truncate, then set the last bit if inexact),
                        // then once to binary16: one correct rounding overall.
                        let x = self.src64(&a[1], aty)?;
                        let (t, back) = (self.v1(), self.v2());
                        self.op(Opcode::D2f, &[(ModKind::Rnd, 1)], Loc::R(t), x, Src::Loc(Loc::None), Loc::None);
                        self.op(Opcode::F2d, &[], Loc::R(back), Loc::R(t), Src::Loc(Loc::None), Loc::None);
                        let mut m = MI::new(Opcode::Dsetp);
                        m.inst.set_modifier(ModKind::FCmp, 1);
                        m.inst.d = PRED | (7 << 3);
                        m.a = Loc::R(back);
                        m.b = Src::Loc(x);
                        self.push(m);
                        let odd = self.v1();
                        self.op(Opcode::Or, &[], Loc::R(odd), Loc::R(t), Src::Imm(1), Loc::None);
                        let j = self.v1();
                        let mut s = MI::new(Opcode::Sel);
                        s.inst.mods = PRED;
                        s.d = Loc::R(j);
                        s.a = Loc::R(odd);
                        s.b = Src::Loc(Loc::R(t));
                        self.push(s);
                        self.op(Opcode::F2h, &[(ModKind::Rnd, rnd)], Loc::R(d), Loc::R(j), Src::Loc(Loc::None), Loc::None);
                    }
                    (Type::F64, Type::F16) => {
                        let x = self.reg32(&a[1], aty)?;
                        let t = self.v1();
                        self.op(Opcode::H2f, &[], Loc::R(t), x, Src::Loc(Loc::None), Loc::None);
                        self.define(d);
                        self.op(Opcode::F2d, &[], Loc::R(d), Loc::R(t), Src::Loc(Loc::None), Loc::None);
                    }
                    (Type::F16, Type::F16) => {
                        let x = self.reg32(&a[1], aty)?;
                        self.op(Opcode::And, &[], Loc::R(d), x, Src::Imm(0xffff), Loc::None);
                    }
                    _ => return Err(format!("cvt{}{} is not supported by the compiler yet", dty.name(), aty.name())),
                }
                Ok(())
            }
        }
    }

    fn call(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
        let mut it = a.iter().peekable();
        let mut rets: Vec<Operand> = vec![];
        if let (Some(Operand::List(r, _)), true) = (it.peek().copied(), a.len() > 1) {
            rets = r.clone();
            it.next();
        }
        let target = it.next().ok_or("call needs a target")?.clone();
        let args: Vec<Operand> = match it.next() {
            Some(Operand::List(v, _)) => v.clone(),
            _ => vec![],
        };
        let name = match &target {
            Operand::Name(n) => n.name.clone(),
            _ => return Err("unsupported call target".into()),
        };
        if let Some(sys) = ["vprintf", "malloc", "free", "__assertfail"].iter().position(|s| *s == name) {
            if self.layout.is_external(&name) {
                return self.syscall(sys as u32, &args, &rets);
            }
        }
        // Frame-relative helpers: the callee's frame starts at SP + FRAME.
        let callee = self.layout.func_info(&name);
        let indirect = callee.is_none();
        let info = match callee {
            Some(f) => f.clone(),
            None => {
                // Indirect: the signature comes from the call prototype (the last operand).
                let proto = match a.last() {
                    Some(Operand::Name(p)) => self.protos.get(&p.name).cloned(),
                    _ => None,
                };
                let (r, p) = proto.ok_or("an indirect call needs its .callprototype")?;
                super::layout::FuncInfo::from_sizes(&r, &p)
            }
        };
        for (k, arg) in args.iter().enumerate() {
            let Some(&(off, size)) = info.params.get(k) else { break };
            self.copy_to_callee(arg, off, size)?;
        }
        let target_reg = if indirect { Some(self.reg32(&target, Type::U32)?) } else { None };
        let mut add = MI::new(Opcode::Add);
        add.d = Loc::Phys(SP);
        add.a = Loc::Phys(SP);
        add.b = Src::Imm(FRAME);
        self.push(add);
        match target_reg {
            None => {
                let mut c = MI::new(Opcode::Call);
                c.target = Some(u32::MAX - info.index);
                self.push(c);
            }
            Some(r) => {
                let mut c = MI::new(Opcode::Calli);
                c.a = r;
                self.push(c);
            }
        }
        let mut sub = MI::new(Opcode::Sub);
        sub.d = Loc::Phys(SP);
        sub.a = Loc::Phys(SP);
        sub.b = Src::Imm(FRAME);
        self.push(sub);
        for (k, r) in rets.iter().enumerate() {
            let Some(&(off, size)) = info.rets.get(k) else { break };
            self.copy_from_callee(r, off, size)?;
        }
        Ok(())
    }

    /// Copies an argument into the callee's parameter slot at SP + FRAME + off.
    fn copy_to_callee(&mut self, arg: &Operand, off: u32, size: u32) -> R<()> {
        let frame_slot = match arg {
            Operand::Name(n) => match self.lookup(&n.name) {
                Some(Name::Frame(o)) => Some(o),
                _ => None,
            },
            _ => None,
        };
        for w in 0..size.div_ceil(4) {
            let t = self.v1();
            match frame_slot {
                Some(o) => {
                    self.stack_access(Opcode::Ld, width_code(size), Loc::R(t), o + 4 * w);
                }
                None => {
                    let v = if size == 8 {
                        let p = self.src64(arg, Type::B64)?;
                        let Loc::R(p) = p else { unreachable!() };
                        Src::Loc(Loc::Half(p, w as u8))
                    } else {
                        self.src32(arg, Type::B32)?
                    };
                    self.mov(Loc::R(t), v);
                }
            }
            self.stack_access(Opcode::St, width_code(size), Loc::R(t), FRAME + off + 4 * w);
        }
        Ok(())
    }

    /// `ld`/`st` of local memory at `[SP + off]`; `width` is the ISA's width code.
    fn stack_access(&mut self, op: Opcode, width: u32, r: Loc, off: u32) {
        let mut m = MI::new(op);
        m.inst.set_modifier(ModKind::Space, 3);
        m.inst.set_modifier(ModKind::Width, width);
        m.d = r;
        m.a = Loc::Phys(SP);
        m.b = Src::Imm(off);
        self.push(m);
    }

    fn copy_from_callee(&mut self, dst: &Operand, off: u32, size: u32) -> R<()> {
        let frame_slot = match dst {
            Operand::Name(n) => match self.lookup(&n.name) {
                Some(Name::Frame(o)) => Some(o),
                _ => None,
            },
            _ => None,
        };
        let width = width_code(size);
        match frame_slot {
            Some(o) => {
                for w in 0..size.div_ceil(4) {
                    let t = self.v1();
                    self.stack_access(Opcode::Ld, width, Loc::R(t), FRAME + off + 4 * w);
                    self.stack_access(Opcode::St, width, Loc::R(t), o + 4 * w);
                }
            }
            None => {
                let (d, dt) = self.dst(dst)?;
                if is64(dt) {
                    self.define(d);
                }
                self.stack_access(Opcode::Ld, if is64(dt) { 5 } else { width }, Loc::R(d), FRAME + off);
            }
        }
        Ok(())
    }

    /// vprintf, malloc, free, __assertfail through the ISA's syscall.
    fn syscall(&mut self, sys: u32, args: &[Operand], rets: &[Operand]) -> R<()> {
        // Argument words go to one group of consecutive registers (a virtual
        // register as wide as the call's arguments), in the layout the
        // syscall table gives; results come back in another group.
        let layout: &[u32] = match sys {
            0 => &[8, 8],
            1 | 2 => &[8],
            _ => &[8, 8, 4, 8, 8],
        };
        let nargs = layout.iter().map(|s| s / 4).sum::<u32>() as u8;
        let group = self.vreg(nargs);
        self.define(group);
        let mut reg = 0u8;
        for (k, &size) in layout.iter().enumerate() {
            let arg = args.get(k).ok_or("missing system-call argument")?;
            let slot = match arg {
                Operand::Name(n) => match self.lookup(&n.name) {
                    Some(Name::Frame(o)) => Some(o),
                    _ => None,
                },
                _ => None,
            };
            for w in 0..size / 4 {
                match slot {
                    Some(o) => {
                        self.stack_access(Opcode::Ld, 4, Loc::Half(group, reg), o + 4 * w);
                    }
                    None => {
                        let v = if size == 8 {
                            let p = self.src64(arg, Type::B64)?;
                            let Loc::R(p) = p else { unreachable!() };
                            Src::Loc(Loc::Half(p, w as u8))
                        } else {
                            self.src32(arg, Type::B32)?
                        };
                        self.mov(Loc::Half(group, reg), v);
                    }
                }
                reg += 1;
            }
        }
        // vprintf writes one result word, malloc two; free and assertfail none.
        let nres = match sys {
            0 => 1,
            1 => 2,
            _ => 0,
        };
        let res = if nres > 0 { Some(self.vreg(nres)) } else { None };
        let mut m = MI::new(Opcode::Syscall);
        m.inst.set_modifier(ModKind::SysNo, sys);
        m.a = Loc::R(group);
        m.d = res.map_or(Loc::Phys(RZ), Loc::R);
        self.push(m);
        if let (Some(r), Some(res)) = (rets.first(), res) {
            let size = if sys == 1 { 8 } else { 4 };
            let word = |w: u8| if nres == 1 { Loc::R(res) } else { Loc::Half(res, w) };
            match r {
                Operand::Name(n) => match self.lookup(&n.name) {
                    Some(Name::Frame(o)) => {
                        for w in 0..size / 4 {
                            self.stack_access(Opcode::St, 4, word(w as u8), o + 4 * w);
                        }
                    }
                    Some(Name::Reg(v, t)) => {
                        if is64(t) {
                            self.define(v);
                            self.mov(Loc::Half(v, 0), Src::Loc(word(0)));
                            self.mov(Loc::Half(v, 1), Src::Loc(word(1)));
                        } else {
                            self.mov(Loc::R(v), Src::Loc(word(0)));
                        }
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        Ok(())
    }
}

/// The comparison code that gives the opposite result, NaN included.
fn negate_cmp(op: Opcode, code: u32) -> u32 {
    if matches!(op, Opcode::Fsetp | Opcode::Dsetp) {
        // eq<->neu, ne<->equ, lt<->geu, le<->gtu, gt<->leu, ge<->ltu, num<->nan.
        [7, 6, 11, 10, 9, 8, 1, 0, 5, 4, 3, 2, 13, 12][code as usize]
    } else {
        // eq<->ne, lt<->ge, le<->gt, lo<->hs, ls<->hi.
        [1, 0, 5, 4, 3, 2, 9, 8, 7, 6][code as usize]
    }
}

/// The ISA width code of a by-value piece of `size` bytes moved 4 bytes at a time.
fn width_code(size: u32) -> u32 {
    match size {
        4.. => 4,
        2 => 2,
        _ => 0,
    }
}
