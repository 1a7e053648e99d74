#pragma once
// The command-line front end. `run` is what main() calls; tests call it
// in-process with string streams to compare output byte for byte.
#include <CLI/CLI.hpp>
#include <iosfwd>
#include <string>
#include <vector>

namespace evalcli::cli {

struct Streams {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
};

// Parses `args` (without the program name) and runs the subcommand.
// Never throws: errors are printed to `io.err`; returns the exit code.
int run(const std::vector<std::string>& args, Streams io);

// The metrics of the registry get their subcommand from their definition
// (metric_command.hpp); the other subcommands live in their own files
// (src/cli/cmd_<name>.cpp) and add themselves to the app; callbacks throw
// evalcli::Error on failure.
void add_sacrebleu_command(CLI::App& app, Streams& io);
void add_tokenize_command(CLI::App& app, Streams& io);
void add_rouge_command(CLI::App& app, Streams& io);
void add_cider_command(CLI::App& app, Streams& io);
void add_ppl_command(CLI::App& app, Streams& io);
void add_merge_command(CLI::App& app, Streams& io);
void add_check_command(CLI::App& app, Streams& io);

// SacreBLEU-style single-dash long options ("-tok", "-lc", ...) rewritten to
// their "--" forms so CLI11 can parse them.
std::vector<std::string> expand_single_dash_aliases(const std::vector<std::string>& args);

}  // namespace evalcli::cli
