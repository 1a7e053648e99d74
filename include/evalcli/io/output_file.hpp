#pragma once
// Every output file evalcli writes (--json-out, --stats-out, --save-df, ...)
// goes through here (docs/errors.md, "Output files"):
// * a regular file or a new path is written to an exclusive temporary file
//   with an unpredictable name in the same folder, then renamed over the
//   target: readers never see a half-written file, and a symlink planted at
//   the temporary name cannot redirect the write. A SIGINT/SIGTERM/SIGHUP
//   while it exists removes it before the process dies.
// * a character device or FIFO (/dev/null, a named pipe, a terminal) is
//   written directly: it is never replaced by a regular file.
// * anything else (a directory, a block device, a socket) is refused.
// Standard output ("-", or a path naming the file standard output is) is the
// CLI's to write: names_standard_output tells it.
#include <string>
#include <utility>
#include <vector>

namespace evalcli::io {

// Throws an input error (exit 3) naming `path` unless an output can be
// written there: its folder exists and is writable (new or regular file),
// or it is a writable character device or FIFO. Reads no input, writes nothing.
void check_output_path(const std::string& path);

// check_output_path for each (option, path) pair given a non-empty path, and
// a usage error (exit 2) when two of them name the same file: run before any
// input is read, so a bad output path fails at once, not after the scoring.
void check_output_paths(const std::vector<std::pair<std::string, std::string>>& outputs);

// True for "-" and for a path naming the file that standard output is
// (/dev/stdout, /proc/self/fd/1, or the file stdout is redirected to).
bool names_standard_output(const std::string& path);

// Writes `content` to `path` as described above; an input error naming the
// path when it cannot (nothing is left behind then).
void write_output_file(const std::string& path, const std::string& content);

}  // namespace evalcli::io
