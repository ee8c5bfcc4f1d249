//! The SM's exported Verilog runs kernels. Verilator simulates the whole SM
//! as rust-hdl writes it out (the `hdl_gen` translation and the custom
//! blocks' hand-written bodies together), in a Verilog test bench that
//! loads the code and launch registers through the host interface, as the
//! RTL engine does (`host_script`), and answers the Wishbone bus from byte
//! arrays (global memory and the parameter space). The memory it ends with
//! must equal the golden model's, byte for byte, and it must take as many
//! cycles as the rust-hdl simulation of the same SM.
//!
//! The kernels cover the ALU, divergence and reconvergence, a loop, the
//! on-chip shared memory and a barrier in three CTAs (on `default` resident
//! at once, each in its own slot of warps, shared memory and barriers;
//! on `tiny` one after another), and global loads and stores of 1,
//! 2, 4 and 8 bytes whose lanes go to the bus out of address order, several
//! lanes to a transfer.

use heddle_hw::cosim::build_binary;
use heddle_hw::sm::Sm;
use heddle_hw::verilog::verilog_of;
use heddle_hw::SmConfig;
use heddle_isa::asm::assemble;
use heddle_isa::mem::{CONST_WINDOW, PARAM_WINDOW};
use heddle_sim::device::Device;
use heddle_sim::launch::Launch;
use heddle_sim::rtl::{host_script, HostWrite};
use rust_hdl::prelude::*;
use std::fmt::Write as _;
use std::process::Command;

const KERNELS: &str = "
.kernel rotate
    .param out 8
    .shared 1024
    s2r r0, tid.x
    s2r r1, ntid.x
    s2r r7, ctaid.x
    shl r2, r0, 2
    mul.u r3, r0, 3
    add r3, r3, 1
    mul.u r8, r7, 1000
    add r3, r3, r8
    st.shared.b32 [r2], r3
    bar.sync 0
    add r4, r0, 37
rot_mod:
    isetp.hs p0, r4, r1
    @!p0 bra rot_ok, rot_ok
    sub r4, r4, r1
    bra.uni rot_mod
rot_ok:
    shl r4, r4, 2
    ld.shared.b32 r5, [r4]
    mad.u r8, r7, r1, r0
    shl r8, r8, 2
    ld.param.b32 r6, [rz]
    add r6, r6, r8
    st.global.b32 [r6], r5
    exit

.kernel widths
    .param src 8
    .param dst 8
    s2r r0, tid.x
    ld.param.b32 r1, [rz]
    ld.param.b32 r2, [rz+8]
    xor r3, r0, 5
    add r4, r1, r3
    ld.global.u8 r5, [r4]
    shl r6, r3, 1
    add r6, r1, r6
    ld.global.s16 r7, [r6]
    shl r8, r0, 3
    add r8, r1, r8
    ld.global.b64 r10, [r8]
    add r5, r5, r7
    add r5, r5, r10
    xor r5, r5, r11
    shl r9, r3, 2
    add r9, r2, r9
    st.global.b32 [r9], r5
    add r12, r2, 256
    add r12, r12, r0
    st.global.u8 [r12], r7
    shl r13, r0, 1
    add r13, r2, r13
    add r13, r13, 512
    st.global.u16 [r13], r5
    shl r14, r3, 3
    add r14, r2, r14
    add r14, r14, 768
    st.global.b64 [r14], r10
    exit
";

/// Global bytes the test bench holds (the buffers are allocated below this).
const GLOBAL_BYTES: usize = 1 << 16;
const CYCLE_LIMIT: u32 = 200_000;
/// Parameter-space bytes the test bench holds.
const PARAM_BYTES: usize = 64;

