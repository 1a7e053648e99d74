#!/usr/bin/env bash
# Installs the build dependencies (Debian 12), builds evalcli and scores the
# bundled example in data/ with BLEU (text and JSON) and shows a tokenizer.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
  packages=$(cat .ci/packages.d/*.txt | sed 's/#.*//' | tr -s ' \n' '\n' | sed '/^$/d' | sort -u)
  apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $packages > /dev/null
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DEVALCLI_BUILD_TESTS=OFF > /dev/null
cmake --build build
set -x
./build/evalcli bleu -r data/example.ref.en -r data/example.ref2.en -i data/example.hyp.en
./build/evalcli bleu -r data/example.ref.en -i data/example.hyp.en -f json
./build/evalcli bleu --sentence-level -r data/example.ref.en -w 2 < data/example.hyp.en
head -3 data/example.hyp.en | ./build/evalcli tokenize -tok 13a  # head first: `evalcli | head` can end evalcli by SIGPIPE (exit 141 under pipefail)
./build/evalcli report -m bleu chrf ter rouge meteor -r data/example.ref.en -i data/example.hyp.en  # every metric in one table
