#!/usr/bin/env bash
# The main job: builds and runs the flagship example (examples/flagship.cpp), which trains
# on Fashion-MNIST from Debian's dataset-fashion-mnist package. Installs missing Debian
# packages first. Arguments are passed on to the example.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$TYPEFLOW_ROOT"

bash scripts/install-deps.sh

configure_main_build
cmake --build build -j "$TYPEFLOW_JOBS" --target example_flagship
./build/examples/example_flagship "$@"
