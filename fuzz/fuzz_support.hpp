#pragma once
// Helpers shared by the fuzz targets: turning bytes into text, temporary input
// files that live as long as the fuzzer, and running the CLI in-process with
// the rules every subcommand must keep on any input (docs/errors.md):
// no crash, no internal error (exit 70), at most three lines on stderr.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "evalcli/cli/run.hpp"

namespace evalcli::fuzz {

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Splits the fuzzer's bytes at the first occurrence of `separator`
// (the whole input and "" when absent).
inline std::pair<std::string_view, std::string_view> split_once(std::string_view data, char separator) {
  const auto pos = data.find(separator);
  if (pos == std::string_view::npos) return {data, {}};
  return {data.substr(0, pos), data.substr(pos + 1)};
}

// A file under /tmp unique to this process; (re)written with `write`.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& stem)
      : path_(std::filesystem::temp_directory_path() /
              ("evalcli-fuzz-" + std::to_string(::getpid()) + "-" + stem)) {}
  ~ScratchFile() { std::filesystem::remove(path_); }
  const std::string& write(std::string_view content) {
    std::ofstream(path_, std::ios::binary | std::ios::trunc).write(content.data(), content.size());
    text_ = path_.string();
    return text_;
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
  std::string text_;
};

// Runs `evalcli args...` in-process and aborts (a finding for libFuzzer) when
// the documented error contract is broken.
inline int run_cli_checked(const std::vector<std::string>& args, std::string_view stdin_text = {}) {
  std::istringstream in{std::string(stdin_text)};
  std::ostringstream out, err;
  const int code = evalcli::cli::run(args, {in, out, err});
  const std::string messages = err.str();
  std::size_t lines = 0;
  for (char c : messages) lines += c == '\n';
  if (code == 70 || lines > 3 || (code != 0 && messages.empty())) {
    std::fprintf(stderr, "evalcli contract broken: exit %d, %zu stderr lines:\n%s\n", code, lines,
                 messages.c_str());
    std::abort();
  }
  return code;
}

}  // namespace evalcli::fuzz
