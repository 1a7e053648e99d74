#!/usr/bin/env bash
# chrF and TER: evalcli vs SacreBLEU 2.6.0 on WMT22 en-de (Online-B vs ref A)
# repeated to 20,370 distinct lines (copy k's lines are prefixed with "c<k> ",
# so no per-line cache can help either tool). Prints CPU time (user+sys) and
# peak RSS of each run and the ratios (evalcli: median of EVALCLI_RUNS=5 runs; SacreBLEU: one run).
#
# usage: bench/chrf_ter.sh [EVALCLI_BINARY] [SACREBLEU_CHECKOUT]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
evalcli="${1:-$here/build/evalcli}"
sacrebleu="${2:?usage: bench/chrf_ter.sh EVALCLI SACREBLEU_CHECKOUT}"
corpus="$here/../shared/corpora/wmt22/en-de"
copies=10

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for k in $(seq 1 $copies); do
  sed "s/^/c$k /" "$corpus/hyp.Online-B.de" >>"$work/hyp"
  sed "s/^/c$k /" "$corpus/ref.A.de" >>"$work/ref"
done
echo "data: $(wc -l <"$work/hyp") lines, $(sort -u "$work/hyp" | wc -l) distinct hypotheses"

# [RUNS=N] measure NAME CMD...: prints "NAME cpu_seconds peak_rss_kb" (medians of N runs, default 1),
# keeps stdout in $work/NAME.out
source "$here/bench/lib.sh"
measure() {
  local name="$1"
  shift
  echo "$name $(bench_measure "${RUNS:-1}" "$work/$name.out" "$@")"
}

run_pair() {
  local metric="$1"
  shift
  local sb ev
  sb=$(cd "$sacrebleu" && PYTHONPATH=. measure "sacrebleu_$metric" /usr/bin/python3 -m sacrebleu "$work/ref" \
    -i "$work/hyp" -m "$metric" -b -w 6 "$@")
  ev=$(RUNS=$EVALCLI_RUNS measure "evalcli_$metric" "$evalcli" "$metric" "$work/ref" -i "$work/hyp" -b -w 6 "$@")
  read -r _ sb_cpu sb_rss <<<"$sb"
  read -r _ ev_cpu ev_rss <<<"$ev"
  printf '%-6s sacrebleu: %8.2f s CPU %8.1f MB | evalcli: %6.3f s CPU %7.1f MB | CPU ratio %7.1fx, RSS ratio %5.1fx | scores %s / %s\n' \
    "$metric" "$sb_cpu" "$(echo "$sb_rss/1024" | bc -l)" "$ev_cpu" "$(echo "$ev_rss/1024" | bc -l)" \
    "$(echo "$sb_cpu / ($ev_cpu + 0.0005)" | bc -l)" "$(echo "$sb_rss / $ev_rss" | bc -l)" \
    "$(cat "$work/sacrebleu_$metric.out")" "$(cat "$work/evalcli_$metric.out")"
}

run_pair chrf
run_pair ter
