"""Writes sacrebleu_expected.json: what SacreBLEU 2.6.0's Python API returns and
prints for the cases below (python/tests/test_sacrebleu_api.py replays them
through evalcli.sacrebleu). Made with a checkout of SacreBLEU 2.6.0:

    PYTHONPATH=/tmp/sacrebleu /usr/bin/python3 tests/data/python/make_sacrebleu_expected.py \
        > tests/data/python/sacrebleu_expected.json
"""
import json

import sacrebleu
from sacrebleu.metrics import BLEU, CHRF, TER

HYPS = ["The cat sat on the mat .", "A dog barks loudly", "Das ist ein kleiner Test, nicht wahr?",
        "  spaces  around  ", "Zürich liegt am See.", "完全に一致しない文", ""]
REFS = [["The cat sat on a mat.", "The dog barks loudly", "Das ist ein kleiner Test, oder?",
         "spaces around", "Zürich liegt am Zürichsee.", "完全に一致する文", "empty hypothesis"],
        ["A cat was sitting on the mat.", "A dog is barking loudly", "Dies ist ein kleiner Test.",
         "spaces around here", "Zürich ist am See.", "一致しない文", "nothing"]]

METRICS = [
    "BLEU()", "BLEU(lowercase=True)", "BLEU(tokenize='intl')", "BLEU(tokenize='char')", "BLEU(tokenize='none')",
    "BLEU(smooth_method='floor', smooth_value=0.2)", "BLEU(smooth_method='add-k')", "BLEU(effective_order=True)",
    "BLEU(trg_lang='zh')", "BLEU(max_ngram_order=2)",
    "CHRF()", "CHRF(word_order=2)", "CHRF(whitespace=True)", "CHRF(lowercase=True, beta=1, char_order=4)",
    "CHRF(eps_smoothing=True)",
    "TER()", "TER(case_sensitive=True)", "TER(normalized=True, asian_support=True)", "TER(no_punct=True)",
]
FIELDS = ["score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len", "ratio", "char_order",
          "word_order", "beta", "num_edits", "ref_length", "name"]


def describe(score, signature=None):
    out = {field: getattr(score, field) for field in FIELDS if hasattr(score, field)}
    out["str"] = str(score)
    out["format_w1_signature"] = score.format(width=1, signature=signature or "")
    out["format_json"] = score.format(signature=signature or "", is_json=True) if signature else None
    out["format_score_only"] = score.format(width=3, score_only=True)
    return out


cases = []
for text in METRICS:
    metric = eval(text)
    corpus = metric.corpus_score(HYPS, REFS)
    signature = metric.get_signature()
    one_ref = eval(text).corpus_score(HYPS, REFS[:1])
    sentences = [describe(metric.sentence_score(h, [r[i] for r in REFS])) for i, h in enumerate(HYPS)]
    cases.append({"metric": text, "corpus": describe(corpus, str(signature)), "signature": str(signature),
                  "signature_short": signature.format(short=True), "corpus_one_ref": describe(one_ref),
                  "sentences": sentences})

compat = {
    "corpus_bleu": str(sacrebleu.corpus_bleu(HYPS, REFS)),
    "corpus_bleu_lc_intl": str(sacrebleu.corpus_bleu(HYPS, REFS, lowercase=True, tokenize="intl")),
    "raw_corpus_bleu": str(sacrebleu.raw_corpus_bleu(HYPS, REFS)),
    "sentence_bleu": [str(sacrebleu.sentence_bleu(h, [r[i] for r in REFS])) for i, h in enumerate(HYPS)],
    "corpus_chrf": str(sacrebleu.corpus_chrf(HYPS, REFS)),
    "corpus_chrf_pp": str(sacrebleu.corpus_chrf(HYPS, REFS, word_order=2, remove_whitespace=False)),
    "sentence_chrf": [str(sacrebleu.sentence_chrf(h, [r[i] for r in REFS])) for i, h in enumerate(HYPS)],
    "corpus_ter": str(sacrebleu.corpus_ter(HYPS, REFS)),
    "sentence_ter": [str(sacrebleu.sentence_ter(h, [r[i] for r in REFS])) for i, h in enumerate(HYPS)],
    "variable_refs": str(BLEU().corpus_score(HYPS, [REFS[0], [None if i % 2 else r for i, r in enumerate(REFS[1])]])),
}
json.dump({"sacrebleu_version": sacrebleu.__version__, "hyps": HYPS, "refs": REFS, "cases": cases, "compat": compat},
          __import__("sys").stdout, ensure_ascii=False, indent=1)
print()
