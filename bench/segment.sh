#!/usr/bin/env bash
# Benchmark: evalcli tokenize -tok zh-jieba vs jieba 0.42.1 (python3-jieba),
# segmenting the WMT22 en-zh reference A (2037 lines) and a 20,000-line Chinese
# corpus (all WMT22 en-zh outputs and references, the zh-en source, the LM
# training text), HMM on and off. CPU time (user+sys) of the whole process,
# dictionary loading included (jieba loads its marshal cache from $TMPDIR,
# built by a warm-up run first, i.e. as fast as jieba gets), and the ratio.
# Also checks that both outputs are identical.
#
# Usage: bench/segment.sh      Needs: ./build/evalcli, /usr/bin/time, python3-jieba.
set -euo pipefail
cd "$(dirname "$0")/.."
corpora=../shared/corpora
evalcli=./build/evalcli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/jieba_cut.py" <<'PY'
import logging, sys
import jieba
jieba.setLogLevel(logging.ERROR)
hmm = sys.argv[2] == "on"
out = []
with open(sys.argv[1], encoding="utf-8", newline="\n") as f:
    for line in f:
        out.append(" ".join(t for t in jieba.cut(line.rstrip("\n"), HMM=hmm) if t.strip()))
sys.stdout.write("\n".join(out) + "\n")
PY

{
  cat "$corpora"/wmt22/en-zh/hyp.*.zh "$corpora"/wmt22/en-zh/ref.*.zh "$corpora"/wmt22/zh-en/src.zh
  zcat "$corpora"/lm/train/train.zh.raw.gz
} > "$work/all.zh"
head -n 20000 "$work/all.zh" > "$work/corpus20k.zh"
cp "$corpora"/wmt22/en-zh/ref.A.zh "$work/refA.zh"

cpu() {  # cpu OUT RUNS COMMAND... -> user+sys seconds per run (averaged: time(1) counts in 10 ms)
  local out=$1 runs=$2; shift 2
  /usr/bin/time -f "%U %S" -o "$work/time" \
    bash -c 'n=$0; o=$1; shift; for ((i = 0; i < n; i++)); do "$@" > "$o.tmp"; done' "$runs" "$out" "$@"
  mv "$out.tmp" "$out"
  awk -v n="$runs" '{ printf "%.4f\n", ($1 + $2) / n }' "$work/time"
}

/usr/bin/python3 "$work/jieba_cut.py" "$work/refA.zh" on > /dev/null  # builds jieba's cache
# The machine is shared: CPU times vary with its load, so say what it was.
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
for input in refA.zh corpus20k.zh; do
  for hmm in on off; do
    ours=$(cpu "$work/ours" 10 "$evalcli" tokenize -tok zh-jieba --jieba-hmm "$hmm" -i "$work/$input")
    theirs=$(cpu "$work/theirs" 1 /usr/bin/python3 "$work/jieba_cut.py" "$work/$input" "$hmm")
    same=$(cmp -s "$work/ours" "$work/theirs" && echo "identical output" || echo "OUTPUT DIFFERS")
    printf '%-13s lines=%-6d HMM=%-3s evalcli %7.4f s  jieba %6.3f s  ratio %5.1fx  (%s)\n' \
      "$input" "$(wc -l < "$work/$input")" "$hmm" "$ours" "$theirs" \
      "$(awk -v a="$theirs" -v b="$ours" 'BEGIN { print a / (b > 0 ? b : 0.001) }')" "$same"
  done
done
