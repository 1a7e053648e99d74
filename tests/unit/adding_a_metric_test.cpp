// docs/adding-a-metric.md, proved: a metric that is one Metric class and one
// MetricDefinition, registered from this file alone (no line in src/), gets
// its subcommand with options and help, range checks, --signature read-back
// (also with resampling fields), --sentence-level, --stats-out shards that
// `evalcli merge` adds up, `evalcli check` re-scoring, and the
// metric-independent test tables (tests/support/registered_metrics.hpp).
//
// The metric: unigram F-beta. A segment's statistics are the clipped unigram
// matches against its best reference (most matches, first on ties), the
// hypothesis length and that reference's length; the score of summed
// statistics is 100 * (1 + beta^2) * matches / (beta^2 * ref_len + hyp_len).
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/metric.hpp"
#include "evalcli/metrics/text_options.hpp"
#include "evalcli/tokenize/pipeline.hpp"
#include "support/registered_metrics.hpp"
#include "support/test_support.hpp"

// ------------------------------------------------------------ the metric's file
// Everything a metric's own file (src/metrics/<name>.cpp) would hold.
namespace evalcli {
namespace {

// Segments this process scored with the metric: shows the fuzz target ran it.
std::atomic<long> unigram_f_segments{0};

struct UnigramFOptions {
  PipelineOptions text;  // tokenizer default 13a
  int beta = 1;
  bool types = false;  // count each token type once
};

const MetricDefinition& unigram_f_definition();

class UnigramF : public Metric {
 public:
  explicit UnigramF(UnigramFOptions options) : options_(std::move(options)), pipeline_(options_.text) {}

  std::string name() const override { return "UniF"; }
  std::vector<std::string> stat_names() const override { return {"matches", "hyp_len", "ref_len"}; }

  void segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const override {
    ++unigram_f_segments;
    const auto hyp_counts = counts(hyp);
    double best = -1, best_length = 0;  // the reference with the most matches, the first on ties
    for (const auto& ref : refs) {
      const auto ref_counts = counts(ref);
      if (const double matches = clipped_matches(hyp_counts, ref_counts); matches > best) {
        best = matches;
        best_length = total(ref_counts);
      }
    }
    out[0] = std::max(best, 0.0);
    out[1] = total(hyp_counts);
    out[2] = best_length;
  }

  double score(std::span<const Stat> stats) const override {
    const double b2 = static_cast<double>(options_.beta) * options_.beta;
    const double denominator = b2 * stats[2] + stats[1];
    return denominator == 0 ? 0.0 : 100.0 * (1 + b2) * stats[0] / denominator;
  }

  // Every option that changes the number, printed from the definition's table.
  std::string signature() const override { return print_signature(unigram_f_definition(), *this); }

  nlohmann::json details(std::span<const Stat> stats) const override {
    return {{"precision", stats[1] == 0 ? 0.0 : stats[0] / stats[1]}, {"recall", stats[2] == 0 ? 0.0 : stats[0] / stats[2]}};
  }

  const TextPipeline& pipeline() const { return pipeline_; }
  const UnigramFOptions& options() const { return options_; }

 private:
  using Counts = std::map<std::u32string, double>;

  Counts counts(std::u32string_view line) const {
    Counts result;
    const std::u32string tokens = pipeline_.process(line);
    for (std::size_t start = 0; start < tokens.size();) {
      const std::size_t space = std::min(tokens.find(U' ', start), tokens.size());
      if (space > start) {
        double& n = result[tokens.substr(start, space - start)];
        n = options_.types ? 1 : n + 1;
      }
      start = space + 1;
    }
    return result;
  }
  static double total(const Counts& counts) {
    double sum = 0;
    for (const auto& [token, n] : counts) sum += n;
    return sum;
  }
  static double clipped_matches(const Counts& hyp, const Counts& ref) {
    double matches = 0;
    for (const auto& [token, n] : hyp) {
      if (const auto found = ref.find(token); found != ref.end()) matches += std::min(n, found->second);
    }
    return matches;
  }

