// `evalcli check --baseline FILE -r REF -i HYP`: a CI regression gate. Re-scores
// with the metric recorded in the baseline (a JSON report or a --stats-out
// shard), or reads the new scores from `--current FILE` (what CIDEr, PPL and
// METEOR 1.5 need), and exits 5 when the score dropped by more than --max-drop
// or, with --significance, significantly (paired bootstrap over the shards' rows).
#include <fmt/format.h>

#include <ostream>

#include "cli/cli.hpp"
#include "cli/common.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/format.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/io/read_file.hpp"
#include "evalcli/metrics/registry.hpp"
#include "evalcli/stats/resampling.hpp"
#include "evalcli/stats/shard.hpp"

namespace evalcli::cli {
namespace {

struct CheckOptions {
  InputOptions input;
  std::string baseline;
  std::string current;  // a report or shard of the new output, instead of -r/-i
  std::optional<double> max_drop;
  std::optional<double> significance;
  int samples = 1000;
  std::optional<std::string> seed;
  int width = 2;
};

// One system's score as its command printed it, from a file or a re-scoring.
struct ScoredSystem {
  std::string name;
  double score = 0;
  std::vector<StatRow> rows;  // per segment: only from a shard or a re-scoring
};

// A baseline, or the current results: the metric and each system's score.
struct Scores {
  std::string metric, signature;
  std::vector<ScoredSystem> systems;
  bool has_rows = false;
};

// The corpus score as the metric's command prints it (e.g. rouge-score's
// math.fsum mean), so that an unchanged input never counts as a drop.

// Resampling fields describe how a report's interval was made, not the metric.
std::string without_resampling_fields(const std::string& signature) {
  std::string out;
  for (const auto& field : parse_signature(signature)) {
    if (field.key == "bs" || field.key == "ar" || field.key == "seed" || field.key == "metric") continue;
    out += (out.empty() ? "" : "|") + field.key + ":" + field.value;
  }
  return out;
}

// Reads a JSON report (--json-out) or a --stats-out shard; `role` ("baseline",
// "current") names it in errors.
Scores read_scores(const std::string& path, const std::string& role) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(io::read_whole_file(path));
  } catch (const nlohmann::json::parse_error& e) {
    throw input_error(fmt::format("{}: {} is not JSON ({})", path, role, e.what()));
  }
  Scores baseline;
  const nlohmann::json& first = doc.is_array() && !doc.empty() ? doc[0] : doc;
  const std::string schema = stats::json_schema(first);
  if (schema == stats::kShardSchema) {
    const stats::Shard shard = stats::read_shard(path);
    const auto metric = metric_from_signature(shard.metric, shard.signature);
    baseline.metric = shard.metric;
    baseline.signature = shard.signature;
    baseline.has_rows = true;
    for (const auto& system : shard.systems) {
      baseline.systems.push_back({system.system, metric->corpus_score(system), system.rows});
    }
    return baseline;
  }
  if (schema != "evalcli-report/1") {
    throw input_error(
        fmt::format("{}: {} must be an evalcli JSON report (--json-out) or a --stats-out shard", path, role));
  }
  for (const auto& report : doc.is_array() ? doc : nlohmann::json::array({doc})) {
    try {
      baseline.metric = report.at("name").get<std::string>();
      baseline.signature = report.at("signature").get<std::string>();
      baseline.systems.push_back({report.value("system", std::string()), report.at("score").get<double>(), {}});
    } catch (const nlohmann::json::exception& e) {
      throw input_error(fmt::format("{}: bad report: {}", path, e.what()));
    }
  }
  return baseline;
}

// Re-scores -r/-i with the baseline's metric, rebuilt from its signature.
Scores rescore(const Scores& baseline, const CheckOptions& o, Streams& io) {
  std::unique_ptr<Metric> metric;
  try {
    metric = segment_scorer_from_signature(baseline.metric, baseline.signature);
  } catch (const Error& e) {
    throw Error(e.code(), fmt::format("{}: check: {}; then give it as --current NEW", o.baseline, e.what()));
  }
  const CorpusSpec spec = make_corpus_spec(o.input, io.in);
  const bool keep_rows = o.significance.has_value() || metric->corpus_score_needs_rows();
  Scores current{baseline.metric, metric_signature(*metric, count_refs(o.input)), {}, keep_rows};
  auto results = compute_corpus_stats({metric.get()}, spec, keep_rows);  // [metric][system]
  for (auto& system : results[0]) {
    const double score = metric->corpus_score(system);
    current.systems.push_back({system.system, score, std::move(system.rows)});
  }
  return current;
}

