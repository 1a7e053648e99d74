"""`evalcli report --segments-out` read by pandas as it is (issue 22): the TSV and the JSONL give
the same frame, every text column equals the input lines (quotes and tabs included), and every
sentence score equals `evalcli METRIC --sentence-level -f json`.

Usage: check_segments_pandas.py EVALCLI FIXTURE_DIR WORK_DIR
"""
import json
import subprocess
import sys

import pandas as pd

evalcli, fixture, work = sys.argv[1:4]
ref, systems = f"{fixture}/ref.txt", [f"{fixture}/sys_a.txt", f"{fixture}/sys_b.txt"]
names = ["sys_a.txt", "sys_b.txt"]


def lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


for out in (f"{work}/segments.tsv", f"{work}/segments.jsonl"):
    subprocess.run([evalcli, "report", "-q", "-m", "bleu", "chrf", "-r", ref, "-i", *systems, "--segments-out", out],
                   check=True, stdout=subprocess.DEVNULL)
# float_precision="round_trip": pandas' default C float parser can be an ulp off
tsv = pd.read_csv(f"{work}/segments.tsv", sep="\t", keep_default_na=False, na_values=[""], float_precision="round_trip")
# precise_float: the same for pandas' JSON float parser
jsonl = pd.read_json(f"{work}/segments.jsonl", lines=True, dtype=False, precise_float=True)
assert list(tsv.columns) == list(jsonl.columns), (list(tsv.columns), list(jsonl.columns))
assert len(tsv) == len(lines(ref)), len(tsv)
assert list(tsv["ref"]) == lines(ref) == list(jsonl["ref"])
for name, path in zip(names, systems):
    assert list(tsv[f"hyp[{name}]"]) == lines(path) == list(jsonl[f"hyp[{name}]"]), name
assert [str(i) for i in tsv["id"]] == [str(i) for i in range(1, len(tsv) + 1)]

checked = 0
for metric in ("bleu", "chrf"):
    single = json.loads(subprocess.run([evalcli, metric, "-q", "-r", ref, "-i", *systems, "--sentence-level", "-f", "json"],
                                       check=True, capture_output=True, text=True).stdout)
    for name, report in zip(names, single):
        column = f"{report['name']}[{name}]"
        expected = [sentence["score"] for sentence in report["sentences"]]
        assert list(tsv[column]) == expected, (column, list(tsv[column]), expected)
        assert list(jsonl[column]) == expected, column
        checked += len(expected)
print(f"pandas reads --segments-out: {len(tsv)} segments, {len(tsv.columns)} columns, {checked} sentence scores equal")
