//! The vendored rust-hdl crates (`vendor/`) are the published 0.46.0 sources
//! plus the changes their `PATCH.diff` lists, and nothing else: each diff
//! still reverse-applies to the sources exactly (no fuzz, checked without
//! touching them), so an edit made to a vendored file and not to its diff
//! fails here.

use std::process::Command;

#[test]
fn each_vendored_patch_reverse_applies_to_its_sources() {
    for krate in ["rust-hdl-core", "rust-hdl-macros"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("vendor").join(krate);
        let diff = std::fs::File::open(dir.join("PATCH.diff")).unwrap();
        let o = Command::new("patch")
            .current_dir(&dir)
            .args(["--reverse", "--dry-run", "--strip=1", "--fuzz=0", "--force"])
            .stdin(diff)
            .output()
            .expect("`patch` runs (scripts/test.sh installs it)");
        let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success() && !text.contains("offset"), "{krate}: PATCH.diff does not reverse-apply to vendor/{krate}:\n{text}");
    }
}