  UnigramFOptions options_;
  TextPipeline pipeline_;
};

std::unique_ptr<StatsModel> build_unigram_f(const OptionValues& values, const BuildContext&) {
  UnigramFOptions options;
  options.text = pipeline_options(values, "13a");
  options.beta = values.integer("unif-beta", 1);
  options.types = values.flag("unif-types");
  auto metric = std::make_unique<UnigramF>(options);
  check_signature_tokenizer_fields(values, metric->pipeline().tokenizer());  // dict:/icu: as given
  return metric;
}

MetricDefinition make_unigram_f_definition() {
  const TextOptionSpecs text{.tokenize_help = "tokenizer (-tok): 13a, intl, char, none, ...; default 13a",
                             .jieba = false,
                             .pipeline = pipeline_of<UnigramF>()};
  MetricDefinition d;
  d.command = "unif";
  d.summary = "unigram F-beta (test-only metric of tests/unit/adding_a_metric_test.cpp)";
  d.names = {"UniF"};
  d.options = {
      {.name = "unif-beta",
       .kind = OptionKind::integer,
       .help = "recall weight beta",
       .default_text = "1",
       .min = 0,
       .max = 10,
       .sacrebleu_alias = "-ub",
       .signature_key = "beta",
       .print = field_printer<UnigramF>([](const UnigramF& m) { return std::to_string(m.options().beta); })},
      {.name = "unif-types",
       .kind = OptionKind::flag,
       .help = "count each token type once",
       .signature_key = "count",
       .flag_words = {"types", "tokens"},
       .print = field_printer<UnigramF>([](const UnigramF& m) { return flag_value(m.options().types); })},
  };
  const auto shared = text_option_specs(text);
  d.options.insert(d.options.end(), shared.begin(), shared.end());
  d.signature_keys = text_signature_keys(text);
  d.signature_keys.push_back({"metric", "", [](const std::string& value, OptionValues&) {
                                if (value != "UniF") throw usage_error(fmt::format("signature is for {}, not UniF", value));
                              }});
  // The fields signature() prints, in order (each read back by the key or option of that name).
  d.signature_layout = {"case", "tok", "beta", "count", "norm", "dict", "icu"};
  d.build = build_unigram_f;
  return d;
}

const MetricDefinition& unigram_f_definition() {
  static const MetricDefinition definition = make_unigram_f_definition();
  return definition;
}

// The registry line, at run time: once per process, before any test case runs
// (so every test case, in any order or filter, sees the same registry).
[[maybe_unused]] const bool unigram_f_registered = [] {
  register_metric_definition(unigram_f_definition());
  return true;
}();

}  // namespace
}  // namespace evalcli

// The fuzz target of fuzz/fuzz_cli_metrics.cpp as compiled into this binary (tests/CMakeLists.txt).
extern "C" int evalcli_fuzz_entry_cli_metrics(const uint8_t* data, size_t size);

