//! The exported Verilog as the flow sees it: its modules (name, ports,
//! the modules each one instantiates), a file holding one module with its
//! children as black boxes (for per-block area), and the scan wrapper
//! that puts any module on four pins for place and route.
//!
//! It reads the shape `heddle export` writes (rust-hdl's generator and the
//! blocks' custom bodies): `module NAME(a,b,...);` on one line, one port
//! declaration per line (`input wire [7:0] a;`), instances as
//! `    CHILD INSTANCE(` lines, `endmodule` closing each.

use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The direction of a port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    In,
    Out,
}

/// One port of a module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub dir: Dir,
    pub width: u32,
}

/// One module of the design.
#[derive(Clone, Debug)]
pub struct Module {
    pub name: String,
    /// Its text, `module` to `endmodule`.
    pub text: String,
    pub ports: Vec<Port>,
    /// The modules it instantiates, by name (each once).
    pub children: Vec<String>,
}

impl Module {
    /// The module's text without its name: modules with the same body are
    /// the same hardware (rust-hdl writes one copy per instance).
    pub fn body(&self) -> String {
        self.text.replacen(&self.name, "", 2)
    }

    /// Whether the module is only flip-flops loading `d` into `q` at the
    /// clock (`Reg`, `Regs`): no children, no logic. Per-block area keeps
    /// such a bank inside its parent, where the parent's "keep the value"
    /// assignments become the flip-flops' clock enables, as they do when
    /// the whole design is flattened.
    pub fn is_flop_bank(&self) -> bool {
        let load = |l: &str| {
            let (q, d) = l.trim_end_matches(';').split_once(" <= ").unwrap_or(("", ""));
            q.starts_with('q') && d.starts_with('d') && q[1..] == d[1..]
        };
        let init = |l: &str| l.starts_with('q') && l.contains(" = ") && !l.contains("<=");
        self.children.is_empty()
            && self.text.lines().skip(1).all(|l| {
                let l = l.trim();
                l.is_empty()
                    || l.starts_with("//")
                    || l.starts_with("input ")
                    || l.starts_with("output ")
                    || l.starts_with("endmodule")
                    || l.starts_with("localparam ")
                    || matches!(l, "initial begin" | "end" | "always @(posedge clock) begin")
                    || load(l)
                    || init(l)
            })
    }

    /// The module as a black box: its ports only.
    pub fn blackbox(&self) -> String {
        let mut s = format!("(* blackbox *)\nmodule {}({});\n", self.name, names(&self.ports));
        for p in &self.ports {
            writeln!(s, "    {} {}{};", dir_word(p.dir), range(p.width), p.name).unwrap();
        }
        s + "endmodule\n"
    }
}

fn dir_word(d: Dir) -> &'static str {
    match d {
        Dir::In => "input wire",
        Dir::Out => "output wire",
    }
}

fn range(width: u32) -> String {
    if width == 1 {
        String::new()
    } else {
        format!("[{}:0] ", width - 1)
    }
}

fn names(ports: &[Port]) -> String {
    ports.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(",")
}

/// The modules of `verilog`, in file order.
pub fn modules(verilog: &str) -> Result<Vec<Module>, String> {
    let mut out: Vec<Module> = Vec::new();
    let mut cur: Option<(String, String)> = None;
    for (n, line) in verilog.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("module ") {
            if cur.is_some() {
                return Err(format!("line {}: `module` inside a module", n + 1));
            }
            let name = rest.split('(').next().unwrap_or("").trim().to_string();
            if name.is_empty() {
                return Err(format!("line {}: a module without a name", n + 1));
            }
            cur = Some((name, String::new()));
        }
        if let Some((_, text)) = cur.as_mut() {
            text.push_str(line);
            text.push('\n');
            if line.starts_with("endmodule") {
                let (name, text) = cur.take().unwrap_or_default();
                let ports = ports(&text).map_err(|e| format!("module {name}: {e}"))?;
                out.push(Module { name, text, ports, children: Vec::new() });
            }
        }
    }
    if let Some((name, _)) = cur {
        return Err(format!("module {name} has no `endmodule`"));
    }
    let known: BTreeSet<String> = out.iter().map(|m| m.name.clone()).collect();
    for m in &mut out {
        let mut seen = BTreeSet::new();
        for line in m.text.lines().skip(1) {
            let t = line.trim_start();
            if let Some((ty, rest)) = t.split_once(' ') {
                if known.contains(ty) && rest.trim_end().ends_with('(') && seen.insert(ty.to_string()) {
                    m.children.push(ty.to_string());
                }
            }
        }
    }
    Ok(out)
}

