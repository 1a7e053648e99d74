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
#include "evalcli/stats/distribution.hpp"
#include "evalcli/stats/resampling.hpp"
#include "evalcli/stats/shard.hpp"
#include "evalcli/metrics/metric.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace evalcli::cli {

// coco's and cider's default (-j 0) start a thread per this many images. The
// pool only scores (reading, interning and CIDEr's counting are serial): at
// 5,000 COCO images two threads took as long as one (coco 87 against 85 ms
// wall, `perf stat -r 15`; cider 101 against 101 ms) for more CPU (a second
// malloc arena's page faults); at 50,000 coco took 0.66 s against 0.79 s.
constexpr std::size_t kImagesPerDefaultThread = 10000;

struct TextChecks;
class Progress;

struct InputOptions {
  std::vector<std::string> refs;             // -r FILE (repeatable)
  std::vector<std::string> positional_refs;  // REF... positional files
  std::vector<std::string> hyps;             // -i FILE... (none = stdin)
  int num_refs = 1;                          // -nr N: tab-separated refs in one file
};
void add_input_options(CLI::App* cmd, InputOptions& options);
CorpusSpec make_corpus_spec(const InputOptions& options, std::istream& in);
std::size_t count_refs(const InputOptions& options);
// Every segment of the inputs read (and checked) once, nothing scored: the
// size of the whole test set that --shard K/N divides. `keep_hook`: spec.on_segment still sees each segment.
std::size_t count_segments(CorpusSpec spec, bool keep_hook = false);

// --signature sets these options itself: giving one of them too is a usage error.
void refuse_options_set_by_signature(const CLI::App& cmd, std::initializer_list<const char*> options);

// What a JSON report records of the data it scored, so that `evalcli check`
// can refuse a baseline made on other data: the segment count and the SHA-256
// of each file's bytes as read (a hypothesis from standard input has none).
struct FileIdentity {
  std::string file;
  std::string sha256;
};
struct TestSetIdentity {
  std::size_t segments = 0;
  std::vector<FileIdentity> references;
  std::vector<FileIdentity> hypotheses;  // one per system, in order
};
TestSetIdentity identify_test_set(const CorpusSpec& spec, std::size_t segments);
nlohmann::ordered_json test_set_json(const TestSetIdentity& identity);
// A shard's "test_set" (with its "hypotheses") read back, for the report of merged --shard pieces.
TestSetIdentity test_set_from_shard(const std::string& json);

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
  // Set by commands without a reference tool to match (ppl): the p-value counts
  // ties (a system compared with itself gets p = 1, not SacreBLEU's smallest p),
  // and each comparison says which side is better in the metric's direction.
  bool paired_counts_ties = false;
  bool paired_verdict = false;
  // -j/--threads (also SacreBLEU's --paired-jobs): threads that score segments and run paired
  // tests; 0 = every available core. The output is the same for any number.
  int threads = 0;
  std::optional<std::string> seed;  // --seed (else env SACREBLEU_SEED, else 12345; "none" = random)
  std::string shard;                // --shard K/N: score the K-th of N contiguous pieces (docs/sharding.md)
  bool accepts_shard = false;       // set by commands that can score one piece of the test set
  std::optional<stats::ShardPosition> shard_position;  // set by the run from --shard
  std::string stats_out;            // --stats-out FILE: shard of sufficient statistics (docs/stats-format.md)
  bool quiet = false;               // -q/--quiet: no progress display
  // A score pasted after the signature given to --signature ("... = 51.6"):
  // compared with the score printed with as many decimals; a difference is a
  // failed check (exit 5) after the report is printed.
  std::optional<std::string> expected_score;
  // Set by the run when a JSON report is written: recorded in it as "test_set".
  std::optional<TestSetIdentity> test_set;
};
// `statistics` = false leaves out the statistics options (--stats, --confidence,
// --paired-*, --seed, --stats-out, -q); add them with add_statistics_options.
// --shard K/N (docs/sharding.md): narrows `spec` to the piece and records its
// position in `recorded`. Returns the whole test set's segment count (0 without --shard).
std::size_t select_shard(CorpusSpec& spec, OutputOptions& recorded);
// Records the test set's identity in `recorded` when a report or shard is
// written; a --shard piece records the whole test set (`whole_segments`).
void record_test_set(const CorpusSpec& spec, const std::vector<SystemStats>& systems, std::size_t whole_segments,
                     OutputOptions& recorded);
