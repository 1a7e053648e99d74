#pragma once
// Helpers shared by unit and conformance tests.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "evalcli/cli/run.hpp"

namespace evalcli::test {

inline std::filesystem::path source_dir() { return EVALCLI_SOURCE_DIR; }

inline bool running_in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

// The folder that holds shared/ (goldens' paths start with "shared/"), or
// nullopt when ../shared is absent. In CI (CI=true) a missing ../shared fails.
inline std::optional<std::filesystem::path> shared_parent() {
  const auto parent = source_dir().parent_path();
  if (std::filesystem::is_directory(parent / "shared" / "golden")) return parent;
  if (running_in_ci()) FAIL("../shared is missing, and CI=true requires it");
  WARN("../shared not found: conformance test not run (outside CI only)");
  return std::nullopt;
}

inline nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  return nlohmann::json::parse(in);
}

// Every *.json in shared/golden/<family>/, sorted by name.
inline std::vector<std::filesystem::path> golden_files(const std::filesystem::path& parent,
                                                       const std::string& family) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(parent / "shared" / "golden" / family)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

struct CliResult {
  int exit_code;
  std::string out;
  std::string err;
};

// Runs the evalcli command line in-process (working directory unchanged).
inline CliResult run_cli(const std::vector<std::string>& args, const std::string& stdin_text = {}) {
  std::istringstream in(stdin_text);
  std::ostringstream out, err;
  const int code = evalcli::cli::run(args, {in, out, err});
  return {code, out.str(), err.str()};
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// A temporary file that is removed when the object goes away.
class TempFile {
 public:
  explicit TempFile(const std::string& content, const std::string& suffix = ".txt") {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("evalcli-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + suffix);
    std::ofstream(path_, std::ios::binary) << content;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace evalcli::test
