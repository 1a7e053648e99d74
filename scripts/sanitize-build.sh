#!/usr/bin/env bash
# Configures and builds the one instrumented build that scripts/test-sanitizers.sh
# and scripts/fuzz.sh share (build-sanitize/, or $EVALCLI_SANITIZE_BUILD_DIR):
# clang with AddressSanitizer + UndefinedBehaviorSanitizer (any report aborts)
# and libFuzzer's coverage instrumentation, so the same objects serve the test
# suite and the fuzz targets: one build instead of two (CI time, 2-core machines).
# The coverage hooks cost the tests little: without libFuzzer linked in they
# are the sanitizer runtime's empty defaults.
#   scripts/sanitize-build.sh [ninja targets...]     (default: everything)
# No Python module here (-DEVALCLI_PYTHON=OFF): an ASan-built extension cannot be loaded into
# an uninstrumented python3; the module's code is the library the tests here already check.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${EVALCLI_SANITIZE_BUILD_DIR:-build-sanitize}
# -O1 keeps the build and the runs fast; line tables are enough for readable
# stacks (file:line) and compile and link much faster than full -g.
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DEVALCLI_SANITIZE=ON -DEVALCLI_FUZZ=ON -DEVALCLI_BUILD_TESTS=ON -DEVALCLI_PYTHON=OFF >/dev/null
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build "$build" -j"${EVALCLI_JOBS:-2}" "${targets[@]}"
