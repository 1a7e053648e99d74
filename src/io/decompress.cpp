#include "evalcli/io/decompress.hpp"

#include <bzlib.h>
#include <fmt/format.h>
#include <lzma.h>
#include <zlib.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <cerrno>
#include <cstring>

#include "evalcli/core/error.hpp"
#include "evalcli/io/line_reader.hpp"

namespace evalcli::io {
namespace {

constexpr std::size_t kChunk = 1 << 16;

// Up to `size` bytes straight from the stream's buffer (0 at the end). A
// failing read (EIO) makes std::filebuf throw std::ios_base::failure: that is
// an input error naming the file, not an internal one.
std::size_t read_raw(std::istream& in, char* out, std::size_t size, const std::string& name) {
  try {
    const auto got = in.rdbuf()->sgetn(out, static_cast<std::streamsize>(size));
    return got > 0 ? static_cast<std::size_t>(got) : 0;
  } catch (const std::ios_base::failure&) {
    throw input_error(fmt::format("{}: read error", name));
  }
}

class IstreamSource : public ByteSource {
 public:
  IstreamSource(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}
  std::size_t read(char* out, std::size_t size) override { return read_raw(in_, out, size, name_); }
  Compression compression() const override { return Compression::none; }

 private:
  std::istream& in_;
  std::string name_;
};

// Descriptors held open by FdSources (file_source_budget() below).
std::atomic<std::size_t> open_file_sources{0};

// A file read with read(2): no stdio FILE, whose closing walks glibc's list of
// every open FILE (quadratic with thousands of reference files).
class FdSource : public ByteSource {
 public:
  FdSource(int fd, std::string name) : fd_(fd), name_(std::move(name)) { ++open_file_sources; }
  ~FdSource() override {
    ::close(fd_);
    --open_file_sources;
  }
  FdSource(const FdSource&) = delete;
  FdSource& operator=(const FdSource&) = delete;

  std::size_t read(char* out, std::size_t size) override {
    for (;;) {
      const ssize_t got = ::read(fd_, out, size);
      if (got >= 0) return static_cast<std::size_t>(got);
      if (errno != EINTR) throw input_error(fmt::format("{}: read error: {}", name_, std::strerror(errno)));
    }
  }
  Compression compression() const override { return Compression::none; }

 private:
  int fd_;
  std::string name_;
};

// A regular file opened anew for each read, at the offset reached: what file
// sources past the budget of open descriptors use, so that any number of -r
// files can be read in lockstep. Reads come a buffer at a time (a small file is
// read whole at its first read), so the extra opens are few.
class ReopeningFileSource : public ByteSource {
 public:
  explicit ReopeningFileSource(std::string path) : path_(std::move(path)) {}

  std::size_t read(char* out, std::size_t size) override {
    const int fd = open_read_fd(path_);
    ssize_t got;
    do {
      got = ::pread(fd, out, size, offset_);
    } while (got < 0 && errno == EINTR);
    const int error = errno;
    ::close(fd);
    if (got < 0) throw input_error(fmt::format("{}: read error: {}", path_, std::strerror(error)));
    offset_ += got;
    return static_cast<std::size_t>(got);
  }
  Compression compression() const override { return Compression::none; }

 private:
  std::string path_;
  off_t offset_ = 0;
};

// Reads raw bytes from a source, first handing back the bytes peeked for the magic.
class RawInput {
 public:
  RawInput(std::unique_ptr<ByteSource> source, std::string head)
      : source_(std::move(source)), head_(std::move(head)) {}
  std::size_t read(char* out, std::size_t size) {
    if (head_pos_ < head_.size()) {
      const std::size_t n = std::min(size, head_.size() - head_pos_);
      std::memcpy(out, head_.data() + head_pos_, n);
      head_pos_ += n;
      return n;
    }
    return source_->read(out, size);
  }

 private:
  std::unique_ptr<ByteSource> source_;
  std::string head_;
  std::size_t head_pos_ = 0;
};

class PlainSource : public ByteSource {
 public:
  explicit PlainSource(RawInput raw) : raw_(std::move(raw)) {}
  std::size_t read(char* out, std::size_t size) override { return raw_.read(out, size); }
  Compression compression() const override { return Compression::none; }

 private:
  RawInput raw_;
};

// Shared loop of the three decoders: keep an input chunk, let the codec fill `out`.
class CodecSource : public ByteSource {
 public:
  CodecSource(RawInput raw, std::string name) : raw_(std::move(raw)), name_(std::move(name)), in_(new char[kChunk]) {}

