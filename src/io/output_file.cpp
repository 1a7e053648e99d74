#include "evalcli/io/output_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <optional>

#include "evalcli/core/error.hpp"
#include "io/temp_file_registry.hpp"

namespace evalcli::io {
namespace {

namespace fs = std::filesystem;

Error cannot_write(const std::string& path, const std::string& reason) {
  return input_error(fmt::format("{}: cannot write: {}", path, reason));
}

Error cannot_write(const std::string& path, int error_number) {
  return cannot_write(path, std::strerror(error_number));
}

// How an output path is written.
enum class Way { by_rename, directly };

struct Target {
  Way way = Way::by_rename;
  std::string path;           // the file renamed over: symlinks resolved, so a link keeps pointing at the output
  std::optional<mode_t> mode;  // the permissions of the file replaced
};

std::string folder_of(const std::string& path) {
  const fs::path folder = fs::path(path).parent_path();
  return folder.empty() ? std::string(".") : folder.string();
}

// A new file can be created in `path`'s folder (by this effective user).
void check_folder(const std::string& path, const std::string& shown) {
  const std::string folder = folder_of(path);
  struct stat info {};
  if (::stat(folder.c_str(), &info) != 0) {
    if (errno == ENOENT) throw cannot_write(shown, fmt::format("folder {} does not exist", folder));
    throw cannot_write(shown, fmt::format("folder {}: {}", folder, std::strerror(errno)));
  }
  if (::faccessat(AT_FDCWD, folder.c_str(), W_OK | X_OK, AT_EACCESS) != 0) {
    throw cannot_write(shown, fmt::format("folder {}: {}", folder, std::strerror(errno)));
  }
}

// Decides how `path` is written, or throws why it cannot be.
Target find_target(const std::string& path) {
  if (path.empty()) throw usage_error("an output file name is empty");
  struct stat link {};
  if (::lstat(path.c_str(), &link) != 0) {
    if (errno != ENOENT) throw cannot_write(path, errno);  // ELOOP, ENAMETOOLONG, ENOTDIR, EACCES named
    check_folder(path, path);
    return {Way::by_rename, path, std::nullopt};
  }
  struct stat info = link;
  if (S_ISLNK(link.st_mode) && ::stat(path.c_str(), &info) != 0) {
    if (errno == ENOENT) throw cannot_write(path, "a symbolic link to a missing file");
    throw cannot_write(path, errno);
  }
  if (S_ISDIR(info.st_mode)) throw input_error(fmt::format("{}: is a directory, cannot write output", path));
  if (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode)) {
    if (::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) != 0) throw cannot_write(path, errno);
    return {Way::directly, path, std::nullopt};
  }
  if (!S_ISREG(info.st_mode)) {
    throw cannot_write(path, "not a regular file, character device or FIFO (evalcli replaces only regular files)");
  }
  std::string resolved = path;
  if (S_ISLNK(link.st_mode)) {
    std::error_code ec;
    resolved = fs::canonical(path, ec).string();
    if (ec) throw cannot_write(path, ec.message());
  }
  check_folder(resolved, path);
  return {Way::by_rename, resolved, info.st_mode & 07777};
}

void write_all(int fd, const std::string& content, const std::string& path) {
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      throw cannot_write(path, errno);
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
}

void write_directly(const std::string& path, const std::string& content) {
  // O_APPEND: a terminal or /dev/null does not care, and nothing is overwritten in place.
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw cannot_write(path, errno);
  try {
    write_all(fd, content, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) throw cannot_write(path, errno);
}

// 16 hex digits nobody can guess (the kernel's random bytes; a clock-based
// fallback is still safe: the file is opened O_EXCL and retried).
std::string random_suffix() {
  unsigned long long bits = 0;
  if (::getrandom(&bits, sizeof bits, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof bits)) {
    bits = static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
           (static_cast<unsigned long long>(::getpid()) << 32);
  }
  return fmt::format("{:016x}", bits);
}

// ".NAME.<random>.tmp" in the target's folder, created exclusively (never
// through a symlink someone planted there). It is registered as pending
// before it exists, so that no signal finds it created but unregistered.
// Returns the open descriptor.
int create_temp_file(const std::string& target, std::optional<PendingTempFile>& pending) {
  constexpr std::size_t kNameBytes = 200;  // the temporary name stays under NAME_MAX (255)
  const fs::path target_path(target);
  const std::string name = target_path.filename().string().substr(0, kNameBytes);
  for (int attempt = 0; attempt < 100; ++attempt) {
    pending.emplace((target_path.parent_path() / fmt::format(".{}.{}.tmp", name, random_suffix())).string());
    const int fd = ::open(pending->path().c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    const int error = errno;
    pending->release();  // not created by us: nothing to remove
    pending.reset();
    if (error != EEXIST) throw cannot_write(target, error);
  }
  throw cannot_write(target, "no unused temporary file name in its folder");
}

void write_by_rename(const Target& target, const std::string& content, const std::string& shown) {
  std::optional<PendingTempFile> pending;  // removes the temporary file on error
  const int fd = create_temp_file(target.path, pending);
  bool closed = false;
  try {
    if (target.mode) ::fchmod(fd, *target.mode);  // the replaced file's permissions (best effort)
    write_all(fd, content, shown);
    closed = true;
    if (::close(fd) != 0) throw cannot_write(shown, errno);
    if (::rename(pending->path().c_str(), target.path.c_str()) != 0) throw cannot_write(shown, errno);
  } catch (...) {
    if (!closed) ::close(fd);
    throw;
  }
  pending->release();
}

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// An identity for comparing two output paths: the file's when it exists,
// else its folder's plus the name.
std::string output_identity(const std::string& path) {
  if (path == "-" || names_standard_output(path)) return "-";
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) return fmt::format("file {}:{}", info.st_dev, info.st_ino);
  const fs::path as_path(path);
  struct stat folder {};
  if (::stat(folder_of(path).c_str(), &folder) == 0) {
    return fmt::format("new {}:{}/{}", folder.st_dev, folder.st_ino, as_path.filename().string());
  }
  return "path " + fs::path(path).lexically_normal().string();
}

}  // namespace

void check_output_path(const std::string& path) {
  if (names_standard_output(path)) return;
  find_target(path);
}

void check_output_paths(const std::vector<std::pair<std::string, std::string>>& outputs) {
  std::vector<std::pair<std::string, std::string>> seen;  // (identity, option)
  for (const auto& [option, path] : outputs) {
    if (path.empty()) continue;
    check_output_path(path);
    const std::string identity = output_identity(path);
    for (const auto& [other_identity, other_option] : seen) {
      if (identity == other_identity) {
        throw usage_error(fmt::format("{} and {} name the same output ({}): give each its own file", other_option,
                                      option, path));
      }
    }
    seen.emplace_back(identity, option);
  }
}

bool names_standard_output(const std::string& path) {
  if (path == "-") return true;
  struct stat out {}, info {};
  return ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(path.c_str(), &info) == 0 && same_file(out, info);
}

void write_output_file(const std::string& path, const std::string& content) {
  const Target target = find_target(path);
  if (target.way == Way::directly) return write_directly(path, content);
  write_by_rename(target, content, path);
}

}  // namespace evalcli::io
