// `evalcli check --baseline FILE -r REF -i HYP`: a CI regression gate. Re-scores
// with the metric recorded in the baseline (a JSON report or a --stats-out
// shard), or reads the new scores from `--current FILE` (what CIDEr, PPL and
// METEOR 1.5 need), and exits 5 when the score dropped by more than --max-drop
// or, with --significance, significantly (paired bootstrap over the shards' rows).
// Two tables of `evalcli report` (evalcli-table/1) are compared cell by cell:
// every row by label, every system by name (docs/report.md, "CI gates over a table").
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <ostream>
#include <set>

#include "cli/cli.hpp"
#include "cli/common.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/format.hpp"
#include "evalcli/core/numbers.hpp"
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
  std::optional<std::string> max_drop;      // points ("0.5") or percent of the baseline score ("1%")
  std::optional<std::string> significance;  // a p-value
  bool allow_large_drop = false;
  int samples = 1000;
  std::optional<std::string> seed;
  std::optional<int> width;  // default: the metric's
};

// The worsening a system may show: absolute points, or a share of its baseline score.
struct AllowedDrop {
  double amount = 0;
  bool relative = false;  // amount is a percentage of the baseline score
  double for_baseline(double baseline_score) const {
    return relative ? amount / 100.0 * std::fabs(baseline_score) : amount;
  }
};

AllowedDrop parse_max_drop(const std::string& text) {
  AllowedDrop drop;
  std::string number = text;
  if (!number.empty() && number.back() == '%') {
    drop.relative = true;
    number.pop_back();
  }
  double value = 0;
  if (parse_finite_double(number, value) != NumberProblem::ok || value < 0) {
    throw usage_error(fmt::format("--max-drop: '{}' is neither a non-negative number of score points (0.5) nor a "
                                  "percentage of the baseline score (1%)",
                                  text));
  }
  drop.amount = value;
  return drop;
}

double parse_p_value(const std::string& text) {
  double value = 0;
  if (parse_finite_double(text, value) != NumberProblem::ok || value <= 0 || value > 1) {
    throw usage_error(fmt::format("--significance: '{}' is not a p-value above 0 and at most 1 (e.g. 0.05)", text));
  }
  return value;
}

// A drop allowance that is large for the metric's scale (5% of it: 5 BLEU
// points, 0.05 METEOR) is most often a scale mistake (--max-drop 1 for a 0..1
// score): refused unless --allow-large-drop.
void refuse_large_drop(const AllowedDrop& drop, double baseline_score, const MetricDefinition* definition,
                       const std::string& metric) {
  if (definition == nullptr || definition->score_scale <= 0) return;
  const double scale = definition->score_scale;
  const double allowed = drop.for_baseline(baseline_score);
  if (allowed <= 0.05 * scale) return;
  throw usage_error(fmt::format("--max-drop {}{} allows a drop of {} on {}'s 0..{} scale ({}% of it); give "
                                "--allow-large-drop if that is meant",
                                drop.amount, drop.relative ? "%" : "", allowed, metric, scale,
                                100.0 * allowed / scale));
}

// One system's score as its command printed it, from a file or a re-scoring.
struct ScoredSystem {
  std::string name;
  double score = 0;
  std::vector<StatRow> rows;  // per segment: only from a shard or a re-scoring
  // Every score component's score by label (ROUGE: one per type), when the
  // metric has components and the file records them (metric.hpp).
  std::map<std::string, double> components;
};

// Each score component's corpus score, by label; empty for a metric without.
std::map<std::string, double> component_scores(const StatsModel& metric, const SystemStats& system) {
  std::map<std::string, double> scores;
  const auto labels = metric.score_components();
  for (std::size_t k = 0; k < labels.size(); ++k) scores[labels[k]] = metric.score_component(k)->corpus_score(system);
  return scores;
}

// A report's "components": {label: {"score": ...}} (docs/statistics.md).
std::map<std::string, double> component_scores(const nlohmann::json& report) {
  std::map<std::string, double> scores;
  if (!report.contains("components")) return scores;
  for (const auto& [label, component] : report.at("components").items()) scores[label] = component.at("score").get<double>();
  return scores;
}

