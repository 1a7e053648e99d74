#pragma once
// Perplexity as a Metric (ppl.hpp): the additive statistics of every line
// (ARPA mode, PplStats) or document (log-prob mode, LogprobStats) as stat
// rows, so that distributions, bootstrap intervals, paired tests and
// shard/merge work for perplexity exactly as for the other metrics. A
// StatsModel only: the lines are scored by the ARPA model or read from
// log-prob files (ppl.hpp), not segment by segment against references.
#include <optional>
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

// The version of evalcli's ARPA/KenLM scoring rules, "scorer:" in ARPA-mode
// signatures. v2 (2026-12-02): KenLM's rules for repeated entries (the first
// of duplicate n-grams kept; a repeated word takes a new id, look-ups find the
// first) and NaN probabilities refused at load. v1 kept the last duplicate; its
// signatures have no scorer: field and read back only for models without
// duplicates (NgramModel::first_duplicate_line), where v1 and v2 agree.
inline constexpr const char* kArpaScorer = "kenlm-v2";

// Why a signature without scorer: (printed by v1, or by v2 before the field
// existed) may not reproduce a run of `model`; nullopt when it does.
std::optional<std::string> why_unversioned_scorer_differs(const NgramModel& model, const std::string& path);

// What a perplexity run's signature names (docs/ppl.md): the mode, the model
// (ARPA) or the log base (log-probs), and how the text was split.
struct PplRun {
  enum class Mode { arpa, logprobs };
  Mode mode = Mode::arpa;
  std::string lm, lm_md5;      // ARPA: the model file's name and its MD5
  int order = 0;               // ARPA: the model's order
  bool null_context = false;   // ARPA: KenLM query -n
  // ARPA: "none" (KenLM's own split on ASCII whitespace, nothing else applied),
  // or the pipeline's tokenizer id with its normalizer chain and case.
  std::string tokenizer = "none";
  std::string normalizers = "none";
  bool lowercase = false;
  std::string log_base = "e";  // log-probs: e, 10 or 2
  // ARPA: the scoring rules' version (kArpaScorer); empty when rebuilt from a
  // signature printed before the field existed, which then prints none.
  std::string scorer = kArpaScorer;
};

class PplMetric : public StatsModel {
 public:
  using Mode = PplRun::Mode;
  explicit PplMetric(PplRun run) : run_(std::move(run)) {}
  std::string name() const override { return "PPL"; }
  std::vector<std::string> stat_names() const override;
  // Counts (OOVs at most the tokens; documents without text at most the documents); log-probabilities real.
  StatDomain stat_domain() const override;
  // Perplexity including OOVs (ARPA) or per token (log-probs) of summed statistics.
  double score(std::span<const Stat> stats) const override;
  // "mode:arpa|lm:...|lm-md5:...|order:3|ctx:sentence|tok:none", printed from ppl_definition()'s table.
  std::string signature() const override;
  nlohmann::json details(std::span<const Stat> stats) const override;
  Mode mode() const { return run_.mode; }
  const PplRun& run() const { return run_; }

 private:
  PplRun run_;
};

// Rebuilt from a signature ("mode:arpa|..." or "mode:logprobs|..."), for merge.
std::unique_ptr<StatsModel> ppl_from_signature(const std::string& signature);

// Perplexity declared once: the options of `evalcli ppl` (its corpus scorer)
// and the signature fields (src/metrics/ppl/ppl_metric.cpp).
const MetricDefinition& ppl_definition();

}  // namespace evalcli::ppl
