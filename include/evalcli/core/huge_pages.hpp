// Large zero-filled tables in their own anonymous mappings.
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

// `bytes` (rounded up to whole 4 KiB pages) of zeroes at a 2 MiB boundary.
// Throws std::bad_alloc if the mapping fails.
void* map_zeroed_huge(std::size_t bytes);
// Releases what map_zeroed_huge(bytes) returned (same `bytes`).
void unmap_zeroed_huge(void* data, std::size_t bytes);

}  // namespace evalcli::memory
