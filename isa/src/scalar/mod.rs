//! Pure scalar semantics, in one place: the golden model, the PTX reference
//! interpreter, constant folding and the hardware tests all call these.

pub mod fp;
pub mod int;
pub mod sfu;
