//! Vendored: `BitVec<N>`, the representation upstream gives a `Bits<N>`
//! wider than `SHORT_BITS` (64), is uninhabited here. Heddle has no signal
//! wider than 64 bits, and an uninhabited `Bits::Long` variant makes every
//! `Bits<N>` the size of its `u64` (8 bytes instead of N + 8) and lets the
//! compiler drop the long arm of every operation. Building a wider value
//! panics with a message that says so.
use crate::bits::LiteralType;
use std::marker::PhantomData;

/// No value: a `Bits` wider than 64 bits cannot be built in this build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Never {}

#[derive(Debug, Clone, Copy, PartialEq, Hash)]
pub struct BitVec<const N: usize> {
    never: Never,
    width: PhantomData<[bool; N]>,
}

#[cold]
#[track_caller]
fn too_wide(n: usize) -> ! {
    panic!("Bits<{n}>: this build of rust-hdl-core (vendored by heddle) supports bit vectors of at most 64 bits")
}

impl<const N: usize> From<[bool; N]> for BitVec<N> {
    fn from(_: [bool; N]) -> Self {
        too_wide(N)
    }
}

impl<const N: usize> BitVec<N> {
    pub fn to_u128(&self) -> u128 {
        match self.never {}
    }
    pub fn all(&self) -> bool {
        match self.never {}
    }
    pub fn any(&self) -> bool {
        match self.never {}
    }
    pub fn xor(&self) -> bool {
        match self.never {}
    }
    pub fn get_bit(&self, _ndx: usize) -> bool {
        match self.never {}
    }
    pub fn replace_bit(&self, _ndx: usize, _val: bool) -> BitVec<N> {
        match self.never {}
    }
    pub fn resize<const M: usize>(&self) -> BitVec<M> {
        match self.never {}
    }
}

impl<const N: usize> std::ops::Shr<LiteralType> for BitVec<N> {
    type Output = BitVec<N>;
    fn shr(self, _: LiteralType) -> Self::Output {
        match self.never {}
    }
}

impl<const N: usize, const M: usize> std::ops::Shr<BitVec<M>> for BitVec<N> {
    type Output = BitVec<N>;
    fn shr(self, _: BitVec<M>) -> Self::Output {
        match self.never {}
    }
}

impl<const N: usize> std::ops::Shl<LiteralType> for BitVec<N> {
    type Output = BitVec<N>;
    fn shl(self, _: LiteralType) -> Self::Output {
        match self.never {}
    }
}

impl<const N: usize, const M: usize> std::ops::Shl<BitVec<M>> for BitVec<N> {
    type Output = BitVec<N>;
    fn shl(self, _: BitVec<M>) -> Self::Output {
        match self.never {}
    }
}

macro_rules! never_binop {
    ($trait:ident, $method:ident) => {
        impl<const N: usize> std::ops::$trait for BitVec<N> {
            type Output = BitVec<N>;
            fn $method(self, _: Self) -> Self::Output {
                match self.never {}
            }
        }
    };
}

never_binop!(BitOr, bitor);
never_binop!(BitAnd, bitand);
never_binop!(BitXor, bitxor);
never_binop!(Add, add);
never_binop!(Sub, sub);

impl<const N: usize> std::ops::Not for BitVec<N> {
    type Output = BitVec<N>;
    fn not(self) -> Self::Output {
        match self.never {}
    }
}

impl<const N: usize> std::cmp::PartialOrd for BitVec<N> {
    fn partial_cmp(&self, _: &BitVec<N>) -> Option<std::cmp::Ordering> {
        match self.never {}
    }
}

macro_rules! define_vec_from_uint {
    ($name:ident) => {
        impl<const N: usize> From<$name> for BitVec<N> {
            fn from(_: $name) -> Self {
                too_wide(N)
            }
        }
        impl<const N: usize> From<BitVec<N>> for $name {
            fn from(t: BitVec<N>) -> Self {
                match t.never {}
            }
        }
    };
}

define_vec_from_uint!(u8);
define_vec_from_uint!(u16);
define_vec_from_uint!(u32);
define_vec_from_uint!(u64);
define_vec_from_uint!(u128);
define_vec_from_uint!(usize);
define_vec_from_uint!(i8);
define_vec_from_uint!(i16);
define_vec_from_uint!(i32);
define_vec_from_uint!(i64);
define_vec_from_uint!(i128);

#[test]
fn a_bits_is_the_size_of_its_u64() {
    assert_eq!(std::mem::size_of::<crate::bits::Bits<64>>(), 8);
    assert_eq!(std::mem::size_of::<crate::bits::Bits<3>>(), 8);
}

#[test]
#[should_panic(expected = "at most 64 bits")]
fn a_wider_bits_panics_when_built() {
    let _: crate::bits::Bits<65> = crate::bits::Bits::default();
}
