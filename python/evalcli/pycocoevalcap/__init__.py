"""A drop-in for pycocoevalcap's CIDEr: ``from evalcli.pycocoevalcap import Cider``
(also evalcli.pycocoevalcap.cider.cider.Cider). Scores of pre-tokenized
captions (as PTBTokenizer gives them), CIDEr-D as pycocoevalcap computes it."""
from .cider.cider import Cider, CiderD

__all__ = ["Cider", "CiderD"]
