// `evalcli rouge`: ROUGE with rouge-score 0.1.2 numbers (default) or
// ROUGE-1.5.5.pl numbers (--compat rouge155), docs/rouge.md.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/common.hpp"
#include "cli/text_warnings.hpp"
#include "cli/presentations.hpp"
#include "cli/progress.hpp"
#include "cli/metric_command.hpp"
#include "cli/run_signature.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/format.hpp"
#include "evalcli/core/numbers.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/io/read_file.hpp"
#include "evalcli/metrics/rouge.hpp"
#include "evalcli/metrics/rouge155_setup.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::cli {
namespace {

struct RougeCommandOptions {
  InputOptions input;
  OutputOptions output;
  OptionValues values;  // the options of rouge_definition()'s table
  std::string signature;
  // Read from `values` by take_values: how the command runs and reports.
  std::string compat = "rouge-score";
  int bootstrap = 0;  // rouge-score's BootstrapAggregator
  unsigned seed = 42;
  double confidence = 0.95;
  std::string rouge155_config;
  std::string rouge155_system;
  bool rouge155_output = false;
};

void take_values(RougeCommandOptions& o) {
  const OptionValues& values = o.values;
  o.compat = values.text("compat", "rouge-score");
  o.bootstrap = values.integer("bootstrap", 0);
  if (values.has("seed")) o.seed = integer_in_range<unsigned>("--seed", values.text("seed"));
  o.confidence = values.real("bootstrap-confidence", 0.95);
  o.rouge155_config = values.text("rouge155-config");
  o.rouge155_system = values.text("rouge155-system");
  o.rouge155_output = values.flag("rouge155-output");
}

void warn_if_mostly_non_ascii(std::size_t chars, std::size_t non_ascii, bool quiet, Streams& io) {
  if (!quiet) io.err << rouge_ascii_warning(chars, non_ascii);
}

// ROUGE-1.5.5 runs: what the Perl script does silently, or where it dies and evalcli goes on.
void warn_rouge155(const Rouge155Metric& metric, bool quiet, Streams& io) {
  if (quiet) return;
  const auto& options = metric.options();
  if (!options.tokenizer.empty() && (options.stem || options.stem_models)) {
    io.err << "evalcli: warning: --tokenize with -m/-M: ROUGE-1.5.5's Porter stemmer then works on the tokens' hex "
              "ids (it cuts a final \"e\": 鮮 e9aeae -> e9aea); -m does it on both sides and changes nothing, -M on "
              "the models only, so such tokens stop matching; leave -m/-M out with --tokenize (docs/rouge.md)\n";
  }
  if (metric.uses_byte_tokenizer()) warn_if_mostly_non_ascii(metric.chars_seen(), metric.non_ascii_seen(), false, io);
  if (const std::size_t documents = metric.fatal_in_rouge155(); documents > 0) {
    io.err << fmt::format(
        "evalcli: warning: {} document{} a reference without tokens under -w: ROUGE-1.5.5.pl dies there (\"Illegal "
        "division by zero\" in ROUGE-W, after printing the measures before it); evalcli scores ROUGE-W of such a "
        "reference 0 and goes on\n",
        documents, documents == 1 ? " has" : "s have");
  }
}

nlohmann::ordered_json prf_json(const PRF& s) {
  return {{"precision", s.precision}, {"recall", s.recall}, {"fmeasure", s.fmeasure}};
}

// Reports and shards of -r/-i files record the test set (hashed only when one is
// written), so that `evalcli check` refuses a baseline on other data.
// ------------------------------------------------------------ rouge-score

void run_rouge_score(RougeCommandOptions o, const RougeScoreOptions& options, const RunSignature* given, CLI::App* cmd,
                     Streams& io) {
  if (o.bootstrap < 0) throw usage_error("--bootstrap must be >= 0");
  if (!(o.confidence > 0 && o.confidence < 1)) throw usage_error("--bootstrap-confidence must be within 0 and 1 (e.g. 0.95)");
  if (o.bootstrap > 0 && (o.output.confidence || o.output.paired_bs || o.output.paired_ar)) {
    throw usage_error("--bootstrap (rouge-score's aggregator) and --confidence/--paired-bs/--paired-ar exclude each other");
  }
  const RougeScoreMetric metric(options);
  if (given != nullptr) check_rebuilt_signature(*given, metric);

  if (o.bootstrap > 0 && !o.output.shard.empty()) {
    throw usage_error("--shard and --bootstrap exclude each other: rouge-score's aggregator resamples the whole test "
                      "set; merge the shards and use --confidence on the merged rows instead");
  }
  CorpusSpec spec = make_corpus_spec(o.input, io.in);
  const std::size_t whole_segments = select_shard(spec, o.output);
  TextScan scan;
  const TextChecks checks{.ascii_only_tokenizer = metric.uses_ascii_tokenizer()};
  if (!o.output.quiet) scan_while_reading(spec, scan);  // -q prints no warning
  // Per-pair rows only where they are printed or resampled: the means come from
  // the exact totals (RougeScoreMetric::exact_totals), so memory stays constant.
  const bool keep_rows = needs_rows(o.output) || o.bootstrap > 0;
  std::vector<std::vector<SystemStats>> results;
  {
    Progress progress(io.err, o.output.quiet);
    results = compute_corpus_stats({&metric}, spec, keep_rows, segment_progress(progress, spec),
                                   static_cast<unsigned>(o.output.threads));
  }
  print_text_warnings(scan, checks, {}, o.output.quiet, io.err);
  const std::size_t nrefs = o.input.num_refs > 1 ? static_cast<std::size_t>(o.input.num_refs) : spec.ref_paths.size();
  record_test_set(spec, results[0], whole_segments, o.output);
  RougeScoreReport report;
  report.bootstrap_samples = o.bootstrap;
  report.seed = o.seed;
  report.confidence = o.confidence;
  report.sentence_level = o.output.sentence_level;
  report.score_only = o.output.score_only;
  report.width = cmd->count("--width") > 0 ? o.output.width : 5;
  o.output.width = report.width;
  // One --seed for every resampling this command does.
  if (cmd->count("--seed") > 0) o.output.seed = std::to_string(o.seed);
  const auto presentation = rouge_score_presentation(metric, report);
  report_metric_results(metric, nrefs, results[0], o.output, io, presentation.get());
}

// ------------------------------------------------------------ ROUGE-1.5.5

// Perl's default number stringification (%.15g) for -t per-document values.
std::string perl_number(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.15g", v);
  return buffer;
}

// ---- settings files (--rouge155-config): ROUGE-1.5.5.pl's own setups

void run_rouge155_setup(RougeCommandOptions o, Rouge155Options options, CLI::App* cmd, Streams& io) {
  if (!o.input.refs.empty() || !o.input.positional_refs.empty() || !o.input.hyps.empty()) {
    throw usage_error("--rouge155-config names the summary files itself: give no -r/-i files");
  }
  if (cmd->count("--sentence-sep") > 0) {
    throw usage_error("--sentence-sep is for -r/-i line files; the settings file's INPUT-FORMAT says how to read sentences");
  }
  if (!o.output.shard.empty()) {
    throw usage_error("--shard needs -r/-i line files: a --rouge155-config settings file names its own summaries "
                      "(split it into several settings files instead)");
  }
  if (o.output.paired_bs || o.output.paired_ar || !o.output.stats_out.empty()) {
    throw usage_error("--paired-bs, --paired-ar and --stats-out need -r/-i line files, not --rouge155-config");
  }
  const Rouge155Metric metric(options);
  const std::string text = io::read_whole_file(o.rouge155_config);
  const Rouge155Setup setup =
      options.file_list_format.empty()
          ? parse_rouge155_settings(text, o.rouge155_config)
          : parse_rouge155_file_list(text, o.rouge155_config, options.file_list_format,
                                     o.rouge155_system.empty() ? "X" : o.rouge155_system);

  Rouge155SetupScores scores = score_rouge155_setup(metric, setup, o.rouge155_system);
  for (const auto& warning : scores.warnings) io.err << "evalcli: warning: " << warning << '\n';
  warn_rouge155(metric, o.output.quiet, io);
  if (cmd->count("--width") == 0) o.output.width = 5;
  if (cmd->count("--seed") > 0) o.output.seed = std::to_string(o.seed);
  const auto presentation = rouge155_presentation(metric, o.rouge155_output, std::move(scores.eval_ids));
  report_metric_results(metric, scores.nrefs, scores.systems, o.output, io, presentation.get());
}

void run_rouge155(RougeCommandOptions o, const Rouge155Options& options, const RunSignature* given, CLI::App* cmd,
                  Streams& io) {
  if (o.values.has("types")) throw usage_error("--types is for --compat rouge-score; ROUGE-1.5.5 measures come from its flags");
  if (given != nullptr) check_rebuilt_signature(*given, Rouge155Metric(options));
  if (!o.rouge155_config.empty()) return run_rouge155_setup(o, options, cmd, io);
  if (cmd->count("--rouge155-system") > 0) throw usage_error("--rouge155-system needs --rouge155-config");
  const Rouge155Metric metric(options);
  if (!metric.options().file_list_format.empty()) {
    throw usage_error("-z (a file list) needs the list given as --rouge155-config FILE");
  }
  CorpusSpec spec = make_corpus_spec(o.input, io.in);
  // --shard K/N: the per-document rows of one piece; merged, they are the one run's rows, so its
  // averages and its own bootstrap intervals (computed from the rows) are the one run's too.
  const std::size_t whole_segments = select_shard(spec, o.output);
  std::vector<std::vector<SystemStats>> results;
  {
    Progress progress(io.err, o.output.quiet);
    results = compute_corpus_stats({&metric}, spec, true, segment_progress(progress, spec),
                                   static_cast<unsigned>(o.output.threads));
  }
  warn_rouge155(metric, o.output.quiet, io);
  const std::size_t nrefs = o.input.num_refs > 1 ? static_cast<std::size_t>(o.input.num_refs) : spec.ref_paths.size();
  record_test_set(spec, results[0], whole_segments, o.output);
  if (cmd->count("--width") == 0) o.output.width = 5;
  if (cmd->count("--seed") > 0) o.output.seed = std::to_string(o.seed);
  const auto presentation = rouge155_presentation(metric, o.rouge155_output);
  report_metric_results(metric, nrefs, results[0], o.output, io, presentation.get());
}

// --signature: rouge-score or ROUGE-1.5.5 as its compat: field says, with
// rouge-score's aggregator fields (boot:, ci:, and the run's seed:) when it printed them.
std::optional<RunSignature> apply_signature(RougeCommandOptions& o, const CLI::App& cmd) {
  if (o.signature.empty()) return std::nullopt;
  RunSignature given = read_metric_signature(rouge_definition(), o.signature, count_refs(o.input), o.values, o.output, cmd);
  // rouge-score's aggregator seed (numpy.random.seed) is the signature's seed: too.
  if (o.output.seed && *o.output.seed != "none") o.values.set("seed", *o.output.seed);
  // The aggregator's fields are the command's, not the metric's own signature().
  const bool aggregator = given.take("boot").has_value() | given.take("ci").has_value();
  if (aggregator && o.values.text("compat") == "rouge155") {
    throw usage_error("signature: boot:/ci: are rouge-score fields, not ROUGE-1.5.5's");
  }
  return given;
}

// `--confidence 0.9` (HF evaluate's confidence level) would read 0.9 as a
// reference file after the --confidence flag: say which option is meant.
void refuse_confidence_level(const RougeCommandOptions& o) {
  if (!o.output.confidence) return;
  for (const auto& ref : o.input.positional_refs) {
    const bool number = !ref.empty() && ref.find_first_not_of("0123456789.eE+-") == std::string::npos;
    if (number && !std::filesystem::exists(ref)) {
      throw usage_error(fmt::format("--confidence (-ci) is the bootstrap interval flag of every command and takes no "
                                    "value ('{}'); rouge-score's confidence level is --bootstrap-confidence LEVEL",
                                    ref));
    }
  }
}

void run_rouge(RougeCommandOptions o, CLI::App* cmd, Streams& io) {
  o.output.accepts_shard = true;  // both modes (ROUGE-1.5.5 with -r/-i line files)
  check_outputs(o.output);
  refuse_confidence_level(o);
  const std::optional<RunSignature> given = apply_signature(o, *cmd);
  take_values(o);
  const RunSignature* signature = given ? &*given : nullptr;
  if (o.compat == "rouge155") return run_rouge155(o, rouge155_options(o.values), signature, cmd, io);
  const bool rouge155_only = cmd->count("--rouge155-flags") + cmd->count("--rouge155-output") +
                                 cmd->count("--rouge155-config") + cmd->count("--rouge155-system") +
                                 cmd->count("--max-ngram") + cmd->count("--no-lcs") + cmd->count("--wlcs-weight") +
                                 cmd->count("--skip-distance") + cmd->count("--stopwords") + cmd->count("--scoring") +
                                 cmd->count("--alpha") + cmd->count("--counting") + cmd->count("--word-limit") +
                                 cmd->count("--byte-limit") + cmd->count("--resamples") + cmd->count("--per-doc") >
                             0;
  if (rouge155_only) throw usage_error("ROUGE-1.5.5 options need --compat rouge155");
  run_rouge_score(o, rouge_score_options(o.values), signature, cmd, io);
}

}  // namespace

