//! Assembler diagnostics and the object format's handling of bad input.

use heddle_isa::asm::{assemble, disassemble};
use heddle_isa::object::{Object, ObjectError};

fn first_error(src: &str) -> (usize, usize, String) {
    let e = assemble("t.hasm", src).unwrap_err();
    let d = &e.0[0];
    (d.line, d.col, d.message.clone())
}

#[test]
fn errors_name_line_column_and_show_the_source() {
    let e = assemble("prog.hasm", ".kernel k\n    add r1, r2, r3\n    addx r1, r2, r3\n").unwrap_err();
    let text = e.to_string();
    assert_eq!(text, "error: unknown mnemonic `addx`\n --> prog.hasm:3:5\n  |\n3 |     addx r1, r2, r3\n  |     ^^^^");
}

#[test]
fn each_kind_of_mistake_is_located() {
    let cases: &[(&str, (usize, usize), &str)] = &[
        ("add r1, r2\n", (1, 1), "takes 3 operands"),
        ("add r1, r2, r3, r4\n", (1, 1), "takes 3 operands"),
        ("add r1, r200, r3\n", (1, 9), "expected a register"),
        ("fadd.rq r1, r2, r3\n", (1, 6), "no modifier `.rq`"),
        ("ld.b32.b64 r1, [r2]\n", (1, 8), "conflicts"),
        ("ld r1, [r2]\n", (1, 1), "needs one of .u8"),
        ("mad.u r1, r2, 5, r3\n", (1, 1), "immediate form needs c = rz"),
        ("bra nowhere, nowhere\n", (1, 5), "undefined symbol `nowhere`"),
        ("x:\nx:\n", (2, 1), "defined twice"),
        ("isetp.lt !p1, r1, r2\n", (1, 10), "cannot be negated"),
        ("ld.b64 r1, [r2]\n", (1, 1), "cannot start a group of 2"),
        ("s2r r1, tid.w\n", (1, 9), "unknown special register"),
        ("mov r1, 0x1ffffffff\n", (1, 9), "does not fit"),
        ("    .bogus 3\n", (1, 5), "unknown directive"),
        ("mov r1, #3\n", (1, 9), "unexpected character"),
        ("bra.uni\n", (1, 1), "takes 1 operand"),
        (".const .f32 1.0, oops\n", (1, 18), "expected a number"),
        ("dadd r1, r2, r4\n", (1, 1), "cannot start a group of 2"),
        ("@p9 exit\n", (1, 2), "expected a predicate"),
        ("shfl.down r1|p9, r2, r3, r4\n", (1, 14), "expected a predicate"),
    ];
    for (src, (line, col), msg) in cases {
        let (l, c, m) = first_error(src);
        assert_eq!((l, c), (*line, *col), "{src:?}: {m}");
        assert!(m.contains(msg), "{src:?}: `{m}` lacks `{msg}`");
    }
}

#[test]
fn several_errors_are_reported_together() {
    let e = assemble("t", "foo r1\nadd r1\nexit\nbar.sync\n").unwrap_err();
    assert_eq!(e.0.iter().map(|d| d.line).collect::<Vec<_>>(), vec![1, 2, 4]);
}

fn sample() -> Object {
    assemble(
        "s.hasm",
        ".const msg .b8 0x68, 0x69, 0\n.global counter .b32 7\n.kernel k\n    .param out 8\n    .local 16\n    ld.param.b32 r0, [rz]\n    mov r1, counter\n    bra.uni done\ndone:\n    exit\n",
    )
    .unwrap()
}

#[test]
fn objects_round_trip_and_reject_corruption() {
    let obj = sample();
    let bytes = obj.to_bytes();
    assert_eq!(Object::from_bytes(&bytes).unwrap(), obj);
    // Truncation at every length is an error, never a panic.
    for n in 0..bytes.len() {
        assert!(Object::from_bytes(&bytes[..n]).is_err(), "truncated to {n}");
    }
    let mut bad = bytes.clone();
    bad[0] = b'X';
    assert_eq!(Object::from_bytes(&bad), Err(ObjectError::Magic));
    let mut bad = bytes.clone();
    bad[8] = 9;
    assert_eq!(Object::from_bytes(&bad), Err(ObjectError::Version(9)));
    // Flipping any payload byte is caught by the checksum.
    for i in 24..bytes.len() {
        let mut bad = bytes.clone();
        bad[i] ^= 0x40;
        assert!(Object::from_bytes(&bad).is_err(), "flip at {i}");
    }
}

#[test]
fn objects_with_bad_contents_are_rejected_after_decoding() {
    let mut obj = sample();
    obj.code.push(0x7f); // opcode 0x7f does not exist
    assert!(matches!(Object::from_bytes(&obj.to_bytes()), Err(ObjectError::Code { pc: 4, .. })));
    let mut obj = sample();
    obj.kernels[0].entry = 99;
    assert!(matches!(Object::from_bytes(&obj.to_bytes()), Err(ObjectError::Invalid(_))));
    let mut obj = sample();
    obj.lines[0].file = 5;
    assert!(matches!(Object::from_bytes(&obj.to_bytes()), Err(ObjectError::Invalid(_))));
}

#[test]
fn random_bytes_never_panic() {
    let mut x = 0x1234_5678_9abc_def0u64;
    let good = sample().to_bytes();
    for i in 0..2000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut b = good.clone();
        let at = (x as usize) % b.len();
        b[at] = (x >> 32) as u8;
        if i % 2 == 0 {
            b.truncate((x >> 40) as usize % b.len());
        }
        let _ = Object::from_bytes(&b);
        let text: String = b.iter().map(|&c| (c % 96 + 32) as char).collect();
        let _ = assemble("fuzz", &text);
    }
}

#[test]
fn disassembly_keeps_data_symbols_and_lines() {
    let obj = sample();
    let dis = disassemble(&obj);
    assert!(dis.contains(".const msg .b8 0x68, 0x69, 0x00"), "{dis}");
    assert!(dis.contains(".global counter .b8 0x07, 0x00, 0x00, 0x00"), "{dis}");
    assert!(dis.contains("mov r1, 4096"), "{dis}");
    assert!(dis.contains(".loc 0 6 5"), "{dis}");
    assert_eq!(assemble("d", &dis).unwrap(), obj);
}

/// Found by `cargo fuzz run assembler`: a numeric branch target past the end of the code
/// used to be disassembled as a label that was never defined.
#[test]
fn targets_past_the_end_of_code_round_trip() {
    let obj = assemble("t.hasm", "call\r0x8cDF").unwrap();
    let text = disassemble(&obj);
    let again = assemble("disasm", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(again.to_bytes(), obj.to_bytes());
}
