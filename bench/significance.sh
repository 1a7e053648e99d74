#!/usr/bin/env bash
# Benchmark: paired bootstrap (--paired-bs, 1000 resamples) of 5 WMT22 en-de
# systems, evalcli vs SacreBLEU side by side on the same files. Prints CPU time
# (user+sys) of each and the ratio, for BLEU alone and for BLEU+chrF when chrF
# is available, and checks that stdout is identical (up to the version tag).
#
# Usage: bench/significance.sh [SACREBLEU_CHECKOUT]
# Needs: a built ./build/evalcli, /usr/bin/time, Debian python3 with numpy,
# python3-regex, tabulate, colorama, portalocker.
set -euo pipefail
cd "$(dirname "$0")/.."
sacrebleu_dir=${1:?usage: bench/significance.sh SACREBLEU_CHECKOUT}
cd ..   # the folder that holds shared/, as the goldens' commands expect
evalcli=$OLDPWD/build/evalcli
dir=shared/corpora/wmt22/en-de
systems="$dir/hyp.Online-B.de $dir/hyp.JDExploreAcademy.de $dir/hyp.Online-W.de $dir/hyp.PROMT.de $dir/hyp.OpenNMT.de"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cpu() {  # cpu OUTFILE COMMAND... -> CPU seconds (user+sys)
  local out=$1; shift
  /usr/bin/time -f "%U %S" -o "$work/time" "$@" > "$out" 2> /dev/null
  awk '{ printf "%.3f\n", $1 + $2 }' "$work/time"
}

run_case() {  # run_case METRICS...
  # shellcheck disable=SC2086
  local ours ref
  ours=$(cpu "$work/ours" "$evalcli" sacrebleu $dir/ref.A.de -i $systems -m "$@" --paired-bs -f text)
  ref=$(PYTHONPATH="$sacrebleu_dir" cpu "$work/ref" /usr/bin/python3 -m sacrebleu $dir/ref.A.de -i $systems \
        -m "$@" --paired-bs -f text)
  sed -i 's/version:2\.6\.0/version:X/' "$work/ref"
  sed -i 's/version:evalcli-[0-9.]*/version:X/' "$work/ours"
  local same=identical; cmp -s "$work/ours" "$work/ref" || same=DIFFERENT
  awk -v m="$*" -v o="$ours" -v r="$ref" -v s="$same" \
      'BEGIN { printf "%-12s evalcli %6.3f s  sacrebleu %6.3f s  ratio %5.1fx  stdout %s\n", m, o, r, r / o, s }'
}

echo "paired bootstrap, 5 en-de systems x 1000 resamples (CPU user+sys)"
run_case bleu
if "$evalcli" sacrebleu $dir/ref.A.de -i $dir/hyp.Online-B.de -m chrf > /dev/null 2>&1; then
  run_case bleu chrf
fi
