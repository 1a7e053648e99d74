#pragma once
// Options and the scoring/reporting flow shared by every native metric
// subcommand (bleu, chrf, ter, rouge, ...): written once, used by all.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "evalcli/cli/cli.hpp"
#include "evalcli/core/corpus.hpp"
#include "evalcli/metrics/metric.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace evalcli::cli {

struct InputOptions {
  std::vector<std::string> refs;             // -r FILE (repeatable)
  std::vector<std::string> positional_refs;  // REF... positional files
  std::vector<std::string> hyps;             // -i FILE... (none = stdin)
  int num_refs = 1;                          // -nr N: tab-separated refs in one file
};
void add_input_options(CLI::App* cmd, InputOptions& options);
CorpusSpec make_corpus_spec(const InputOptions& options, std::istream& in);
std::size_t count_refs(const InputOptions& options);

struct OutputOptions {
  std::string format = "text";  // text | json
  int width = 1;
  bool score_only = false;
  bool sentence_level = false;
  std::string json_out;  // also write the JSON report here (atomically)
  // Statistics (docs/statistics.md), written once for every metric command.
  bool stats = false;               // --stats: distribution of sentence-level scores
  bool confidence = false;          // --confidence (-ci): bootstrap confidence interval
  int confidence_n = 1000;          // --confidence-n (-cin)
  bool paired_bs = false;           // --paired-bs: first -i system is the baseline
  int paired_bs_n = 1000;           // --paired-bs-n (-pbsn)
  bool paired_ar = false;           // --paired-ar: approximate randomisation
  int paired_ar_n = 10000;          // --paired-ar-n (-parn)
  int paired_jobs = 1;              // --paired-jobs (-j): threads over systems, 0 = automatic
  std::optional<std::string> seed;  // --seed (else env SACREBLEU_SEED, else 12345; "none" = random)
  std::string stats_out;            // --stats-out FILE: shard of sufficient statistics (docs/stats-format.md)
  bool quiet = false;               // -q/--quiet: no progress display
};
// `statistics` = false leaves out the statistics options (--stats, --confidence,
// --paired-*, --seed, --stats-out, -q) for commands that define their own.
void add_output_options(CLI::App* cmd, OutputOptions& options, bool statistics = true);

// Tokenizer settings every subcommand with --tokenize offers: --jieba-hmm on|off,
// --jieba-dict FILE (they only affect zh-jieba; docs/segmentation.md).
void add_tokenizer_options(CLI::App* cmd, TokenizerOptions& options);

// Full evalcli signature of `metric` ("nrefs:1|...|version:evalcli-X").
std::string metric_signature(const Metric& metric, std::size_t nrefs);

// The JSON report (schema evalcli-report/1) of one system.
nlohmann::ordered_json make_report(const Metric& metric, std::size_t nrefs, const SystemStats& stats,
                                   bool include_segments);

// Prints already computed statistics of `systems` as asked (text/JSON,
// --stats, --confidence, paired tests, --json-out, --stats-out): shared by
// run_metric_command and `evalcli merge`.
void report_metric_results(const Metric& metric, std::size_t nrefs, const std::vector<SystemStats>& systems,
                           const OutputOptions& output, Streams& io);
// True when the output options need every segment's statistics kept.
bool needs_rows(const OutputOptions& output);

// Scores the input with `metric` and prints text or JSON as asked.
void run_metric_command(const Metric& metric, const InputOptions& input, const OutputOptions& output,
                        Streams& io);

}  // namespace evalcli::cli