// ------------------------------------------------------------ presentations

namespace {

// What rouge-score reports for one system: per-pair P/R/F by type, their
// math.fsum means, and the BootstrapAggregator intervals when asked.
struct RougeScoreSummary {
  std::vector<std::vector<PRF>> rows_by_type;
  std::vector<PRF> means;
  std::vector<RougeInterval> intervals;
};

RougeScoreSummary summarize(const RougeScoreMetric& metric, const RougeScoreReport& report, const SystemStats& system) {
  const auto& types = metric.options().types;
  // Means as the goldens: math.fsum(scores) / n, the correctly rounded sum.
  // From the rows when kept (whatever summed a shard's totals), else from the
  // totals, which compute_corpus_stats summed exactly (exact_totals).
  const bool have_rows = !system.rows.empty() && system.rows.size() == system.segments;
  const auto n = static_cast<double>(system.segments);
  RougeScoreSummary summary;
  summary.rows_by_type.resize(types.size());
  summary.means.resize(types.size());
  for (std::size_t t = 0; t < types.size(); ++t) {
    double sums[3] = {system.totals[3 * t], system.totals[3 * t + 1], system.totals[3 * t + 2]};
    if (have_rows) {
      std::vector<double> columns[3];
      for (const auto& row : system.rows) {
        summary.rows_by_type[t].push_back({row[3 * t], row[3 * t + 1], row[3 * t + 2]});
        for (int c = 0; c < 3; ++c) columns[c].push_back(row[3 * t + c]);
      }
      for (int c = 0; c < 3; ++c) sums[c] = exact_sum(columns[c]);
    }
    summary.means[t] = {sums[0] / n, sums[1] / n, sums[2] / n};
  }
  if (report.bootstrap_samples > 0) {
    summary.intervals =
        rouge_score_bootstrap(summary.rows_by_type, report.seed, report.bootstrap_samples, report.confidence);
  }
  return summary;
}

}  // namespace

