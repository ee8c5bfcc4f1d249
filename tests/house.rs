//! House rules of the source tree, checked on the files themselves:
//! no source file of `compiler/`, `sim/`, `isa/` or `hw/` is over 1,000
//! lines, and no module of those crates uses another that, directly or
//! through others, uses it back (a module's own submodules and ancestors
//! do not count: they are one room). Issue 22 states both.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const CRATES: &[&str] = &["compiler/src", "sim/src", "isa/src", "hw/src"];
const MAX_LINES: usize = 1000;

type ModPath = Vec<String>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.expect("directory entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a source file under `root` (`ptx/exec/mod.rs` is `ptx::exec`).
fn module_of(root: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(root).expect("under the root").with_extension("");
    let mut parts: ModPath = rel.iter().map(|c| c.to_string_lossy().to_string()).collect();
    if matches!(parts.last().map(String::as_str), Some("lib" | "main" | "mod")) {
        parts.pop();
    }
    parts
}

/// The code of a file without comments and without its `#[cfg(test)]` tests.
fn code(text: &str) -> String {
    let body = text.split("#[cfg(test)]").next().unwrap_or("");
    body.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// Every path that starts with `crate::`, `super::` or `self::`; a group
/// (`use super::{a, b::c}`) gives one path per member.
fn paths(code: &str) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let ident = |i: usize| -> (String, usize) {
        let mut j = i;
        while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
            j += 1;
        }
        (code[i..j].to_string(), j)
    };
    let mut out = vec![];
    let mut i = 0;
    while i < bytes.len() {
        let boundary = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':');
        let (word, mut j) = ident(i);
        if !boundary || !matches!(word.as_str(), "crate" | "super" | "self") {
            i = j.max(i + 1);
            continue;
        }
        let mut path = vec![word];
        while code[j..].starts_with("::") {
            j += 2;
            if code[j..].starts_with('{') {
                let end = code[j..].find('}').map_or(code.len(), |e| j + e);
                for member in code[j + 1..end].split(',') {
                    let first = member.trim().split("::").next().unwrap_or("").trim().to_string();
                    if !first.is_empty() && first != "self" {
                        let mut p = path.clone();
                        p.push(first);
                        out.push(p);
                    }
                }
                j = end;
                break;
            }
            let (next, k) = ident(j);
            if next.is_empty() {
                break;
            }
            path.push(next);
            j = k;
        }
        out.push(path);
        i = j.max(i + 1);
    }
    out
}

/// Module -> the modules it uses (resolved to the deepest module a path names).
fn graph(root: &Path) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let mut files = vec![];
    rust_files(root, &mut files);
    let mods: BTreeMap<ModPath, PathBuf> = files.iter().map(|f| (module_of(root, f), f.clone())).collect();
    let mut edges = BTreeMap::new();
    for (m, f) in &mods {
        let text = std::fs::read_to_string(f).expect("readable source");
        let mut uses = BTreeSet::new();
        for p in paths(&code(&text)) {
            let (mut base, rest): (ModPath, &[String]) = if p[0] == "crate" { (vec![], &p[1..]) } else { (m.clone(), &p[..]) };
            let mut rest = rest;
            while let Some(first) = rest.first().filter(|w| *w == "super" || *w == "self") {
                if first == "super" {
                    base.pop();
                }
                rest = &rest[1..];
            }
            let mut best = base.clone();
            for r in rest {
                base.push(r.clone());
                if mods.contains_key(&base) {
                    best = base.clone();
                } else {
                    break;
                }
            }
            let contains = |a: &ModPath, b: &ModPath| b.len() >= a.len() && b[..a.len()] == a[..];
            if !contains(&best, m) && !contains(m, &best) {
                uses.insert(best);
            }
        }
        edges.insert(m.clone(), uses);
    }
    edges
}

/// A cycle through `start`, if there is one.
fn cycle_through(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>, start: &ModPath) -> Option<Vec<ModPath>> {
    let mut stack = vec![(start.clone(), vec![start.clone()])];
    let mut seen = BTreeSet::new();
    while let Some((m, trail)) = stack.pop() {
        for n in edges.get(&m).into_iter().flatten() {
            if n == start {
                return Some(trail);
            }
            if seen.insert(n.clone()) {
                let mut t = trail.clone();
                t.push(n.clone());
                stack.push((n.clone(), t));
            }
        }
    }
    None
}

fn name(m: &ModPath) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

#[test]
fn no_source_file_is_over_a_thousand_lines() {
    let mut long = vec![];
    for c in CRATES {
        let mut files = vec![];
        rust_files(Path::new(c), &mut files);
        for f in files {
            let n = std::fs::read_to_string(&f).expect("readable").lines().count();
            if n > MAX_LINES {
                long.push(format!("{}: {n} lines", f.display()));
            }
        }
    }
    assert!(long.is_empty(), "files over {MAX_LINES} lines:\n{}", long.join("\n"));
}

#[test]
fn no_module_imports_in_a_circle() {
    let mut circles = vec![];
    for c in CRATES {
        let edges = graph(Path::new(c));
        assert!(edges.len() > 5, "{c}: too few modules found");
        for m in edges.keys() {
            if let Some(trail) = cycle_through(&edges, m) {
                circles.push(format!("{c}: {} -> {}", trail.iter().map(name).collect::<Vec<_>>().join(" -> "), name(m)));
            }
        }
    }
    assert!(circles.is_empty(), "import circles:\n{}", circles.join("\n"));
}

#[test]
fn the_circle_check_sees_a_circle() {
    // Two sibling modules that use each other, and a child that uses its parent (allowed).
    let dir = std::env::temp_dir().join(format!("heddle-house-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("a")).expect("temp dir");
    std::fs::write(dir.join("lib.rs"), "mod a;\nmod b;\n").expect("write");
    std::fs::write(dir.join("a/mod.rs"), "use crate::b::{x, y};\nmod c;\n").expect("write");
    std::fs::write(dir.join("a/c.rs"), "use super::*;\n").expect("write");
    std::fs::write(dir.join("b.rs"), "fn f() { super::a::g() }\n").expect("write");
    let edges = graph(&dir);
    assert!(cycle_through(&edges, &vec!["a".to_string()]).is_some(), "{edges:?}");
    assert!(cycle_through(&edges, &vec!["a".to_string(), "c".to_string()]).is_none(), "{edges:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