 protected:
  // Refills the input chunk; returns false at the end of the raw data.
  bool fill_input(const char*& next, std::size_t& avail) {
    avail = raw_.read(in_.get(), kChunk);
    next = in_.get();
    return avail > 0;
  }
  RawInput raw_;
  std::string name_;
  std::unique_ptr<char[]> in_;
  bool done_ = false;
};

class GzipSource : public CodecSource {
 public:
  GzipSource(RawInput raw, std::string name) : CodecSource(std::move(raw), std::move(name)) {
    std::memset(&z_, 0, sizeof z_);
    if (inflateInit2(&z_, 15 + 32) != Z_OK) throw Error(ExitCode::internal, "zlib: inflateInit2 failed");
  }
  ~GzipSource() override { inflateEnd(&z_); }
  Compression compression() const override { return Compression::gzip; }

  std::size_t read(char* out, std::size_t size) override {
    if (done_) return 0;
    z_.next_out = reinterpret_cast<Bytef*>(out);
    z_.avail_out = static_cast<uInt>(size);
    while (z_.avail_out == size) {
      if (z_.avail_in == 0) {
        const char* next;
        std::size_t avail;
        if (!fill_input(next, avail)) {
          if (!member_ended_) throw input_error(fmt::format("{}: truncated gzip data", name_));
          done_ = true;
          break;
        }
        z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(next));
        z_.avail_in = static_cast<uInt>(avail);
      }
      if (member_ended_) {  // another gzip member follows (concatenated .gz files)
        inflateReset(&z_);
        member_ended_ = false;
      }
      const int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        member_ended_ = true;
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        throw input_error(fmt::format("{}: corrupt gzip data ({})", name_, z_.msg ? z_.msg : "inflate failed"));
      }
    }
    return size - z_.avail_out;
  }

 private:
  z_stream z_;
  bool member_ended_ = false;
};

class Bzip2Source : public CodecSource {
 public:
  Bzip2Source(RawInput raw, std::string name) : CodecSource(std::move(raw), std::move(name)) {
    std::memset(&bz_, 0, sizeof bz_);
    if (BZ2_bzDecompressInit(&bz_, 0, 0) != BZ_OK) throw Error(ExitCode::internal, "bzip2: init failed");
  }
  ~Bzip2Source() override { BZ2_bzDecompressEnd(&bz_); }
  Compression compression() const override { return Compression::bzip2; }

  std::size_t read(char* out, std::size_t size) override {
    if (done_) return 0;
    bz_.next_out = out;
    bz_.avail_out = static_cast<unsigned>(size);
    while (bz_.avail_out == size) {
      if (bz_.avail_in == 0) {
        const char* next;
        std::size_t avail;
        if (!fill_input(next, avail)) {
          if (!stream_ended_) throw input_error(fmt::format("{}: truncated bzip2 data", name_));
          done_ = true;
          break;
        }
        bz_.next_in = const_cast<char*>(next);
        bz_.avail_in = static_cast<unsigned>(avail);
      }
      if (stream_ended_) {  // concatenated bzip2 streams (pbzip2)
        const bz_stream saved = bz_;
        BZ2_bzDecompressEnd(&bz_);
        std::memset(&bz_, 0, sizeof bz_);
        if (BZ2_bzDecompressInit(&bz_, 0, 0) != BZ_OK) throw Error(ExitCode::internal, "bzip2: init failed");
        bz_.next_in = saved.next_in;
        bz_.avail_in = saved.avail_in;
        bz_.next_out = saved.next_out;
        bz_.avail_out = saved.avail_out;
        stream_ended_ = false;
      }
      const int rc = BZ2_bzDecompress(&bz_);
      if (rc == BZ_STREAM_END) {
        stream_ended_ = true;
      } else if (rc != BZ_OK) {
        throw input_error(fmt::format("{}: corrupt bzip2 data (error {})", name_, rc));
      }
    }
    return size - bz_.avail_out;
  }

 private:
  bz_stream bz_;
  bool stream_ended_ = false;
};