// The new results: a --current file, or -r/-i re-scored.
Scores current_scores(const Scores& baseline, const CheckOptions& o, Streams& io) {
  if (o.current.empty()) return rescore(baseline, o, io);
  if (!o.input.refs.empty() || !o.input.positional_refs.empty() || !o.input.hyps.empty()) {
    throw usage_error("--current and -r/-i cannot be combined: --current already holds the new scores");
  }
  return read_scores(o.current, "current");
}

void run_check(const CheckOptions& o, Streams& io) {
  const Scores baseline = read_scores(o.baseline, "baseline");
  const Scores current = current_scores(baseline, o, io);
  const std::string expected = without_resampling_fields(baseline.signature);
  const std::string got = without_resampling_fields(current.signature);
  if (current.metric != baseline.metric || got != expected) {
    throw usage_error(fmt::format("{}: signatures differ in {}: the scores are not comparable", o.baseline,
                                  stats::signature_difference(expected, got)));
  }
  if (o.significance && !(baseline.has_rows && current.has_rows)) {
    throw usage_error(fmt::format("--significance needs segment statistics: a baseline{} written with --stats-out",
                                  o.current.empty() ? "" : " and --current"));
  }
  if (current.systems.size() != baseline.systems.size()) {
    throw usage_error(fmt::format("{} has {} system(s) but {} were given", o.baseline, baseline.systems.size(),
                                  current.systems.size()));
  }
  const auto metric = metric_from_signature(baseline.metric, baseline.signature);  // for significance tests
  const bool higher = higher_is_better(baseline.metric);
  const double allowed = o.max_drop.value_or(o.significance ? std::numeric_limits<double>::infinity() : 0.0);
  std::vector<std::string> failures;
  for (std::size_t s = 0; s < current.systems.size(); ++s) {
    const ScoredSystem& before = baseline.systems[s];
    const ScoredSystem& now = current.systems[s];
    const double drop = higher ? before.score - now.score : now.score - before.score;
    std::string verdict = fmt::format("{} {}: {} -> {} (change {:+.{}f})", baseline.metric, now.name,
                                      format_fixed(before.score, o.width), format_fixed(now.score, o.width),
                                      now.score - before.score, o.width);
    bool failed = drop > allowed;
    if (failed) verdict += fmt::format("; worse by {} > allowed {}", format_fixed(drop, o.width), format_fixed(allowed, o.width));
    if (o.significance) {
      if (before.rows.size() != now.rows.size()) {
        throw input_error(fmt::format("{}: baseline has {} segments, the new output {}", o.baseline,
                                      before.rows.size(), now.rows.size()));
      }
      stats::PairedTestOptions test;
      test.samples = static_cast<std::size_t>(o.samples);
      test.seed = stats::resolve_seed(o.seed);
      const std::vector<std::vector<stats::StatMatrix>> matrices = {
          {stats::StatMatrix(before.rows, metric->num_stats()), stats::StatMatrix(now.rows, metric->num_stats())}};
      const double p = *stats::run_paired_tests({metric.get()}, matrices, test)[0][1].p_value;
      const bool significant_drop = drop > 0 && p <= *o.significance;
      verdict += fmt::format("; paired bootstrap p = {:.4f}{}", p, significant_drop ? " (significantly worse)" : "");
      failed = failed || significant_drop;
    }
    if (failed) failures.push_back(verdict);
    io.out << (failed ? "FAIL " : "ok   ") << verdict << "\n";
  }
  if (!failures.empty()) {
    throw Error(ExitCode::check_failed,
                fmt::format("check failed against {}: {}", o.baseline, failures.front()),
                failures.size() > 1 ? fmt::format("({} systems failed)", failures.size()) : "");
  }
}

}  // namespace

void add_check_command(CLI::App& app, Streams& io) {
  auto o = std::make_shared<CheckOptions>();
  auto* cmd = app.add_subcommand("check", "CI regression gate: re-score and compare with a baseline report");
  add_input_options(cmd, o->input);
  cmd->add_option("--baseline", o->baseline, "JSON report (--json-out) or statistics shard (--stats-out)")
      ->required();
  cmd->add_option("--current", o->current,
                  "the new output's report or --stats-out shard (any metric, e.g. cider, ppl), instead of -r/-i");
  cmd->add_option("--max-drop", o->max_drop, "largest allowed worsening in score points (default 0, or none with --significance)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--significance", o->significance, "fail when significantly worse at this p-value (needs a shard)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--paired-bs-n", o->samples, "bootstrap resamples for --significance")->check(CLI::PositiveNumber);
  cmd->add_option("--seed", o->seed, "random seed (default: env SACREBLEU_SEED, else 12345)");
  cmd->add_option("-w,--width", o->width, "decimals of printed scores")->check(CLI::Range(0, 17));
  cmd->callback([o, &io] { run_check(*o, io); });
}

}  // namespace evalcli::cli
