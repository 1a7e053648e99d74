#!/usr/bin/env python3
"""Writes tests/data/ter_double_pass.json (issue #26) from SacreBLEU 2.6.0 run from source:
  git --git-dir=<mirror of github:mjpost/sacrebleu> archive v2.6.0 | tar -x -C /tmp/sacrebleu
  echo '__version__ = "2.6.0"' > /tmp/sacrebleu/sacrebleu/version.py   # setuptools_scm's file
  PYTHONPATH=/tmp/sacrebleu /usr/bin/python3 tests/data/make_ter_double_pass.py
Each case keeps the exact command that made its numbers (run in a directory holding the files).
"single_pass" is SacreBLEU's TER with the references tokenized once (evalcli's tok:tercom-v1)."""
import itertools, json, os, subprocess, sys, tempfile
from sacrebleu.metrics import TER

FILES = {
    "a.txt": "He went to Mac Donald's, then home.\n",
    "ref.txt": "He went to Mac Donald's, then home.\nIt is John's. Not Mary's.\n"
               "That was Mary's) idea (or the Cat's, maybe.\nThe dog's bone is big; Tom's.\n"
               "我们去了Mac Donald's，然后回家。\n",
    "hyp.txt": "he went to mac donald 's , then home .\nIt is Johns. Not Mary's.\n"
               "That was Marys idea (or the cat's, maybe.\nThe dog's bone is big; Toms.\n"
               "我们去了Mac Donald's, 然后回家。\n",
}
CORPORA = {"a": ("a.txt", "a.txt"), "b": ("ref.txt", "hyp.txt")}
FLAGS = ["--ter-normalized", "--ter-no-punct", "--ter-case-sensitive", "--ter-asian-support"]
PY = "PYTHONPATH=/tmp/sacrebleu /usr/bin/python3 -m sacrebleu"


class SinglePassTER(TER):
    def _extract_reference_info(self, refs):
        return {"ref_words": [ref.split() for ref in refs]}  # refs already tokenized once


def main():
    out = {"sacrebleu": "2.6.0 (tag v2.6.0, from source)", "files": FILES, "cases": []}
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in FILES.items():
            with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                f.write(text)
        env = dict(os.environ, PYTHONPATH="/tmp/sacrebleu")
        for corpus, (ref, hyp) in CORPORA.items():
            for bits in itertools.product([False, True], repeat=4):
                flags = [f for f, on in zip(FLAGS, bits) if on]
                case = {"corpus": corpus, "flags": flags}
                for key, extra in (("json", []), ("score_w4", ["-b", "-w", "4"])):
                    args = [ref, "-i", hyp, "-m", "ter"] + flags + extra
                    case[key + "_command"] = " ".join([PY] + args)
                    r = subprocess.run([sys.executable, "-m", "sacrebleu"] + args, cwd=tmp, env=env,
                                       capture_output=True, text=True, check=True)
                    case[key] = r.stdout
                kw = dict(normalized=bits[0], no_punct=bits[1], case_sensitive=bits[2], asian_support=bits[3])
                refs = [FILES[ref].splitlines()]
                hyps = FILES[hyp].splitlines()
                case["single_pass_w4"] = f"{SinglePassTER(**kw).corpus_score(hyps, refs).score:.4f}"
                case["double_pass_api_w4"] = f"{TER(**kw).corpus_score(hyps, refs).score:.4f}"
                out["cases"].append(case)
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


main()
