#!/usr/bin/env bash
# evalcli against a compiled peer: sacrebleu-rs (VoiceLessQ/sacrebleu-rs, a Rust port of SacreBLEU
# 2.6.0) for BLEU (13a, intl), chrF, chrF++ and TER on WMT22 en-de (Online-B vs ref A) made
# distinct and repeated to 20,370 and 203,700 lines. Prints CPU time (user+sys) and peak RSS of
# each tool (medians of EVALCLI_RUNS=5 runs each), the scores (they must agree to the 6th
# decimal) and evalcli's CPU ratio (> 1: evalcli uses less), with -j 1 and with every core.
#
# usage: bench/compiled_peers.sh SACREBLEU_RS_CHECKOUT [EVALCLI_BINARY]
# SACREBLEU_RS_CHECKOUT: a checkout of commit f57b251 ("Add the TER metric"), the last whose only
# dependency is the regex crate; later commits need sentencepiece-rust, which Debian does not
# package. E.g. git --git-dir=<mirror> archive f57b251 | tar x -C DIR.
# Needs: cargo and rustc >= 1.85 (edition 2024; not Debian's 1.63: this machine's rustup one),
# Debian's librust-regex-dev (used as the crate registry: no network), /usr/bin/time.
# The driver around the library is bench/sacrebleu_rs/main.rs (release build, LTO, one codegen unit).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
checkout="$(cd "${1:?usage: bench/compiled_peers.sh SACREBLEU_RS_CHECKOUT [EVALCLI]}" && pwd)"
evalcli="${2:-$here/build/evalcli}"
corpus="$here/../shared/corpora/wmt22/en-de"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source "$here/bench/lib.sh"

# The library, its regex requirement relaxed to Debian's regex 1.7 (its patterns need nothing newer).
cp -r "$checkout" "$work/sacrebleu-rs"
rm -f "$work/sacrebleu-rs/Cargo.lock"
sed -i 's/^regex = ".*"/regex = "1"/' "$work/sacrebleu-rs/Cargo.toml"
mkdir -p "$work/driver/src" "$work/driver/.cargo"
cp "$here/bench/sacrebleu_rs/main.rs" "$work/driver/src/main.rs"
cat > "$work/driver/Cargo.toml" <<TOML
[package]
name = "sacrebleu_rs_cli"
version = "0.0.0"
edition = "2021"
[dependencies]
sacrebleu-rs = { path = "$work/sacrebleu-rs" }
[profile.release]
codegen-units = 1
lto = true
TOML
cat > "$work/driver/.cargo/config.toml" <<TOML
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
[net]
offline = true
TOML
(cd "$work/driver" && cargo build --release --quiet)
peer="$work/driver/target/release/sacrebleu_rs_cli"

# metric NAME: evalcli's arguments for it.
evalcli_args() {
  case "$1" in
    bleu) echo "bleu" ;;
    bleu-intl) echo "bleu -tok intl" ;;
    chrf) echo "chrf" ;;
    chrf++) echo "chrf -cw 2" ;;
    ter) echo "ter" ;;
  esac
}

for copies in 10 100; do
  bench/make_distinct_corpus.sh "$corpus/hyp.Online-B.de" "$work/hyp" "$copies"
  bench/make_distinct_corpus.sh "$corpus/ref.A.de" "$work/ref" "$copies"
  echo "$(wc -l < "$work/hyp") lines:"
  for metric in bleu bleu-intl chrf chrf++ ter; do
    read -r -a args <<< "$(evalcli_args "$metric")"
    read -r peer_cpu peer_kb < <(bench_measure "$EVALCLI_RUNS" "$work/peer.out" "$peer" "$metric" "$work/hyp" "$work/ref")
    read -r one_cpu one_kb < <(bench_measure "$EVALCLI_RUNS" "$work/one.out" \
      "$evalcli" "${args[@]}" "$work/ref" -i "$work/hyp" -b -w 6 -j 1)
    read -r all_cpu all_kb < <(bench_measure "$EVALCLI_RUNS" "$work/all.out" \
      "$evalcli" "${args[@]}" "$work/ref" -i "$work/hyp" -b -w 6)
    same="scores identical"
    if [ "$(cat "$work/peer.out")" != "$(cat "$work/one.out")" ] || [ "$(cat "$work/one.out")" != "$(cat "$work/all.out")" ]; then
      same="SCORES DIFFER"
    fi
    awk -v m="$metric" -v p="$peer_cpu" -v pk="$peer_kb" -v o="$one_cpu" -v ok="$one_kb" -v a="$all_cpu" -v ak="$all_kb" \
      -v s="$same ($(cat "$work/peer.out"))" 'BEGIN {
        printf "  %-9s sacrebleu-rs %6.3f s %5.1f MB | evalcli -j 1 %6.3f s %5.1f MB (%5.1fx) | evalcli %6.3f s %5.1f MB (%5.1fx) | %s\n",
          m, p, pk / 1024, o, ok / 1024, p / (o > 0 ? o : 0.001), a, ak / 1024, p / (a > 0 ? a : 0.001), s }'
  done
done
