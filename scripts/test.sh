#!/usr/bin/env bash
# The test command (README): installs what the tests need, then runs them.
# Verilator lints the exported Verilog in the tests; it is installed here
# (Debian/Ubuntu apt, idempotent) when missing. The FPGA tests run YoWASP's
# tools from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null || { echo "cargo is required (https://rustup.rs)" >&2; exit 2; }
# `patch` checks that the vendored crates' PATCH.diff still reverse-applies.
if ! command -v verilator >/dev/null || ! command -v patch >/dev/null; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends verilator patch >/dev/null
fi
# The FPGA flow's tools (tests/fpga.rs): YoWASP's yosys and nextpnr, pinned;
# pip does nothing when they are installed already.
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore -r fpga/requirements.txt
# Release: the RTL test benches simulate millions of cycles.
cargo build --release --locked
cargo test --workspace --release --locked
