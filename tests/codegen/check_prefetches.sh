#!/bin/sh
# The hot look-up loops of the optimized evalcli binary still contain their
# software prefetches. GCC takes a helper whose only effect is
# __builtin_prefetch for a function without effects and drops the calls it
# does not inline: from session 24 to 30 the n-gram table prefetches of ppl's
# scoring loop were silently absent (ppl took 1.5x the CPU on a large probing
# binary). Every prefetch helper is now always_inline; this test fails if a
# loop below loses its prefetches again. Counts are of prefetch instructions
# in the function's machine code; each minimum is one more than the loop has
# without the prefetches this test guards (ppl's scoring loops keep their two
# unigram prefetches then).
# Usage: check_prefetches.sh EVALCLI   (needs objdump, from binutils)
set -eu
binary=$1
listing=$(mktemp)
trap 'rm -f "$listing"' EXIT
# One line per prefetch instruction: the function it is in.
objdump -d -C --no-show-raw-insn "$binary" |
  awk '/^[0-9a-f]+ <.*>:$/ { function_name = $0 } /\tprefetch/ { print function_name }' > "$listing"
status=0
expect() {  # expect MINIMUM FUNCTION-NAME-FRAGMENT
  count=$(grep -cF -- "$2" "$listing" || true)
  if [ "$count" -ge "$1" ]; then
    echo "ok: $count prefetches in $2"
  else
    echo "FAIL: $count prefetches in $2, expected at least $1"
    status=1
  fi
}
expect 3 'score_words_with<evalcli::ppl::KenlmProbingModel>('
expect 3 'score_words_with<evalcli::ppl::(anonymous namespace)::ArpaSearch>('
expect 1 'index_words<evalcli::ppl::KenlmProbingModel>('
expect 1 'index_words<evalcli::ppl::(anonymous namespace)::ArpaSearch>('
expect 1 'SentenceStore::add_batch_words('
exit $status
