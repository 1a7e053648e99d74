#include "evalcli/cli/sacrebleu_significance.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <thread>

#include "evalcli/core/format.hpp"
#include "evalcli/stats/resampling.hpp"

namespace evalcli::cli {

// Defined in sacrebleu_output.cpp (tabulate's latex_booktabs).
std::string latex_booktabs(const std::vector<std::string>& headers, const std::vector<std::vector<std::string>>& rows);

namespace {

std::string upper(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

// Python's repr() of a str, enough for file names in log lines.
std::string python_repr(const std::string& text) {
  const bool use_double = text.find('\'') != std::string::npos && text.find('"') == std::string::npos;
  const char quote = use_double ? '"' : '\'';
  std::string out(1, quote);
  for (char c : text) {
    if (c == '\\' || c == quote) out += '\\';
    out += c;
  }
  return out + quote;
}

// float(f"{value:.{width}f}") printed with repr().
std::string rounded_repr(double value, int width) { return python_float_repr(std::stod(format_fixed(value, width))); }

struct Confidence {
  stats::Interval interval;
  std::string mean_text, ci_text;
  bool shown() const { return interval.mean > 0; }  // SacreBLEU prints it only for a positive mean
};

std::string single_json(const Metric& metric, std::span<const Stat> stats, const std::string& signature, int width,
                        const Confidence& confidence) {
  std::string out = "{\n";
  out += fmt::format(" \"name\": {},\n", python_json_quote(metric.name(), false));
  out += fmt::format(" \"score\": {},\n", rounded_repr(metric.score(stats), width));
  out += fmt::format(" \"signature\": {}", python_json_quote(signature, false));
  if (confidence.shown()) {
    out += fmt::format(",\n \"confidence_mean\": {}", python_float_repr(std::stod(confidence.mean_text)));
    out += fmt::format(",\n \"confidence_var\": {}", python_float_repr(std::stod(confidence.ci_text)));
    out += fmt::format(",\n \"confidence\": {}",
                       python_json_quote(fmt::format("μ = {} ± {}", confidence.mean_text, confidence.ci_text), false));
  }
  const nlohmann::json details = metric.details(stats);
  if (details.contains("verbose_score")) {
    out += fmt::format(",\n \"verbose_score\": {}", python_json_quote(details["verbose_score"].get<std::string>(), false));
  }
  std::size_t start = 0;
  while (start <= signature.size()) {
    std::size_t bar = signature.find('|', start);
    if (bar == std::string::npos) bar = signature.size();
    const std::string field = signature.substr(start, bar - start);
    const auto colon = field.find(':');
    out += fmt::format(",\n {}: {}", python_json_quote(field.substr(0, colon), false),
                       python_json_quote(field.substr(colon + 1), false));
    start = bar + 1;
  }
  return out + "\n}";
}

std::string single_text(const Metric& metric, std::span<const Stat> stats, const std::string& signature, int width,
                        const Confidence& confidence, bool score_only) {
  std::string score = format_fixed(metric.score(stats), width);
  if (confidence.shown()) score += fmt::format(" (μ = {} ± {})", confidence.mean_text, confidence.ci_text);
  if (score_only) return score;
  std::string line = fmt::format("{}|{} = {}", metric.name(), signature, score);
  const nlohmann::json details = metric.details(stats);
  if (details.contains("verbose_score")) line += " " + details["verbose_score"].get<std::string>();
  return line;
}

std::size_t code_points(const std::string& utf8) {
  std::size_t n = 0;
  for (unsigned char c : utf8) n += (c & 0xC0) != 0x80;
  return n;
}

// print_single_results: right-justify each line's text before " =" to the longest.
std::string align_on_equals(const std::vector<std::string>& lines) {
  std::size_t widest = 0;
  for (const auto& line : lines) {
    const auto eq = line.find('=');
    if (eq != std::string::npos) widest = std::max(widest, code_points(line.substr(0, eq - 1)));
  }
  std::string out;
  for (const auto& line : lines) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) {
      out += line + "\n";
      continue;
    }
    const std::string left = line.substr(0, eq - 1);
    out += std::string(widest - code_points(left), ' ') + left + line.substr(eq - 1) + "\n";
  }
  return out;
}

std::string p_value_text(double p) { return fmt::format("(p = {:.4f})", p) + (p > 0.05 ? "" : "*"); }

std::string optional_repr(const std::optional<double>& value) {
  return value ? python_float_repr(*value) : std::string("null");
}

std::string paired_json(const std::vector<std::string>& names, const SacrebleuRun& run,
                        const std::vector<std::vector<stats::PairedResult>>& results) {
  std::string out = "[\n";
  for (std::size_t s = 0; s < names.size(); ++s) {
    out += "    {\n";
    out += fmt::format("        \"system\": {}", python_json_quote(names[s], true));
    for (std::size_t m = 0; m < run.metrics.size(); ++m) {
      const auto& r = results[m][s];
      out += fmt::format(",\n        {}: {{\n", python_json_quote(run.metrics[m]->name(), true));
      out += fmt::format("            \"score\": {},\n", python_float_repr(r.score));
      out += fmt::format("            \"p_value\": {},\n", optional_repr(r.p_value));
      out += fmt::format("            \"mean\": {},\n", optional_repr(r.mean));
      out += fmt::format("            \"ci\": {}\n        }}", optional_repr(r.ci));
    }
    out += s + 1 < names.size() ? "\n    },\n" : "\n    }\n";
  }
  return out + "]\n";
}

std::string explanation(const SacrebleuArgs& args, const std::string& baseline) {
  const bool bs = args.paired_bs;
  const std::string message = fmt::format("Paired {} test with {} {}", bs ? "bootstrap resampling" : "approximate randomization",
                                          bs ? args.paired_bs_n : args.paired_ar_n, bs ? "resampling trials" : "trials");
  const std::string rule(code_points(message), '-');
  std::string out = rule + "\n" + message + "\n" + rule + "\n";
  out += fmt::format(" - Each system is pairwise compared to {}.\n", baseline);
  out += bs ? "   Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric.\n"
            : "   Actual system score is provided for each metric.\n";
  out += "\n"
         " - Null hypothesis: the system and the baseline translations are essentially\n"
         "   generated by the same underlying process. For a given system and the baseline,\n"
         "   the p-value is roughly the probability of the absolute score difference (delta)\n"
         "   or higher occurring due to chance, under the assumption that the null hypothesis is correct.\n"
         "\n"
         " - Assuming a significance threshold of 0.05, the null hypothesis can be rejected\n"
         "   for p-values < 0.05 (marked with \"*\"). This means that the delta is unlikely to be attributed\n"
         "   to chance, hence the system is significantly \"different\" than the baseline.\n"
         "   Otherwise, the p-values are highlighted in red.\n"
         "\n"
         " - NOTE: Significance does not tell whether a system is \"better\" than the baseline but rather\n"
         "   emphasizes the \"difference\" of the systems in terms of the replicability of the delta.\n"
         "\n";
  return out;
}

}  // namespace

