#!/usr/bin/env python3
"""Writes tests/data/rouge_chinese.json (issue #25 item 1, issue #19 item 4): ROUGE's rule for the
tokens of --tokenize zh-char / zh-jieba, one rule in both modes (docs/rouge.md, "Tokenizers"):
every token lowercased (str.lower), kept iff it holds a letter, a digit or a Han character
(regex [\\p{L}\\p{N}\\p{Han}]; Kangxi and CJK-supplement radicals are Script=Han).

rouge-score mode: rouge-score 0.1.2 (google-research rouge/ sources) with a tokenizer object:
  PYTHONPATH=<dir holding rouge_score/> /usr/bin/python3 tests/data/make_rouge_chinese.py ROUGE155_DIR
  (Debian python3-nltk 3.8, python3-numpy, python3-six, python3-absl, python3-regex 2022.10.31,
  python3-jieba 0.42.1).
ROUGE-1.5.5 mode: ROUGE-1.5.5.pl (md5 d5a9bde6...) on the same tokens as lowercase hex ids of their
UTF-8 bytes, one SPL file per document, read as a -z SPL file list:
  perl ROUGE155_DIR/ROUGE-1.5.5.pl -e ROUGE155_DIR/data -z SPL -n 2 -w 1.2 -2 4 -U -r 1000 -d list.txt
  (XML::Parser is not installed here: beside the script, a stand-in XML/DOM.pm whose XML::DOM::Parser->new
  returns an empty object, which -z never uses; data/WordNet-2.0.exc.db rebuilt with DB_File from
  shared/corpora/rouge155-data/WordNet-2.0-exceptions.tsv). Each case keeps its command."""
import json, os, subprocess, sys, tempfile

import jieba
import regex
from rouge_score import rouge_scorer

# Pairs (reference, hypothesis): issue #25's SD卡 / sd卡, CSDS-like punctuation, Han radicals
# (OCR look-alikes ⼩ ⾛ ⼀ ⻔ of 小 走 一 门), Latin inside Chinese in other cases.
PAIRS = [
    ("SD卡", "sd卡"),
    ("小明硕士毕业于中国科学院计算所，后在日本京都大学深造。", "小明毕业于中国科学院，后在日本深造。"),
    ("⼩明⾛进⼀扇⻔，iPhone也在。", "⼩明⾛进了⼀扇⻔。"),
    ("我用iPhone 14拍照，很清楚！", "我用IPHONE14拍照。"),
]
KEEP = regex.compile(r"[\p{L}\p{N}\p{Han}]")
FLAGS = "-n 2 -w 1.2 -2 4 -U -r 1000 -d"


def rouge_tokens(pieces):
    return [w for w in (p.strip().lower() for p in pieces) if w and KEEP.search(w)]


class ZhChar:  # shared/golden/rouge/rs_zh_csl_lead30_char_jieba's ZhCharTokenizer, then the rule
    def tokenize(self, text):
        return rouge_tokens(regex.findall(r"\p{Han}|[[\p{L}\p{N}\p{M}]--\p{Han}]+", text.lower(), flags=regex.V1))


class ZhJieba:  # jieba.lcut, then the rule
    def tokenize(self, text):
        return rouge_tokens(jieba.lcut(text))


def rouge155_report(tokenizer, r155_dir):
    with tempfile.TemporaryDirectory() as work:
        lines = []
        for i, (ref, hyp) in enumerate(PAIRS):
            for side, text in (("peer", hyp), ("model", ref)):
                ids = " ".join(t.encode("utf-8").hex() for t in tokenizer.tokenize(text))
                with open(os.path.join(work, f"{side}{i}.txt"), "w") as f:
                    f.write(ids + "\n")
            lines.append(f"{work}/peer{i}.txt {work}/model{i}.txt")
        with open(os.path.join(work, "list.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        command = ["perl", f"{r155_dir}/ROUGE-1.5.5.pl", "-e", f"{r155_dir}/data", "-z", "SPL", *FLAGS.split(),
                   f"{work}/list.txt"]
        return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def main():
    r155_dir = sys.argv[1]
    jieba.setLogLevel(60)
    out = {"rouge_score": "0.1.2 (google-research rouge/ sources)", "rouge155": "ROUGE-1.5.5.pl md5 d5a9bde6...",
           "pairs": [{"ref": r, "hyp": h} for r, h in PAIRS], "cases": []}
    for name, tokenizer in (("zh-char", ZhChar()), ("zh-jieba", ZhJieba())):
        scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=tokenizer)
        per_pair = []
        for ref, hyp in PAIRS:
            s = scorer.score(ref, hyp)
            per_pair.append({k: [v.precision, v.recall, v.fmeasure] for k, v in s.items()})
        out["cases"].append({
            "tokenize": name,
            "tokens": [{"ref": tokenizer.tokenize(r), "hyp": tokenizer.tokenize(h)} for r, h in PAIRS],
            "rouge_score_command": f"rouge_scorer.RougeScorer(['rouge1','rouge2','rougeL'], "
                                   f"tokenizer={type(tokenizer).__name__}()).score(ref, hyp)",
            "rouge_score_per_pair": per_pair,
            "rouge155_command": f"ROUGE-1.5.5.pl -e data -z SPL {FLAGS} list.txt (hex-id SPL files, peer X)",
            "rouge155_flags": FLAGS,
            "rouge155_stdout": rouge155_report(tokenizer, r155_dir),
        })
    with open(os.path.join(os.path.dirname(__file__), "rouge_chinese.json"), "w") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
