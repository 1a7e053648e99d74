// `evalcli report`: several metrics over several systems on one test set, in
// one table (docs/report.md). The segment metrics are scored in one pass over
// the files; CIDEr (document frequencies first) and per-segment scores made
// elsewhere (--scores) join them. Every number is computed by the code the
// single-metric commands use (definition.build, compute_corpus_stats,
// corpus_score, analyse), so each cell equals that command's output.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "cli/common.hpp"
#include "cli/metric_command.hpp"
#include "cli/progress.hpp"
#include "cli/report_formats.hpp"
#include "cli/report_html.hpp"
#include "cli/report_segments.hpp"
#include "cli/text_warnings.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/format.hpp"
#include "evalcli/core/sha256.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/core/strings.hpp"
#include "evalcli/core/version.hpp"
#include "evalcli/metrics/cider.hpp"
#include "evalcli/metrics/cider_corpus.hpp"
#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/external_scores.hpp"
#include "evalcli/metrics/rouge.hpp"
#include "evalcli/metrics/text_options.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::cli {
namespace {

using Json = nlohmann::ordered_json;

// Options of a metric's table that `evalcli report` leaves out: other input
// modes (JSONL, COCO, ROUGE-1.5.5 settings files), outputs of their own, and
// rouge-score's own resampling (the report has --confidence for every metric).
const std::set<std::string, std::less<>> kOptionsNotInReport = {
    "jsonl", "coco-annotations", "coco-results", "save-df", "df",
    "rouge155-config", "rouge155-system", "rouge155-output", "bootstrap", "bootstrap-confidence", "seed",
};

// Text options given once for every metric that has them (unless a metric's
// own prefixed flag is given): `--tokenize zh` for BLEU, TER, ROUGE, ...
const std::vector<OptionSpec>& shared_text_specs() {
  static const std::vector<OptionSpec> specs = {
      {.name = "tokenize", .help = "tokenizer of every metric that has --tokenize (-tok); --METRIC-tokenize for one"},
      {.name = "normalize", .kind = OptionKind::list, .help = "normalizers of every metric that has --normalize"},
      {.name = "lowercase", .kind = OptionKind::flag, .help = "lowercase for every metric that has --lowercase (-lc)"},
      {.name = "language-pair", .help = "SRC-TGT for every metric that has -l (picks tokenizers as SacreBLEU)", .short_flag = "-l"},
      {.name = "jieba-hmm", .help = "zh-jieba's HMM (on|off) for every metric"},
      {.name = "jieba-dict", .help = "zh-jieba dictionary FILE for every metric"},
      {.name = "mecab-dict", .help = "ja-mecab dictionary folder DIR for every metric"},
  };
  return specs;
}

struct ReportOptions {
  InputOptions input;
  OutputOptions output;
  std::vector<std::string> metrics;  // -m, in table order
  std::map<std::string, OptionValues, std::less<>> metric_values;  // by command
  OptionValues shared;
  std::vector<std::string> names;
  std::string table_format = "text";
  std::optional<int> width;
  bool all_pairs = false;
  std::vector<std::string> scores;  // NAME[:FIELD]=FILE[,FILE...]
  std::string segments_out;
  std::string html_out;
  std::string ids_path;
};

// ---------------------------------------------------------------- options

bool in_report(const OptionSpec& spec) {
  return spec.refusal.empty() && spec.role != OptionRole::no_effect && !kOptionsNotInReport.contains(spec.name);
}

std::vector<OptionSpec> report_specs(const MetricDefinition& definition) {
  std::vector<OptionSpec> specs;
  for (const auto& spec : definition.options) {
    if (in_report(spec)) specs.push_back(spec);
  }
  return specs;
}

// "bleu,chrf" and "bleu chrf" alike: every comma-separated piece of every value, empty ones dropped.
std::vector<std::string> comma_separated(const std::vector<std::string>& given) {
  std::vector<std::string> pieces;
  for (const auto& item : given) {
    for (const std::string_view piece : split(item, ',')) {
      if (!piece.empty()) pieces.emplace_back(piece);
    }
  }
  return pieces;
}

// A metric's option values: its own prefixed flags, then the shared text options it has.
OptionValues metric_option_values(const MetricDefinition& definition, const ReportOptions& o) {
  const auto found = o.metric_values.find(definition.command);
  OptionValues values = found != o.metric_values.end() ? found->second : OptionValues{};
  for (const auto& shared : shared_text_specs()) {
    const OptionSpec* own = definition.find_option(shared.name);
    if (own == nullptr || !in_report(*own) || values.has(shared.name) || !o.shared.has(shared.name)) continue;
    const std::string where = fmt::format("--{} (for {})", shared.name, definition.command);
    if (own->kind == OptionKind::flag) {
      values.set_flag(shared.name, true);
    } else if (own->kind == OptionKind::list) {
      const auto list = o.shared.list(shared.name);
      for (const auto& value : list) check_option_value(*own, value, where);
      values.set_list(shared.name, list);
    } else {
      const std::string value = o.shared.text(shared.name);
      check_option_value(*own, value, where);
      values.set(shared.name, value);
    }
  }
  return values;
}

// ---------------------------------------------------------------- what is scored

// One metric of the table: its model and every system's statistics.
struct ScoredMetric {
  std::string command;  // "bleu", "cider", "scores"
  const MetricDefinition* definition = nullptr;  // null for --scores
  std::unique_ptr<StatsModel> model;
  // Scores each segment when the reference tool scores sentences with other
  // options (SacreBLEU's effective order for sentence BLEU); null: `model`.
  std::unique_ptr<StatsModel> sentence_model;
  std::vector<SystemStats> systems;
  std::size_t nrefs = 0;
  int default_width = 1;
  bool higher_is_better = true;
};

// What a pass over the inputs keeps of the text, for --segments-out and --html.
struct SegmentTexts {
  std::vector<std::vector<std::string>> hypotheses;  // [segment][system]
  std::vector<std::vector<std::string>> references;  // [segment][reference]
};

void keep_texts(CorpusSpec& spec, SegmentTexts& texts, TextScan& scan) {
  spec.on_segment = [&texts, &scan](const std::vector<std::u32string>& hyps, const std::vector<std::u32string>& refs) {
    for (std::size_t s = 0; s < hyps.size(); ++s) scan.add_hypothesis(s, hyps[s]);
    for (const auto& ref : refs) scan.add_line(ref);
    auto& h = texts.hypotheses.emplace_back();
    for (const auto& hyp : hyps) h.push_back(utf8::encode(hyp));
    auto& r = texts.references.emplace_back();
    for (const auto& ref : refs) r.push_back(utf8::encode(ref));
  };
}

std::string system_label(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Table names of the systems: --names, else the file names (the paths when two share a name).
std::vector<std::string> system_names(const ReportOptions& o) {
  if (!o.names.empty()) {
    if (o.names.size() != o.input.hyps.size()) {
      throw usage_error(fmt::format("--names gives {} names for {} -i systems", o.names.size(), o.input.hyps.size()));
    }
    return o.names;
  }
  std::vector<std::string> names;
  for (const auto& path : o.input.hyps) names.push_back(system_label(path));
  if (std::set<std::string>(names.begin(), names.end()).size() != names.size()) return o.input.hyps;
  return names;
}

std::size_t reference_count(const ReportOptions& o, const CorpusSpec& spec) {
  return o.input.num_refs > 1 ? static_cast<std::size_t>(o.input.num_refs) : spec.ref_paths.size();
}

// The segment metrics, scored in one pass; the texts kept when asked.
std::vector<ScoredMetric> score_segment_metrics(std::vector<ScoredMetric> metrics, const CorpusSpec& spec,
                                                const ReportOptions& o, bool keep_rows, Streams& io) {
  if (metrics.empty()) return metrics;
  std::vector<const Metric*> segment_metrics;
  for (const auto& scored : metrics) segment_metrics.push_back(dynamic_cast<const Metric*>(scored.model.get()));
  std::vector<std::vector<SystemStats>> results;
  {
    Progress progress(io.err, o.output.quiet);
    results = compute_corpus_stats(segment_metrics, spec, keep_rows,
                                   segment_progress(progress, spec),
                                   static_cast<unsigned>(o.output.threads));
  }
  for (std::size_t m = 0; m < metrics.size(); ++m) metrics[m].systems = std::move(results[m]);
  return metrics;
}

// CIDEr's corpus scorer: document frequencies over the references, then every image.
ScoredMetric score_cider(const MetricDefinition& definition, const OptionValues& values, CorpusSpec spec,
                         std::size_t nrefs) {
  spec.on_segment = nullptr;
  const CiderOptions options = cider_options(values);
  auto pipeline = std::make_unique<TextPipeline>(pipeline_options(values, "ptb"));
  CiderCorpusRun run(options, *pipeline, spec);
  ScoredMetric scored;
  scored.command = definition.command;
  scored.definition = &definition;
  scored.systems = run.system_stats();
  scored.model = std::make_unique<Cider>(options, std::move(pipeline), std::make_shared<CiderDocumentFrequencies>(),
                                         "corpus");
  scored.nrefs = nrefs;
  scored.default_width = definition.default_width;
  scored.higher_is_better = definition.higher_is_better;
  return scored;
}

// --scores NAME[:FIELD]=FILE[,FILE...]: one file per system, in -i order.
ScoredMetric read_external_scores(const std::string& given, const std::vector<std::string>& systems,
                                  std::size_t segments) {
  const auto equals = given.find('=');
  if (equals == std::string::npos) throw usage_error(fmt::format("--scores '{}': give NAME=FILE[,FILE...]", given));
  std::string label = given.substr(0, equals);
  std::string field;
  if (const auto colon = label.find(':'); colon != std::string::npos) {
    field = label.substr(colon + 1);
    label = label.substr(0, colon);
    if (field.empty()) throw usage_error(fmt::format("--scores '{}': an empty JSONL field after ':'", given));
  }
  check_score_label(label);
  const std::vector<std::string> files = comma_separated({given.substr(equals + 1)});
  if (files.size() != systems.size()) {
    throw usage_error(fmt::format("--scores {}: {} files for {} systems (one file per -i system, comma-separated)",
                                  label, files.size(), systems.size()));
  }
  ScoredMetric scored;
  scored.command = "scores";
  scored.default_width = 4;
  std::vector<std::string> hashes;
  for (std::size_t s = 0; s < files.size(); ++s) {
    const auto values = read_segment_scores(files[s], field);
    if (values.size() != segments) {
      throw input_error(fmt::format("{}: {} scores for {} segments", files[s], values.size(), segments));
    }
    hashes.push_back(sha256_file_hex(files[s]));
    scored.systems.push_back(ExternalScores::system_stats(systems[s], values));
  }
  scored.model = std::make_unique<ExternalScores>(label, std::move(hashes), field);
  return scored;
}

bool wants_segments(const ReportOptions& o) { return !o.segments_out.empty() || !o.html_out.empty(); }

// Builds each -m metric: segment metrics (scored later in one pass) and CIDEr's corpus scorer.
struct BuiltMetrics {
  std::vector<ScoredMetric> segment;
  std::vector<std::pair<const MetricDefinition*, OptionValues>> cider;  // scored after the pass
  std::vector<TextChecks> checks;
};

BuiltMetrics build_metrics(const ReportOptions& o, std::size_t nrefs) {
  BuiltMetrics built;
  std::set<std::string> seen;
  for (const auto& command : o.metrics) {
    const MetricDefinition* definition = find_metric_definition_by_command(command);
    if (definition == nullptr) throw usage_error(fmt::format("-m {}: no such metric", command));
    if (!seen.insert(command).second) throw usage_error(fmt::format("-m {}: given twice", command));
    if (command == "ppl") {
      throw usage_error("-m ppl: perplexity scores text with a language model, not against references: run evalcli "
                        "ppl and give its per-segment values with --scores");
    }
    const OptionValues values = metric_option_values(*definition, o);
    built.checks.push_back(text_checks(*definition, values));
    if (!definition->segments_alone) {
      if (command != "cider") throw usage_error(fmt::format("evalcli report cannot score {}: use evalcli {}", command, command));
      built.cider.emplace_back(definition, values);
      continue;
    }
    auto model = definition->build(values, BuildContext{});
    if (dynamic_cast<const Metric*>(model.get()) == nullptr) {
      throw usage_error(fmt::format("evalcli report scores metrics segment by segment; {} is not: run evalcli {} and "
                                    "give its per-segment scores with --scores",
                                    command, command));
    }
    ScoredMetric scored;
    scored.command = command;
    scored.definition = definition;
    scored.model = std::move(model);
    if (wants_segments(o)) {  // built only when sentence scores are shown: METEOR's build reads WordNet
      auto sentence_model = definition->build(values, BuildContext{.sentence_level = true});
      if (sentence_model->signature() != scored.model->signature()) scored.sentence_model = std::move(sentence_model);
    }
    scored.nrefs = nrefs;
    scored.default_width = definition->default_width;
    scored.higher_is_better = definition->higher_is_better;
    built.segment.push_back(std::move(scored));
  }
  return built;
}

// The text warnings of every metric, each distinct warning once.
void print_warnings(const TextScan& scan, const std::vector<TextChecks>& checks, const std::vector<std::string>& systems,
                    const ReportOptions& o, Streams& io) {
  if (o.output.quiet) return;
  std::set<std::string> printed;
  for (const auto& check : checks) {
    std::ostringstream text;
    print_text_warnings(scan, check, systems, o.output.quiet, text);
    if (!text.str().empty() && printed.insert(text.str()).second) io.err << text.str();
  }
}

// ---------------------------------------------------------------- the table

Json interval_json(const stats::Interval& interval) {
  return {{"mean", interval.mean}, {"half_width", interval.half_width}, {"lower", interval.lower}, {"upper", interval.upper}};
}

Json number_or_null(const std::optional<double>& value) { return value ? Json(*value) : Json(); }

Json cell_json(const ScoreAnalysis& score, const SystemStats& system, std::size_t s, int width) {
  const double value = score.model->corpus_score(system);
  Json cell;
  cell["system"] = system.system;
  cell["score"] = value;
  cell["text"] = format_fixed(value, width);
  cell["confidence"] = score.confidence[s] ? interval_json(*score.confidence[s]) : Json();
  const auto& paired = score.paired[s];
  cell["paired_interval"] = paired && paired->mean && paired->ci ? Json{{"mean", *paired->mean}, {"half_width", *paired->ci}} : Json();
  cell["p_value"] = paired ? number_or_null(paired->p_value) : Json();
  cell["significant"] = paired && paired->p_value ? Json(*paired->p_value <= 0.05) : Json();
  cell["sentence_scores"] =
      score.distribution[s] ? stats::to_json(*score.distribution[s], score.model->corpus_score_is_mean()) : Json();
  return cell;
}

// --all-pairs: the paired test of every pair (i < j) of systems, i as the baseline.
std::vector<Json> all_pairs(const ScoredMetric& scored, std::size_t component, const ReportOptions& o, Progress& progress) {
  std::vector<Json> pairs;
  const auto& systems = scored.systems;
  for (std::size_t i = 0; i < systems.size(); ++i) {
    for (std::size_t j = i + 1; j < systems.size(); ++j) {
      const Analysis pair = analyse(*scored.model, {systems[i], systems[j]}, o.output, progress);
      const auto& result = pair.scores[component].paired[1];
      if (!result || !result->p_value) continue;
      pairs.push_back({{"a", systems[i].system}, {"b", systems[j].system}, {"p_value", *result->p_value},
                       {"significant", *result->p_value <= 0.05}});
    }
  }
  return pairs;
}

// What --html and --segments-out add per row: the sentence scores and the length buckets.
struct SegmentContext {
  LengthBuckets buckets;
  Json scores = Json::array();   // [row][segment][system]
  Json by_bucket = Json::array();  // [{"row", "buckets"}]
};

void add_rows(const ScoredMetric& scored, const ReportOptions& o, Json& rows, Progress& progress,
              SegmentContext* segments) {
  const Analysis analysis = analyse(*scored.model, scored.systems, o.output, progress);
  std::string signature = full_signature(scored.nrefs, scored.model->signature(), analysis.extra_signature);
  // Scores made elsewhere have no references: their signature starts with their label.
  if (scored.definition == nullptr) signature = signature.substr(signature.find('|') + 1);
  const int width = o.width.value_or(scored.default_width);
  for (std::size_t k = 0; k < analysis.scores.size(); ++k) {
    const ScoreAnalysis& score = analysis.scores[k];
    Json row;
    row["metric"] = scored.command;
    row["metric_name"] = scored.model->name();
    row["label"] = score.model->name();
    row["signature"] = signature;
    row["width"] = width;
    row["higher_is_better"] = scored.higher_is_better;
    row["corpus_score_is_mean"] = score.model->corpus_score_is_mean();
    Json cells = Json::array();
    for (std::size_t s = 0; s < scored.systems.size(); ++s) cells.push_back(cell_json(score, scored.systems[s], s, width));
    row["cells"] = cells;
    row["pairs"] = o.all_pairs && (o.output.paired_bs || o.output.paired_ar) ? all_pairs(scored, k, o, progress)
                                                                              : std::vector<Json>{};
    if (segments != nullptr) {
      // Sentence scores as `evalcli METRIC --sentence-level` gives them.
      const bool own_sentence_model = scored.sentence_model != nullptr && analysis.scores.size() == 1;
      segments->scores.push_back(segment_scores_json(own_sentence_model ? *scored.sentence_model : *score.model, scored.systems));
      segments->by_bucket.push_back(
          {{"row", rows.size()}, {"buckets", bucket_scores_json(*score.model, scored.systems, segments->buckets)}});
    }
    rows.push_back(row);
  }
}

void add_statistics_header(const ReportOptions& o, const std::vector<std::string>& systems, Json& table) {
  const stats::Seed seed = stats::resolve_seed(o.output.seed);
  const bool paired = o.output.paired_bs || o.output.paired_ar;
  table["baseline"] = paired ? Json(systems[0]) : Json();
  table["paired_test"] = Json();
  if (paired) {
    table["paired_test"] = {{"test", o.output.paired_bs ? "paired-bootstrap" : "approximate-randomization"},
                            {"samples", o.output.paired_bs ? o.output.paired_bs_n : o.output.paired_ar_n},
                            {"seed", seed.text},
                            {"all_pairs", o.all_pairs}};
  }
  table["sentence_stats"] = o.output.stats;  // --stats: the tables show each row's sentence scores too
  table["confidence"] = o.output.confidence ? Json{{"resamples", o.output.confidence_n}, {"seed", seed.text}} : Json();
}

std::string quoted_argument(const std::string& arg) {
  if (!arg.empty() && arg.find_first_of(" \t\n'\"\\$`|&;<>()*?[]{}~#") == std::string::npos) return arg;
  std::string quoted = "'";
  for (const char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string command_text() {
  std::string text = "evalcli";
  for (const auto& arg : command_line_args()) text += " " + quoted_argument(arg);
  return text;
}

Json make_table(const std::vector<ScoredMetric>& metrics, const std::vector<std::string>& systems,
                std::size_t segments, const ReportOptions& o, const SegmentTexts* texts, Streams& io) {
  Json table;
  table["schema"] = "evalcli-table/1";
  table["command"] = command_text();
  table["version"] = evalcli_version_tag();
  table["segments_total"] = segments;
  table["systems"] = systems;
  add_statistics_header(o, systems, table);
  Json rows = Json::array();
  std::optional<SegmentContext> context;
  if (texts != nullptr) context.emplace(SegmentContext{length_buckets(texts->references)});
  Progress progress(io.err, o.output.quiet);
  for (const auto& scored : metrics) add_rows(scored, o, rows, progress, context ? &*context : nullptr);
  progress.finish();
  table["rows"] = rows;
  if (texts != nullptr) {
    table["segments"] = segment_texts_json(texts->hypotheses, texts->references, o.ids_path);
    table["segments"]["scores"] = std::move(context->scores);
    table["buckets"] = std::move(context->by_bucket);
  }
  return table;
}

// ---------------------------------------------------------------- the run

void check_report_options(const ReportOptions& o) {
  if (o.metrics.empty() && o.scores.empty()) throw usage_error("nothing to report: give -m METRIC... and/or --scores NAME=FILE");
  if (o.input.hyps.empty()) throw usage_error("evalcli report reads systems from files: give -i SYSTEM_FILE...");
  if (o.input.refs.empty() && o.input.positional_refs.empty()) throw usage_error("no references given: -r FILE...");
  if (!o.output.shard.empty() || !o.output.stats_out.empty()) {
    throw usage_error("evalcli report has no --shard/--stats-out: shard a single metric's command and merge it");
  }
  if (o.output.sentence_level) throw usage_error("evalcli report has no --sentence-level: use --segments-out FILE");
  if (o.all_pairs && !o.output.paired_bs && !o.output.paired_ar) {
    throw usage_error("--all-pairs needs a paired test: --paired-bs or --paired-ar");
  }
  if (!o.segments_out.empty()) segment_export_format(o.segments_out);  // a usage error for an unknown extension
}


// Segment rows are kept where something reads them: resampling, --stats, the
// segment export and HTML, the JSON table (each cell's sentence-score
// distribution), and corpus scores that are a mean of rows. A plain table of
// 20k segments then needs memory for the totals only.
bool keeps_rows(const ReportOptions& o, const BuiltMetrics& built) {
  if (wants_segments(o) || needs_rows(o.output) || o.table_format == "json") return true;
  return std::any_of(built.segment.begin(), built.segment.end(),
                     [](const ScoredMetric& scored) { return scored.model->corpus_score_needs_rows(); });
}

void run_report(ReportOptions o, Streams& io) {
  check_report_options(o);
  check_outputs(o.output, {{"--segments-out", o.segments_out}, {"--html", o.html_out}});
  CorpusSpec spec = make_corpus_spec(o.input, io.in);
  const std::size_t nrefs = reference_count(o, spec);
  BuiltMetrics built = build_metrics(o, nrefs);
  const std::vector<std::string> systems = system_names(o);

  TextScan scan;
  SegmentTexts texts;
  if (wants_segments(o)) {
    keep_texts(spec, texts, scan);
  } else if (!o.output.quiet) {
    scan_while_reading(spec, scan);
  }
  const bool segment_metrics = !built.segment.empty();
  std::vector<ScoredMetric> metrics = score_segment_metrics(std::move(built.segment), spec, o, keeps_rows(o, built), io);
  std::size_t segments = metrics.empty() ? 0 : metrics[0].systems[0].segments;
  for (auto& [definition, values] : built.cider) {
    metrics.push_back(score_cider(*definition, values, spec, nrefs));
    segments = metrics.back().systems[0].segments;
  }
  // No segment metric read the inputs: one pass for their length and (for --html/--segments-out) their text.
  if (!segment_metrics) segments = count_segments(spec, /*keep_hook=*/true);
  // Metrics in -m order, then --scores.
  std::stable_sort(metrics.begin(), metrics.end(), [&](const ScoredMetric& a, const ScoredMetric& b) {
    return std::find(o.metrics.begin(), o.metrics.end(), a.command) < std::find(o.metrics.begin(), o.metrics.end(), b.command);
  });
  for (auto& scored : metrics) {
    for (std::size_t s = 0; s < scored.systems.size(); ++s) scored.systems[s].system = systems[s];
  }
  for (const auto& given : o.scores) metrics.push_back(read_external_scores(given, systems, segments));
  print_warnings(scan, built.checks, systems, o, io);

  Json table = make_table(metrics, systems, segments, o, wants_segments(o) ? &texts : nullptr, io);
  if (!o.segments_out.empty()) {
    std::vector<MetricRows> stats;
    for (const auto& metric : metrics) stats.push_back({metric.model->name(), metric.model->stat_names(), &metric.systems});
    write_output(io, o.segments_out, segment_export(table, stats, segment_export_format(o.segments_out)));
  }
  if (!o.output.json_out.empty()) write_output(io, o.output.json_out, render_table(table, "json"));
  if (!o.html_out.empty()) write_output(io, o.html_out, render_html_report(table));
  io.out << render_table(table, o.table_format);
}

}  // namespace

void add_report_command(CLI::App& app, Streams& io) {
  auto o = std::make_shared<ReportOptions>();
  auto* cmd = app.add_subcommand("report", "several metrics over several systems in one table (text, Markdown, "
                                           "LaTeX, TSV, JSON), per-segment export");
  add_input_options(cmd, o->input);
  cmd->add_option("-m,--metrics", o->metrics, "metrics, in table order (bleu chrf ter rouge meteor cider ...; or a,b,c)")
      ->expected(1, -1);
  cmd->add_option("--names", o->names, "system names for the table (default: the -i file names)")->expected(1, -1);
  cmd->add_option("-f,--format", o->table_format, "table format")
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(kTableFormats), std::end(kTableFormats))));
  cmd->add_option("-w,--width", o->width, "decimals of every score (default: each metric's own)")->check(CLI::Range(0, 17));
  add_output_file_option(cmd, "--json-out", o->output.json_out, "also write the table as JSON to FILE (atomically)");
  add_statistics_options(cmd, o->output);
  cmd->add_flag("--all-pairs", o->all_pairs, "paired tests between every pair of systems, not only against the first");
  cmd->add_option("--scores", o->scores,
                  "per-segment scores made elsewhere: NAME=FILE[,FILE...] (one number a line, one file per -i system), "
                  "or NAME:FIELD=FILE.jsonl (that JSON field of each line)");
  add_output_file_option(cmd, "--segments-out", o->segments_out,
                         "write every segment's texts, sentence scores and statistics, systems side by side (.tsv or .jsonl)");
  add_output_file_option(cmd, "--html", o->html_out,
                         "write a self-contained HTML report: the table, sentence-score charts, scores by reference "
                         "length, and a sortable per-segment view (docs/report.md)");
  cmd->add_option("--ids", o->ids_path, "segment ids for --segments-out and --html, one a line (default: line numbers)");
  add_option_specs(cmd, shared_text_specs(), o->shared);
  for (const MetricDefinition* definition : metric_definitions()) {
    auto& values = o->metric_values[definition->command];
    const std::size_t before = cmd->get_options().size();
    add_option_specs(cmd, report_specs(*definition), values, definition->command);
    // The help lists each metric's options under its own heading.
    const auto options = cmd->get_options();
    for (std::size_t i = before; i < options.size(); ++i) {
      const_cast<CLI::Option*>(options[i])->group("Options of -m " + definition->command);
    }
  }
  cmd->callback([o, &io] {
    ReportOptions options = *o;
    options.metrics = comma_separated(o->metrics);
    run_report(std::move(options), io);
  });
}

}  // namespace evalcli::cli
