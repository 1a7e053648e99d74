#!/usr/bin/env bash
# Benchmark: evalcli cider vs pycocoevalcap's Cider (CIDEr-D) on the COCO
# Karpathy test split (5000 images x 5 refs + 5000 hyps), pre-tokenized, side by
# side in one run. Prints CPU time (user+sys; medians of EVALCLI_RUNS evalcli runs and of
# REFERENCE_RUNS=1 pycocoevalcap runs, interleaved), peak RSS, scores and ratios; then
# evalcli on the raw captions with its own PTB tokenizer (pycocoevalcap would
# need Java + the CoreNLP 3.4.1 jar for that, which is not available).
#
# Usage: bench/cider.sh [PYCOCOEVALCAP_CHECKOUT]
# Needs: a built ./build/evalcli, /usr/bin/time, Debian python3 + python3-numpy.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=${1:?usage: bench/cider.sh PYCOCOEVALCAP_CHECKOUT}
coco=../shared/corpora/coco
evalcli=./build/evalcli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source bench/lib.sh

refs=()
for k in 1 2 3 4 5; do refs+=("$coco/tok/ref.$k.txt"); done
ref_flags=()
for r in "${refs[@]}"; do ref_flags+=(-r "$r"); done

ours_run() { bench_measure 1 "$1" "$evalcli" cider "${ref_flags[@]}" -i "$hyp" --tokenize none -b -w 17; }
# numpy's AVX-512 np.log differs from glibc's log in the last bit (CIDEr's idf; see
# ../shared/golden/cider/*abstract50s*.json): the goldens are made without it, so is this run.
reference_run() {
  NPY_DISABLE_CPU_FEATURES="AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL" \
    PYTHONPATH="$checkout" bench_measure 1 "$1" /usr/bin/python3 bench/cider_pycocoevalcap.py "$hyp" "${refs[@]}"
}
for system in contrastive zerocap; do
  hyp=$coco/tok/hyp.$system.txt
  read -r ours_cpu ours_kb ref_cpu ref_kb < <(bench_side_by_side "$work/ours.out" "$work/ref.out" ours_run reference_run)
  ours_score=$(cat "$work/ours.out")
  ref_score=$(cat "$work/ref.out")
  printf 'CIDEr-D %s, 5000 images x 5 refs, pre-tokenized\n' "$system"
  printf '  evalcli       cpu %7.3f s  peak %7d KB  %s\n' "$ours_cpu" "$ours_kb" "$ours_score"
  printf '  pycocoevalcap cpu %7.3f s  peak %7d KB  %s\n' "$ref_cpu" "$ref_kb" "$ref_score"
  awk -v a="$ref_cpu" -v b="$ours_cpu" -v c="$ref_kb" -v d="$ours_kb" \
    'BEGIN { printf "  ratio: %.1fx less CPU, %.1fx less peak memory\n", a / (b > 0 ? b : 0.001), c / d }'
done

raw_flags=()
for k in 1 2 3 4 5; do raw_flags+=(-r "$coco/ref.$k.txt"); done
read -r raw_cpu raw_kb < <(bench_measure "$EVALCLI_RUNS" "$work/out" "$evalcli" cider "${raw_flags[@]}" -i "$coco/hyp.contrastive.txt" --tokenize ptb -b -w 17)
printf 'CIDEr-D contrastive from raw captions (evalcli PTB tokenizer)\n'
printf '  evalcli       cpu %7.3f s  peak %7d KB  %s\n' "$raw_cpu" "$raw_kb" "$(cat "$work/out")"
printf '  (pycocoevalcap incl. two PTBTokenizer JVM runs: 4.33 s CPU in ../shared/specs/cider.md §4)\n'
