"""Every SacreBLEU golden's Python API record (expected.api) reproduced through
evalcli.sacrebleu: numbers equal, signatures SacreBLEU's with evalcli's version,
and the single-metric JSON output equal to what the golden's command printed."""
import json

import pytest

from evalcli import sacrebleu
from conftest import goldens, load_golden, read_lines, value, with_evalcli_version

def api_records(golden):
    expected = golden.get("expected")
    if not isinstance(expected, dict):
        return []
    return expected.get("api", [])


def with_api_records(params):
    """The goldens that record Python API calls (the others check the command line only)."""
    kept = []
    for param in params:
        path = param.values[0]
        if path is None or api_records(json.loads(path.read_text(encoding="utf-8"))):
            kept.append(param)
    return kept


GOLDENS = with_api_records(goldens("bleu") + goldens("chrf") + goldens("ter") + goldens("cli") + goldens("edge"))


def inputs(golden):
    files = value(golden["inputs"])
    hyp_lines = read_lines(files["hyp"])
    refs = [read_lines(r) for r in files["refs"]]
    return hyp_lines, refs


def check_fields(score, record):
    assert score.score == record["score"]
    assert score.name == record["name"]
    for field in ("counts", "totals", "precisions", "bp", "sys_len", "ref_len", "ratio", "num_edits", "ref_length"):
        if field in record:
            assert getattr(score, field) == record[field], field


@pytest.mark.parametrize("path", GOLDENS)
def test_api_records(path):
    golden = load_golden(path)
    records = api_records(golden)
    hyp_lines, refs = inputs(golden)
    namespace = {"sacrebleu": sacrebleu, "hyp_lines": hyp_lines, "refs": refs}
    namespace.update({f"ref{i}_lines": r for i, r in enumerate(refs)})
    for record in records:
        call = record["api_call"]
        metric_call = call.split(").", 1)[0] + ")"
        metric = eval(metric_call, namespace)
        if "for every line i" in call:
            rows = record["per_line"]
            assert len(rows) == len(hyp_lines)
            for i, expected in enumerate(rows):
                score = metric.sentence_score(hyp_lines[i], [r[i] for r in refs])
                if not isinstance(expected, list):
                    expected = [expected]  # the score alone (chrF)
                assert score.score == expected[0], f"line {i + 1}"
                if metric_call.startswith("sacrebleu.metrics.BLEU"):
                    assert [score.sys_len, score.ref_len, *score.counts, *score.totals] == expected[1:], f"line {i + 1}"
        elif "n_bootstrap=" in call:
            samples = int(call.split("n_bootstrap=")[1].split(")")[0])
            score = metric.corpus_score(hyp_lines, refs, n_bootstrap=samples)
            assert score.score == record["score"]
            assert (score._mean, score._ci) == (record["bootstrap_mean"], record["bootstrap_ci_halfwidth"])
            assert str(metric.get_signature()) == with_evalcli_version(record["signature"])
            assert metric.get_signature().format(short=True) == with_evalcli_version(record["signature_short"])
            # The command's text output holds the same line: "BLEU|nrefs:1|bs:1000|... = 38.4 (μ = 38.4 ± 1.0) ...".
            stdout = with_evalcli_version(value(golden["expected"])["stdout"])
            if not stdout.startswith(("{", "[")):
                assert score.format(width=1, signature=str(metric.get_signature())) in stdout
        else:
            score = metric.corpus_score(hyp_lines, refs)
            check_fields(score, record)
            assert str(metric.get_signature()) == with_evalcli_version(record["signature"])
            assert metric.get_signature().format(short=True) == with_evalcli_version(record["signature_short"])
        if "signature" in record and "for every line i" in call:
            assert str(metric.get_signature()) == with_evalcli_version(record["signature"])


@pytest.mark.parametrize("path", with_api_records(goldens("bleu", "bleu_") + goldens("chrf", "chrf") + goldens("ter", "ter_")))
def test_printed_json(path):
    """A single-metric JSON run of the command line prints Score.format(width=1, signature, is_json=True)."""
    golden = load_golden(path)
    (record,) = api_records(golden)
    hyp_lines, refs = inputs(golden)
    namespace = {"sacrebleu": sacrebleu}
    metric = eval(record["api_call"].split(").", 1)[0] + ")", namespace)
    score = metric.corpus_score(hyp_lines, refs)
    stdout = value(golden["expected"])["stdout"]
    options = value(golden["options"])["cli_options"]
    width = int(options[options.index("-w") + 1]) if "-w" in options else 1
    printed = score.format(width=width, signature=str(metric.get_signature()), is_json=stdout.startswith("{"))
    assert printed + "\n" == with_evalcli_version(stdout)