class XzSource : public CodecSource {
 public:
  XzSource(RawInput raw, std::string name) : CodecSource(std::move(raw), std::move(name)) {
    if (lzma_stream_decoder(&xz_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
      throw Error(ExitCode::internal, "xz: lzma_stream_decoder failed");
    }
  }
  ~XzSource() override { lzma_end(&xz_); }
  Compression compression() const override { return Compression::xz; }

  std::size_t read(char* out, std::size_t size) override {
    if (done_) return 0;
    xz_.next_out = reinterpret_cast<uint8_t*>(out);
    xz_.avail_out = size;
    while (xz_.avail_out == size && !done_) {
      lzma_action action = LZMA_RUN;
      if (xz_.avail_in == 0) {
        const char* next;
        std::size_t avail;
        if (fill_input(next, avail)) {
          xz_.next_in = reinterpret_cast<const uint8_t*>(next);
          xz_.avail_in = avail;
        } else {
          action = LZMA_FINISH;
        }
      }
      const lzma_ret rc = lzma_code(&xz_, action);
      if (rc == LZMA_STREAM_END) {
        done_ = true;
      } else if (rc != LZMA_OK) {
        throw input_error(fmt::format("{}: corrupt or truncated xz data (error {})", name_, static_cast<int>(rc)));
      }
    }
    return size - xz_.avail_out;
  }

 private:
  lzma_stream xz_ = LZMA_STREAM_INIT;
};

}  // namespace

Compression detect_compression(std::string_view head) {
  if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b) {
    return Compression::gzip;
  }
  if (head.size() >= 3 && head.substr(0, 3) == "BZh") return Compression::bzip2;
  if (head.size() >= 6 && head.substr(0, 6) == std::string_view("\xFD" "7zXZ\0", 6)) return Compression::xz;
  return Compression::none;
}

std::string_view compression_name(Compression compression) {
  switch (compression) {
    case Compression::gzip: return "gzip";
    case Compression::bzip2: return "bzip2";
    case Compression::xz: return "xz";
    case Compression::none: break;
  }
  return "none";
}

std::unique_ptr<ByteSource> open_decompressed(std::unique_ptr<ByteSource> raw, std::string name) {
  std::string head(6, '\0');
  std::size_t got = 0;
  while (got < head.size()) {
    const std::size_t n = raw->read(head.data() + got, head.size() - got);
    if (n == 0) break;
    got += n;
  }
  head.resize(got);
  const Compression compression = detect_compression(head);
  RawInput input(std::move(raw), std::move(head));
  switch (compression) {
    case Compression::gzip: return std::make_unique<GzipSource>(std::move(input), std::move(name));
    case Compression::bzip2: return std::make_unique<Bzip2Source>(std::move(input), std::move(name));
    case Compression::xz: return std::make_unique<XzSource>(std::move(input), std::move(name));
    case Compression::none: break;
  }
  return std::make_unique<PlainSource>(std::move(input));
}

std::unique_ptr<ByteSource> open_decompressed(std::istream& raw, std::string name) {
  return open_decompressed(std::make_unique<IstreamSource>(raw, name), name);
}

namespace {

// Raises the soft limit of open files to the hard one; false when it already was.
bool raise_open_file_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return false;
  limit.rlim_cur = limit.rlim_max;
  return ::setrlimit(RLIMIT_NOFILE, &limit) == 0;
}

}  // namespace

int open_read_fd(const std::string& path) {
  for (;;) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) return fd;
    if (errno == EINTR) continue;
    // Thousands of -r files: use what the hard limit allows before giving up.
    if (errno == EMFILE && raise_open_file_limit()) continue;
    if (errno == EMFILE) {
      throw Error(ExitCode::input_data,
                  fmt::format("{}: cannot open: {} (evalcli keeps every input open at once)", path,
                              std::strerror(EMFILE)),
                  "hint: raise the limit of open files (ulimit -n) above the number of input files");
    }
    throw input_error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  }
}

std::unique_ptr<ByteSource> open_stream_source(std::istream& in, std::string name) {
  return std::make_unique<IstreamSource>(in, std::move(name));
}

namespace {

// Descriptors that file sources may keep open: the soft limit (raised to the
// hard one when reached) less a reserve for outputs, resources and the
// reopening sources' own reads.
std::size_t file_source_budget() {
  constexpr rlim_t kReserve = 64;
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
  if (limit.rlim_cur != RLIM_INFINITY && open_file_sources + kReserve >= limit.rlim_cur && raise_open_file_limit()) {
    ::getrlimit(RLIMIT_NOFILE, &limit);
  }
  if (limit.rlim_cur == RLIM_INFINITY) return std::numeric_limits<std::size_t>::max();
  return limit.rlim_cur > 2 * kReserve ? static_cast<std::size_t>(limit.rlim_cur - kReserve)
                                       : static_cast<std::size_t>(limit.rlim_cur / 2);
}

bool is_regular_file(const std::string& path) {
  struct stat status {};
  return ::stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode);
}

}  // namespace

std::unique_ptr<ByteSource> open_file_source(const std::string& path) {
  check_readable_file(path);
  // Past the budget a regular file is reopened for each read (a pipe or a
  // device cannot be: it takes a descriptor, or fails with a hint).
  if (open_file_sources >= file_source_budget() && is_regular_file(path)) {
    return std::make_unique<ReopeningFileSource>(path);
  }
  return std::make_unique<FdSource>(open_read_fd(path), path);
}

