#include "evalcli/core/huge_pages.hpp"

#include <sys/mman.h>
#include <sys/resource.h>

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

// A mapping's length: whole huge pages. THP backs only the 2 MiB ranges that
// lie wholly inside the mapping, so a 3 MiB table rounded to 4 KiB pages took
// its last MiB as 256 small-page faults (some 15 us each on a paravirtualised
// VM) where one more huge page costs one fault; untouched pages cost nothing.
std::size_t mapped_length(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

#if defined(__GLIBC__)
// malloc carves blocks from the heap's top upward, and the top starts inside
// the 2 MiB range that start-up's blocks touched: that range has small pages
// (THP passes it over), so blocks there fault page by page (some 450 faults
// for coco). A block that is never written, from the top to `first_huge`,
// makes the blocks after it start on a huge page.
// volatile: the compiler may drop a malloc whose block is never used.
void* volatile kept_filler = nullptr;
void* volatile probe_block = nullptr;

void skip_partly_used_huge_page(std::uintptr_t first_huge) {
  constexpr std::size_t kProbe = 64 * 1024;  // too large for any bin: from the top
  constexpr std::size_t kChunkHeader = 2 * sizeof(std::size_t);
  probe_block = std::malloc(kProbe);
  if (probe_block == nullptr) return;
  const auto top = reinterpret_cast<std::uintptr_t>(probe_block);
  std::free(probe_block);  // back into the top
  if (top >= first_huge || first_huge - top <= kChunkHeader || first_huge - top > kHugePage) return;
  kept_filler = std::malloc(first_huge - top - kChunkHeader);  // kept, never written
}
#endif

}  // namespace

void* map_zeroed_huge(std::size_t bytes) {
  const std::size_t length = mapped_length(bytes);
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
  if (data != nullptr) ::munmap(data, mapped_length(bytes));
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
    if (mapped_length(bytes) == mapped_length(size_)) {  // within the mapping's last huge page: zero already
      size_ = bytes;
      return;
    }
    void* moved = ::mremap(data_, mapped_length(size_), mapped_length(bytes), MREMAP_MAYMOVE);  // new pages read as zero
    if (moved == MAP_FAILED) throw std::bad_alloc();
    ::madvise(moved, mapped_length(bytes), MADV_HUGEPAGE);  // a hint, as map_zeroed_huge gives
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
  // Under an address-space limit (ulimit -v) the 64 MiB taken ahead could be
  // what runs out: the heap is left as it is.
  rlimit address_space{};
  if (getrlimit(RLIMIT_AS, &address_space) != 0 || address_space.rlim_cur != RLIM_INFINITY) return;
  constexpr int kTopPad = 64 << 20;
  if (mallopt(M_TOP_PAD, kTopPad) != 1) return;
  // Blocks of up to 32 MiB (glibc's most) from this heap too: by default each
  // block from 128 KiB up is a mapping of its own, in small pages.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
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
  if (end > start) {
    ::madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE);  // a hint only
    skip_partly_used_huge_page(start);
  }
#endif
}

}  // namespace evalcli::memory
