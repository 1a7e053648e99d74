// Tens of thousands of -r files (issue 17.13): every reader stays open for the
// whole run, so the limit of open files is raised as far as the hard limit
// allows, and closing them is linear (read(2) on descriptors, no stdio FILEs,
// whose closing walks glibc's list of all open FILEs: quadratic, a hang at exit
// from ~16,000 files).
#include <sys/resource.h>

#include <filesystem>
#include <fstream>

#include "support/test_support.hpp"

using evalcli::test::run_cli;

namespace {

// A folder of `count` one-line reference files, removed afterwards.
class ReferenceFolder {
 public:
  explicit ReferenceFolder(std::size_t count) {
    dir_ = std::filesystem::temp_directory_path() / ("evalcli-many-refs-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    for (std::size_t i = 0; i < count; ++i) {
      const auto path = (dir_ / ("ref" + std::to_string(i) + ".txt")).string();
      std::ofstream(path) << (i % 2 == 0 ? "the cat sat on the mat\n" : "a cat sat on a mat\n");
      args_.push_back("-r");
      args_.push_back(path);
    }
  }
  ~ReferenceFolder() { std::filesystem::remove_all(dir_); }
  ReferenceFolder(const ReferenceFolder&) = delete;
  ReferenceFolder& operator=(const ReferenceFolder&) = delete;
  const std::vector<std::string>& args() const { return args_; }

 private:
  std::filesystem::path dir_;
  std::vector<std::string> args_;
};

// Lowers the limits of open files for this test process (each test case runs
// in a process of its own under CTest; lowering needs no privilege).
void set_open_file_limit(rlim_t soft, rlim_t hard) {
  rlimit limit{};
  REQUIRE(::getrlimit(RLIMIT_NOFILE, &limit) == 0);
  limit.rlim_cur = std::min(soft, limit.rlim_max);
  limit.rlim_max = std::min(hard, limit.rlim_max);
  REQUIRE(::setrlimit(RLIMIT_NOFILE, &limit) == 0);
}

std::vector<std::string> command(const std::string& metric, const ReferenceFolder& refs) {
  std::vector<std::string> args = {metric};
  args.insert(args.end(), refs.args().begin(), refs.args().end());
  args.push_back("-b");
  return args;
}

}  // namespace

TEST_CASE("20,000 reference files are scored and closed", "[many_refs]") {
  // A low soft limit, which evalcli raises to the hard one; readers past what
  // that allows reopen their file for each read.
  set_open_file_limit(256, RLIM_INFINITY);
  const ReferenceFolder refs(20000);
  const auto result = run_cli(command("bleu", refs), "the cat sat on the mat\n");
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == "100.0\n");
}

TEST_CASE("more references than the hard limit of open files: the rest are reopened for each read", "[many_refs]") {
  const ReferenceFolder refs(80);
  const auto expected = run_cli(command("chrf", refs), "the cat sat on the mat\n");
  REQUIRE(expected.exit_code == 0);
  set_open_file_limit(40, 40);
  const auto result = run_cli(command("chrf", refs), "the cat sat on the mat\n");
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == expected.out);
  CHECK(result.out == "100.0\n");
}
