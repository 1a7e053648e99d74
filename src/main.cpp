#include <unistd.h>

#include <iostream>

#include "evalcli/cli/run.hpp"
#include "evalcli/core/code_pages.hpp"
#include "evalcli/io/standard_output.hpp"

int main(int argc, char** argv) {
  evalcli::memory::allow_releasing_executable_pages();  // see core/code_pages.hpp
  evalcli::io::prepare_standard_streams();
  std::ios::sync_with_stdio(false);
  // run() flushes and closes it, and reports a failed write (docs/errors.md).
  evalcli::io::StandardOutputBuffer stdout_buffer(STDOUT_FILENO);
  std::ostream out(&stdout_buffer);
  std::vector<std::string> args(argv + 1, argv + argc);
  return evalcli::cli::run(args, {std::cin, out, std::cerr});
}
