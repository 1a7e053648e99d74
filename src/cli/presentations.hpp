#pragma once
// The presentations (cli/common.hpp) of the metric commands whose output is
// not the default one line per system. Each command uses its own; `evalcli
// merge` gets the same one, with the command's default options, from
// presentation_for() so that merged shards print what one run prints.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/common.hpp"
#include "evalcli/metrics/rouge.hpp"

namespace evalcli::cli {

// CIDEr: numpy's mean of the per-image scores; `documents` (N of the document
// frequencies) and the item ids in JSON when known.
std::unique_ptr<Presentation> cider_presentation(std::optional<std::size_t> documents, std::vector<std::string> ids);

// rouge-score: its table (or per-pair lines), math.fsum means, and with
// `bootstrap_samples` > 0 its BootstrapAggregator intervals.
struct RougeScoreReport {
  int bootstrap_samples = 0;
  unsigned seed = 42;
  double confidence = 0.95;
  bool sentence_level = false;
  bool score_only = false;
  int width = 5;
};
std::unique_ptr<Presentation> rouge_score_presentation(const RougeScoreMetric& metric, RougeScoreReport report);

// ROUGE-1.5.5: its text report (after a signature line unless `perl_output`).
// `eval_ids` (settings-file runs): per system, the EVAL ID of each row; the
// peer is then always named by its system name and -d lines are printed in
// ROUGE's by_evalID order. Empty: line files (rows 000000, 000001, ...).
// `per_doc`: the -d lines even when the metric's flags lack -d (not in the
// signature: `evalcli merge --sentence-level` asks for them).
std::unique_ptr<Presentation> rouge155_presentation(const Rouge155Metric& metric, bool perl_output,
                                                    std::vector<std::vector<std::string>> eval_ids = {},
                                                    bool per_doc = false);

// What `evalcli ppl` knows of its systems: several models on the same text
// (--lm A B) or several log-prob files of the same documents, the first the
// baseline of a paired test. Every member may be empty (one system, or a merge).
struct PplSystems {
  std::vector<std::string> fields;                     // ARPA: each model's signature fields (lm:, lm-md5:, order:)
  std::vector<std::vector<std::size_t>> line_numbers;  // log-probs: each file's document lines (else rows count from 1)
  std::vector<std::vector<nlohmann::json>> ids;        // log-probs: each file's document ids
  bool paired = false;                                 // a paired test runs: the first system is named the baseline
};

// Perplexity: `key = value` lines of the summed statistics, per-line lines with `per_doc`;
// with several systems, each under its name and with its own model's signature.
std::unique_ptr<Presentation> ppl_presentation(const StatsModel& metric, bool per_doc, PplSystems systems = {});

}  // namespace evalcli::cli
