"""In one Python process: evalcli.sacrebleu.corpus_bleu vs sacrebleu.corpus_bleu, and
evalcli.rouge_score vs rouge_score (when given), on the same distinct lines.
CPU time of each call with time.process_time (median of --runs for evalcli, one run
of the reference tool). Run by bench/python_api.sh."""
import argparse
import statistics
import sys
import time


def lines(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def cpu(call, runs):
    times, result = [], None
    for _ in range(runs):
        start = time.process_time()
        result = call()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def compare(title, ours, theirs, runs, describe):
    ours_cpu, ours_result = cpu(ours, runs)
    theirs_cpu, theirs_result = cpu(theirs, 1)
    print(title)
    print(f"  evalcli   cpu {ours_cpu:7.3f} s  {describe(ours_result)}")
    print(f"  reference cpu {theirs_cpu:7.3f} s  {describe(theirs_result)}")
    print(f"  ratio: {theirs_cpu / max(ours_cpu, 1e-6):.1f}x less CPU, same: {describe(ours_result) == describe(theirs_result)}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("hyp")
    parser.add_argument("ref")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rouge", action="store_true", help="also rouge-score (importable as rouge_score)")
    args = parser.parse_args()
    hyps, refs = lines(args.hyp), lines(args.ref)
    print(f"{len(hyps)} lines, {len(set(hyps))} distinct hypotheses")

    import sacrebleu
    from evalcli import sacrebleu as evalcli_sacrebleu

    compare("corpus_bleu", lambda: evalcli_sacrebleu.corpus_bleu(hyps, [refs]),
            lambda: sacrebleu.corpus_bleu(hyps, [refs]), args.runs, str)
    compare("corpus_chrf", lambda: evalcli_sacrebleu.corpus_chrf(hyps, [refs]),
            lambda: sacrebleu.corpus_chrf(hyps, [refs]), args.runs, str)
    if args.rouge:
        try:
            from rouge_score import rouge_scorer  # the PyPI 0.1.2 package
        except ImportError:
            from rouge import rouge_scorer  # google-research/google-research's rouge/ folder
        from evalcli.rouge_score import rouge_scorer as evalcli_rouge_scorer
        types = ["rouge1", "rouge2", "rougeL"]

        def run(module):
            scorer = module.RougeScorer(types, use_stemmer=True)
            scores = [scorer.score(r, h) for h, r in zip(hyps, refs)]
            return sum(s["rougeL"].fmeasure for s in scores) / len(scores)

        compare("RougeScorer.score per pair (rouge1, rouge2, rougeL, stemmer)", lambda: run(evalcli_rouge_scorer),
                lambda: run(rouge_scorer), args.runs, repr)


if __name__ == "__main__":
    sys.exit(main())
