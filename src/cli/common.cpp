#include "evalcli/cli/common.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <ostream>

#include "evalcli/core/format.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/io/atomic_file.hpp"

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

std::size_t count_refs(const InputOptions& options) {
  if (options.num_refs > 1) return static_cast<std::size_t>(options.num_refs);
  return options.refs.size() + options.positional_refs.size();
}

void add_output_options(CLI::App* cmd, OutputOptions& options) {
  cmd->add_option("-f,--format", options.format, "output format")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("-w,--width", options.width, "decimals of printed scores")->check(CLI::Range(0, 17));
  cmd->add_flag("-b,--score-only", options.score_only, "print only the score");
  cmd->add_flag("--sentence-level", options.sentence_level, "score every segment (-sl)");
  cmd->add_option("--json-out", options.json_out, "also write the JSON report to FILE (atomically)");
}

void add_tokenizer_options(CLI::App* cmd, TokenizerOptions& options) {
  cmd->add_option_function<std::string>(
         "--jieba-hmm", [&options](const std::string& value) { options.jieba_hmm = value == "on"; },
         "zh-jieba: HMM for unknown words, as jieba.cut(HMM=...) (default on)")
      ->check(CLI::IsMember({"on", "off"}));
  cmd->add_option("--jieba-dict", options.jieba_dict,
                  "zh-jieba: dictionary replacing python3-jieba's dict.txt (same format)");
}

std::string metric_signature(const Metric& metric, std::size_t nrefs) {
  return full_signature(nrefs, metric.signature());
}

nlohmann::ordered_json make_report(const Metric& metric, std::size_t nrefs, const SystemStats& stats,
                                   bool include_segments) {
  nlohmann::ordered_json report;
  report["schema"] = "evalcli-report/1";
  report["name"] = metric.name();
  report["system"] = stats.system;
  report["score"] = metric.score(stats.totals);
  report["signature"] = metric_signature(metric, nrefs);
  report["segments"] = stats.segments;
  nlohmann::ordered_json stat_object;
  const auto names = metric.stat_names();
  for (std::size_t i = 0; i < names.size(); ++i) stat_object[names[i]] = stats.totals[i];
  report["stats"] = stat_object;
  const nlohmann::json details = metric.details(stats.totals);
  for (auto it = details.begin(); it != details.end(); ++it) report[it.key()] = it.value();
  if (include_segments) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& row : stats.rows) rows.push_back({{"score", metric.score(row)}, {"stats", row}});
    report["sentences"] = rows;
  }
  return report;
}

namespace {

std::string text_line(const Metric& metric, const std::string& signature, std::span<const Stat> stats,
                      int width) {
  std::string line = fmt::format("{}|{} = {}", metric.name(), signature, format_fixed(metric.score(stats), width));
  const nlohmann::json details = metric.details(stats);
  if (details.contains("verbose_score")) line += " " + details["verbose_score"].get<std::string>();
  return line;
}

std::string ordered_dump(const Metric& metric, std::size_t nrefs, const SystemStats& stats, bool segments) {
  return make_report(metric, nrefs, stats, segments).dump(2);
}

std::string json_document(const Metric& metric, std::size_t nrefs, const std::vector<SystemStats>& systems,
                          bool segments) {
  if (systems.size() == 1) return ordered_dump(metric, nrefs, systems[0], segments) + "\n";
  std::string out = "[\n";
  for (std::size_t s = 0; s < systems.size(); ++s) {
    out += ordered_dump(metric, nrefs, systems[s], segments);
    out += s + 1 < systems.size() ? ",\n" : "\n";
  }
  return out + "]\n";
}

}  // namespace

void run_metric_command(const Metric& metric, const InputOptions& input, const OutputOptions& output,
                        Streams& io) {
  const CorpusSpec spec = make_corpus_spec(input, io.in);
  auto results = compute_corpus_stats({&metric}, spec, output.sentence_level);
  const auto& systems = results[0];
  const std::size_t nrefs = input.num_refs > 1 ? static_cast<std::size_t>(input.num_refs) : spec.ref_paths.size();
  const std::string signature = metric_signature(metric, nrefs);

  std::string rendered;
  if (output.format == "json") {
    rendered = json_document(metric, nrefs, systems, output.sentence_level);
  } else {
    for (const auto& system : systems) {
      const std::string prefix = systems.size() > 1 ? system.system + ": " : "";
      if (output.sentence_level) {
        for (const auto& row : system.rows) {
          rendered += prefix + (output.score_only ? format_fixed(metric.score(row), output.width)
                                                  : text_line(metric, signature, row, output.width));
          rendered += '\n';
        }
      } else if (output.score_only) {
        rendered += prefix + format_fixed(metric.score(system.totals), output.width) + "\n";
      } else {
        rendered += prefix + text_line(metric, signature, system.totals, output.width) + "\n";
      }
    }
  }
  if (!output.json_out.empty()) {
    io::write_file_atomically(output.json_out, json_document(metric, nrefs, systems, output.sentence_level));
  }
  io.out << rendered;
}

}  // namespace evalcli::cli
