"""pycocoevalcap's Cider (CIDEr-D: clipped counts, Gaussian length penalty) over evalcli's C++ CIDEr."""
from ... import _native


def _scores_array(scores):
    try:
        import numpy as np
    except ImportError:
        return list(scores)
    return np.array(scores)


class Cider:
    """Cider(n=4, sigma=6.0): compute_score(gts, res) -> (score, per-image scores).

    gts: {image_id: [tokenized reference str, ...]}, res: {image_id: [tokenized
    hypothesis str]} with the same keys (PTBTokenizer's output); words are the
    whitespace-separated tokens. Document frequencies come from gts, as pycocoevalcap's.
    The scores are numpy's array when numpy is installed, else a list.
    """

    _variant = "cider-d"

    def __init__(self, test=None, refs=None, n=4, sigma=6.0, df=None):
        options = [("variant", [self._variant]), ("ngram-order", [str(n)]), ("sigma", [repr(float(sigma))]),
                   ("tokenize", ["none"])]
        if df is not None:
            options.append(("df", [df]))  # an `evalcli cider --save-df` file shared by several runs
        self._session = _native.Session("cider", options, "")
        self._n = n
        self._sigma = sigma

    def compute_score(self, gts, res):
        """(corpus score, per-image scores) of the hypotheses `res` against the references `gts`."""
        assert gts.keys() == res.keys()
        hyps, refs = [], []
        for image_id in gts:
            hypo, ref = res[image_id], gts[image_id]
            assert type(hypo) is list
            assert len(hypo) == 1
            assert type(ref) is list
            assert len(ref) > 0
            hyps.append(hypo[0])
            refs.append(ref)
        result = self._session.score(hyps, refs, True, False)
        return result["scores"][0]["score"], _scores_array(result["scores"][0]["sentence_scores"])

    def method(self):
        return "CIDEr"


class CiderD(Cider):
    """CiderD(n=4, sigma=6.0, df=None): the same CIDEr-D as Cider (coco-caption's CiderD
    name); df: an `evalcli cider --save-df` file instead of the references' frequencies."""

    def method(self):
        return "CIDEr-D"
