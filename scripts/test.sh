#!/usr/bin/env bash
# The test command (README): installs what the tests need, then runs them.
# Verilator lints the exported Verilog in the tests; it is installed here
# (Debian/Ubuntu apt, idempotent) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null || { echo "cargo is required (https://rustup.rs)" >&2; exit 2; }
if ! command -v verilator >/dev/null; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends verilator >/dev/null
fi
# Release: the RTL test benches simulate millions of cycles.
cargo build --release --locked
cargo test --workspace --release --locked
