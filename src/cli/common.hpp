#pragma once
// Options and the scoring/reporting flow shared by every native metric
// subcommand (bleu, chrf, ter, rouge, ...): written once, used by all.
#include <functional>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "evalcli/stats/corpus_stats.hpp"
#include "evalcli/metrics/metric.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace evalcli::cli {

struct TextChecks;

struct InputOptions {
  std::vector<std::string> refs;             // -r FILE (repeatable)
  std::vector<std::string> positional_refs;  // REF... positional files
  std::vector<std::string> hyps;             // -i FILE... (none = stdin)
  int num_refs = 1;                          // -nr N: tab-separated refs in one file
};
void add_input_options(CLI::App* cmd, InputOptions& options);
CorpusSpec make_corpus_spec(const InputOptions& options, std::istream& in);
std::size_t count_refs(const InputOptions& options);

// --signature sets these options itself: giving one of them too is a usage error.
void refuse_options_set_by_signature(const CLI::App& cmd, std::initializer_list<const char*> options);

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
  // A score pasted after the signature given to --signature ("... = 51.6"):
  // compared with the score printed with as many decimals; a difference is a
  // failed check (exit 5) after the report is printed.
  std::optional<std::string> expected_score;
};
// `statistics` = false leaves out the statistics options (--stats, --confidence,
// --paired-*, --seed, --stats-out, -q); add them with add_statistics_options.
void add_output_options(CLI::App* cmd, OutputOptions& options, bool statistics = true);
// The statistics options alone. `confidence_flag` / `seed_flag` rename
// --confidence / --seed for commands that already use those names (ROUGE's
// rouge-score aggregator: --confidence LEVEL); an empty seed_flag adds none.
void add_statistics_options(CLI::App* cmd, OutputOptions& options, const std::string& confidence_flag = "--confidence,--ci",
                            const std::string& seed_flag = "--seed");
// True when any statistics option asks for resampling or a shard.
bool wants_statistics(const OutputOptions& output);

// Tokenizer settings every subcommand with --tokenize offers: --jieba-hmm on|off,
// --jieba-dict FILE (they only affect zh-jieba; docs/segmentation.md).
void add_tokenizer_options(CLI::App* cmd, TokenizerOptions& options);

// Every numeric option of `app` and its subcommands refuses what CLI11 would
// read as NaN or infinity ("nan", "inf", "1e999", where Range lets NaN through)
// or would fail to convert, naming the value and the range (usage error, exit 2).
void refuse_bad_numbers(CLI::App& app);

// Full evalcli signature of `metric` ("nrefs:1|...|version:evalcli-X").
std::string metric_signature(const StatsModel& metric, std::size_t nrefs);

// The JSON report (schema evalcli-report/1) of one system.
nlohmann::ordered_json make_report(const StatsModel& metric, std::size_t nrefs, const SystemStats& stats,
                                   bool include_segments);

// How a metric command prints what differs from the default one line per
// system and evalcli-report/1 JSON (ROUGE's table, CIDEr's image ids,
// perplexity's `key = value` lines). Every member is optional. Everything
// statistical (sentence-score distribution, bootstrap intervals, paired tests,
// --json-out and --stats-out files) stays in report_metric_results, written
// once for every metric; `evalcli merge` uses the same presentation as the
// command (presentation_for) so that a merge prints what one run prints.
struct Presentation {
  // Signature fields the command adds before the resampling ones ("boot:1000|...").
  std::string extra_signature;
  // Text printed once before the systems, given the full signature.
  std::function<std::string(const std::string& signature)> text_header;
  // The text of system `s` (replacing the default line(s)); statistics lines follow it.
  std::function<std::string(const std::string& signature, const std::vector<SystemStats>& systems, std::size_t s)>
      system_text;
  // Completes the default JSON report of one system.
  std::function<void(nlohmann::ordered_json& report, const SystemStats& system, std::size_t s)> json;
  // Decimals when -w is not given.
  std::optional<int> default_width;
};

// The presentation `evalcli merge` uses for shards of `metric` (the one its
// command uses with default options and `output`); null = the default one.
std::unique_ptr<Presentation> presentation_for(const StatsModel& metric, const OutputOptions& output);

// Prints already computed statistics of `systems` as asked (text/JSON,
// --stats, --confidence, paired tests, --json-out, --stats-out): shared by
// run_metric_command and `evalcli merge`. `sentence_metric` (null: `metric`)
// scores the segments of --sentence-level output when the reference tool
// scores sentences with other options; the corpus score stays `metric`'s.
void report_metric_results(const StatsModel& metric, std::size_t nrefs, const std::vector<SystemStats>& systems,
                           const OutputOptions& output, Streams& io, const Presentation* presentation = nullptr,
                           const StatsModel* sentence_metric = nullptr);
// True when the output options need every segment's statistics kept.
bool needs_rows(const OutputOptions& output);

// Scores the input with `metric` and prints text or JSON as asked; with
// `checks`, warnings about the text first (cli/text_warnings.hpp).
void run_metric_command(const Metric& metric, const InputOptions& input, const OutputOptions& output,
                        Streams& io, const Presentation* presentation = nullptr,
                        const StatsModel* sentence_metric = nullptr, const TextChecks* checks = nullptr);

}  // namespace evalcli::cli
