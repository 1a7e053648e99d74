#include "cli/common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>

#include "evalcli/core/error.hpp"
#include "evalcli/core/format.hpp"
#include "evalcli/core/numbers.hpp"
#include "evalcli/core/sha256.hpp"
#include "evalcli/core/signature.hpp"
#include "cli/progress.hpp"
#include "cli/text_warnings.hpp"
#include "evalcli/io/output_file.hpp"
#include "evalcli/metrics/registry.hpp"
#include "evalcli/stats/distribution.hpp"
#include "evalcli/stats/resampling.hpp"
#include "evalcli/stats/shard.hpp"

namespace evalcli::cli {

void add_input_options(CLI::App* cmd, InputOptions& options) {
  cmd->add_option("-r,--ref", options.refs, "reference file (repeat for several references)");
  cmd->add_option("refs", options.positional_refs, "reference files (alternative to -r)");
  cmd->add_option("-i,--input", options.hyps, "hypothesis file(s); several = several systems; default stdin")
      ->expected(1, -1);
  cmd->add_option("--num-refs", options.num_refs, "N tab-separated references per line of the one reference file (-nr)")
      ->check(CLI::PositiveNumber);
}

CorpusSpec make_corpus_spec(const InputOptions& options, std::istream& in) {
  CorpusSpec spec;
  spec.ref_paths = options.refs;
  spec.ref_paths.insert(spec.ref_paths.end(), options.positional_refs.begin(), options.positional_refs.end());
  spec.tab_separated_refs = options.num_refs > 1 ? options.num_refs : 0;
  spec.hyp_paths = options.hyps;
  spec.stdin_stream = &in;
  return spec;
}

TestSetIdentity identify_test_set(const CorpusSpec& spec, std::size_t segments) {
  TestSetIdentity identity;
  identity.segments = segments;
  for (const auto& path : spec.ref_paths) identity.references.push_back({path, sha256_file_hex(path)});
  for (const auto& path : spec.hyp_paths) {
    identity.hypotheses.push_back({path, path == "-" ? "" : sha256_file_hex(path)});
  }
  return identity;
}

std::size_t count_segments(CorpusSpec spec, bool keep_hook) {
  if (!keep_hook) spec.on_segment = nullptr;
  ParallelReader reader(spec);
  std::vector<std::u32string> hyps, refs;
  while (reader.next(hyps, refs)) {
  }
  if (reader.segments_read() == 0) throw input_error(fmt::format("{}: empty input: no hypothesis lines", spec.hyp_paths[0]));
  return reader.segments_read();
}

namespace {

nlohmann::ordered_json shard_test_set_json(const TestSetIdentity& identity) {
  nlohmann::ordered_json test_set = test_set_json(identity);
  nlohmann::ordered_json hypotheses = nlohmann::ordered_json::array();
  for (const auto& file : identity.hypotheses) hypotheses.push_back({{"file", file.file}, {"sha256", file.sha256}});
  test_set["hypotheses"] = hypotheses;
  return test_set;
}

}  // namespace

TestSetIdentity test_set_from_shard(const std::string& json) {
  // The shard reader checked that it is an object; anything else in it is read as absent.
  const nlohmann::json doc = nlohmann::json::parse(json);
  TestSetIdentity identity;
  if (const auto segments = doc.find("segments"); segments != doc.end() && segments->is_number_unsigned()) {
    identity.segments = segments->get<std::size_t>();
  }
  const auto text = [](const nlohmann::json& file, const char* key) {
    const auto found = file.find(key);
    return found != file.end() && found->is_string() ? found->get<std::string>() : std::string();
  };
  const auto files = [&doc, &text](const char* key) {
    std::vector<FileIdentity> out;
    const auto list = doc.find(key);
    if (list == doc.end() || !list->is_array()) return out;
    for (const auto& file : *list) {
      if (file.is_object()) out.push_back({text(file, "file"), text(file, "sha256")});
    }
    return out;
  };
  identity.references = files("references");
  identity.hypotheses = files("hypotheses");
  return identity;
}

nlohmann::ordered_json test_set_json(const TestSetIdentity& identity) {
  nlohmann::ordered_json references = nlohmann::ordered_json::array();
  for (const auto& file : identity.references) references.push_back({{"file", file.file}, {"sha256", file.sha256}});
  return {{"segments", identity.segments}, {"references", references}};
}

std::size_t count_refs(const InputOptions& options) {
  if (options.num_refs > 1) return static_cast<std::size_t>(options.num_refs);
  return options.refs.size() + options.positional_refs.size();
}

void refuse_options_set_by_signature(const CLI::App& cmd, std::initializer_list<const char*> options) {
  for (const char* option : options) {
    if (cmd.count(option) > 0) {
      throw usage_error(fmt::format("--signature and {} cannot be combined: the signature sets it", option));
    }
  }
}

void add_output_options(CLI::App* cmd, OutputOptions& options, bool statistics) {
  cmd->add_option("-f,--format", options.format, "output format")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("-w,--width", options.width, "decimals of printed scores")->check(CLI::Range(0, 17));
  cmd->add_flag("-b,--score-only", options.score_only, "print only the score");
  cmd->add_flag("--sentence-level", options.sentence_level, "score every segment (-sl)");
  add_output_file_option(cmd, "--json-out", options.json_out, "also write the JSON report to FILE (atomically; - = stdout)");
  if (statistics) add_statistics_options(cmd, options);
}

void add_statistics_options(CLI::App* cmd, OutputOptions& options, const std::string& confidence_flag,
                            const std::string& seed_flag, bool paired_tests) {
  cmd->add_flag("--stats", options.stats, "also describe the sentence-level scores (n, mean, stdev, quantiles)");
  cmd->add_flag(confidence_flag, options.confidence, "bootstrap 95% confidence interval (-ci), as SacreBLEU");
  cmd->add_option("--confidence-n", options.confidence_n, "bootstrap resamples (-cin)")->check(CLI::PositiveNumber);
  if (paired_tests) {
    cmd->add_flag("--paired-bs", options.paired_bs, "paired bootstrap test of every -i system against the first");
    cmd->add_option("--paired-bs-n", options.paired_bs_n, "paired bootstrap resamples (-pbsn)")
        ->check(CLI::PositiveNumber);
    cmd->add_flag("--paired-ar", options.paired_ar, "paired approximate randomisation test against the first -i system");
    cmd->add_option("--paired-ar-n", options.paired_ar_n, "randomisation trials (-parn)")->check(CLI::PositiveNumber);
  }
  cmd->add_option("-j,--threads,--paired-jobs", options.threads,
                  "threads that score segments and run paired tests (default 0 = every available core); "
                  "the output is the same for any number")
      ->check(CLI::NonNegativeNumber);
  if (!seed_flag.empty()) {
    cmd->add_option(seed_flag, options.seed, "random seed (default: env SACREBLEU_SEED, else 12345; 'none' = random)");
  }
  cmd->add_option("--shard", options.shard,
                  "score only the K-th of N contiguous pieces of the test set into --stats-out, for 'evalcli merge' "
                  "(K/N, such as 2/8; docs/sharding.md)");
  add_output_file_option(cmd, "--stats-out", options.stats_out,
                         "write this run's sufficient statistics (a shard for 'evalcli merge'; - = stdout)");
  cmd->add_flag("-q,--quiet", options.quiet, "no progress display on stderr");
}

CLI::Option* add_output_file_option(CLI::App* cmd, const std::string& flags, std::string& path, const std::string& help) {
  const auto not_empty = [](std::string& value) { return value.empty() ? std::string("an empty file name") : std::string(); };
  return cmd->add_option(flags, path, help)->check(CLI::Validator(not_empty, "FILE"));
}

void check_outputs(const OutputOptions& output, const std::vector<std::pair<std::string, std::string>>& more) {
  std::vector<std::pair<std::string, std::string>> outputs = {{"--json-out", output.json_out},
                                                              {"--stats-out", output.stats_out}};
  outputs.insert(outputs.end(), more.begin(), more.end());
  io::check_output_paths(outputs);
  if (!output.shard.empty()) {
    if (!output.accepts_shard) {
      throw usage_error("--shard: this command cannot score one piece of the test set yet; split the files instead "
                        "(docs/sharding.md)");
    }
    stats::parse_shard_option(output.shard);
    if (output.stats_out.empty()) {
      throw usage_error("--shard needs --stats-out: a piece's score is not the test set's; merge the shards");
    }
    if (!output.json_out.empty() || output.format == "json") {
      throw usage_error("--shard cannot be combined with --json-out or -f json: a report would give a piece's score "
                        "as the test set's; write the shard and merge");
    }
  }
}

void write_output(Streams& io, const std::string& path, const std::string& content) {
  if (io::names_standard_output(path)) {
    io.out << content;
    return;
  }
  io::write_output_file(path, content);
}

bool wants_statistics(const OutputOptions& output) {
  return output.stats || output.confidence || output.paired_bs || output.paired_ar || !output.stats_out.empty();
}

void add_tokenizer_options(CLI::App* cmd, TokenizerOptions& options) {
  cmd->add_option_function<std::string>(
         "--jieba-hmm", [&options](const std::string& value) { options.jieba_hmm = value == "on"; },
         "zh-jieba: HMM for unknown words, as jieba.cut(HMM=...) (default on)")
      ->check(CLI::IsMember({"on", "off"}));
  cmd->add_option("--jieba-dict", options.jieba_dict,
                  "zh-jieba: dictionary replacing python3-jieba's dict.txt (same format)");
  cmd->add_option("--mecab-dict", options.mecab_dict,
                  "ja-mecab: compiled MeCab dictionary folder (sys.dic) replacing Debian's IPA one");
}

namespace {

// Why `text` cannot be the value of an option of CLI11 type `type` (INT, UINT,
// FLOAT), or "" when it can. Every int-like option of evalcli is an int or an
// unsigned, so these ranges are the ones CLI11 would otherwise refuse silently.
std::string numeric_option_problem(std::string_view type, const std::string& text) {
  if (type == "FLOAT") {
    double value = 0;
    if (parse_finite_double(text, value) == NumberProblem::ok) return {};
    return fmt::format("'{}' is not a finite number", text);
  }
  const auto integer_problem = [&text](auto value) -> std::string {
    using T = decltype(value);
    if (parse_integer(text, value) == NumberProblem::ok) return {};
    return fmt::format("'{}' is not a whole number from {} to {}", text, std::numeric_limits<T>::min(),
                       std::numeric_limits<T>::max());
  };
  if (type == "INT") return integer_problem(0);
  if (type == "UINT") return integer_problem(0U);
  return {};
}

}  // namespace

void refuse_bad_numbers(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    const std::string full_type = option->get_type_name();  // "INT:POSITIVE": the type, then validators
    const std::string type = full_type.substr(0, full_type.find(':'));
    if (type != "INT" && type != "UINT" && type != "FLOAT") continue;
    // No description: --help shows the option's type as before.
    option->check(CLI::Validator([type](std::string& text) { return numeric_option_problem(type, text); }, ""));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) refuse_bad_numbers(*sub);
}