// ------------------------------------------------------------------ the tests
namespace evalcli::test {
namespace {

const char* const kRef = "the cat sat on the mat\na quick brown fox jumps over the dog\nit is a sunny day\n";
const char* const kHyp = "the cat sat on a mat\na brown fox jumps\nit is a rainy day today\n";
const char* const kHypUpper = "The Cat sat on a mat\nA brown fox jumps\nit is a rainy day Today\n";
const char* const kWorse = "the dog\na fox\nrain today\n";

// Statistics of kHyp and kWorse against kRef, counted by hand (whitespace tokens).
struct Counts {
  double matches, hyp_len, ref_len;
};
// tokens: the|cat|sat|on|mat of 6 and 6 tokens; a|brown|fox|jumps of 4 and 8; it|is|a|day of 6 and 5.
const Counts kHypLines[] = {{5, 6, 6}, {4, 4, 8}, {4, 6, 5}};
// types: the line 1 reference has "the" twice (5 types); the others have no repeated tokens.
const Counts kHypLineTypes[] = {{5, 6, 5}, {4, 4, 8}, {4, 6, 5}};
// the of 2 and 6; a|fox of 2 and 8; nothing of 2 and 5.
const Counts kWorseLines[] = {{1, 2, 6}, {2, 2, 8}, {0, 2, 5}};
const Counts kWorseLineTypes[] = {{1, 2, 5}, {2, 2, 8}, {0, 2, 5}};

Counts sum(std::span<const Counts> lines) {
  Counts total{0, 0, 0};
  for (const auto& line : lines) total = {total.matches + line.matches, total.hyp_len + line.hyp_len, total.ref_len + line.ref_len};
  return total;
}

// F-beta from precision and recall, as the textbook writes it.
double f_beta(const Counts& c, double beta) {
  const double precision = c.matches / c.hyp_len, recall = c.matches / c.ref_len;
  if (precision + recall == 0) return 0;
  return 100 * (1 + beta * beta) * precision * recall / (beta * beta * precision + recall);
}

// What `-b -w 4` prints for a score.
std::string four_decimals(double score) { return fmt::format("{:.4f}\n", score); }

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// `evalcli unif -r REF -i HYP... args`, expected to succeed.
std::string unif(const TempFile& ref, const std::vector<std::string>& hyps, const std::vector<std::string>& args) {
  auto command = concat({"unif", "-r", ref.path(), "-i"}, hyps);
  const CliResult result = run_cli(concat(command, args));
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return result.out;
}

std::string printed_signature(const std::string& json_text) {
  const auto report = nlohmann::json::parse(json_text);
  return (report.is_array() ? report[0] : report)["signature"].get<std::string>();
}

}  // namespace

TEST_CASE("adding a metric: its subcommand, options and help come from its definition", "[adding_a_metric]") {
  const CliResult help = run_cli({"unif", "--help"});
  REQUIRE(help.exit_code == 0);
  for (const char* expected : {"--unif-beta", "recall weight beta (-ub); default 1; 0..10", "--unif-types",
                               "--tokenize", "--lowercase", "--normalize", "--signature", "--sentence-level",
                               "--stats-out", "--confidence", "--paired-bs", "--json-out"}) {
    INFO(expected);
    CHECK(help.out.find(expected) != std::string::npos);
  }
  const CliResult all = run_cli({"--help"});
  CHECK(all.out.find("unif") != std::string::npos);
  CHECK(all.out.find("unigram F-beta") != std::string::npos);

  const TempFile ref(kRef), hyp(kHyp), upper(kHypUpper);
  const Counts totals = sum(kHypLines);
  CHECK(unif(ref, {hyp.path()}, {"-b", "-w", "4"}) == four_decimals(f_beta(totals, 1)));
  CHECK(unif(ref, {hyp.path()}, {"-b", "-w", "4", "--unif-beta", "2"}) == four_decimals(f_beta(totals, 2)));
  CHECK(unif(ref, {hyp.path()}, {"-b", "-w", "4", "-ub", "0"}) == four_decimals(f_beta(totals, 0)));  // SacreBLEU-style alias
  CHECK(unif(ref, {hyp.path()}, {"-b", "-w", "4", "--unif-types"}) == four_decimals(f_beta(sum(kHypLineTypes), 1)));
  // The shared text options: uppercase words match once lowercased.
  CHECK(unif(ref, {upper.path()}, {"-b", "-w", "4"}) != four_decimals(f_beta(totals, 1)));
  CHECK(unif(ref, {upper.path()}, {"-b", "-w", "4", "-lc"}) == four_decimals(f_beta(totals, 1)));

  const std::string line = unif(ref, {hyp.path()}, {"--unif-beta", "3", "--unif-types"});
  CHECK(line.rfind("UniF|nrefs:1|case:mixed|tok:13a-v1|beta:3|count:types|version:evalcli-", 0) == 0);
  CHECK(line.find(" = " + fmt::format("{:.1f}", f_beta(sum(kHypLineTypes), 3))) != std::string::npos);
}

TEST_CASE("adding a metric: range checks refuse out-of-range and non-numbers with exit 2", "[adding_a_metric]") {
  const TempFile ref(kRef), hyp(kHyp);
  // Whole numbers outside the table's range name that range; what is no int
  // at all is refused first by the check of every INT option (docs/errors.md).
  for (const std::string value : {"11", "-1", "nan", "NaN", "inf", "-inf", "1e999", "1.5", "x", ""}) {
    INFO("--unif-beta '" << value << "'");
    const CliResult result = run_cli({"unif", "-r", ref.path(), "-i", hyp.path(), "--unif-beta", value});
    CHECK(result.exit_code == 2);
    const bool whole = value == "11" || value == "-1";
    CHECK(result.err.find("--unif-beta: '" + value + "' is not a whole number from " + (whole ? "0 to 10" : "")) !=
          std::string::npos);
    CHECK(result.out.empty());
  }
  CHECK(run_cli({"unif", "-r", ref.path(), "-i", hyp.path(), "--unif-beta", "10"}).exit_code == 0);
  // The same table checks the values a signature gives.
  const std::string fields = "nrefs:1|case:mixed|tok:13a-v1|count:tokens|version:evalcli-0.1.0";
  for (const std::string beta : {"beta:11", "beta:nan", "beta:2.5"}) {
    INFO(beta);
    const CliResult result = run_cli({"unif", "-r", ref.path(), "-i", hyp.path(), "--signature", fields + "|" + beta});
    CHECK(result.exit_code == 2);
    CHECK(result.err.find(beta) != std::string::npos);
  }
  const CliResult unknown = run_cli({"unif", "-r", ref.path(), "-i", hyp.path(), "--signature",
                                     "nrefs:1|case:mixed|tok:13a-v1|beta:1|count:maybe|version:evalcli-0.1.0"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("count") != std::string::npos);
  const CliResult both = run_cli({"unif", "-r", ref.path(), "-i", hyp.path(), "--unif-beta", "2", "--signature",
                                  fields + "|beta:2"});
  CHECK(both.exit_code == 2);
  CHECK(both.err.find("--unif-beta") != std::string::npos);
}

TEST_CASE("adding a metric: its printed signature reproduces text and JSON, also with resampling",
          "[adding_a_metric][signature]") {
  const TempFile ref(kRef), hyp(kHyp), worse(kWorse);
  const std::vector<std::string> options = {"--unif-beta", "2", "--unif-types", "--lowercase", "--normalize", "nfkc"};
  // The statistics options of each run; what the second run gives besides the signature.
  struct Run {
    std::vector<std::string> statistics;
    bool two_systems;
    std::vector<std::string> rerun_extra;
  };
  const Run runs[] = {
      {{}, false, {}},
      {{"--confidence", "--confidence-n", "40", "--seed", "3"}, false, {}},
      {{"--paired-bs", "--paired-bs-n", "30", "--seed", "9"}, true, {"--paired-bs"}},
      {{"--paired-ar", "--paired-ar-n", "30"}, true, {}},
  };
  for (const auto& run : runs) {
    INFO((run.statistics.empty() ? "no statistics" : run.statistics[0]));
    const auto hyps = run.two_systems ? std::vector<std::string>{hyp.path(), worse.path()} : std::vector<std::string>{hyp.path()};
    const auto original = concat(options, run.statistics);
    const std::string json = unif(ref, hyps, concat(original, {"-f", "json"}));
    const std::string signature = printed_signature(json);
    INFO(signature);
    CHECK(signature.find("|beta:2|count:types|norm:nfkc-v1|") != std::string::npos);
    const auto rerun = concat(run.rerun_extra, {"--signature", signature});
    CHECK(unif(ref, hyps, concat(rerun, {"-f", "json"})) == json);
    CHECK(unif(ref, hyps, rerun) == unif(ref, hyps, original));
  }
  // The score is the one this test computes (kHyp is lowercase, NFKC changes nothing).
  const auto report = nlohmann::json::parse(unif(ref, {hyp.path()}, concat(options, {"-f", "json"})));
  CHECK(report["score"].get<double>() == Approx(f_beta(sum(kHypLineTypes), 2)).epsilon(1e-12));
  const Counts types = sum(kHypLineTypes);
  CHECK(report["precision"].get<double>() == Approx(types.matches / types.hyp_len));  // details()
  CHECK(report["recall"].get<double>() == Approx(types.matches / types.ref_len));
  // A whole printed line (name, signature, " = score") is a signature too.
  const std::string line = unif(ref, {hyp.path()}, options);
  const std::string pasted = line.substr(0, line.find('\n'));
  CHECK(unif(ref, {hyp.path()}, {"--signature", pasted}) == line);
}

TEST_CASE("adding a metric: shards of two parts merge to what one run prints", "[adding_a_metric][merge]") {
  const TempFile ref(kRef), hyp(kHyp);
  const TempFile ref_a("the cat sat on the mat\na quick brown fox jumps over the dog\n"), ref_b("it is a sunny day\n");
  const TempFile hyp_a("the cat sat on a mat\na brown fox jumps\n"), hyp_b("it is a rainy day today\n");
  const TempFile shard_a("", ".json"), shard_b("", ".json");
  const std::vector<std::string> options = {"--unif-beta", "2"};
  unif(ref_a, {hyp_a.path()}, concat(options, {"--stats-out", shard_a.path()}));
  unif(ref_b, {hyp_b.path()}, concat(options, {"--stats-out", shard_b.path()}));

  for (const auto& output : {std::vector<std::string>{}, std::vector<std::string>{"-b", "-w", "4"},
                             std::vector<std::string>{"--stats", "-w", "3"}}) {
    INFO((output.empty() ? "default" : output[0]));
    const CliResult merged = run_cli(concat({"merge", shard_a.path(), shard_b.path()}, output));
    INFO(merged.err);
    CHECK(merged.exit_code == 0);
    CHECK(merged.out == unif(ref, {hyp.path()}, concat(options, output)));
  }
  const CliResult score = run_cli({"merge", shard_a.path(), shard_b.path(), "-b", "-w", "4"});
  CHECK(score.out == four_decimals(f_beta(sum(kHypLines), 2)));

  // JSON with a bootstrap interval: the same but for the system's name (shards are named after their files).
  const std::vector<std::string> json_options = {"-f", "json", "--confidence", "--confidence-n", "200"};
  auto merged_json = nlohmann::json::parse(run_cli(concat({"merge", shard_a.path(), shard_b.path()}, json_options)).out);
  auto single_json = nlohmann::json::parse(unif(ref, {hyp.path()}, concat(options, json_options)));
  merged_json.erase("system");
  single_json.erase("system");
  single_json.erase("test_set");  // the hashes of the run's files: shards do not record them
  single_json.erase("hypothesis");
  CHECK(merged_json == single_json);
  CHECK(merged_json["confidence"]["resamples"] == 200);
}

TEST_CASE("adding a metric: evalcli check re-scores it from -r/-i", "[adding_a_metric][check]") {
  const TempFile ref(kRef), hyp(kHyp), worse(kWorse);
  const TempFile report("", ".json"), shard("", ".json");
  // count:types scores kHyp higher than count:tokens: a check that lost the
  // option would re-score lower and fail.
  REQUIRE(f_beta(sum(kHypLineTypes), 1) > f_beta(sum(kHypLines), 1));
  unif(ref, {hyp.path()}, {"--unif-types", "--json-out", report.path(), "--stats-out", shard.path()});
  for (const auto* baseline : {&report, &shard}) {
    INFO(baseline->path());
    const CliResult pass = run_cli({"check", "--baseline", baseline->path(), "-r", ref.path(), "-i", hyp.path()});
    INFO(pass.err);
    CHECK(pass.exit_code == 0);
    const CliResult fail =
        run_cli({"check", "--baseline", baseline->path(), "-r", ref.path(), "-i", worse.path(), "-w", "2"});
    CHECK(fail.exit_code == 5);
    CHECK(fail.err.find("check failed") != std::string::npos);
    // Re-scored with count:types (the baseline's), not the default count:tokens.
    const double base = f_beta(sum(kHypLineTypes), 1), now = f_beta(sum(kWorseLineTypes), 1);
    CHECK(fail.out.find(fmt::format("{:.2f} -> {:.2f}", base, now)) != std::string::npos);
  }
  const double drop = f_beta(sum(kHypLineTypes), 1) - f_beta(sum(kWorseLineTypes), 1);
  CHECK(run_cli({"check", "--baseline", report.path(), "-r", ref.path(), "-i", worse.path(), "--max-drop",
                 fmt::format("{}", drop + 1), "--allow-large-drop"})
            .exit_code == 0);
  CHECK(run_cli({"check", "--baseline", report.path(), "-r", ref.path(), "-i", worse.path(), "--max-drop",
                 fmt::format("{}", drop - 1), "--allow-large-drop"})
            .exit_code == 5);
}

TEST_CASE("adding a metric: --sentence-level scores every segment", "[adding_a_metric]") {
  const TempFile ref(kRef), hyp(kHyp);
  std::string expected;
  for (const auto& line : kHypLines) expected += four_decimals(f_beta(line, 1));
  CHECK(unif(ref, {hyp.path()}, {"--sentence-level", "-b", "-w", "4"}) == expected);
  const std::string lines = unif(ref, {hyp.path()}, {"-sl"});
  CHECK(lines.rfind("UniF|nrefs:1|case:mixed|tok:13a-v1|beta:1|count:tokens|", 0) == 0);
  const auto json = nlohmann::json::parse(unif(ref, {hyp.path()}, {"--sentence-level", "-f", "json"}));
  REQUIRE(json["sentences"].size() == 3);
  CHECK(json["sentences"][1]["score"].get<double>() == Approx(f_beta(kHypLines[1], 1)));
}

TEST_CASE("adding a metric: the registry-driven test tables and the fuzz target pick it up", "[adding_a_metric]") {
  const auto commands = registered_segment_commands();
  CHECK(std::find(commands.begin(), commands.end(), "unif") != commands.end());
  CHECK(std::find(commands.begin(), commands.end(), "bleu") != commands.end());
  const auto table = with_registered_commands({"bleu", "rouge"});
  CHECK(std::count(table.begin(), table.end(), "bleu") == 1);
  CHECK(std::find(table.begin(), table.end(), "unif") != table.end());

  // fuzz_cli_metrics picks its subcommand by the first byte: some byte is this metric.
  const std::string body = "the cat sat\n\x01the cat sat on\n";
  const long before = unigram_f_segments;
  for (int first = 0; first < 64 && unigram_f_segments == before; ++first) {
    std::string input = static_cast<char>(first) + body;
    evalcli_fuzz_entry_cli_metrics(reinterpret_cast<const uint8_t*>(input.data()), input.size());
  }
  CHECK(unigram_f_segments > before);
}

}  // namespace evalcli::test
