#!/usr/bin/python3
"""Runs pycocoevalcap's Cider (CIDEr-D) on pre-tokenized plain-text files, the
way evalcli's `cider --tokenize none` reads them, and prints the corpus score.

Usage: PYTHONPATH=<pycocoevalcap checkout parent> cider_pycocoevalcap.py HYP REF1 [REF2 ...]
The checkout may be the package itself (salaniz/pycocoevalcap's repository root
is the package `pycocoevalcap`): this script imports `cider.cider` from it.
"""
import sys


def main():
    hyp_path, ref_paths = sys.argv[1], sys.argv[2:]
    from cider.cider import Cider  # noqa: E402 (imported from PYTHONPATH)

    def lines(path):
        with open(path, encoding="utf-8") as f:
            return [line.rstrip("\n") for line in f]

    hyps = lines(hyp_path)
    refs = [lines(p) for p in ref_paths]
    gts = {i: [r[i] for r in refs] for i in range(len(hyps))}
    res = {i: [hyps[i]] for i in range(len(hyps))}
    score, _ = Cider().compute_score(gts, res)
    print(repr(float(score)))


if __name__ == "__main__":
    main()