std::string metric_signature(const StatsModel& metric, std::size_t nrefs) {
  return full_signature(nrefs, metric.signature());
}

namespace {

bool paired_test(const OutputOptions& output) { return output.paired_bs || output.paired_ar; }

std::vector<double> sentence_scores(const StatsModel& metric, const SystemStats& system) {
  std::vector<double> scores;
  scores.reserve(system.rows.size());
  for (const auto& row : system.rows) {
    // Undefined sentence scores (the perplexity of a line without tokens) are left out.
    const double score = metric.score(row);
    if (std::isfinite(score)) scores.push_back(score);
  }
  return scores;
}

// One ScoreAnalysis per score: the metric's, or every score component's.
void add_scores(const StatsModel& metric, std::size_t systems, Analysis& analysis) {
  const auto labels = metric.score_components();
  analysis.component_models = score_component_models(metric);
  std::vector<std::pair<const StatsModel*, std::string>> scored;
  if (labels.empty()) scored.emplace_back(&metric, "");
  for (std::size_t k = 0; k < labels.size(); ++k) scored.emplace_back(analysis.component_models[k].get(), labels[k]);
  for (const auto& [model, label] : scored) {
    ScoreAnalysis score;
    score.model = model;
    score.label = label;
    score.confidence.resize(systems);
    score.paired.resize(systems);
    score.distribution.resize(systems);
    analysis.scores.push_back(std::move(score));
  }
}

}  // namespace

