#pragma once
// evalcli as a library for programs (the Python module, python/; docs/python.md):
// a metric by its command name with the option values of its table
// (evalcli/metrics/definition.hpp) or a printed signature, scored on text held
// in memory. The numbers, signature and statistics shard are those of the
// command (`evalcli <metric> ... --stats-out`), without the files' test_set record.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "evalcli/core/summation.hpp"
#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/metric.hpp"
#include "evalcli/stats/resampling.hpp"

namespace evalcli::cli {

// An option of the metric's table as a program gives it: its name as on the
// command line without "--" ("max-ngram-order"), and its values: one text for
// text and numbers, "true"/"false" for flags, any number for lists.
struct GivenOption {
  std::string name;
  std::vector<std::string> values;
};

// The segments to score, decoded: one hypothesis and its references per segment.
struct SegmentTexts {
  std::vector<std::u32string> hyps;
  std::vector<std::vector<std::u32string>> refs;  // [segment][reference]
};

// One score of a run: the metric's, or one of its components (ROUGE's types).
struct ScoreLine {
  std::string name;                    // "BLEU", "ROUGE rouge1-F"
  double score = 0;                    // the corpus score the command prints (full precision)
  std::vector<double> sentence_scores;  // one per segment, as --sentence-level prints them
};

struct MetricResult {
  std::string name;       // the metric's name(): "BLEU", "chrF2++"
  std::string signature;  // the full signature the command prints (nrefs ... version)
  std::size_t nrefs = 0;
  std::vector<std::string> stat_names;
  SystemStats stats;                 // totals and every segment's row
  std::vector<ScoreLine> scores;     // the metric's score first, then its components
  std::string details_json;          // the metric's details of the totals (precisions, BP, ...)
  std::string shard_json;            // what --stats-out writes
  std::string sacrebleu_signature;   // SacreBLEU's form (BLEU, chrF, TER), else ""
  std::string sacrebleu_short_signature;
  // The bootstrap interval when asked for (SacreBLEU's --confidence, corpus_score(n_bootstrap=N)).
  std::optional<stats::Interval> confidence;
};

// A bootstrap confidence interval of the corpus score (0 samples: none), with
// SacreBLEU's seed: `seed` if not empty, else SACREBLEU_SEED, else 12345.
struct ConfidenceRequest {
  std::size_t samples = 0;
  std::string seed;
};

// A metric built once from its command name and options (or a signature), to
// score any number of corpora. Errors are evalcli::Error (usage: exit code 2).
class MetricSession {
 public:
  // `signature`, when not empty, stands for the metric options as with
  // --signature; options of role resource/no_effect may still be given.
  MetricSession(const std::string& command, const std::vector<GivenOption>& options, const std::string& signature);
  ~MetricSession();
  MetricSession(const MetricSession&) = delete;
  MetricSession& operator=(const MetricSession&) = delete;

  const MetricDefinition& definition() const { return definition_; }
  // Scores the segments (every one must have the same number of references,
  // except for CIDEr, whose nrefs is then "var"). Thread-safe: const, and
  // touches no Python object (the GIL may be released around it).
  // `details` false: only the score, totals and signatures (no sentence
  // scores, no rows, no shard text), for callers that want the corpus score alone.
  MetricResult score(const SegmentTexts& texts, bool details = true) const;

  // Only each segment's statistics and sentence score (the per-pair calls of
  // rouge-score's and NLTK's APIs); not for CIDEr, whose scores need the corpus.
  struct SegmentScores {
    std::vector<StatRow> rows;
    std::vector<double> sentence_scores;
  };
  SegmentScores score_segments(const SegmentTexts& texts) const;
  // One segment's statistics into `row` (resized): the per-pair calls without
  // the blocks and sentence scores of score_segments. Thread-safe as score().
  void segment_row(std::u32string_view hyp, std::span<const std::u32string> refs, StatRow& row) const;

  // The same in pieces: blocks of segments in corpus order, then the result, so
  // that a caller converts and scores a block at a time (the Python module
  // does, reusing its buffers). Not thread-safe itself; the session may be shared.
  class Run {
   public:
    Run(const MetricSession& session, bool details, ConfidenceRequest confidence = {});
    void add(const SegmentTexts& block);
    MetricResult finish();

   private:
    void add_segment(std::u32string_view hyp, std::span<const std::u32string> refs, const FollowingCaptions& following);

    const MetricSession& session_;
    bool details_;
    ConfidenceRequest confidence_;
    bool keep_rows_;
    SystemStats system_;
    std::vector<stats::ExactSum> exact_;  // correctly rounded totals (metrics with exact_totals())
    StatRow row_;
    std::optional<std::size_t> nrefs_;  // of the first segment
    bool uniform_refs_ = true;
    SegmentTexts all_;  // CIDEr: every segment, for its two passes
    // A block's last segment, held until the next block's first one is known,
    // when the metric reads the captions that follow a segment's (coco-bleu with ptb).
    SegmentTexts held_;
  };

  // SacreBLEU 2.x's Score.format(width, score_only, signature, is_json) of this
  // metric's score of `totals`, as `evalcli sacrebleu` prints it: "BLEU = 26.04
  // 62.8/35.1/..." (with "|" + `signature` after the name when not empty).
  // `confidence` (mean, half-width) prints SacreBLEU's "(μ = mean ± ci)".
  std::string sacrebleu_format(std::span<const Stat> totals, int width, bool score_only, const std::string& signature,
                               bool is_json, std::optional<std::pair<double, double>> confidence = {}) const;

 private:
  MetricResult score_cider(const SegmentTexts& texts, bool details) const;
  void check_nrefs(std::size_t nrefs) const;
  const MetricDefinition& definition_;
  OptionValues values_;
  std::optional<std::string> signature_nrefs_;
  std::size_t num_stats_ = 0;  // of model_ (stat_names() builds its names on each call)
  std::unique_ptr<StatsModel> model_;           // the corpus metric (null for CIDEr: needs the corpus)
  std::unique_ptr<StatsModel> sentence_model_;  // sentence scores (BLEU: effective order)
};

// The merged result of statistics shards (their JSON texts, in corpus order), as
// `evalcli merge` computes it; `names` name them in errors (as paths would).
MetricResult merge_shard_texts(const std::vector<std::string>& texts, const std::vector<std::string>& names);

}  // namespace evalcli::cli
