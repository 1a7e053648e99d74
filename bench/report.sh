#!/usr/bin/env bash
# Benchmark (issue 22): `evalcli report` of 5 metrics x 3 systems on WMT22 en-de repeated to 20,370
# distinct lines, against the 5 single-metric commands run one after another on the same files.
# Prints CPU time (median of EVALCLI_RUNS=5 runs; bench/lib.sh) and peak RSS of each, the ratio
# (target: the report no slower than the sum; faster where the inputs are read once), and checks
# that every score the report prints is the one the single command prints.
#
# Usage: bench/report.sh     Needs: a built ./build/evalcli, ../shared, /usr/bin/time, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared/corpora/wmt22/en-de
evalcli=./build/evalcli
source bench/lib.sh
runs=$EVALCLI_RUNS
metrics=(bleu chrf ter rouge meteor)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bench/make_distinct_corpus.sh "$shared/ref.A.de" "$work/ref" 10
systems=()
for system in Online-B JDExploreAcademy OpenNMT; do
  bench/make_distinct_corpus.sh "$shared/hyp.$system.de" "$work/$system" 10
  systems+=("$work/$system")
done

singles() {
  for metric in "${metrics[@]}"; do "$evalcli" "$metric" -q -r "$work/ref" -i "${systems[@]}" -j 1; done
}
export -f singles
export evalcli work
read -r cs rs < <(bench_measure "$runs" /dev/null bash -c "$(declare -p metrics systems); $(declare -f singles); singles")
read -r cr rr < <(bench_measure "$runs" /dev/null "$evalcli" report -q -m "${metrics[@]}" -r "$work/ref" -i "${systems[@]}" -j 1)
read -r cj rj < <(bench_measure "$runs" /dev/null "$evalcli" report -q -m "${metrics[@]}" -r "$work/ref" -i "${systems[@]}")

# The numbers: each single command's JSON score equals the report's cell.
"$evalcli" report -q -m "${metrics[@]}" -r "$work/ref" -i "${systems[@]}" -f json > "$work/table.json"
for metric in "${metrics[@]}"; do
  "$evalcli" "$metric" -q -r "$work/ref" -i "${systems[@]}" -f json > "$work/$metric.json"
done
/usr/bin/python3 - "$work" "${metrics[@]}" <<'PY'
import json, sys
work, metrics = sys.argv[1], sys.argv[2:]
table = json.load(open(f"{work}/table.json"))
checked = 0
for row in table["rows"]:
    single = json.load(open(f"{work}/{row['metric']}.json"))
    for s, cell in enumerate(row["cells"]):
        report = single[s]
        if row["label"] != row["metric_name"]:
            report = report["components"][row["label"][len(row["metric_name"]) + 1:]]
        assert cell["score"] == report["score"], (row["label"], s, cell["score"], report["score"])
        checked += 1
print(f"scores identical to the single commands: {checked} of {checked} cells")
PY
echo "5 metrics (${metrics[*]}) x 3 systems x 20,370 segments; median of $runs runs; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %8s %9s\n' case "cpu s" "rss KB"
printf '%-34s %8s %9s\n' "5 single commands (-j 1), summed" "$cs" "$rs (max)"
printf '%-34s %8s %9s\n' "report -j 1" "$cr" "$rr"
printf '%-34s %8s %9s\n' "report (every core)" "$cj" "$rj"
awk -v s="$cs" -v r="$cr" 'BEGIN {printf "CPU: the single commands take %.2fx the report'"'"'s (-j 1)\n", s / r}'
