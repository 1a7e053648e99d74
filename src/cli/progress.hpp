#pragma once
// A progress line on stderr, shown only when stderr is a terminal (never in
// pipes, files or tests) and not silenced with --quiet.
#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

namespace evalcli::cli {

// The text of one progress line (what Progress draws after "\r\x1b[K"):
//   total known: "label [#####     ] done/total 26% ETA 0:07"
//   total 0 (unknown), or done beyond it: "label: done (2048/s)"
// `elapsed` is the time since the phase began; the ETA and the rate need
// some of it and a segment done ("ETA --:--" / no rate before).
std::string progress_line(std::string_view label, std::size_t done, std::size_t total,
                          std::chrono::duration<double> elapsed);

// "0:07", "12:34", "1:02:03": whole seconds, rounded.
std::string format_duration(std::chrono::duration<double> duration);

// The lines of a plain file as the line reader counts them (LF ends a line, a
// last line without one counts): a progress total. 0 (unknown) for standard
// input ("-"), a compressed, unreadable or non-regular file: those are not
// read twice for a progress bar.
std::size_t count_lines_for_progress(const std::string& path);

class Progress {
 public:
  // Enabled iff !quiet, `err` is std::cerr and file descriptor 2 is a terminal.
  Progress(std::ostream& err, bool quiet);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool enabled() const { return enabled_; }
  // Draws progress_line(label, done, total, time since the phase began);
  // redrawn at most 10 times a second, and always when done reaches total.
  // A new label, done going back or an update after finish() starts a new
  // phase: its clock restarts.
  void update(const std::string& label, std::size_t done, std::size_t total = 0);
  // Clears the line.
  void finish();

 private:
  std::ostream& err_;
  bool enabled_ = false;
  bool drawn_ = false;
  std::size_t columns_ = 80;  // the terminal's width: longer lines would wrap and break "\r"
  bool started_ = false;      // an update was seen
  bool finished_ = false;     // finish() was called: the next update starts a new phase
  std::string label_;         // the current phase
  std::size_t last_done_ = 0;
  std::chrono::steady_clock::time_point phase_start_;
  std::chrono::steady_clock::time_point last_drawn_;
};

}  // namespace evalcli::cli
