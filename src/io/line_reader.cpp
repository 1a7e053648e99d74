#include "evalcli/io/line_reader.hpp"

#include "evalcli/io/byte_codec.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <string_view>

#include "evalcli/core/error.hpp"
#include "evalcli/core/numbers.hpp"
#include "evalcli/io/decompress.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::io {

void check_readable_file(const std::string& path) {
  if (path == "-") return;
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  // A symlink loop or an over-long name is not a missing file: say which (ELOOP, ENAMETOOLONG).
  if (ec && ec != std::errc::no_such_file_or_directory) {
    throw input_error(fmt::format("{}: cannot open: {}", path, ec.message()));
  }
  if (ec || !std::filesystem::exists(status)) {
    throw input_error(fmt::format("{}: no such file", path));
  }
  if (std::filesystem::is_directory(status)) {
    throw input_error(fmt::format("{}: is a directory, expected a text file", path));
  }
  if (::access(path.c_str(), R_OK) != 0) {
    throw input_error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  }
}

namespace {

// Keeps the first bytes read through it: enough for compressed_file_signature().
class HeadRecorder : public ByteSource {
 public:
  explicit HeadRecorder(std::unique_ptr<ByteSource> inner) : inner_(std::move(inner)) {}
  std::size_t read(char* out, std::size_t size) override {
    const std::size_t got = inner_->read(out, size);
    if (head_.size() < kHeadBytes) head_.append(out, std::min(got, kHeadBytes - head_.size()));
    return got;
  }
  Compression compression() const override { return inner_->compression(); }
  const std::string& head() const { return head_; }

 private:
  static constexpr std::size_t kHeadBytes = 16;
  std::unique_ptr<ByteSource> inner_;
  std::string head_;
};

// A read buffer fitting the file: thousands of small reference files stay small.
// At most 64 KiB (it grows for longer lines): every page of it is zeroed and
// first touched at a fault, which cost more than the reads it saved (BLEU on
// 20,370 lines: 1,021 -> 540 page faults, 12% less CPU than with 1 MiB).
std::size_t buffer_bytes_for(const std::string& path) {
  constexpr std::size_t kMaxBuffer = std::size_t{1} << 16;
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  return ec ? kMaxBuffer : static_cast<std::size_t>(std::min<std::uintmax_t>(size + 1, kMaxBuffer));
}

// A file named *.gz (.bz2, .xz) must hold that compression; an empty file is no lines.
std::unique_ptr<ByteSource> open_named_compressed(const std::string& path, Compression named) {
  auto source = open_decompressed(open_file_source(path), path);
  if (source->compression() == Compression::none && std::filesystem::file_size(path) > 0) {
    throw input_error(fmt::format("{}: not {} data, though the name ends in {}", path, compression_name(named),
                                  compression_suffix(named)));
  }
  return source;
}

}  // namespace

struct LineReader::Input {
  Input(std::unique_ptr<ByteSource> raw, std::size_t buffer_bytes, const std::string& name)
      : recorder(new HeadRecorder(std::move(raw))),
        source(recorder),
        lines(*source, buffer_bytes, max_line_bytes(), name) {}
  HeadRecorder* recorder;  // owned by `source`
  std::unique_ptr<ByteSource> source;
  LineSplitter lines;
  bool units_decoded = false;  // `source` is UTF-8 from a UTF-16/32 codec
};

LineReader::LineReader(const std::string& path) : name_(path) {
  if (path == "-") {
    name_ = "<stdin>";
    universal_newlines_ = true;
    // Not decompressed: a text starting with "BZh" is no bzip2 stream (compressed data gets a hint).
    input_ = std::make_unique<Input>(open_stream_source(std::cin, name_), std::size_t{1} << 16, name_);
    return;
  }
  check_readable_file(path);
  const Compression named = compression_from_name(path);
  auto source = named == Compression::none ? open_file_source(path) : open_named_compressed(path, named);
  input_ = std::make_unique<Input>(std::move(source), buffer_bytes_for(path), name_);
}

LineReader::LineReader(std::istream& in, std::string name, bool universal_newlines)
    : name_(std::move(name)), universal_newlines_(universal_newlines) {
  input_ = std::make_unique<Input>(open_stream_source(in, name_), std::size_t{1} << 16, name_);
}

