//! Heddle's compiler: the PTX front end ([`ptx`]) and the lowering of
//! checked PTX to the Heddle ISA ([`lower`]).

pub mod lower;
pub mod ptx;
