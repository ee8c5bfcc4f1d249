//! Writes the PTX of seeded cases: `ptx_cases DIR FIRST COUNT` writes
//! `DIR/seed-N.ptx` for seeds FIRST..FIRST+COUNT (`scripts/ptx-fuzz-ptxas.sh`).

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, dir, first, count] = &args[..] else {
        eprintln!("usage: ptx_cases DIR FIRST COUNT");
        std::process::exit(2);
    };
    let (first, count): (u64, u64) = (first.parse().expect("FIRST"), count.parse().expect("COUNT"));
    std::fs::create_dir_all(dir).expect("DIR");
    for seed in first..first + count {
        let text = heddle_fuzz::ptx::ptx_case_of_seed(seed).render();
        std::fs::write(format!("{dir}/seed-{seed}.ptx"), text).expect("write");
    }
}
