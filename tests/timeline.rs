//! The pictures (`heddle run --timeline`, `--stats-svg`) read back with an
//! XML parser: well-formed, one row per warp, and the counts of
//! tests/timeline/small.hasm, a two-warp kernel counted by hand in its
//! header; and `--trace` lines with their mnemonics.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

const SMALL: &[&str] = &["tests/timeline/small.hasm", "--block", "64", "--arg", "buf:out:u32:64"];

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("heddle-timeline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn heddle(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_heddle")).current_dir(env!("CARGO_MANIFEST_DIR")).arg("run").args(args).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(o.status.code(), Some(0), "{out}{}", String::from_utf8_lossy(&o.stderr));
    out
}

/// `name=count` pairs of a `data-counts` attribute.
fn counts(s: &str) -> BTreeMap<String, u64> {
    s.split_whitespace().map(|kv| kv.split_once('=').unwrap()).map(|(k, v)| (k.to_string(), v.parse().unwrap())).collect()
}

fn map(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
    pairs.iter().map(|&(k, v)| (k.to_string(), v)).collect()
}

/// A timeline's rows: label text, `data-issued`, `data-lanes`, counts.
struct Row {
    label: String,
    issued: u64,
    lanes: u64,
    counts: BTreeMap<String, u64>,
}

struct Picture {
    ticks: u64,
    bin: u64,
    sm: BTreeMap<String, u64>,
    rows: Vec<Row>,
    /// Area (px²) each category's bins cover, from the paths' rectangles.
    area: BTreeMap<String, u64>,
}

/// Area of a path of rectangles `M x y h w v h h -w`.
fn rect_area(d: &str) -> u64 {
    let mut area = 0;
    for rect in d.split('M').filter(|r| !r.is_empty()) {
        let w: u64 = rect.split('h').nth(1).unwrap().split('v').next().unwrap().parse().unwrap();
        let h: u64 = rect.split('v').nth(1).unwrap().split('h').next().unwrap().parse().unwrap();
        area += w * h;
    }
    area
}

fn read_timeline(svg: &str) -> Picture {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    let class = |n: &roxmltree::Node, c: &str| n.attribute("class") == Some(c);
    let sm = doc.descendants().find(|n| class(n, "sm")).expect("the SM row");
    let rows: Vec<Row> = doc
        .descendants()
        .filter(|n| class(n, "row"))
        .map(|n| Row {
            label: n.children().find(|c| c.has_tag_name("text")).and_then(|t| t.text()).unwrap().to_string(),
            issued: n.attribute("data-issued").unwrap().parse().unwrap(),
            lanes: n.attribute("data-lanes").unwrap().parse().unwrap(),
            counts: counts(n.attribute("data-counts").unwrap()),
        })
        .collect();
    assert_eq!(rows.len(), root.attribute("data-rows").unwrap().parse::<usize>().unwrap());
    let mut area = BTreeMap::new();
    for p in doc.descendants().filter(|n| class(n, "bins")) {
        *area.entry(p.attribute("data-cat").unwrap().replace(' ', "_")).or_insert(0) += rect_area(p.attribute("d").unwrap());
    }
    Picture {
        ticks: root.attribute("data-ticks").unwrap().parse().unwrap(),
        bin: root.attribute("data-bin").unwrap().parse().unwrap(),
        sm: counts(sm.attribute("data-counts").unwrap()),
        rows,
        area,
    }
}

/// The golden model: 24 issue slots, one a bin; the rows, their counts and
/// lanes as the kernel's header counts them, and the bins' area agrees.
#[test]
fn the_golden_timeline_has_the_hand_counted_rows() {
    let svg = temp("small-golden.svg");
    heddle(&[SMALL, &["--timeline", svg.to_str().unwrap()]].concat());
    let p = read_timeline(&std::fs::read_to_string(&svg).unwrap());
    assert_eq!((p.ticks, p.bin), (24, 1));
    assert_eq!(p.rows.iter().map(|r| r.label.as_str()).collect::<Vec<_>>(), ["warp 0", "warp 1"]);
    assert_eq!((p.rows[0].issued, p.rows[1].issued), (11, 13));
    assert_eq!((p.rows[0].lanes, p.rows[1].lanes), (352, 376), "warp 1 diverges");
    assert_eq!(p.rows[0].counts, map(&[("alu", 5), ("memory", 3), ("control", 2), ("barrier", 1), ("barrier_wait", 4)]));
    assert_eq!(p.rows[1].counts, map(&[("alu", 6), ("memory", 3), ("control", 3), ("barrier", 1)]));
    assert_eq!(p.sm, map(&[("alu", 11), ("memory", 6), ("control", 5), ("barrier", 2)]));
    // 24 slots in 1000 px: a bin is 41 px wide; an issue slot fills the
    // 13 px band of its warp's row and the 26 px band of the SM row.
    let (warp, sm) = (41 * 13, 41 * 26);
    assert_eq!(p.area["alu"], 11 * (warp + sm));
    assert_eq!(p.area["memory"], 6 * (warp + sm));
    assert_eq!(p.area["barrier_wait"], 4 * warp);
}

