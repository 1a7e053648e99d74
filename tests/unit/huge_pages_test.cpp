#include <catch2/catch.hpp>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "evalcli/core/huge_pages.hpp"
#include "support/sanitizers.hpp"

using namespace evalcli;

TEST_CASE("map_zeroed_huge: zeroed, writable, at a 2 MiB boundary", "[memory]") {
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{4096}, std::size_t{4097}, memory::kHugePage,
                                  memory::kHugePage * 3 / 2}) {
    auto* data = static_cast<unsigned char*>(memory::map_zeroed_huge(bytes));
    CHECK(reinterpret_cast<std::uintptr_t>(data) % memory::kHugePage == 0);
    bool all_zero = true;
    for (std::size_t i = 0; i < bytes; i += 997) all_zero = all_zero && data[i] == 0;
    CHECK(all_zero);
    CHECK(data[bytes - 1] == 0);
    data[0] = 1;
    data[bytes - 1] = 2;  // the whole length is writable
    CHECK(data[bytes - 1] == 2);
    memory::unmap_zeroed_huge(data, bytes);
  }
}

namespace {
bool all_bytes_are(const memory::ZeroedBuffer& buffer, std::size_t from, std::size_t to, unsigned char value) {
  const auto* bytes = static_cast<const unsigned char*>(buffer.data());
  for (std::size_t i = from; i < to; ++i) {
    if (bytes[i] != value) return false;
  }
  return true;
}
}  // namespace

TEST_CASE("ZeroedBuffer: zeroed, calloc below 2 MiB, a 2 MiB-aligned mapping from 2 MiB", "[memory]") {
  CHECK(memory::ZeroedBuffer().data() == nullptr);
  CHECK(memory::ZeroedBuffer(0).size() == 0);
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{4097}, memory::kHugePage, memory::kHugePage + 1}) {
    memory::ZeroedBuffer buffer(bytes);
    REQUIRE(buffer.size() == bytes);
    CHECK(all_bytes_are(buffer, 0, bytes, 0));
    if (bytes >= memory::kHugePage) CHECK(reinterpret_cast<std::uintptr_t>(buffer.data()) % memory::kHugePage == 0);
  }
}

TEST_CASE("ZeroedBuffer::grow keeps the contents and zero-fills the rest, across the 2 MiB switch", "[memory]") {
  memory::ZeroedBuffer buffer;
  std::size_t filled = 0;
  for (const std::size_t bytes : {std::size_t{100}, std::size_t{5000}, memory::kHugePage, 3 * memory::kHugePage,
                                  8 * memory::kHugePage}) {
    buffer.grow(bytes);
    REQUIRE(buffer.size() == bytes);
    CHECK(all_bytes_are(buffer, 0, filled, 0xAB));
    CHECK(all_bytes_are(buffer, filled, bytes, 0));
    std::memset(buffer.data(), 0xAB, bytes);
    filled = bytes;
  }
  buffer.grow(filled / 2);  // never shrinks
  CHECK(buffer.size() == filled);
  memory::ZeroedBuffer moved = std::move(buffer);
  CHECK(moved.size() == filled);
  CHECK(all_bytes_are(moved, filled - 10, filled, 0xAB));
}

TEST_CASE("ZeroedBuffer::grow within the mapping's last huge page neither moves nor loses a byte", "[memory]") {
  memory::ZeroedBuffer buffer(memory::kHugePage + 4096);
  std::memset(buffer.data(), 0xCD, buffer.size());
  void* const before = buffer.data();
  buffer.grow(2 * memory::kHugePage);  // the mapping is whole huge pages: no mremap
  CHECK(buffer.data() == before);
  CHECK(buffer.size() == 2 * memory::kHugePage);
  CHECK(all_bytes_are(buffer, 0, memory::kHugePage + 4096, 0xCD));
  CHECK(all_bytes_are(buffer, memory::kHugePage + 4096, 2 * memory::kHugePage, 0));
  buffer.grow(2 * memory::kHugePage + 1);  // past it: a larger mapping
  CHECK(all_bytes_are(buffer, memory::kHugePage + 4096, 2 * memory::kHugePage + 1, 0));
}

TEST_CASE("back_malloc_heap_with_huge_pages: once per process, malloc works on", "[memory]") {
  memory::back_malloc_heap_with_huge_pages();
  memory::back_malloc_heap_with_huge_pages();
  std::vector<std::unique_ptr<int[]>> blocks;  // 100,000 small heap blocks
  for (int i = 0; i < 100000; ++i) {
    blocks.push_back(std::make_unique<int[]>(10));
    blocks.back()[9] = i;
  }
  CHECK(blocks[99999][9] == 99999);
  CHECK(blocks[0][0] == 0);
#if defined(__GLIBC__) && !EVALCLI_TEST_HAS_ASAN  // ASan's allocator is not glibc's (its mallopt does nothing)
  // Blocks of a few MiB come from the heap too (below its break), not from
  // mappings of their own in small pages; under ulimit -v the heap is left alone.
  rlimit address_space{};
  REQUIRE(getrlimit(RLIMIT_AS, &address_space) == 0);
  const auto block = std::make_unique<char[]>(3 << 20);
  block[(3 << 20) - 1] = 1;
  const bool below_break = reinterpret_cast<std::uintptr_t>(block.get()) < reinterpret_cast<std::uintptr_t>(sbrk(0));
  CHECK(below_break == (address_space.rlim_cur == RLIM_INFINITY));
#endif
}
