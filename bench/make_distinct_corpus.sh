#!/usr/bin/env bash
# make_distinct_corpus.sh SRC DST COPIES: writes COPIES concatenated copies of
# SRC to DST, each line of copy k prefixed with the token "c<k>" so that every
# line is distinct (SacreBLEU caches tokenisation of repeated lines).
set -euo pipefail
src=$1 dst=$2 copies=$3
: > "$dst"
for k in $(seq 1 "$copies"); do
  sed "s/^/c$k /" "$src" >> "$dst"
done
