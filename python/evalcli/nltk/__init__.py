"""A drop-in for NLTK 3.8's METEOR: ``from evalcli.nltk import meteor_score, single_meteor_score``
(also evalcli.nltk.translate.meteor_score.meteor_score)."""
from .translate.meteor_score import meteor_score, single_meteor_score

__all__ = ["meteor_score", "single_meteor_score"]