/// The port declarations of one module's text, in declaration order.
fn ports(text: &str) -> Result<Vec<Port>, String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        let dir = if let Some(r) = t.strip_prefix("input ") {
            (Dir::In, r)
        } else if let Some(r) = t.strip_prefix("output ") {
            (Dir::Out, r)
        } else {
            continue;
        };
        let decl = dir.1.trim_end_matches(';');
        let decl = decl.trim_start_matches("wire").trim_start_matches("reg").trim();
        let (width, name) = match decl.strip_prefix('[') {
            Some(r) => {
                let (bounds, name) = r.split_once(']').ok_or_else(|| format!("cannot read `{t}`"))?;
                let (hi, lo) = bounds.split_once(':').ok_or_else(|| format!("cannot read `{t}`"))?;
                let hi: u32 = hi.trim().parse().map_err(|_| format!("cannot read `{t}`"))?;
                let lo: u32 = lo.trim().parse().map_err(|_| format!("cannot read `{t}`"))?;
                (hi - lo + 1, name.trim())
            }
            None => (1, decl),
        };
        if name.is_empty() || name.contains(' ') {
            return Err(format!("cannot read `{t}`"));
        }
        out.push(Port { name: name.to_string(), dir: dir.0, width });
    }
    Ok(out)
}

/// `name` and every module below it, children after their parents.
pub fn subtree<'a>(all: &'a [Module], name: &str) -> Result<Vec<&'a Module>, String> {
    let find = |n: &str| all.iter().find(|m| m.name == n).ok_or_else(|| format!("no module `{n}` in the design"));
    let mut out = vec![find(name)?];
    let mut seen: BTreeSet<&str> = [out[0].name.as_str()].into();
    let mut i = 0;
    while i < out.len() {
        for c in &out[i].children {
            if seen.insert(c) {
                out.push(find(c)?);
            }
        }
        i += 1;
    }
    Ok(out)
}

/// A file with `m`, its flip-flop banks ([`Module::is_flop_bank`]) in full
/// and its other children as black boxes: what per-block area synthesizes.
pub fn with_blackboxes(all: &[Module], m: &Module) -> String {
    let mut s = m.text.clone();
    for c in &m.children {
        if let Some(child) = all.iter().find(|x| &x.name == c) {
            s.push('\n');
            s.push_str(&if child.is_flop_bank() { child.text.clone() } else { child.blackbox() });
        }
    }
    s
}

/// The name of the scan wrapper's module.
pub const SCAN_TOP: &str = "heddle_scan";
/// The top of [`port_wrapper`].
pub const BLOCK_TOP: &str = "heddle_block";

/// A wrapper that puts `m` on four pins: `clk`, `sin`, `load`, `sout`.
/// Every input of `m` but its clocks comes from a flip-flop of a shift
/// register fed by `sin`; on `load` a second register takes every output
/// (of those `keep` accepts), which otherwise shifts out on `sout`. So
/// every path into and out of `m` starts and ends at a flip-flop, nothing
/// is constant, and only the outputs `keep` drops are optimised away.
/// Ports named `clock` connect to `clk`.
pub fn scan_wrapper(m: &Module, keep: impl Fn(&Port) -> bool) -> String {
    let ins: Vec<&Port> = m.ports.iter().filter(|p| p.dir == Dir::In && p.name != "clock").collect();
    let outs: Vec<&Port> = m.ports.iter().filter(|p| p.dir == Dir::Out && keep(p)).collect();
    let nin: u32 = ins.iter().map(|p| p.width).sum::<u32>().max(1);
    let nout: u32 = outs.iter().map(|p| p.width).sum::<u32>().max(1);
    let mut s = format!(
        "// Generated by heddle (fpga/src/verilog.rs): `{}` on four pins, for place and route.\n\
         module {SCAN_TOP}(input wire clk, input wire sin, input wire load, output wire sout);\n\
         \x20   reg [{}:0] si = 0;\n    reg [{}:0] so = 0;\n    wire [{}:0] y;\n",
        m.name,
        nin - 1,
        nout - 1,
        nout - 1
    );
    s += if nin == 1 { "    always @(posedge clk) si <= sin;\n" } else { "    always @(posedge clk) si <= {si[NIN:0], sin};\n" };
    s = s.replace("NIN", &(nin.saturating_sub(2)).to_string());
    s += if nout == 1 {
        "    always @(posedge clk) so <= load ? y : 1'b0;\n"
    } else {
        "    always @(posedge clk) so <= load ? y : {1'b0, so[NOUT:1]};\n"
    };
    s = s.replace("NOUT", &(nout - 1).to_string());
    s += "    assign sout = so[0];\n";
    if outs.is_empty() {
        s += "    assign y = 1'b0;\n";
    }
    let mut conns = Vec::new();
    let mut at = 0;
    for p in &ins {
        conns.push(format!(".{}(si[{}:{}])", p.name, at + p.width - 1, at));
        at += p.width;
    }
    at = 0;
    for p in &outs {
        conns.push(format!(".{}(y[{}:{}])", p.name, at + p.width - 1, at));
        at += p.width;
    }
    for p in &m.ports {
        if p.name == "clock" {
            conns.push(".clock(clk)".into());
        }
    }
    writeln!(s, "    {} dut(\n        {}\n    );\nendmodule", m.name, conns.join(",\n        ")).unwrap();
    s
}

