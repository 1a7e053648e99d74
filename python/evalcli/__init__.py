"""evalcli from Python: the numbers of the evalcli command, in process.

Native API (any metric by its command name, with the command's options):

    >>> import evalcli
    >>> result = evalcli.score("bleu", hyps, [refs], tokenize="intl")
    >>> result.score, result.signature, result.sentence_scores
    >>> shard = evalcli.stats("chrf", hyps, [refs])      # what --stats-out writes
    >>> evalcli.merge([shard_1, shard_2]).score           # one run's score over both

Drop-in layers for the reference tools' Python APIs:
evalcli.sacrebleu, evalcli.rouge_score, evalcli.nltk, evalcli.pycocoevalcap.
See docs/python.md.
"""
from ._native import Error, __version__
from ._api import Result, Shard, merge, metric_names, metric_options, score, stats

__all__ = ["Error", "Result", "Shard", "merge", "metric_names", "metric_options", "score", "stats", "__version__"]
