// Statistics-shard validation for every metric (issue 17 item 5): a valid
// shard of a registered metric whose numbers the fuzzer replaces. A shard made
// of arbitrary bytes (fuzz_stats_shard) rarely gets the JSON, the signature
// and the statistics' names right; here only the numbers change, so every input
// reaches each metric's statistics domain (negative, fractional, impossible
// counts, totals that disagree with the rows, 1e300).
//
// Input: the first byte picks a metric whose segments score alone
// (metric_definitions() order, those only); the rest is whitespace-separated
// tokens written, as they are, in place of the shard's numbers (rows, then
// totals; numbers past the tokens keep their value). Then stats::read_shard,
// `evalcli merge SHARD` and `evalcli check --baseline SHARD --current SHARD`
// must each accept the file or refuse it with an input or usage error, and
// merge and check must agree on it: they read the same numbers.
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/definition.hpp"
#include "evalcli/stats/shard.hpp"
#include "fuzz_support.hpp"

namespace {

// The shard of one metric's default run on a tiny corpus, as JSON text whose
// numbers are the placeholders "@N@" (N counts rows, then totals), and the numbers.
struct ShardTemplate {
  std::string text;
  std::vector<std::string> numbers;
};

std::string number_text(const nlohmann::json& value) { return value.dump(); }

void add_placeholders(nlohmann::json& array, ShardTemplate& shard) {
  for (auto& value : array) {
    shard.numbers.push_back(number_text(value));
    value = "@" + std::to_string(shard.numbers.size() - 1) + "@";
  }
}

std::optional<ShardTemplate> make_template(const evalcli::MetricDefinition& definition) {
  static evalcli::fuzz::ScratchFile hyp("shard-validation-hyp.txt"), ref("shard-validation-ref.txt"),
      out("shard-validation-made.json");
  hyp.write("the cat sat on the mat\nhello world\n");
  ref.write("the cat is on the mat\nhello there world\n");
  const std::vector<std::string> args = {definition.command, "-q", "-r", ref.path(), "-i", hyp.path(),
                                         "--stats-out", out.write("")};
  std::istringstream in;
  std::ostringstream stdout_text, stderr_text;
  if (evalcli::cli::run(args, {in, stdout_text, stderr_text}) != 0) return std::nullopt;  // needs a resource
  std::ifstream file(out.path());
  nlohmann::json doc = nlohmann::json::parse(file, nullptr, false);
  if (doc.is_discarded() || !doc.contains("systems")) return std::nullopt;
  ShardTemplate shard;
  for (auto& system : doc["systems"]) {
    if (system.contains("rows")) {
      for (auto& row : system["rows"]) add_placeholders(row, shard);
    }
  }
  for (auto& system : doc["systems"]) add_placeholders(system["totals"], shard);
  shard.text = doc.dump(1);
  return shard;
}

// The shard templates of the metrics whose default run needs nothing but -r/-i.
const std::vector<ShardTemplate>& templates() {
  static const std::vector<ShardTemplate> all = [] {
    std::vector<ShardTemplate> made;
    for (const evalcli::MetricDefinition* definition : evalcli::metric_definitions()) {
      if (!definition->segments_alone) continue;
      if (auto shard = make_template(*definition)) made.push_back(std::move(*shard));
    }
    if (made.empty()) std::abort();  // BLEU at least must work
    return made;
  }();
  return all;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string fill(const ShardTemplate& shard, std::string_view tokens_text) {
  std::vector<std::string> tokens;
  std::istringstream tokens_in{std::string(tokens_text)};
  for (std::string token; tokens_in >> token;) tokens.push_back(token);
  std::string text = shard.text;
  for (std::size_t k = 0; k < shard.numbers.size(); ++k) {
    const std::string placeholder = "\"@" + std::to_string(k) + "@\"";
    const std::size_t at = text.find(placeholder);
    if (at == std::string::npos) std::abort();
    text.replace(at, placeholder.size(), k < tokens.size() ? tokens[k] : shard.numbers[k]);
  }
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto& all = templates();
  const ShardTemplate& shard = all[data[0] % all.size()];
  static evalcli::fuzz::ScratchFile file("shard-validation.json");
  const std::string& path = file.write(fill(shard, evalcli::fuzz::as_text(data + 1, size - 1)));
  try {
    evalcli::stats::read_shard(path);
  } catch (const evalcli::Error& e) {
    if (e.code() != evalcli::ExitCode::input_data && e.code() != evalcli::ExitCode::usage) std::abort();
  }
  const int merged = evalcli::fuzz::run_cli_checked({"merge", path});
  const int checked = evalcli::fuzz::run_cli_checked({"check", "--baseline", path, "--current", path});
  // The same file as baseline and current is no regression: check passes exactly when the file is read.
  if ((merged == 0) != (checked == 0)) {
    std::fprintf(stderr, "merge exit %d but check exit %d on the same shard:\n%s\n", merged, checked,
                 read_all(path).c_str());
    std::abort();
  }
  return 0;
}
