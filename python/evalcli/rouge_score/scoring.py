"""rouge-score's scoring module: Score and AggregateScore tuples, BootstrapAggregator."""
import collections

from .. import _native

Score = collections.namedtuple("Score", ["precision", "recall", "fmeasure"])
AggregateScore = collections.namedtuple("AggregateScore", ["low", "mid", "high"])


class BaseScorer:
    """What rouge-score's scorers share: score(target, prediction) -> {type: Score}."""

    def score(self, target, prediction):
        raise NotImplementedError()


def _global_numpy_seed():
    # rouge-score draws from numpy's global generator; evalcli needs a seed.
    try:
        import numpy as np
    except ImportError:
        return 0
    return int(np.random.randint(0, 2**32, dtype="uint64"))


class BootstrapAggregator:
    """rouge-score's BootstrapAggregator: add_scores() per pair, then aggregate().

    confidence_interval and n_samples as rouge-score's. rouge-score resamples with
    numpy's global generator; evalcli resamples in C++ with numpy's generator
    seeded by `seed`: seed=S gives rouge-score's numbers after np.random.seed(S)
    (without it, a seed is drawn from numpy's global generator, if installed).
    """

    def __init__(self, confidence_interval=0.95, n_samples=1000, seed=None):
        if n_samples <= 0:
            raise ValueError("n_samples must be positive, got %d" % n_samples)
        if not 0 <= confidence_interval <= 1:
            raise ValueError("confidence_interval must be in range [0, 1], got %f" % confidence_interval)
        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        self._seed = seed
        self._scores = collections.defaultdict(list)

    def add_scores(self, scores):
        """Adds one pair's scores: a dict {type: Score} as RougeScorer.score returns."""
        for score_type, score in scores.items():
            self._scores[score_type].append(tuple(score))

    def aggregate(self):
        """{type: AggregateScore(low, mid, high)} of the bootstrap distribution of the means."""
        seed = self._seed if self._seed is not None else _global_numpy_seed()
        types = list(self._scores)
        intervals = _native.rouge_bootstrap([self._scores[t] for t in types], seed, self._n_samples,
                                            self._confidence_interval)
        return {t: AggregateScore(*(Score(*b) for b in bounds)) for t, bounds in zip(types, intervals)}
