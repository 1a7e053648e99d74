#!/usr/bin/env python3
"""check_highlights.py TABLE.json DOM.html: every hypothesis rendered in the dumped DOM of an HTML
report has the words highlighted that docs/report.md says: words split at white space and
compared in lower case; a word within a 1- to 4-gram that occurs in a reference is marked, class
m2 when the longest such n-gram starting at some word covering it has n >= 2, else m1. Written
apart from the page's script, to check it. Prints each difference; exit 1 if there is any."""
import html
import json
import re
import sys


def expected_marks(hypothesis, references):
    grams = set()
    for reference in references:
        words = reference.lower().split()
        for n in range(1, 5):
            grams.update(" ".join(words[i:i + n]) for i in range(len(words) - n + 1))
    words = hypothesis.split()
    lower = [w.lower() for w in words]
    level = [0] * len(words)
    for i in range(len(words)):
        for n in range(min(4, len(words) - i), 0, -1):
            if " ".join(lower[i:i + n]) in grams:
                for k in range(i, i + n):
                    level[k] = max(level[k], n)
                break
    return [(w, "m2" if v >= 2 else "m1" if v == 1 else "") for w, v in zip(words, level)]


def shown_marks(span):
    marks = []
    for mark_class, marked, text in re.findall(r'<mark class="(m[12])">(.*?)</mark>|([^<]+)', span):
        if mark_class:
            marks.append((html.unescape(marked), mark_class))
        else:
            marks.extend((w, "") for w in html.unescape(text).split())
    return marks


def main():
    table = json.load(open(sys.argv[1], encoding="utf-8"))
    dom = open(sys.argv[2], encoding="utf-8").read()
    segments = table["segments"]
    problems, checked = 0, 0
    for segment, row in re.findall(r'<tr class="segment" data-segment="(\d+)">(.*?)</tr>', dom):
        spans = re.findall(r'<td class="text hyp"><div><div class="hyp-score">[^<]*</div><span>(.*?)</span>', row)
        hypotheses = segments["hypotheses"][int(segment)]
        if len(spans) != len(hypotheses):
            print(f"segment {segment}: {len(spans)} hypotheses shown, {len(hypotheses)} in the table")
            problems += 1
            continue
        for system, (span, hypothesis) in enumerate(zip(spans, hypotheses)):
            want, got = expected_marks(hypothesis, segments["references"][int(segment)]), shown_marks(span)
            checked += 1
            if want != got:
                print(f"segment {segment}, system {system}: highlighted {got}, expected {want}")
                problems += 1
    if checked == 0:
        print("no hypothesis found in the DOM")
        problems += 1
    print(f"{checked} hypotheses checked, {problems} differ")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