void add_output_options(CLI::App* cmd, OutputOptions& options, bool statistics = true);
// The statistics options alone. `confidence_flag` / `seed_flag` rename
// --confidence / --seed for commands that already use those names (ROUGE's
// rouge-score aggregator: --confidence LEVEL); an empty seed_flag adds none.
// `paired_tests` false: no --paired-* options (a command with one system, as ppl with one model and one text).
void add_statistics_options(CLI::App* cmd, OutputOptions& options, const std::string& confidence_flag = "--confidence,--ci",
                            const std::string& seed_flag = "--seed", bool paired_tests = true);
// An option naming an output file (--json-out, --stats-out): an empty name is
// a usage error, "-" is standard output (docs/errors.md, "Output files").
CLI::Option* add_output_file_option(CLI::App* cmd, const std::string& flags, std::string& path, const std::string& help);
// Checks every output file of a run (--json-out and --stats-out of `output`,
// and `more` (option, path) pairs such as --save-df) before any input is read:
// a missing or read-only folder, a directory, or two outputs naming the same
// file fail at once instead of after the scoring.
void check_outputs(const OutputOptions& output, const std::vector<std::pair<std::string, std::string>>& more = {});
// Writes an output file: "-" (or a path naming standard output) to io.out,
// anything else with io::write_output_file.
void write_output(Streams& io, const std::string& path, const std::string& content);

// True when any statistics option asks for resampling or a shard.
bool wants_statistics(const OutputOptions& output);

// Tokenizer settings every subcommand with --tokenize offers: --jieba-hmm on|off,
// --jieba-dict FILE (they only affect zh-jieba), --mecab-dict DIR (ja-mecab; docs/segmentation.md).
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
class Progress;

// What the statistics options computed for one score, per system: the
// metric's score, or one of its score components (metric.hpp).
struct ScoreAnalysis {
  const StatsModel* model = nullptr;  // its name() labels the lines ("ROUGE rouge2")
  std::string label;                  // the component's label; "" for the metric's one score
  std::vector<std::optional<stats::Interval>> confidence;
  std::vector<std::optional<stats::PairedResult>> paired;
  std::vector<std::optional<stats::Distribution>> distribution;
};

// What the statistics options computed for each system and score.
struct Analysis {
  std::string extra_signature;  // "bs:1000|seed:12345" etc., after nrefs
  std::vector<std::unique_ptr<StatsModel>> component_models;  // owned; empty: the metric has one score
  std::vector<ScoreAnalysis> scores;  // [0]: the score the report gives; then the other components
  std::size_t confidence_n = 0;
  stats::Seed seed;
  bool higher_is_better = true;  // the metric's direction (lower for TER, PPL)
  const ScoreAnalysis& main() const { return scores[0]; }
  bool has_components() const { return !component_models.empty(); }
};

// The sentence-score distributions of every score of `metric` (rows kept),
// and the bootstrap intervals and paired tests (against systems[0]) the
// output options ask for: what report_metric_results prints, and what
// `evalcli report` tabulates, computed by the same code.
Analysis analyse(const StatsModel& metric, const std::vector<SystemStats>& systems, const OutputOptions& output,
                 Progress& progress);

// True when the output options need every segment's statistics kept.
bool needs_rows(const OutputOptions& output);

// What compute_corpus_stats calls after each segment to draw "scoring segments"
// on `progress` (which must outlive the scoring), with the first hypothesis
// file's line count as the total; empty (and nothing counted) when `progress`
// is off: not a terminal, or -q.
std::function<void(std::size_t)> segment_progress(Progress& progress, const CorpusSpec& spec);

// Scores the input with `metric` and prints text or JSON as asked; with
// `checks`, warnings about the text first (cli/text_warnings.hpp).
void run_metric_command(const Metric& metric, const InputOptions& input, const OutputOptions& output,
                        Streams& io, const Presentation* presentation = nullptr,
                        const StatsModel* sentence_metric = nullptr, const TextChecks* checks = nullptr);

}  // namespace evalcli::cli
