#!/usr/bin/env bash
# Benchmark: evalcli bertscore's CPU time (user+sys) and peak RSS for 2,000 pairs (the 200 WMT21
# de-en pairs of ../shared/bertscore/data, 10 copies made distinct, below) on a bert-base-sized random BERT
# (768 hidden, 12 layers; layer 9 as bert_score's bert-base-uncased default), per 1,000 pairs.
# bert_score + PyTorch run on the same pairs, with as many threads, when
# `$PYTHON -c "import bert_score, torch"` works (give BASE_MODEL a folder that bert_score can load
# too: bench/make_random_bert.py writes only model.safetensors, which transformers 4.29 without
# the `safetensors` package cannot read; `bench/bertscore_reference.py base-model` writes both).
#
# Usage: bench/bertscore.sh [BASE_MODEL]   (default: made by bench/make_random_bert.py)
# Needs: a built ./build/evalcli, /usr/bin/time, python3. OPENBLAS_NUM_THREADS sets evalcli's threads
# and torch's; OPENBLAS_CORETYPE, if set, both tools' kernels (unset: OpenBLAS picks for the CPU).
# PYTHON (default python3) runs bert_score: Debian's /usr/bin/python3 with
# python3-torch and the PYTHONPATH of bench/bertscore_reference.py.
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/bertscore/data
evalcli=${EVALCLI:-./build/evalcli}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source bench/lib.sh

model=${1:-}
if [ -z "$model" ]; then
  model=$work/base-bert-random
  python3 bench/make_random_bert.py ../shared/bertscore/models/tiny-bert-uncased "$model" > /dev/null
fi
# Copy k of the 200 pairs starts every sentence with its own word, so the 2,000 pairs are distinct
# as in a real test set: bert_score encodes each distinct sentence once (over the whole corpus),
# evalcli once per batch, and 10 identical copies would measure bert_score on 200 pairs.
words=(one two three four five six seven eight nine ten)
for w in "${words[@]}"; do sed "s/^/$w /" "$data/en.cand"; done > "$work/cand"
for w in "${words[@]}"; do sed "s/^/$w /" "$data/en.ref"; done > "$work/ref"
pairs=$(wc -l < "$work/cand")

# Both tools multiply through the same OpenBLAS (Debian's libopenblas0; torch through libblas.so.3),
# whose kernels for this CPU OPENBLAS_CORETYPE can override: say which ones ran.
corename=$(python3 -c 'import ctypes
blas = ctypes.CDLL("libopenblas.so.0")
blas.openblas_get_corename.restype = ctypes.c_char_p
print(blas.openblas_get_corename().decode())' 2> /dev/null || echo unknown)
echo "OpenBLAS kernels: $corename (OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}), threads: ${OPENBLAS_NUM_THREADS:-$(nproc)}"

read -r cpu kb < <(bench_measure "${RUNS:-1}" "$work/out" "$evalcli" bertscore --model "$model" --num-layers 9 \
                    -r "$work/ref" -i "$work/cand" -q)
echo "evalcli bertscore: $pairs pairs, $cpu s CPU ($(awk -v c="$cpu" -v n="$pairs" 'BEGIN {printf "%.1f", 1000 * c / n}') s per 1000 pairs), peak RSS ${kb} KB"
echo "  $(cat "$work/out")"

python=${PYTHON:-python3}
if "$python" -c "import bert_score, torch" 2> /dev/null; then
  cat > "$work/bs.py" <<'PY'
import sys, torch, bert_score
torch.set_num_threads(int(sys.argv[4]))
cands = open(sys.argv[2], encoding="utf-8").read().splitlines()
refs = open(sys.argv[3], encoding="utf-8").read().splitlines()
P, R, F = bert_score.score(cands, refs, model_type=sys.argv[1], num_layers=9, batch_size=64, device="cpu")
print(F.mean().item())
PY
  read -r cpu kb < <(bench_measure 1 "$work/out" "$python" "$work/bs.py" "$model" "$work/cand" "$work/ref" "${OPENBLAS_NUM_THREADS:-$(nproc)}")
  echo "bert_score + torch: $pairs pairs, $cpu s CPU ($(awk -v c="$cpu" -v n="$pairs" 'BEGIN {printf "%.1f", 1000 * c / n}') s per 1000 pairs), peak RSS ${kb} KB, F = $(cat "$work/out")"
else
  echo "bert_score + torch: not installed here ($python -c 'import bert_score, torch' fails): not measured"
fi