Analysis analyse(const StatsModel& metric, const std::vector<SystemStats>& systems, const OutputOptions& output,
                 Progress& progress) {
  Analysis analysis;
  const std::size_t n = systems.size();
  add_scores(metric, n, analysis);
  for (auto& score : analysis.scores) {
    for (std::size_t s = 0; s < n; ++s) {
      if (const auto scores = sentence_scores(*score.model, systems[s]); !scores.empty()) {
        score.distribution[s] = stats::describe(scores);
      }
    }
  }
  if (!output.confidence && !paired_test(output)) return analysis;
  if (output.sentence_level) throw usage_error("statistical tests are unavailable with --sentence-level");
  if (output.paired_bs && output.paired_ar) throw usage_error("--paired-bs and --paired-ar exclude each other");
  if (paired_test(output) && n < 2) throw usage_error("paired tests need several systems: -i BASELINE SYSTEM...");
  analysis.seed = stats::resolve_seed(output.seed);
  analysis.higher_is_better = higher_is_better(metric.name());

  std::vector<stats::StatMatrix> matrices;
  for (const auto& system : systems) matrices.emplace_back(system.rows, metric.num_stats());
  std::vector<const StatsModel*> models;
  for (const auto& score : analysis.scores) models.push_back(score.model);
  std::vector<std::string> fields;
  if (paired_test(output)) {
    stats::PairedTestOptions options;
    options.kind = output.paired_bs ? stats::PairedTestKind::bootstrap : stats::PairedTestKind::randomization;
    options.samples = static_cast<std::size_t>(output.paired_bs ? output.paired_bs_n : output.paired_ar_n);
    options.seed = analysis.seed;
    options.jobs = static_cast<unsigned>(output.threads);
    options.count_ties = output.paired_counts_ties;
    // Every score on the same resamples (one generator per comparison, same seed).
    const std::vector<std::vector<stats::StatMatrix>> per_model(models.size(), matrices);
    const auto results = stats::run_paired_tests(models, per_model, options, [&](std::size_t done, std::size_t all) {
      progress.update("paired test (systems)", done, all);
    });
    for (std::size_t m = 0; m < models.size(); ++m) {
      for (std::size_t s = 0; s < n; ++s) analysis.scores[m].paired[s] = results[m][s];
    }
    if (output.paired_bs) fields.push_back(fmt::format("bs:{}", options.samples));
    if (output.paired_ar) fields.push_back(fmt::format("ar:{}", options.samples));
  }
  if (output.confidence) {
    analysis.confidence_n = static_cast<std::size_t>(output.confidence_n);
    for (std::size_t s = 0; s < n; ++s) {
      progress.update("bootstrap (systems)", s, n);
      // Same seed for every score: the same resamples, so a component's interval
      // is the one a run scoring that component alone gives.
      for (auto& score : analysis.scores) {
        score.confidence[s] = stats::bootstrap_confidence(*score.model, matrices[s], analysis.confidence_n, analysis.seed,
                                                           stats::kDefaultBlockBytes, static_cast<unsigned>(output.threads));
      }
    }
    if (!output.paired_bs) fields.insert(fields.begin(), fmt::format("bs:{}", analysis.confidence_n));
  }
  fields.push_back("seed:" + analysis.seed.decimal);
  analysis.extra_signature = fmt::format("{}", fmt::join(fields, "|"));
  progress.finish();
  return analysis;
}

