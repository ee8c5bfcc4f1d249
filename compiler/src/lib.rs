//! Heddle's compiler: the PTX front end ([`ptx`]) and, to come, lowering to
//! the Heddle ISA.

pub mod ptx;
