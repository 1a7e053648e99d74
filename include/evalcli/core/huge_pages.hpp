// Zero-filled tables in their own anonymous mappings, and the malloc heap on huge pages.
//
// Fresh anonymous pages read as zero, so a table whose empty state is all
// zero bytes needs no memset; a mapping that starts at a 2 MiB boundary with
// MADV_HUGEPAGE advised can be backed by transparent huge pages, which spares
// a page fault per 4 KiB and most TLB misses of random look-ups. The kernel
// may ignore the advice: contents are the same either way.
#pragma once

#include <cstddef>

namespace evalcli::memory {

inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

// `bytes` of zeroes at a 2 MiB boundary, mapped in whole 2 MiB pages (the
// part past `bytes` is never touched unless written).
// Throws std::bad_alloc if the mapping fails.
void* map_zeroed_huge(std::size_t bytes);
// Releases what map_zeroed_huge(bytes) returned (same `bytes`).
void unmap_zeroed_huge(void* data, std::size_t bytes);

// A block of zero-filled bytes that frees itself. Below kHugePage it comes
// from calloc (no 2 MiB mapping for a small table); from kHugePage up it is
// its own mapping from map_zeroed_huge().
class ZeroedBuffer {
 public:
  ZeroedBuffer() = default;
  explicit ZeroedBuffer(std::size_t bytes);
  ZeroedBuffer(ZeroedBuffer&& other) noexcept { swap(other); }
  ZeroedBuffer& operator=(ZeroedBuffer&& other) noexcept {
    swap(other);
    return *this;
  }
  ZeroedBuffer(const ZeroedBuffer&) = delete;
  ZeroedBuffer& operator=(const ZeroedBuffer&) = delete;
  ~ZeroedBuffer();

  void* data() const { return data_; }
  std::size_t size() const { return size_; }
  // Enlarges the block to `bytes`, keeping its contents; the added bytes read
  // as zero. The block may move. A mapping grows by mremap (no copy).
  void grow(std::size_t bytes);

 private:
  bool is_mapping() const { return size_ >= kHugePage; }
  void swap(ZeroedBuffer& other) noexcept;
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

// glibc backs its malloc heap with transparent huge pages only when told so
// at start-up (GLIBC_TUNABLES=glibc.malloc.hugetlb=1). This does the same from
// inside: the heap's next growth is made 64 MiB at once (M_TOP_PAD) and that
// range is advised huge pages; pages are still faulted in only when touched.
// Blocks up to 32 MiB then come from this heap too (M_MMAP_THRESHOLD), and a
// never-written block covers the rest of the 2 MiB range start-up's blocks
// already hold in small pages, so that the next blocks start on a huge page.
// The CLI calls it for every command but ppl (cli::run; CIDEr's captions
// otherwise took some 4,000 page faults, a tenth of its CPU time). Once per
// process; does nothing without glibc or THP, or under an address-space
// limit (ulimit -v: the 64 MiB are address space taken ahead).
void back_malloc_heap_with_huge_pages();

}  // namespace evalcli::memory
