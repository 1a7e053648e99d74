#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/fuzz_*.cpp; clang, ASan+UBSan, in the
# build-sanitize/ that scripts/test-sanitizers.sh uses too, see
# scripts/sanitize-build.sh: after that step only the fuzz executables are
# compiled and linked) and runs each for FUZZ_SECONDS (default 20) starting
# from a temporary copy of its committed seed corpus fuzz/corpus/<name>/, so a
# run never writes into the checkout and always starts from the same seeds.
# Any crash, sanitizer report, leak, timeout (> FUZZ_TIMEOUT s, default 10, on
# one input) or out-of-memory (> FUZZ_RSS_LIMIT_MB, default 2048) fails the run
# (exit 1) and prints the input; the input stays in build-sanitize/fuzz-artifacts/.
# Turn it into a regression input: fuzz/README.md. This is step 4 of .ci/run.
#   scripts/fuzz.sh                 all targets
#   scripts/fuzz.sh signature       one target
#   FUZZ_SECONDS=300 scripts/fuzz.sh tokenizers
set -euo pipefail
cd "$(dirname "$0")/.."
build=${EVALCLI_SANITIZE_BUILD_DIR:-build-sanitize}
seconds=${FUZZ_SECONDS:-20}
timeout=${FUZZ_TIMEOUT:-10}
rss_limit_mb=${FUZZ_RSS_LIMIT_MB:-2048}

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  for source in fuzz/fuzz_*.cpp; do
    name=$(basename "$source" .cpp)
    targets+=("${name#fuzz_}")
  done
fi
executables=()
for name in "${targets[@]}"; do
  if [[ ! -d fuzz/corpus/$name ]]; then
    echo "fuzz.sh: fuzz/corpus/$name is missing: every target needs a seed corpus" >&2
    exit 1
  fi
  executables+=("fuzz_$name")
done
./scripts/sanitize-build.sh "${executables[@]}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
artifacts=$build/fuzz-artifacts
logs=$build/fuzz-logs
mkdir -p "$artifacts" "$logs"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/evalcli-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# The last value libFuzzer printed for stat::<name> (-print_final_stats=1
# prints them at the end of a run and after a finding), or "?".
final_stat() { sed -n "s/^stat::$1: *//p" "$2" | tail -1 | grep . || echo "?"; }

# What stopped a failed run, from libFuzzer's and the sanitizers' reports.
finding_kind() {
  local log=$1
  if grep -q 'ERROR: libFuzzer: timeout' "$log"; then echo timeout
  elif grep -q 'ERROR: libFuzzer: out-of-memory' "$log"; then echo out-of-memory
  elif grep -q 'ERROR: LeakSanitizer' "$log"; then echo leak
  elif grep -q 'ERROR: AddressSanitizer' "$log"; then echo "ASan report"
  elif grep -q 'runtime error:' "$log"; then echo "UBSan report"
  elif grep -q 'evalcli contract broken' "$log"; then echo "error contract broken"
  else echo crash
  fi
}

rows=()
failed=0
for name in "${targets[@]}"; do
  corpus=$scratch/$name
  cp -R "fuzz/corpus/$name" "$corpus"
  log=$logs/$name.log
  rm -f "$artifacts/$name-"*
  echo "== fuzz_$name for ${seconds}s on $(find "$corpus" -type f | wc -l) seeds"
  status=0
  "$build/fuzz/fuzz_$name" "$corpus" -max_total_time="$seconds" -timeout="$timeout" \
    -rss_limit_mb="$rss_limit_mb" -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$name-" >"$log" 2>&1 || status=$?
  executions=$(final_stat number_of_executed_units "$log")
  per_second=$(final_stat average_exec_per_sec "$log")
  if [[ $status -eq 0 ]]; then
    result="ok, corpus $(find "$corpus" -type f | wc -l) inputs"
  else
    failed=1
    result="FAILED: $(finding_kind "$log") (exit $status, log $log)"
    tail -60 "$log"
    for artifact in "$artifacts/$name-"*; do
      [[ -f $artifact ]] || continue
      echo "-- input $artifact ($(wc -c <"$artifact") bytes):"
      od -An -c "$artifact" | head -20
    done
  fi
  rows+=("$(printf '%-22s %8s %12s %10s  %s' "fuzz_$name" "$seconds" "$executions" "$per_second" "$result")")
done

echo
printf '%-22s %8s %12s %10s  %s\n' target seconds executions "execs/s" result
printf '%s\n' "${rows[@]}"
if [[ $failed -ne 0 ]]; then
  echo "fuzz.sh: a fuzz target found an input that fails (above); fix it and commit the input" \
       "as tests/data/fuzz-regressions/<target>/<name> (fuzz/README.md)" >&2
fi
exit "$failed"
