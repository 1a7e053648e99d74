#pragma once
// A whole regular file mapped read-only: its bytes without a copy, for as long
// as the object lives.
#include <cstddef>
#include <string>
#include <string_view>

namespace evalcli::io {

class MappedFile {
 public:
  enum class Status { mapped, cannot_open, cannot_stat, not_a_regular_file, cannot_map };
  // on_demand: pages are read when touched (look-ups into a large file);
  // whole_file: read in at once (MAP_POPULATE), for files parsed end to end.
  enum class Readahead { on_demand, whole_file };

  MappedFile() = default;
  MappedFile(MappedFile&& other) noexcept { swap(other); }
  MappedFile& operator=(MappedFile&& other) noexcept {
    swap(other);
    return *this;
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  // Maps `path` in place of what was mapped before; on failure bytes() is empty.
  Status open(const std::string& path, Readahead readahead);
  std::string_view bytes() const { return {data_, size_}; }

 private:
  void swap(MappedFile& other) noexcept;
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace evalcli::io
