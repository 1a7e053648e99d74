#include "evalcli/io/atomic_file.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "evalcli/core/error.hpp"

namespace evalcli::io {

void write_file_atomically(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  if (fs::is_directory(path)) throw input_error(fmt::format("{}: is a directory, cannot write output", path));
  const fs::path target(path);
  const fs::path temp = target.parent_path() / fmt::format(".{}.tmp.{}", target.filename().string(), getpid());
  FILE* file = std::fopen(temp.c_str(), "wb");
  if (file == nullptr) {
    throw input_error(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
  }
  const bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size();
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed || std::rename(temp.c_str(), target.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temp.c_str());
    throw input_error(fmt::format("{}: cannot write: {}", path, reason));
  }
}

}  // namespace evalcli::io
