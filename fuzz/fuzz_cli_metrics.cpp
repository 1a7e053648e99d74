// Every scoring subcommand end to end on arbitrary hypothesis and reference
// bytes. The first byte picks the subcommand; of the rest, the bytes before
// the first 0x01 are the references (a file), the others the hypotheses
// (standard input: universal newlines, tab-separated systems). Any input must
// give a score or a documented error (run_cli_checked in fuzz_support.hpp).
// The commands: kCommands, then every registered metric definition that
// scores segments from its defaults and is not in kCommands without options
// (a metric that lands is fuzzed without a line here; a program or a test
// that registers one at run time gets it too).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/definition.hpp"
#include "fuzz_support.hpp"

namespace {

struct Command {
  std::string name;
  std::vector<std::string> options;
};

// Non-default options, and the commands that are not definitions yet. The
// seeds' first bytes (fuzz/corpus/cli_metrics/seed-<byte><input>) index this list.
const std::vector<Command> kCommands = {
    {"bleu", {"--sentence-level"}},
    {"bleu", {"-tok", "char", "-f", "json"}},
    {"rouge", {}},
    {"cider", {"-tok", "none"}},
    {"chrf", {}},
    {"ter", {}},
    {"meteor", {}},
    {"ter", {"--ter-normalized", "--ter-asian-support"}},
};

// As tests/support/registered_metrics.hpp: a Metric from the defaults alone,
// whose segments need nothing else.
bool scores_segments_by_default(const evalcli::MetricDefinition& definition) {
  if (!definition.segments_alone) return false;
  try {
    const auto model = definition.build(evalcli::OptionValues{}, evalcli::BuildContext{});
    return dynamic_cast<const evalcli::Metric*>(model.get()) != nullptr;
  } catch (const evalcli::Error&) {
    return false;
  }
}

bool listed_with_defaults(const std::vector<Command>& commands, const std::string& name) {
  return std::any_of(commands.begin(), commands.end(),
                     [&](const Command& c) { return c.name == name && c.options.empty(); });
}

std::vector<Command> commands_of(const std::vector<const evalcli::MetricDefinition*>& definitions) {
  std::vector<Command> commands = kCommands;
  for (const evalcli::MetricDefinition* definition : definitions) {
    if (!listed_with_defaults(commands, definition->command) && scores_segments_by_default(*definition)) {
      commands.push_back({definition->command, {}});
    }
  }
  return commands;
}

// Rebuilt when the registry grows (registration only adds): a definition
// registered after the first input counts too.
const std::vector<Command>& all_commands() {
  static std::size_t registered = 0;
  static std::vector<Command> commands;
  if (commands.empty() || registered != evalcli::metric_definitions().size()) {
    registered = evalcli::metric_definitions().size();
    commands = commands_of(evalcli::metric_definitions());
  }
  return commands;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static evalcli::fuzz::ScratchFile refs("metrics-refs.txt");
  if (size == 0) return 0;
  const std::vector<Command>& commands = all_commands();
  const Command& command = commands[data[0] % commands.size()];
  const auto [ref_text, hyp_text] = evalcli::fuzz::split_once(evalcli::fuzz::as_text(data + 1, size - 1), '\x01');
  std::vector<std::string> args = {command.name, "-r", refs.write(ref_text)};
  args.insert(args.end(), command.options.begin(), command.options.end());
  evalcli::fuzz::run_cli_checked(args, hyp_text);
  return 0;
}
