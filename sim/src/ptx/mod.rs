//! The PTX reference interpreter: executes a checked PTX module directly,
//! with PTX's exact semantics, on the same launch and memory model and
//! system calls as the golden model. It is the oracle the compiler is held
//! against, so it shares only parsing (`heddle-compiler`'s front end),
//! scalar semantics (`heddle_isa::scalar`) and the memory model with it.
//!
//! ```text
//! checked AST --prep--> Prog (layout, flat instructions, reconvergence points)
//!             --exec--> warps over the SIMT stack, frames per call
//! ```

pub mod cfg;
mod exec;
pub mod ir;
pub mod ops;
pub mod prep;

use heddle_compiler::ptx::ast::Module;
use heddle_compiler::ptx::SourceFile;
use heddle_isa::object::{Kernel, Object, Param};
pub use ir::Prog;

/// Prepares a checked module for the interpreter.
pub fn prepare(src: &SourceFile, m: &Module) -> Result<Prog, String> {
    prep::prepare(src, m)
}

impl Prog {
    /// Where function `f`'s instructions start in the module's numbering:
    /// the PTX engine's trap records name a pc in it (the functions' PTX
    /// instructions one after another, as a compiled object's pcs are).
    pub fn base(&self, f: usize) -> u32 {
        self.funcs[..f].iter().map(|f| f.insts.len() as u32).sum()
    }

    /// The function, offset and source line and column of a trap's pc.
    pub fn locate(&self, pc: u32) -> Option<(&str, u32, u32, u32)> {
        let mut base = 0u32;
        for f in &self.funcs {
            let n = f.insts.len() as u32;
            if pc < base + n {
                let i = &f.insts[(pc - base) as usize];
                return Some((&f.name, pc - base, i.line, i.col));
            }
            base += n;
        }
        None
    }
}

/// The host-side view of a PTX module: kernels with their parameter layout,
/// module data. `Device::from_ptx` loads it like a compiled object.
pub fn facade(p: &Prog) -> Object {
    let kernels = p
        .funcs
        .iter()
        .filter(|f| f.entry)
        .map(|f| {
            let params: Vec<Param> =
                f.params.iter().enumerate().map(|(i, x)| Param { name: format!("param{i}"), offset: x.offset, size: x.size }).collect();
            let param_bytes = params.iter().map(|x| x.offset + x.size).max().unwrap_or(0);
            Kernel { name: f.name.clone(), entry: 0, regs: 0, params, param_bytes, shared_bytes: p.static_shared, local_bytes: 0 }
        })
        .collect();
    Object { kernels, global_data: p.global_image.clone(), const_data: p.const_image.clone(), ..Object::default() }
}

pub(crate) use exec::run;