std::unique_ptr<Presentation> rouge_score_presentation(const RougeScoreMetric& metric, RougeScoreReport report) {
  auto presentation = std::make_unique<Presentation>();
  // Summaries are computed once per system even when text and --json-out both need them.
  auto cache = std::make_shared<std::map<const SystemStats*, RougeScoreSummary>>();
  auto summary_of = [&metric, report, cache](const SystemStats& system) -> const RougeScoreSummary& {
    auto found = cache->find(&system);
    if (found == cache->end()) found = cache->emplace(&system, summarize(metric, report, system)).first;
    return found->second;
  };
  if (report.bootstrap_samples > 0) {
    presentation->extra_signature =
        fmt::format("boot:{}|seed:{}|ci:{}", report.bootstrap_samples, report.seed, report.confidence);
  }
  presentation->default_width = 5;
  presentation->system_text = [&metric, report, summary_of](const std::string& signature,
                                                           const std::vector<SystemStats>& systems, std::size_t s) {
    const auto& types = metric.options().types;
    const auto& summary = summary_of(systems[s]);
    const int width = report.width;
    const std::string prefix = systems.size() > 1 ? systems[s].system + ": " : "";
    auto fixed = [&](double v) { return format_fixed(v, width); };
    std::string text;
    if (report.sentence_level) {
      for (std::size_t i = 0; i < systems[s].rows.size(); ++i) {
        std::string line = prefix;
        for (std::size_t t = 0; t < types.size(); ++t) {
          const PRF& p = summary.rows_by_type[t][i];
          line += fmt::format("{}{} P {} R {} F {}", t ? "  " : "", types[t].name(), fixed(p.precision),
                              fixed(p.recall), fixed(p.fmeasure));
        }
        text += line + "\n";
      }
      return text;
    }
    if (report.score_only) return prefix + fixed(summary.means.empty() ? 0.0 : summary.means[0].fmeasure) + "\n";
    text += fmt::format("{}ROUGE|{}\n", prefix, signature);
    text += fmt::format("{:<10} {:>{}} {:>{}} {:>{}}\n", "type", "precision", width + 2, "recall", width + 2,
                        "fmeasure", width + 2);
    for (std::size_t t = 0; t < types.size(); ++t) {
      const PRF& m = summary.means[t];
      text += fmt::format("{:<10} {:>{}} {:>{}} {:>{}}\n", types[t].name(), fixed(m.precision), width + 2,
                          fixed(m.recall), width + 2, fixed(m.fmeasure), width + 2);
    }
    if (!summary.intervals.empty()) {
      text += fmt::format("bootstrap: {} samples, seed {}, {}% interval (low / mid / high)\n", report.bootstrap_samples,
                          report.seed, report.confidence * 100);
      for (std::size_t t = 0; t < types.size(); ++t) {
        const auto& iv = summary.intervals[t];
        text += fmt::format("{:<10} P {} / {} / {}  R {} / {} / {}  F {} / {} / {}\n", types[t].name(),
                            fixed(iv.low.precision), fixed(iv.mid.precision), fixed(iv.high.precision),
                            fixed(iv.low.recall), fixed(iv.mid.recall), fixed(iv.high.recall), fixed(iv.low.fmeasure),
                            fixed(iv.mid.fmeasure), fixed(iv.high.fmeasure));
      }
    }
    return text;
  };
  presentation->json = [&metric, report, summary_of](nlohmann::ordered_json& json, const SystemStats& system,
                                                    std::size_t) {
    const auto& types = metric.options().types;
    const auto& summary = summary_of(system);
    nlohmann::ordered_json by_type = nlohmann::ordered_json::object();
    for (std::size_t t = 0; t < types.size(); ++t) {
      auto entry = prf_json(summary.means[t]);
      if (!summary.intervals.empty()) {
        entry["low"] = prf_json(summary.intervals[t].low);
        entry["mid"] = prf_json(summary.intervals[t].mid);
        entry["high"] = prf_json(summary.intervals[t].high);
      }
      by_type[types[t].name()] = entry;
    }
    json["types"] = by_type;
    if (report.bootstrap_samples > 0) {
      json["bootstrap"] = {{"n_samples", report.bootstrap_samples}, {"seed", report.seed}, {"confidence", report.confidence}};
    }
    if (json.contains("sentences")) {
      nlohmann::ordered_json pairs = nlohmann::ordered_json::array();
      for (std::size_t i = 0; i < system.rows.size(); ++i) {
        nlohmann::ordered_json pair = nlohmann::ordered_json::object();
        for (std::size_t t = 0; t < types.size(); ++t) pair[types[t].name()] = prf_json(summary.rows_by_type[t][i]);
        pairs.push_back(pair);
      }
      json["sentences"] = pairs;
    }
  };
  return presentation;
}

