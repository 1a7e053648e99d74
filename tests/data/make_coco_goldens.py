#!/usr/bin/env python3
"""Writes tests/data/coco/goldens.json (issue #21 items 2-3): pycocoevalcap's Bleu(4) and Rouge()
scorers, per image and for the corpus, on
  - the COCO Karpathy test split, pre-tokenized (shared/corpora/coco/tok: ref.1..5.txt, hyp.*.txt;
    line i = image i), as COCOEvalCap passes them after its PTB tokenization;
  - ABSTRACT-50S candsB/candsC (shared/corpora/abstract50s; one item per candidate line, its 48 refs),
    PTB-tokenized by `evalcli tokenize --tokenize ptb` (bit-identical to pycocoevalcap's Stanford
    PTBTokenizer + punctuation removal, see shared/golden/cider/ptb-tokenize.pycocoevalcap.json).
pycocoevalcap: github.com/salaniz/pycocoevalcap, commit ad63453cfab57a81a02b2949b17a91fab1c3df77
(pip 1.2), its source files bleu/ and rouge/ run as they are (pure Python; Debian python3-numpy).
Command:
  /usr/bin/python3 tests/data/make_coco_goldens.py PYCOCOEVALCAP_DIR SHARED_DIR EVALCLI_BINARY
Floats are stored as JSON numbers written with Python's repr (shortest round trip)."""
import json, os, subprocess, sys

pycoco, shared, evalcli = sys.argv[1:4]
sys.path.insert(0, pycoco)
from bleu.bleu import Bleu  # noqa: E402
from rouge.rouge import Rouge  # noqa: E402

COMMAND = "/usr/bin/python3 tests/data/make_coco_goldens.py PYCOCOEVALCAP_DIR ../shared build/evalcli"


def lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


def ptb(texts):
    out = subprocess.run([evalcli, "tokenize", "--tokenize", "ptb"], input="\n".join(texts) + "\n",
                         capture_output=True, text=True, check=True).stdout
    result = out.split("\n")[:-1]
    assert len(result) == len(texts)
    return result


def score(gts, res):
    bleu, bleu_images = Bleu(4).compute_score(gts, res, verbose=0)
    rouge, rouge_images = Rouge().compute_score(gts, res)
    return {"Bleu": list(bleu), "Bleu_images": [list(s) for s in bleu_images],
            "ROUGE_L": float(rouge), "ROUGE_L_images": [float(s) for s in rouge_images]}


cases = []
coco = os.path.join(shared, "corpora/coco/tok")
refs = [lines(os.path.join(coco, f"ref.{k}.txt")) for k in range(1, 6)]
for system in ["contrastive", "topk", "zerocap"]:
    hyps = lines(os.path.join(coco, f"hyp.{system}.txt"))
    gts = {i: [r[i] for r in refs] for i in range(len(hyps))}
    res = {i: [h] for i, h in enumerate(hyps)}
    case = {"name": f"coco-tok.{system}", "tokenize": "none",
            "refs": [f"shared/corpora/coco/tok/ref.{k}.txt" for k in range(1, 6)],
            "hyp": f"shared/corpora/coco/tok/hyp.{system}.txt"}
    case.update(score(gts, res))
    cases.append(case)

for split in ["B", "C"]:
    path = os.path.join(shared, f"corpora/abstract50s/cands{split}.jsonl")
    items = [json.loads(line) for line in lines(path)]
    hyps = ptb([item["hyp"] for item in items])
    flat = ptb([r for item in items for r in item["refs"]])
    gts, res, at = {}, {}, 0
    for i, item in enumerate(items):
        gts[i] = flat[at:at + len(item["refs"])]
        at += len(item["refs"])
        res[i] = [hyps[i]]
    case = {"name": f"abstract50s.cands{split}", "tokenize": "ptb",
            "jsonl": f"shared/corpora/abstract50s/cands{split}.jsonl"}
    case.update(score(gts, res))
    cases.append(case)

out = {"command": COMMAND,
       "tool": "pycocoevalcap ad63453 (1.2): Bleu(4).compute_score(gts, res) (option closest), Rouge().compute_score",
       "cases": cases}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "coco", "goldens.json"), "w") as f:
    json.dump(out, f)
    f.write("\n")
