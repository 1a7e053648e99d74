#!/usr/bin/env bash
# Builds evalcli with its tests and runs them all through CTest.
# Tests are switched on explicitly: build/ may have been configured without
# them (scripts/demo.sh), and the cache would keep that setting. CTest fails
# when it finds no test rather than passing on nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DEVALCLI_BUILD_TESTS=ON
cmake --build build
ctest --test-dir build --output-on-failure --no-tests=error -j"${EVALCLI_JOBS:-2}"
