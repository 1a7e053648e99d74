#!/usr/bin/python3
"""Scoring a corpus on a Dask cluster with evalcli (docs/python.md, "Dask and Spark").

Every partition of (hypothesis, references) pairs is scored on a worker into a
statistics shard (evalcli.stats, what --stats-out writes); the shards come back
to the client in corpus order and evalcli.merge gives exactly the score of one
run over the whole corpus. Nothing in evalcli knows about clusters.

    ./examples/python/dask_scoring.py HYP REF [REF...]            # a LocalCluster here
    ./examples/python/dask_scoring.py --scheduler tcp://host:8786 HYP REF   # a running cluster

On a multi-host cluster every worker needs the evalcli package (the .deb) and
reads nothing from disk: the text travels with the tasks.
"""
import argparse

import dask.bag
from dask.distributed import Client, LocalCluster

import evalcli


def score_partition(pairs, metric, options):
    """One partition's shard: a list with the one Shard (a bag's partition is a list)."""
    pairs = list(pairs)
    hyps = [hyp for hyp, _ in pairs]
    refs = [list(stream) for stream in zip(*(refs for _, refs in pairs))]  # reference streams
    return [evalcli.stats(metric, hyps, refs, **options)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("hyp")
    parser.add_argument("refs", nargs="+")
    parser.add_argument("--metric", default="bleu", help="an evalcli metric command: bleu, chrf, ter, rouge, ...")
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (default: a LocalCluster)")
    args = parser.parse_args()

    def lines(path):
        with open(path, encoding="utf-8") as f:
            return [line.rstrip("\n") for line in f]

    hyps = lines(args.hyp)
    streams = [lines(path) for path in args.refs]
    pairs = list(zip(hyps, zip(*streams)))

    cluster = None if args.scheduler else LocalCluster(n_workers=2, threads_per_worker=1, processes=True)
    with Client(args.scheduler or cluster):
        bag = dask.bag.from_sequence(pairs, npartitions=args.partitions)
        shards = bag.map_partitions(score_partition, args.metric, {}).compute()  # in partition order
        merged = evalcli.merge(shards)
    single = evalcli.score(args.metric, hyps, streams)
    print(f"{merged.name} = {merged.score!r} ({len(shards)} partitions)")
    print(f"one run: {single.score!r}  identical: {merged.score == single.score}")
    print(merged.signature)
    if cluster is not None:
        cluster.close()


if __name__ == "__main__":
    main()
