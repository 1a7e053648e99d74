"""The native API against the command line it mirrors: evalcli.score and
evalcli.stats give the numbers, signature and --stats-out shard of `evalcli
METRIC`, read signatures as --signature does, and `evalcli merge` reads the
shards Shard.write writes."""
import json
import os
import subprocess

import pytest

import evalcli
import evalcli.sacrebleu

EVALCLI = os.environ.get("EVALCLI_BINARY", "evalcli")
HYPS = ["The cat sat on the mat .", "A dog barks loudly  ", "Zürich liegt am See.", "完全に一致しない文"]
REFS = [["The cat sat on a mat.", "The dog barks loudly", "Zürich liegt am Zürichsee.", "完全に一致する文"]]


def write_corpus(tmp_path, hyps, refs):
    (tmp_path / "hyp.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    ref_paths = []
    for k, stream in enumerate(refs):
        path = tmp_path / f"ref{k}.txt"
        path.write_text("\n".join(stream) + "\n", encoding="utf-8")
        ref_paths.append(str(path))
    return str(tmp_path / "hyp.txt"), ref_paths


def run_cli(*args):
    done = subprocess.run([EVALCLI, *args], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("metric,options,cli_options", [
    ("bleu", {"tokenize": "intl", "lowercase": True}, ["--tokenize", "intl", "--lowercase"]),
    ("chrf", {"chrf_word_order": 2}, ["--chrf-word-order", "2"]),
    ("ter", {"ter_case_sensitive": True}, ["--ter-case-sensitive"]),
    ("rouge", {"types": ["rouge1", "rougeL"], "stem": True}, ["--types", "rouge1", "rougeL", "--stem"]),
    ("meteor", {}, []),
])
def test_score_and_shard_equal_the_command(tmp_path, metric, options, cli_options):
    hyp, refs = write_corpus(tmp_path, HYPS, REFS)
    stats_out = tmp_path / "shard.json"
    report = json.loads(run_cli(metric, "-i", hyp, "-r", *refs, *cli_options, "--format", "json",
                                "--stats-out", str(stats_out)))
    result = evalcli.score(metric, HYPS, REFS, **options)
    assert result.score == report["score"]
    assert result.signature == report["signature"]
    assert result.name == report["name"]
    written = json.loads(stats_out.read_text(encoding="utf-8"))
    ours = result.shard.to_dict()
    # The command names the system by its file and records the files' hashes.
    written.pop("test_set", None)
    for system in written["systems"]:
        system["system"] = "hyp"
    assert ours == written


def test_signature_stands_for_the_options():
    plain = evalcli.score("bleu", HYPS, REFS, tokenize="char", smooth_method="floor")
    again = evalcli.score("bleu", HYPS, REFS, signature=plain.signature)
    assert again.score == plain.score and again.signature == plain.signature
    sacre = evalcli.score("bleu", HYPS, REFS, signature="nrefs:1|case:mixed|eff:no|tok:char|smooth:floor|version:2.6.0")
    assert sacre.score == plain.score
    with pytest.raises(evalcli.Error, match="cannot be combined"):
        evalcli.score("bleu", HYPS, REFS, signature=plain.signature, tokenize="intl")
    with pytest.raises(evalcli.Error, match="nrefs"):
        evalcli.score("bleu", HYPS, REFS + REFS, signature=plain.signature)


def test_options_are_checked_as_on_the_command_line():
    with pytest.raises(evalcli.Error, match="has no option --no-such-option"):
        evalcli.score("bleu", HYPS, REFS, no_such_option=1)
    with pytest.raises(evalcli.Error, match="max-ngram-order"):
        evalcli.score("bleu", HYPS, REFS, max_ngram_order=99)
    with pytest.raises(evalcli.Error, match="unknown metric 'blue'"):
        evalcli.score("blue", HYPS, REFS)
    with pytest.raises(TypeError):
        evalcli.score("bleu", "not a list", REFS)
    assert "bleu" in evalcli.metric_names()
    assert any(name == "tokenize" for name, *_ in evalcli.metric_options("bleu"))


def test_sentence_scores_and_components():
    result = evalcli.score("bleu", HYPS, REFS)
    assert len(result.sentence_scores) == len(HYPS) == len(result.rows)
    # --sentence-level BLEU uses effective order, as SacreBLEU's sentence_bleu.
    assert result.sentence_scores[0] == evalcli.sacrebleu.sentence_bleu(HYPS[0], [REFS[0][0]]).score
    rouge = evalcli.score("rouge", HYPS, REFS, types=["rouge1", "rouge2"])
    assert sorted(rouge.components) == ["ROUGE rouge1", "ROUGE rouge2"]
    assert rouge.score == rouge.components["ROUGE rouge1"]


def test_merge_command_reads_written_shards(tmp_path):
    paths = []
    for k, (start, end) in enumerate([(0, 2), (2, 4)]):
        shard = evalcli.stats("chrf", HYPS[start:end], [r[start:end] for r in REFS])
        paths.append(str(tmp_path / f"piece{k}.json"))
        shard.write(paths[-1])
    merged = json.loads(run_cli("merge", *paths, "--format", "json"))
    assert merged["score"] == evalcli.score("chrf", HYPS, REFS).score
    assert merged["score"] == evalcli.merge([evalcli.Shard.read(p) for p in paths]).score


def test_confidence_interval_as_sacrebleu(monkeypatch):
    result = evalcli.score("chrf", HYPS, REFS, confidence_n=200, confidence_seed=7)
    metric = evalcli.sacrebleu.metrics.CHRF()
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    score = metric.corpus_score(HYPS, REFS, n_bootstrap=200)
    assert (result.confidence["mean"], result.confidence["half_width"]) == (score._mean, score._ci)
    assert "|bs:200|seed:7|" in str(metric.get_signature())
    assert "(μ = " in str(score)
    assert evalcli.score("chrf", HYPS, REFS).confidence is None


def test_threads_share_a_session():
    """Scoring releases the GIL: threads scoring with one metric object at once get
    what one thread gets (the C++ metrics are const and keep scratch per thread)."""
    from concurrent.futures import ThreadPoolExecutor

    metric = evalcli.sacrebleu.metrics.BLEU()
    hyps = HYPS * 500
    refs = [r * 500 for r in REFS]
    expected = str(metric.corpus_score(hyps, refs))
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: str(metric.corpus_score(hyps, refs)), range(8)))
    assert results == [expected] * 8