// A baseline, or the current results: the metric and each system's score.
struct Scores {
  std::string metric, signature;
  std::vector<ScoredSystem> systems;
  bool has_rows = false;
  std::optional<TestSetIdentity> test_set;  // what the scores were computed on, when recorded
  // SacreBLEU's own JSON holds scores rounded as printed (-w): the decimals
  // they show, at which the new scores are compared.
  std::optional<int> rounded_decimals;
};

// Notes on stderr, each said once however many metrics a baseline holds.
class Notes {
 public:
  explicit Notes(Streams& io) : io_(io) {}
  void say(const std::string& text) {
    if (said_.insert(text).second) io_.err << "evalcli: note: " << text << "\n";
  }

 private:
  Streams& io_;
  std::set<std::string> said_;
};

std::optional<TestSetIdentity> read_test_set(const nlohmann::json& report, const std::string& path) {
  if (!report.contains("test_set")) return std::nullopt;
  try {
    TestSetIdentity identity;
    const auto& test_set = report.at("test_set");
    identity.segments = stats::json_whole_number_or_error(test_set.at("segments"), path + ": test_set", "segments");
    for (const auto& file : test_set.at("references")) {
      identity.references.push_back({file.at("file").get<std::string>(), file.at("sha256").get<std::string>()});
    }
    return identity;
  } catch (const nlohmann::json::exception& e) {
    throw input_error(fmt::format("{}: bad test_set: {}", path, e.what()));
  }
}

// Refuses scores computed on different data: another segment count or other
// reference files (by content; their names may differ).
void check_same_test_set(const Scores& baseline, const Scores& current, const std::string& baseline_path,
                         Notes& notes) {
  if (!baseline.test_set || !current.test_set) {
    notes.say(fmt::format("{} does not record its test set (a report of an older evalcli, SacreBLEU's JSON or a "
                          "shard): the references cannot be compared",
                          baseline.test_set ? "the current report" : baseline_path));
    return;
  }
  const TestSetIdentity& before = *baseline.test_set;
  const TestSetIdentity& now = *current.test_set;
  if (before.segments != now.segments) {
    throw usage_error(fmt::format("{}: the baseline was scored on {} segments, the new output on {}: not the same test set",
                                  baseline_path, before.segments, now.segments));
  }
  auto hashes = [](const TestSetIdentity& identity) {
    std::vector<std::string> out;
    for (const auto& file : identity.references) out.push_back(file.sha256);
    std::sort(out.begin(), out.end());
    return out;
  };
  if (hashes(before) == hashes(now)) return;
  auto names = [](const TestSetIdentity& identity) {
    std::string out;
    for (const auto& file : identity.references) {
      out += fmt::format("{}{} (sha256 {})", out.empty() ? "" : ", ", file.file, file.sha256.substr(0, 12));
    }
    return out;
  };
  throw usage_error(fmt::format("{}: the baseline's references differ from the new run's: {} vs {}: not the same test set",
                                baseline_path, names(before), names(now)));
}

// The fewest decimals (at least 1, SacreBLEU's default -w) that print `score`
// exactly: how many a rounded score in SacreBLEU's JSON was printed with.
int shown_decimals(double score) {
  for (int decimals = 1; decimals < 17; ++decimals) {
    double back = 0;
    if (parse_finite_double(format_fixed(score, decimals), back) == NumberProblem::ok && back == score) return decimals;
  }
  return 17;
}

