// UTF-8 decoder and line reader: decoding must round-trip valid input and stop
// exactly at the first invalid sequence; the line reader must split any bytes
// (files: LF only; stdin: universal newlines) without losing or inventing lines;
// with a single-byte codec (sacrebleu -e) every byte decodes to its table entry;
// with UTF-16/32 the lines are the decoded text split at LF, with GB18030 and
// cp932 at the LF bytes.
#include <cstdint>
#include <cstdlib>
#include <sstream>

#include "evalcli/core/error.hpp"
#include "evalcli/io/byte_codec.hpp"
#include "evalcli/io/decompress.hpp"
#include "evalcli/io/line_reader.hpp"
#include "evalcli/text/utf8.hpp"
#include "fuzz_support.hpp"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

void fuzz_decoder(std::string_view bytes) {
  std::u32string decoded;
  const std::size_t bad = evalcli::utf8::decode(bytes, decoded);
  if (bad == evalcli::utf8::npos) {
    check(evalcli::utf8::encode(decoded) == bytes);
    return;
  }
  check(bad < bytes.size());
  // Everything before the bad offset is valid and decodes to what was returned.
  std::u32string prefix;
  check(evalcli::utf8::decode(bytes.substr(0, bad), prefix) == evalcli::utf8::npos);
  check(prefix == decoded);
}

std::size_t expected_file_lines(std::string_view bytes) {
  std::size_t lines = 0;
  for (char c : bytes) lines += c == '\n';
  if (!bytes.empty() && bytes.back() != '\n') ++lines;
  return lines;
}

void fuzz_reader(std::string_view bytes, bool universal_newlines) {
  std::istringstream in{std::string(bytes)};
  evalcli::io::LineReader reader(in, "fuzz", universal_newlines);
  std::u32string line;
  std::size_t lines = 0;
  try {
    while (reader.next(line)) {
      ++lines;
      check(reader.line_number() == lines);
    }
  } catch (const evalcli::Error& e) {
    check(e.code() == evalcli::ExitCode::input_data);
    return;
  }
  if (!universal_newlines) check(lines == expected_file_lines(bytes));
}

// The codec picked by the input's first byte decodes the whole input line by
// line: each code point is the table's entry for its byte, or the run stops at
// an undefined byte with an input error.
void fuzz_codec_reader(std::string_view bytes) {
  static const std::vector<std::string> names = evalcli::byte_codec_names();
  if (bytes.empty()) return;
  const auto codec = evalcli::find_byte_codec(names[static_cast<unsigned char>(bytes[0]) % names.size()]);
  check(codec.has_value());
  std::istringstream in{std::string(bytes)};
  evalcli::io::LineReader reader(in, "fuzz", false);
  reader.decode_with(*codec);
  std::u32string line;
  std::size_t lines = 0, offset = 0;
  try {
    while (reader.next_unstripped(line)) {
      ++lines;
      for (const char32_t c : line) {
        check(c == codec->table[static_cast<unsigned char>(bytes[offset])]);
        ++offset;
      }
      offset += offset < bytes.size();  // the '\n'
    }
  } catch (const evalcli::Error& e) {
    check(e.code() == evalcli::ExitCode::input_data);
    return;
  }
  check(lines == expected_file_lines(bytes));
}

// The UTF-16/32 codecs, GB18030 and cp932, picked by the input's first byte:
// an input error, or lines that put together again are the whole decoded text
// (UTF-16/32) or as many as the input has LF-ended lines (GB18030, cp932).
void fuzz_other_codec_reader(std::string_view bytes) {
  static const std::vector<std::string> names = [] {
    auto all = evalcli::unit_codec_names();
    for (const auto& name : evalcli::multibyte_codec_names()) all.push_back(name);
    return all;
  }();
  if (bytes.empty()) return;
  const auto codec = evalcli::find_byte_codec(names[static_cast<unsigned char>(bytes[0]) % names.size()]);
  check(codec.has_value());
  std::istringstream in{std::string(bytes)};
  evalcli::io::LineReader reader(in, "fuzz", false);
  reader.decode_with(*codec);
  std::u32string line;
  std::string joined;
  std::size_t lines = 0;
  try {
    while (reader.next_unstripped(line)) {
      joined += evalcli::utf8::encode(line) + "\n";
      ++lines;
    }
  } catch (const evalcli::Error& e) {
    check(e.code() == evalcli::ExitCode::input_data);
    return;
  }
  if (codec->unit == evalcli::CodeUnit::multibyte) {
    check(lines == expected_file_lines(bytes));
    return;
  }
  std::istringstream again{std::string(bytes)};
  auto source = evalcli::decode_units_to_utf8(evalcli::io::open_stream_source(again, "fuzz"), *codec, "fuzz", false);
  std::string decoded;
  char buffer[4096];
  while (const std::size_t got = source->read(buffer, sizeof buffer)) decoded.append(buffer, got);
  check(joined == decoded || joined == decoded + "\n");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes = evalcli::fuzz::as_text(data, size);
  fuzz_decoder(bytes);
  fuzz_reader(bytes, false);
  fuzz_reader(bytes, true);
  fuzz_codec_reader(bytes);
  fuzz_other_codec_reader(bytes);
  return 0;
}