std::string render_single_system_confidence(const SacrebleuRun& run) {
  const auto& args = run.args;
  const bool json = args.format == "json";
  const stats::Seed seed = stats::resolve_seed(std::nullopt);
  const auto samples = static_cast<std::size_t>(args.confidence_n);
  const std::vector<SacrebleuField> extra = {{"bs", "bs", std::to_string(samples)}, {"seed", "rs", seed.text}};
  std::vector<std::string> results;
  for (std::size_t m = 0; m < run.metrics.size(); ++m) {
    const Metric& metric = *run.metrics[m];
    const SystemStats& system = run.stats[m].front();
    const stats::StatMatrix matrix(system.rows, metric.num_stats());
    Confidence confidence;
    confidence.interval = stats::bootstrap_confidence(metric, matrix, samples, seed);
    confidence.mean_text = format_fixed(confidence.interval.mean, args.width);
    confidence.ci_text = format_fixed(confidence.interval.half_width, args.width);
    const std::string signature = sacrebleu_signature(metric, run.nrefs, json ? false : args.short_signature, extra);
    if (json && !args.score_only) {
      results.push_back(single_json(metric, system.totals, signature, args.width, confidence));
    } else {
      results.push_back(single_text(metric, system.totals, signature, args.width, confidence, args.score_only));
    }
  }
  if (json) {
    if (results.size() == 1) return results.front() + "\n";
    std::string out = "[\n";
    for (std::size_t i = 0; i < results.size(); ++i) out += results[i] + (i + 1 < results.size() ? ",\n" : "\n");
    return out + "]\n";
  }
  if (results.size() == 1) return results.front() + "\n";
  return align_on_equals(results);
}

