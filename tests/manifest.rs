//! The launch-manifest runner's exit statuses and messages (issue 4 format),
//! on both engines: 0 every expectation holds, 1 an expectation failed or a
//! trap was unexpected, 2 bad input (manifest or PTX).

use std::process::Command;

fn run(manifest: &str, engine: &str) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_heddle"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "--engine", engine, "--manifest", &format!("tests/manifests/{manifest}.json")])
        .output()
        .unwrap();
    (o.status.code().unwrap_or(-1), format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)))
}

#[test]
fn exit_statuses_on_both_engines() {
    for engine in ["ptx", "golden"] {
        let cases: &[(&str, i32, &str)] = &[
            ("ok", 0, "add_one: ok"),
            // Two elements of the expected file are wrong on purpose.
            ("wrong_expectation", 1, "buffer `out`: 2 of 40 elements differ; first at index 17: expected 999, got 18"),
            ("malformed_ptx", 2, "tests/manifests/malformed.ptx:30:2"),
            ("unexpected_trap", 1, "unexpected trap: out-of-bounds global access of 4 bytes (CTA (1,0,0), warp 0, lane 8"),
            ("expected_trap", 0, "trapped as expected"),
            ("bad_manifest", 2, "takes 3 parameters, the manifest gives 2"),
            ("not_json", 2, "invalid JSON"),
        ];
        for (m, code, text) in cases {
            let (c, out) = run(m, engine);
            assert_eq!(c, *code, "{m} on {engine}: {out}");
            assert!(out.contains(text), "{m} on {engine}: `{text}` not in\n{out}");
        }
    }
}

#[test]
fn json_and_dump() {
    let dir = std::env::temp_dir().join(format!("heddle-dump-{}", std::process::id()));
    let o = Command::new(env!("CARGO_BIN_EXE_heddle"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "--engine", "golden", "--json", "--manifest", "tests/manifests/ok.json", "--dump"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["ok"], true);
    assert_eq!(j["buffers"]["out"]["mismatches"], 0);
    let out = std::fs::read(dir.join("out.bin")).unwrap();
    assert_eq!(out, std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/manifests/expected_out.bin")).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}
