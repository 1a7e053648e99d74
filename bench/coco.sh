#!/usr/bin/env bash
# Benchmark: pycocoevalcap's Python scorers (Bleu_1..4, ROUGE_L, CIDEr-D) vs `evalcli coco`
# (the same scorers, without METEOR) on the COCO Karpathy test split (5000 images x 5 refs),
# pre-tokenized, side by side in one run. Prints CPU time (user+sys) of the whole suite,
# peak RSS, the scores of both (they must agree to the last digit) and the ratio.
# METEOR and SPICE are left out: pycocoevalcap runs them in Java (not available here).
#
# Usage: bench/coco.sh PYCOCOEVALCAP_CHECKOUT
# Needs: a built ./build/evalcli (or EVALCLI=PATH), /usr/bin/time, Debian python3 + python3-numpy.
# EVALCLI_ARGS="-j 1": more options for evalcli coco (e.g. the thread count; builds before
# `coco -j` take none). REFERENCE_RUNS=N: pycocoevalcap's runs (default 1), median as evalcli's
# EVALCLI_RUNS (default 5): both sides' medians make the ratio less a matter of one run's moment.
# The runs are interleaved: round r runs pycocoevalcap once, then its share of evalcli's runs, so
# both tools' medians sample the same stretch of the machine's load (a 0.08 s tool measured in one
# burst, against a 5 s one over the next 15 s, moved the ratio by a third from burst to burst).
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=${1:?usage: bench/coco.sh PYCOCOEVALCAP_CHECKOUT}
coco=../shared/corpora/coco
evalcli=${EVALCLI:-./build/evalcli}  # EVALCLI=PATH: another build
read -r -a extra_args <<< "${EVALCLI_ARGS:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source bench/lib.sh

refs=()
ref_flags=()
for k in 1 2 3 4 5; do
  refs+=("$coco/tok/ref.$k.txt")
  ref_flags+=(-r "$coco/tok/ref.$k.txt")
done

ours_run() {
  bench_measure 1 "$1" "$evalcli" coco "${ref_flags[@]}" -i "$hyp" --tokenize none -f json "${extra_args[@]}"
}
# numpy's AVX-512 np.log differs from glibc's log in the last bit (CIDEr's idf; see
# ../shared/golden/cider/*abstract50s*.json): the goldens are made without it, so is this run.
reference_run() {
  NPY_DISABLE_CPU_FEATURES="AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL" \
    PYTHONPATH="$checkout" bench_measure 1 "$1" /usr/bin/python3 bench/coco_pycocoevalcap.py "$hyp" "${refs[@]}"
}
for system in contrastive zerocap; do
  hyp=$coco/tok/hyp.$system.txt
  read -r ours_cpu ours_kb ref_cpu ref_kb < <(bench_side_by_side "$work/ours.out" "$work/ref.out" ours_run reference_run)
  ours=$(python3 -c '
import json, sys
scores = json.load(open(sys.argv[1]))["eval"]
for name in ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "ROUGE_L", "CIDEr"]: print(repr(scores[name]))' "$work/ours.out")
  printf 'COCOEvalCap Python scorers (Bleu_1..4, ROUGE_L, CIDEr-D), %s, 5000 images x 5 refs, pre-tokenized\n' "$system"
  printf '  evalcli       cpu %7.3f s  peak %7d KB  %s\n' "$ours_cpu" "$ours_kb" "$(echo $ours)"
  printf '  pycocoevalcap cpu %7.3f s  peak %7d KB  %s\n' "$ref_cpu" "$ref_kb" "$(echo $(cat "$work/ref.out"))"
  [ "$ours" = "$(cat "$work/ref.out")" ] && echo "  all 6 scores identical" || echo "  SCORES DIFFER"
  awk -v a="$ref_cpu" -v b="$ours_cpu" -v c="$ref_kb" -v d="$ours_kb" \
    'BEGIN { printf "  ratio: %.1fx less CPU, %.1fx less peak memory\n", a / (b > 0 ? b : 0.001), c / d }'
done
