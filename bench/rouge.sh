#!/usr/bin/env bash
# Benchmark: evalcli rouge vs rouge-score 0.1.2 and ROUGE-1.5.5.pl on the
# 11,490 CNN/DM See et al. (2017) pointer-gen-cov summaries, side by side.
# Prints CPU time (user+sys) and peak RSS of each, and the CPU ratios; with
# --bootstrap 1000 also the bootstrap's own cost (the two evalcli runs' difference)
# as a share of the scoring, and rouge-score's BootstrapAggregator side by side
# (its mid rouge1 F must equal evalcli's).
#
# Usage: bench/rouge.sh [ROUGE_SCORE_CHECKOUT] [ROUGE155_DIR]
#   ROUGE_SCORE_CHECKOUT: a folder holding the rouge_score package (0.1.2);
#     run with Debian python3 (python3-nltk, python3-numpy). Skipped if absent.
#   ROUGE155_DIR: folder with ROUGE-1.5.5.pl and data/ (XML::DOM, DB_File and
#     a rebuilt WordNet-2.0.exc.db). Skipped if absent.
# Needs a built ./build/evalcli and /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
rs_dir=${1:-}
r155_dir=${2:-}
summ=../shared/corpora/summ/cnndm_see2017
data=../shared/corpora/rouge155-data
evalcli=./build/evalcli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

measure() {  # measure COMMAND... -> prints "cpu_seconds peak_kb"
  /usr/bin/time -f "%U %S %M" -o "$work/time" "$@" > "$work/out" 2> /dev/null
  awk '{ printf "%.3f %d\n", $1 + $2, $3 }' "$work/time"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'; }
# The bootstrap's mid rouge1 F of an evalcli JSON report, printed as Python's repr.
mid_f() { /usr/bin/python3 -c 'import json, sys; print(repr(json.load(open(sys.argv[1]))["types"]["rouge1"]["mid"]["fmeasure"]))' "$1"; }

echo "== rouge-score mode: rouge1/2/L/Lsum, stemming, TAB sentences, 11,490 pairs"
read -r ours_cpu ours_kb < <(measure "$evalcli" rouge -r "$summ/reference.txt" -i "$summ/pointer-gen-cov.txt" \
    --stem --sentence-sep tab -f json)
ours_r1=$(sed -n 's/^  "score": \(.*\),$/\1/p' "$work/out")
echo "evalcli:      cpu ${ours_cpu}s  rss ${ours_kb}KB  (mean rouge1 F ${ours_r1})"
read -r boot_cpu boot_kb < <(measure "$evalcli" rouge -r "$summ/reference.txt" -i "$summ/pointer-gen-cov.txt" \
    --stem --sentence-sep tab -f json --bootstrap 1000 --seed 42)
ours_mid=$(mid_f "$work/out")
boot_only=$(awk -v a="$boot_cpu" -v b="$ours_cpu" 'BEGIN { printf "%.3f", a - b }')
echo "evalcli+boot: cpu ${boot_cpu}s  rss ${boot_kb}KB  (mid rouge1 F ${ours_mid}; the 1000-sample bootstrap" \
     "alone ${boot_only}s = $(awk -v a="$boot_only" -v b="$ours_cpu" 'BEGIN { printf "%.0f", 100 * a / b }')% of the scoring)"
if [[ -d "$rs_dir/rouge_score" ]]; then
  cat > "$work/rs.py" <<'PY'
import math, sys
from rouge_score import rouge_scorer
sc = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
hyps = open(sys.argv[1]).read().splitlines(); refs = open(sys.argv[2]).read().splitlines()
scores = [sc.score(r.replace("\t", "\n"), h.replace("\t", "\n")) for h, r in zip(hyps, refs)]
print(repr(math.fsum(s["rouge1"].fmeasure for s in scores) / len(scores)))
PY
  read -r rs_cpu rs_kb < <(PYTHONPATH="$rs_dir" measure /usr/bin/python3 "$work/rs.py" \
      "$summ/pointer-gen-cov.txt" "$summ/reference.txt")
  echo "rouge-score:  cpu ${rs_cpu}s  rss ${rs_kb}KB  (mean rouge1 F $(cat "$work/out"))  -> ratio $(ratio "$rs_cpu" "$ours_cpu")x"
  # The same scores through BootstrapAggregator() after np.random.seed(42), as HF evaluate runs it.
  cat > "$work/rs_boot.py" <<'PY'
import sys
import numpy as np
from rouge_score import rouge_scorer, scoring
sc = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
hyps = open(sys.argv[1]).read().splitlines(); refs = open(sys.argv[2]).read().splitlines()
aggregator = scoring.BootstrapAggregator()
for h, r in zip(hyps, refs):
    aggregator.add_scores(sc.score(r.replace("\t", "\n"), h.replace("\t", "\n")))
np.random.seed(42)
print(repr(aggregator.aggregate()["rouge1"].mid.fmeasure))
PY
  read -r rsb_cpu rsb_kb < <(PYTHONPATH="$rs_dir" measure /usr/bin/python3 "$work/rs_boot.py" \
      "$summ/pointer-gen-cov.txt" "$summ/reference.txt")
  rs_mid=$(cat "$work/out")
  same_mid=$([[ "$rs_mid" == "$ours_mid" ]] && echo "identical to evalcli's" || echo "DIFFERS from evalcli's ${ours_mid}")
  echo "rouge-score+BootstrapAggregator: cpu ${rsb_cpu}s  rss ${rsb_kb}KB  (mid rouge1 F ${rs_mid}, ${same_mid})" \
       " -> ratio $(ratio "$rsb_cpu" "$boot_cpu")x"
else
  echo "rouge-score:  not found at $rs_dir (skipped)"
fi

flags="-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m"
echo "== ROUGE-1.5.5 mode: $flags"
read -r o155_cpu o155_kb < <(measure "$evalcli" rouge --compat rouge155 --rouge155-data "$data" \
    --rouge155-flags "$flags" --sentence-sep tab -r "$summ/reference.txt" -i "$summ/pointer-gen-cov.txt" \
    --rouge155-output)
cp "$work/out" "$work/ours155"
echo "evalcli:      cpu ${o155_cpu}s  rss ${o155_kb}KB"
# One SPL file per line and side, pyrouge-style settings.xml with %06d IDs:
# what ROUGE-1.5.5.pl reads, and evalcli reads it too (--rouge155-config).
mkdir -p "$work/peer" "$work/model1"
awk -v d="$work/peer" '{ f = sprintf("%s/%06d.txt", d, NR - 1); n = split($0, s, "\t");
    for (i = 1; i <= n; i++) print s[i] > f; if (n == 0) print "" > f; close(f) }' "$summ/pointer-gen-cov.txt"