// One entry of a JSON report: evalcli's (schema evalcli-report/1) or
// SacreBLEU's `-f json` (name, score, signature; no schema), also as
// `evalcli sacrebleu -f json` writes it.
void add_report_entry(const nlohmann::json& report, const std::string& path, std::vector<Scores>& sets) {
  const bool sacrebleu = stats::json_schema(report).empty();
  if (!sacrebleu && stats::json_schema(report) != "evalcli-report/1") {
    throw input_error(fmt::format("{}: bad report: schema '{}' in a list of reports", path, stats::json_schema(report)));
  }
  try {
    const std::string metric = report.at("name").get<std::string>();
    const std::string signature = report.at("signature").get<std::string>();
    const double score = report.at("score").get<double>();
    // Entries of one metric and signature are its systems; another metric starts a set.
    auto set = std::find_if(sets.begin(), sets.end(),
                            [&](const Scores& known) { return known.metric == metric && known.signature == signature; });
    if (set == sets.end()) {
      sets.push_back(Scores{metric, signature, {}, false, std::nullopt, std::nullopt});
      set = sets.end() - 1;
    }
    const std::string system = report.value("system", std::string());
    // An evalcli report's statistics must be its metric's and give its score (a hand-edited score does not pass).
    if (!sacrebleu && report.contains("stats")) stats::check_report_statistics(path, metric, signature, system, report.at("stats"), score);
    set->systems.push_back({system, score, {}, component_scores(report)});
    if (!set->test_set) set->test_set = read_test_set(report, path);
    if (sacrebleu) set->rounded_decimals = std::max(set->rounded_decimals.value_or(1), shown_decimals(score));
  } catch (const nlohmann::json::exception& e) {
    throw input_error(fmt::format("{}: bad report: {}", path, e.what()));
  }
}

// Reads a JSON document; `role` ("baseline", "current") names it in errors.
nlohmann::json read_json_document(const std::string& path, const std::string& role) {
  nlohmann::json doc;
  const std::string text = io::read_whole_file(path);
  // nlohmann::json reads a NUL as the end of the text: what follows it would be ignored.
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    throw input_error(fmt::format("{}: {} is not JSON (NUL byte at byte {})", path, role, nul + 1));
  }
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range: a number beyond double
    throw input_error(fmt::format("{}: {} is not JSON ({})", path, role, e.what()));
  }
  return doc;
}

// A table of `evalcli report` (docs/report.md), which check compares only with another table.
constexpr const char* kTableSchema = "evalcli-table/1";

[[noreturn]] void refuse_mixing(const std::string& table_path, const std::string& other_path) {
  throw usage_error(fmt::format("{} is a table of evalcli report ({}) but {} is not: check compares a table with "
                                "another table, a single-metric report with another report",
                                table_path, kTableSchema, other_path));
}

// The scores of a JSON report (--json-out; a list of them, several metrics
// included), SacreBLEU's `-f json` output, or a --stats-out shard: one Scores per metric.
std::vector<Scores> score_sets_from(const nlohmann::json& doc, const std::string& path, const std::string& role) {
  const nlohmann::json& first = doc.is_array() && !doc.empty() ? doc[0] : doc;
  const std::string schema = stats::json_schema(first);
  if (schema == kTableSchema) refuse_mixing(path, role == "current" ? "the baseline" : "the current file");
  if (schema == stats::kShardSchema) {
    const stats::Shard shard = stats::read_shard(path);
    const auto metric = metric_from_signature(shard.metric, shard.signature);
    Scores scores{shard.metric, shard.signature, {}, true, std::nullopt, std::nullopt};
    for (const auto& system : shard.systems) {
      scores.systems.push_back(
          {system.system, metric->corpus_score(system), system.rows, component_scores(*metric, system)});
    }
    return {scores};
  }
  const bool sacrebleu_json = schema.empty() && first.is_object() && first.contains("name") && first.contains("score") &&
                              first.contains("signature");
  if (schema != "evalcli-report/1" && !sacrebleu_json) {
    throw input_error(fmt::format(
        "{}: {} must be an evalcli JSON report (--json-out), SacreBLEU's -f json output or a --stats-out shard", path,
        role));
  }
  std::vector<Scores> sets;
  for (const auto& report : doc.is_array() ? doc : nlohmann::json::array({doc})) add_report_entry(report, path, sets);
  return sets;
}

std::vector<Scores> read_score_sets(const std::string& path, const std::string& role) {
  return score_sets_from(read_json_document(path, role), path, role);
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
  auto results = compute_corpus_stats({metric.get()}, spec, keep_rows, {}, /*threads: every core*/ 0);  // [metric][system]
  if (!results[0].empty()) current.test_set = identify_test_set(spec, results[0][0].segments);
  for (auto& system : results[0]) {
    const double score = metric->corpus_score(system);
    auto components = component_scores(*metric, system);
    current.systems.push_back({system.system, score, std::move(system.rows), std::move(components)});
  }
  return current;
}

