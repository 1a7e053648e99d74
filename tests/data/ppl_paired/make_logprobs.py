"""Writes the two log-prob inputs of the paired-test cases (tests/unit/ppl_paired_test.cpp):
the same 40 documents, tokens and texts scored by two made-up models, B a little better than A
on average (per-token log-probs drawn with Python's random, seed fixed), so that a paired test
has something to find but not trivially. Run from this folder:

    /usr/bin/python3 make_logprobs.py

Outputs a.jsonl and b.jsonl (inputs only: the expected numbers are computed by paired_reference.py)."""
import json
import random

rng = random.Random(20261203)
words = "the a of to in model text score test paired bootstrap held out news line".split()
docs = []
for i in range(40):
    tokens = [rng.choice(words) for _ in range(rng.randint(3, 12))]
    text = " ".join(tokens)
    pieces = [tokens[0]] + [" " + t for t in tokens[1:]]
    docs.append((i, text, pieces))

for name, shift in (("a", 0.0), ("b", 0.15)):
    with open(f"{name}.jsonl", "w", encoding="utf-8") as out:
        for i, text, pieces in docs:
            # the first token unscored (null), as a BOS-less causal LM gives it
            logprobs = [None] + [round(-rng.uniform(0.5, 4.0) + shift, 6) for _ in pieces[1:]]
            out.write(json.dumps({"id": i, "text": text, "tokens": pieces, "logprobs": logprobs}) + "\n")
