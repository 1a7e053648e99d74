#pragma once
// Rendering of `evalcli sacrebleu` results exactly as SacreBLEU prints them:
// single-system JSON/text, sentence level, and the multi-system table.
#include <string>
#include <vector>

#include "evalcli/cli/cli.hpp"
#include "evalcli/cli/sacrebleu.hpp"
#include "evalcli/core/corpus.hpp"

namespace evalcli::cli {

struct SacrebleuRun {
  const SacrebleuArgs& args;
  const std::vector<const Metric*>& metrics;           // in SacreBLEU's order
  const std::vector<std::vector<SystemStats>>& stats;  // [metric][system]
  std::size_t nrefs;
};

std::string render_sentence_level(const SacrebleuRun& run);
std::string render_single_system(const SacrebleuRun& run);
std::string render_multi_system(const SacrebleuRun& run, Streams& io);

// Python json.dumps string quoting (ensure_ascii escapes non-ASCII as \uXXXX).
std::string python_json_quote(const std::string& utf8, bool ensure_ascii);

// A tabulate "fancy_grid" table: first column right-aligned, others centred,
// cells may hold several lines separated by '\n'.
std::string fancy_grid(const std::vector<std::string>& headers,
                       const std::vector<std::vector<std::string>>& rows);

}  // namespace evalcli::cli