// The new results for the baseline's metric: from the --current file (its
// set of that metric), or -r/-i re-scored.
Scores current_scores(const Scores& baseline, const CheckOptions& o, const std::vector<Scores>& current_sets,
                      bool one_metric_baseline, Streams& io) {
  if (o.current.empty()) return rescore(baseline, o, io);
  for (const Scores& set : current_sets) {
    if (set.metric == baseline.metric) return set;
  }
  // One metric on each side: compared, and refused as not comparable if they differ.
  if (one_metric_baseline && current_sets.size() == 1) return current_sets.front();
  throw usage_error(fmt::format("{} has no {} scores, which {} has", o.current, baseline.metric, o.baseline));
}

// For each current system, its baseline system: by name, so that reordered
// -i files are never compared with each other's baselines. One system on
// each side is compared whatever the files are called (a new output file).
std::vector<std::size_t> pair_systems(const Scores& baseline, const Scores& current, const std::string& baseline_path) {
  if (current.systems.size() != baseline.systems.size()) {
    throw usage_error(fmt::format("{} has {} system(s) but {} were given", baseline_path, baseline.systems.size(),
                                  current.systems.size()));
  }
  if (current.systems.size() == 1) return {0};
  std::vector<std::size_t> pairing;
  for (const auto& system : current.systems) {
    std::size_t found = baseline.systems.size();
    for (std::size_t b = 0; b < baseline.systems.size(); ++b) {
      if (baseline.systems[b].name == system.name) found = b;
    }
    if (found == baseline.systems.size()) {
      throw usage_error(fmt::format("{} has no system named '{}' (systems are matched by name when there are several)",
                                    baseline_path, system.name));
    }
    pairing.push_back(found);
  }
  return pairing;
}

// The thresholds of one check, parsed before any file is read.
struct Thresholds {
  std::optional<AllowedDrop> max_drop;
  bool significance = false;
  double significance_level = 0;
};

// What a signature scores with: nrefs and the metric's fields as this evalcli
// prints them, rebuilt (SacreBLEU's "tok:13a" is evalcli's "tok:13a-v1"); the
// components' versions decide, evalcli's own version does not.
std::string scoring_fields(const std::string& metric, const std::string& signature) {
  const auto model = metric_from_signature(metric, signature);
  return "nrefs:" + find_field(parse_signature(signature), "nrefs").value_or("?") + "|" + model->signature();
}

// Refuses scores made with other settings; a differing evalcli version alone is a note.
void check_comparable(const Scores& baseline, const Scores& current, const std::string& baseline_path, Notes& notes) {
  const std::string expected = scoring_fields(baseline.metric, baseline.signature);
  const std::string got = scoring_fields(current.metric, current.signature);
  if (current.metric != baseline.metric || got != expected) {
    throw usage_error(fmt::format("{}: {} signatures differ in {}: the scores are not comparable", baseline_path,
                                  baseline.metric, stats::signature_difference(expected, got)));
  }
  const auto made_by = find_field(parse_signature(baseline.signature), "version");
  const auto now_by = find_field(parse_signature(current.signature), "version");
  if (made_by && now_by && *made_by != *now_by) {
    notes.say(fmt::format("{} was made by {}, this run by {}; every component version in the signatures is the same, "
                          "so the scores compare",
                          baseline_path, *made_by, *now_by));
  }
  if (baseline.rounded_decimals) {
    notes.say(fmt::format("{} holds scores rounded as printed (SacreBLEU's JSON): the new {} scores are compared at "
                          "{} decimal{}",
                          baseline_path, baseline.metric, *baseline.rounded_decimals,
                          *baseline.rounded_decimals == 1 ? "" : "s"));
  }
}

// `score` as a baseline rounded to `decimals` holds it.
double rounded_as(double score, std::optional<int> decimals) {
  if (!decimals || !std::isfinite(score)) return score;
  double back = score;
  parse_finite_double(format_fixed(score, *decimals), back);
  return back;
}

// One score to compare: the metric's one score, or one of its score components.
struct ComparedScore {
  std::string label;                  // what the verdict names: "BLEU", "ROUGE rouge2"
  const StatsModel* model = nullptr;  // scores resamples for --significance
  double before = 0, now = 0;
};

