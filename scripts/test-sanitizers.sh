#!/usr/bin/env bash
# Builds evalcli and its tests with AddressSanitizer + UndefinedBehaviorSanitizer
# (scripts/sanitize-build.sh: clang, build-sanitize/) and runs the whole test
# suite. Any sanitizer report aborts the process, so the run fails on the first one.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${EVALCLI_SANITIZE_BUILD_DIR:-build-sanitize}
# render_report_fixture: the HTML report tests' page maker (tests/tools/).
./scripts/sanitize-build.sh evalcli evalcli_tests render_report_fixture
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1}
# Leaks inside third-party libraries on their error paths (each one explained in the file).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Tests that bound the child's address space (ulimit -v / RLIMIT_AS) cannot run
# under ASan, whose shadow memory reserves terabytes of address space: they run
# in the Release suite (scripts/test.sh), where that bound means something.
not_under_sanitizers='resampling memory does not grow with the resample count|CIDEr memory is its n-gram table'
not_under_sanitizers+='|limits: /dev/zero given to a whole-file reader'
# codegen_prefetches reads the machine code of the optimized GCC build (tests/CMakeLists.txt).
not_under_sanitizers+='|codegen_prefetches'
ctest --test-dir "$build" --output-on-failure --no-tests=error -j"${EVALCLI_JOBS:-2}" -E "$not_under_sanitizers"
