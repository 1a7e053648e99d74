#!/usr/bin/env bash
# Benchmark: each metric's CPU (one thread) against the floor, the cost of reading and splitting
# the same bytes (bench/read_split_floor.cpp, built here with the system compiler at -O2), on
# WMT22 en-de repeated to 20,370 and 203,700 distinct lines. With SACREBLEU_CHECKOUT set, SacreBLEU
# (run from that checkout) is measured on the same files for BLEU, chrF and TER, once per size.
# Prints CPU seconds (user+sys, median of EVALCLI_RUNS=5 runs for evalcli and the floor), the
# ratio to the floor and to SacreBLEU.
#
# Usage: [SACREBLEU_CHECKOUT=DIR] bench/floor.sh     Needs: ./build/evalcli, ../shared, c++.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared/corpora/wmt22
evalcli=./build/evalcli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source bench/lib.sh

c++ -O2 -std=c++17 -o "$work/floor" bench/read_split_floor.cpp

cpu_of() {  # cpu_of RUNS CMD... -> median CPU seconds
  local runs=$1
  shift
  read -r cpu _ < <(bench_measure "$runs" "$work/out" "$@")
  echo "$cpu"
}

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); evalcli -j 1"
printf '%-8s %8s %9s %9s %8s %11s %9s\n' metric lines "floor s" "evalcli s" "/floor" "sacrebleu s" "less CPU"
for copies in 1 10; do
  bench/make_distinct_corpus.sh "$shared/en-de/hyp.Online-B.de" "$work/hyp" $((copies * 10))
  bench/make_distinct_corpus.sh "$shared/en-de/ref.A.de" "$work/ref" $((copies * 10))
  lines=$(wc -l < "$work/hyp")
  floor=$(cpu_of "$EVALCLI_RUNS" "$work/floor" "$work/hyp" "$work/ref")
  for metric in bleu chrf ter meteor rouge cider; do
    ours=$(cpu_of "$EVALCLI_RUNS" "$evalcli" "$metric" -r "$work/ref" -i "$work/hyp" -j 1)
    reference="-" less="-"
    if [[ -n "${SACREBLEU_CHECKOUT:-}" && $metric =~ ^(bleu|chrf|ter)$ ]]; then
      reference=$(PYTHONPATH="$SACREBLEU_CHECKOUT" cpu_of 1 /usr/bin/python3 -m sacrebleu "$work/ref" -i "$work/hyp" -m "$metric")
      less=$(awk -v a="$reference" -v b="$ours" 'BEGIN {printf "%.0fx", a / b}')
    fi
    printf '%-8s %8d %9.3f %9.3f %8.2f %11s %9s\n' "$metric" "$lines" "$floor" "$ours" \
      "$(awk -v a="$ours" -v b="$floor" 'BEGIN {print (b > 0 ? a / b : 0)}')" "$reference" "$less"
  done
done
