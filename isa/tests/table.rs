//! The instruction table tested against itself: no overlapping encodings,
//! encode/decode and print/parse round trips, the reference doc in sync.

use heddle_isa::asm::{assemble, print};
use heddle_isa::fields::{self, PT, RZ};
use heddle_isa::table::{mod_info, ModKind, MODS, TABLE};
use heddle_isa::{Format, Inst, Opcode, Operand};
use proptest::prelude::*;

#[test]
fn modifier_table_is_in_kind_order() {
    for (i, m) in MODS.iter().enumerate() {
        assert_eq!(m.kind as usize, i, "{:?}", m.kind);
        assert!(m.lo + m.width <= m.word.width, "{:?} overflows its field", m.kind);
        assert!(m.names.len() <= 1 << m.width, "{:?} has more names than codes", m.kind);
    }
}

#[test]
fn rows_are_consistent() {
    for (i, r) in TABLE.iter().enumerate() {
        assert_eq!(r.opcode, Opcode::ALL[i]);
        assert_eq!(Opcode::from_code(r.opcode as u8), Some(r.opcode));
        assert_eq!(Opcode::from_mnemonic(r.mnemonic), Some(r.opcode), "mnemonics are unique");
        // Modifiers of one row use disjoint bits and distinct names.
        let mut used = [0u32; 2];
        let mut names = vec![];
        for &k in r.mods {
            let m = mod_info(k);
            let w = (m.word == fields::EXT) as usize;
            assert_eq!(used[w] & m.mask(), 0, "{}: {:?} overlaps another modifier", r.mnemonic, k);
            used[w] |= m.mask();
            for n in m.names.iter().filter(|n| !n.is_empty()) {
                assert!(!names.contains(n), "{}: modifier name .{n} is ambiguous", r.mnemonic);
                names.push(n);
            }
        }
    }
}

/// Spike-style check: the fixed bits (opcode) of two rows never match the same word.
#[test]
fn no_two_encodings_overlap() {
    let mask = fields::OPCODE.mask();
    for a in TABLE {
        for b in TABLE {
            if a.opcode != b.opcode {
                let (va, vb) = (fields::OPCODE.put(a.opcode as u64), fields::OPCODE.put(b.opcode as u64));
                assert_ne!(va & mask, vb & mask, "{} and {} overlap", a.mnemonic, b.mnemonic);
            }
        }
    }
    // And every valid word decodes to exactly one instruction: decoding is a function of the
    // word, and re-encoding gives the word back (checked on random words below).
}