std::unique_ptr<Presentation> rouge155_presentation(const Rouge155Metric& metric, bool perl_output,
                                                    std::vector<std::vector<std::string>> eval_ids, bool per_doc) {
  auto presentation = std::make_unique<Presentation>();
  presentation->default_width = 5;
  if (!perl_output) {
    presentation->text_header = [](const std::string& signature) { return "ROUGE-1.5.5|" + signature + "\n"; };
  }
  // Per system and measure: the rows and ROUGE-1.5.5's averages (its bootstrap), computed once.
  struct Measures {
    std::vector<std::vector<std::array<double, 3>>> rows;
    std::vector<Rouge155Average> averages;
  };
  auto cache = std::make_shared<std::map<const SystemStats*, Measures>>();
  auto measures_of = [&metric, cache](const SystemStats& system) -> const Measures& {
    auto found = cache->find(&system);
    if (found != cache->end()) return found->second;
    Measures m;
    for (std::size_t k = 0; k < metric.measures().size(); ++k) {
      std::vector<std::array<double, 3>> rows;
      for (const auto& row : system.rows) rows.push_back({row[3 * k], row[3 * k + 1], row[3 * k + 2]});
      m.averages.push_back(rouge155_average(rows, metric.options()));
      m.rows.push_back(std::move(rows));
    }
    return cache->emplace(&system, std::move(m)).first->second;
  };
  auto ids = std::make_shared<std::vector<std::vector<std::string>>>(std::move(eval_ids));
  presentation->system_text = [&metric, measures_of, ids, per_doc](const std::string&,
                                                                   const std::vector<SystemStats>& systems,
                                                                   std::size_t s) {
    const auto& options = metric.options();
    const auto& m = measures_of(systems[s]);
    const bool from_setup = !ids->empty();
    const std::string peer = systems.size() > 1 || from_setup ? systems[s].system : "S";
    // -d lines: ROUGE prints "EVALID.PEER" keys in its by_evalID order.
    std::vector<std::size_t> order(systems[s].rows.size());
    for (std::size_t d = 0; d < order.size(); ++d) order[d] = d;
    auto key = [&](std::size_t d) {
      return from_setup ? (*ids)[s][d] + "." + peer : fmt::format("{:06d}.{}", d, peer);
    };
    if (from_setup) {
      std::vector<std::string> keys;
      for (std::size_t d = 0; d < order.size(); ++d) keys.push_back(key(d));
      std::stable_sort(order.begin(), order.end(),
                       [&](std::size_t a, std::size_t b) { return rouge155_eval_key_before(keys[a], keys[b]); });
    }
    const std::string confidence = fmt::format("{}", options.confidence);
    std::string text;
    for (std::size_t k = 0; k < metric.measures().size(); ++k) {
      const auto& average = m.averages[k];
      const std::string& label = metric.measures()[k].label;
      text += "---------------------------------------------\n";
      if (options.counting == 2) {
        text += fmt::format("{} {} M_count: {} P_count: {} H_count: {}\n", peer, label, average.counts[0],
                            average.counts[1], average.counts[2]);
      } else {
        const char* names[3] = {"R", "P", "F"};
        for (int c = 0; c < 3; ++c) {
          text += fmt::format("{} {} Average_{}: {} ({}%-conf.int. {} - {})\n", peer, label, names[c], average.avg[c],
                              confidence, average.low[c], average.high[c]);
        }
      }
      if (options.per_doc || per_doc) {
        text += ".............................................\n";
        const auto& rows = m.rows[k];
        for (const std::size_t d : order) {
          auto value = [&](double v) { return options.counting != 0 ? perl_number(v) : perl_fixed5(v); };
          text += fmt::format("{} {} Eval {} R:{} P:{} F:{}\n", peer, label, key(d), value(rows[d][0]),
                              value(rows[d][1]), value(rows[d][2]));
        }
      }
    }
    return text;
  };
  presentation->json = [&metric, measures_of, ids](nlohmann::ordered_json& json, const SystemStats& system,
                                                   std::size_t s) {
    const auto& options = metric.options();
    if (!ids->empty()) json["eval_ids"] = (*ids)[s];
    const auto& m = measures_of(system);
    nlohmann::ordered_json by_measure = nlohmann::ordered_json::object();
    for (std::size_t k = 0; k < metric.measures().size(); ++k) {
      const auto& average = m.averages[k];
      nlohmann::ordered_json entry = nlohmann::ordered_json::object();
      if (options.counting == 2) {
        entry = {{"M_count", average.counts[0]}, {"P_count", average.counts[1]}, {"H_count", average.counts[2]}};
      } else {
        const char* names[3] = {"R", "P", "F"};
        for (int c = 0; c < 3; ++c) {
          // The printed "%7.5f" text read back; strtod: no exception whatever the text.
          entry[names[c]] = {{"avg", std::strtod(average.avg[c].c_str(), nullptr)},
                             {"ci_low", std::strtod(average.low[c].c_str(), nullptr)},
                             {"ci_high", std::strtod(average.high[c].c_str(), nullptr)}};
        }
        if (options.counting == 0) {
          nlohmann::ordered_json plain = nlohmann::ordered_json::object();
          for (int c = 0; c < 3; ++c) {
            double sum = 0;
            for (const auto& row : m.rows[k]) sum += row[c];
            plain[names[c]] = m.rows[k].empty() ? 0.0 : sum / static_cast<double>(m.rows[k].size());
          }
          entry["plain_mean"] = plain;
        }
      }
      by_measure[metric.measures()[k].label] = entry;
    }
    json["measures"] = by_measure;
  };
  return presentation;
}

void add_rouge_command(CLI::App& app, Streams& io) {
  auto o = std::make_shared<RougeCommandOptions>();
  auto* cmd = app.add_subcommand("rouge", rouge_definition().summary);
  add_input_options(cmd, o->input);
  add_output_options(cmd, o->output, /*statistics=*/false);
  // --bootstrap N, --bootstrap-confidence LEVEL and --seed N are rouge-score's
  // BootstrapAggregator options (HF evaluate's); the shared bootstrap interval
  // is --confidence as everywhere, and --seed seeds both.
  add_statistics_options(cmd, o->output, "--confidence,--ci", "");
  add_option_specs(cmd, rouge_definition().options, o->values);
  add_signature_option(cmd, o->signature);
  cmd->callback([o, cmd, &io] { run_rouge(*o, cmd, io); });
}

}  // namespace evalcli::cli
