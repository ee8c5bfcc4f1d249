use std::fmt::Debug;

use crate::ast::VerilogLiteral;
use crate::bits::{Bit, Bits};
use crate::clock::Clock;
use crate::signed::Signed;
use crate::type_descriptor::{TypeDescriptor, TypeKind};

#[derive(Clone, PartialEq, Debug)]
pub enum VCDValue {
    Single(vcd::Value),
    Vector(Vec<vcd::Value>),
    String(String),
    Composite(Vec<Box<VCDValue>>),
}

impl From<bool> for VCDValue {
    fn from(x: bool) -> Self {
        if x {
            VCDValue::Single(vcd::Value::V1)
        } else {
            VCDValue::Single(vcd::Value::V0)
        }
    }
}

pub trait Synth: Default + Copy + PartialEq + Debug {
    const BITS: usize;
    fn descriptor() -> TypeDescriptor;
    fn vcd(self) -> VCDValue;
    fn verilog(self) -> VerilogLiteral;
    fn bits(self) -> usize {
        Self::BITS
    }
    /// Vendored: the value as its bits in a `u64` (bit 0 the least
    /// significant), for a trace writer that compares and formats values
    /// without building a `VCDValue`; `None` for a type without such a form
    /// (an enum), which is traced through `vcd`.
    fn raw(self) -> Option<u64> {
        None
    }
}

impl<const N: usize> Synth for Bits<N> {
    const BITS: usize = N;

    fn descriptor() -> TypeDescriptor {
        TypeDescriptor {
            name: format!("Bits::<{}>", Self::BITS),
            kind: TypeKind::Bits(Self::BITS),
        }
    }

    fn vcd(self) -> VCDValue {
        self.into()
    }

    fn verilog(self) -> VerilogLiteral {
        self.into()
    }

    fn raw(self) -> Option<u64> {
        Some(self.to_u64())
    }
}

impl Synth for Bit {
    const BITS: usize = 1;

    fn descriptor() -> TypeDescriptor {
        TypeDescriptor {
            name: "Bit".to_string(),
            kind: TypeKind::Bits(1),
        }
    }

    fn vcd(self) -> VCDValue {
        if self {
            VCDValue::Single(vcd::Value::V1)
        } else {
            VCDValue::Single(vcd::Value::V0)
        }
    }

    fn verilog(self) -> VerilogLiteral {
        self.into()
    }

    fn raw(self) -> Option<u64> {
        Some(self as u64)
    }
}

impl Synth for Clock {
    const BITS: usize = 1;

    fn descriptor() -> TypeDescriptor {
        TypeDescriptor {
            name: "clock".to_string(),
            kind: TypeKind::Bits(1),
        }
    }

    fn vcd(self) -> VCDValue {
        self.clk.into()
    }

    fn verilog(self) -> VerilogLiteral {
        self.clk.into()
    }

    fn raw(self) -> Option<u64> {
        Some(self.clk as u64)
    }
}

impl<const N: usize> Synth for Signed<N> {
    const BITS: usize = N;
    fn descriptor() -> TypeDescriptor {
        TypeDescriptor {
            name: format!("Signed::<{}>", Self::BITS),
            kind: TypeKind::Signed(Self::BITS),
        }
    }
    fn vcd(self) -> VCDValue {
        self.inner().vcd()
    }
    fn verilog(self) -> VerilogLiteral {
        self.inner().into()
    }
    fn raw(self) -> Option<u64> {
        self.inner().raw()
    }
}
