#include "evalcli/io/read_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "evalcli/core/error.hpp"
#include "evalcli/core/numbers.hpp"

namespace evalcli::io {
namespace {

// Opens `path` for reading; the errors name the file (ELOOP and ENAMETOOLONG
// with their own reason, not as a missing file).
int open_for_reading(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) return fd;
  if (errno == ENOENT) throw input_error(fmt::format("{}: no such file", path));
  throw input_error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
}

// Appends everything `fd` holds to `content`, failing past `limit` bytes.
void read_all(int fd, const std::string& path, std::size_t limit, std::string& content) {
  constexpr std::size_t kChunk = 1 << 16;
  for (;;) {
    const std::size_t size = content.size();
    // A regular file's reserved size is read in place (no copy to a larger buffer).
    const std::size_t room = content.capacity() > size ? content.capacity() - size : kChunk;
    content.resize(size + room);
    const ssize_t got = ::read(fd, content.data() + size, room);
    if (got < 0 && errno == EINTR) {
      content.resize(size);
      continue;
    }
    if (got < 0) throw input_error(fmt::format("{}: read error", path));
    content.resize(size + static_cast<std::size_t>(got));
    if (got == 0) return;
    if (content.size() > limit) throw_file_too_large(path, limit);
  }
}

}  // namespace

std::size_t max_file_bytes(std::size_t default_bytes) {
  const char* value = std::getenv("EVALCLI_MAX_FILE_BYTES");
  if (value == nullptr) return default_bytes;
  return static_cast<std::size_t>(
      integer_in_range("EVALCLI_MAX_FILE_BYTES", value, 1, std::numeric_limits<long long>::max()));
}

void throw_file_too_large(const std::string& path, std::size_t limit) {
  throw input_error(fmt::format("{}: larger than {} bytes, the limit for files read whole (see "
                                "EVALCLI_MAX_FILE_BYTES in docs/limits.md)",
                                path, limit));
}

std::string read_whole_file(const std::string& path) {
  const std::size_t limit = max_file_bytes();
  const int fd = open_for_reading(path);
  std::string content;
  try {
    struct stat info {};
    if (::fstat(fd, &info) != 0) throw input_error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
    if (S_ISDIR(info.st_mode)) throw input_error(fmt::format("{}: is a directory, expected a text file", path));
    if (S_ISREG(info.st_mode)) {
      if (static_cast<std::uintmax_t>(info.st_size) > limit) throw_file_too_large(path, limit);
      content.reserve(static_cast<std::size_t>(info.st_size) + 1);  // + 1: the read that sees the end
    }
    read_all(fd, path, limit, content);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  return content;
}

}  // namespace evalcli::io
