#include "cli/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <iostream>

namespace evalcli::cli {

Progress::Progress(std::ostream& err, bool quiet)
    : err_(err), enabled_(!quiet && &err == &std::cerr && ::isatty(STDERR_FILENO) == 1) {}

Progress::~Progress() { finish(); }

void Progress::update(const std::string& label, std::size_t done, std::size_t total) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  const bool complete = total > 0 && done >= total;
  if (drawn_ && !complete && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  drawn_ = true;
  if (total == 0) {
    err_ << fmt::format("\r\x1b[K{}: {}", label, done) << std::flush;
    return;
  }
  constexpr std::size_t kWidth = 30;
  const std::size_t filled = std::min(kWidth, done * kWidth / total);
  err_ << fmt::format("\r\x1b[K{} [{}{}] {}/{}", label, std::string(filled, '#'), std::string(kWidth - filled, ' '),
                      done, total)
       << std::flush;
}

void Progress::finish() {
  if (enabled_ && drawn_) err_ << "\r\x1b[K" << std::flush;
  drawn_ = false;
}

}  // namespace evalcli::cli
