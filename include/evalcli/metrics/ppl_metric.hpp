#pragma once
// Perplexity as a Metric (ppl.hpp): the additive statistics of every line
// (ARPA mode, PplStats) or document (log-prob mode, LogprobStats) as stat
// rows, so that distributions, bootstrap intervals, paired tests and
// shard/merge work for perplexity exactly as for the other metrics. The
// lines are scored by `evalcli ppl` itself (the model is not part of the
// metric): segment_stats() is not available.
#include <span>
#include <string>
#include <vector>

#include "evalcli/metrics/metric.hpp"
#include "evalcli/metrics/ppl.hpp"

namespace evalcli::ppl {

StatRow to_row(const PplStats& stats);
PplStats arpa_stats(std::span<const Stat> row);
StatRow to_row(const LogprobStats& stats);
LogprobStats logprob_stats(std::span<const Stat> row);
// The "stats" objects of `evalcli ppl` reports (integers as integers).
nlohmann::ordered_json arpa_stats_json(const PplStats& stats);
nlohmann::ordered_json logprob_stats_json(const LogprobStats& stats);

class PplMetric : public Metric {
 public:
  enum class Mode { arpa, logprobs };
  // `fields`: the metric's signature fields ("mode:arpa|lm:...").
  PplMetric(Mode mode, std::string fields) : mode_(mode), fields_(std::move(fields)) {}
  std::string name() const override { return "PPL"; }
  std::vector<std::string> stat_names() const override;
  // Throws: lines are scored by `evalcli ppl` with its model or log-probs.
  void segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const override;
  // Perplexity including OOVs (ARPA) or per token (log-probs) of summed statistics.
  double score(std::span<const Stat> stats) const override;
  std::string signature() const override { return fields_; }
  nlohmann::json details(std::span<const Stat> stats) const override;
  Mode mode() const { return mode_; }

 private:
  Mode mode_;
  std::string fields_;
};

// Rebuilt from a signature ("mode:arpa|..." or "mode:logprobs|..."), for merge.
std::unique_ptr<Metric> ppl_from_signature(const std::string& signature);

}  // namespace evalcli::ppl
