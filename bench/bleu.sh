#!/usr/bin/env bash
# Benchmark: evalcli bleu vs SacreBLEU on WMT22 en-de (13a) and en-zh (zh),
# each repeated to 20,370 distinct lines, measured side by side in one run.
# Prints CPU time (user+sys; medians of EVALCLI_RUNS=5 evalcli runs and of REFERENCE_RUNS=1
# SacreBLEU runs, interleaved: bench/lib.sh's bench_side_by_side) and peak RSS of each, and the ratios.
#
# Usage: bench/bleu.sh SACREBLEU_CHECKOUT   (a checkout of mjpost/sacrebleu v2.6.0 with
#        sacrebleu/version.py written by hand; it is run with PYTHONPATH=checkout)
# Needs: a built ./build/evalcli, /usr/bin/time, Debian python3 with
# python3-regex, numpy, tabulate, colorama, portalocker, lxml.
set -euo pipefail
cd "$(dirname "$0")/.."
sacrebleu_dir=${1:?usage: bench/bleu.sh SACREBLEU_CHECKOUT}
shared=../shared/corpora/wmt22
evalcli=./build/evalcli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source bench/lib.sh

run_case() {  # run_case PAIR TARGET_LANG TOKENIZER
  local pair=$1 lang=$2 tok=$3
  bench/make_distinct_corpus.sh "$shared/$pair/hyp.Online-B.$lang" "$work/hyp" 10
  bench/make_distinct_corpus.sh "$shared/$pair/ref.A.$lang" "$work/ref" 10
  ours_run() { bench_measure 1 "$1" "$evalcli" bleu -tok "$tok" -r "$work/ref" -i "$work/hyp" -w 4; }
  reference_run() {
    PYTHONPATH="$sacrebleu_dir" bench_measure 1 "$1" /usr/bin/python3 -m sacrebleu \
      "$work/ref" -i "$work/hyp" -tok "$tok" -w 4 -f text
  }
  read -r ours_cpu ours_kb ref_cpu ref_kb < <(bench_side_by_side "$work/ours.out" "$work/ref.out" ours_run reference_run)
  local ours_score; ours_score=$(cat "$work/ours.out")
  local ref_score; ref_score=$(cat "$work/ref.out")
  printf '%-6s %-5s lines=%d\n' "$pair" "$tok" "$(wc -l < "$work/hyp")"
  printf '  evalcli   cpu %7.3f s  peak %7d KB  %s\n' "$ours_cpu" "$ours_kb" "${ours_score#* = }"
  printf '  sacrebleu cpu %7.3f s  peak %7d KB  %s\n' "$ref_cpu" "$ref_kb" "${ref_score#* = }"
  awk -v a="$ref_cpu" -v b="$ours_cpu" -v c="$ref_kb" -v d="$ours_kb" \
    'BEGIN { printf "  ratio: %.1fx less CPU, %.1fx less peak memory\n", a / (b > 0 ? b : 0.001), c / d }'
}

run_case en-de de 13a
run_case en-zh zh zh
