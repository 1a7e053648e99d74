#include "evalcli/io/line_reader.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>

#include "evalcli/core/error.hpp"
#include "evalcli/core/numbers.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::io {

void check_readable_file(const std::string& path) {
  if (path == "-") return;
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    throw input_error(fmt::format("{}: no such file", path));
  }
  if (std::filesystem::is_directory(status)) {
    throw input_error(fmt::format("{}: is a directory, expected a text file", path));
  }
  std::ifstream probe(path, std::ios::binary);
  if (!probe) throw input_error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
}

LineReader::LineReader(const std::string& path) : name_(path) {
  if (path == "-") {
    in_ = &std::cin;
    name_ = "<stdin>";
    universal_newlines_ = true;
    return;
  }
  check_readable_file(path);
  constexpr std::size_t kBufferSize = 1 << 20;
  buffer_ = std::make_unique_for_overwrite<char[]>(kBufferSize);  // not zeroed: only the part a read fills is ever touched
  file_ = std::make_unique<std::ifstream>();
  file_->rdbuf()->pubsetbuf(buffer_.get(), kBufferSize);
  file_->open(path, std::ios::binary);
  if (!*file_) throw input_error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  in_ = file_.get();
}

LineReader::LineReader(std::istream& in, std::string name, bool universal_newlines)
    : in_(&in), name_(std::move(name)), universal_newlines_(universal_newlines) {}

std::size_t max_line_bytes() {
  static const std::size_t limit = [] {
    constexpr std::size_t kDefault = std::size_t{16} << 20;
    const char* value = std::getenv("EVALCLI_MAX_LINE_BYTES");
    if (value == nullptr) return kDefault;
    // A bad value is a usage error (thrown again at every call: the static stays unset).
    return static_cast<std::size_t>(
        integer_in_range("EVALCLI_MAX_LINE_BYTES", value, 1, std::numeric_limits<long long>::max()));
  }();
  return limit;
}

void LineReader::throw_line_too_long() const {
  throw input_error(fmt::format("{}:{}: line longer than {} bytes (the limit; see EVALCLI_MAX_LINE_BYTES in "
                                "docs/limits.md)",
                                name_, line_number_ + 1, max_line_bytes()));
}

// Reads up to the next LF in chunks, so that a gigantic line fails at the
// limit instead of being read whole into memory.
bool LineReader::read_physical_line(std::string& line) {
  line.clear();
  constexpr std::streamsize kChunk = 1 << 16;
  char chunk[kChunk];
  bool extracted_any = false;
  for (;;) {
    in_->getline(chunk, kChunk);
    const std::streamsize got = in_->gcount();
    if (in_->bad()) throw input_error(fmt::format("{}: read error", name_));
    extracted_any = extracted_any || got > 0;
    if (!in_->fail()) {
      // Stopped at the LF (counted by gcount, not stored) or at the end of input.
      line.append(chunk, static_cast<std::size_t>(in_->eof() ? got : got - 1));
      if (line.size() > max_line_bytes()) throw_line_too_long();
      return true;
    }
    if (in_->eof()) {  // nothing more: the line (if any) ended without LF
      line.append(chunk, static_cast<std::size_t>(got));
      return extracted_any;
    }
    // The chunk filled up before an LF: keep reading the same line.
    line.append(chunk, static_cast<std::size_t>(got));
    if (line.size() > max_line_bytes()) throw_line_too_long();
    in_->clear();
  }
}

bool LineReader::next_bytes(std::string& line) {
  if (!universal_newlines_) {
    if (!read_physical_line(line)) return false;
    ++line_number_;
    return true;
  }
  // Universal newlines: a chunk up to LF may hold several CR-terminated lines;
  // a CR right before the LF belongs to that LF (CRLF).
  if (pending_pos_ < pending_.size()) {
    line = std::move(pending_[pending_pos_++]);
    ++line_number_;
    return true;
  }
  std::string chunk;
  if (!read_physical_line(chunk)) return false;
  if (!chunk.empty() && chunk.back() == '\r') chunk.pop_back();
  pending_.clear();
  pending_pos_ = 0;
  std::size_t start = 0;
  for (std::size_t cr; (cr = chunk.find('\r', start)) != std::string::npos; start = cr + 1) {
    pending_.push_back(chunk.substr(start, cr - start));
  }
  pending_.push_back(chunk.substr(start));
  line = std::move(pending_[pending_pos_++]);
  ++line_number_;
  return true;
}

bool LineReader::next_unstripped(std::u32string& line) {
  std::string bytes;
  if (!next_bytes(bytes)) return false;
  line.clear();
  const std::size_t bad = utf8::decode(bytes, line);
  if (bad != utf8::npos) {
    throw input_error(fmt::format("{}:{}:byte {}: invalid UTF-8 (byte 0x{:02X})", name_,
                                  line_number_, bad + 1, static_cast<unsigned char>(bytes[bad])));
  }
  return true;
}

bool LineReader::next(std::u32string& line) {
  if (!next_unstripped(line)) return false;
  line.resize(text::rstrip(line).size());
  return true;
}

std::size_t LineReader::count_total_lines() {
  std::string ignored;
  while (next_bytes(ignored)) {
  }
  return line_number_;
}

std::vector<std::u32string> read_lines(const std::string& path) {
  LineReader reader(path);
  std::vector<std::u32string> lines;
  std::u32string line;
  while (reader.next(line)) lines.push_back(line);
  return lines;
}

}  // namespace evalcli::io
