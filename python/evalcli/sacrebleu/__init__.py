"""A drop-in for SacreBLEU 2.x's Python API: ``from evalcli import sacrebleu``.

corpus_bleu, sentence_bleu, corpus_chrf, sentence_chrf, corpus_ter,
sentence_ter and raw_corpus_bleu take SacreBLEU's arguments; metrics.BLEU,
metrics.CHRF and metrics.TER its constructor arguments. Numbers, score fields
and str() are SacreBLEU's; signatures differ only in ``version:`` (evalcli-X.Y.Z).
"""
from .metrics import BLEU, CHRF, TER, BLEUScore, CHRFScore, TERScore
from . import metrics

__version__ = "2.6.0"  # the SacreBLEU whose API and output this layer reproduces


def corpus_bleu(hypotheses, references, smooth_method="exp", smooth_value=None, force=False, lowercase=False,
                tokenize=BLEU.TOKENIZER_DEFAULT, use_effective_order=False):
    """Corpus BLEU of `hypotheses` (a list of str) against `references` (a list of
    reference streams, each a list of str, one per hypothesis): a BLEUScore.

    smooth_method: 'exp', 'floor', 'add-k' or 'none' (smooth_value for floor and add-k);
    tokenize: '13a', 'intl', 'zh', 'char', 'ja-mecab' or 'none'; lowercase; force: no
    warning about tokenized input; use_effective_order: ignore n-gram orders without matches.
    """
    metric = BLEU(lowercase=lowercase, force=force, tokenize=tokenize, smooth_method=smooth_method,
                  smooth_value=smooth_value, effective_order=use_effective_order)
    return metric.corpus_score(hypotheses, references)


def raw_corpus_bleu(hypotheses, references, smooth_value=BLEU.SMOOTH_DEFAULTS["floor"]):
    """Corpus BLEU without tokenization, floor smoothing (`smooth_value`) and effective order."""
    return corpus_bleu(hypotheses, references, smooth_method="floor", smooth_value=smooth_value, force=True,
                       tokenize="none", use_effective_order=True)


def sentence_bleu(hypothesis, references, smooth_method="exp", smooth_value=None, lowercase=False,
                  tokenize=BLEU.TOKENIZER_DEFAULT, use_effective_order=True):
    """BLEU of one hypothesis (str) against its references (a list of str): a BLEUScore.
    Options as corpus_bleu; effective order is on by default, as in SacreBLEU."""
    metric = BLEU(lowercase=lowercase, tokenize=tokenize, force=False, smooth_method=smooth_method,
                  smooth_value=smooth_value, effective_order=use_effective_order)
    return metric.sentence_score(hypothesis, references)


def corpus_chrf(hypotheses, references, char_order=CHRF.CHAR_ORDER, word_order=CHRF.WORD_ORDER, beta=CHRF.BETA,
                remove_whitespace=True, eps_smoothing=False):
    """Corpus chrF of `hypotheses` against reference streams (as corpus_bleu): a CHRFScore.
    word_order=2 is chrF++; remove_whitespace=False keeps spaces in character n-grams."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta, whitespace=not remove_whitespace,
                  eps_smoothing=eps_smoothing)
    return metric.corpus_score(hypotheses, references)


def sentence_chrf(hypothesis, references, char_order=CHRF.CHAR_ORDER, word_order=CHRF.WORD_ORDER, beta=CHRF.BETA,
                  remove_whitespace=True, eps_smoothing=False):
    """chrF of one hypothesis (str) against its references (a list of str): a CHRFScore."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta, whitespace=not remove_whitespace,
                  eps_smoothing=eps_smoothing)
    return metric.sentence_score(hypothesis, references)


def corpus_ter(hypotheses, references, normalized=False, no_punct=False, asian_support=False, case_sensitive=False):
    """Corpus TER of `hypotheses` against reference streams (as corpus_bleu): a TERScore."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive)
    return metric.corpus_score(hypotheses, references)


def sentence_ter(hypothesis, references, normalized=False, no_punct=False, asian_support=False, case_sensitive=False):
    """TER of one hypothesis (str) against its references (a list of str): a TERScore."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive)
    return metric.sentence_score(hypothesis, references)


__all__ = ["BLEU", "CHRF", "TER", "BLEUScore", "CHRFScore", "TERScore", "corpus_bleu", "raw_corpus_bleu",
           "sentence_bleu", "corpus_chrf", "sentence_chrf", "corpus_ter", "sentence_ter", "metrics"]
