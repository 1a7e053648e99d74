#include "evalcli/core/huge_pages.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace evalcli::memory {
namespace {

constexpr std::size_t kSmallPage = 4096;

std::size_t whole_pages(std::size_t bytes) { return (bytes + kSmallPage - 1) / kSmallPage * kSmallPage; }

}  // namespace

void* map_zeroed_huge(std::size_t bytes) {
  const std::size_t length = whole_pages(bytes);
  // Over-allocate by one huge page and trim both ends, so that the block starts at a 2 MiB boundary.
  void* raw = ::mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  char* const base = static_cast<char*>(raw);
  char* const aligned = base + (kHugePage - reinterpret_cast<std::uintptr_t>(base) % kHugePage) % kHugePage;
  if (aligned > base) ::munmap(base, static_cast<std::size_t>(aligned - base));
  const std::size_t tail = static_cast<std::size_t>(base + length + kHugePage - (aligned + length));
  if (tail > 0) ::munmap(aligned + length, tail);
  ::madvise(aligned, length, MADV_HUGEPAGE);  // a hint: without THP, ordinary pages
  return aligned;
}

void unmap_zeroed_huge(void* data, std::size_t bytes) {
  if (data != nullptr) ::munmap(data, whole_pages(bytes));
}

}  // namespace evalcli::memory
