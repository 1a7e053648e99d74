#pragma once
// Transparent decompression of gzip, bzip2 and xz input, detected by the
// first bytes (not by the file name), as KenLM does for models and text.
// Plain input passes through unchanged.
#include <cstddef>
#include <istream>
#include <memory>
#include <streambuf>
#include <string>
#include <string_view>

namespace evalcli::io {

enum class Compression { none, gzip, bzip2, xz };

// Which compression `head` (the first bytes of a stream) announces.
Compression detect_compression(std::string_view head);
std::string_view compression_name(Compression compression);

// A pull source of (decompressed) bytes.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Fills up to `size` bytes; returns 0 only at the end of the data.
  // Throws evalcli::Error (input_data) on corrupt compressed data.
  virtual std::size_t read(char* out, std::size_t size) = 0;
  virtual Compression compression() const = 0;
};

// Reads `raw` (not owned; must outlive the source), decompressing if its first
// bytes are a gzip, bzip2 or xz magic. `name` appears in error messages.
std::unique_ptr<ByteSource> open_decompressed(std::istream& raw, std::string name);
// The same over any source of raw bytes (owned).
std::unique_ptr<ByteSource> open_decompressed(std::unique_ptr<ByteSource> raw, std::string name);

// Opens a file ("-" is not accepted here) and returns a decompressing source
// that owns the file. Throws input_error when it cannot be opened.
std::unique_ptr<ByteSource> open_decompressed_file(const std::string& path);

// The stream's bytes as they are (`in` not owned; must outlive the source).
std::unique_ptr<ByteSource> open_stream_source(std::istream& in, std::string name);
// The file's bytes as they are, read with read(2) (no stdio FILE: closing
// thousands of those is quadratic in glibc). Throws input_error when it
// cannot be opened.
std::unique_ptr<ByteSource> open_file_source(const std::string& path);
// open(2) for reading; at EMFILE the soft limit of open files is raised to the
// hard limit once, then an input error with a hint.
int open_read_fd(const std::string& path);

// The compression a file name announces: .gz, .bz2, .xz (SacreBLEU decompresses .gz by name).
Compression compression_from_name(std::string_view path);
std::string_view compression_suffix(Compression compression);  // ".gz", or ""
// Which compressed format the first bytes of a file are, checked strictly (a
// text line may start with "BZh"): gzip 1F 8B 08, xz's six bytes, bzip2's
// "BZh1".."BZh9" with its block magic. For hints about misnamed files.
Compression compressed_file_signature(std::string_view head);

// std::streambuf over a ByteSource, so std::istream/io::LineReader can read it.
class ByteSourceStreambuf : public std::streambuf {
 public:
  explicit ByteSourceStreambuf(std::unique_ptr<ByteSource> source);

 protected:
  int_type underflow() override;

 private:
  std::unique_ptr<ByteSource> source_;
  std::unique_ptr<char[]> buffer_;
};

// Splits a ByteSource into lines at '\n' without copying: the returned view is
// valid until the next call. Faster than std::getline for large model files.
class LineSplitter {
 public:
  // `buffer_bytes`: the initial read buffer (it grows for longer lines).
  // `max_line` > 0: a line longer than that is an input error naming `name`
  // and the line (as io::LineReader's limit), so memory stays bounded.
  explicit LineSplitter(ByteSource& source, std::size_t buffer_bytes = std::size_t{1} << 20, std::size_t max_line = 0,
                        std::string name = {});
  // Next line without its '\n'; `terminated` tells whether a '\n' ended it.
  bool next(std::string_view& line, bool* terminated = nullptr);
  // 1-based number of the line returned last.
  std::size_t line_number() const { return line_number_; }

 private:
  bool refill();

  ByteSource& source_;
  std::size_t max_line_;
  std::string name_;
  std::string buffer_;
  std::size_t begin_ = 0;  // start of unread data in buffer_
  std::size_t end_ = 0;    // end of valid data in buffer_
  bool eof_ = false;
  std::size_t line_number_ = 0;
};

}  // namespace evalcli::io
