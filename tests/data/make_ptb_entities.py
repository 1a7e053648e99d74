#!/usr/bin/env python3
"""Writes tests/data/ptb_entities/goldens.json (issue 19 item 3): `&amp;` inside upper-case runs
(AT&amp;T, M&amp;Ms, R&amp;B, A&amp;M, S&amp;P-500) as pycocoevalcap tokenizes it, and the CIDEr-D of a
2-image example on such captions.

pycocoevalcap: github.com/salaniz/pycocoevalcap commit ad63453 (tokenizer/ptbtokenizer.py and
cider/ run as they are). Its tokenizer/stanford-corenlp-3.4.1.jar is not in the snapshot: it was
rebuilt from stanfordnlp/CoreNLP tag v3.4.1 (javac --release 8 -sourcepath src of
edu/stanford/nlp/process/PTBTokenizer.java and what it references; the generated lemmatiser
Morpha.java, missing from the snapshot and never called by the tokenizer, got a compile-only stub;
util/Comparators.java needed an explicit type argument for javac 17), then `jar cf
stanford-corenlp-3.4.1.jar -C build .` in pycocoevalcap's tokenizer/ folder. So PTBTokenizer runs
as pycocoevalcap runs it:
  java -cp stanford-corenlp-3.4.1.jar edu.stanford.nlp.process.PTBTokenizer -preserveLines -lowerCase FILE
Command:
  /usr/bin/python3 tests/data/make_ptb_entities.py PYCOCOEVALCAP_DIR
Floats are stored with Python's repr (shortest round trip)."""
import json, os, sys

sys.path.insert(0, sys.argv[1])
from tokenizer.ptbtokenizer import PTBTokenizer  # noqa: E402
from cider.cider import Cider  # noqa: E402

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ptb_entities")


def lines(name):
    with open(os.path.join(here, name), encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


# captions.txt: one batch, each line an image of its own (pycocoevalcap joins them with '\n', so
# each caption is the previous one's look-ahead context, as in evalcli's ptb_tokenize_batch).
captions = lines("captions.txt")
tokenized = PTBTokenizer().tokenize({i: [{"caption": c}] for i, c in enumerate(captions)})
token_lines = [tokenized[i][0] for i in range(len(captions))]

refs = [lines("ref.%d.txt" % k) for k in (1, 2, 3)]
hyps = lines("hyp.txt")
gts = PTBTokenizer().tokenize({i: [{"caption": r[i]} for r in refs] for i in range(len(hyps))})
res = PTBTokenizer().tokenize({i: [{"caption": hyps[i]}] for i in range(len(hyps))})
score, scores = Cider().compute_score(gts, res)

out = {"tool": "pycocoevalcap ad63453 with PTBTokenizer of Stanford CoreNLP v3.4.1 built from source",
       "command": "/usr/bin/python3 tests/data/make_ptb_entities.py PYCOCOEVALCAP_DIR",
       "captions": "captions.txt", "tokenized": token_lines,
       "cider": {"refs": ["ref.1.txt", "ref.2.txt", "ref.3.txt"], "hyp": "hyp.txt",
                 "tokenized_refs": [gts[i] for i in range(len(hyps))],
                 "tokenized_hyps": [res[i][0] for i in range(len(hyps))],
                 "corpus": float(score), "per_image": [float(s) for s in scores]}}
with open(os.path.join(here, "goldens.json"), "w", encoding="utf-8") as f:
    json.dump(out, f, ensure_ascii=False, indent=1)
    f.write("\n")