namespace {

// The level of the '*' after a p-value (SacreBLEU's), and of a verdict's "significant".
constexpr double kSignificanceLevel = 0.05;

// Which of a system and the baseline has the better score in the metric's
// direction: "system", "baseline", or "neither" (equal scores).
std::string better_side(const Analysis& analysis, double baseline_score, double system_score) {
  if (system_score == baseline_score) return "neither";
  return (system_score > baseline_score) == analysis.higher_is_better ? "system" : "baseline";
}

// A paired test's outcome in words (--paired-* of ppl): which side scores better,
// in the metric's direction, and whether the test finds the difference significant.
std::string verdict_line(const StatsModel& model, const Analysis& analysis, const std::vector<SystemStats>& systems,
                         std::size_t s, const stats::PairedResult& baseline, const stats::PairedResult& result,
                         int width) {
  const std::string direction = analysis.higher_is_better ? "higher is better" : "lower is better";
  const std::string scores = fmt::format("{} {} vs baseline {} {}", systems[s].system, format_fixed(result.score, width),
                                         systems[0].system, format_fixed(baseline.score, width));
  const std::string better = better_side(analysis, baseline.score, result.score);
  if (better == "neither") {
    return fmt::format("  {}: {}: the same score ({}), no difference\n", model.name(), scores, direction);
  }
  const std::string which = better == "system" ? systems[s].system + " is better" : "the baseline is better";
  if (!result.p_value) return fmt::format("  {}: {}: {} ({})\n", model.name(), scores, which, direction);
  const double p = *result.p_value;
  const std::string significance =
      p <= kSignificanceLevel
          ? fmt::format("significant (p = {:.4f} <= {})", p, kSignificanceLevel)
          : fmt::format("not significant (p = {:.4f} > {}): no evidence that either is better", p, kSignificanceLevel);
  return fmt::format("  {}: {}: {} ({}); {}\n", model.name(), scores, which, direction, significance);
}

nlohmann::ordered_json interval_json(const stats::Interval& interval, std::size_t samples, const stats::Seed& seed) {
  nlohmann::ordered_json out;
  out["resamples"] = samples;
  out["seed"] = seed.decimal;
  out["mean"] = interval.mean;
  out["half_width"] = interval.half_width;
  out["lower"] = interval.lower;
  out["upper"] = interval.upper;
  return out;
}

// One score's distribution, interval and paired test of system s, as report fields.
void add_statistics_json(nlohmann::ordered_json& report, const ScoreAnalysis& score, const Analysis& analysis,
                         std::size_t s, const OutputOptions& output) {
  if (score.distribution[s]) {
    report["sentence_scores"] = stats::to_json(*score.distribution[s], score.model->corpus_score_is_mean());
  }
  if (score.confidence[s]) report["confidence"] = interval_json(*score.confidence[s], analysis.confidence_n, analysis.seed);
  if (score.paired[s]) {
    const auto& r = *score.paired[s];
    nlohmann::ordered_json paired;
    paired["test"] = output.paired_bs ? "paired-bootstrap" : "approximate-randomization";
    paired["samples"] = output.paired_bs ? output.paired_bs_n : output.paired_ar_n;
    paired["baseline"] = s == 0;
    paired["p_value"] = r.p_value ? nlohmann::ordered_json(*r.p_value) : nlohmann::ordered_json();
    paired["mean"] = r.mean ? nlohmann::ordered_json(*r.mean) : nlohmann::ordered_json();
    paired["ci"] = r.ci ? nlohmann::ordered_json(*r.ci) : nlohmann::ordered_json();
    if (output.paired_verdict && s > 0 && score.paired[0]) {
      paired["higher_is_better"] = analysis.higher_is_better;
      paired["better"] = better_side(analysis, score.paired[0]->score, r.score);
      paired["significant"] = r.p_value && *r.p_value <= kSignificanceLevel;
    }
    report["paired"] = paired;
  }
}

// A run's scorers: `corpus` scores the corpus (and every statistic test);
// `segment` scores each segment of --sentence-level output, when the reference
// tool scores sentences with other options (SacreBLEU's effective order for
// sentence BLEU), with its own signature.
struct Scorers {
  const StatsModel& corpus;
  const StatsModel& segment;
  std::string segment_signature;  // full signature of `segment`, or "" when it is `corpus`
};

nlohmann::ordered_json build_report(const Scorers& scorers, const std::string& signature, const SystemStats& stats,
                                    bool include_segments, const Analysis* analysis, std::size_t s,
                                    const OutputOptions* output, const Presentation* presentation = nullptr) {
  const StatsModel& metric = scorers.corpus;
  nlohmann::ordered_json report;
  report["schema"] = "evalcli-report/1";
  report["name"] = metric.name();
  report["system"] = stats.system;
  report["score"] = metric.corpus_score(stats);
  report["signature"] = signature;
  report["segments"] = stats.segments;
  nlohmann::ordered_json stat_object;
  const auto names = metric.stat_names();
  for (std::size_t i = 0; i < names.size(); ++i) stat_object[names[i]] = stats.totals[i];
  report["stats"] = stat_object;
  const nlohmann::json details = metric.details(stats.totals);
  for (auto it = details.begin(); it != details.end(); ++it) report[it.key()] = it.value();
  if (analysis != nullptr) {
    add_statistics_json(report, analysis->main(), *analysis, s, *output);
    if (analysis->has_components()) {
      // The report's score is the first component's; each component's own numbers by label.
      report["score_component"] = analysis->main().label;
      nlohmann::ordered_json components = nlohmann::ordered_json::object();
      for (const auto& score : analysis->scores) {
        nlohmann::ordered_json component;
        component["score"] = score.model->corpus_score(stats);
        add_statistics_json(component, score, *analysis, s, *output);
        components[score.label] = component;
      }
      report["components"] = components;
    }
  }
  if (output != nullptr && output->test_set) {
    report["test_set"] = test_set_json(*output->test_set);
    const auto& hypotheses = output->test_set->hypotheses;
    if (s < hypotheses.size() && !hypotheses[s].sha256.empty()) {
      report["hypothesis"] = {{"file", hypotheses[s].file}, {"sha256", hypotheses[s].sha256}};
    }
  }
  if (include_segments) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& row : stats.rows) rows.push_back({{"score", scorers.segment.score(row)}, {"stats", row}});
    if (!scorers.segment_signature.empty()) report["sentence_signature"] = scorers.segment_signature;
    report["sentences"] = rows;
  }
  if (presentation != nullptr && presentation->json) presentation->json(report, stats, s);
  return report;
}

