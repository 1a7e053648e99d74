"""An independent computation of `evalcli ppl --paired-bs/--paired-ar` (numpy 1.24, Debian's
python3-numpy): SacreBLEU 2.x's paired bootstrap and approximate randomization
(sacrebleu/significance.py; shared/specs/sacrebleu.md 8.3) on perplexity's per-segment
statistics, summed in float64 in segment order as evalcli sums its own metrics
(docs/statistics.md). p-values are given both ways: SacreBLEU's strict count
(#{x > delta} + 1) / (n + 1) and with ties counted (#{x >= delta} + 1) / (n + 1), which
`evalcli ppl` reports (a model compared with itself gets p = 1).

Inputs:
  arpa BASE.stats.json SYSTEM.stats.json: shards written by
      evalcli ppl --lm MODEL -i TEXT --stats-out MODEL.stats.json
    (rows: log10_total, oov_log10_total, tokens, ...; PPL = 10^(-log10_total / tokens))
  logprobs BASE.jsonl SYSTEM.jsonl: the JSONL files themselves (per document: the sum of the
    non-null log-probs in order, and their count; PPL = exp(-sum / count))

    /usr/bin/python3 paired_reference.py arpa|logprobs BASE SYSTEM [--bs N] [--ar N] [--seed S]

prints one JSON object."""
import argparse
import json
import math

import numpy as np


def arpa_rows(path):
    with open(path, encoding="utf-8") as f:
        shard = json.load(f)
    assert shard["stat_names"][0] == "log10_total" and shard["stat_names"][2] == "tokens"
    rows = np.array(shard["systems"][0]["rows"], dtype=np.float64)
    return rows[:, [0, 2]]  # log10 total, tokens


def logprob_rows(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            doc = json.loads(line)
            total, count = 0.0, 0
            for lp in doc["logprobs"]:
                if lp is None:
                    continue
                total += float(lp)
                count += 1
            rows.append((total, float(count)))
    return np.array(rows, dtype=np.float64)


def make_score(mode):
    if mode == "arpa":
        return lambda s: math.pow(10.0, -(s[0] / s[1]))
    return lambda s: math.exp(-(s[0] / s[1]))


def ordered_sums(stats, picks):
    """Sums of the rows `picks` (samples x segments) chooses, added in segment order from zero."""
    sums = np.zeros((picks.shape[0], stats.shape[1]))
    for i in range(picks.shape[1]):
        sums += stats[picks[:, i]]
    return sums


def masked_sums(stats, mask):
    """Per trial, the sum of the segments where mask is set (in segment order, from zero)."""
    sums = np.zeros((mask.shape[0], stats.shape[1]))
    for i in range(mask.shape[1]):
        sums += np.where(mask[:, i:i + 1], stats[i], 0.0)
    return sums


def totals(stats):
    return ordered_sums(stats, np.arange(stats.shape[0])[None, :])[0]


def p_values(samples, delta):
    n = len(samples)
    return {"p_strict": (int(np.sum(samples > delta)) + 1) / (n + 1),
            "p_ties": (int(np.sum(samples >= delta)) + 1) / (n + 1)}


def interval(scores):
    scores = np.sort(np.array(scores))
    n = len(scores)
    lower, upper = scores[n // 40], scores[n - n // 40 - 1]
    return {"mean": float(np.mean(scores)), "ci": float((upper - lower) / 2)}


def bootstrap(base, system, score, samples, seed):
    n = base.shape[0]
    picks = np.random.default_rng(seed).choice(n, size=(samples, n), replace=True)
    base_scores = np.array([score(s) for s in ordered_sums(base, picks)])
    system_scores = np.array([score(s) for s in ordered_sums(system, picks)])
    delta = abs(score(totals(base)) - score(totals(system)))
    differences = np.abs(system_scores - base_scores)
    centred = differences - differences.mean()
    return {"baseline": interval(base_scores), "system": interval(system_scores), **p_values(centred, delta)}


def randomization(base, system, score, trials, seed):
    n = base.shape[0]
    mask = np.random.default_rng(seed).integers(2, size=(trials, n), dtype=bool)
    a = masked_sums(base, mask) + masked_sums(system, ~mask)
    b = masked_sums(base, ~mask) + masked_sums(system, mask)
    differences = np.array([abs(score(x) - score(y)) for x, y in zip(a, b)])
    delta = abs(score(totals(base)) - score(totals(system)))
    return p_values(differences, delta)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["arpa", "logprobs"])
    parser.add_argument("base")
    parser.add_argument("system")
    parser.add_argument("--bs", type=int, default=1000)
    parser.add_argument("--ar", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=12345)
    args = parser.parse_args()
    read = arpa_rows if args.mode == "arpa" else logprob_rows
    base, system = read(args.base), read(args.system)
    assert base.shape == system.shape
    score = make_score(args.mode)
    result = {
        "baseline_score": score(totals(base)),
        "system_score": score(totals(system)),
        "bootstrap": bootstrap(base, system, score, args.bs, args.seed),
        "randomization": randomization(base, system, score, args.ar, args.seed),
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
