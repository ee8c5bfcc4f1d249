//! Executing prepared PTX: Calls and returns: frames, parameter passing, return values, and the system calls of external functions.

use super::*;
use heddle_isa::syscall::Syscall;

impl Machine<'_> {
    pub(super) fn new_frame(&self, func: usize, local_base: u32) -> Frame {
        let f = &self.prog.funcs[func];
        Frame {
            func,
            regs: vec![0; f.reg_types.len() * self.ws],
            params: vec![0; f.param_area as usize * self.ws],
            local_base,
            ret_to: vec![],
            lanes: full(self.ws),
            caller: 0,
        }
    }

    /// Pops the frames of call entries the stack popped, copying return values back.
    pub(super) fn unwind_frames(&mut self, cta: &mut Cta, w: usize) {
        while cta.warps[w].popped_calls > 0 {
            cta.warps[w].popped_calls -= 1;
            let Some(done) = cta.frames[w].pop() else {
                return;
            };
            let callee = &self.prog.funcs[done.func];
            let Some(caller) = cta.frames[w].get_mut(done.caller) else {
                return;
            };
            let ws = self.ws;
            for (k, dst) in done.ret_to.iter().enumerate() {
                let Some(info) = callee.rets.get(k) else {
                    break;
                };
                if info.offset > u32::MAX / 2 {
                    // A PTX 1.x `.reg` return value: the callee's register.
                    let slot = (u32::MAX - info.offset) as usize;
                    for l in lanes(done.lanes) {
                        let v = done.regs[slot * ws + l];
                        store_param_value(caller, &self.prog.funcs[caller.func], dst, l, ws, &v.to_le_bytes()[..info.size.min(8) as usize]);
                    }
                    continue;
                }
                for l in lanes(done.lanes) {
                    let src = &done.params[l * callee.param_area as usize..];
                    let bytes = &src[info.offset as usize..(info.offset + info.size) as usize];
                    store_param_value(caller, &self.prog.funcs[caller.func], dst, l, ws, bytes);
                }
            }
        }
    }

    pub(super) fn call(&mut self, cta: &mut Cta, w: usize, pc: u32, i: &PInst, exec: u64) -> Result<(), Failure> {
        if exec == 0 {
            return Ok(());
        }
        let mut it = i.args.iter().peekable();
        let mut rets: Vec<Opd> = vec![];
        if let (Some(Opd::List(r)), true) = (it.peek().copied(), i.args.len() > 1) {
            rets = r.clone();
            it.next();
        }
        let target = it.next().cloned().unwrap_or(Opd::Sink);
        let args: Vec<Opd> = match it.next() {
            Some(Opd::List(a)) => a.clone(),
            _ => vec![],
        };
        // Group lanes by callee.
        let mut groups: Vec<(usize, u64)> = vec![];
        for l in lanes(exec) {
            let f = match &target {
                Opd::Func(f) => *f,
                o => {
                    let v = self.read(cta, w, o, Type::U64, l);
                    if v < FUNC_ADDR || v - FUNC_ADDR >= self.prog.funcs.len() as u64 {
                        return Err(Box::new((
                            TrapKind::InvalidInstruction { reason: format!("indirect call to {v:#x}, which is not a function") },
                            Some(l),
                            Some(v),
                        )));
                    }
                    (v - FUNC_ADDR) as usize
                }
            };
            match groups.iter_mut().find(|g| g.0 == f) {
                Some(g) => g.1 |= 1 << l,
                None => groups.push((f, 1 << l)),
            }
        }
        let mut pushed: Vec<(u32, u64)> = vec![];
        let mut frames = vec![];
        for &(f, mask) in &groups {
            let callee = &self.prog.funcs[f];
            if callee.external {
                self.syscall(cta, w, i, &callee.name.clone(), &args, &rets, mask)?;
                continue;
            }
            let caller = cta.frames[w].last().expect("frame");
            let local_base = caller.local_base + self.prog.funcs[caller.func].local_frame;
            if local_base + callee.local_frame > self.local_cap {
                return Err(Box::new((TrapKind::StackOverflow, Some(mask.trailing_zeros() as usize), None)));
            }
            let mut frame = self.new_frame(f, local_base);
            frame.ret_to = rets.clone();
            frame.lanes = mask;
            frame.caller = cta.frames[w].len() - 1;
            // Arguments: the caller's values into the callee's parameters.
            for (k, a) in args.iter().enumerate() {
                let Some(info) = callee.params.get(k) else {
                    break;
                };
                for l in lanes(mask) {
                    let bytes = self.arg_bytes(cta, w, a, info.size, l);
                    store_param_value(&mut frame, callee, &Opd::Sym(Base::FParam(info.offset)), l, self.ws, &bytes);
                    if info.offset > u32::MAX / 2 {
                        // A `.reg` parameter.
                        let slot = u32::MAX - info.offset;
                        let mut b = [0u8; 8];
                        b[..bytes.len().min(8)].copy_from_slice(&bytes[..bytes.len().min(8)]);
                        frame.regs[slot as usize * self.ws + l] = u64::from_le_bytes(b);
                    }
                }
            }
            frames.push(frame);
            pushed.push((0, mask));
        }
        if pushed.is_empty() {
            return Ok(());
        }
        if cta.warps[w].call(pc + 1, &pushed, self.stack_depth).is_err() {
            return Err(Box::new((TrapKind::ReconvergenceStackOverflow { depth: self.stack_depth as u32 }, None, None)));
        }
        // Frames in stack order: the first group's frame ends on top.
        for f in frames.into_iter().rev() {
            cta.frames[w].push(f);
        }
        Ok(())
    }

    /// The bytes a call argument passes (size of the callee's parameter).
    pub(super) fn arg_bytes(&self, cta: &Cta, w: usize, a: &Opd, size: u32, l: usize) -> Vec<u8> {
        let f = self.frame(cta, w);
        match a {
            Opd::Sym(Base::FParam(off)) => {
                let area = self.prog.funcs[f.func].param_area as usize;
                let start = l * area + *off as usize;
                f.params.get(start..start + size as usize).map(|s| s.to_vec()).unwrap_or_else(|| vec![0; size as usize])
            }
            o => {
                let t = match size {
                    1 => Type::B8,
                    2 => Type::B16,
                    4 => Type::B32,
                    _ => Type::B64,
                };
                self.read(cta, w, o, t, l).to_le_bytes()[..size.min(8) as usize].to_vec()
            }
        }
    }

    /// vprintf, malloc, free, __assertfail: serviced by the host, lane by lane.
    pub(super) fn syscall(
        &mut self,
        cta: &mut Cta,
        w: usize,
        _i: &PInst,
        name: &str,
        args: &[Opd],
        rets: &[Opd],
        mask: u64,
    ) -> Result<(), Failure> {
        for l in lanes(mask) {
            self.stats.syscalls += 1;
            let arg = |m: &Self, k: usize, size: u32| -> u64 {
                let mut b = [0u8; 8];
                if let Some(a) = args.get(k) {
                    let v = m.arg_bytes(cta, w, a, size, l);
                    b[..v.len().min(8)].copy_from_slice(&v[..v.len().min(8)]);
                }
                u64::from_le_bytes(b)
            };
            let Some(call) = Syscall::by_ptx_name(name) else {
                let reason = format!("call to `{name}`, which is declared but not defined");
                return Err(Box::new((TrapKind::InvalidInstruction { reason }, Some(l), None)));
            };
            // The PTX arguments as the ISA's argument registers, as many as
            // `syscall::service` reads (`__assertfail`'s char size is not).
            let mut regs = [0u32; 7];
            let mut at = 0;
            for (k, &(_, size)) in call.args.iter().enumerate() {
                let v = arg(self, k, size);
                for (w, word) in regs.iter_mut().skip(at).take(size as usize / 4).enumerate() {
                    *word = (v >> (32 * w)) as u32;
                }
                at += size as usize / 4;
            }
            let regions =
                Regions { shared: &cta.shared, local: &cta.local[w * self.ws + l], consts: &self.prog.const_image, params: self.params };
            let v = syscall::service(call.no, &regs, self.global, regions, &mut self.stdout)
                .map_err(|(kind, addr)| Box::new((kind, Some(l), addr)))?;
            if let (Some((_, size)), Some(dst)) = (call.result, rets.first()) {
                let f = cta.frames[w].last_mut().expect("frame");
                let func = &self.prog.funcs[f.func];
                store_param_value(f, func, dst, l, self.ws, &v.to_le_bytes()[..size as usize]);
            }
        }
        Ok(())
    }

    pub(super) fn exec_ret(&mut self, cta: &mut Cta, w: usize, func_idx: usize, exec: u64) {
        let func: &Func = &self.prog.funcs[func_idx];
        if func.entry {
            cta.warps[w].exit(exec);
        } else {
            cta.warps[w].ret(exec);
        }
        self.check_barriers(cta);
    }
}

/// Stores a parameter value for one lane into a frame: a `.param` location or a register.
pub(super) fn store_param_value(f: &mut Frame, func: &Func, dst: &Opd, l: usize, ws: usize, bytes: &[u8]) {
    match dst {
        Opd::Sym(Base::FParam(off)) | Opd::Addr(Base::FParam(off), _) => {
            let area = func.param_area as usize;
            let start = l * area + *off as usize;
            if let Some(s) = f.params.get_mut(start..start + bytes.len()) {
                s.copy_from_slice(bytes);
            }
        }
        Opd::Reg(slot, ty) => {
            let mut b = [0u8; 8];
            b[..bytes.len().min(8)].copy_from_slice(&bytes[..bytes.len().min(8)]);
            f.regs[*slot as usize * ws + l] = ops::mask(u64::from_le_bytes(b), *ty);
        }
        _ => {}
    }
}