std::string interval_text(double mean, double ci, int width) {
  return fmt::format(" (μ = {} ± {})", format_fixed(mean, width), format_fixed(ci, width));
}

std::string score_text(double score, int width, const Analysis* analysis, std::size_t s) {
  std::string text = format_fixed(score, width);
  if (analysis == nullptr) return text;
  const ScoreAnalysis& main = analysis->main();
  if (main.confidence[s] && main.confidence[s]->mean > 0) {
    text += interval_text(main.confidence[s]->mean, main.confidence[s]->half_width, width);
  }
  if (main.paired[s]) {
    const auto& r = *main.paired[s];
    if (r.mean && !main.confidence[s]) text += interval_text(*r.mean, *r.ci, width);
    if (r.p_value) text += fmt::format(" (p = {:.4f}){}", *r.p_value, *r.p_value <= 0.05 ? "*" : "");
  }
  return text;
}

std::string text_line(const StatsModel& metric, const std::string& signature, std::span<const Stat> stats, double score,
                      int width, const Analysis* analysis = nullptr, std::size_t s = 0) {
  std::string line = fmt::format("{}|{} = {}", metric.name(), signature, score_text(score, width, analysis, s));
  const nlohmann::json details = metric.details(stats);
  if (details.contains("verbose_score")) line += " " + details["verbose_score"].get<std::string>();
  return line;
}

