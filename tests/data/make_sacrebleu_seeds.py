#!/usr/bin/env python3
"""Writes tests/data/sacrebleu_seeds/cases.json (issue 19 item 5, SACREBLEU_SEED): the standard output
and exit code of SacreBLEU 2.6.0 for SACREBLEU_SEED values Python's int() accepts beyond ASCII digits
(Unicode decimal digits, Python whitespace around them, underscores between digits, a sign on zero)
and for seeds of 2^64 and more (numpy's default_rng takes any non-negative int), plus values it
refuses (int() or numpy raise ValueError: a traceback, exit 1). Seeds 0 and -0 have no paired-test
case: SacreBLEU's comparisons then take fresh entropy.
SacreBLEU: a checkout of github.com/mjpost/sacrebleu tag v2.6.0 with sacrebleu/version.py written by
hand (`__version__ = "2.6.0"`); Debian python3-numpy 1.24, python3-regex, -tabulate, -portalocker,
-lxml. Each case runs in this folder as
  SACREBLEU_SEED=<seed> PYTHONPATH=<checkout> /usr/bin/python3 -m sacrebleu ARGS
Command: /usr/bin/python3 tests/data/make_sacrebleu_seeds.py SACREBLEU_CHECKOUT"""
import json, os, subprocess, sys

checkout = sys.argv[1]
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sacrebleu_seeds")
SEEDS = ["\u0661\u0662", "\U0001D7CF\U0001D7D0", "\uff11\uff12", "\u0661\u0662_\u0663", "12_3", " 12 ", "\u00a012\u3000",
         "+7", "-0", "0012", "0", "18446744073709551615", "18446744073709551616",
         "340282366920938463463374607431768211457", "1" * 100]
REFUSED = ["-1", "1__2", "\x1c12", "\u200b12", "1e3", "12.0", "1" * 4301]
RUNS = [["ref.txt", "-i", "one.hyp", "-m", "bleu", "chrf", "--confidence", "--confidence-n", "50"],
        ["ref.txt", "-i", "one.hyp", "two.hyp", "-m", "bleu", "--paired-bs", "--paired-bs-n", "50"],
        ["ref.txt", "-i", "one.hyp", "two.hyp", "-m", "bleu", "--paired-ar", "--paired-ar-n", "50"]]

cases = []
for seed in SEEDS + REFUSED:
    # Paired tests seed each comparison with `seed if seed else None`: seed 0 draws fresh entropy there.
    for args in (RUNS if seed in SEEDS and seed not in ("0", "-0") else RUNS[:1]):
        env = dict(os.environ, SACREBLEU_SEED=seed, PYTHONPATH=checkout)
        p = subprocess.run([sys.executable, "-m", "sacrebleu"] + args, cwd=here, env=env, capture_output=True)
        cases.append({"seed": seed, "args": args, "exit_code": p.returncode,
                      "stdout": p.stdout.decode("utf-8") if p.returncode == 0 else None})
with open(os.path.join(here, "cases.json"), "w", encoding="utf-8") as f:
    json.dump({"tool": "SacreBLEU 2.6.0 (v2.6.0 checkout), numpy 1.24.2, Python 3.11",
               "command": "SACREBLEU_SEED=<seed> PYTHONPATH=<checkout> /usr/bin/python3 -m sacrebleu ARGS (in this folder)",
               "cases": cases}, f, ensure_ascii=True, indent=1)
    f.write("\n")
