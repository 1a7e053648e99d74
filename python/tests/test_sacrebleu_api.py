"""evalcli.sacrebleu against what SacreBLEU 2.6.0 itself returned and printed
(tests/data/python/sacrebleu_expected.json; its script says how it was made):
score fields, str(), format() and signatures, for corpus and sentence scores."""
import json
import pickle

import pytest

import evalcli
from evalcli import sacrebleu
from evalcli.sacrebleu.metrics import BLEU, CHRF, TER  # noqa: F401 (the cases name them)
from conftest import SOURCE_DIR, with_evalcli_version

EXPECTED = json.loads((SOURCE_DIR / "tests" / "data" / "python" / "sacrebleu_expected.json").read_text(encoding="utf-8"))
HYPS, REFS = EXPECTED["hyps"], EXPECTED["refs"]


def check(score, expected, signature=""):
    for field, value in expected.items():
        if field == "str":
            assert str(score) == value
        elif field == "format_w1_signature":
            assert score.format(width=1, signature=signature) == with_evalcli_version(value)
        elif field == "format_json":
            if value is not None:
                assert score.format(signature=signature, is_json=True) == with_evalcli_version(value)
        elif field == "format_score_only":
            assert score.format(width=3, score_only=True) == value
        else:
            assert getattr(score, field) == value, field


@pytest.mark.parametrize("case", EXPECTED["cases"], ids=[c["metric"] for c in EXPECTED["cases"]])
def test_metric_class(case):
    metric = eval(case["metric"])
    corpus = metric.corpus_score(HYPS, REFS)
    signature = metric.get_signature()
    assert str(signature) == with_evalcli_version(case["signature"])
    assert signature.format(short=True) == with_evalcli_version(case["signature_short"])
    check(corpus, case["corpus"], str(signature))
    check(eval(case["metric"]).corpus_score(HYPS, REFS[:1]), case["corpus_one_ref"])
    for i, expected in enumerate(case["sentences"]):
        check(metric.sentence_score(HYPS[i], [r[i] for r in REFS]), expected)


def test_compat_functions():
    compat = EXPECTED["compat"]
    assert str(sacrebleu.corpus_bleu(HYPS, REFS)) == compat["corpus_bleu"]
    assert str(sacrebleu.corpus_bleu(HYPS, REFS, lowercase=True, tokenize="intl")) == compat["corpus_bleu_lc_intl"]
    assert str(sacrebleu.raw_corpus_bleu(HYPS, REFS)) == compat["raw_corpus_bleu"]
    assert str(sacrebleu.corpus_chrf(HYPS, REFS)) == compat["corpus_chrf"]
    assert str(sacrebleu.corpus_chrf(HYPS, REFS, word_order=2, remove_whitespace=False)) == compat["corpus_chrf_pp"]
    assert str(sacrebleu.corpus_ter(HYPS, REFS)) == compat["corpus_ter"]
    pairs = [(h, [r[i] for r in REFS]) for i, h in enumerate(HYPS)]
    assert [str(sacrebleu.sentence_bleu(h, r)) for h, r in pairs] == compat["sentence_bleu"]
    assert [str(sacrebleu.sentence_chrf(h, r)) for h, r in pairs] == compat["sentence_chrf"]
    assert [str(sacrebleu.sentence_ter(h, r)) for h, r in pairs] == compat["sentence_ter"]
    variable = [REFS[0], [None if i % 2 else r for i, r in enumerate(REFS[1])]]
    metric = BLEU()
    assert str(metric.corpus_score(HYPS, variable)) == compat["variable_refs"]
    assert str(metric.get_signature()).startswith("nrefs:var|")


def test_cached_references_and_errors():
    metric = CHRF(references=REFS)
    assert metric.corpus_score(HYPS, None).score == CHRF().corpus_score(HYPS, REFS).score
    with pytest.raises(TypeError, match="BLEU: `hyps` should be a sequence of strings."):
        BLEU().corpus_score("not a list", REFS)
    with pytest.raises(ValueError, match="evaluate the metric first"):
        BLEU().get_signature()
    with pytest.raises(evalcli.Error, match="reference stream 1 has 1 segments"):
        BLEU().corpus_score(HYPS, [REFS[0][:1]])


def test_help_says_what_it_does():
    assert "Corpus BLEU" in sacrebleu.corpus_bleu.__doc__
    assert "smooth_method" in BLEU.__doc__
    assert "SacreBLEU" in sacrebleu.__doc__


def test_shard_pickles_and_merges():
    whole = evalcli.score("bleu", HYPS, REFS)
    pieces = [evalcli.stats("bleu", HYPS[:3], [r[:3] for r in REFS]), evalcli.stats("bleu", HYPS[3:], [r[3:] for r in REFS])]
    pieces = [pickle.loads(pickle.dumps(p)) for p in pieces]
    merged = evalcli.merge(pieces)
    assert merged.score == whole.score
    assert merged.totals == whole.totals
    assert merged.shard == whole.shard
    assert whole.score == sacrebleu.corpus_bleu(HYPS, REFS).score
