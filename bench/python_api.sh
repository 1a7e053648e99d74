#!/usr/bin/env bash
# Benchmark of the Python module (docs/python.md): in one Python process,
# evalcli.sacrebleu.corpus_bleu vs SacreBLEU's corpus_bleu (and corpus_chrf) on
# WMT22 en-de repeated to 20,370 distinct lines; with a rouge-score checkout,
# RougeScorer.score per pair the same way. CPU time of the calls alone
# (time.process_time; evalcli: median of EVALCLI_RUNS=5 calls, the reference: one).
#
# Usage: bench/python_api.sh SACREBLEU_CHECKOUT [ROUGE_CHECKOUT]
#   SACREBLEU_CHECKOUT: mjpost/sacrebleu v2.6.0 (sacrebleu/version.py written by hand);
#   ROUGE_CHECKOUT: a folder holding the rouge_score package (PyPI 0.1.2) or google-research/
#   google-research's rouge/ folder as `rouge`; needs python3-nltk, python3-six, numpy.
# Needs: build/python (the built module), Debian python3.
set -euo pipefail
cd "$(dirname "$0")/.."
sacrebleu_dir=${1:?usage: bench/python_api.sh SACREBLEU_CHECKOUT [ROUGE_CHECKOUT]}
rouge_dir=${2:-}
shared=../shared/corpora/wmt22
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench/make_distinct_corpus.sh "$shared/en-de/hyp.Online-B.de" "$work/hyp" 10
bench/make_distinct_corpus.sh "$shared/en-de/ref.A.de" "$work/ref" 10
path="${EVALCLI_PYTHON_DIR:-$PWD/build/python}:$sacrebleu_dir"
rouge_flag=()
if [[ -n $rouge_dir ]]; then
  path+=":$rouge_dir"
  rouge_flag=(--rouge)
fi
PYTHONPATH=$path /usr/bin/python3 bench/python_api.py "$work/hyp" "$work/ref" --runs "${EVALCLI_RUNS:-5}" "${rouge_flag[@]}"
