#pragma once
// Reads a text file one line at a time with SacreBLEU's line rules:
// in files only LF ends a line (a CR before it stays and is removed by the
// rstrip), a final line without LF counts, a UTF-8 BOM is kept as U+FEFF.
// Standard input uses Python's universal newlines (CRLF, CR and LF end lines).
// Every line is checked UTF-8; errors name file, line and byte.
// A line longer than max_line_bytes() is an input error (docs/limits.md): memory
// stays bounded whatever the input.
// Files named *.gz, *.bz2 or *.xz are decompressed (SacreBLEU reads .gz);
// a file that is compressed but named otherwise fails with a hint.
#include <istream>
#include <memory>
#include <string>
#include <vector>

namespace evalcli {
struct ByteCodec;  // evalcli/io/byte_codec.hpp
}  // namespace evalcli

namespace evalcli::io {

// The longest line evalcli reads (bytes, without the terminator): 16 MiB,
// or EVALCLI_MAX_LINE_BYTES from the environment when set to a positive number.
std::size_t max_line_bytes();

class LineReader {
 public:
  // Opens `path` ("-" = standard input). Throws evalcli::Error (input_data) for a
  // missing, unreadable or directory path.
  explicit LineReader(const std::string& path);
  // Reads from an already open stream (tests, stdin); `name` appears in errors.
  LineReader(std::istream& in, std::string name, bool universal_newlines);

  LineReader(LineReader&&) noexcept;
  LineReader& operator=(LineReader&&) noexcept;
  ~LineReader();

  // Next line as raw bytes without its terminator; false at end of input.
  bool next_bytes(std::string& line);
  // Decode lines with a single-byte codec (evalcli sacrebleu -e) instead of
  // UTF-8; a byte the codec leaves undefined is an input error. `codec` must
  // outlive the reader.
  void decode_with(const ByteCodec& codec) { codec_ = &codec; }
  // Next line decoded from UTF-8 (throws on invalid UTF-8), not stripped.
  bool next_unstripped(std::u32string& line);
  // Next line decoded and rstrip()ped of Python whitespace (SacreBLEU's view).
  bool next(std::u32string& line);

  // 1-based number of the line returned last (0 before the first).
  std::size_t line_number() const { return line_number_; }
  const std::string& name() const { return name_; }
  // Reads to the end and returns how many lines the input had in total.
  std::size_t count_total_lines();

 private:
  struct Input;  // the byte source and the line splitter over it
  bool read_physical_line(std::string_view& line);
  bool next_view(std::string_view& line);
  [[noreturn]] void throw_invalid_utf8(std::string_view bytes, std::size_t bad) const;

  std::unique_ptr<Input> input_;
  std::string name_;
  bool universal_newlines_ = false;
  const ByteCodec* codec_ = nullptr;  // nullptr: UTF-8
  std::size_t line_number_ = 0;
  std::vector<std::string> pending_;  // lines split off a CR-separated chunk (stdin)
  std::size_t pending_pos_ = 0;
};

// Reads a whole file (rstripped lines). Convenience for small inputs and tests.
std::vector<std::u32string> read_lines(const std::string& path);

// Throws input_error unless `path` names a readable regular file (or "-").
void check_readable_file(const std::string& path);

}  // namespace evalcli::io
