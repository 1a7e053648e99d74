#!/usr/bin/env bash
# Benchmark: evalcli meteor (NLTK mode) vs NLTK 3.8 meteor_score on WMT22
# de-en Online-B vs reference A (1984 segments, whitespace tokens), whole
# processes side by side, WordNet loading included on both sides.
# Prints CPU time (user+sys), peak RSS, the scores and the CPU ratio.
# With METEOR_JAR=path/to/meteor-1.5.jar it also compares --compat meteor15
# against the Java tool (-l en -norm -m 'exact stem synonym').
#
# Usage: bench/meteor.sh
# Needs: a built ./build/evalcli, /usr/bin/time, Debian python3-nltk and
# wordnet-base (NLTK reads /usr/share/wordnet through a temporary NLTK_DATA
# folder; Debian lacks `lexnames`, which is written from lexnames(5WN)).
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared/corpora
hyp=$shared/wmt22/de-en/hyp.Online-B.en
ref=$shared/wmt22/de-en/ref.A.en
evalcli=./build/evalcli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source bench/lib.sh
measure() {  # [RUNS=N] measure COMMAND... -> prints "cpu_seconds peak_kb" (medians of N runs, default 1); output in $work/out
  bench_measure "${RUNS:-1}" "$work/out" "$@"
}

# NLTK's WordNet reader wants corpora/wordnet/ with a lexnames file.
wn=$work/nltk_data/corpora/wordnet
mkdir -p "$wn"
for f in /usr/share/wordnet/{data,index}.{noun,verb,adj,adv} /usr/share/wordnet/{noun,verb,adj,adv}.exc \
         /usr/share/wordnet/cntlist.rev; do
  ln -s "$f" "$wn/"
done
i=0
for name in adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body \
    noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location noun.motive \
    noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process noun.quantity noun.relation \
    noun.shape noun.state noun.substance noun.time verb.body verb.change verb.cognition verb.communication \
    verb.competition verb.consumption verb.contact verb.creation verb.emotion verb.motion verb.perception \
    verb.possession verb.social verb.stative verb.weather adj.ppl; do
  case $name in adj.*) cat=3 ;; adv.*) cat=4 ;; noun.*) cat=1 ;; verb.*) cat=2 ;; esac
  printf '%02d\t%s\t%d\n' "$i" "$name" "$cat" >> "$wn/lexnames"
  i=$((i + 1))
done

cat > "$work/nltk_meteor.py" <<'EOF'
import sys
from nltk.translate.meteor_score import meteor_score
hyp_path, ref_path = sys.argv[1], sys.argv[2]
with open(hyp_path, encoding="utf-8") as h, open(ref_path, encoding="utf-8") as r:
    hyps = [line.rstrip("\n") for line in h]
    refs = [line.rstrip("\n") for line in r]
scores = [meteor_score([ref.split()], hyp.split()) for hyp, ref in zip(hyps, refs)]
print(repr(sum(scores) / len(scores)))
EOF

echo "WMT22 de-en Online-B vs ref A: $(wc -l < "$hyp") segments"
read -r ours_cpu ours_kb < <(RUNS=$EVALCLI_RUNS measure "$evalcli" meteor -r "$ref" -i "$hyp" --tokenize none -b -w 16)
ours_score=$(cat "$work/out")
read -r nltk_cpu nltk_kb < <(NLTK_DATA="$work/nltk_data" measure /usr/bin/python3 "$work/nltk_meteor.py" "$hyp" "$ref")
nltk_score=$(cat "$work/out")
printf '  evalcli meteor  cpu %7.3f s  peak %7d KB  %s\n' "$ours_cpu" "$ours_kb" "$ours_score"
printf '  NLTK 3.8        cpu %7.3f s  peak %7d KB  %s\n' "$nltk_cpu" "$nltk_kb" "$nltk_score"
awk -v a="$nltk_cpu" -v b="$ours_cpu" 'BEGIN { printf "  ratio: %.1fx less CPU (target 50x)\n", a / (b > 0 ? b : 0.001) }'

if [[ -n "${METEOR_JAR:-}" ]]; then
  read -r ours_cpu ours_kb < <(RUNS=$EVALCLI_RUNS measure "$evalcli" meteor --compat meteor15 --meteor-resources "$shared/meteor15" \
      --norm norm -m "exact stem synonym" -r "$ref" -i "$hyp" -b -w 16)
  ours_score=$(cat "$work/out")
  read -r java_cpu java_kb < <(measure java -Xmx2G -jar "$METEOR_JAR" "$hyp" "$ref" -l en -norm \
      -m "exact stem synonym" -q)
  java_score=$(cat "$work/out")
  printf '  evalcli meteor15 cpu %7.3f s  peak %7d KB  %s\n' "$ours_cpu" "$ours_kb" "$ours_score"
  printf '  METEOR 1.5 jar   cpu %7.3f s  peak %7d KB  %s\n' "$java_cpu" "$java_kb" "$java_score"
  awk -v a="$java_cpu" -v b="$ours_cpu" 'BEGIN { printf "  ratio: %.1fx less CPU\n", a / (b > 0 ? b : 0.001) }'
fi
