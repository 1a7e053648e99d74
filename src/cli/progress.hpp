#pragma once
// A progress line on stderr, shown only when stderr is a terminal (never in
// pipes, files or tests) and not silenced with --quiet.
#include <chrono>
#include <ostream>
#include <string>

namespace evalcli::cli {

class Progress {
 public:
  // Enabled iff !quiet, `err` is std::cerr and file descriptor 2 is a terminal.
  Progress(std::ostream& err, bool quiet);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool enabled() const { return enabled_; }
  // "label: done" (total unknown, 0) or "label [#####     ] done/total"; redrawn at most 10 times a second.
  void update(const std::string& label, std::size_t done, std::size_t total = 0);
  // Clears the line.
  void finish();

 private:
  std::ostream& err_;
  bool enabled_ = false;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace evalcli::cli
