#!/usr/bin/env bash
# Runnable sharding example (docs/sharding.md): splits WMT22 en-de into 7
# pieces, scores them with GNU parallel (local jobslots; add -S host1,host2 to
# spread them over hosts), merges the shards and compares with one run.
# Usage: docs/examples/sharding.sh [EVALCLI]   Needs: parallel (Debian package).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
evalcli=${1:-$root/build/evalcli}
data=$root/../shared/corpora/wmt22/en-de
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
lines=$(wc -l < "$data/ref.A.de")
per=$(( (lines + 6) / 7 ))
split -l "$per" -d "$data/hyp.Online-B.de" hyp.part.
split -l "$per" -d "$data/ref.A.de" ref.part.
ls hyp.part.* | sed 's/^hyp\.part\.//' |
  parallel -S : "$evalcli bleu -q -r ref.part.{} -i hyp.part.{} --stats-out shard.{}.json > /dev/null"
merged=$("$evalcli" merge -w 13 -b shard.*.json)
single=$("$evalcli" bleu -r "$data/ref.A.de" -i "$data/hyp.Online-B.de" -w 13 -b)
echo "merged: $merged"
echo "single: $single"
[ "$merged" = "$single" ] && echo "identical"
