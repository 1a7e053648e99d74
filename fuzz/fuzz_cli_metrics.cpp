// Every scoring subcommand end to end on arbitrary hypothesis and reference
// bytes. The first byte picks the subcommand; of the rest, the bytes before
// the first 0x01 are the references (a file), the others the hypotheses
// (standard input: universal newlines, tab-separated systems). Any input must
// give a score or a documented error (run_cli_checked in fuzz_support.hpp).
// A metric that lands adds its subcommand to kCommands.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"

namespace {

struct Command {
  std::string name;
  std::vector<std::string> options;
};

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static evalcli::fuzz::ScratchFile refs("metrics-refs.txt");
  if (size == 0) return 0;
  const Command& command = kCommands[data[0] % kCommands.size()];
  const auto [ref_text, hyp_text] = evalcli::fuzz::split_once(evalcli::fuzz::as_text(data + 1, size - 1), '\x01');
  std::vector<std::string> args = {command.name, "-r", refs.write(ref_text)};
  args.insert(args.end(), command.options.begin(), command.options.end());
  evalcli::fuzz::run_cli_checked(args, hyp_text);
  return 0;
}
