"""SacreBLEU 2.x's metric classes (sacrebleu.metrics) over evalcli's C++ metrics.

``BLEU``, ``CHRF`` and ``TER`` take SacreBLEU's constructor arguments and give
the same scores, score objects, ``str()`` and signatures (only ``version:``
names evalcli). Not available: the Korean, spm and flores tokenizers.
"""
import logging
from collections.abc import Sequence

from ... import _native

sacrelogger = logging.getLogger("sacrebleu")


class Signature:
    """A metric's signature: ``format(short=False)`` / ``str()`` as SacreBLEU prints it."""

    def __init__(self, full, short):
        self._full = full
        self._short = short
        self.info = dict(field.split(":", 1) for field in full.split("|"))

    def format(self, short=False):
        """The signature string, e.g. ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:evalcli-0.1.0``."""
        return self._short if short else self._full

    def __str__(self):
        return self.format()

    def __repr__(self):
        return self.format()


class Score:
    """A score as SacreBLEU's: ``name``, ``score``, ``format()`` and ``str()``."""

    def __init__(self, name, score, metric, totals):
        self.name = name
        self.score = score
        self._metric = metric
        self._totals = totals
        self._mean = -1.0
        self._ci = -1.0

    def format(self, width=2, score_only=False, signature="", is_json=False):
        """Score.format() of SacreBLEU: "BLEU = 26.04 62.8/..." (or its JSON with is_json)."""
        confidence = (self._mean, self._ci) if self._mean > 0 else None
        return self._metric._session.sacrebleu_format(self._totals, width, score_only, str(signature), is_json,
                                                      confidence)

    def __repr__(self):
        return self.format()

    def __str__(self):
        return self.format()


class BLEUScore(Score):
    """BLEU's score: score, counts, totals, precisions, bp, sys_len, ref_len, ratio."""

    def __init__(self, score, details, metric, totals):
        super().__init__("BLEU", score, metric, totals)
        self.bp = details["bp"]
        self.counts = [int(c) for c in details["counts"]]
        self.totals = [int(t) for t in details["totals"]]
        self.sys_len = int(details["sys_len"])
        self.ref_len = int(details["ref_len"])
        self.precisions = details["precisions"]
        self.prec_str = "/".join(f"{p:.1f}" for p in self.precisions)
        self.ratio = self.sys_len / self.ref_len if self.ref_len else 0


class CHRFScore(Score):
    """chrF's score: score, char_order, word_order, beta."""

    def __init__(self, score, metric, totals):
        super().__init__(f"chrF{metric.beta}" + "+" * metric.word_order, score, metric, totals)
        self.beta = metric.beta
        self.char_order = metric.char_order
        self.word_order = metric.word_order


class TERScore(Score):
    """TER's score: score, num_edits, ref_length."""

    def __init__(self, score, details, metric, totals):
        super().__init__("TER", score, metric, totals)
        self.num_edits = int(details["num_edits"])
        self.ref_length = details["ref_length"]


class Metric:
    """What BLEU, CHRF and TER share: SacreBLEU's corpus_score, sentence_score, get_signature."""

    _command = ""

    def __init__(self, options, references):
        self._session = _native.Session(self._command, _options(options), "")
        self._refs = None
        self._result = None
        if references is not None:
            self._check_corpus_args(["" for _ in references[0]] if references else [], references)
            self._refs = references

    def _score_object(self, result):
        raise NotImplementedError

    def _check_corpus_args(self, hyps, refs):
        prefix = self.__class__.__name__
        message = None
        if not isinstance(hyps, Sequence) or isinstance(hyps, str):
            message = "`hyps` should be a sequence of strings."
        elif hyps and not isinstance(hyps[0], str):
            message = "Each element of `hyps` should be a string."
        elif any(h is None for h in hyps):
            message = "Undefined line in hypotheses stream!"
        elif refs is not None:
            if not isinstance(refs, Sequence) or isinstance(refs, str):
                message = "`refs` should be a sequence of sequence of strings."
            elif refs and (not isinstance(refs[0], Sequence) or isinstance(refs[0], str)):
                message = "Each element of `refs` should be a sequence of strings."
        if message:
            raise TypeError(f"{prefix}: {message}")

    def _score(self, hyps, refs, n_bootstrap=1):
        samples = n_bootstrap if n_bootstrap > 1 else 0
        # SacreBLEU leaves out missing (None) references: "nrefs:var" when their number varies.
        streams = [list(stream) for stream in refs]
        if any(r is None for stream in streams for r in stream):
            by_segment = [[r for r in segment if r is not None] for segment in zip(*streams)]
            result = self._session.score(hyps, by_segment, True, False, False, samples)
        else:
            result = self._session.score(hyps, streams, False, False, False, samples)
        self._result = result
        score = self._score_object(result)
        if result["confidence"] is not None:  # SacreBLEU's estimate_ci: the bootstrap mean and half-width
            score._mean = result["confidence"]["mean"]
            score._ci = result["confidence"]["half_width"]
        return score

    def corpus_score(self, hypotheses, references, n_bootstrap=1):
        """The corpus score of `hypotheses` (a list of str) against `references` (a list of
        reference streams, each a list of str as long as `hypotheses`; None: those given
        to the constructor). n_bootstrap > 1: SacreBLEU's bootstrap confidence interval
        (seed SACREBLEU_SEED, default 12345), printed "(μ = mean ± ci)" by str()."""
        self._check_corpus_args(hypotheses, references)
        refs = references if references is not None else self._refs
        if refs is None:
            raise RuntimeError("No references provided and the cache is empty.")
        return self._score(hypotheses, refs, n_bootstrap)

    def sentence_score(self, hypothesis, references):
        """The score of one hypothesis (str) against its references (a list of str)."""
        prefix = self.__class__.__name__
        if not isinstance(hypothesis, str):
            raise TypeError(f"{prefix}: The argument `hyp` should be a string.")
        if isinstance(references, str) or not isinstance(references, Sequence):
            raise TypeError(f"{prefix}: The argument `refs` should be a sequence of strings.")
        if references and not isinstance(references[0], str):
            raise TypeError(f"{prefix}: Each element of `refs` should be a string.")
        return self._score([hypothesis], [[r] for r in references])

    def get_signature(self):
        """The Signature of the last scoring (SacreBLEU knows nrefs only then)."""
        if self._result is None:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        return Signature(self._result["sacrebleu_signature"], self._result["sacrebleu_short_signature"])


