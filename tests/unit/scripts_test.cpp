// The README's commands in either order (issue 18.9): scripts/test.sh always
// configures with the tests on (scripts/demo.sh leaves build/ configured
// without them) and every CTest run fails when it finds no test; .ci/run runs
// as CI whoever starts it, so a missing ../shared fails there.
#include <sstream>

#include "support/test_support.hpp"

namespace {

std::string script(const std::string& name) { return evalcli::test::read_file(evalcli::test::source_dir() / name); }

// The lines of `text` that run `command` (first word), comments skipped.
std::vector<std::string> command_lines(const std::string& text, const std::string& command) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const auto start = line.find_first_not_of(' ');
    if (start != std::string::npos && line.compare(start, command.size() + 1, command + " ") == 0) lines.push_back(line);
  }
  return lines;
}

}  // namespace

TEST_CASE("scripts/test.sh configures with the tests on and fails on no tests", "[scripts]") {
  const std::string test_sh = script("scripts/test.sh");
  const auto configure = command_lines(test_sh, "cmake");
  REQUIRE(!configure.empty());
  CHECK(configure[0].find("-DEVALCLI_BUILD_TESTS=ON") != std::string::npos);
  const auto ctest = command_lines(test_sh, "ctest");
  REQUIRE(ctest.size() == 1);
  for (const std::string name : {"scripts/test.sh", "scripts/test-sanitizers.sh"}) {
    INFO(name);
    const auto runs = command_lines(script(name), "ctest");
    REQUIRE(!runs.empty());
    for (const auto& line : runs) CHECK(line.find("--no-tests=error") != std::string::npos);
  }
  // demo.sh builds without tests in the same folder: the reason test.sh must say ON.
  CHECK(script("scripts/demo.sh").find("-DEVALCLI_BUILD_TESTS=OFF") != std::string::npos);
}

TEST_CASE(".ci/run exports CI=true before running anything", "[scripts]") {
  const std::string run = script(".ci/run");
  const auto exported = run.find("\nexport CI=true\n");
  REQUIRE(exported != std::string::npos);
  CHECK(exported < run.find("scripts/test.sh"));
  CHECK(exported < run.find("apt-get install"));
}