// After a presentation's own text: the interval and test results that the
// default one-line form shows inline; with score components, a line for each,
// named by its model ("ROUGE rouge2 bootstrap 95% CI ...").
std::string statistics_lines(const Analysis& analysis, const std::vector<SystemStats>& systems, std::size_t s,
                             const OutputOptions& output) {
  std::string out;
  const int width = output.width;
  for (const auto& score : analysis.scores) {
    if (!score.confidence[s]) continue;
    const auto& ci = *score.confidence[s];
    out += fmt::format("  {} bootstrap 95% CI ({} resamples, seed {}): μ = {} ± {} [{}, {}]\n", score.model->name(),
                       analysis.confidence_n, analysis.seed.text, format_fixed(ci.mean, width),
                       format_fixed(ci.half_width, width), format_fixed(ci.lower, width), format_fixed(ci.upper, width));
  }
  for (const auto& score : analysis.scores) {
    if (!score.paired[s]) continue;
    const auto& r = *score.paired[s];
    std::string line = fmt::format("  {} {}:", score.model->name(),
                                   output.paired_bs ? "paired bootstrap" : "paired approximate randomization");
    if (r.mean && r.ci) line += fmt::format(" μ = {} ± {}", format_fixed(*r.mean, width), format_fixed(*r.ci, width));
    if (r.p_value) line += fmt::format(" p = {:.4f}{} against the baseline", *r.p_value, *r.p_value <= 0.05 ? "*" : "");
    if (s == 0) line += " (baseline)";
    out += line + "\n";
    if (output.paired_verdict && s > 0 && score.paired[0]) {
      out += verdict_line(*score.model, analysis, systems, s, *score.paired[0], r, width);
    }
  }
  return out;
}

std::string distribution_line(const StatsModel& metric, const stats::Distribution& d, int width) {
  auto f = [&](double v) { return format_fixed(v, width); };
  return fmt::format(
      "  sentence-level {} (n = {}; their mean {} the corpus score): mean {} stdev {} | min {} p5 {} p25 {} "
      "median {} p75 {} p95 {} max {}\n",
      metric.name(), d.n, metric.corpus_score_is_mean() ? "is" : "is not", f(d.mean), f(d.stdev), f(d.min), f(d.p5), f(d.p25), f(d.median), f(d.p75), f(d.p95),
      f(d.max));
}

std::string json_document(const Scorers& scorers, const std::string& signature, const std::vector<SystemStats>& systems,
                          bool segments, const Analysis* analysis, const OutputOptions* output,
                          const Presentation* presentation) {
  auto dump = [&](std::size_t s) {
    return build_report(scorers, signature, systems[s], segments, analysis, s, output, presentation).dump(2);
  };
  if (systems.size() == 1) return dump(0) + "\n";
  std::string out = "[\n";
  for (std::size_t s = 0; s < systems.size(); ++s) out += dump(s) + (s + 1 < systems.size() ? ",\n" : "\n");
  return out + "]\n";
}

