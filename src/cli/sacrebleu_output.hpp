#pragma once
// Rendering of `evalcli sacrebleu` results exactly as SacreBLEU prints them:
// single-system JSON/text, sentence level, and the multi-system table.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/cli.hpp"
#include "cli/sacrebleu.hpp"
#include "evalcli/stats/corpus_stats.hpp"

namespace evalcli::cli {

struct SacrebleuRun {
  const SacrebleuArgs& args;
  const std::vector<const Metric*>& metrics;           // in SacreBLEU's order
  const std::vector<std::vector<SystemStats>>& stats;  // [metric][system]
  std::size_t nrefs;
  // Hypotheses ending in " ." per system, counted for BLEU without --force (else empty).
  std::vector<std::size_t> tokenized_periods = {};
};

// A warning as SacreBLEU's logger prints it: "sacreBLEU: " + message, or the
// bare message under -q (no handler then: Python's last-resort handler prints it).
std::string sacrebleu_warning(const std::string& message, bool quiet);
// SacreBLEU's three lines about hypotheses ending in a tokenized period, for
// system `s` when it has 100 or more (metrics/base.py), else "".
std::string tokenized_period_warning(const SacrebleuRun& run, std::size_t s);

std::string render_sentence_level(const SacrebleuRun& run);
std::string render_single_system(const SacrebleuRun& run);
std::string render_multi_system(const SacrebleuRun& run, Streams& io);

// A bootstrap interval as SacreBLEU prints it after a score: "(μ = mean ± ci)".
struct PrintedConfidence {
  std::string mean_text, ci_text;  // already formatted with the output width
};

// One score as SacreBLEU's Score.format() prints it: text line (or the bare
// score with score_only) and the indent=1 JSON object.
std::string score_line(const StatsModel& metric, std::span<const Stat> stats, const std::string& signature, int width,
                       bool score_only, const std::optional<PrintedConfidence>& confidence);
std::string score_json(const StatsModel& metric, std::span<const Stat> stats, const std::string& signature, int width,
                       const std::optional<PrintedConfidence>& confidence);

// print_single_results: right-justifies each line's text before " =" to the longest.
std::string align_on_equals(const std::vector<std::string>& lines);

// Length in code points, as Python's len() of a str.
std::size_t display_length(std::string_view utf8);

// Python's repr() of a str, enough for file names in log lines.
std::string python_repr(const std::string& text);

// Python json.dumps string quoting (ensure_ascii escapes non-ASCII as \uXXXX).
std::string python_json_quote(const std::string& utf8, bool ensure_ascii);

// A tabulate "fancy_grid" table: first column right-aligned, others centred,
// cells may hold several lines separated by '\n'.
std::string fancy_grid(const std::vector<std::string>& headers,
                       const std::vector<std::vector<std::string>>& rows);

// tabulate's "latex_booktabs" table.
std::string latex_booktabs(const std::vector<std::string>& headers,
                           const std::vector<std::vector<std::string>>& rows);

}  // namespace evalcli::cli
