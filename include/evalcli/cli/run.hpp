#pragma once
// The command line as a function: `run` is what main() calls; tests call it
// in-process with string streams to compare output byte for byte. This is the
// front end's whole public interface (CLI11 stays inside the evalcli_cli target).
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

}  // namespace evalcli::cli