// What to compare for a pair of systems: every score component when both sides
// record them all (a drop in any type fails), else the one score.
std::vector<ComparedScore> scores_to_compare(const std::string& metric_name, const StatsModel& metric,
                                             const std::vector<std::unique_ptr<StatsModel>>& components,
                                             const ScoredSystem& before, const ScoredSystem& now) {
  const auto labels = metric.score_components();
  bool recorded = !labels.empty();
  for (const auto& label : labels) recorded = recorded && before.components.count(label) && now.components.count(label);
  if (!recorded) return {{metric_name, &metric, before.score, now.score}};
  std::vector<ComparedScore> scores;
  for (std::size_t k = 0; k < labels.size(); ++k) {
    scores.push_back({components[k]->name(), components[k].get(), before.components.at(labels[k]),
                      now.components.at(labels[k])});
  }
  return scores;
}

// The verdict on one score: "BLEU sys: 27.3 -> 26.1 (change -1.2)", and why it failed.
struct DropVerdict {
  std::string text;
  bool failed = false;
};

DropVerdict judge_drop(const std::string& label, const std::string& system, double before, double now,
                       double allowed, bool higher, int width) {
  const double drop = higher ? before - now : now - before;
  DropVerdict verdict;
  verdict.text = fmt::format("{} {}: {} -> {} (change {:+.{}f})", label, system, format_fixed(before, width),
                             format_fixed(now, width), now - before, width);
  // NaN never passes: a comparison with NaN is false, so test it first.
  verdict.failed = std::isnan(before) || std::isnan(now) || drop > allowed;
  if (std::isnan(before) || std::isnan(now)) {
    verdict.text += "; a score is not a number";
  } else if (verdict.failed) {
    verdict.text += fmt::format("; worse by {} > allowed {}", format_fixed(drop, width), format_fixed(allowed, width));
  }
  return verdict;
}

// Compares one metric's baseline and new scores, printing a verdict per
// system and score component; returns the failed verdicts.
std::vector<std::string> check_metric(const Scores& baseline, const Scores& current, const CheckOptions& o,
                                      const Thresholds& thresholds, Notes& notes, Streams& io) {
  const auto& max_drop = thresholds.max_drop;
  const bool significance = thresholds.significance;
  const double significance_level = thresholds.significance_level;
  check_comparable(baseline, current, o.baseline, notes);
  if (o.significance && !(baseline.has_rows && current.has_rows)) {
    throw usage_error(fmt::format("--significance needs segment statistics: a baseline{} written with --stats-out",
                                  o.current.empty() ? "" : " and --current"));
  }
  check_same_test_set(baseline, current, o.baseline, notes);
  const std::vector<std::size_t> pairing = pair_systems(baseline, current, o.baseline);
  const auto metric = metric_from_signature(baseline.metric, baseline.signature);  // for significance tests
  const MetricDefinition* definition = metric_definition_for_name(baseline.metric);
  const bool higher = higher_is_better(baseline.metric);
  const int width = o.width.value_or(std::max(definition != nullptr ? definition->default_width : 2,
                                              baseline.rounded_decimals.value_or(0)));
  const auto components = score_component_models(*metric);
  std::vector<std::string> failures;
  for (std::size_t s = 0; s < current.systems.size(); ++s) {
    const ScoredSystem& before = baseline.systems[pairing[s]];
    const ScoredSystem& now = current.systems[s];
    for (ComparedScore score : scores_to_compare(baseline.metric, *metric, components, before, now)) {
      score.now = rounded_as(score.now, baseline.rounded_decimals);
      if (score.model == metric.get() && !components.empty()) {
        notes.say(fmt::format("{} records only the first {} score ({}), not each of {}: only it is compared",
                              before.components.empty() ? o.baseline : std::string("the current report"),
                              baseline.metric, metric->score_components()[0],
                              fmt::join(metric->score_components(), ", ")));
      }
      if (max_drop && !o.allow_large_drop) refuse_large_drop(*max_drop, score.before, definition, score.label);
      const double allowed = max_drop ? max_drop->for_baseline(score.before)
                                      : (significance ? std::numeric_limits<double>::infinity() : 0.0);
      const double drop = higher ? score.before - score.now : score.now - score.before;
      const DropVerdict judged = judge_drop(score.label, now.name, score.before, score.now, allowed, higher, width);
      std::string verdict = judged.text;
      bool failed = judged.failed;
      if (significance) {
        if (before.rows.size() != now.rows.size()) {
          throw input_error(fmt::format("{}: baseline has {} segments, the new output {}", o.baseline,
                                        before.rows.size(), now.rows.size()));
        }
        stats::PairedTestOptions test;
        test.samples = static_cast<std::size_t>(o.samples);
        test.seed = stats::resolve_seed(o.seed);
        const std::vector<std::vector<stats::StatMatrix>> matrices = {
            {stats::StatMatrix(before.rows, metric->num_stats()), stats::StatMatrix(now.rows, metric->num_stats())}};
        const double p = *stats::run_paired_tests({score.model}, matrices, test)[0][1].p_value;
        const bool significant_drop = drop > 0 && p <= significance_level;
        verdict += fmt::format("; paired bootstrap p = {:.4f}{}", p, significant_drop ? " (significantly worse)" : "");
        failed = failed || significant_drop;
      }
      if (failed) failures.push_back(verdict);
      io.out << (failed ? "FAIL " : "ok   ") << verdict << "\n";
    }
  }
  return failures;
}

