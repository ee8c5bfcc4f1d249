fn main() {
    std::process::exit(heddle::cli::main());
}
