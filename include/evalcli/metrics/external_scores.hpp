#pragma once
// Per-segment scores computed elsewhere (COMET, BERTScore from another tool,
// human ratings), given one number a line or as a field of JSONL lines: a
// statistics model like any metric's, so that they get the same mean/stdev/n,
// bootstrap intervals, paired tests, tables and HTML (docs/report.md).
// Their signature is the user's label and the SHA-256 of each file.
#include <string>
#include <vector>

#include "evalcli/metrics/metric.hpp"

namespace evalcli {

// The scores of one file: a plain number on every line, or (`field` not
// empty) the number in that field of a JSON object on every line. A line that
// is not one finite number is an input error naming the file and the line.
std::vector<double> read_segment_scores(const std::string& path, const std::string& field);

// Statistics [score_sum, segments] per segment [score, 1]; the corpus score is
// the correctly rounded mean of the segment scores.
class ExternalScores : public StatsModel {
 public:
  // `label` names the scores ("COMET"); `file_hashes` the SHA-256 of each
  // system's file, in system order; `field` the JSONL field ("" for plain lines).
  ExternalScores(std::string label, std::vector<std::string> file_hashes, std::string field);

  std::string name() const override { return label_; }
  std::vector<std::string> stat_names() const override { return {"score_sum", "segments"}; }
  StatDomain stat_domain() const override { return {{StatKind::real, StatKind::count}, {}}; }
  double score(std::span<const Stat> stats) const override;
  double corpus_score(const SystemStats& system) const override;
  bool corpus_score_needs_rows() const override { return true; }
  bool corpus_score_is_mean() const override { return true; }
  // "scores:COMET|field:score|sha256:<16 hex>+<16 hex>|agg:mean"
  std::string signature() const override;

  // The rows and totals of one system's scores.
  static SystemStats system_stats(const std::string& system, const std::vector<double>& scores);

 private:
  std::string label_;
  std::vector<std::string> file_hashes_;
  std::string field_;
};

// Checks a user's label for a signature: not empty, no '|', ':', '=', ',' or control characters.
void check_score_label(const std::string& label);

}  // namespace evalcli