std::string render_paired_tests(const SacrebleuRun& run, Streams& io) {
  const auto& args = run.args;
  const std::size_t num_systems = run.stats.front().size();
  std::vector<std::string> names;
  for (std::size_t s = 0; s < num_systems; ++s) {
    const std::string& name = run.stats.front()[s].system;
    if (!args.inputs) {
      names.push_back(s == 0 ? "Baseline" : fmt::format("System {}", s));
    } else {
      names.push_back(s == 0 ? "Baseline: " + name : name);
    }
  }

  stats::PairedTestOptions options;
  options.kind = args.paired_bs ? stats::PairedTestKind::bootstrap : stats::PairedTestKind::randomization;
  options.samples = static_cast<std::size_t>(std::max(0, args.paired_bs ? args.paired_bs_n : args.paired_ar_n));
  options.seed = stats::resolve_seed(std::nullopt);
  options.jobs = static_cast<unsigned>(std::max(0, args.paired_jobs));

  std::vector<std::vector<stats::StatMatrix>> matrices(run.metrics.size());
  for (std::size_t m = 0; m < run.metrics.size(); ++m) {
    for (const auto& system : run.stats[m]) matrices[m].emplace_back(system.rows, run.metrics[m]->num_stats());
  }
  if (!args.quiet) {
    // SacreBLEU's log lines, in its order (the work itself is shared across metrics here).
    for (const Metric* metric : run.metrics) {
      std::string key = metric->name();
      key = upper(key.substr(0, key.find_first_of("0123456789+")));
      io.err << fmt::format("sacreBLEU: Pre-computing {} statistics for {}\n", key, python_repr(names[0]));
    }
    unsigned workers = options.jobs;
    if (workers == 0) workers = std::max(1U, std::min<unsigned>(std::thread::hardware_concurrency() / 2,
                                                                static_cast<unsigned>(num_systems - 1)));
    if (workers != 1) io.err << fmt::format("sacreBLEU: Launching {} parallel workers.\n", workers);
    const char* what = args.paired_bs ? " > Performing paired bootstrap resampling test (# resamples: {})\n"
                                      : " > Performing approximate randomization test (# trials: {})\n";
    for (std::size_t s = 1; s < num_systems; ++s) {
      for (const Metric* metric : run.metrics) {
        io.err << fmt::format("sacreBLEU: Computing {} for {} and extracting sufficient statistics\n", metric->name(),
                              python_repr(names[s]));
        io.err << "sacreBLEU: " << fmt::format(fmt::runtime(what), options.default_samples());
      }
    }
  }
  const auto results = stats::run_paired_tests(run.metrics, matrices, options);

  if (args.format == "json") return paired_json(names, run, results);

  const bool bs = args.paired_bs;
  const char* p_break = args.format == "latex" ? " " : "\n";
  std::vector<std::string> headers = {"System"};
  for (const Metric* metric : run.metrics) headers.push_back(metric->name() + (bs ? " (μ ± 95% CI)" : ""));
  std::vector<std::vector<std::string>> rows;
  for (std::size_t s = 0; s < num_systems; ++s) {
    std::vector<std::string> row = {names[s]};
    for (std::size_t m = 0; m < run.metrics.size(); ++m) {
      const auto& r = results[m][s];
      std::string cell = format_fixed(r.score, args.width);
      if (r.mean) cell += fmt::format(" ({} ± {})", format_fixed(*r.mean, args.width), format_fixed(*r.ci, args.width));
      if (r.p_value) cell += p_break + p_value_text(*r.p_value);
      row.push_back(cell);
    }
    rows.push_back(std::move(row));
  }
  std::string out = args.format == "latex" ? latex_booktabs(headers, rows) : fancy_grid(headers, rows);
  out += "\n";
  out += explanation(args, names[0]);
  out += "-----------------\nMetric signatures\n-----------------\n";
  const std::string seed_text = options.seed.value ? std::to_string(*options.seed.value) : "none";
  const std::vector<SacrebleuField> extra = {
      {bs ? "bs" : "ar", bs ? "bs" : "ar", std::to_string(options.default_samples())}, {"seed", "rs", seed_text}};
  for (const Metric* metric : run.metrics) {
    out += fmt::format(" - {:<10} {}\n", metric->name(), sacrebleu_signature(*metric, run.nrefs, args.short_signature, extra));
  }
  return out;
}

}  // namespace evalcli::cli
