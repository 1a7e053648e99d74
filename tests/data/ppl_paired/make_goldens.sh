#!/bin/sh
# Writes goldens.json: the expected numbers of tests/unit/ppl_paired_test.cpp, computed by
# paired_reference.py (numpy). Run from this folder with the evalcli to take the ARPA
# per-line statistics from (its --stats-out rows; the per-line log10 totals are KenLM
# query's, checked by the ppl conformance test) and the folder holding shared/:
#   sh make_goldens.sh ../../../build/evalcli /work
set -eu
evalcli=$1
lm=$2/shared/corpora/lm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -10 "$lm/test/test2.en.tok" > "$work/test2.en.tok.head10"
stats() {  # MODEL TEXT OUT
  "$evalcli" ppl -q --lm "$lm/arpa/$1" -i "$2" --stats-out "$3" > /dev/null
}
"$evalcli" ppl -q --lm bad.arpa -i clear.txt --stats-out "$work/bad.json" > /dev/null
"$evalcli" ppl -q --lm good.arpa -i clear.txt --stats-out "$work/good.json" > /dev/null
stats toy.en.o3.arpa "$lm/test/toy.test.en.tok" "$work/toy.json"
stats en.o3.arpa.gz "$lm/test/toy.test.en.tok" "$work/o3.json"
stats en.o3.arpa.gz "$work/test2.en.tok.head10" "$work/o3.head10.json"
stats en.o5.prune.arpa.gz "$work/test2.en.tok.head10" "$work/o5prune.head10.json"
golden() {  # NAME COMMAND DESCRIPTION MODE BASE SYSTEM
  printf ' "%s": {"command": "%s", "inputs": "%s", "expected": %s}' "$1" "$2" "$3" \
    "$(/usr/bin/python3 paired_reference.py "$4" "$5" "$6")"
}
{
  echo '{'
  echo ' "made_by": "sh make_goldens.sh EVALCLI SHARED_PARENT (numpy 1.24.2, Debian python3-numpy)",'
  golden logprobs_a_b "/usr/bin/python3 paired_reference.py logprobs a.jsonl b.jsonl" \
    "a.jsonl, b.jsonl (make_logprobs.py)" logprobs a.jsonl b.jsonl
  echo ','
  golden logprobs_a_a "/usr/bin/python3 paired_reference.py logprobs a.jsonl a.jsonl" \
    "a.jsonl twice" logprobs a.jsonl a.jsonl
  echo ','
  golden arpa_bad_good "/usr/bin/python3 paired_reference.py arpa bad.json good.json" \
    "evalcli ppl -q --lm {bad,good}.arpa -i clear.txt --stats-out {bad,good}.json (hand-made models, same vocabulary)" \
    arpa "$work/bad.json" "$work/good.json"
  echo ','
  golden arpa_toy_o3 "/usr/bin/python3 paired_reference.py arpa toy.json o3.json" \
    "evalcli ppl -q --lm shared/corpora/lm/arpa/{toy.en.o3.arpa,en.o3.arpa.gz} -i shared/corpora/lm/test/toy.test.en.tok --stats-out {toy,o3}.json" \
    arpa "$work/toy.json" "$work/o3.json"
  echo ','
  golden arpa_o3_o5prune "/usr/bin/python3 paired_reference.py arpa o3.head10.json o5prune.head10.json" \
    "evalcli ppl -q --lm shared/corpora/lm/arpa/{en.o3.arpa.gz,en.o5.prune.arpa.gz} -i <(head -10 shared/corpora/lm/test/test2.en.tok) --stats-out {o3,o5prune}.head10.json" \
    arpa "$work/o3.head10.json" "$work/o5prune.head10.json"
  echo
  echo '}'
} > goldens.json
