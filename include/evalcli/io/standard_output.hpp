#pragma once
// Standard output for main(): a buffer writing straight to descriptor 1 that
// remembers why a write failed, so that a lost result (a full disk, /dev/full,
// a closed pipe or descriptor) is an error with its reason, never exit 0.
#include <streambuf>
#include <vector>

namespace evalcli::io {

class StandardOutputBuffer : public std::streambuf {
 public:
  explicit StandardOutputBuffer(int fd);
  ~StandardOutputBuffer() override;
  StandardOutputBuffer(const StandardOutputBuffer&) = delete;
  StandardOutputBuffer& operator=(const StandardOutputBuffer&) = delete;

  // errno of the first failed write or close (0: none). After a failure the
  // rest of the output is dropped and the stream using the buffer goes bad.
  int error() const { return error_; }
  // Writes what is buffered and closes the descriptor (close reports some
  // deferred write errors, e.g. on NFS); false on failure.
  bool close();

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* data, std::streamsize size) override;
  int sync() override;

 private:
  bool write_all(const char* data, std::size_t size);
  bool flush_buffer();

  int fd_;
  int error_ = 0;
  bool closed_ = false;
  std::vector<char> buffer_;
};

// First thing in main(): SIGPIPE is ignored (a reader that went away is the
// write error EPIPE, reported like any other), and a standard descriptor
// that was closed is opened on /dev/null (stdout read-only, so that writing
// the result fails with EBADF), so no file evalcli opens takes its number.
void prepare_standard_streams();

}  // namespace evalcli::io
