//! Instruction selection: Calls: parameters through the callee's frame, and the system calls (`vprintf`, `malloc`, `free`, `__assertfail`).

use super::*;
use heddle_isa::syscall::Syscall;

impl Sel<'_> {
    pub(super) fn call(&mut self, i: &Inst) -> R<()> {
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
        if let Some(sys) = Syscall::by_ptx_name(&name) {
            if self.layout.is_external(&name) {
                return self.syscall(sys, &args, &rets);
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
                crate::lower::layout::FuncInfo::from_sizes(&r, &p)
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
    pub(super) fn copy_to_callee(&mut self, arg: &Operand, off: u32, size: u32) -> R<()> {
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
    pub(super) fn stack_access(&mut self, op: Opcode, width: Width, r: Loc, off: u32) {
        let mut m = MI::new(op);
        m.inst.set(values::Space::Local);
        m.inst.set(width);
        m.d = r;
        m.a = Loc::Phys(SP);
        m.b = Src::Imm(off);
        self.push(m);
    }

    pub(super) fn copy_from_callee(&mut self, dst: &Operand, off: u32, size: u32) -> R<()> {
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
                self.stack_access(Opcode::Ld, if is64(dt) { Width::B64 } else { width }, Loc::R(d), FRAME + off);
            }
        }
        Ok(())
    }

    /// vprintf, malloc, free, __assertfail through the ISA's syscall.
    pub(super) fn syscall(&mut self, sys: &Syscall, args: &[Operand], rets: &[Operand]) -> R<()> {
        // Argument words go to one group of consecutive registers (a virtual
        // register as wide as the call's arguments), in the layout the
        // syscall table gives; results come back in another group.
        let layout: Vec<u32> = sys.args.iter().map(|&(_, bytes)| bytes).collect();
        let nargs = sys.arg_regs();
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
                        self.stack_access(Opcode::Ld, Width::B32, Loc::Half(group, reg), o + 4 * w);
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
        let nres = sys.result_regs().unwrap_or(0);
        let res = if nres > 0 { Some(self.vreg(nres)) } else { None };
        let mut m = MI::new(Opcode::Syscall);
        m.inst.set_modifier(ModKind::SysNo, sys.no);
        m.a = Loc::R(group);
        m.d = res.map_or(Loc::Phys(RZ), Loc::R);
        self.push(m);
        if let (Some(r), Some(res)) = (rets.first(), res) {
            let size = 4 * nres as u32;
            let word = |w: u8| if nres == 1 { Loc::R(res) } else { Loc::Half(res, w) };
            match r {
                Operand::Name(n) => match self.lookup(&n.name) {
                    Some(Name::Frame(o)) => {
                        for w in 0..size / 4 {
                            self.stack_access(Opcode::St, Width::B32, word(w as u8), o + 4 * w);
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
