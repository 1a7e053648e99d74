#include "cli/progress.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include "evalcli/io/decompress.hpp"

namespace evalcli::cli {
namespace {

constexpr std::size_t kBarWidth = 30;
// Below this, a rate or an ETA is noise (the first segments include start-up work).
constexpr double kMinSecondsForRate = 0.05;

std::size_t terminal_columns() {
  winsize size{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

std::string rate_text(std::size_t done, double seconds) {
  if (done == 0 || seconds < kMinSecondsForRate) return "";
  const double rate = static_cast<double>(done) / seconds;
  return rate >= 10 ? fmt::format(" ({:.0f}/s)", rate) : fmt::format(" ({:.1f}/s)", rate);
}

}  // namespace

std::string format_duration(std::chrono::duration<double> duration) {
  const long long total = std::max(0LL, std::llround(duration.count()));
  const long long hours = total / 3600, minutes = total / 60 % 60, seconds = total % 60;
  if (hours > 0) return fmt::format("{}:{:02}:{:02}", hours, minutes, seconds);
  return fmt::format("{}:{:02}", minutes, seconds);
}

std::string progress_line(std::string_view label, std::size_t done, std::size_t total,
                          std::chrono::duration<double> elapsed) {
  const double seconds = elapsed.count();
  // A total that turns out too small (a guess from a line count) is no total.
  if (total == 0 || done > total) return fmt::format("{}: {}{}", label, done, rate_text(done, seconds));
  const std::size_t filled = done * kBarWidth / total;
  // Rounded, but 100% only when done.
  std::size_t percent = static_cast<std::size_t>(std::llround(100.0 * static_cast<double>(done) / static_cast<double>(total)));
  if (done < total) percent = std::min<std::size_t>(percent, 99);
  std::string eta = "--:--";
  if (done == total) {
    eta = format_duration(std::chrono::seconds(0));
  } else if (done > 0 && seconds >= kMinSecondsForRate) {
    eta = format_duration(elapsed * (static_cast<double>(total - done) / static_cast<double>(done)));
  }
  return fmt::format("{} [{}{}] {}/{} {}% ETA {}", label, std::string(filled, '#'), std::string(kBarWidth - filled, ' '),
                     done, total, percent, eta);
}

std::size_t count_lines_for_progress(const std::string& path) {
  if (path.empty() || path == "-") return 0;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;  // the reader reports it
  struct stat info {};
  std::size_t lines = 0;
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
    std::vector<char> buffer(1 << 20);
    bool first = true, ends_with_newline = true;
    ssize_t n = 0;
    while ((n = ::read(fd, buffer.data(), buffer.size())) > 0) {
      const std::string_view chunk(buffer.data(), static_cast<std::size_t>(n));
      if (first && io::detect_compression(chunk) != io::Compression::none) {
        lines = 0;
        ends_with_newline = true;
        break;
      }
      first = false;
      lines += static_cast<std::size_t>(std::count(chunk.begin(), chunk.end(), '\n'));
      ends_with_newline = chunk.back() == '\n';
    }
    if (n < 0) lines = 0;
    if (!ends_with_newline) ++lines;
  }
  ::close(fd);
  return lines;
}

Progress::Progress(std::ostream& err, bool quiet)
    : err_(err), enabled_(!quiet && &err == &std::cerr && ::isatty(STDERR_FILENO) == 1) {
  phase_start_ = std::chrono::steady_clock::now();
  if (enabled_) columns_ = terminal_columns();
}

Progress::~Progress() { finish(); }

void Progress::update(const std::string& label, std::size_t done, std::size_t total) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  // The first phase began when the object was made (just before the work); later ones at their first update.
  if (!started_ || finished_ || label != label_ || done < last_done_) {
    if (started_) phase_start_ = now;
    started_ = true;
    finished_ = false;
    label_ = label;
  }
  last_done_ = done;
  const bool complete = total > 0 && done == total;
  if (drawn_ && !complete && now - last_drawn_ < std::chrono::milliseconds(100)) return;
  last_drawn_ = now;
  drawn_ = true;
  std::string line = progress_line(label, done, total, now - phase_start_);
  if (columns_ > 1 && line.size() > columns_ - 1) line.resize(columns_ - 1);
  err_ << "\r\x1b[K" << line << std::flush;
}

void Progress::finish() {
  if (enabled_ && drawn_) err_ << "\r\x1b[K" << std::flush;
  drawn_ = false;
  finished_ = true;
}

}  // namespace evalcli::cli
