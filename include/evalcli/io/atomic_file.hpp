#pragma once
#include <string>

namespace evalcli::io {

// Writes `content` to a temporary file next to `path`, then renames it over
// `path`: readers never see a half-written file, and on error nothing is left.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace evalcli::io