awk -v d="$work/model1" '{ f = sprintf("%s/%06d.txt", d, NR - 1); n = split($0, s, "\t");
    for (i = 1; i <= n; i++) print s[i] > f; if (n == 0) print "" > f; close(f) }' "$summ/reference.txt"
{
  echo '<ROUGE-EVAL version="1.0">'
  awk -v w="$work" '{ id = sprintf("%06d", NR - 1);
    printf "<EVAL ID=\"%s\"><PEER-ROOT>%s/peer</PEER-ROOT><MODEL-ROOT>%s/model1</MODEL-ROOT>", id, w, w;
    printf "<INPUT-FORMAT TYPE=\"SPL\"></INPUT-FORMAT><PEERS><P ID=\"S\">%s.txt</P></PEERS>", id;
    printf "<MODELS><M ID=\"1\">%s.txt</M></MODELS></EVAL>\n", id }' "$summ/reference.txt"
  echo '</ROUGE-EVAL>'
} > "$work/settings.xml"
read -r c155_cpu c155_kb < <(measure "$evalcli" rouge --compat rouge155 --rouge155-data "$data" \
    --rouge155-flags "$flags" --rouge155-config "$work/settings.xml" --rouge155-output)
same_config=$(cmp -s "$work/out" "$work/ours155" && echo "report identical to the line-file run" || echo "REPORT DIFFERS from the line-file run")
echo "evalcli --rouge155-config settings.xml (22,980 SPL files): cpu ${c155_cpu}s  rss ${c155_kb}KB  ($same_config)"
if [[ -f "$r155_dir/ROUGE-1.5.5.pl" ]]; then
  read -r p_cpu p_kb < <(measure perl "$r155_dir/ROUGE-1.5.5.pl" -e "$r155_dir/data" $flags "$work/settings.xml")
  same=$(cmp -s "$work/out" "$work/ours155" && echo "report byte-identical to evalcli's" || echo "REPORT DIFFERS from evalcli's")
  echo "ROUGE-1.5.5:  cpu ${p_cpu}s  rss ${p_kb}KB  ($same)  -> ratio $(ratio "$p_cpu" "$o155_cpu")x"
else
  echo "ROUGE-1.5.5:  not found at $r155_dir (skipped)"
fi
