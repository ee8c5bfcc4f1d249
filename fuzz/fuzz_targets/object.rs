//! Arbitrary bytes as an object file: an error or a valid object, never a panic.
#![no_main]
use heddle_isa::Object;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(obj) = Object::from_bytes(data) {
        assert_eq!(Object::from_bytes(&obj.to_bytes()).as_ref(), Ok(&obj));
    }
});
