// `evalcli cider`: not implemented yet (see the project's issues).
#include "evalcli/cli/cli.hpp"
#include "evalcli/core/error.hpp"

namespace evalcli::cli {

void add_cider_command(CLI::App& app, Streams&) {
  auto* cmd = app.add_subcommand("cider", "(not implemented yet)");
  cmd->allow_extras();
  cmd->callback([] { throw Error(ExitCode::usage, "'evalcli cider' is not implemented yet"); });
}

}  // namespace evalcli::cli
