#!/usr/bin/env bash
# evalcli bertscore against bert_score itself on the 200-pair en and zh sets of
# ../shared/bertscore/data: the tiny models of ../shared/bertscore/models and two bert-base-sized
# random BERTs (768 hidden, 12 layers; English and Chinese vocabularies), every pair's P/R/F
# within 1e-5 of bert_score's float64 and float32 values (bench/bertscore_reference.py compare).
#
# Usage: bench/bertscore_vs_bert_score.sh SRC WORK
#   SRC: the checkouts of ../shared/bertscore/regen.sh (transformers v4.29.2 with its patch,
#        huggingface_hub v0.15.1, bert_score 19e7f551) as SRC/transformers, SRC/huggingface_hub,
#        SRC/bert_score; Debian's /usr/bin/python3 with python3-torch, -pandas, -matplotlib.
#   WORK: where the loadable model copies, bert_score's TSVs (WORK/ref) and evalcli's JSON go.
# Needs a built ./build/evalcli (EVALCLI overrides). bert_score's runs take about 6 minutes of CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(cd "$1" && pwd)
mkdir -p "$2" && work=$(cd "$2" && pwd)
shared=$(cd ../shared/bertscore && pwd)
data=$shared/data
evalcli=$(realpath "${EVALCLI:-./build/evalcli}")
reference="/usr/bin/python3 $(pwd)/bench/bertscore_reference.py"
export PYTHONPATH=$src/transformers/src:$src/huggingface_hub/src:$src/bert_score
export PYTHONHASHSEED=0 TRANSFORMERS_OFFLINE=1 HF_HUB_OFFLINE=1
cd "$work"
mkdir -p models ref ev
for m in tiny-bert-uncased tiny-bert-cased-zh tiny-roberta tiny-xlmr; do
  [ -d "models/$m" ] || $reference loadable "$shared/models/$m" "models/$m"
done
[ -d models/base-bert-uncased-random ] || $reference base-model models/tiny-bert-uncased models/base-bert-uncased-random
[ -d models/base-bert-cased-zh-random ] || $reference base-model models/tiny-bert-cased-zh models/base-bert-cased-zh-random

# One comparison: MODEL SET LAYER TAG [bert_score options]; TAG idf adds --idf, multi a second reference.
compare() {
  local model=$1 set=$2 layer=$3 tag=$4
  shift 4
  local name=$model.$set.L$layer.$tag refs=$data/$set.ref
  local args=(bertscore --model "models/$model" --num-layers "$layer" -i "$data/$set.cand" -r "$data/$set.ref" -sl -f json -q)
  [ "$tag" = multi ] && refs=$refs,$data/en.ref2 && args+=(-r "$data/en.ref2")
  [ "$tag" = idf ] && args+=(--idf)
  [ -s "ref/$name.tsv" ] || $reference score "models/$model" "$data/$set.cand" "$refs" "$layer" "ref/$name.tsv" "$@" 2> /dev/null
  "$evalcli" "${args[@]}" > "ev/$name.json"
  $reference compare "ref/$name.tsv" "ev/$name.json"
}
compare tiny-bert-uncased en 3 noidf
compare tiny-bert-uncased en 5 idf --idf
compare tiny-bert-uncased en 3 multi
compare tiny-bert-cased-zh zh 5 noidf --lang zh
compare tiny-bert-cased-zh zh 2 idf --idf --lang zh
compare tiny-roberta en 3 noidf
compare tiny-roberta en 5 idf --idf
compare tiny-xlmr en 3 noidf
compare tiny-xlmr zh 3 idf --idf --lang zh
compare base-bert-uncased-random en 9 noidf
compare base-bert-uncased-random en 9 idf --idf
compare base-bert-cased-zh-random zh 8 noidf --lang zh
compare base-bert-cased-zh-random zh 8 idf --idf --lang zh
