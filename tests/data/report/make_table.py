#!/usr/bin/env python3
"""Writes table.json: the hand-made evalcli-table/1 document that the HTML report's browser test
renders (tests/html/, docs/report.md). 3 systems, 3 rows (TER: lower is better, no length
buckets), 30 segments, with '&', '<script>' and '</script>' in names and texts. The numbers are
invented (seeded), not scores of these texts: only the page is under test."""
import json
import random

random.seed(22)
systems = ["sys-a.txt", "b&c.txt", "c<script>.txt"]
base = ["the cat sat on the mat", "a dog ran in the park", "the old man saw the river",
        "it is a big red house", "we walked near the river at night", "the children play in the garden"]
refs, hyps, ids = [], [], []
for i in range(30):
    r = base[i % len(base)]
    refs.append([r, r.replace("the", "a", 1)] if i % 3 == 0 else [r])
    words = r.split()
    hyps.append([" ".join(words[:-1] + ["today"]), " ".join(reversed(words)), r.upper() if i % 4 else r])
    ids.append(str(i + 1))
hyps[4][1] = '</script><b id="escape-probe">x</b> & the mat'
refs[6] = ['Tom & Jerry <script>alert(1)</script> sat', "Tom and Jerry sat"]
hyps[6][2] = "Tom & Jerry sat <!-- not a comment -->"

def sentence_scores(offset, spread, null_at=None):
    rows = []
    for i in range(30):
        rows.append([None if (i, s) == null_at else round(min(100, max(0, random.gauss(offset + 8 * s, spread))), 2)
                     for s in range(3)])
    return rows

def cell(system, score, p, width):
    return {"system": system, "score": score, "text": f"{score:.{width}f}",
            "confidence": {"mean": score - 0.1, "half_width": 1.3, "lower": score - 1.4, "upper": score + 1.2},
            "p_value": p, "significant": None if p is None else p <= 0.05}

def row(metric, label, signature, scores, p_values, higher, pair_p):
    return {"metric": metric, "label": label, "signature": signature, "width": 1, "higher_is_better": higher,
            "cells": [cell(s, v, p, 1) for s, v, p in zip(systems, scores, p_values)],
            "pairs": [{"a": a, "b": b, "p_value": p, "significant": p <= 0.05}
                      for (a, b), p in zip([(systems[0], systems[1]), (systems[0], systems[2]), (systems[1], systems[2])], pair_p)]}

table = {
    "schema": "evalcli-table/1",
    "command": "evalcli report -r ref.txt -i sys-a.txt 'b&c.txt' 'c<script>.txt' -m bleu chrf ter "
               "--confidence --paired-bs --all-pairs --html r.html",
    "version": "evalcli-0.9.0",
    "segments_total": 30,
    "systems": systems,
    "baseline": systems[0],
    "paired_test": {"test": "paired-bootstrap", "samples": 1000, "seed": "12345", "all_pairs": True},
    "confidence": {"resamples": 1000, "seed": "12345"},
    "rows": [
        row("bleu", "BLEU", "nrefs:var|case:mixed|eff:no|tok:13a-v1|smooth:exp|version:evalcli-0.9.0",
            [27.312, 31.05, 24.8], [None, 0.012, 0.2], True, [0.012, 0.2, 0.001]),
        row("chrf", "chrF2", "nrefs:var|case:mixed|eff:yes|nc:6|nw:0|space:no|version:evalcli-0.9.0",
            [52.11, 55.4, 51.9], [None, 0.03, 0.7], True, [0.03, 0.7, 0.04]),
        row("ter", "TER", "nrefs:var|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:evalcli-0.9.0",
            [61.2, 58.3, 66.0], [None, 0.09, 0.02], False, [0.09, 0.02, 0.005]),
    ],
    "segments": {"ids": ids, "references": refs, "hypotheses": hyps,
                 "scores": [sentence_scores(30, 15), sentence_scores(50, 12, null_at=(4, 0)),
                            sentence_scores(60, 20, null_at=(7, 2))]},
    "buckets": [
        {"row": 0, "buckets": [{"label": "1-5", "segments": 10, "scores": [25.1, 30.2, 22.0]},
                               {"label": "6-10", "segments": 20, "scores": [28.4, 31.5, None]}]},
        {"row": 1, "buckets": [{"label": "1-5", "segments": 10, "scores": [50.0, 54.2, 50.3]},
                               {"label": "6-10", "segments": 20, "scores": [53.0, 56.1, 52.6]}]},
        {"row": 2, "buckets": []},
    ],
}
with open("table.json", "w") as out:
    json.dump(table, out, indent=1, ensure_ascii=False)
    out.write("\n")
