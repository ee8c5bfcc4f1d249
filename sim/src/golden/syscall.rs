//! The golden model's `syscall` instruction: each executing lane's call,
//! serviced by [`crate::syscall::service`].

use super::{Cta, Dec, Machine};
use crate::syscall::{self, Regions};
use crate::trap::Trap;
use heddle_isa::table::ModKind;

impl Machine<'_> {
    pub(super) fn syscall(&mut self, cta: &mut Cta, w: usize, pc: u32, dec: &Dec, exec: u64) -> Result<(), Box<Trap>> {
        let sys = dec.inst.modifier(ModKind::SysNo);
        let ws = self.ws;
        let (a, d) = (self.ri(w, dec.a), self.ri(w, dec.dw));
        let per = self.local_bytes as usize;
        let mut mm = exec;
        while mm != 0 {
            let l = mm.trailing_zeros() as usize;
            mm &= mm - 1;
            self.stats.syscalls += 1;
            let args: [u32; 7] = std::array::from_fn(|k| cta.regs[a + k * ws + l]);
            let base = (w * ws + l) * per;
            let regions = Regions { shared: &cta.shared, local: &cta.local[base..base + per], consts: self.consts, params: self.params };
            match syscall::service(sys, &args, self.global, regions, &mut self.stdout) {
                Ok(v) => {
                    let n = syscall::result_regs(sys).unwrap_or(0) as usize;
                    for k in 0..n {
                        cta.regs[d + k * ws + l] = (v >> (32 * k)) as u32;
                    }
                }
                Err((kind, addr)) => return Err(self.trap(cta, w, Some(l), pc, kind, addr)),
            }
        }
        Ok(())
    }
}
