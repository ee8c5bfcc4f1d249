//! Instruction selection: Warp and CTA operations: barriers (with reductions), vote, `activemask`, shuffle and `match`.

use super::*;
use heddle_isa::values::{BarMode, RedOp, ShflMode, VoteMode};

impl Sel<'_> {
    /// `match.any`/`match.all`: each of the 32 lanes' values is fetched with
    /// `shfl.idx` and compared with the thread's own; the lanes that agree,
    /// masked by the active mask, are the `any` result. Like the PTX
    /// interpreter, the member mask is taken to be the active threads.
    pub(super) fn match_sync(&mut self, i: &Inst) -> R<()> {
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
                m.inst.set(ICmp::Eq);
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
        m.inst.set(ICmp::Eq);
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

    /// `bar`/`barrier`: sync, arrive, and the `.red` reductions.
    pub(super) fn barrier(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
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
                RedOp::Popc
            } else if i.has(Mod::And) {
                RedOp::And
            } else {
                RedOp::Or
            };
            let mut m = MI::new(Opcode::Barred);
            m.inst.set(op);
            m.inst.a = PRED2 | (neg as u8) << 3;
            m.d = Loc::R(d);
            m.b = id;
            self.push(m);
            return Ok(());
        }
        let id = self.src32(&a[0], Type::U32)?;
        let cnt = if a.len() > 1 { self.reg32(&a[1], Type::U32)? } else { Loc::Phys(RZ) };
        let mut m = MI::new(Opcode::Bar);
        m.inst.set(if i.has(Mod::Arrive) { BarMode::Arrive } else { BarMode::Sync });
        m.b = id;
        m.a = cnt;
        self.push(m);
        Ok(())
    }

    /// `vote.all`/`.any`/`.uni`/`.ballot`.
    pub(super) fn vote(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
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
                VoteMode::All
            } else if i.has(Mod::Any) {
                VoteMode::Any
            } else {
                VoteMode::Uni
            };
            let mut m = MI::new(Opcode::Vote);
            m.inst.set(mode);
            m.inst.d = PRED;
            m.inst.a = PRED2;
            self.push(m);
            self.sel01(d, PRED);
        }
        Ok(())
    }

    /// `activemask`: the warp's active lanes.
    pub(super) fn activemask(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
        let (d, _) = self.dst(&a[0])?;
        let mut m = MI::new(Opcode::S2r);
        m.d = Loc::R(d);
        m.inst.a = SReg::ActiveMask as u8;
        self.push(m);
        Ok(())
    }

    /// `shfl` in each mode, with the optional in-range predicate.
    pub(super) fn shfl(&mut self, i: &Inst) -> R<()> {
        let a = &i.args;
        let (d, p) = match &a[0] {
            Operand::Pair(x, y) => (self.dst(&Operand::Name(x.clone()))?.0, Some(self.dst(&Operand::Name(y.clone()))?.0)),
            o => (self.dst(o)?.0, None),
        };
        let x = self.reg32(&a[1], Type::B32)?;
        let b = self.src32(&a[2], Type::U32)?;
        let c = self.reg32(&a[3], Type::U32)?;
        let mode = if i.has(Mod::Up) {
            ShflMode::Up
        } else if i.has(Mod::Down) {
            ShflMode::Down
        } else if i.has(Mod::Bfly) {
            ShflMode::Bfly
        } else {
            ShflMode::Idx
        };
        let b = Src::Loc(self.in_reg(b));
        let mut m = MI::new(Opcode::Shfl);
        m.inst.set(mode);
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
}
