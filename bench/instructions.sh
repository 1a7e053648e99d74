#!/usr/bin/env bash
# Instructions executed by two commands on the same input, and their ratio: a count that does not
# move with the machine's load, for a change too small to see through the noise of CPU time on a
# shared VM (CPU time stays the measure of record: instructions ignore cache misses and mispredicted
# branches). Counted by valgrind's cachegrind (apt-get install valgrind), about 50x slower than a run.
#
# Usage: bench/instructions.sh INPUT -- COMMAND_A... -- COMMAND_B...
#   INPUT is each command's standard input (/dev/null for none).
# Example, evalcli against KenLM's query on the same probing binary:
#   bench/instructions.sh text.txt -- query -v summary lm.probing \
#     -- build/evalcli ppl --lm lm.probing --kenlm-output -v summary -j 1
set -euo pipefail
usage="usage: bench/instructions.sh INPUT -- COMMAND_A... -- COMMAND_B..."
input=${1:?$usage}
shift
[[ ${1:-} == -- ]] || { echo "$usage" >&2; exit 2; }
shift
command_a=()
while [[ $# -gt 0 && $1 != -- ]]; do
  command_a+=("$1")
  shift
done
[[ ${1:-} == -- && ${#command_a[@]} -gt 0 && $# -gt 1 ]] || { echo "$usage" >&2; exit 2; }
shift
command_b=("$@")
command -v valgrind > /dev/null || { echo "bench/instructions.sh: needs valgrind" >&2; exit 3; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

count() {  # count OUT COMMAND... -> instructions executed (all threads)
  local out=$1
  shift
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out" "$@" < "$input" > /dev/null 2> "$out.log" ||
    { echo "failed: $*" >&2; cat "$out.log" >&2; exit 1; }
  awk '/^summary:/ {print $2}' "$out"
}

a=$(count "$work/a" "${command_a[@]}")
b=$(count "$work/b" "${command_b[@]}")
printf 'A %15d instructions  %s\n' "$a" "${command_a[*]}"
printf 'B %15d instructions  %s\n' "$b" "${command_b[*]}"
awk -v a="$a" -v b="$b" 'BEGIN { printf "B/A %.3f\n", b / a }'
