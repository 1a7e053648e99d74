// BLEU and tokenizer parity with SacreBLEU 2.6.0 over every golden in
// ../shared/golden/{bleu,tokenize,edge,cli} that concerns BLEU only
// (chrF/TER and significance goldens have their own conformance files).
#include <fmt/format.h>

#include "evalcli/io/line_reader.hpp"
#include "evalcli/metrics/bleu.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"
#include "sacrebleu_golden.hpp"

using namespace evalcli;
using namespace evalcli::test;

namespace {

bool is_plain_bleu_command(const GoldenCommand& command) {
  const auto metrics = golden_metrics(command);
  return metrics.size() == 1 && metrics[0] == "bleu" &&
         !golden_uses_option(command, {"--confidence", "-ci", "--paired-bs", "--paired-ar"});
}

void check_command_output(const std::filesystem::path& parent, const std::filesystem::path& golden_path) {
  const auto golden = read_json(golden_path);
  const std::string command_text = golden.value("command", "");
  if (command_text.find("sacrebleu ") == std::string::npos) return;
  const GoldenCommand command = parse_golden_command(command_text);
  if (!is_plain_bleu_command(command)) return;
  INFO(golden_path.filename().string() << ": " << command_text);
  const auto& expected = golden["expected"];
  const CliResult result = run_golden_command(parent, command);
  CHECK(result.exit_code == expected["exit_code"].get<int>());
  CHECK(result.out == with_evalcli_version(expected["stdout"].get<std::string>()));
  if (expected["exit_code"].get<int>() != 0) CHECK(result.err == expected["stderr"].get<std::string>());
}

BleuOptions options_from_api(const nlohmann::json& metric_options) {
  BleuOptions options;
  options.text.tokenizer = metric_options.value("tokenize", "13a");
  options.text.lowercase = metric_options.value("lowercase", false);
  options.smoothing = parse_bleu_smoothing(metric_options.value("smooth_method", "exp"));
  if (metric_options.contains("smooth_value")) options.smooth_value = metric_options["smooth_value"].get<double>();
  options.effective_order = metric_options.value("effective_order", false);
  return options;
}

struct Inputs {
  std::vector<std::u32string> hyps;
  std::vector<std::vector<std::u32string>> refs;  // per segment
};

Inputs read_inputs(const std::filesystem::path& parent, const nlohmann::json& inputs) {
  Inputs data;
  data.hyps = io::read_lines((parent / inputs["hyp"].get<std::string>()).string());
  data.refs.resize(data.hyps.size());
  for (const auto& ref_path : inputs["refs"]) {
    const auto lines = io::read_lines((parent / ref_path.get<std::string>()).string());
    REQUIRE(lines.size() == data.hyps.size());
    for (std::size_t i = 0; i < lines.size(); ++i) data.refs[i].push_back(lines[i]);
  }
  return data;
}

void check_api_numbers(const std::filesystem::path& parent, const std::filesystem::path& golden_path) {
  const auto golden = read_json(golden_path);
  INFO(golden_path.filename().string());
  const Bleu bleu(options_from_api(golden["options"]["metric_options"][0]));
  const Inputs data = read_inputs(parent, golden["inputs"]);
  StatRow totals(bleu.num_stats(), 0.0), row(bleu.num_stats());
  std::vector<StatRow> rows;
  for (std::size_t i = 0; i < data.hyps.size(); ++i) {
    bleu.segment_stats(data.hyps[i], data.refs[i], row.data());
    add_stats(totals, row);
    rows.push_back(row);
  }
  for (const auto& api : golden["expected"]["api"]) {
    if (api.contains("per_line")) {
      // Rows: [score, hyp_len, ref_len, c1..c4, t1..t4], counts as reported
      // after add-k smoothing (SacreBLEU adds k in place).
      const auto& per_line = api["per_line"];
      REQUIRE(per_line.size() == rows.size());
      for (std::size_t i = 0; i < rows.size(); ++i) {
        INFO("line " << i + 1);
        const BleuScore score = bleu.compute(rows[i]);
        StatRow reported = {score.sys_len, score.ref_len};
        reported.insert(reported.end(), score.counts.begin(), score.counts.end());
        reported.insert(reported.end(), score.totals.begin(), score.totals.end());
        CHECK(score.score == per_line[i][0].get<double>());
        for (std::size_t k = 0; k < reported.size(); ++k) CHECK(reported[k] == per_line[i][k + 1].get<double>());
      }
      continue;
    }
    const BleuScore score = bleu.compute(totals);
    CHECK(score.score == api["score"].get<double>());
    CHECK(score.counts == api["counts"].get<std::vector<double>>());
    CHECK(score.totals == api["totals"].get<std::vector<double>>());
    CHECK(score.precisions == api["precisions"].get<std::vector<double>>());
    CHECK(score.bp == api["bp"].get<double>());
    CHECK(score.sys_len == api["sys_len"].get<double>());
    CHECK(score.ref_len == api["ref_len"].get<double>());
    CHECK(score.ratio() == api["ratio"].get<double>());
  }
}

void check_tokenizer_lines(const std::filesystem::path& golden_path) {
  const auto golden = read_json(golden_path);
  INFO(golden_path.filename().string());
  std::size_t compared = 0;
  for (const auto& line : golden["expected"]["lines"]) {
    const std::u32string input = utf8::decode_or_throw(line["input"].get<std::string>(), "golden");
    for (auto it = line.begin(); it != line.end(); ++it) {
      const std::string& key = it.key();
      if (key.rfind("bleu_", 0) != 0) continue;
      std::string name = key.substr(5);
      PipelineOptions options;
      if (name.size() > 3 && name.substr(name.size() - 3) == "_lc") {
        options.lowercase = true;
        name.resize(name.size() - 3);
      }
      options.tokenizer = name;
      const TextPipeline pipeline(options);
      INFO(key << " of '" << line["input"].get<std::string>() << "'");
      // BLEU uses the whitespace split of the tokenizer output; evalcli's
      // tokenizers return exactly those tokens joined by one space.
      const std::u32string expected = utf8::decode_or_throw(it.value().get<std::string>(), "golden");
      CHECK(utf8::encode(pipeline.process(input)) == utf8::encode(text::squeeze_spaces(expected)));
      ++compared;
    }
  }
  CHECK(compared > 0);
}

}  // namespace

TEST_CASE("BLEU goldens: command output and API numbers", "[conformance][bleu]") {
  const auto parent = shared_parent();
  if (!parent) return;
  for (const auto& path : golden_files(*parent, "bleu")) {
    check_command_output(*parent, path);
    check_api_numbers(*parent, path);
  }
}

TEST_CASE("edge and cli goldens that run BLEU alone", "[conformance][bleu][edge][cli]") {
  const auto parent = shared_parent();
  if (!parent) return;
  for (const std::string family : {"edge", "cli"}) {
    for (const auto& path : golden_files(*parent, family)) check_command_output(*parent, path);
  }
}

TEST_CASE("tokenizer goldens: every BLEU tokenizer on every line", "[conformance][tokenizer]") {
  const auto parent = shared_parent();
  if (!parent) return;
  for (const auto& path : golden_files(*parent, "tokenize")) check_tokenizer_lines(path);
  check_tokenizer_lines(*parent / "shared/golden/edge/tok_edge_refA_all.json");
}