/// Builds a valid instruction of row `row` from random bits (or None if the draw is not valid).
fn build(row: usize, bits: [u64; 4]) -> Option<Inst> {
    let r = &TABLE[row % TABLE.len()];
    let mut i = Inst::new(r.opcode);
    i.guard.pred = (bits[0] & 7) as u8;
    i.guard.neg = bits[0] & 8 != 0;
    let reg = |v: u64| -> u8 {
        let r = (v % 130) as u8;
        if r >= 127 {
            RZ
        } else {
            r
        }
    };
    let pred4 = |v: u64| (v & 0xf) as u8;
    for &k in r.mods {
        let m = mod_info(k);
        let n = if m.is_flag() { 2 } else { m.names.len() as u64 };
        i.set_modifier(k, ((bits[1] >> (m.lo + 8 * (m.word == fields::EXT) as u32)) % n) as u32);
    }
    let use_imm = r.imm && bits[2] & 1 == 1;
    let b = if use_imm { Operand::Imm((bits[3] >> 32) as u32) } else { Operand::Reg(reg(bits[3] >> 8)) };
    match r.format {
        Format::None => {}
        Format::Rb => {
            i.d = reg(bits[2] >> 8);
            i.b = b;
        }
        Format::Rr | Format::Syscall => {
            i.d = reg(bits[2] >> 8);
            i.a = reg(bits[2] >> 16);
        }
        Format::Rrb | Format::Ld | Format::St | Format::Rrbc | Format::Atom | Format::Shfl | Format::Sel => {
            i.d = reg(bits[2] >> 8);
            i.a = reg(bits[2] >> 16);
            i.b = b;
            if matches!(r.format, Format::Rrbc | Format::Atom | Format::Shfl) {
                i.c = if use_imm { RZ } else { reg(bits[2] >> 24) };
            }
            if r.format == Format::Sel {
                i.mods = pred4(bits[2] >> 32);
            }
            if r.format == Format::Shfl {
                i.mods = (i.mods & 3) | (((bits[2] >> 40) & 7) as u8) << 2;
            }
        }
        Format::SetP => {
            i.d = (bits[2] >> 8) as u8 & 7 | pred4(bits[2] >> 12) << 3;
            i.a = reg(bits[2] >> 16);
            i.b = b;
        }
        Format::Plop => {
            i.d = (bits[2] >> 8) as u8 & 7;
            i.a = pred4(bits[2] >> 12);
            i.b = Operand::Reg(pred4(bits[2] >> 16));
        }
        Format::Bra => {
            i.b = Operand::Imm((bits[3] % fields::MAX_CODE as u64) as u32);
            i.set_rpc(if bits[2] & 2 == 0 { fields::RPC_NONE } else { (bits[2] >> 8) as u32 % fields::MAX_CODE });
        }
        Format::Call => i.b = Operand::Imm((bits[3] % fields::MAX_CODE as u64) as u32),
        Format::CallInd => i.a = reg(bits[2] >> 16),
        Format::Bar => {
            i.a = reg(bits[2] >> 16);
            i.b = b;
        }
        Format::Vote => {
            i.d = (bits[2] >> 8) as u8 & 7;
            i.a = pred4(bits[2] >> 12);
        }
        Format::Ballot => {
            i.d = reg(bits[2] >> 8);
            i.a = pred4(bits[2] >> 12);
        }
        Format::BarRed => {
            i.d = reg(bits[2] >> 8);
            i.a = pred4(bits[2] >> 12);
            i.b = b;
        }
        Format::S2r => {
            i.d = reg(bits[2] >> 8);
            i.a = (bits[2] >> 16) as u8 % heddle_isa::sreg::SReg::ALL.len() as u8;
        }
    }
    // Align register groups the way a compiler would.
    let counts = i.reg_counts();
    let fix = |r: u8, c: u8| {
        if r == RZ || c == 1 {
            r
        } else {
            (r / c * c).min(127 - c) / c * c
        }
    };
    let [cd, ca, cb, cc] = counts;
    if i.reg_fields()[0].is_some() {
        i.d = fix(i.d, cd);
    }
    if i.reg_fields()[1].is_some() {
        i.a = fix(i.a, ca);
    }
    if let Operand::Reg(r) = i.b {
        if i.reg_fields()[2].is_some() {
            i.b = Operand::Reg(fix(r, cb));
        }
    }
    if i.reg_fields()[3].is_some() {
        i.c = fix(i.c, cc);
    }
    i.validate().ok().map(|_| i)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn decode_encode_round_trip(row in 0usize..1000, bits in any::<[u64; 4]>()) {
        if let Some(i) = build(row, bits) {
            let w = i.encode().unwrap();
            prop_assert_eq!(Inst::decode(w).unwrap(), i);
        }
    }

    #[test]
    fn parse_print_round_trip(row in 0usize..1000, bits in any::<[u64; 4]>()) {
        if let Some(i) = build(row, bits) {
            let mut text = String::new();
            print::write_inst(&mut text, &i, &|pc| pc.to_string()).unwrap();
            let obj = assemble("t.hasm", &format!("{text}\n")).map_err(|e| TestCaseError::fail(format!("{text}\n{e}")))?;
            prop_assert_eq!(Inst::decode(obj.code[0]).unwrap(), i, "{}", text);
        }
    }

    /// Any word that decodes re-encodes to itself: the encoding is one-to-one.
    #[test]
    fn valid_words_re_encode_exactly(w in any::<u64>(), op in 0usize..100) {
        let w = (w & !fields::OPCODE.mask()) | TABLE[op % TABLE.len()].opcode as u64;
        for word in [w, w & 0x0000_0000_ffff_ffff, w & 0xffff_ffff_0000_0fff] {
            if let Ok(i) = Inst::decode(word) {
                prop_assert_eq!(i.encode().unwrap(), word);
            }
        }
    }
}

#[test]
fn every_row_has_a_valid_instance() {
    for (row, info) in TABLE.iter().enumerate() {
        let found = (0..500u64).any(|s| {
            let x = s.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            build(row, [x, x.rotate_left(17), x.rotate_left(31), x.rotate_left(47)]).is_some()
        });
        assert!(found, "no valid instance of {}", info.mnemonic);
    }
}

#[test]
fn isa_doc_is_in_sync() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/isa.md");
    let want = heddle_isa::doc::reference();
    if std::env::var_os("HEDDLE_BLESS").is_some() {
        std::fs::write(path, &want).unwrap();
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "docs/isa.md is stale: run `HEDDLE_BLESS=1 cargo test -p heddle-isa --test table` or `heddle isa-doc > docs/isa.md`"
    );
}

#[test]
fn guard_and_predicates_print() {
    let obj = assemble("t", "@!p3 isetp.lt.or p1, r2, -5, !p0\n@pt sel r1, r2, 7, !pt\n").unwrap();
    let i = Inst::decode(obj.code[0]).unwrap();
    assert_eq!(i.to_string(), "@!p3 isetp.lt.or p1, r2, -5, !p0");
    assert_eq!(i.modifier(ModKind::ICmp), 2);
    assert_eq!(Inst::decode(obj.code[1]).unwrap().to_string(), "sel r1, r2, 7, !pt");
    assert_eq!(PT, 7);
}