// Several failed verdicts: exit 5 with the first, and how many there were.
void fail_if_any(const std::vector<std::string>& failures, const std::string& baseline_path) {
  if (failures.empty()) return;
  throw Error(ExitCode::check_failed, fmt::format("check failed against {}: {}", baseline_path, failures.front()),
              failures.size() > 1 ? fmt::format("({} scores failed)", failures.size()) : "");
}

// ---------------------------------------------------------------- tables of `evalcli report`

// One row of a table: a score (a metric, a ROUGE type, external --scores) for every system.
struct TableRow {
  std::string label, metric, metric_name, signature;
  bool higher_is_better = true;
  int width = 2;
  std::map<std::string, double> scores;  // by system; NaN where the table holds null (JSON's NaN) or no score
};

struct Table {
  std::size_t segments = 0;
  std::string version;
  std::vector<std::string> systems;
  std::vector<TableRow> rows;
  const TableRow* find(const std::string& label) const {
    for (const TableRow& row : rows) {
      if (row.label == label) return &row;
    }
    return nullptr;
  }
};

TableRow read_table_row(const nlohmann::json& row, const std::vector<std::string>& systems) {
  TableRow read;
  read.label = row.at("label").get<std::string>();
  read.metric = row.at("metric").get<std::string>();
  read.metric_name = row.value("metric_name", std::string());
  read.signature = row.at("signature").get<std::string>();
  read.higher_is_better = row.at("higher_is_better").get<bool>();
  read.width = static_cast<int>(stats::json_whole_number_or_error(row.at("width"), "row '" + read.label + "'", "width", 100));
  for (const std::string& system : systems) read.scores[system] = std::numeric_limits<double>::quiet_NaN();
  for (const auto& cell : row.at("cells")) {
    const std::string system = cell.at("system").get<std::string>();
    if (!read.scores.count(system)) {
      throw input_error(fmt::format("row '{}' has a cell of '{}', which is not in \"systems\"", read.label, system));
    }
    const auto score = cell.find("score");
    if (score != cell.end() && !score->is_null()) read.scores[system] = score->get<double>();
  }
  return read;
}

Table read_table(const nlohmann::json& doc, const std::string& path) {
  Table table;
  try {
    table.segments = stats::json_whole_number_or_error(doc.at("segments_total"), path, "segments_total");
    table.version = doc.value("version", std::string());
    table.systems = doc.at("systems").get<std::vector<std::string>>();
    for (const auto& row : doc.at("rows")) {
      TableRow read = read_table_row(row, table.systems);
      if (table.find(read.label) != nullptr) {
        throw input_error(fmt::format("two rows are labelled '{}': rows are matched by label", read.label));
      }
      table.rows.push_back(std::move(read));
    }
  } catch (const nlohmann::json::exception& e) {
    throw input_error(fmt::format("{}: bad table: {}", path, e.what()));
  } catch (const Error& e) {
    throw Error(e.code(), fmt::format("{}: bad table: {}", path, e.what()));
  }
  return table;
}