LineReader::LineReader(LineReader&&) noexcept = default;
LineReader& LineReader::operator=(LineReader&&) noexcept = default;
LineReader::~LineReader() = default;

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

// The next line up to LF (without it); the splitter enforces max_line_bytes().
// A UTF-16/32 codec (given before the first read) turns the input into UTF-8
// first, so lines split on the decoded text as Python splits them.
bool LineReader::read_physical_line(std::string_view& line) {
  const bool units = codec_ != nullptr && (codec_->unit == CodeUnit::utf16 || codec_->unit == CodeUnit::utf32);
  if (units && !input_->units_decoded) {
    auto decoded = decode_units_to_utf8(std::move(input_->source), *codec_, name_, universal_newlines_);
    input_ = std::make_unique<Input>(std::move(decoded), std::size_t{1} << 16, name_);
    input_->units_decoded = true;
  }
  return input_->lines.next(line);
}

bool LineReader::next_bytes(std::string& line) {
  std::string_view view;
  if (!next_view(view)) return false;
  line.assign(view);
  return true;
}

// The view is into the splitter's buffer (or pending_), valid until the next
// read: a line is decoded from where it was read, with no copy.
bool LineReader::next_view(std::string_view& line) {
  if (!universal_newlines_) {
    if (!read_physical_line(line)) return false;
    ++line_number_;
    return true;
  }
  // Universal newlines: a chunk up to LF may hold several CR-terminated lines;
  // a CR right before the LF belongs to that LF (CRLF).
  if (pending_pos_ < pending_.size()) {
    line = pending_[pending_pos_++];
    ++line_number_;
    return true;
  }
  std::string_view chunk;
  if (!read_physical_line(chunk)) return false;
  if (!chunk.empty() && chunk.back() == '\r') chunk.remove_suffix(1);
  ++line_number_;
  if (chunk.find('\r') == std::string_view::npos) {  // one line: the common case
    line = chunk;
    return true;
  }
  pending_.clear();
  pending_pos_ = 0;
  std::size_t start = 0;
  for (std::size_t cr; (cr = chunk.find('\r', start)) != std::string_view::npos; start = cr + 1) {
    pending_.emplace_back(chunk.substr(start, cr - start));
  }
  pending_.emplace_back(chunk.substr(start));
  line = pending_[pending_pos_++];
  return true;
}

bool LineReader::next_unstripped(std::u32string& line) {
  std::string_view bytes;
  if (!next_view(bytes)) return false;
  line.clear();
  if (codec_ != nullptr && codec_->unit == CodeUnit::multibyte) {
    line = decode_multibyte_line(*codec_, bytes, fmt::format("{}:{}", name_, line_number_));
    return true;
  }
  if (codec_ != nullptr && codec_->unit == CodeUnit::byte) {
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      const auto byte = static_cast<unsigned char>(bytes[i]);
      const char32_t c = codec_->table[byte];
      if (c == kUndefinedByte) {
        throw input_error(fmt::format("{}:{}:byte {}: byte 0x{:02X} is undefined in {}", name_, line_number_, i + 1, byte,
                                      codec_->name));
      }
      line.push_back(c);
    }
    return true;
  }
  const std::size_t bad = utf8::decode(bytes, line);
  if (bad != utf8::npos) throw_invalid_utf8(bytes, bad);
  return true;
}

void LineReader::throw_invalid_utf8(std::string_view bytes, std::size_t bad) const {
  const std::string where = fmt::format("{}:{}:byte {}", name_, line_number_, bad + 1);
  // Compressed data read as text: say so rather than only naming the byte.
  const Compression looks = compressed_file_signature(input_->recorder->head());
  if (looks != Compression::none && input_->source->compression() == Compression::none) {
    const std::string suffix(compression_suffix(looks));
    throw Error(ExitCode::input_data,
                fmt::format("{}: invalid UTF-8: the input is {}-compressed, but its name does not end in {}", where,
                            compression_name(looks), suffix),
                name_ == "<stdin>" ? fmt::format("hint: decompress it first, or give the file with -i NAME{}", suffix)
                                   : fmt::format("hint: rename it {}{} to read it compressed, or decompress it", name_,
                                                 suffix));
  }
  throw input_error(fmt::format("{}: invalid UTF-8 (byte 0x{:02X})", where, static_cast<unsigned char>(bytes[bad])));
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
