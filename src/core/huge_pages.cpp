#include "evalcli/core/huge_pages.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#include <unistd.h>
#endif

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

ZeroedBuffer::ZeroedBuffer(std::size_t bytes) : size_(bytes) {
  if (is_mapping()) {
    data_ = map_zeroed_huge(bytes);
  } else if (bytes > 0) {
    data_ = std::calloc(bytes, 1);
    if (data_ == nullptr) throw std::bad_alloc();
  }
}

ZeroedBuffer::~ZeroedBuffer() {
  if (is_mapping()) {
    unmap_zeroed_huge(data_, size_);
  } else {
    std::free(data_);
  }
}

void ZeroedBuffer::swap(ZeroedBuffer& other) noexcept {
  std::swap(data_, other.data_);
  std::swap(size_, other.size_);
}

void ZeroedBuffer::grow(std::size_t bytes) {
  if (bytes <= size_) return;
  if (is_mapping()) {
    void* moved = ::mremap(data_, whole_pages(size_), whole_pages(bytes), MREMAP_MAYMOVE);  // new pages read as zero
    if (moved == MAP_FAILED) throw std::bad_alloc();
    ::madvise(moved, whole_pages(bytes), MADV_HUGEPAGE);  // a hint, as map_zeroed_huge gives
    data_ = moved;
    size_ = bytes;
    return;
  }
  ZeroedBuffer larger(bytes);
  if (size_ > 0) std::memcpy(larger.data_, data_, size_);
  swap(larger);
}

void back_malloc_heap_with_huge_pages() {
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && defined(M_TOP_PAD)
  static bool done = false;  // once per process (the tests run many commands)
  if (done) return;
  done = true;
  constexpr int kTopPad = 64 << 20;
  if (mallopt(M_TOP_PAD, kTopPad) != 1) return;
  char* const before = static_cast<char*>(sbrk(0));
  if (before == reinterpret_cast<char*>(-1)) return;
  // Blocks below the mmap threshold until the heap top moves (it then grows by the pad).
  std::vector<void*> probes;
  probes.reserve(64);
  while (static_cast<char*>(sbrk(0)) == before && probes.size() < 64) {
    void* block = std::malloc(64 * 1024);
    if (block == nullptr) break;
    probes.push_back(block);
  }
  for (void* block : probes) std::free(block);
  char* const after = static_cast<char*>(sbrk(0));
  const std::uintptr_t start = (reinterpret_cast<std::uintptr_t>(before) + kHugePage - 1) & ~(kHugePage - 1);
  const auto end = reinterpret_cast<std::uintptr_t>(after);
  if (end > start) ::madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE);  // a hint only
#endif
}

}  // namespace evalcli::memory