std::string system_prefix(const std::vector<SystemStats>& systems, std::size_t s, const OutputOptions& output) {
  if (systems.size() <= 1) return "";
  return (s == 0 && paired_test(output) ? "Baseline: " : "") + systems[s].system + ": ";
}

std::string default_system_text(const Scorers& scorers, const std::string& signature, const SystemStats& system,
                                std::size_t s, const std::string& prefix, const OutputOptions& output,
                                const Analysis& analysis) {
  const StatsModel& metric = scorers.corpus;
  std::string rendered;
  if (output.sentence_level) {
    const StatsModel& segment = scorers.segment;
    const std::string& segment_signature = scorers.segment_signature.empty() ? signature : scorers.segment_signature;
    for (const auto& row : system.rows) {
      const double score = segment.score(row);
      rendered += prefix + (output.score_only ? format_fixed(score, output.width)
                                              : text_line(segment, segment_signature, row, score, output.width));
      rendered += '\n';
    }
  } else {
    const double score = metric.corpus_score(system);
    rendered += prefix + (output.score_only ? score_text(score, output.width, &analysis, s)
                                            : text_line(metric, signature, system.totals, score, output.width,
                                                        &analysis, s));
    rendered += '\n';
  }
  return rendered;
}

// --signature "... = 51.6": every system's score printed with as many
// decimals must read 51.6 (the number a paper reports is reproduced).
void check_expected_score(const StatsModel& metric, const std::vector<SystemStats>& systems, const std::string& expected) {
  const auto point = expected.find('.');
  const int decimals = point == std::string::npos ? 0 : static_cast<int>(expected.size() - point - 1);
  for (const auto& system : systems) {
    const std::string recomputed = format_fixed(metric.corpus_score(system), decimals);
    if (recomputed != expected) {
      throw Error(ExitCode::check_failed,
                  fmt::format("{}: the signature's pasted score {} is not reproduced: {} = {}", system.system,
                              expected, metric.name(), recomputed));
    }
  }
}

}  // namespace

nlohmann::ordered_json make_report(const StatsModel& metric, std::size_t nrefs, const SystemStats& stats,
                                   bool include_segments) {
  return build_report(Scorers{metric, metric, ""}, metric_signature(metric, nrefs), stats, include_segments, nullptr, 0,
                      nullptr);
}

bool needs_rows(const OutputOptions& output) {
  return output.sentence_level || output.format == "json" || !output.json_out.empty() || output.stats ||
         output.confidence || paired_test(output) || !output.stats_out.empty();
}

void report_metric_results(const StatsModel& metric, std::size_t nrefs, const std::vector<SystemStats>& systems,
                           const OutputOptions& output, Streams& io, const Presentation* presentation,
                           const StatsModel* sentence_metric) {
  Progress progress(io.err, output.quiet);
  const Analysis analysis = analyse(metric, systems, output, progress);
  const std::string plain_signature = metric_signature(metric, nrefs);
  std::string extra = presentation != nullptr ? presentation->extra_signature : std::string();
  if (!analysis.extra_signature.empty()) extra += (extra.empty() ? "" : "|") + analysis.extra_signature;
  const std::string signature = full_signature(nrefs, metric.signature(), extra);
  Scorers scorers{metric, sentence_metric != nullptr ? *sentence_metric : metric, ""};
  if (&scorers.segment != &metric && scorers.segment.signature() != metric.signature()) {
    scorers.segment_signature = full_signature(nrefs, scorers.segment.signature(), extra);
  }

  std::string rendered;
  if (output.format == "json") {
    rendered = json_document(scorers, signature, systems, output.sentence_level, &analysis, &output, presentation);
  } else {
    if (presentation != nullptr && presentation->text_header) rendered += presentation->text_header(signature);
    for (std::size_t s = 0; s < systems.size(); ++s) {
      const auto& system = systems[s];
      if (presentation != nullptr && presentation->system_text) {
        rendered += presentation->system_text(signature, systems, s);
        rendered += statistics_lines(analysis, systems, s, output);
      } else {
        rendered += default_system_text(scorers, signature, system, s, system_prefix(systems, s, output), output,
                                        analysis);
      }
      for (const auto& score : analysis.scores) {
        if (output.stats && score.distribution[s]) {
          rendered += distribution_line(*score.model, *score.distribution[s], output.width);
        }
      }
    }
  }
  if (!output.json_out.empty()) {
    write_output(io, output.json_out,
                 json_document(scorers, signature, systems, output.sentence_level, &analysis, &output, presentation));
  }
  if (!output.stats_out.empty()) {
    write_output(io, output.stats_out,
                 stats::shard_json(metric, plain_signature, nrefs, systems,
                                   output.shard_position ? &*output.shard_position : nullptr,
                                   output.test_set ? shard_test_set_json(*output.test_set).dump() : std::string()));
  }
  if (output.shard_position) {
    // A piece's score is not the test set's: printing it as a report would invite quoting it (and
    // would break the shard JSON on `--stats-out -`).
    if (!output.quiet) {
      const auto& piece = *output.shard_position;
      io.err << fmt::format("evalcli: shard {}/{} (lines {}-{} of {}) written to {}; merge the shards for the score "
                            "(evalcli merge)\n",
                            piece.index, piece.count, piece.first_line, piece.first_line + piece.lines - 1,
                            piece.total_lines, io::names_standard_output(output.stats_out) ? "stdout" : output.stats_out);
    }
    return;
  }
  io.out << rendered;
  if (output.expected_score) check_expected_score(metric, systems, *output.expected_score);
}

