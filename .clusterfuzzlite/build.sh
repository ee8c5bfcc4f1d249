#!/bin/bash -eu
# Builds Heddle's cargo-fuzz targets (fuzz/) into $OUT, as ClusterFuzzLite
# and OSS-Fuzz run it (`compile` in their base-builder-rust image, nightly
# and sanitizers). Run by hand (docs/fuzzing.md) with SRC and OUT set and
# CARGO_FUZZ_FLAGS="-s none" to build on stable without sanitizers.
cd "${HEDDLE_SRC:-$SRC/heddle}/fuzz"
# shellcheck disable=SC2086
cargo fuzz build -O ${CARGO_FUZZ_FLAGS:-}
dir=target/x86_64-unknown-linux-gnu/release
for t in ptx_front_end assembler object differential; do
    cp "$dir/$t" "$OUT/"
    # The seed corpus of a target, when the repository has one.
    if [ -d "corpus/$t" ]; then
        (cd "corpus/$t" && zip -q -r "$OUT/${t}_seed_corpus.zip" .)
    fi
done
