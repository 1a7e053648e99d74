#pragma once
#include <cstddef>
#include <string>

namespace evalcli::io {

// The largest file a whole-file reader reads: EVALCLI_MAX_FILE_BYTES from the
// environment when set (a positive whole number of bytes; anything else is a
// usage error), else `default_bytes`: 256 MiB for read_whole_file's JSON and
// text files (docs/limits.md).
constexpr std::size_t kDefaultMaxFileBytes = std::size_t{256} << 20;
std::size_t max_file_bytes(std::size_t default_bytes = kDefaultMaxFileBytes);

// Reads a whole file (a JSON shard or report, COCO annotations, a ROUGE
// settings file or file list) into memory. A missing, unreadable or directory
// path, and a read that fails midway (EIO), are input errors naming the file:
// never a partial content. So is a file larger than max_file_bytes(): refused
// before reading when its size is known, else (/dev/zero, a FIFO) as soon as
// the limit is passed, so memory stays bounded.
std::string read_whole_file(const std::string& path);

// The input error for a whole-file input larger than `limit` bytes.
[[noreturn]] void throw_file_too_large(const std::string& path, std::size_t limit);

}  // namespace evalcli::io