/// The RTL: cycles, each one the SM's (SM row totals are the launch's cycles
/// and agree with `--stats`), instructions on the rows they ran on.
#[test]
fn the_rtl_timeline_accounts_for_every_cycle() {
    let (svg, chart) = (temp("small-rtl.svg"), temp("small-rtl-stats.svg"));
    let out = heddle(
        &[SMALL, &["--engine", "rtl", "--stats", "--timeline", svg.to_str().unwrap(), "--stats-svg", chart.to_str().unwrap()]].concat(),
    );
    let p = read_timeline(&std::fs::read_to_string(&svg).unwrap());
    let field = |line: &str, name: &str| -> u64 {
        let l = out.lines().find(|l| l.starts_with(line)).unwrap();
        let w: Vec<&str> = l.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        w[w.iter().position(|&x| x == name).unwrap() + 1].parse().unwrap()
    };
    let cycles: u64 = out.lines().find_map(|l| l.strip_prefix("rtl: ")).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert_eq!(p.ticks, cycles);
    assert_eq!(p.sm.values().sum::<u64>(), cycles, "{:?}", p.sm);
    assert_eq!(p.sm["alu"], field("rtl cycles:", "exec"), "every execute beat is an ALU instruction's");
    assert_eq!(p.sm.get("front_end").copied().unwrap_or(0), field("rtl cycles:", "end"));
    assert_eq!(p.rows.iter().map(|r| r.label.as_str()).collect::<Vec<_>>(), ["slot 0 warp 0", "slot 0 warp 1"]);
    assert_eq!((p.rows[0].issued, p.rows[1].issued), (11, 13));
    assert_eq!((p.rows[0].lanes, p.rows[1].lanes), (352, 376));
    for r in &p.rows {
        assert!(r.counts.contains_key("barrier_wait") || r.counts.contains_key("barrier"), "{}: {:?}", r.label, r.counts);
    }
    // The bar chart: one kernel, its causes adding up to the cycles.
    let text = std::fs::read_to_string(&chart).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed SVG");
    let k: Vec<_> = doc.descendants().filter(|n| n.attribute("class") == Some("kernel")).collect();
    assert_eq!(k.len(), 1);
    assert_eq!(k[0].attribute("data-kernel"), Some("small"));
    assert_eq!(k[0].attribute("data-total").unwrap().parse::<u64>().unwrap(), cycles);
    let causes: BTreeMap<String, u64> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("cause"))
        .map(|n| (n.attribute("data-cause").unwrap().replace(' ', "_"), n.attribute("data-count").unwrap().parse().unwrap()))
        .collect();
    assert_eq!(causes, p.sm);
}

/// The HTML page: self-contained (no external resource), its data the
/// same rows as the picture's.
#[test]
fn the_html_timeline_is_self_contained() {
    let html = temp("small.html");
    heddle(&[SMALL, &["--timeline", html.to_str().unwrap()]].concat());
    let text = std::fs::read_to_string(&html).unwrap();
    assert!(text.starts_with("<!doctype html>"));
    for bad in ["src=", "href=", "@import", "fetch("] {
        assert!(!text.contains(bad), "{bad}");
    }
    assert!(text.replace("http://www.w3.org/2000/svg", "").find("http").is_none(), "no network");
    let at = text.find("const D = ").unwrap() + "const D = ".len();
    let json = &text[at..at + text[at..].find(";\n").unwrap()];
    let d: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(d["end"], 24);
    let rows = d["rows"].as_array().unwrap();
    assert_eq!(rows.iter().map(|r| r["label"].as_str().unwrap()).collect::<Vec<_>>(), ["warp 0", "warp 1"]);
    // Runs: (gap, length, category) triples covering the SM's 24 slots.
    let sm: Vec<u64> = d["sm"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(sm.chunks(3).map(|r| r[0] + r[1]).sum::<u64>(), 24);
    // Retires: (tick delta, pc, lanes) triples.
    assert_eq!(rows[1]["iss"].as_array().unwrap().len(), 13 * 3);
    assert_eq!(d["mn"][3], "bar.sync");
}

/// The PTX interpreter: issue slots named from the PTX instructions.
#[test]
fn the_ptx_engine_draws_a_timeline() {
    let svg = temp("ptx.svg");
    let out =
        heddle(&["--manifest", "tests/corpus/vec_add_f32/case.json", "--engine", "ptx", "--timeline", svg.to_str().unwrap(), "--trace"]);
    let p = read_timeline(&std::fs::read_to_string(&svg).unwrap());
    let issued: u64 = p.rows.iter().map(|r| r.issued).sum();
    assert_eq!(p.ticks, issued);
    assert!(p.sm["fpu"] > 0 && p.sm["memory"] > 0, "{:?}", p.sm);
    assert!(out.lines().next().unwrap().split_whitespace().nth(7).unwrap().starts_with("ld.param"), "{out}");
}

/// `--trace` columns: seq, `cta` C, `warp` W, `pc` P, the mnemonic, `active` A, `exec` E, then effects.
#[test]
fn trace_lines_carry_the_mnemonic() {
    let out = heddle(&[SMALL, &["--trace"]].concat());
    let lines: Vec<Vec<&str>> =
        out.lines().map(|l| l.split_whitespace().collect()).filter(|w: &Vec<&str>| w.get(1) == Some(&"cta")).collect();
    assert_eq!(lines.len(), 24);
    let first = &lines[0];
    assert_eq!(&first[..10], ["1", "cta", "0", "warp", "0", "pc", "0", "s2r", "active", "0xffffffff"]);
    assert_eq!(lines[3][7], "bar.sync");
    assert!(lines.iter().all(|w| w[8] == "active" && w[10] == "exec"));
}
