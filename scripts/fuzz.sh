#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/fuzz_*.cpp; clang, ASan+UBSan, in the
# build-sanitize/ that scripts/test-sanitizers.sh uses too, see
# scripts/sanitize-build.sh) and runs each for FUZZ_SECONDS (default 20) on its
# committed seed corpus fuzz/corpus/<name>/. New interesting inputs go to
# build-sanitize/corpus-new/<name>/ (the committed corpus is never modified).
# A crash, leak, timeout or sanitizer report fails the run and prints the input
# in hex: turn it into a regression test in tests/unit/fuzz_regressions_test.cpp.
#   scripts/fuzz.sh                 all targets
#   scripts/fuzz.sh signature       one target
#   FUZZ_SECONDS=300 scripts/fuzz.sh tokenizers
set -euo pipefail
cd "$(dirname "$0")/.."
build=${EVALCLI_SANITIZE_BUILD_DIR:-build-sanitize}
seconds=${FUZZ_SECONDS:-20}

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  for source in fuzz/fuzz_*.cpp; do
    name=$(basename "$source" .cpp)
    targets+=("${name#fuzz_}")
  done
fi
executables=()
for name in "${targets[@]}"; do executables+=("fuzz_$name"); done
./scripts/sanitize-build.sh "${executables[@]}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$build/artifacts"
summary=()
failed=0
for name in "${targets[@]}"; do
  seeds=fuzz/corpus/$name
  if [[ ! -d $seeds ]]; then
    echo "fuzz.sh: $seeds is missing: every target needs a seed corpus" >&2
    exit 1
  fi
  work=$build/corpus-new/$name
  mkdir -p "$work"
  log=$build/fuzz-$name.log
  echo "== fuzz_$name for ${seconds}s"
  if "$build/fuzz/fuzz_$name" "$work" "$seeds" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$name-" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    summary+=("fuzz_$name: ${runs:-?} executions in ${seconds}s, no finding")
  else
    failed=1
    tail -40 "$log"
    summary+=("fuzz_$name: FINDING (log: $log)")
    for artifact in "$build/artifacts/$name-"*; do
      [[ -f $artifact ]] || continue
      echo "-- $artifact:"
      od -An -c "$artifact" | head -20
    done
  fi
done
printf '%s\n' "${summary[@]}"
exit "$failed"
