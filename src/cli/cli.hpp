#pragma once
// The command-line front end's internals: the subcommands added to the CLI11 app.
// `run` and `Streams` (what main() and the tests call) are in run.hpp.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "evalcli/cli/run.hpp"

namespace evalcli::cli {

// The metrics of the registry get their subcommand from their definition
// (metric_command.hpp); the other subcommands live in their own files
// (src/cli/cmd_<name>.cpp) and add themselves to the app; callbacks throw
// evalcli::Error on failure.
void add_sacrebleu_command(CLI::App& app, Streams& io);
void add_tokenize_command(CLI::App& app, Streams& io);
void add_rouge_command(CLI::App& app, Streams& io);
void add_cider_command(CLI::App& app, Streams& io);
void add_coco_command(CLI::App& app, Streams& io);
void add_bertscore_command(CLI::App& app, Streams& io);
void add_ppl_command(CLI::App& app, Streams& io);
void add_merge_command(CLI::App& app, Streams& io);
void add_check_command(CLI::App& app, Streams& io);
void add_report_command(CLI::App& app, Streams& io);

// The arguments of the running command (without the program name), for
// reports that record the command line that made them.
const std::vector<std::string>& command_line_args();

// SacreBLEU-style single-dash long options ("-tok", "-lc", ...) rewritten to
// their "--" forms so CLI11 can parse them.
std::vector<std::string> expand_single_dash_aliases(const std::vector<std::string>& args);

}  // namespace evalcli::cli