fn test_bench(sm: &Sm, params: usize) -> String {
    let words = sm.wb_dat_w.len();
    let w = 4 * words;
    let mut tb = String::from("module tb;\n");
    tb += "reg clock = 0;\nreg host_we = 0;\nreg [4:0] host_addr = 0;\nreg [31:0] host_wdata = 0;\n";
    tb += "reg imem_we = 0;\nreg [31:0] imem_addr = 0;\nreg [63:0] imem_data = 0;\nreg imem_bad = 0;\n";
    tb += "wire wb_cyc, wb_stb, wb_we, done;\nwire [31:0] wb_adr, wb_sel;\nwire [2:0] wb_tga_space;\nwire [3:0] trap_code;\n";
    tb += "reg wb_ack = 0, wb_err = 0, n_ack = 0;\n";
    for i in 0..words {
        writeln!(tb, "wire [31:0] dw{i};\nreg [31:0] dr{i} = 0, n_dr{i} = 0;").unwrap();
    }
    let mut conns = vec![
        ".clock(clock)",
        ".host_we(host_we)",
        ".host_addr(host_addr)",
        ".host_wdata(host_wdata)",
        ".imem_we(imem_we)",
        ".imem_addr(imem_addr)",
        ".imem_data(imem_data)",
        ".imem_bad(imem_bad)",
        ".mem_rdata(64'd0)",
        ".mem_fault(1'b0)",
        ".wb_cyc(wb_cyc)",
        ".wb_stb(wb_stb)",
        ".wb_we(wb_we)",
        ".wb_adr(wb_adr)",
        ".wb_sel(wb_sel)",
        ".wb_tga_space(wb_tga_space)",
        ".wb_ack(wb_ack)",
        ".wb_err(wb_err)",
        ".wb_stall(1'b0)",
        ".wb_tgd_r(64'd0)",
        ".done(done)",
        ".trap_code(trap_code)",
    ]
    .into_iter()
    .map(String::from)
    .collect::<Vec<_>>();
    for i in 0..words {
        conns.push(format!(".wb_dat_w${i}(dw{i})"));
        conns.push(format!(".wb_dat_r${i}(dr{i})"));
    }
    writeln!(tb, "top dut({});", conns.join(", ")).unwrap();
    writeln!(tb, "reg [7:0] gmem [0:{}];\nreg [7:0] pmem [0:{}];", GLOBAL_BYTES - 1, params.max(1) - 1).unwrap();
    tb += "reg [7:0] wbyte [0:31];\nreg [7:0] rbyte [0:31];\n";
    tb += "integer f, r, kind, a, b, cyc, k, base;\nreg [63:0] d;\nreg param;\n";
    tb += "initial begin\n  $readmemh(\"global.hex\", gmem);\n  $readmemh(\"param.hex\", pmem);\n";
    tb += "  f = $fopen(\"script.hex\", \"r\");\n";
    tb += "  while (!$feof(f)) begin\n    r = $fscanf(f, \"%h %h %h %h\\n\", kind, a, d, b);\n";
    tb += "    if (r == 4) begin\n";
    tb += "      if (kind == 0) begin imem_we = 1; imem_addr = a; imem_data = d; imem_bad = b[0]; end\n";
    tb += "      else begin host_we = 1; host_addr = a[4:0]; host_wdata = d[31:0]; end\n";
    tb += "      #1 clock = 1; #1 clock = 0; imem_we = 0; host_we = 0;\n    end\n  end\n";
    writeln!(tb, "  for (cyc = 0; cyc < {CYCLE_LIMIT} && !done; cyc = cyc + 1) begin").unwrap();
    tb += "    #1;\n    n_ack = 0;\n";
    tb += "    if (wb_cyc && wb_stb) begin\n";
    // Parameter space: its explicit space (5) or the generic window.
    writeln!(
        tb,
        "      param = (wb_tga_space == 3'd5) || (wb_tga_space == 3'd0 && wb_adr >= 32'h{PARAM_WINDOW:x} && wb_adr < 32'h{CONST_WINDOW:x});"
    )
    .unwrap();
    writeln!(tb, "      base = param ? (wb_adr & 32'h00ffffff) : wb_adr;").unwrap();
    for i in 0..words {
        for j in 0..4 {
            writeln!(tb, "      wbyte[{}] = dw{i}[{}:{}];", 4 * i + j, 8 * j + 7, 8 * j).unwrap();
        }
    }
    writeln!(tb, "      for (k = 0; k < {w}; k = k + 1) begin").unwrap();
    tb += "        if (param) rbyte[k] = pmem[base + k]; else rbyte[k] = gmem[base + k];\n";
    tb += "        if (wb_we && wb_sel[k] && !param) gmem[base + k] = wbyte[k];\n      end\n";
    for i in 0..words {
        writeln!(tb, "      n_dr{i} = {{rbyte[{}], rbyte[{}], rbyte[{}], rbyte[{}]}};", 4 * i + 3, 4 * i + 2, 4 * i + 1, 4 * i).unwrap();
    }
    tb += "      n_ack = 1;\n    end\n";
    tb += "    clock = 1; #1; clock = 0;\n    wb_ack = n_ack;\n";
    for i in 0..words {
        writeln!(tb, "    dr{i} = n_dr{i};").unwrap();
    }
    tb += "  end\n  f = $fopen(\"result.txt\", \"w\");\n  $fwrite(f, \"%0d %0d %0d\\n\", done, trap_code, cyc);\n  $fclose(f);\n";
    tb += "  $writememh(\"gout.hex\", gmem);\n  $finish;\nend\nendmodule\n";
    tb
}

