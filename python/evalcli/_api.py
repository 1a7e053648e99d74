"""The native API: any metric by its command name with the command's options."""
import json

from . import _native


def _option_list(options):
    """Keyword options as (name, [values]) for the metric's option table.

    Names as on the command line with '_' for '-' (max_ngram_order for
    --max-ngram-order); flags take True/False, lists any sequence of values.
    """
    given = []
    for name, value in options.items():
        if value is None:
            continue
        if isinstance(value, bool):
            values = ["true" if value else "false"]
        elif isinstance(value, (list, tuple)):
            values = [str(v) for v in value]
        else:
            values = [str(value)]
        given.append((name.replace("_", "-"), values))
    return given


class Shard:
    """A statistics shard: what ``evalcli <metric> --stats-out FILE`` writes.

    Picklable (it is its JSON text), writable as that file (``write``), and
    merged with others into one run's result by ``evalcli.merge``; the
    ``evalcli merge`` command reads the files it writes.
    """

    def __init__(self, text):
        self.text = text

    @classmethod
    def read(cls, path):
        """The shard in a --stats-out file."""
        with open(path, encoding="utf-8") as f:
            return cls(f.read())

    def write(self, path):
        """Writes the shard as a --stats-out file."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.text)

    def to_dict(self):
        """The shard's JSON document (docs/stats-format.md)."""
        return json.loads(self.text)

    @property
    def metric(self):
        return self.to_dict()["metric"]

    @property
    def signature(self):
        return self.to_dict()["signature"]

    @property
    def segments(self):
        return sum(system["segments"] for system in self.to_dict()["systems"][:1])

    def __eq__(self, other):
        return isinstance(other, Shard) and self.text == other.text

    def __hash__(self):
        return hash(self.text)

    def __repr__(self):
        return f"<evalcli.Shard {self.metric} {self.segments} segments>"


class Result:
    """The result of one run: score, sentence scores, statistics and signature.

    ``score`` is the corpus score the command prints (full precision),
    ``components`` every named score (ROUGE: one per type and measure),
    ``sentence_scores`` one per segment, ``rows`` the statistics of each
    segment (``stat_names``), ``totals`` their sums, ``shard`` the Shard,
    ``confidence`` the bootstrap interval when asked for (confidence_n).
    """

    def __init__(self, native):
        self.name = native["name"]
        self.signature = native["signature"]
        self.nrefs = native["nrefs"]
        self.stat_names = native["stat_names"]
        self.totals = native["totals"]
        self.rows = native["rows"]
        scores = native["scores"]
        self.score = scores[0]["score"]
        self.sentence_scores = scores[0]["sentence_scores"]
        self.components = {s["name"]: s["score"] for s in scores[1:]}
        self.component_sentence_scores = {s["name"]: s["sentence_scores"] for s in scores[1:]}
        self.details = native["details"]
        self.shard = Shard(native["shard_json"])
        self.sacrebleu_signature = native["sacrebleu_signature"]
        self.sacrebleu_short_signature = native["sacrebleu_short_signature"]
        self.confidence = native["confidence"]  # {mean, half_width, lower, upper} or None

    def __repr__(self):
        return f"<evalcli.Result {self.name} = {self.score!r} ({self.signature})>"


def metric_names():
    """The metrics evalcli scores, by command name ("bleu", "chrf", "ter", "rouge", ...)."""
    return _native.metric_names()


def metric_options(metric):
    """The options of `metric` as (name, kind, help, default) tuples (those of ``evalcli METRIC --help``)."""
    return _native.metric_options(metric)


def _session(metric, signature, options):
    return _native.Session(metric, _option_list(options), signature or "")


def score(metric, hyps, refs, *, signature=None, refs_by_segment=False, rstrip=True, confidence_n=None,
          confidence_seed=None, **options):
    """Scores `hyps` against `refs` with ``evalcli METRIC`` and its options.

    metric:   a command name: "bleu", "chrf", "ter", "rouge", "meteor", "cider", ...
    hyps:     a list of str, one hypothesis per segment.
    refs:     reference streams, a list of lists of str as SacreBLEU takes them
              ([stream][segment], one stream per -r file); with
              refs_by_segment=True each segment's own list ([segment][ref]),
              which may differ in length for CIDEr.
    signature: a printed signature (``--signature``) instead of metric options.
    rstrip:   strip trailing whitespace as the command does when reading lines.
    confidence_n: bootstrap resamples for a confidence interval of the score
              (--confidence -cin N; Result.confidence), seed confidence_seed
              (default SACREBLEU_SEED, else 12345).
    options:  the command's options, '-' written '_': tokenize="intl",
              lowercase=True, max_ngram_order=2, types=["rouge1", "rougeL"].

    Returns a Result. Raises evalcli.Error (a ValueError) for bad options or input.
    """
    session = _session(metric, signature, options)
    return Result(session.score(hyps, refs, refs_by_segment, rstrip, True, confidence_n or 0,
                                "" if confidence_seed is None else str(confidence_seed)))


def stats(metric, hyps, refs, **kwargs):
    """The statistics shard of scoring `hyps` (as score() takes them): what --stats-out writes."""
    return score(metric, hyps, refs, **kwargs).shard


def merge(shards):
    """Merges shards (Shard objects or their JSON texts, in corpus order) into one run's Result.

    The result equals scoring all their segments in one run (``evalcli merge``);
    shards of different metrics or signatures are refused (evalcli.Error).
    """
    texts = [s.text if isinstance(s, Shard) else s for s in shards]
    names = [f"shard {i + 1}" for i in range(len(texts))]
    return Result(_native.merge(texts, names))
