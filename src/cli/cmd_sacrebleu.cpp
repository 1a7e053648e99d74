// `evalcli sacrebleu`: drop-in replacement for the sacrebleu command (in progress).
#include "evalcli/cli/cli.hpp"
#include "evalcli/core/error.hpp"

namespace evalcli::cli {

void add_sacrebleu_command(CLI::App& app, Streams&) {
  auto* cmd = app.add_subcommand("sacrebleu", "SacreBLEU-compatible command line");
  cmd->allow_extras();
  cmd->callback([] { throw Error(ExitCode::usage, "'evalcli sacrebleu' is not implemented yet"); });
}

}  // namespace evalcli::cli
