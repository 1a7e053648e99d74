// `evalcli chrf`: not implemented yet (see the project's issues).
#include "evalcli/cli/cli.hpp"
#include "evalcli/core/error.hpp"

namespace evalcli::cli {

void add_chrf_command(CLI::App& app, Streams&) {
  auto* cmd = app.add_subcommand("chrf", "(not implemented yet)");
  cmd->allow_extras();
  cmd->callback([] { throw Error(ExitCode::usage, "'evalcli chrf' is not implemented yet"); });
}

}  // namespace evalcli::cli
