"""The rouge-score, NLTK METEOR and pycocoevalcap CIDEr goldens reproduced
through evalcli.rouge_score, evalcli.nltk and evalcli.pycocoevalcap (and the
native API where the golden's tokenizer has no drop-in): numbers equal, bit for bit."""
import json
import math

import pytest

import evalcli
from evalcli.nltk import meteor_score
from evalcli.pycocoevalcap import Cider
from evalcli.rouge_score import rouge_scorer, scoring
from conftest import goldens, load_golden, read_lines, shared_path, value

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def as_dict(scores):
    return {t: {"precision": s.precision, "recall": s.recall, "fmeasure": s.fmeasure} for t, s in scores.items()}


def means(per_pair, types):
    n = len(per_pair)
    return {t: {f: math.fsum(getattr(p[t], f) for p in per_pair) / n for f in ("precision", "recall", "fmeasure")}
            for t in types}


def bootstrap(per_pair, types, seed, n_samples=1000, confidence=0.95):
    aggregator = scoring.BootstrapAggregator(confidence_interval=confidence, n_samples=n_samples, seed=seed)
    for pair in per_pair:
        aggregator.add_scores({t: pair[t] for t in types})
    return {t: {bound: getattr(a, bound)._asdict() for bound in ("low", "mid", "high")}
            for t, a in aggregator.aggregate().items()}


def summary_lines(relative):
    # One summary a line, sentences separated by TAB: rouge-score is given them on separate lines.
    return [line.replace("\t", "\n") for line in read_lines(relative, strip=False)]


@pytest.mark.parametrize("path", goldens("rouge", "rs_cnndm_"))
def test_rouge_score_cnndm(path):
    golden = load_golden(path)
    options, inputs, expected = value(golden["options"]), value(golden["inputs"]), value(golden["expected"])
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=options["use_stemmer"])
    hyps, refs = summary_lines(inputs["hyp"]), summary_lines(inputs["ref"][0])
    per_pair = [scorer.score(target=r, prediction=h) for h, r in zip(hyps, refs)]
    assert len(per_pair) == expected["n_pairs"]
    assert [as_dict(p) for p in per_pair[:20]] == value(expected["per_pair_first20"])
    assert means(per_pair, TYPES) == value(expected["mean"])
    assert bootstrap(per_pair, TYPES, seed=42) == value(expected["bootstrap_seed42"])


@pytest.mark.parametrize("path", goldens("rouge", "rs_bootstrap_behaviour"))
def test_rouge_bootstrap_aggregator(path):
    golden = load_golden(path)
    inputs, expected = value(golden["inputs"]), value(golden["expected"])
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    hyps, refs = read_lines(inputs["hyp"], strip=False), read_lines(inputs["ref"][0], strip=False)
    per_pair = [scorer.score(r, h) for h, r in zip(hyps, refs)]
    assert means(per_pair, TYPES) == value(expected["mean"])
    variants = {"seed0_n1000_ci95": (0, 1000, 0.95, TYPES), "seed1_n1000_ci95": (1, 1000, 0.95, TYPES),
                "seed42_n1000_ci95": (42, 1000, 0.95, TYPES), "seed42_n100_ci95": (42, 100, 0.95, TYPES),
                "seed42_n1000_ci90": (42, 1000, 0.90, TYPES), "seed42_n1000_ci95_only_rougeL": (42, 1000, 0.95, ["rougeL"])}
    for name, (seed, n, ci, types) in variants.items():
        assert bootstrap(per_pair, types, seed, n, ci) == value(expected[name]), name


@pytest.mark.parametrize("path", goldens("rouge", "rs_dialogsum_multiref"))
def test_rouge_score_multi(path):
    golden = load_golden(path)
    inputs, expected = value(golden["inputs"]), value(golden["expected"])
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    hyps = read_lines(inputs["hyp"], strip=False)
    refs = [read_lines(r, strip=False) for r in inputs["ref"]]
    multi = [scorer.score_multi([r[i] for r in refs], h) for i, h in enumerate(hyps)]
    assert means(multi, TYPES) == value(expected["score_multi_max"])["mean"]
    for k in range(3):
        single = [scorer.score(refs[k][i], h) for i, h in enumerate(hyps)]
        assert means(single, TYPES) == value(expected[f"single_ref{k + 1}"])["mean"]


@pytest.mark.parametrize("path", goldens("meteor", "nltk_meteor."))
def test_nltk_meteor(path):
    golden = load_golden(path)
    inputs, options, expected = value(golden["inputs"]), value(golden["options"]), value(golden["expected"])
    hyps = read_lines(inputs["hyp"], strip=False)
    refs = [read_lines(r, strip=False) for r in inputs["refs"]]
    parameters = {k: options[k] for k in ("alpha", "beta", "gamma")}
    if options["tokenization"].startswith("nltk.tokenize.word_tokenize"):
        # NLTK's word_tokenize has no drop-in here: evalcli's nltk-word tokenizer through the native API.
        result = evalcli.score("meteor", hyps, refs, rstrip=False, tokenize="nltk-word", **parameters)
        scores = result.sentence_scores
    else:
        scores = [meteor_score([r[i].split() for r in refs], h.split(), **parameters) for i, h in enumerate(hyps)]
    assert scores == value(expected["segment_scores"])
    assert sum(scores) / len(scores) == expected["corpus_mean"]


def tokenized_inputs(inputs):
    pretokenized = inputs["pretokenized"]
    hyps = read_lines(pretokenized["hyp"], strip=False)
    if isinstance(pretokenized["refs"], str):  # JSONL: every image's references
        with open(shared_path(pretokenized["refs"]), encoding="utf-8") as f:
            refs = [json.loads(line)["refs"] for line in f if line.strip()]
    else:
        streams = [read_lines(r, strip=False) for r in pretokenized["refs"]]
        refs = [[s[i] for s in streams] for i in range(len(hyps))]
    return hyps, refs


@pytest.mark.parametrize("path", [p for p in goldens("cider", "ciderD.pycocoevalcap.")
                                  if p.values[0] is None or "pretokenized" in value(load_golden(p.values[0])["inputs"])])
def test_pycocoevalcap_cider(path):
    golden = load_golden(path)
    hyps, refs = tokenized_inputs(value(golden["inputs"]))
    expected = value(golden["expected"])
    gts = {i: r for i, r in enumerate(refs)}
    res = {i: [h] for i, h in enumerate(hyps)}
    score, scores = Cider().compute_score(gts, res)
    assert list(scores) == expected["per_image"]
    assert score == expected["corpus"]


@pytest.mark.parametrize("path", goldens("cider", "cider-original.vrama91.coco"))
def test_original_cider(path):
    golden = load_golden(path)
    hyps, refs = tokenized_inputs(value(golden["inputs"]))
    expected = value(golden["expected"])
    result = evalcli.score("cider", hyps, refs, refs_by_segment=True, variant="cider", tokenize="none")
    assert result.sentence_scores == expected["per_image"]
    assert result.score == expected["corpus"]
