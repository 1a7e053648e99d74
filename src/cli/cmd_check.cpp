// `evalcli check --baseline FILE -r REF -i HYP`: a CI regression gate. Re-scores
// with the metric recorded in the baseline (a JSON report or a --stats-out
// shard) and exits 5 when the score dropped by more than --max-drop or, with
// --significance, significantly (paired bootstrap against the shard's rows).
#include <fmt/format.h>

#include <ostream>

#include "evalcli/cli/cli.hpp"
#include "evalcli/cli/common.hpp"
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
  std::optional<double> max_drop;
  std::optional<double> significance;
  int samples = 1000;
  std::optional<std::string> seed;
  int width = 2;
};

struct BaselineSystem {
  double score = 0;
  std::vector<StatRow> rows;  // only from a shard
};

struct Baseline {
  std::string metric, signature;
  std::vector<BaselineSystem> systems;
  bool has_rows = false;
};

// The corpus score as the metric's command prints it (e.g. rouge-score's
// math.fsum mean), so that an unchanged input never counts as a drop.
double corpus_score(const Metric& metric, const Presentation* presentation, const SystemStats& system) {
  if (presentation != nullptr && presentation->corpus_score && !system.rows.empty()) {
    return presentation->corpus_score(system);
  }
  return metric.score(system.totals);
}

// Resampling fields describe how a report's interval was made, not the metric.
std::string without_resampling_fields(const std::string& signature) {
  std::string out;
  for (const auto& field : parse_signature(signature)) {
    if (field.key == "bs" || field.key == "ar" || field.key == "seed" || field.key == "metric") continue;
    out += (out.empty() ? "" : "|") + field.key + ":" + field.value;
  }
  return out;
}

Baseline read_baseline(const std::string& path) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(io::read_whole_file(path));
  } catch (const nlohmann::json::parse_error& e) {
    throw input_error(fmt::format("{}: baseline is not JSON ({})", path, e.what()));
  }
  Baseline baseline;
  const nlohmann::json& first = doc.is_array() && !doc.empty() ? doc[0] : doc;
  const std::string schema = stats::json_schema(first);
  if (schema == stats::kShardSchema) {
    const stats::Shard shard = stats::read_shard(path);
    const auto metric = metric_from_signature(shard.metric, shard.signature);
    baseline.metric = shard.metric;
    baseline.signature = shard.signature;
    baseline.has_rows = true;
    const auto presentation = presentation_for(*metric, OutputOptions{});
    for (const auto& system : shard.systems) {
      baseline.systems.push_back({corpus_score(*metric, presentation.get(), system), system.rows});
    }
    return baseline;
  }
  if (schema != "evalcli-report/1") {
    throw input_error(fmt::format("{}: baseline must be an evalcli JSON report (--json-out) or a --stats-out shard", path));
  }
  for (const auto& report : doc.is_array() ? doc : nlohmann::json::array({doc})) {
    try {
      baseline.metric = report.at("name").get<std::string>();
      baseline.signature = report.at("signature").get<std::string>();
      baseline.systems.push_back({report.at("score").get<double>(), {}});
    } catch (const nlohmann::json::exception& e) {
      throw input_error(fmt::format("{}: bad report: {}", path, e.what()));
    }
  }
  return baseline;
}

void run_check(const CheckOptions& o, Streams& io) {
  const Baseline baseline = read_baseline(o.baseline);
  // Both score items with data that -r/-i cannot carry (a language model; CIDEr's
  // document frequencies over all references).
  if (baseline.metric == "PPL" || baseline.metric.starts_with("CIDEr")) {
    throw usage_error(fmt::format("{}: check re-scores -r/-i input, which {} cannot be scored from; use `evalcli {} "
                                  "... --stats-out` and compare the reports",
                                  o.baseline, baseline.metric, baseline.metric == "PPL" ? "ppl" : "cider"));
  }
  if (baseline.signature.find("|meteor:cmu-") != std::string::npos) {
    throw usage_error(fmt::format("{}: check cannot re-score METEOR 1.5 (its resources folder is not in the "
                                  "signature); use `evalcli meteor --compat meteor15 ... --stats-out` and compare",
                                  o.baseline));
  }
  const auto metric = metric_from_signature(baseline.metric, baseline.signature);
  const CorpusSpec spec = make_corpus_spec(o.input, io.in);
  const std::size_t nrefs = count_refs(o.input);
  const std::string current = metric_signature(*metric, nrefs);
  const std::string expected = without_resampling_fields(baseline.signature);
  if (current != expected) {
    throw usage_error(fmt::format("{}: signatures differ in {}: the scores are not comparable", o.baseline,
                                  stats::signature_difference(expected, current)));
  }
  if (o.significance && !baseline.has_rows) {
    throw usage_error(fmt::format("{}: --significance needs a baseline written with --stats-out (segment statistics)",
                                  o.baseline));
  }
  const auto presentation = presentation_for(*metric, OutputOptions{});
  const auto results = compute_corpus_stats({metric.get()}, spec, o.significance.has_value() || presentation != nullptr);
  const auto& systems = results[0];
  if (systems.size() != baseline.systems.size()) {
    throw usage_error(fmt::format("{} has {} system(s) but {} were given", o.baseline, baseline.systems.size(),
                                  systems.size()));
  }
  const bool higher = higher_is_better(metric->name());
  const double allowed = o.max_drop.value_or(o.significance ? std::numeric_limits<double>::infinity() : 0.0);
  std::vector<std::string> failures;
  for (std::size_t s = 0; s < systems.size(); ++s) {
    const double before = baseline.systems[s].score;
    const double now = corpus_score(*metric, presentation.get(), systems[s]);
    const double drop = higher ? before - now : now - before;
    std::string verdict = fmt::format("{} {}: {} -> {} (change {:+.{}f})", metric->name(), systems[s].system,
                                      format_fixed(before, o.width), format_fixed(now, o.width), now - before, o.width);
    bool failed = drop > allowed;
    if (failed) verdict += fmt::format("; worse by {} > allowed {}", format_fixed(drop, o.width), format_fixed(allowed, o.width));
    if (o.significance) {
      if (baseline.systems[s].rows.size() != systems[s].rows.size()) {
        throw input_error(fmt::format("{}: baseline has {} segments, the input {}", o.baseline,
                                      baseline.systems[s].rows.size(), systems[s].rows.size()));
      }
      stats::PairedTestOptions test;
      test.samples = static_cast<std::size_t>(o.samples);
      test.seed = stats::resolve_seed(o.seed);
      const std::vector<std::vector<stats::StatMatrix>> matrices = {
          {stats::StatMatrix(baseline.systems[s].rows, metric->num_stats()),
           stats::StatMatrix(systems[s].rows, metric->num_stats())}};
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
