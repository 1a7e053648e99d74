// Every metric's signature read-back, not only BLEU's (fuzz_signature): the
// first byte picks a definition of the registry (metric_definitions(), so a
// metric added there is fuzzed without a change here), the rest is the
// signature text. It goes through what merge and check rebuild from a report
// (metric_from_signature, segment_scorer_from_signature, shard_merge_problem,
// option_values_from_signature), then `evalcli <command> --signature TEXT` end
// to end. Rebuilding may only refuse with a usage error (an unusable
// signature) or a missing resource (a model or folder it names); the command
// must keep the error contract (fuzz_support.hpp).
#include <cstdint>
#include <cstdlib>

#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/registry.hpp"
#include "fuzz_support.hpp"

namespace {

const std::string& tiny_corpus() {
  static evalcli::fuzz::ScratchFile file("metric-signatures-corpus.txt");
  static const std::string path = file.write("the cat sat on the mat\nhello world\n");
  return path;
}

template <typename Action>
void expect_usage_or_resource_error(Action action) {
  try {
    action();
  } catch (const evalcli::Error& e) {
    if (e.code() != evalcli::ExitCode::usage && e.code() != evalcli::ExitCode::missing_resource) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto& definitions = evalcli::metric_definitions();
  const evalcli::MetricDefinition& definition = *definitions[data[0] % definitions.size()];
  const std::string text(evalcli::fuzz::as_text(data + 1, size - 1));
  const std::string name = definition.names.empty() ? definition.command : definition.names.front();

  expect_usage_or_resource_error([&] {
    (void)evalcli::option_values_from_signature(definition, evalcli::parse_signature(text));
  });
  expect_usage_or_resource_error([&] { (void)evalcli::metric_from_signature(name, text); });
  expect_usage_or_resource_error([&] { (void)evalcli::segment_scorer_from_signature(name, text); });
  expect_usage_or_resource_error([&] { (void)evalcli::shard_merge_problem(name, text); });

  if (text.find('\0') != std::string::npos) return 0;  // not passable on a command line
  evalcli::fuzz::run_cli_checked({definition.command, "-r", tiny_corpus(), "-i", tiny_corpus(), "--signature", text});
  return 0;
}
