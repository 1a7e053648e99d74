#!/usr/bin/env bash
# evalcli ppl vs KenLM query, side by side on the same data (spec: shared/specs/ppl.md §5).
# Usage: bench/ppl.sh [EVALCLI] [QUERY] [RUNS]
#   EVALCLI default build/evalcli; QUERY = path of a KenLM query binary (build KenLM
#   outside the repo: cmake -DCMAKE_BUILD_TYPE=Release -DKENLM_MAX_ORDER=6; cmake --build . --target query).
# Prints median wall, CPU (user+sys) and peak RSS per configuration and the evalcli/KenLM ratios.
# The unpruned 75 MB 5-gram of the spec is not rebuilt here (needs lmplz and ~1 min of training);
# set FULL_ARPA=/path/o5.full.arpa to add it.
set -euo pipefail
cd "$(dirname "$0")/.."
EVALCLI=${1:-build/evalcli}
QUERY=${2:?usage: bench/ppl.sh EVALCLI KENLM_QUERY}
RUNS=${3:-3}
SHARED=${SHARED:-../shared}
LM=$SHARED/corpora/lm
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

zcat "$LM/speed/speed.en.tok.gz" > "$TMP/speed.txt"
zcat "$LM/arpa/en.o5.prune.arpa.gz" > "$TMP/en.o5.prune.arpa"

# measure NAME CMD... (stdin from $IN): median of RUNS runs after one warm-up -> "wall cpu rss_kb"
measure() {
  local -a rows=()
  "$@" < "$IN" > /dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %U %S %M" -o "$TMP/t" "$@" < "$IN" > /dev/null 2>/dev/null
    rows+=("$(awk '{printf "%.3f %.3f %d\n", $1, $2 + $3, $4}' "$TMP/t")")
  done
  printf '%s\n' "${rows[@]}" | sort -k2,2n | awk -v n="$RUNS" 'NR == int((n + 1) / 2)'
}

report() {  # report LABEL "kenlm row" "evalcli row"
  read -r kw kc kr <<< "$2"
  read -r ew ec er <<< "$3"
  awk -v l="$1" -v kw="$kw" -v kc="$kc" -v kr="$kr" -v ew="$ew" -v ec="$ec" -v er="$er" 'BEGIN {
    printf "%-44s KenLM %6.2fs wall %6.2fs cpu %7.1f MB | evalcli %6.2fs wall %6.2fs cpu %7.1f MB | cpu x%.2f rss x%.2f\n",
      l, kw, kc, kr / 1024, ew, ec, er / 1024, (kc > 0 ? ec / kc : 0), er / kr }'
}

run_case() {  # run_case LABEL MODEL INPUT QUERY_ARGS EVALCLI_ARGS
  local label=$1 model=$2
  IN=$3
  # shellcheck disable=SC2086
  local k e
  k=$(measure "$QUERY" $4 "$model")
  e=$(measure "$EVALCLI" ppl --lm "$model" --kenlm-output $5)
  report "$label" "$k" "$e"
}

echo "runs per configuration: $RUNS (median by CPU time); machine load: $(cut -d' ' -f1-3 /proc/loadavg)"
run_case "load only, en.o5.prune.arpa.gz (2.4 MB gz)" "$LM/arpa/en.o5.prune.arpa.gz" /dev/null "-v summary" "-v summary"
run_case "load only, en.o5.prune.arpa (7.0 MB plain)" "$TMP/en.o5.prune.arpa" /dev/null "-v summary" "-v summary"
run_case "load only, en.o3.arpa.gz" "$LM/arpa/en.o3.arpa.gz" /dev/null "-v summary" "-v summary"
run_case "summary, en.o5.prune.arpa, speed (975k tok)" "$TMP/en.o5.prune.arpa" "$TMP/speed.txt" "-v summary" "-v summary"
run_case "per-word, en.o5.prune.arpa, speed" "$TMP/en.o5.prune.arpa" "$TMP/speed.txt" "" ""
run_case "summary, en.o3.arpa.gz, speed" "$LM/arpa/en.o3.arpa.gz" "$TMP/speed.txt" "-v summary" "-v summary"
if [[ -n "${FULL_ARPA:-}" ]]; then
  run_case "load only, o5 full ARPA" "$FULL_ARPA" /dev/null "-v summary" "-v summary"
  run_case "summary, o5 full ARPA, speed" "$FULL_ARPA" "$TMP/speed.txt" "-v summary" "-v summary"
fi
# Same numbers? (the summary lines must be byte-identical)
IN=$TMP/speed.txt
diff <("$QUERY" -v summary "$TMP/en.o5.prune.arpa" < "$IN" 2>/dev/null) \
     <("$EVALCLI" ppl --lm "$TMP/en.o5.prune.arpa" --kenlm-output -v summary < "$IN") && echo "summary lines identical"
