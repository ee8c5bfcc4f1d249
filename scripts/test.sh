#!/usr/bin/env bash
# The test command (README): installs what the tests need, then runs them.
# Today the tests need only the Rust toolchain; system packages (verilator,
# yosys, nextpnr) join here, installed idempotently, when the RTL lands.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null || { echo "cargo is required (https://rustup.rs)" >&2; exit 2; }
cargo build --release --locked
cargo test --workspace --locked
