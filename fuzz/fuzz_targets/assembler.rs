//! Arbitrary text through the assembler; assembled programs round-trip through the disassembler.
#![no_main]
use heddle_isa::asm::{assemble, disassemble};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(obj) = assemble("fuzz.hasm", &text) {
        let again = assemble("disasm", &disassemble(&obj)).expect("disassembly assembles");
        assert_eq!(again.to_bytes(), obj.to_bytes());
    }
});