fn hex_bytes(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}\n")).collect()
}

/// The SM's Verilog and the test bench, built once by Verilator in `dir`.
fn build(cfg: &SmConfig, dir: &std::path::Path) {
    let mut sm = Sm::new(cfg).unwrap();
    sm.connect_all();
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("dut.v"), verilog_of(&sm)).unwrap();
    std::fs::write(dir.join("tb.v"), test_bench(&sm, PARAM_BYTES)).unwrap();
    if let Err(e) = build_binary(dir, "tb", &["tb.v", "dut.v"]) {
        panic!("verilator build failed:\n{e}");
    }
}

/// Runs `launch` (its buffers allocated and initialized, their addresses
/// put in its parameters) on the golden model and on the SM's Verilog
/// built in `dir`; returns the global bytes each ends with.
fn run_both(cfg: &SmConfig, dir: &std::path::Path, launch: &Launch, buffers: &[(u32, Vec<u8>)]) -> (Vec<u8>, Vec<u8>) {
    let obj = assemble("verilog_kernels.hasm", KERNELS).unwrap();
    let mut l = launch.clone();
    let setup = |l: &mut Launch| {
        let mut dev = Device::new(cfg.clone(), obj.clone()).unwrap();
        for (i, (bytes, init)) in buffers.iter().enumerate() {
            let p = dev.alloc(*bytes).unwrap();
            dev.write(p, init).unwrap();
            assert!(p as usize + *bytes as usize <= GLOBAL_BYTES);
            l.params[8 * i..8 * i + 8].copy_from_slice(&p.to_le_bytes());
        }
        dev
    };
    let mut dev = setup(&mut l);
    // The rust-hdl simulation of the same SM, for its cycle count.
    let rtl = setup(&mut l).launch_rtl(&l, &Default::default(), &mut heddle_sim::launch::NoTrace).unwrap();
    assert!(l.params.len() <= PARAM_BYTES);
    // The test bench's global array: the device's first GLOBAL_BYTES (zeros past its end).
    let image = |dev: &Device| {
        let mut b = dev.global.bytes()[..dev.global.bytes().len().min(GLOBAL_BYTES)].to_vec();
        b.resize(GLOBAL_BYTES, 0);
        b
    };
    let before = image(&dev);
    let k = dev.module.kernel(&l.kernel).unwrap().clone();
    let script = host_script(&dev, &k, &l);
    let out = dev.launch(&l).unwrap();
    assert_eq!(out.trap, None);
    let gold = image(&dev);
    assert_ne!(gold, before, "{}: the kernel stored nothing", l.kernel);

    let mut s = String::new();
    for w in &script {
        match *w {
            HostWrite::Code { addr, word, bad } => writeln!(s, "0 {addr:x} {word:x} {}", bad as u8).unwrap(),
            HostWrite::Reg { reg, value } => writeln!(s, "1 {reg:x} {value:x} 0").unwrap(),
        }
    }
    std::fs::write(dir.join("script.hex"), s).unwrap();
    std::fs::write(dir.join("global.hex"), hex_bytes(&before)).unwrap();
    let mut params = l.params.clone();
    params.resize(PARAM_BYTES, 0);
    std::fs::write(dir.join("param.hex"), hex_bytes(&params)).unwrap();
    let ran = Command::new(dir.join("obj_dir/sim")).current_dir(dir).output().unwrap();
    assert!(ran.status.success(), "simulation failed:\n{}", String::from_utf8_lossy(&ran.stderr));
    let result = std::fs::read_to_string(dir.join("result.txt")).unwrap();
    let f: Vec<u32> = result.split_whitespace().map(|x| x.parse().unwrap()).collect();
    assert_eq!((f[0], f[1]), (1, 0), "{}: the Verilog SM did not finish cleanly (done, trap code, cycles: {result})", l.kernel);
    let hw: Vec<u8> = std::fs::read_to_string(dir.join("gout.hex"))
        .unwrap()
        .lines()
        .filter(|x| !x.starts_with("//") && !x.trim().is_empty())
        .map(|x| u8::from_str_radix(x.trim(), 16).unwrap())
        .collect();
    eprintln!("{}: the Verilog SM finished in {} cycles, the rust-hdl one in {}", l.kernel, f[2], rtl.rtl.cycles);
    assert_eq!(f[2] as u64, rtl.rtl.cycles, "{}: Verilog and rust-hdl cycles", l.kernel);
    (gold, hw)
}

