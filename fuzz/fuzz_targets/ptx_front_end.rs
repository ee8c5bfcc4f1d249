//! Arbitrary bytes through the PTX front end: parse, check, and for valid
//! modules the printer round trip and the compiler. Nothing may panic.
#![no_main]
use heddle_compiler::ptx::{load, parse, print, SourceFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let src = SourceFile::new("fuzz.ptx", &text);
    if let Ok(m) = load(&src) {
        let printed = print::module(&m);
        let again = parse(&SourceFile::new("printed.ptx", &printed)).expect("printed PTX parses");
        assert!(again == m, "parse(print(ast)) != ast");
        let _ = heddle_compiler::lower::compile(&src, &m);
    }
});
