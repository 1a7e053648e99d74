#!/usr/bin/env bash
# Peak resident memory (GNU time's %M) of each implemented scoring subcommand
# at 20k and 200k lines: corpus scoring must not grow with the corpus (stats
# are summed while streaming); --sentence-level keeps one row per segment and
# may grow linearly. Data: WMT22 en-de (shared/corpora) repeated to size; for
# ppl the toy 3-gram ARPA model and the tokenized English LM test text.
# Resampling (--confidence, --paired-bs, --paired-ar, also through `evalcli
# sacrebleu`) keeps one row of statistics per segment, so it grows linearly
# with the corpus but not with the resample count: the resamples are drawn and
# scored a block at a time (docs/statistics.md, "Memory"). CIDEr is bounded
# by its n-gram table for plain-text files (two reading passes, docs/cider.md).
#   bench/memory.sh [path/to/evalcli [REGEX]]   (default build/evalcli; REGEX
#   keeps only the runs whose label matches, e.g. 'cider|paired')
# Prints one line per run and "ratio" = peak(200k) / peak(20k).
set -euo pipefail
cd "$(dirname "$0")/.."
evalcli=${1:-build/evalcli}
only=${2:-}
wanted() { [[ -z $only || $1 =~ $only ]]; }
corpora=${EVALCLI_CORPORA:-../shared/corpora}
src_hyp=$corpora/wmt22/en-de/hyp.Online-B.de
src_ref=$corpora/wmt22/en-de/ref.A.de
src_hyp2=$corpora/wmt22/en-de/hyp.JDExploreAcademy.de
[[ -f $src_ref ]] || src_ref=$(ls "$corpora"/wmt22/en-de/ref* | head -1)
[[ -x /usr/bin/time ]] || { echo "bench/memory.sh needs GNU time (Debian package 'time')" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make_corpus() {  # lines source output
  local lines=$1 source=$2 out=$3
  : >"$out"
  while [[ $(wc -l <"$out") -lt $lines ]]; do cat "$source" >>"$out"; done
  head -n "$lines" "$out" >"$out.tmp" && mv "$out.tmp" "$out"
}
lm=$corpora/lm/arpa/toy.en.o3.arpa
lm_text=$corpora/lm/test/test1.en.tok
for n in 20000 200000; do
  make_corpus $n "$src_hyp" "$work/hyp.$n"
  make_corpus $n "$src_ref" "$work/ref.$n"
  make_corpus $n "$src_hyp2" "$work/hyp2.$n"
  make_corpus $n "$lm_text" "$work/lm.$n"
done

peak_kb() {  # prints the peak RSS in KiB of the command
  /usr/bin/time -f '%M' -o "$work/rss" "$@" >/dev/null 2>"$work/err" || {
    echo "failed: $* ($(head -1 "$work/err"))" >&2
    echo 0
    return
  }
  cat "$work/rss"
}

# Subcommands whose stub still says "not implemented" are left out.
printf '%-28s %10s %10s %7s\n' "run" "20k (KiB)" "200k (KiB)" "ratio"
for metric in bleu chrf ter rouge meteor cider; do
  wanted "$metric (corpus)" || wanted "$metric (sentence)" || continue
  probe=$("$evalcli" "$metric" -r "$work/ref.20000" -i "$work/hyp.20000" -b 2>&1 >/dev/null || true)
  [[ $probe == *"not implemented"* ]] && continue
  for mode in corpus sentence; do
    wanted "$metric ($mode)" || continue
    extra=()
    [[ $mode == sentence ]] && extra=(--sentence-level)
    small=$(peak_kb "$evalcli" "$metric" -r "$work/ref.20000" -i "$work/hyp.20000" -b "${extra[@]}")
    large=$(peak_kb "$evalcli" "$metric" -r "$work/ref.200000" -i "$work/hyp.200000" -b "${extra[@]}")
    ratio=$(awk -v a="$small" -v b="$large" 'BEGIN { printf "%.2f", a ? b / a : 0 }')
    printf '%-28s %10s %10s %7s\n' "$metric ($mode)" "$small" "$large" "$ratio"
  done
done

# Bootstrap intervals and paired tests: one statistics row per segment, and
# one block of resamples at a time.
resampling_run() {  # label command systems(1|2) options...: the corpora's files are added
  local label=$1 command=$2 systems=$3 n sizes=()
  shift 3
  wanted "$label" || return 0
  for n in 20000 200000; do
    local files=(-r "$work/ref.$n")
    [[ $command == sacrebleu ]] && files=("$work/ref.$n")
    files+=(-i "$work/hyp.$n")
    [[ $systems == 2 ]] && files+=("$work/hyp2.$n")
    [[ $command != sacrebleu ]] && files+=(-b)
    sizes+=("$(peak_kb "$evalcli" "$command" "${files[@]}" "$@")")
  done
  local ratio
  ratio=$(awk -v a="${sizes[0]}" -v b="${sizes[1]}" 'BEGIN { printf "%.2f", a ? b / a : 0 }')
  printf '%-28s %10s %10s %7s\n' "$label" "${sizes[0]}" "${sizes[1]}" "$ratio"
}
resampling_run "bleu --confidence" bleu 1 --confidence
resampling_run "bleu --paired-bs" bleu 2 --paired-bs
resampling_run "bleu --paired-ar" bleu 2 --paired-ar
resampling_run "sacrebleu --confidence" sacrebleu 1 -m bleu chrf --confidence
resampling_run "sacrebleu --paired-bs" sacrebleu 2 -m bleu chrf --paired-bs
resampling_run "sacrebleu --paired-ar" sacrebleu 2 -m bleu chrf --paired-ar

# Perplexity streams the text against a model loaded once: the model's size
# is constant, --per-doc prints each line as it goes.
for mode in corpus per-doc; do
  wanted "ppl ($mode)" || continue
  extra=()
  [[ $mode == per-doc ]] && extra=(--per-doc)
  small=$(peak_kb "$evalcli" ppl --lm "$lm" -i "$work/lm.20000" "${extra[@]}")
  large=$(peak_kb "$evalcli" ppl --lm "$lm" -i "$work/lm.200000" "${extra[@]}")
  ratio=$(awk -v a="$small" -v b="$large" 'BEGIN { printf "%.2f", a ? b / a : 0 }')
  printf '%-28s %10s %10s %7s\n' "ppl ($mode)" "$small" "$large" "$ratio"
done