/// Both kernels on `cfg`'s Verilog: memory equal to the golden model's.
fn check(cfg: &SmConfig, name: &str) {
    cfg.validate().unwrap();
    let dir = std::env::temp_dir().join(format!("heddle-sm-verilog-{}-{name}", std::process::id()));
    build(cfg, &dir);
    let block = cfg.max_cta_threads().min(64);
    let rotate = Launch { kernel: "rotate".into(), grid: [3, 1, 1], block: [block, 1, 1], params: vec![0; 8], dynamic_shared: 0 };
    let (gold, hw) = run_both(cfg, &dir, &rotate, &[(3 * block * 4, vec![0; 3 * block as usize * 4])]);
    assert!(hw == gold, "{name}: rotate: the Verilog SM's memory differs from the golden model's");
    let src: Vec<u8> = (0..256u32).map(|i| (i.wrapping_mul(151) ^ 0x5a) as u8).collect();
    let widths = Launch { kernel: "widths".into(), grid: [1, 1, 1], block: [16, 1, 1], params: vec![0; 16], dynamic_shared: 0 };
    let (gold, hw) = run_both(cfg, &dir, &widths, &[(256, src), (1024, vec![0; 1024])]);
    assert!(hw == gold, "{name}: widths: the Verilog SM's memory differs from the golden model's");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tiny` with a 64-bit bus, so that its 4 lanes share transfers.
#[test]
fn the_tiny_sm_verilog_runs_kernels_as_the_golden_model_does() {
    check(&SmConfig { bus_bits: 64, ..SmConfig::tiny() }, "tiny64");
}

/// `default`: 8 lanes, a 256-bit bus, FP32 and FP64 units in the Verilog.
#[test]
fn the_default_sm_verilog_runs_kernels_as_the_golden_model_does() {
    check(&SmConfig::default_config(), "default");
}
