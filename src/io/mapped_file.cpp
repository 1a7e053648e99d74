#include "evalcli/io/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <utility>

namespace evalcli::io {

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
}

void MappedFile::swap(MappedFile& other) noexcept {
  std::swap(data_, other.data_);
  std::swap(size_, other.size_);
}

MappedFile::Status MappedFile::open(const std::string& path, Readahead readahead) {
  MappedFile().swap(*this);  // unmaps what was mapped
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::cannot_open;
  struct stat info {};
  Status status = Status::mapped;
  if (::fstat(fd, &info) != 0) {
    status = Status::cannot_stat;
  } else if (!S_ISREG(info.st_mode)) {
    status = Status::not_a_regular_file;
  } else if (info.st_size > 0) {  // mmap refuses a length of 0: an empty file is an empty view
    const int flags = MAP_PRIVATE | (readahead == Readahead::whole_file ? MAP_POPULATE : 0);
    const auto size = static_cast<std::size_t>(info.st_size);
    void* data = ::mmap(nullptr, size, PROT_READ, flags, fd, 0);
    if (data == MAP_FAILED) {
      status = Status::cannot_map;
    } else {
      data_ = static_cast<const char*>(data);
      size_ = size;
    }
  }
  ::close(fd);
  return status;
}

}  // namespace evalcli::io
