#pragma once
// What a metric is (docs/architecture.md), in two parts:
//
//   StatsModel:  named additive statistics -> the score of their sums
//   Metric:      a StatsModel that also scores one segment (hyp, refs) -> statistics
//
// Corpus scores, sentence scores, bootstrap intervals, significance tests,
// shard/merge, check and reports are written once over StatsModel, never per
// metric. Metrics that are not scored segment by segment (CIDEr's two passes,
// perplexity with a model, ROUGE-1.5.5 settings files) have a corpus scorer of
// their own that produces rows of the same statistics; merging shards needs
// only the StatsModel, rebuilt from the signature.
#include <nlohmann/json_fwd.hpp>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace evalcli {

using Stat = double;
using StatRow = std::vector<Stat>;

// One field of a SacreBLEU 2.x signature: long key ("case"), short key ("c"), value.
struct SacrebleuField {
  std::string key;
  std::string short_key;
  std::string value;
};

struct SystemStats;

// What values a statistic can take: shards and reports read back are checked
// against it, so a hand-edited or corrupt file is refused instead of scored.
enum class StatKind {
  real,         // any finite number (a log-probability sum)
  nonnegative,  // a finite number >= 0 (an average length, a sum of scores)
  count,        // a whole number from 0 to 2^53
};
struct StatDomain {
  std::vector<StatKind> kinds;  // one per statistic; empty: every statistic is `real`
  // (part, whole): row[part] <= row[whole] (matches never exceed totals).
  std::vector<std::pair<std::size_t, std::size_t>> at_most;
};

class StatsModel {
 public:
  virtual ~StatsModel() = default;

  // Display name, e.g. "BLEU", "chrF2++", "TER".
  virtual std::string name() const = 0;
  // Number of statistics per segment, and their names (for reports and shards).
  virtual std::vector<std::string> stat_names() const = 0;
  std::size_t num_stats() const { return stat_names().size(); }
  // The values each statistic can take (default: finite reals).
  virtual StatDomain stat_domain() const { return {}; }

  // Score from statistics summed over any set of segments (corpus, shard, resample).
  virtual double score(std::span<const Stat> stats) const = 0;

  // The one corpus score of a system, printed, reported, merged and checked:
  // score(totals), unless the reference tool averages per-segment scores its
  // own way (CIDEr: numpy's mean of the per-image scores; rouge-score: the
  // correctly rounded mean of the rows), which needs the rows when kept.
  virtual double corpus_score(const SystemStats& system) const;
  // True when corpus_score needs the rows (they are then kept for it).
  virtual bool corpus_score_needs_rows() const { return false; }
  // True when the corpus score is the mean of the sentence-level scores
  // (rouge-score, ROUGE-1.5.5's averages, NLTK METEOR, CIDEr); --stats then
  // says so instead of warning that their mean is not the corpus score.
  virtual bool corpus_score_is_mean() const { return false; }

  // True when the corpus totals must be the correctly rounded sums of the
  // segment rows (Python's math.fsum: rouge-score's mean of per-pair scores),
  // not sums in segment order. compute_corpus_stats then sums exactly in
  // constant memory (stats::ExactSum), so no rows need keeping for the mean.
  virtual bool exact_totals() const { return false; }

  // Score from statistics that SacreBLEU's bootstrap summed as a numpy float32
  // vector (significance.py). Same formula as score(), except where SacreBLEU
  // divides two float32 values and so rounds the quotient to float (chrF
  // precision/recall, TER edits/length): such metrics override this.
  // Default: widen to double and call score() (exact for BLEU).
  virtual double score_float32(std::span<const float> stats) const;

  // The metric's own signature fields ("case:mixed|eff:no|tok:13a-v1|smooth:exp"):
  // every option that can change the number, with component versions. The
  // front end adds `nrefs:`, resampling fields and `version:` around them
  // (see full_signature in evalcli/core/signature.hpp).
  virtual std::string signature() const = 0;

  // For metrics SacreBLEU also computes (BLEU, chrF, TER): the metric's own
  // signature fields exactly as SacreBLEU prints them, used by `evalcli sacrebleu`.
  virtual std::vector<SacrebleuField> sacrebleu_fields() const { return {}; }

