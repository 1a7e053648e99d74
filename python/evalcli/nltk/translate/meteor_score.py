"""NLTK 3.8's meteor_score and single_meteor_score over evalcli's C++ METEOR.

Tokens in, a float out, as NLTK's (WordNet 3.0 from Debian's wordnet-base for
synonyms, NLTK's Porter stemmer, str.lower). Other preprocess, stemmer or
wordnet arguments than NLTK's defaults are not available.
"""
import functools

from ... import _native


@functools.lru_cache(maxsize=64)
def _session(alpha, beta, gamma):
    options = [("compat", ["nltk"]), ("alpha", [repr(float(alpha))]), ("beta", [repr(float(beta))]),
               ("gamma", [repr(float(gamma))])]
    return _native.Session("meteor", options, "")


def _words(tokens, what):
    if isinstance(tokens, str):
        raise TypeError(f'"{what}" expects pre-tokenized {what} (Iterable[str]): {tokens}')
    tokens = list(tokens)
    if any(not t or t != "".join(t.split()) for t in tokens):
        raise ValueError(f"evalcli.nltk: a token of the {what} is empty or holds whitespace")
    return " ".join(tokens)


def _check_defaults(preprocess, stemmer, wordnet):
    if preprocess is not str.lower or stemmer is not None or wordnet is not None:
        raise NotImplementedError("evalcli.nltk: only NLTK's default preprocess, stemmer and wordnet are available")


def meteor_score(references, hypothesis, preprocess=str.lower, stemmer=None, wordnet=None, alpha=0.9, beta=3.0,
                 gamma=0.5):
    """METEOR of a tokenized hypothesis against tokenized references: NLTK's max over the references."""
    _check_defaults(preprocess, stemmer, wordnet)
    hyp = _words(hypothesis, "hypothesis")
    refs = [_words(r, "reference") for r in references]
    _, scores = _session(alpha, beta, gamma).score_segments([hyp], [refs], True, False)
    return scores[0]


def single_meteor_score(reference, hypothesis, preprocess=str.lower, stemmer=None, wordnet=None, alpha=0.9,
                        beta=3.0, gamma=0.5):
    """METEOR of a tokenized hypothesis against one tokenized reference."""
    return meteor_score([reference], hypothesis, preprocess, stemmer, wordnet, alpha, beta, gamma)
