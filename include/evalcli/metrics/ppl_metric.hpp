#pragma once
// Perplexity as a Metric (ppl.hpp): the additive statistics of every line
// (ARPA mode, PplStats) or document (log-prob mode, LogprobStats) as stat
// rows, so that distributions, bootstrap intervals, paired tests and
// shard/merge work for perplexity exactly as for the other metrics. A
// StatsModel only: the lines are scored by the ARPA model or read from
// log-prob files (ppl.hpp), not segment by segment against references.
#include <span>
#include <string>
#include <vector>

#include "evalcli/metrics/definition.hpp"
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

class PplMetric : public StatsModel {
 public:
  enum class Mode { arpa, logprobs };
  // `fields`: the metric's signature fields ("mode:arpa|lm:...").
  PplMetric(Mode mode, std::string fields) : mode_(mode), fields_(std::move(fields)) {}
  std::string name() const override { return "PPL"; }
  std::vector<std::string> stat_names() const override;
  // Counts (OOVs at most the tokens; documents without text at most the documents); log-probabilities real.
  StatDomain stat_domain() const override;
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
std::unique_ptr<StatsModel> ppl_from_signature(const std::string& signature);

// Perplexity declared once: the options of `evalcli ppl` (its corpus scorer)
// and the signature fields (src/metrics/ppl/ppl_metric.cpp).
const MetricDefinition& ppl_definition();

}  // namespace evalcli::ppl
