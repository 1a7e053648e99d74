#!/usr/bin/env bash
# Benchmark: -j 1 against -j N (default: every available core) for each segment metric on WMT22
# en-de repeated to 20,370 distinct lines (and --confidence for BLEU), in one run. Prints wall time
# (median of EVALCLI_RUNS=5 runs; threads only shorten wall time, so here it is what counts:
# run it on an otherwise idle machine), CPU time (user+sys), peak RSS, the speed-up and whether
# the outputs are byte-identical (they must be: the script fails otherwise).
#
# Usage: bench/threads.sh [THREADS]     Needs: a built ./build/evalcli, ../shared, /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${1:-$(nproc)}
shared=../shared/corpora/wmt22
evalcli=./build/evalcli
runs=${EVALCLI_RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bench/make_distinct_corpus.sh "$shared/en-de/hyp.Online-B.de" "$work/hyp" 10
bench/make_distinct_corpus.sh "$shared/en-de/ref.A.de" "$work/ref" 10

# measure OUT CMD... -> "wall cpu rss_kb" (medians over $runs runs); the output stays in OUT.
measure() {
  local out=$1
  shift
  local rows=$work/rows
  : > "$rows"
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" < /dev/null > "$out" 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
    awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$work/time" >> "$rows"
  done
  local column
  for column in 1 2 3; do
    sort -n -k$column,$column "$rows" | awk -v n="$runs" -v c=$column 'NR == int((n + 1) / 2) {printf "%s ", $c}'
  done
  echo
}

echo "threads: 1 vs $threads; $runs runs each (median); load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-22s %8s %8s %8s   %8s %8s %8s   %s\n' case "wall -j1" cpu "rss KB" "wall -jN" cpu "rss KB" "speed-up"
run_case() {  # run_case LABEL ARGS...
  local label=$1
  shift
  read -r w1 c1 r1 < <(measure "$work/out1" "$evalcli" "$@" -r "$work/ref" -i "$work/hyp" -j 1)
  read -r wn cn rn < <(measure "$work/outn" "$evalcli" "$@" -r "$work/ref" -i "$work/hyp" -j "$threads")
  cmp -s "$work/out1" "$work/outn" || { echo "$label: OUTPUT DIFFERS between -j 1 and -j $threads" >&2; exit 1; }
  printf '%-22s %8s %8s %8s   %8s %8s %8s   %.2fx\n' "$label" "$w1" "$c1" "$r1" "$wn" "$cn" "$rn" \
    "$(awk -v a="$w1" -v b="$wn" 'BEGIN {print (b > 0 ? a / b : 0)}')"
}
run_case bleu bleu
run_case chrf chrf
run_case "chrf++" chrf --chrf-word-order 2
run_case ter ter
run_case meteor meteor
run_case rouge rouge
run_case "bleu --confidence" bleu --confidence
# ppl: the pruned 5-gram model over its 50,000-line speed text repeated 4 times (scoring, not the load, is threaded).
lm=../shared/corpora/lm
for _ in 1 2 3 4; do zcat "$lm/speed/speed.en.tok.gz"; done > "$work/ppl.txt"
run_ppl() {  # like run_case, for ppl's --lm/-i
  read -r w1 c1 r1 < <(measure "$work/out1" "$evalcli" ppl --lm "$lm/arpa/en.o5.prune.arpa.gz" -i "$work/ppl.txt" -q -j 1)
  read -r wn cn rn < <(measure "$work/outn" "$evalcli" ppl --lm "$lm/arpa/en.o5.prune.arpa.gz" -i "$work/ppl.txt" -q -j "$threads")
  cmp -s "$work/out1" "$work/outn" || { echo "ppl: OUTPUT DIFFERS between -j 1 and -j $threads" >&2; exit 1; }
  printf '%-22s %8s %8s %8s   %8s %8s %8s   %.2fx\n' ppl "$w1" "$c1" "$r1" "$wn" "$cn" "$rn" \
    "$(awk -v a="$w1" -v b="$wn" 'BEGIN {print (b > 0 ? a / b : 0)}')"
}
run_ppl
echo "outputs of -j 1 and -j $threads: byte-identical for every case"
