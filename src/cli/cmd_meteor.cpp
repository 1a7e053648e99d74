// `evalcli meteor`: not implemented yet (see the project's issues).
#include "evalcli/cli/cli.hpp"
#include "evalcli/core/error.hpp"

namespace evalcli::cli {

void add_meteor_command(CLI::App& app, Streams&) {
  auto* cmd = app.add_subcommand("meteor", "(not implemented yet)");
  cmd->allow_extras();
  cmd->callback([] { throw Error(ExitCode::usage, "'evalcli meteor' is not implemented yet"); });
}

}  // namespace evalcli::cli
