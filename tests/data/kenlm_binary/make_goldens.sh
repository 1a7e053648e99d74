#!/bin/bash
# Remakes the KenLM binary models and query's outputs in this folder.
# KenLM: github kpu/kenlm commit 4cb443e60b7bf2c0ddf3c745378f76cb59e254e5, built with
#   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build --target lmplz build_binary query
# Usage: make_goldens.sh KENLM_BIN_DIR SHARED_DIR   (SHARED_DIR = ../shared of the checkout)
set -euo pipefail
bin=$1 lm=$2/corpora/lm
cd "$(dirname "$0")"
cp "$lm/arpa/toy.en.o3.arpa" toy.o3.arpa
cp "$lm/edge/edge.arpa" "$lm/edge/nounk.arpa" .
cp "$lm/test/toy.test.en.tok" toy.test.en.tok
cp "$lm/edge/edge.in" edge.in
printf '</s> <s> a\n<s> <s>\nzz b c\n' > literal_markers.in
# KenLM's signed zeros (p = 0 prints -0 or 0): the model of ppl_test.cpp's signed-zeros case.
printf '\\data\\\nngram 1=4\nngram 2=2\n\n\\1-grams:\n-1\t<unk>\t0\n0\t<s>\t-0.5\n-0.5\t</s>\t0\n-0.25\tw\t0\n\n\\2-grams:\n-0.1\t<s> w\n-0.2\tw </s>\n\n\\end\\\n' > zeros.arpa
printf 'w </s> <s> w\nw <s>\n<s> w\n<s>\n' > zeros.in
# A 5-gram small enough to keep here: lmplz on the toy training text (40 lines).
"$bin/lmplz" -o 5 -S 1G -T /tmp --discount_fallback < "$lm/train/train.en.toy.tok" > toy.o5.arpa 2>/dev/null
for model in toy.o3 toy.o5 edge nounk zeros; do
  "$bin/build_binary" probing $model.arpa $model.probing > /dev/null 2>&1
done
# Tries: plain, quantised (-q 8 -b 8), array-compressed pointers (-a 22) and both;
# file suffixes trie, qtrie, atrie, qatrie.
for model in toy.o3 toy.o5 edge nounk zeros; do
  "$bin/build_binary" trie $model.arpa $model.trie > /dev/null 2>&1
  "$bin/build_binary" -q 8 -b 8 trie $model.arpa $model.qtrie > /dev/null 2>&1
  "$bin/build_binary" -a 22 trie $model.arpa $model.atrie > /dev/null 2>&1
  "$bin/build_binary" -q 8 -b 8 -a 22 trie $model.arpa $model.qatrie > /dev/null 2>&1
done
# query's stdout (its timing lines go to stderr); -n = null context.
for model in toy.o3 toy.o5; do
  "$bin/query" $model.probing < toy.test.en.tok > $model.toy-test.query.txt 2>/dev/null
  "$bin/query" -n $model.probing < toy.test.en.tok > $model.toy-test.null.query.txt 2>/dev/null
done
for model in edge nounk; do
  "$bin/query" $model.probing < edge.in > $model.edge.query.txt 2>/dev/null
  "$bin/query" $model.probing < literal_markers.in > $model.literal.query.txt 2>/dev/null
done
"$bin/query" zeros.probing < zeros.in > zeros.query.txt 2>/dev/null
"$bin/query" -n zeros.probing < zeros.in > zeros.null.query.txt 2>/dev/null
# The same inputs on every trie: query's output differs from the probing one
# (word ids in sorted-hash order, 0 for -0, quantised weights).
for kind in trie qtrie atrie qatrie; do
  for model in toy.o3 toy.o5; do
    "$bin/query" $model.$kind < toy.test.en.tok > $model.$kind.toy-test.query.txt 2>/dev/null
    "$bin/query" -n $model.$kind < toy.test.en.tok > $model.$kind.toy-test.null.query.txt 2>/dev/null
  done
  for model in edge nounk; do
    "$bin/query" $model.$kind < edge.in > $model.$kind.edge.query.txt 2>/dev/null
    "$bin/query" $model.$kind < literal_markers.in > $model.$kind.literal.query.txt 2>/dev/null
  done
  "$bin/query" zeros.$kind < zeros.in > zeros.$kind.query.txt 2>/dev/null
  "$bin/query" -n zeros.$kind < zeros.in > zeros.$kind.null.query.txt 2>/dev/null
done
chmod u+w ./*