def _options(options):
    given = []
    for name, value in options.items():
        if value is None:
            continue
        if isinstance(value, bool):
            given.append((name, ["true" if value else "false"]))
        else:
            given.append((name, [str(value)]))
    return given


class BLEU(Metric):
    """SacreBLEU's BLEU: BLEU(lowercase=False, force=False, tokenize=None, smooth_method='exp',
    smooth_value=None, max_ngram_order=4, effective_order=False, trg_lang='', references=None).

    tokenize: 'none', 'zh', '13a', 'intl', 'char', 'ja-mecab' (None: chosen by trg_lang, else 13a).
    """

    SMOOTH_DEFAULTS = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
    TOKENIZERS = ["none", "zh", "13a", "intl", "char", "ja-mecab"]
    TOKENIZER_DEFAULT = "13a"
    MAX_NGRAM_ORDER = 4
    _command = "bleu"

    def __init__(self, lowercase=False, force=False, tokenize=None, smooth_method="exp", smooth_value=None,
                 max_ngram_order=MAX_NGRAM_ORDER, effective_order=False, trg_lang="", references=None):
        if smooth_method not in self.SMOOTH_DEFAULTS:
            raise AssertionError(f"Unknown smooth_method {smooth_method!r}")
        self.lowercase = lowercase
        self.smooth_method = smooth_method
        self.smooth_value = smooth_value
        self.max_ngram_order = max_ngram_order
        self.effective_order = effective_order
        self.trg_lang = trg_lang
        options = {"lowercase": lowercase, "tokenize": tokenize, "smooth-method": smooth_method,
                   "smooth-value": smooth_value, "effective-order": effective_order, "force": force}
        if max_ngram_order != self.MAX_NGRAM_ORDER:
            options["max-ngram-order"] = max_ngram_order
        if tokenize is None and trg_lang:
            options["language-pair"] = f"xx-{trg_lang}"
        super().__init__(options, references)

    def sentence_score(self, hypothesis, references):
        """Sentence BLEU of one hypothesis; SacreBLEU recommends effective_order=True for it."""
        if not self.effective_order:
            sacrelogger.warning("It is recommended to enable `effective_order` for sentence-level BLEU.")
        return super().sentence_score(hypothesis, references)

    def _score_object(self, result):
        return BLEUScore(result["scores"][0]["score"], result["details"], self, result["totals"])


class CHRF(Metric):
    """SacreBLEU's chrF: CHRF(char_order=6, word_order=0, beta=2, lowercase=False,
    whitespace=False, eps_smoothing=False, references=None); word_order=2 is chrF++."""

    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2
    _command = "chrf"

    def __init__(self, char_order=CHAR_ORDER, word_order=WORD_ORDER, beta=BETA, lowercase=False, whitespace=False,
                 eps_smoothing=False, references=None):
        self.char_order = char_order
        self.word_order = word_order
        self.beta = beta
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing
        options = {"chrf-char-order": char_order, "chrf-word-order": word_order, "chrf-beta": beta,
                   "lowercase": lowercase, "chrf-whitespace": whitespace, "chrf-eps-smoothing": eps_smoothing}
        super().__init__(options, references)

    def _score_object(self, result):
        return CHRFScore(result["scores"][0]["score"], self, result["totals"])


class TER(Metric):
    """SacreBLEU's TER: TER(normalized=False, no_punct=False, asian_support=False,
    case_sensitive=False, references=None)."""

    _command = "ter"

    def __init__(self, normalized=False, no_punct=False, asian_support=False, case_sensitive=False, references=None):
        self.normalized = normalized
        self.no_punct = no_punct
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        options = {"ter-normalized": normalized, "ter-no-punct": no_punct, "ter-asian-support": asian_support,
                   "ter-case-sensitive": case_sensitive}
        super().__init__(options, references)

    def _score_object(self, result):
        return TERScore(result["scores"][0]["score"], result["details"], self, result["totals"])


__all__ = ["BLEU", "CHRF", "TER", "BLEUScore", "CHRFScore", "TERScore", "Score", "Signature"]
