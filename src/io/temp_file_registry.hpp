#pragma once
// The temporary files an output write has created and not yet renamed or
// removed. A SIGINT, SIGTERM or SIGHUP removes them (unlink is
// async-signal-safe) and then dies of the signal as it would have, so an
// interrupted run leaves no hidden temporary file behind. Signals the process
// was started with ignored stay ignored.
#include <string>

namespace evalcli::io {

class PendingTempFile {
 public:
  // Registers `path`, before the file is created (no moment when it exists
  // unguarded), and installs the signal handlers where the signals' action is
  // the default; at most a few files are pending at once.
  explicit PendingTempFile(const std::string& path);
  // Removes the file unless release() was called.
  ~PendingTempFile();
  PendingTempFile(const PendingTempFile&) = delete;
  PendingTempFile& operator=(const PendingTempFile&) = delete;

  // The file was renamed to its target (or was never created): forget it, remove nothing.
  void release();
  const std::string& path() const { return path_; }

 private:
  int slot_ = -1;
  std::string path_;
};

}  // namespace evalcli::io
