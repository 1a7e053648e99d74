#!/usr/bin/python3
"""Runs pycocoevalcap's Python scorers of COCOEvalCap (Bleu(4), Rouge, Cider; METEOR and SPICE are
Java) on pre-tokenized plain-text files, the way `evalcli coco-bleu/coco-rouge/cider --tokenize none`
read them, and prints Bleu_1..4, ROUGE_L and CIDEr (Python repr), one per line.

Usage: PYTHONPATH=<pycocoevalcap checkout> coco_pycocoevalcap.py HYP REF1 [REF2 ...]
(salaniz/pycocoevalcap's repository root is the package: bleu.bleu, rouge.rouge, cider.cider.)
"""
import sys


def main():
    hyp_path, ref_paths = sys.argv[1], sys.argv[2:]
    from bleu.bleu import Bleu  # noqa: E402 (imported from PYTHONPATH)
    from cider.cider import Cider  # noqa: E402
    from rouge.rouge import Rouge  # noqa: E402

    def lines(path):
        with open(path, encoding="utf-8") as f:
            return [line.rstrip("\n") for line in f]

    hyps = lines(hyp_path)
    refs = [lines(p) for p in ref_paths]
    gts = {i: [r[i] for r in refs] for i in range(len(hyps))}
    res = {i: [hyps[i]] for i in range(len(hyps))}
    bleu, _ = Bleu(4).compute_score(gts, res, verbose=0)
    rouge, _ = Rouge().compute_score(gts, res)
    cider, _ = Cider().compute_score(gts, res)
    for value in list(bleu) + [rouge, cider]:
        print(repr(float(value)))


if __name__ == "__main__":
    main()