std::unique_ptr<ByteSource> open_decompressed_file(const std::string& path) {
  return open_decompressed(open_file_source(path), path);
}

Compression compression_from_name(std::string_view path) {
  const auto ends_with = [path](std::string_view suffix) {
    return path.size() > suffix.size() && path.substr(path.size() - suffix.size()) == suffix;
  };
  if (ends_with(".gz")) return Compression::gzip;
  if (ends_with(".bz2")) return Compression::bzip2;
  if (ends_with(".xz")) return Compression::xz;
  return Compression::none;
}

std::string_view compression_suffix(Compression compression) {
  switch (compression) {
    case Compression::gzip: return ".gz";
    case Compression::bzip2: return ".bz2";
    case Compression::xz: return ".xz";
    case Compression::none: break;
  }
  return "";
}

Compression compressed_file_signature(std::string_view head) {
  const auto starts = [head](std::string_view magic) { return head.substr(0, magic.size()) == magic; };
  if (starts(std::string_view("\x1F\x8B\x08", 3))) return Compression::gzip;
  if (starts(std::string_view("\xFD" "7zXZ\0", 6))) return Compression::xz;
  // "BZh", the block size 1-9, then the first block's or the end-of-stream magic.
  if (head.size() >= 10 && starts("BZh") && head[3] >= '1' && head[3] <= '9' &&
      (head.substr(4, 6) == "1AY&SY" || head.substr(4, 6) == std::string_view("\x17\x72\x45\x38\x50\x90", 6))) {
    return Compression::bzip2;
  }
  return Compression::none;
}

ByteSourceStreambuf::ByteSourceStreambuf(std::unique_ptr<ByteSource> source)
    : source_(std::move(source)), buffer_(new char[kChunk]) {
  setg(buffer_.get(), buffer_.get(), buffer_.get());
}

ByteSourceStreambuf::int_type ByteSourceStreambuf::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  const std::size_t n = source_->read(buffer_.get(), kChunk);
  if (n == 0) return traits_type::eof();
  setg(buffer_.get(), buffer_.get(), buffer_.get() + n);
  return traits_type::to_int_type(*gptr());
}

LineSplitter::LineSplitter(ByteSource& source, std::size_t buffer_bytes, std::size_t max_line, std::string name)
    : source_(source), max_line_(max_line), name_(std::move(name)), buffer_(std::max<std::size_t>(buffer_bytes, 64), '\0') {}

bool LineSplitter::refill() {
  if (eof_) return false;
  // Move the unread tail to the front, grow if a single line fills the buffer.
  const std::size_t unread = end_ - begin_;
  if (begin_ > 0) std::memmove(buffer_.data(), buffer_.data() + begin_, unread);
  begin_ = 0;
  end_ = unread;
  if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
  const std::size_t n = source_.read(buffer_.data() + end_, buffer_.size() - end_);
  if (n == 0) {
    eof_ = true;
    return false;
  }
  end_ += n;
  return true;
}

bool LineSplitter::next(std::string_view& line, bool* terminated) {
  // The limit holds for every line returned, also one that ends inside a
  // buffer grown past the limit (the check before refill() only sees lines
  // still without their LF).
  auto check_length = [this](std::size_t bytes) {
    if (max_line_ > 0 && bytes > max_line_) {
      throw input_error(fmt::format("{}:{}: line longer than {} bytes (the limit; see EVALCLI_MAX_LINE_BYTES in "
                                    "docs/limits.md)",
                                    name_, line_number_ + 1, max_line_));
    }
  };
  std::size_t scanned = begin_;
  while (true) {
    const void* hit = std::memchr(buffer_.data() + scanned, '\n', end_ - scanned);
    if (hit != nullptr) {
      const std::size_t pos = static_cast<const char*>(hit) - buffer_.data();
      check_length(pos - begin_);
      line = std::string_view(buffer_.data() + begin_, pos - begin_);
      begin_ = pos + 1;
      ++line_number_;
      if (terminated) *terminated = true;
      return true;
    }
    const std::size_t offset = end_ - begin_;
    check_length(offset);
    if (!refill()) {
      if (begin_ == end_) return false;
      line = std::string_view(buffer_.data() + begin_, end_ - begin_);
      begin_ = end_;
      ++line_number_;
      if (terminated) *terminated = false;
      return true;
    }
    scanned = begin_ + offset;
  }
}

}  // namespace evalcli::io