/// The top module of a block synthesized on its own with only the outputs
/// `keep` accepts: a module [`BLOCK_TOP`] with `m`'s inputs and those
/// outputs, wired straight through, so yosys removes the logic that only
/// the others use (as the scan wrapper does in a whole build).
pub fn port_wrapper(m: &Module, keep: impl Fn(&Port) -> bool) -> String {
    let ports: Vec<&Port> = m.ports.iter().filter(|p| p.dir == Dir::In || keep(p)).collect();
    let names: Vec<&str> = ports.iter().map(|p| p.name.as_str()).collect();
    let mut s = format!(
        "// Generated by heddle (fpga/src/verilog.rs): `{}` without the outputs left out.\nmodule {BLOCK_TOP}({});\n",
        m.name,
        names.join(",")
    );
    for p in &ports {
        let dir = if p.dir == Dir::In { "input" } else { "output" };
        writeln!(s, "    {dir} wire [{}:0] {};", p.width - 1, p.name).unwrap();
    }
    let conns: Vec<String> = names.iter().map(|n| format!(".{n}({n})")).collect();
    writeln!(s, "    {} dut(\n        {}\n    );\nendmodule", m.name, conns.join(",\n        ")).unwrap();
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "module top(clock,a,y);\n    input wire  clock;\n    input wire  [7:0] a;\n    output reg  [8:0] y;\n    \
                       top$inc inc(\n        .a(a),\n        .y(y)\n    );\nendmodule // top\n\n\
                       module top$inc(a,y);\n    input wire  [7:0] a;\n    output reg  [8:0] y;\n    always @(*) y = a + 1;\nendmodule // top$inc\n";

    #[test]
    fn reads_modules_ports_and_children() {
        let ms = modules(TWO).unwrap();
        assert_eq!(ms.len(), 2);
        assert_eq!(ms[0].name, "top");
        assert_eq!(ms[0].children, vec!["top$inc".to_string()]);
        assert_eq!(ms[0].ports[1], Port { name: "a".into(), dir: Dir::In, width: 8 });
        assert_eq!(ms[1].ports[1], Port { name: "y".into(), dir: Dir::Out, width: 9 });
        let sub: Vec<_> = subtree(&ms, "top").unwrap().iter().map(|m| m.name.clone()).collect();
        assert_eq!(sub, vec!["top", "top$inc"]);
        assert!(subtree(&ms, "nope").is_err());
    }

    #[test]
    fn blackbox_and_wrapper_shapes() {
        let ms = modules(TWO).unwrap();
        let f = with_blackboxes(&ms, &ms[0]);
        assert!(f.contains("(* blackbox *)\nmodule top$inc(a,y);\n    input wire [7:0] a;\n    output wire [8:0] y;\nendmodule"));
        let w = scan_wrapper(&ms[0], |_| true);
        assert!(w.contains("reg [7:0] si = 0;"), "{w}");
        assert!(w.contains("si <= {si[6:0], sin};"), "{w}");
        assert!(w.contains("so <= load ? y : {1'b0, so[8:1]};"), "{w}");
        assert!(w.contains(".a(si[7:0])") && w.contains(".y(y[8:0])") && w.contains(".clock(clk)"), "{w}");
        // Without the output y: the inputs pass straight through, y is left unconnected.
        let p = port_wrapper(&ms[0], |p| p.name != "y");
        assert!(p.contains("module heddle_block(clock,a);\n    input wire [0:0] clock;\n    input wire [7:0] a;\n"), "{p}");
        assert!(p.contains("top dut(\n        .clock(clock),\n        .a(a)\n    );"), "{p}");
    }

    #[test]
    fn flip_flop_banks_are_kept_inside_their_parents() {
        let bank = "module top$r(d$0,d$1,q$0,q$1,clock);\n    input wire  [7:0] d$0;\n    input wire  [7:0] d$1;\n    \
                    output reg  [7:0] q$0;\n    output reg  [7:0] q$1;\n    input wire  clock;\n    // Update code (custom)\n    \
                    initial begin\n       q$0 = 8'h0;\n       q$1 = 8'h0;\n    end\n    \
                    always @(posedge clock) begin\n       q$0 <= d$0;\n       q$1 <= d$1;\n    end\nendmodule // top$r\n";
        let ms = modules(bank).unwrap();
        assert!(ms[0].is_flop_bank());
        // Any logic, or a flip-flop loading another input, is not a bank.
        assert!(!modules(&bank.replace("q$1 <= d$1;", "q$1 <= d$0;")).unwrap()[0].is_flop_bank());
        assert!(!modules(&bank.replace("q$1 <= d$1;", "q$1 <= d$1 + 1;")).unwrap()[0].is_flop_bank());
        assert!(!modules(TWO).unwrap()[1].is_flop_bank());
        let parent = format!("module top(clock,y);\n    input wire  clock;\n    output reg  [7:0] y;\n    top$r r(\n        .clock(clock)\n    );\nendmodule\n{bank}");
        let ms = modules(&parent).unwrap();
        assert!(with_blackboxes(&ms, &ms[0]).contains("q$1 <= d$1;"));
    }

    #[test]
    fn unreadable_verilog_is_an_error() {
        assert!(modules("module a(x);\n input wire [q:0] x;\nendmodule\n").is_err());
        assert!(modules("module a(x);\n").is_err());
    }
}