// The fields of a row's signature that decide its scores. Left out: the
// resampling settings (bs:, ar:, seed: change intervals and p-values, not
// scores), the evalcli version (a note, as for reports: the components carry
// their own versions), and for external --scores the files' sha256 (new
// scores come in new files; their label, field and aggregation still count).
std::string row_scoring_fields(const TableRow& row, const std::string& path) {
  std::vector<std::string> kept;
  try {
    for (const SignatureField& field : parse_signature(row.signature)) {
      if (field.key == "bs" || field.key == "ar" || field.key == "seed" || field.key == "version") continue;
      if (row.metric == "scores" && field.key == "sha256") continue;
      kept.push_back(field.key + ":" + field.value);
    }
  } catch (const Error& e) {
    throw input_error(fmt::format("{}: row '{}': {}", path, row.label, e.what()));
  }
  return fmt::format("{}", fmt::join(kept, "|"));
}

// Refuses tables that do not hold the same scores of the same systems on the same test set.
void check_tables_comparable(const Table& baseline, const Table& current, const CheckOptions& o, Notes& notes) {
  if (baseline.segments != current.segments) {
    throw usage_error(fmt::format("{}: the baseline was scored on {} segments, the new output on {}: not the same test set",
                                  o.baseline, baseline.segments, current.segments));
  }
  std::vector<std::string> before = baseline.systems, now = current.systems;
  std::sort(before.begin(), before.end());
  std::sort(now.begin(), now.end());
  if (before != now) {
    throw usage_error(fmt::format("{} has the systems {} but {} has {} (systems are matched by name: give both "
                                  "reports the same --names)",
                                  o.baseline, fmt::join(baseline.systems, ", "), o.current, fmt::join(current.systems, ", ")));
  }
  auto refuse_unmatched = [](const Table& from, const Table& in, const std::string& from_path, const std::string& in_path) {
    for (const TableRow& row : from.rows) {
      if (in.find(row.label) == nullptr) {
        throw input_error(fmt::format("{} has a row '{}' that {} has not (rows are matched by label)", from_path,
                                      row.label, in_path));
      }
    }
  };
  refuse_unmatched(baseline, current, o.baseline, o.current);
  refuse_unmatched(current, baseline, o.current, o.baseline);
  for (const TableRow& row : baseline.rows) {
    const TableRow& other = *current.find(row.label);
    const std::string expected = row_scoring_fields(row, o.baseline), got = row_scoring_fields(other, o.current);
    if (expected != got || row.metric != other.metric) {
      throw usage_error(fmt::format("{}: row '{}': signatures differ in {}: the scores are not comparable", o.baseline,
                                    row.label, stats::signature_difference(expected, got)));
    }
    if (row.higher_is_better != other.higher_is_better) {
      throw usage_error(fmt::format("{}: row '{}': higher_is_better differs: the scores are not comparable", o.baseline,
                                    row.label));
    }
  }
  notes.say("a table records the number of segments, not the references' content: only that is compared");
  if (baseline.version != current.version) {
    notes.say(fmt::format("{} was made by {}, {} by {}; every other signature field is the same, so the scores "
                          "compare",
                          o.baseline, baseline.version, o.current, current.version));
  }
}

// Compares every cell of two tables, printing a verdict per row and system; returns the failed verdicts.
std::vector<std::string> check_table_cells(const Table& baseline, const Table& current, const CheckOptions& o,
                                           const Thresholds& thresholds, Streams& io) {
  std::vector<std::string> failures;
  for (const TableRow& row : baseline.rows) {
    const TableRow& other = *current.find(row.label);
    const MetricDefinition* definition = metric_definition_for_name(row.metric_name);  // null for --scores
    for (const std::string& system : baseline.systems) {
      const double before = row.scores.at(system), now = other.scores.at(system);
      const auto& max_drop = thresholds.max_drop;
      if (max_drop && !o.allow_large_drop && std::isfinite(before)) {
        refuse_large_drop(*max_drop, before, definition, row.label);
      }
      const double allowed = max_drop ? max_drop->for_baseline(before) : 0.0;
      const DropVerdict verdict =
          judge_drop(row.label, system, before, now, allowed, row.higher_is_better, o.width.value_or(row.width));
      if (verdict.failed) failures.push_back(verdict.text);
      io.out << (verdict.failed ? "FAIL " : "ok   ") << verdict.text << "\n";
    }
  }
  return failures;
}