std::size_t select_shard(CorpusSpec& spec, OutputOptions& recorded) {
  if (recorded.shard.empty()) return 0;
  if (spec.hyp_paths.empty()) throw usage_error("--shard needs -i files: standard input cannot be read twice");
  const auto [index, count] = stats::parse_shard_option(recorded.shard);
  const std::size_t whole_segments = count_segments(spec);
  recorded.shard_position = stats::shard_position(index, count, whole_segments);
  spec.first_segment = recorded.shard_position->first_line - 1;
  spec.segment_count = recorded.shard_position->lines;
  return whole_segments;
}

void record_test_set(const CorpusSpec& spec, const std::vector<SystemStats>& systems, std::size_t whole_segments,
                     OutputOptions& recorded) {
  const bool records = recorded.format == "json" || !recorded.json_out.empty() || !recorded.stats_out.empty();
  if (records && !systems.empty() && !spec.hyp_paths.empty()) {
    // Hashed only when a report or shard records it; a --shard piece records the whole test set.
    recorded.test_set = identify_test_set(spec, recorded.shard_position ? whole_segments : systems[0].segments);
  }
}

namespace {

// The segments a run of `spec` scores, from the first hypothesis file's lines; 0 = unknown.
std::size_t segments_to_score(const CorpusSpec& spec) {
  if (spec.hyp_paths.empty()) return 0;  // standard input
  const std::size_t lines = count_lines_for_progress(spec.hyp_paths[0]);
  if (lines <= spec.first_segment) return 0;
  return std::min(lines - spec.first_segment, spec.segment_count);
}

}  // namespace

std::function<void(std::size_t)> segment_progress(Progress& progress, const CorpusSpec& spec) {
  if (!progress.enabled()) return {};  // nothing counted, nothing drawn
  // The reader counts the lines of a --shard's earlier pieces too: the bar counts the piece's.
  return [&progress, first = spec.first_segment, total = segments_to_score(spec)](std::size_t read) {
    progress.update("scoring segments", read > first ? read - first : 0, total);
  };
}

void run_metric_command(const Metric& metric, const InputOptions& input, const OutputOptions& output,
                        Streams& io, const Presentation* presentation, const StatsModel* sentence_metric,
                        const TextChecks* checks) {
  CorpusSpec spec = make_corpus_spec(input, io.in);
  OutputOptions recorded = output;
  const std::size_t whole_segments = select_shard(spec, recorded);
  TextScan scan;
  if (checks != nullptr && !output.quiet) scan_while_reading(spec, scan);  // -q prints no warning
  std::vector<std::vector<SystemStats>> results;
  {
    Progress progress(io.err, output.quiet);
    results = compute_corpus_stats({&metric}, spec, needs_rows(output) || metric.corpus_score_needs_rows(),
                                   segment_progress(progress, spec), static_cast<unsigned>(output.threads));
  }
  if (checks != nullptr) {
    std::vector<std::string> names;
    for (const auto& system : results[0]) names.push_back(system.system);
    print_text_warnings(scan, *checks, names, output.quiet, io.err);
  }
  const std::size_t nrefs = input.num_refs > 1 ? static_cast<std::size_t>(input.num_refs) : spec.ref_paths.size();
  record_test_set(spec, results[0], whole_segments, recorded);
  report_metric_results(metric, nrefs, results[0], recorded, io, presentation, sentence_metric);
}

}  // namespace evalcli::cli
