"""rouge-score's RougeScorer over evalcli's C++ ROUGE (compat rouge-score-0.1.2)."""
from .. import _native
from . import scoring

_TYPES = {"rougeL", "rougeLsum"} | {f"rouge{n}" for n in range(1, 10)}


class RougeScorer(scoring.BaseScorer):
    """RougeScorer(rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None).

    rouge_types: "rouge1".."rouge9", "rougeL", "rougeLsum" (summary-level LCS over
    newline-separated sentences). use_stemmer: rouge-score's Porter stemmer.
    split_summaries=True (NLTK sentence splitting) and a custom tokenizer are not available.
    """

    def __init__(self, rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None):
        if split_summaries:
            raise NotImplementedError("evalcli.rouge_score: split_summaries=True (NLTK sent_tokenize) is not available")
        if tokenizer is not None:
            raise NotImplementedError("evalcli.rouge_score: custom tokenizers are not available")
        for rouge_type in rouge_types:
            if rouge_type not in _TYPES:
                raise ValueError("Invalid rouge type: %s" % rouge_type)
        self.rouge_types = list(rouge_types)
        options = [("types", self.rouge_types), ("stem", ["true" if use_stemmer else "false"]),
                   ("sentence-sep", ["newline"])]
        self._session = _native.Session("rouge", options, "")
        self._columns = [(t, 3 * k) for k, t in enumerate(self.rouge_types)]  # each type's (P, R, F) in a row

    def _scores(self, refs, prediction):
        row = self._session.score_pair(prediction, refs)
        return {t: scoring.Score(row[k], row[k + 1], row[k + 2]) for t, k in self._columns}

    def score(self, target, prediction):
        """{type: Score(precision, recall, fmeasure)} of `prediction` against `target` (both str)."""
        return self._scores([target], prediction)

    def score_multi(self, targets, prediction):
        """As score() against several targets: per type the Score of the best fmeasure."""
        if not targets:
            raise ValueError("score_multi needs at least one target")
        return self._scores(list(targets), prediction)