// `--baseline TABLE --current TABLE`: every row (by label) and system (by name) of two `evalcli report` tables.
void check_tables(const nlohmann::json& baseline_doc, const CheckOptions& o, const Thresholds& thresholds, Streams& io) {
  if (o.current.empty()) {
    throw usage_error(fmt::format("{} is a table of evalcli report: give the new run's table as --current "
                                  "(check does not re-score a report from -r/-i)",
                                  o.baseline));
  }
  if (thresholds.significance) {
    throw usage_error("--significance needs segment statistics, which a table of evalcli report has not: check a "
                      "metric's --stats-out shards for it");
  }
  const nlohmann::json current_doc = read_json_document(o.current, "current");
  if (stats::json_schema(current_doc) != kTableSchema) refuse_mixing(o.baseline, o.current);
  const Table baseline = read_table(baseline_doc, o.baseline);
  const Table current = read_table(current_doc, o.current);
  if (baseline.rows.empty()) throw input_error(fmt::format("{}: the table has no rows: nothing to check", o.baseline));
  Notes notes(io);
  check_tables_comparable(baseline, current, o, notes);
  fail_if_any(check_table_cells(baseline, current, o, thresholds, io), o.baseline);
}

void run_check(const CheckOptions& o, Streams& io) {
  // Thresholds first: a bad one is a usage error before any file is read.
  Thresholds thresholds;
  thresholds.significance = o.significance.has_value();
  if (thresholds.significance) thresholds.significance_level = parse_p_value(*o.significance);
  if (o.max_drop) thresholds.max_drop = parse_max_drop(*o.max_drop);
  if (!o.current.empty() && (!o.input.refs.empty() || !o.input.positional_refs.empty() || !o.input.hyps.empty())) {
    throw usage_error("--current and -r/-i cannot be combined: --current already holds the new scores");
  }
  const nlohmann::json baseline_doc = read_json_document(o.baseline, "baseline");
  if (stats::json_schema(baseline_doc) == kTableSchema) return check_tables(baseline_doc, o, thresholds, io);
  // Every metric of the baseline is checked (a report of `evalcli sacrebleu -m bleu chrf ter`).
  const std::vector<Scores> baselines = score_sets_from(baseline_doc, o.baseline, "baseline");
  const std::vector<Scores> current_sets = o.current.empty() ? std::vector<Scores>{} : read_score_sets(o.current, "current");
  std::vector<std::string> failures;
  Notes notes(io);
  for (const Scores& baseline : baselines) {
    const Scores current = current_scores(baseline, o, current_sets, baselines.size() == 1, io);
    const std::vector<std::string> failed = check_metric(baseline, current, o, thresholds, notes, io);
    failures.insert(failures.end(), failed.begin(), failed.end());
  }
  fail_if_any(failures, o.baseline);
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
  cmd->add_option("--max-drop", o->max_drop,
                  "largest allowed worsening: score points (0.5) or percent of the baseline score (1%); default 0, "
                  "or none with --significance");
  cmd->add_flag("--allow-large-drop", o->allow_large_drop,
                "accept a --max-drop above 5% of the metric's scale (else refused as a likely scale mistake)");
  cmd->add_option("--significance", o->significance, "fail when significantly worse at this p-value (needs a shard)");
  cmd->add_option("--paired-bs-n", o->samples, "bootstrap resamples for --significance")->check(CLI::PositiveNumber);
  cmd->add_option("--seed", o->seed, "random seed (default: env SACREBLEU_SEED, else 12345)");
  cmd->add_option("-w,--width", o->width, "decimals of printed scores (default: the metric's)")->check(CLI::Range(0, 17));
  cmd->callback([o, &io] { run_check(*o, io); });
}

}  // namespace evalcli::cli
