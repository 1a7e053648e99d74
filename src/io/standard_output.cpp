#include "evalcli/io/standard_output.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace evalcli::io {

StandardOutputBuffer::StandardOutputBuffer(int fd) : fd_(fd), buffer_(std::size_t{1} << 16) {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

StandardOutputBuffer::~StandardOutputBuffer() { flush_buffer(); }

bool StandardOutputBuffer::write_all(const char* data, std::size_t size) {
  if (error_ != 0 || closed_) return false;
  while (size > 0) {
    const ssize_t written = ::write(fd_, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      error_ = errno;
      return false;
    }
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  return true;
}

bool StandardOutputBuffer::flush_buffer() {
  const auto size = static_cast<std::size_t>(pptr() - pbase());
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  return size == 0 || write_all(buffer_.data(), size);
}

StandardOutputBuffer::int_type StandardOutputBuffer::overflow(int_type c) {
  if (!flush_buffer()) return traits_type::eof();
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  return c;
}

std::streamsize StandardOutputBuffer::xsputn(const char* data, std::streamsize size) {
  const auto n = static_cast<std::size_t>(size);
  if (n <= static_cast<std::size_t>(epptr() - pptr())) {
    std::memcpy(pptr(), data, n);
    pbump(static_cast<int>(n));
    return size;
  }
  // Larger than the room left: what is buffered, then the text itself.
  if (!flush_buffer() || !write_all(data, n)) return 0;
  return size;
}

int StandardOutputBuffer::sync() { return flush_buffer() ? 0 : -1; }

bool StandardOutputBuffer::close() {
  if (closed_) return error_ == 0;
  const bool flushed = flush_buffer();
  closed_ = true;
  if (::close(fd_) != 0 && error_ == 0) error_ = errno;
  return flushed && error_ == 0;
}

void prepare_standard_streams() {
  ::signal(SIGPIPE, SIG_IGN);
  for (const int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // open() returns the lowest free number: this one.
    const int flags = fd == STDERR_FILENO ? O_WRONLY : O_RDONLY;
    const int opened = ::open("/dev/null", flags);
    if (opened >= 0 && opened != fd) ::close(opened);
  }
}

}  // namespace evalcli::io