  // Extra numbers derived from summed statistics for reports (precisions, BP, ...).
  virtual nlohmann::json details(std::span<const Stat> stats) const;

  // Score components: several scores carried by the same statistics (ROUGE:
  // one per requested type, the first being score()). The statistics tools
  // (--confidence, paired tests, --stats, check) then report every component,
  // labelled. Empty (the default): the one score().
  virtual std::vector<std::string> score_components() const { return {}; }
  // A model scoring component k (of score_components()) from the same rows,
  // named "<name()> <label>"; it refers to this model, which must outlive it.
  virtual std::unique_ptr<StatsModel> score_component(std::size_t k) const;
};

// The model of one score component: the parent's statistics, signature and
// domain, its own name and score (docs/statistics.md, "Score components").
class ComponentModel : public StatsModel {
 public:
  using ScoreFn = std::function<double(std::span<const Stat>)>;
  using CorpusFn = std::function<double(const SystemStats&)>;  // empty: score(totals)
  ComponentModel(const StatsModel& parent, std::string label, ScoreFn score, CorpusFn corpus = {});
  std::string name() const override { return parent_.name() + " " + label_; }
  std::vector<std::string> stat_names() const override { return parent_.stat_names(); }
  StatDomain stat_domain() const override { return parent_.stat_domain(); }
  double score(std::span<const Stat> stats) const override { return score_(stats); }
  double corpus_score(const SystemStats& system) const override;
  bool corpus_score_needs_rows() const override { return parent_.corpus_score_needs_rows(); }
  bool exact_totals() const override { return parent_.exact_totals(); }
  bool corpus_score_is_mean() const override { return parent_.corpus_score_is_mean(); }
  std::string signature() const override { return parent_.signature(); }

 private:
  const StatsModel& parent_;
  std::string label_;
  ScoreFn score_;
  CorpusFn corpus_;
};

// The models of every score component of `model`; empty when it has none.
std::vector<std::unique_ptr<StatsModel>> score_component_models(const StatsModel& model);

// The captions read after a segment's in the reference tool's texts, which
// hold all references, segment by segment, and each system's hypotheses:
// the next segment's first reference and its hypothesis of the same system
// (null where the text ends).
struct FollowingCaptions {
  const std::u32string* ref = nullptr;
  const std::u32string* hyp = nullptr;

  // Those of a next segment with references `refs` and hypothesis `hyp`.
  static FollowingCaptions of_segment(const std::vector<std::u32string>& refs, const std::u32string* hyp) {
    return {refs.empty() ? nullptr : &refs.front(), hyp};
  }
};

// A metric scored segment by segment: the statistics of one (hypothesis,
// references) pair, summed over a corpus by compute_corpus_stats.
class Metric : public StatsModel {
 public:
  // Writes the sufficient statistics of one segment into `out`: all num_stats()
  // values, overwriting what was there. Must be thread-safe (const).
  // `hyp` and `refs` are the input lines as read (rstripped).
  virtual void segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs,
                             Stat* out) const = 0;
  // True when a segment's statistics depend on the captions after it (a
  // tokenizer that looks past a line's end: ptb, as pycocoevalcap runs it on
  // all captions at once). Callers then score with segment_stats_followed_by.
  virtual bool reads_following_captions() const { return false; }
  // segment_stats() of a segment whose captions are followed by `following`.
  virtual void segment_stats_followed_by(std::u32string_view hyp, std::span<const std::u32string> refs,
                                         const FollowingCaptions& following, Stat* out) const {
    (void)following;
    segment_stats(hyp, refs, out);
  }
  // False when segment_stats spends most of its time under a lock of the
  // metric's own (a shared cache): compute_corpus_stats then scores on one
  // thread, since more would only wait for each other. Output is the same.
  virtual bool scales_with_threads() const { return true; }
};

// The statistics of one system: its totals, and its rows (one per segment,
// image or document) where kept.
struct SystemStats {
  std::string system;
  StatRow totals;             // summed over segments
  std::vector<StatRow> rows;  // per segment, only if requested
  std::size_t segments = 0;
};

// Element-wise `total += row`.
void add_stats(std::span<Stat> total, std::span<const Stat> row);

}  // namespace evalcli
