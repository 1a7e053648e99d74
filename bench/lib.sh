# Shared measuring for bench/*.sh (source it).
#
# bench_measure RUNS OUT CMD...: runs CMD RUNS times (stdin from /dev/null, stdout kept in OUT,
# stderr dropped) and prints "cpu_seconds peak_rss_kb", each the median over the runs.
# CPU = user+sys from bash's `time` (1 ms resolution; /usr/bin/time prints 10 ms, too coarse for
# evalcli's runs of 0.05 s); peak RSS from /usr/bin/time's %M (the same for every tool measured).
# On a shared machine wall time is meaningless, CPU time is what compares.
bench_measure() {
  local runs=$1 out=$2 TIMEFORMAT='%3U %3S'
  shift 2
  local rows
  rows=$(mktemp)
  for _ in $(seq "$runs"); do
    { time /usr/bin/time -f "%M" -o "$rows.rss" "$@" < /dev/null > "$out" 2> /dev/null; } 2> "$rows.cpu"
    echo "$(awk '{printf "%.3f", $1 + $2}' "$rows.cpu") $(cat "$rows.rss")" >> "$rows"
  done
  bench_medians "$rows"
  rm -f "$rows" "$rows.rss" "$rows.cpu"
}

# bench_medians ROWS: the median of each column of ROWS' "cpu_seconds peak_rss_kb" lines (the
# lower middle one for an even count), as "cpu rss"; bench_measure 1 prints one such line.
bench_medians() {
  local runs cpu rss
  runs=$(wc -l < "$1")
  cpu=$(sort -n -k1,1 "$1" | awk -v n="$runs" 'NR == int((n + 1) / 2) {print $1}')
  rss=$(sort -n -k2,2 "$1" | awk -v n="$runs" 'NR == int((n + 1) / 2) {print $2}')
  echo "$cpu $rss"
}

# Runs of evalcli per measurement (cheap; the reference tools run once).
EVALCLI_RUNS=${EVALCLI_RUNS:-5}

# bench_side_by_side OURS_OUT REF_OUT OURS_FN REF_FN: the reference tool REFERENCE_RUNS times
# (default 1) and evalcli EVALCLI_RUNS times, interleaved in rounds (each round one reference run
# and its share of evalcli's), so that both meet the same load; prints "ours_cpu ours_kb ref_cpu
# ref_kb", medians of each. OURS_FN and REF_FN are the caller's functions, called with the file
# their command's output goes to; they run the command through `bench_measure 1 FILE CMD...`.
bench_side_by_side() {
  local ours_out=$1 ref_out=$2 ours_fn=$3 ref_fn=$4
  local rounds=${REFERENCE_RUNS:-1} ours_rows ref_rows share
  ours_rows=$(mktemp)
  ref_rows=$(mktemp)
  for round in $(seq "$rounds"); do
    "$ref_fn" "$ref_out" >> "$ref_rows"
    # This round's share of evalcli's runs (the first rounds take the remainder).
    share=$(( EVALCLI_RUNS / rounds + (round <= EVALCLI_RUNS % rounds ? 1 : 0) ))
    for _ in $(seq "$share"); do "$ours_fn" "$ours_out" >> "$ours_rows"; done
  done
  echo "$(bench_medians "$ours_rows") $(bench_medians "$ref_rows")"
  rm -f "$ours_rows" "$ref_rows"
}
