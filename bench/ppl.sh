#!/usr/bin/env bash
# evalcli ppl vs KenLM, side by side on the same data (spec: shared/specs/ppl.md §5; issue targets:
# ARPA load at least as fast as KenLM's ARPA load, query throughput at least that of KenLM's probing
# binary, peak memory no more than KenLM's; issue #24: on the same probing binary, and on the same
# trie binary, evalcli's load+query CPU <= query's and peak RSS no more than query's).
#
# Usage: bench/ppl.sh EVALCLI KENLM_QUERY KENLM_BUILD_BINARY [FULL_ARPA] [RUNS]
#   EVALCLI             e.g. build/evalcli
#   KENLM_QUERY         KenLM's `query` binary; KENLM_BUILD_BINARY its `build_binary` (build KenLM outside
#                       the repo: cmake -DCMAKE_BUILD_TYPE=Release; make query build_binary lmplz)
#   FULL_ARPA           optional: the unpruned 5-gram of shared/corpora/lm/README.md (75,436,478 bytes,
#                       md5 a7517179b16ef4c0dd689f7f7495b07c), rebuilt with
#                       zcat train/train.en.tok.gz | lmplz -o 5 -S 2G -T /tmp > en.o5.arpa
#   RUNS                runs per configuration, median by CPU time (default 5)
# Times are CPU (user+sys) from bash's `time` (1 ms resolution; /usr/bin/time prints 10 ms, too coarse for
# runs of 0.05 s; the CPU of /usr/bin/time itself, well under 1 ms, is in both tools' times), peak RSS from
# /usr/bin/time's %M, the same for both tools; on a shared machine wall time is meaningless.
set -euo pipefail
cd "$(dirname "$0")/.."
EVALCLI=${1:?usage: bench/ppl.sh EVALCLI KENLM_QUERY KENLM_BUILD_BINARY [FULL_ARPA] [RUNS]}
QUERY=${2:?usage: bench/ppl.sh EVALCLI KENLM_QUERY KENLM_BUILD_BINARY [FULL_ARPA] [RUNS]}
BUILD_BINARY=${3:?usage: bench/ppl.sh EVALCLI KENLM_QUERY KENLM_BUILD_BINARY [FULL_ARPA] [RUNS]}
FULL_ARPA=${4:-}
RUNS=${5:-5}
SHARED=${SHARED:-../shared}
LM=$SHARED/corpora/lm
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TOKENS=974703

zcat "$LM/speed/speed.en.tok.gz" > "$TMP/speed.txt"
echo "the" > "$TMP/one_line.txt"  # evalcli's report refuses an empty input
zcat "$LM/arpa/en.o5.prune.arpa.gz" > "$TMP/en.o5.prune.arpa"

# measure INPUT CMD...: one warm-up, then RUNS runs -> "cpu_seconds rss_kb" (medians)
measure() {
  local input=$1 TIMEFORMAT='%3U %3S'
  shift
  "$@" < "$input" > /dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
  for _ in $(seq "$RUNS"); do
    { time /usr/bin/time -f "%M" -o "$TMP/rss" "$@" < "$input" > /dev/null 2>/dev/null; } 2> "$TMP/cpu"
    echo "$(awk '{printf "%.3f", $1 + $2}' "$TMP/cpu") $(cat "$TMP/rss")"
  done > "$TMP/rows"
  local cpu rss
  cpu=$(sort -n -k1,1 "$TMP/rows" | awk -v n="$RUNS" 'NR == int((n + 1) / 2) {print $1}')
  rss=$(sort -n -k2,2 "$TMP/rows" | awk -v n="$RUNS" 'NR == int((n + 1) / 2) {print $2}')
  echo "$cpu $rss"
}

