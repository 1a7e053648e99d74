#include "evalcli/io/read_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "evalcli/core/error.hpp"
#include "evalcli/io/line_reader.hpp"

namespace evalcli::io {

std::string read_whole_file(const std::string& path) {
  check_readable_file(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  std::string content;
  constexpr std::size_t kChunk = 1 << 16;
  std::string chunk(kChunk, '\0');
  // istream::read turns the exception a failing filebuf read throws into
  // badbit, which `<<` on a streambuf would silently drop.
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
    content.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (in.eof()) break;
  }
  if (in.bad()) throw input_error(fmt::format("{}: read error", path));
  return content;
}

}  // namespace evalcli::io
