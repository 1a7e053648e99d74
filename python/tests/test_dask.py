"""Scoring partitions on a dask.distributed LocalCluster with worker processes:
the shards merged give exactly one run's result (BLEU, chrF, ROUGE, and CIDEr
with document frequencies shared through a --save-df file)."""
import pickle
import random
import sys

import cloudpickle
import pytest
from dask.distributed import Client, LocalCluster

import evalcli

# The workers are other processes: this module's functions travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

WORDS = ("the a cat dog sat on mat under tree house red blue small big quickly slowly ran jumped "
         "over garden river bridge old new man woman child bird flew sang").split()


def sentence(rng):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 14))).capitalize() + rng.choice([".", "!", ""])


@pytest.fixture(scope="module")
def corpus():
    rng = random.Random(23)
    hyps = [sentence(rng) for _ in range(601)]
    refs = [[sentence(rng) for _ in hyps], [sentence(rng) for _ in hyps]]  # two reference streams
    return hyps, refs


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as dask_client:
            yield dask_client


def score_partition(metric, hyps, refs, options):
    return evalcli.stats(metric, hyps, refs, **options)


def partitions(hyps, refs, count):
    size = -(-len(hyps) // count)
    for start in range(0, len(hyps), size):
        yield hyps[start:start + size], [stream[start:start + size] for stream in refs]


@pytest.mark.parametrize("metric,options", [
    ("bleu", {}),
    ("chrf", {"chrf_word_order": 2}),
    ("rouge", {"types": ["rouge1", "rouge2", "rougeL"], "stem": True}),
])
def test_partitions_merge_to_one_run(client, corpus, metric, options):
    hyps, refs = corpus
    futures = [client.submit(score_partition, metric, h, r, options) for h, r in partitions(hyps, refs, 5)]
    shards = client.gather(futures)
    assert len(shards) == 5
    merged = evalcli.merge(shards)
    single = evalcli.score(metric, hyps, refs, **options)
    assert merged.score == single.score
    assert merged.components == single.components
    assert merged.totals == single.totals
    assert merged.signature == single.signature
    assert merged.shard == single.shard


def test_cider_with_shared_document_frequencies(client, corpus, tmp_path):
    hyps, refs = corpus
    by_segment = [list(segment) for segment in zip(*refs)]
    df = tmp_path / "coco.df"
    # The document frequencies of the whole corpus, saved once and given to every partition.
    evalcli.score("cider", hyps, by_segment, refs_by_segment=True, save_df=str(df))
    options = {"refs_by_segment": True, "df": str(df)}
    pieces = [(hyps[i:i + 150], by_segment[i:i + 150]) for i in range(0, len(hyps), 150)]
    shards = client.gather([client.submit(score_partition, "cider", h, r, options) for h, r in pieces])
    merged = evalcli.merge(shards)
    single = evalcli.score("cider", hyps, by_segment, **options)
    assert merged.score == single.score
    assert merged.sentence_scores == single.sentence_scores
    assert "df:sha256." in merged.signature
    # Without a shared df, partitions' CIDEr cannot be merged into one run's.
    unshared = [evalcli.stats("cider", h, r, refs_by_segment=True) for h, r in pieces]
    with pytest.raises(evalcli.Error, match="df"):
        evalcli.merge(unshared)


def test_shard_pickles_and_writes_the_stats_out_file(corpus, tmp_path):
    hyps, refs = corpus
    shard = evalcli.stats("bleu", hyps, refs)
    assert pickle.loads(pickle.dumps(shard)) == shard
    shard.write(tmp_path / "bleu.json")
    assert evalcli.Shard.read(tmp_path / "bleu.json") == shard