bench_model() {  # bench_model LABEL ARPA
  local label=$1 arpa=$2 probing="$TMP/model.probing" trie="$TMP/model.trie"
  "$BUILD_BINARY" probing "$arpa" "$probing" > /dev/null 2>&1
  "$BUILD_BINARY" trie "$arpa" "$trie" > /dev/null 2>&1
  local k_load k_arpa k_pload k_pquery e_load e_md5 e_query
  k_load=$(measure /dev/null "$QUERY" -v summary "$arpa")
  k_arpa=$(measure "$TMP/speed.txt" "$QUERY" -v summary "$arpa")
  k_pload=$(measure /dev/null "$QUERY" -v summary "$probing")
  k_pquery=$(measure "$TMP/speed.txt" "$QUERY" -v summary "$probing")
  e_load=$(measure /dev/null "$EVALCLI" ppl --lm "$arpa" --kenlm-output -v summary)
  e_md5=$(measure "$TMP/one_line.txt" "$EVALCLI" ppl --lm "$arpa")
  e_query=$(measure "$TMP/speed.txt" "$EVALCLI" ppl --lm "$arpa" --kenlm-output -v summary)
  local e_pload e_pquery
  e_pload=$(measure /dev/null "$EVALCLI" ppl --lm "$probing" --kenlm-output -v summary)
  e_pquery=$(measure "$TMP/speed.txt" "$EVALCLI" ppl --lm "$probing" --kenlm-output -v summary)
  local k_tquery e_tquery
  k_tquery=$(measure "$TMP/speed.txt" "$QUERY" -v summary "$trie")
  e_tquery=$(measure "$TMP/speed.txt" "$EVALCLI" ppl --lm "$trie" --kenlm-output -v summary)
  for binary in probing trie; do
    if cmp -s <("$QUERY" "$TMP/model.$binary" < "$TMP/speed.txt" 2>/dev/null) \
              <("$EVALCLI" ppl --lm "$TMP/model.$binary" --kenlm-output < "$TMP/speed.txt"); then
      echo "$label: on the $binary binary, per-word and summary output identical to query's"
    else
      echo "$label: on the $binary binary, OUTPUT DIFFERS from query's" >&2
      exit 1
    fi
  done
  awk -v label="$label" -v tokens="$TOKENS" -v kl="$k_load" -v ka="$k_arpa" -v kpl="$k_pload" -v kpq="$k_pquery" \
      -v el="$e_load" -v em="$e_md5" -v eq="$e_query" -v epl="$e_pload" -v epq="$e_pquery" \
      -v ktq="$k_tquery" -v etq="$e_tquery" 'BEGIN {
    split(kl, KL, " "); split(ka, KA, " "); split(kpl, KPL, " "); split(kpq, KPQ, " ")
    split(el, EL, " "); split(em, EM, " "); split(eq, EQ, " "); split(epl, EPL, " "); split(epq, EPQ, " ")
    split(ktq, KTQ, " "); split(etq, ETQ, " ")
    kq = KPQ[1] - KPL[1]; eqt = EQ[1] - EL[1]
    printf "== %s\n", label
    printf "load (ARPA)         KenLM %6.3f s  evalcli %6.3f s   time ratio evalcli/KenLM %.2f\n", KL[1], EL[1], EL[1] / KL[1]
    printf "load+md5 (default)  KenLM %6.3f s  evalcli %6.3f s   time ratio evalcli/KenLM %.2f\n", KL[1], EM[1], EM[1] / KL[1]
    if (kq > 0 && eqt > 0)
      printf "query 974,703 tok   KenLM probing %6.3f s (%.2f M tok/s)  evalcli %6.3f s (%.2f M tok/s)   throughput ratio evalcli/KenLM %.2f\n",
        kq, tokens / kq / 1e6, eqt, tokens / eqt / 1e6, kq / eqt
    else
      printf "query: CPU differences too small to measure (KenLM %.3f s, evalcli %.3f s)\n", kq, eqt
    printf "load+query (ARPA)   KenLM %6.3f s  evalcli %6.3f s   time ratio evalcli/KenLM %.2f\n", KA[1], EQ[1], EQ[1] / KA[1]
    printf "peak RSS            KenLM ARPA %6.1f MB, probing %6.1f MB  evalcli %6.1f MB   ratio evalcli/KenLM-ARPA %.2f, /probing %.2f\n",
      KA[2] / 1024, KPQ[2] / 1024, EQ[2] / 1024, EQ[2] / KA[2], EQ[2] / KPQ[2]
    printf "probing binary      load: KenLM %6.3f s  evalcli %6.3f s;  load+query: KenLM %6.3f s  evalcli %6.3f s   CPU ratio evalcli/KenLM %.2f\n",
      KPL[1], EPL[1], KPQ[1], EPQ[1], EPQ[1] / KPQ[1]
    printf "probing binary RSS  KenLM %6.1f MB  evalcli %6.1f MB   ratio evalcli/KenLM %.2f\n", KPQ[2] / 1024, EPQ[2] / 1024, EPQ[2] / KPQ[2]
    printf "trie binary         load+query: KenLM %6.3f s  evalcli %6.3f s   CPU ratio evalcli/KenLM %.2f\n", KTQ[1], ETQ[1], ETQ[1] / KTQ[1]
    printf "trie binary RSS     KenLM %6.1f MB  evalcli %6.1f MB   ratio evalcli/KenLM %.2f\n", KTQ[2] / 1024, ETQ[2] / 1024, ETQ[2] / KTQ[2]
  }'
}

echo "runs per configuration: $RUNS (median CPU user+sys); machine load: $(cut -d' ' -f1-3 /proc/loadavg)"
startup=$(measure /dev/null "$EVALCLI" --version)
echo "evalcli process baseline (--version): $(awk '{printf "%.3f s, %.1f MB", $1, $2 / 1024}' <<< "$startup")"
bench_model "en.o5.prune.arpa (shipped pruned 5-gram, 7.0 MB, 232k n-grams)" "$TMP/en.o5.prune.arpa"
if [[ -n "$FULL_ARPA" ]]; then
  bench_model "$(basename "$FULL_ARPA") (unpruned 5-gram, $(($(stat -c %s "$FULL_ARPA") / 1000000)) MB)" "$FULL_ARPA"
fi
# Same numbers? (KenLM's output must be byte-identical, per word included)
for arpa in "$TMP/en.o5.prune.arpa" ${FULL_ARPA:+"$FULL_ARPA"}; do
  if cmp -s <("$QUERY" "$arpa" < "$TMP/speed.txt" 2>/dev/null) <("$EVALCLI" ppl --lm "$arpa" --kenlm-output < "$TMP/speed.txt"); then
    echo "$(basename "$arpa"): per-word and summary output identical to KenLM's"
  else
    echo "$(basename "$arpa"): OUTPUT DIFFERS from KenLM's" >&2
    exit 1
  fi
done
